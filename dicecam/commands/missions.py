"""``dicecam missions GAME``: list a game's mission cards (id, name, rule, how it is scored).

The ids are what ``dicecam score`` and the web app accept; the rule is the card's text as
the rulebook prints it, the reading says how dicecam scores it where the card is ambiguous.
The games with mission cards are those whose descriptor lists them (``missions``).
"""

from __future__ import annotations

import argparse
import json
import sys

from dicecam.scorer.registry import GAMES


def games_with_missions() -> list[str]:
    return sorted(name for name, game in GAMES.items() if game.missions is not None)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=games_with_missions(), help="whose missions to list")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of text")


def run(args: argparse.Namespace) -> int:
    missions = GAMES[args.game].missions
    assert missions is not None  # argparse's choices hold only games with missions
    cards = missions()
    if args.json:
        json.dump(cards, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for card in cards:
        sys.stdout.write(f"{card['id']}  {card['name']}\n    {card['rule']}\n"
                         f"    scored: {card['reading']}\n")
    return 0
