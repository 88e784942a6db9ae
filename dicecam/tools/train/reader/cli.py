"""``dicecam train reader``: the die reader's training command (see ``train_reader``)."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from dicecam.errors import InputError
from dicecam.tools.realdata import check_sources
from dicecam.tools.train.reader.quantize import (
    CALIBRATION_SAMPLES,
    CALIBRATION_SEED,
    quantize_reader,
    rendered_inputs,
)
from dicecam.tools.train.reader.training import TrainConfig, train_reader
from dicecam.vision.read.die_reader import QUANTIZED_MODEL, TRAINED_MODEL, DieReader

HELP = "train the die reader (value 1-6 or unreadable) on synthetic crops, export ONNX"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="seed for data and weights")
    parser.add_argument("--samples", type=int, default=200_000, help="synthetic training crops")
    parser.add_argument("--val-samples", type=int, default=3_000,
                        help="synthetic validation crops")
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--lr", type=float, default=4e-3, help="peak learning rate")
    parser.add_argument("--workers", type=int, default=2, help="processes rendering crops")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--device", default="cpu",
                        help="where torch trains: cpu (default) or cuda (a GPU; its runs do "
                             "not reproduce a CPU run's weights)")
    parser.add_argument("--no-real", action="store_true",
                        help="do not fine-tune on the real photos' tuning part")
    parser.add_argument("--leave-out", action="append", default=[], metavar="SOURCE",
                        help="never use this real source (byler, webcam, pxl; repeatable): "
                             "benching it then gives the leave-one-source-out figure")
    parser.add_argument("--real-sources", action="append", default=None, metavar="SOURCE",
                        help="tune only on these real sources (repeatable; default: all)")
    parser.add_argument("--init-onnx", type=Path, default=None, metavar="ONNX",
                        help="fine-tune this exported model (e.g. the shipped one; batch "
                             "norms frozen) instead of training from scratch")
    parser.add_argument("--hard-negatives", type=int, default=0, metavar="N",
                        help="add up to N of the detector's boxes on the real photos without "
                             "dice (never their held-out third) as 'not a die' crops "
                             "(default 0: none)")
    parser.add_argument("--real-share", type=float, default=0.1,
                        help="share of each epoch drawn from the real crops (default 0.1)")
    parser.add_argument("--warp", type=float, default=0.0, metavar="SHARE",
                        help="squash, scale, shift and slightly turn this share of the "
                             "training crops on the fly (default 0: none)")
    parser.add_argument("--recolour", type=float, default=0.0, metavar="SHARE",
                        help="turn the hue and scale the saturation of this share of the "
                             "training crops on the fly (default 0: none)")
    parser.add_argument("--soften", type=float, default=0.0, metavar="SHARE",
                        help="shrink this share of the training crops and blow them up "
                             "again on the fly (default 0: none)")
    parser.add_argument("--detector-crops", action="store_true",
                        help="also cut each real tuning die the detector finds around the "
                             "detector's box, as the runtime cuts it")
    parser.add_argument("--crop-detector", type=Path, default=None, metavar="ONNX",
                        help="the detector --detector-crops cuts with (default: the shipped "
                             "one; for leave-one-source-out, that source's own detector)")
    parser.add_argument("--rendered", action="append", type=Path, default=[], metavar="DIR",
                        help="a folder of Blender renders (`dicecam train render`) whose "
                             "dice are cut as the runtime cuts them (repeatable)")
    parser.add_argument("--rendered-share", type=float, default=0.3, metavar="SHARE",
                        help="share of each epoch drawn from the rendered crops (default 0.3)")
    parser.add_argument("--rendered-limit", type=int, default=None, metavar="N",
                        help="only the renders of index under N (a recipe that reproduces "
                             "while a render run goes on)")
    parser.add_argument("--crowd-throws", type=int, default=0, metavar="N",
                        help="also cut the dice of N crowded 54-die Dice Party throws as the "
                             "demo draws them (throws the benches never read)")
    parser.add_argument("--negatives", action="append", type=Path, default=[], metavar="DIR",
                        help="with --hard-negatives: also the detector's boxes on these "
                             "rendered tables without a d6 (`dicecam train render --tables`; "
                             "repeatable)")
    parser.add_argument("--crowd-negatives", type=int, default=0, metavar="K",
                        help="also K 'not a die' crops a crowded throw, between its dice "
                             "(default 0)")
    parser.add_argument("--crowd-share", type=float, default=0.1, metavar="SHARE",
                        help="share of each epoch drawn from the crowded dice (default 0.1)")
    parser.add_argument("--see-through", type=float, default=0.0, metavar="SHARE",
                        help="share of the random-look dice drawn as clear dice showing "
                        "the marks of their far faces (smoky and gem dice; default 0)")
    parser.add_argument("--input-px", type=int, default=32, metavar="PX",
                        help="crop side the network reads (default 32; a 32 px --init-onnx "
                             "fine-tunes at another size from the same weights)")
    parser.add_argument("--widths", default=None, metavar="A,B,C,D",
                        help="the network's channel widths, four numbers (default 16,32,64,128 "
                             "as shipped; an --init-onnx file keeps its own): a wider reader")
    parser.add_argument("--label-smoothing", type=float, default=0.05, metavar="E",
                        help="the loss's label smoothing (default 0.05, as stages 1-4: it keeps "
                             "the top probability under ~0.96; stage 5 was fine-tuned at 0)")
    parser.add_argument("--temperature", type=float, default=1.0, metavar="T",
                        help="fold softmax(logits / T) into the written model (default 1; "
                             "the shipped reader, trained without label smoothing, uses 1.5)")
    parser.add_argument("--turns-teacher", type=Path, default=None, metavar="ONNX",
                        help="learn what the table reader makes of each crop with this reader "
                             "(its reading, or the mean of four quarter turns where it is "
                             "unsure) instead of the labels, so the new one reads unsure "
                             "crops in one pass (start it from the same file: --init-onnx)")
    parser.add_argument("--turns-below", type=float, default=None, metavar="P",
                        help="written into the model: the table reader reads crops it reads "
                             "under P sure in four quarter turns (default: the reader's own "
                             "0.95; 0: never)")
    parser.add_argument("--out", type=Path, default=None,
                        help="ONNX file to write (default: the shipped model; with --smoke "
                             "a temporary file)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="keep rendered crops here and reuse them on the next run")
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run in seconds (checks the pipeline, not the model); "
                             "real crops only with --leave-out or --real-sources")


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def check_device(device: str) -> None:
    """Refuse a ``--device`` torch is not asked to train on here."""
    if device != "cpu" and not device.startswith("cuda"):
        raise InputError(f"--device {device!r}: cpu or cuda (cuda:N for the N-th GPU)")


def run(args: argparse.Namespace) -> int:
    for name in ("samples", "val_samples", "epochs", "batch", "workers", "threads"):
        if getattr(args, name) < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1")
    leave_out = check_sources(args.leave_out) or ()
    real_sources = check_sources(args.real_sources)
    if real_sources is not None and not set(real_sources) - set(leave_out):
        raise InputError("--real-sources and --leave-out leave no real source to tune on; "
                         "use --no-real for none")
    if args.init_onnx is not None and not args.init_onnx.is_file():
        raise InputError(f"--init-onnx: no model at {args.init_onnx}")
    if args.hard_negatives < 0:
        raise InputError("--hard-negatives must be 0 or more")
    if not 0 <= args.real_share <= 1:
        raise InputError("--real-share must be from 0 to 1")
    if args.crowd_throws < 0 or args.crowd_negatives < 0 or not 0 <= args.crowd_share <= 1:
        raise InputError("--crowd-throws and --crowd-negatives must be 0 or more, "
                         "--crowd-share from 0 to 1")
    for folder in args.negatives:
        if not (folder / "labels.jsonl").is_file():
            raise InputError(f"--negatives: no renders in {folder} (no labels.jsonl)")
    if args.negatives and not args.hard_negatives:
        raise InputError("--negatives joins the hard negatives: give --hard-negatives N")
    if not 16 <= args.input_px <= 128:
        raise InputError("--input-px must be from 16 to 128")
    widths = None
    if args.widths is not None:
        try:
            widths = tuple(int(w) for w in args.widths.split(","))
        except ValueError:
            widths = ()
        if len(widths) != 4 or not all(4 <= w <= 512 for w in widths):
            raise InputError("--widths takes four numbers from 4 to 512, e.g. 24,48,96,192")
    if not 0.25 <= args.temperature <= 4:
        raise InputError("--temperature must be from 0.25 to 4")
    if not 0 <= args.label_smoothing < 0.5:
        raise InputError("--label-smoothing must be from 0 to under 0.5")
    for name in ("warp", "recolour", "soften"):
        if not 0 <= getattr(args, name) <= 1:
            raise InputError(f"--{name} must be from 0 to 1")
    check_device(args.device)
    if not 0 <= args.see_through <= 1:
        raise InputError("--see-through must be from 0 to 1")
    if not 0 <= args.rendered_share <= 1:
        raise InputError("--rendered-share must be from 0 to 1")
    for folder in args.rendered:
        if not (folder / "labels.jsonl").is_file():
            raise InputError(f"--rendered: no renders in {folder} (no labels.jsonl)")
    if args.crop_detector is not None and not args.crop_detector.is_file():
        raise InputError(f"--crop-detector: no model at {args.crop_detector}")
    if args.turns_teacher is not None and not args.turns_teacher.is_file():
        raise InputError(f"--turns-teacher: no model at {args.turns_teacher}")
    if args.turns_below is not None and not 0 <= args.turns_below <= 1:
        raise InputError("--turns-below must be from 0 to 1")
    out = args.out
    # what a smoke run and a full run share; they differ in size, data and where they write
    common = dict(seed=args.seed, threads=args.threads, real_sources=real_sources,
                  leave_out=leave_out, init_onnx=args.init_onnx,
                  hard_negatives=args.hard_negatives, warp=args.warp,
                  recolour=args.recolour, soften=args.soften,
                  detector_crops=args.detector_crops, crop_detector=args.crop_detector,
                  rendered=tuple(args.rendered), rendered_share=args.rendered_share,
                  rendered_limit=args.rendered_limit, input_px=args.input_px,
                  crowd_throws=args.crowd_throws, crowd_share=args.crowd_share,
                  crowd_negatives=args.crowd_negatives, negatives=tuple(args.negatives),
                  widths=widths, label_smoothing=args.label_smoothing,
                  temperature=args.temperature, see_through=args.see_through,
                  device=args.device, turns_teacher=args.turns_teacher,
                  turns_below=args.turns_below)
    if args.smoke:
        out = out or Path(tempfile.mkdtemp(prefix="dicecam-smoke-")) / "die_reader.onnx"
        use_real = bool(leave_out or real_sources) and not args.no_real
        config = TrainConfig(samples=256, val_samples=64, epochs=1, batch=64, workers=1,
                             use_real=use_real, out=out, **common)
    else:
        config = TrainConfig(samples=args.samples, val_samples=args.val_samples,
                             epochs=args.epochs, batch=args.batch, lr=args.lr,
                             workers=args.workers, use_real=not args.no_real,
                             out=out or TRAINED_MODEL, cache_dir=args.cache_dir,
                             real_share=args.real_share, **common)
    report = train_reader(config, _log)
    print(json.dumps({"model": str(config.out), "seed": report.seed, "samples": report.samples,
                      "epochs": report.epochs, "val_accuracy": report.val_accuracy,
                      "real_tuning_crops": report.real_tuning,
                      "real_tuning_by_source": report.real_tuning_by_source,
                      "left_out": list(report.left_out),
                      "hard_negatives": report.hard_negatives,
                      "rendered_crops": report.rendered_crops,
                      "crowd_crops": report.crowd_crops,
                      "seconds": round(report.seconds, 1), "history": report.history}))
    if Path(config.out).resolve() == TRAINED_MODEL.resolve():
        # the table reader runs the 8-bit copy: a new shipped model gets a new copy
        _log(f"quantizing it to {QUANTIZED_MODEL}")
        quantize_reader(TRAINED_MODEL, QUANTIZED_MODEL,
                        rendered_inputs(CALIBRATION_SAMPLES, CALIBRATION_SEED,
                                        DieReader(TRAINED_MODEL).input_px))
    return 0
