"""``dicecam score GAME``: one JSON object on stdin, one JSON object on stdout.

Each game's descriptor (``dicecam.scorer.registry``) names its scorers: ``score(payload:
dict) -> dict``; bad input raises ``InputError``, which the command line turns into a
one-line message and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from dicecam.jsoncheck import parse_json
from dicecam.scorer.registry import scorers


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(scorers()), help="which game or sheet to score")
    parser.add_argument("--indent", type=int, default=None, help="pretty-print the output")


def run(args: argparse.Namespace) -> int:
    payload = parse_json(sys.stdin.read(), "stdin")
    result = scorers()[args.game](payload)
    json.dump(result, sys.stdout, indent=args.indent, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
