"""The ``dicecam`` command line: one subcommand per module in ``dicecam.commands``.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Only the module of the command being run is imported (the others'
one-line help is listed in ``COMMANDS``), so ``dicecam score`` and ``dicecam --help`` start
instantly although ``dicecam read`` loads OpenCV and onnxruntime at its module's top.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from dicecam import __version__
from dicecam.errors import DicecamError

# name -> (module, one-line help); the order here is the order ``dicecam --help`` lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("dicecam.commands.score",
              "score one position of a game: JSON in on stdin, JSON out on stdout"),
    "bench": ("dicecam.commands.bench",
              "print speed and accuracy figures (model, reader, calibration, ...)"),
    "missions": ("dicecam.commands.missions",
                 "list a game's mission cards: ids, names, rules and how dicecam scores them"),
    "serve": ("dicecam.commands.serve",
              "run the live tablet view: camera (or the demo) -> dice -> score, in the browser"),
    "train": ("dicecam.commands.train",
              "train a model (the die reader, ...) from synthetic data and export it to ONNX"),
    "calibrate": ("dicecam.commands.calibrate",
                  "fit a colour profile for a dice set at this table, or make a zone map of "
                  "the table"),
    "read": ("dicecam.commands.read",
             "read the dice in images, folders of images or video files (values, colours, boxes)"),
    "hub": ("dicecam.commands.hub",
            "run a tournament evening's hub: tables sign with their keys, one standings board"),
    "doctor": ("dicecam.commands.doctor",
               "check the camera, models, colour profiles, zone maps and database; say what "
               "to fix"),
}


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser; the command named in ``argv`` (if any) gets its full arguments."""
    parser = argparse.ArgumentParser(
        prog="dicecam",
        description="A webcam companion for dice games: reads the dice, scores the game.",
    )
    parser.add_argument("--version", action="version", version=f"dicecam {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, (module_name, help_text) in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            module = importlib.import_module(module_name)
            module.add_arguments(sub)
            sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
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
