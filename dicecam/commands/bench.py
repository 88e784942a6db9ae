"""``dicecam bench TARGET``: print the speed and accuracy figures an issue asks for.

Benchmarks live here, not in timed tests: tests assert correctness only. Each target module
defines ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib

# target name -> module with HELP, add_arguments(parser), run(args)
BENCHES = {
    "model": "dicecam.tools.bench.speed.model",
    "calibration": "dicecam.tools.bench.accuracy.calibration",
    "web": "dicecam.tools.bench.speed.web",
    "load": "dicecam.tools.bench.speed.tablets",
    "reader": "dicecam.tools.bench.speed.reader",
    "idle": "dicecam.tools.bench.speed.idle",
    "real": "dicecam.tools.bench.accuracy.real",
    "hub": "dicecam.tools.bench.hub.load",
    "evening": "dicecam.tools.bench.hub.evening",
    "teach": "dicecam.tools.bench.accuracy.teach",
    "crowd": "dicecam.tools.bench.accuracy.crowd",
    "loo": "dicecam.tools.bench.accuracy.loo",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, module_name in BENCHES.items():
        module = importlib.import_module(module_name)
        sub = targets.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(_bench=module.run)


def run(args: argparse.Namespace) -> int:
    return int(args._bench(args) or 0)
