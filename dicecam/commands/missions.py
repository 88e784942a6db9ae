"""``dicecam missions GAME``: list a game's mission cards (id, name, rule, how it is scored).

The ids are what ``dicecam score`` and the web app accept; the rule is the card's text as
the rulebook prints it, the reading says how dicecam scores it where the card is ambiguous.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys

# game name -> module with MISSIONS: dict[id, card with id, title, name, rule, reading, kind]
MISSION_TABLES = {
    "dicetopia": "dicecam.scorer.dicetopia.missions",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(MISSION_TABLES), help="whose missions to list")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of text")


def run(args: argparse.Namespace) -> int:
    cards = importlib.import_module(MISSION_TABLES[args.game]).MISSIONS.values()
    if args.json:
        rows = [
            {"id": c.id, "title": c.title, "name": c.name, "rule": c.rule,
             "reading": c.reading, "kind": c.kind.value}
            for c in cards
        ]
        json.dump(rows, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for card in cards:
        sys.stdout.write(f"{card.id}  {card.name}\n    {card.rule}\n    scored: {card.reading}\n")
    return 0
