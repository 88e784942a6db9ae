"""``dicecam train TARGET``: train one of dicecam's models and export it to ONNX.

Each target module defines ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int`` and
imports torch only inside ``run``; torch comes with the optional ``train`` extra.
"""

from __future__ import annotations

import argparse
import importlib

# target name -> module with HELP, add_arguments(parser), run(args)
TRAINERS = {
    "reader": "dicecam.tools.train.reader.cli",
    "detector": "dicecam.tools.train.detector.cli",
    "soup": "dicecam.tools.train.detector.soup",
    "quantize": "dicecam.tools.train.reader.quantize",
    "render": "dicecam.tools.render.cli",
    "recipe": "dicecam.tools.train.recipe_cli",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    for name, module_name in TRAINERS.items():
        module = importlib.import_module(module_name)
        sub = targets.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(_train=module.run)


def run(args: argparse.Namespace) -> int:
    return int(args._train(args) or 0)
