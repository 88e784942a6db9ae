"""``dicecam bench model``: the die reader's speed and accuracy figures (issue 6).

Prints, for a model (default: the shipped one) on one CPU thread: crops per second on
batches of 60, value accuracy and confusion matrix on synthetic crops never used in
training (seed ``TEST_SEED``), value accuracy on the real development photos (the held-out
part and the part used for fine-tuning, separately), and the colour stage's accuracy per
built-in dice set under warm, neutral and cool light when that stage is available.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from dicecam.calibration.profile import load_profile
from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE
from dicecam.synth.dicesets import DICE_SETS
from dicecam.tools.realdata import SOURCES, real_crops, real_data_dir
from dicecam.tools.train.reader.crops import CropOptions, generate_crops
from dicecam.tools.train.reader.training import TEST_SEED
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.read.die_reader import DieReader

HELP = "die reader: crops/s on one thread, synthetic and real accuracy, colour accuracy"

BATCH = 60
LIGHTS = (("warm", 2700.0), ("neutral", 4500.0), ("cool", 6500.0))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, default=None, help="ONNX file (default: shipped)")
    parser.add_argument("--samples", type=int, default=3000, help="synthetic test crops")
    parser.add_argument("--colour-samples", type=int, default=300,
                        help="synthetic crops per dice set and light for the colour figures")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering crops")
    parser.add_argument("--no-real", action="store_true", help="skip the real photos")
    parser.add_argument("--no-colour", action="store_true", help="skip the colour figures")


def _percent(part: float) -> str:
    return f"{100.0 * part:.2f}%"


def confusion_text(truth, pred, labels: tuple[str, ...]) -> str:  # numpy arrays
    import numpy as np

    size = len(labels)
    matrix = np.zeros((size, size), np.int64)
    np.add.at(matrix, (truth, pred), 1)
    width = max(6, max(len(label) for label in labels) + 1)
    lines = ["truth \\ read".ljust(14) + "".join(label.rjust(width) for label in labels)]
    for i, label in enumerate(labels):
        lines.append(label.ljust(14) + "".join(str(v).rjust(width) for v in matrix[i]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import cv2

    from dicecam.tools.train.reader.net import INPUT_PX

    if args.samples < BATCH:
        raise InputError(f"--samples must be at least {BATCH}")
    cv2.setNumThreads(1)
    reader = DieReader(args.model, threads=1)
    print(f"model: {reader.model_path} ({reader.model_path.stat().st_size / 1024:.0f} KiB, "
          f"input {reader.input_px} px)")

    images, labels, _ = generate_crops(args.samples, TEST_SEED, CropOptions(out_px=INPUT_PX),
                                       workers=args.workers)
    crops = list(images)

    # speed: the whole read() (resize + model + softmax) on batches of 60, one thread
    native, _, _ = generate_crops(BATCH, TEST_SEED + 1, CropOptions(out_px=56), workers=1)
    batch = list(native)
    for _ in range(5):
        reader.read(batch)
    rounds = 200
    start = time.perf_counter()
    for _ in range(rounds):
        reader.read(batch)
    full = rounds * BATCH / (time.perf_counter() - start)
    prepared = reader.preprocess(batch)
    start = time.perf_counter()
    for _ in range(rounds):
        reader._session.run(None, {reader._input: prepared})
    model_only = rounds * BATCH / (time.perf_counter() - start)
    print(f"speed (1 thread, batch {BATCH}, 56 px crops): {full:,.0f} crops/s with resizing, "
          f"{model_only:,.0f} crops/s model only ({1000 * BATCH / full:.1f} ms per 60 dice)")

    probs = reader.probabilities(crops)
    pred = probs.argmax(axis=1)
    accuracy = float((pred == labels).mean())
    readable = labels != 0
    value_acc = float((pred[readable] == labels[readable]).mean())
    wrong_value = float(((pred != labels) & readable & (pred != 0)).mean())
    print(f"\nsynthetic test set ({len(labels)} crops, seed {TEST_SEED}, never trained on):")
    print(f"  accuracy over 7 classes: {_percent(accuracy)}; value accuracy on readable dice: "
          f"{_percent(value_acc)}; a wrong value (not 'unreadable'): {_percent(wrong_value)}")
    print("  confusion matrix (rows: truth, columns: read; '-' = unreadable):")
    print("  " + confusion_text(labels, pred, ("-", "1", "2", "3", "4", "5", "6"))
          .replace("\n", "\n  "))
    confident = probs.max(axis=1) >= 0.9
    if confident.any():
        print(f"  readings with confidence >= 0.90: {_percent(float(confident.mean()))} of "
              f"crops, {_percent(float((pred[confident] == labels[confident]).mean()))} right")

    if not args.no_real:
        _real(reader)
    if not args.no_colour:
        _colour(args)
    return 0


def _real(reader) -> None:
    import numpy as np

    if real_data_dir() is None:
        print("\nreal photos: not found (set DICECAM_REAL_DATA); skipped")
        return
    print("\nreal development photos (value accuracy; an 'unreadable' answer counts wrong):")
    for held_out, part in ((True, "held out (never trained on)"),
                           (False, "tuning part (used in training)")):
        crops, values, sources = real_crops(held_out=held_out)
        readings = reader.read(crops)
        got = np.array([r.value or 0 for r in readings])
        src = np.array(sources)
        parts = []
        for name in SOURCES:
            mine = src == name
            if mine.any():
                share = float((got[mine] == values[mine]).mean())
                parts.append(f"{name} {_percent(share)} of {int(mine.sum())}")
        per = ", ".join(parts)
        print(f"  {part}: {_percent(float((got == values).mean()))} of {len(values)} "
              f"({per}); unreadable answers {int((got == 0).sum())}")
        if held_out:
            labels = ("-", "1", "2", "3", "4", "5", "6")
            print("  held-out confusion matrix:\n  " + confusion_text(values, got, labels)
                  .replace("\n", "\n  "))


def _colour(args: argparse.Namespace) -> None:
    # Some crops carry no colour left to read (a 2-px numeral after a JPEG's halved colour
    # resolution): the colour stage should say so with a low confidence, and the tablet
    # then asks. So the bench shows all three: right overall, asked, right among the rest.
    print(f"\ncolour (ColourReader with the built-in profile, {args.colour_samples} synthetic "
          f"crops of 48 px per set and light, readable dice only; asked: confidence under "
          f"{LOW_CONFIDENCE:.2f}, so the tablet asks; sure: the others):")
    print(f"  {'set':10s} {'light':8s} {'right':>8s} {'asked':>8s} {'right when sure':>16s}  "
          f"mistakes (truth->read, * sure)")
    for offset, set_name in enumerate(DICE_SETS):
        reader = ColourReader(load_profile(set_name))
        for light_index, (light, kelvin) in enumerate(LIGHTS):
            options = CropOptions(out_px=48, only_set=set_name, kelvin=kelvin,
                                  unreadable_share=0.0)
            seed = TEST_SEED + 100 + 10 * offset + light_index
            images, _, colours = generate_crops(args.colour_samples, seed, options,
                                                workers=args.workers)
            answers = reader.read(list(images))
            right = sure = sure_right = 0
            mistakes: dict[tuple[str, str | None, bool], int] = {}
            for truth, (name, conf) in zip(colours, answers, strict=True):
                confident = name is not None and conf >= LOW_CONFIDENCE
                sure += confident
                if name == truth:
                    right += 1
                    sure_right += confident
                else:
                    key = (truth, name, confident)
                    mistakes[key] = mistakes.get(key, 0) + 1
            count = len(colours)
            when_sure = _percent(sure_right / sure) if sure else "-"
            listed = ", ".join(f"{t}->{n}{'*' if c else ''} x{k}" for (t, n, c), k in
                               sorted(mistakes.items(), key=lambda item: -item[1])[:4])
            print(f"  {set_name:10s} {light:8s} {_percent(right / count):>8s} "
                  f"{_percent(1 - sure / count):>8s} {when_sure:>16s}  {listed or '-'}")
