"""``dicecam score GAME``: one JSON object on stdin, one JSON object on stdout.

Each game's JSON codec lives beside its rules in ``dicecam.scorer`` and exposes
``score(payload: dict) -> dict``; bad input raises ``InputError``, which the command line
turns into a one-line message and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

from dicecam.jsoncheck import parse_json

NAME = "score"
HELP = "score one position of a game: JSON in on stdin, JSON out on stdout"

# game name on the command line -> module with score(payload) -> dict
SCORERS = {
    "diceparty": "dicecam.scorer.diceparty_json",
    "charidice": "dicecam.scorer.charidice_json",
    "charidice-sheet": "dicecam.scorer.charidice_sheet_json",
    "dicetopia": "dicecam.scorer.dicetopia_json",
    "v6": "dicecam.scorer.v6_json",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(SCORERS), help="which game or sheet to score")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print the output")


def run(args: argparse.Namespace) -> int:
    payload = parse_json(sys.stdin.read(), "stdin")
    scorer = importlib.import_module(SCORERS[args.game])
    result = scorer.score(payload)
    json.dump(result, sys.stdout, indent=args.indent, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
