"""``dicecam train quantize``: the die reader in 8-bit integers, the model the runtime runs.

The reader is trained and fine-tuned in floating point (``die_reader.onnx``, the file
``--init-onnx`` starts from); the table reader runs its 8-bit copy
(``die_reader.int8.onnx``), which reads a frame's 60 crops in about a third of the time on
one laptop thread. Weights are quantized per output channel to 7 bits (``reduce_range``:
CPUs without VNNI instructions multiply 8-bit pairs into 16-bit sums that can saturate
at full range), activations to 8 bits with ranges measured on rendered crops drawn from
``--seed``. The same model file, seed and count give the same quantized file.

The command then reads a second set of rendered crops (another seed) with both models
and prints how often they agree; the model card's real-photo figures are measured with
the quantized file, as users run it. The detector is not quantized: its depthwise
convolutions ran slower in 8 bits (5.2 against 4.6 ms a frame) and its peaks moved.
"""

from __future__ import annotations

import argparse
import hashlib
import tempfile
from pathlib import Path

import numpy as np

from dicecam.errors import InputError
from dicecam.tools.train.reader.crops import generate_crops, print_progress
from dicecam.vision.read.die_reader import QUANTIZED_MODEL, TRAINED_MODEL, DieReader, resize_crop

HELP = "quantize the die reader to 8 bits (the model the table reader runs)"

#: Rendered crops whose activation ranges set the 8-bit scales.
CALIBRATION_SAMPLES = 2000
CALIBRATION_SEED = 31
#: Rendered crops both models read to measure their agreement (never calibrated on).
CHECK_SAMPLES = 2000
CHECK_SEED = 32
BATCH = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", nargs="?", default=str(TRAINED_MODEL),
                        help="the floating-point reader (default: the shipped one)")
    parser.add_argument("--out", default=str(QUANTIZED_MODEL),
                        help="the 8-bit ONNX file to write (default: the shipped one)")
    parser.add_argument("--samples", type=int, default=CALIBRATION_SAMPLES,
                        help="rendered crops that set the activation ranges")
    parser.add_argument("--seed", type=int, default=CALIBRATION_SEED)
    parser.add_argument("--check-samples", type=int, default=CHECK_SAMPLES,
                        help="rendered crops (another seed) on which the two models are "
                        "compared (0: none)")


def quantize_reader(model: Path, out: Path, calibration: np.ndarray) -> None:
    """Write ``model`` quantized (QDQ, per-channel 7-bit weights, 8-bit activations whose
    ranges ``calibration`` (N x S x S x 3 uint8 crops) sets) to ``out``, with the float
    model's metadata and its SHA-256 (``quantized_from``)."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not model.is_file():
        raise InputError(f"no model at {model}")
    source = onnx.load(str(model))
    input_name = source.graph.input[0].name

    class Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self._starts = iter(range(0, len(calibration), BATCH))

        def get_next(self) -> dict[str, np.ndarray] | None:
            start = next(self._starts, None)
            if start is None:
                return None
            return {input_name: calibration[start:start + BATCH]}

    with tempfile.TemporaryDirectory(prefix="dicecam-quantize-") as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        # onnx's own shape inference is enough for this plain network; the symbolic one
        # needs sympy, which only comes with torch
        quant_pre_process(str(model), str(prepared), skip_symbolic_shape=True)
        written = Path(tmp) / "int8.onnx"
        quantize_static(str(prepared), str(written), Batches(),
                        quant_format=QuantFormat.QDQ, per_channel=True, reduce_range=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
        quantized = onnx.load(str(written))
        del quantized.metadata_props[:]
        meta = {p.key: p.value for p in source.metadata_props}
        meta.update({"quantized_from": hashlib.sha256(model.read_bytes()).hexdigest(),
                     "quantization": f"int8 QDQ, per-channel 7-bit weights, activations "
                                     f"from {len(calibration)} rendered crops"})
        for key, value in meta.items():
            entry = quantized.metadata_props.add()
            entry.key, entry.value = key, value
        out.parent.mkdir(parents=True, exist_ok=True)
        onnx.save(quantized, str(out))


def rendered_inputs(count: int, seed: int, size: int) -> np.ndarray:
    """``count`` rendered crops from ``seed``, resized to ``size`` px as the runtime resizes
    them (N x size x size x 3 uint8). Needs no torch."""
    images, _labels, _colours = generate_crops(count, seed, progress=print_progress)
    return np.stack([resize_crop(crop, size) for crop in images])


def agreement(model: Path, quantized: Path, inputs: np.ndarray) -> tuple[float, float]:
    """Share of crops both models give the same class, and the largest difference of a
    class probability between them."""
    plain, small = DieReader(model), DieReader(quantized)
    plain.turns_below = small.turns_below = 0.0  # the models, not the turns
    a = plain.probabilities(list(inputs))
    b = small.probabilities(list(inputs))
    return float((a.argmax(1) == b.argmax(1)).mean()), float(np.abs(a - b).max())


def run(args: argparse.Namespace) -> int:
    model, out = Path(args.model), Path(args.out)
    if args.samples < BATCH:
        raise InputError(f"--samples must be at least {BATCH}")
    size = DieReader(model).input_px  # also says clearly when the model is missing
    print_progress(f"rendering {args.samples} calibration crops (seed {args.seed})")
    quantize_reader(model, out, rendered_inputs(args.samples, args.seed, size))
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB), quantized from {model}")
    if args.check_samples > 0:
        check = rendered_inputs(args.check_samples, CHECK_SEED, size)
        same, diff = agreement(model, out, check)
        print(f"on {len(check)} other rendered crops the two models give the same class "
              f"for {same:.2%}; the largest difference of a probability is {diff:.3f}")
    return 0
