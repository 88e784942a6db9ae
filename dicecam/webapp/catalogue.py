"""Display names from the games' own data tables, for the tablet's pickers.

The codecs' states name missions, factions and districts by id; the page shows their
names and rules. Read from the rules modules (never copied), so they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def catalogue(games: Iterable[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "dicetopia" in games:
        out["dicetopia"] = _dicetopia()
    return out


def _dicetopia() -> dict[str, Any]:
    from dicecam.scorer.dicetopia_missions import MISSIONS
    from dicecam.scorer.dicetopia_model import BOARD_FIELDS, DISTRICT_NAMES, FACTION_NAMES

    return {
        "factions": {f.value: name for f, name in FACTION_NAMES.items()},
        "districts": {d.value: name for d, name in DISTRICT_NAMES.items()},
        "missions": {m.id: {"name": m.name, "rule": m.rule, "reading": m.reading}
                     for m in MISSIONS.values()},
        "board_fields": BOARD_FIELDS,
    }
