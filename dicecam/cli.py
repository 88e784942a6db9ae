"""The ``dicecam`` command line: one subcommand per module in ``dicecam.commands``.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Command modules import heavy libraries (OpenCV, onnxruntime, torch)
inside ``run`` so that ``dicecam --help`` and ``dicecam score`` start instantly.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from dicecam import __version__
from dicecam.errors import DicecamError

# The order here is the order ``dicecam --help`` lists them.
COMMAND_MODULES = (
    "dicecam.commands.score",
    "dicecam.commands.bench",
    "dicecam.commands.missions",
    "dicecam.commands.serve",
    "dicecam.commands.train",
    "dicecam.commands.calibrate",
    "dicecam.commands.read",
    "dicecam.commands.doctor",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dicecam",
        description="A webcam companion for dice games: reads the dice, scores the game.",
    )
    parser.add_argument("--version", action="version", version=f"dicecam {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        module = importlib.import_module(module_name)
        sub = commands.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except DicecamError as exc:
        print(f"dicecam {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`dicecam missions dicetopia | head`): not an error of ours.
        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    raise SystemExit(main())
