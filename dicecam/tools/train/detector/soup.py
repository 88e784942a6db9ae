"""``dicecam train soup``: average the weights of detectors fine-tuned from one start.

Two fine-tunes of the same model (same start, batch norms frozen) sit in one basin, so the
average of their weights is a model too (a "model soup", Wortsman et al. 2022) that keeps
much of what each learned. The shipped detector is such an average: a fine-tune that
learned from real photos without dice what is not a die (few false dice on boards, but it
came to miss dice lying on a printed board) and one that also saw dice drawn on those
photos (dice on boards found again, more false dice); see
``docs/experiments/2026-12-07-detector-notebook.md``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dicecam.errors import InputError
from dicecam.tools.train.detector.training import export
from dicecam.tools.train.from_onnx import load_folded_onnx

HELP = "average the weights of detector ONNX files fine-tuned from one start (a model soup)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("models", nargs="+", metavar="ONNX", help="detector ONNX files")
    parser.add_argument("--weights", type=float, nargs="+", metavar="W",
                        help="one weight per model (default: equal), normalised to sum 1")
    parser.add_argument("--out", required=True, help="the ONNX file to write")


def soup_weights(models: list[Path], weights: list[float] | None):  # -> state dict
    """The weighted average of the models' torch weights."""
    from dicecam.tools.train.detector.net import DetectorNet

    weights = weights or [1.0] * len(models)
    if len(weights) != len(models):
        raise InputError(f"{len(weights)} weights for {len(models)} models")
    if min(weights) < 0 or sum(weights) <= 0:
        raise InputError("the weights must be 0 or more, and not all 0")
    total = sum(weights)
    states = []
    for path in models:
        if not path.is_file():
            raise InputError(f"no model at {path}")
        net = DetectorNet()
        try:
            load_folded_onnx(net, path)
        except ValueError as exc:
            raise InputError(f"{path} is not a detector of this architecture: {exc}") from None
        states.append(net.state_dict())
    soup = {}
    for key, first in states[0].items():
        if first.is_floating_point():
            soup[key] = sum(s[key] * (w / total) for s, w in zip(states, weights, strict=True))
        else:
            soup[key] = first
    return soup


def run(args: argparse.Namespace) -> int:
    from dicecam.tools.train.detector.net import DetectorNet, ExportedDetector

    models = [Path(m) for m in args.models]
    soup = soup_weights(models, args.weights)
    net = DetectorNet()
    net.load_state_dict(soup)
    net.eval()
    weights = args.weights or [1.0] * len(models)
    recipe = " + ".join(f"{w:g} x {m.name}" for w, m in zip(weights, models, strict=True))
    export(ExportedDetector(net), Path(args.out), {"soup": recipe})
    print(json.dumps({"out": args.out, "soup": recipe}))
    return 0
