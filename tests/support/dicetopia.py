"""Dicetopia positions from compact test data, and the rulebook's worked example (shared by
the scoring, JSON and mission tests)."""

from __future__ import annotations

from typing import Any

from dicecam.scorer.dicetopia.model import (
    DISTRICTS,
    Colour,
    Die,
    Faction,
    PlayerSetup,
    Position,
)

_COLOURS = {"p": Colour.PURPLE, "w": Colour.WHITE, "t": Colour.TURQUOISE}
NAMES = ("red", "blue", "green", "yellow")


def dice(text: str) -> tuple[Die, ...]:
    """'p5 w4 t1' -> purple 5, white 4, turquoise 1."""
    return tuple(Die(_COLOURS[word[0]], int(word[1:])) for word in text.split())


def build(spec: dict[str, Any]) -> Position:
    """A position from compact test data.

    ``boards``: one dice string per player (their number sets the player count);
    ``map``: district id -> dice string; ``agents``: district id -> counts per player;
    ``missions`` / ``factions`` / ``risk_draw`` / ``copy``: per player, optional.
    """
    boards = spec["boards"]
    n = len(boards)
    missions = spec.get("missions", [[] for _ in range(n)])
    factions = spec.get("factions", [None] * n)
    risk = spec.get("risk_draw", [None] * n)
    copies = spec.get("copy", [None] * n)
    players = tuple(
        PlayerSetup(
            name=NAMES[p],
            faction=Faction(factions[p]) if factions[p] else None,
            missions=tuple(missions[p]),
            risk_draw=risk[p],
            copy=tuple(copies[p]) if copies[p] else None,
        )
        for p in range(n)
    )
    table = spec.get("map", {})
    agents = spec.get("agents", {})
    return Position(
        players=players,
        boards=tuple(dice(b) for b in boards),
        district_dice=tuple(dice(table.get(d.value, "")) for d in DISTRICTS),
        agents=tuple(tuple(agents.get(d.value, [0] * n)) for d in DISTRICTS),
    )


# Section 6: red (The Perceptioneers) scores 24 loot + 22 control + 22 missions = 68, the
# missions being 8 for the two purple dice on the city map (BÜRGERWEHR) and 14 for two
# pairs equal in colour and value (REPLIK). A four-player table consistent with it: 30
# dice (10 of each colour), 24 on the boards, 6 left on the map (two of them purple),
# 24 agents, every district's 5 fields filled.
RULEBOOK_EXAMPLE = {
    "description": "section 6 worked example: red, The Perceptioneers, 24 + 22 + 22 = 68",
    "input": {
        "boards": ["p5 p5 w4 w4 t1 t5", "p1 p2 w3 w6 t4 t6", "p4 p6 w2 w5 t3 t2",
                   "p3 p1 w1 w6 t6 t4"],
        "factions": ["the_perceptioneers", "banxa_corporation", "hollows", "tuulu_priests"],
        "missions": [["buergerwehr", "replik"], ["waffenkammer", "pazifist"],
                     ["geldwaesche", "kein_kleingeld"], ["dominanz", "spionage"]],
        "map": {"the_agency": "p6", "the_gugu_airforce": "w1", "waste_management": "w4 t2",
                "observatory_bank": "p3", "nethal_syndicate": "t5"},
        "agents": {"the_agency": [2, 1, 1, 0], "the_gugu_airforce": [0, 2, 2, 0],
                   "waste_management": [2, 0, 0, 1], "twilight_congress": [1, 2, 2, 0],
                   "observatory_bank": [1, 0, 0, 3], "nethal_syndicate": [0, 1, 1, 2]},
    },
    "expected": {
        # name: loot, control, missions, total, rank, {mission: stars}
        "red": (24, 22, 22, 68, 1, {"buergerwehr": 8, "replik": 14}),
        # four players tie on 2 purple dice: 12 split four ways
        "blue": (22, 6, 3, 31, 4, {"waffenkammer": 3, "pazifist": 0}),
        "green": (22, 6, 15, 43, 3, {"geldwaesche": 6, "kein_kleingeld": 9}),
        "yellow": (21, 18, 14, 53, 2, {"dominanz": 10, "spionage": 4}),
    },
}
