"""``dicecam score charidice-sheet``: final totals, charity bonus and winners from sheets.

Input: ``{"sheets": {"<player>": [[rolled, bonus, received, given], ... one row per
round]}, "rounds": 7}`` ("rounds" is optional, default 7), players in seating order.
Output: ``{"players": {"<player>": {"rolled", "bonus", "received", "given",
"charity_bonus", "total"}}, "winners": [names]}``. See docs/charidice.md.
"""

from __future__ import annotations

from typing import Any

from dicecam.errors import InputError
from dicecam.jsoncheck import (
    reject_unknown_keys,
    require_int,
    require_list,
    require_object,
)
from dicecam.scorer.charidice.options import BONUS_VALUES, DICE_PER_THROW
from dicecam.scorer.charidice.rules import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS, ROUNDS
from dicecam.scorer.charidice.sheet import SheetRow, tally

#: Six sixes scored: the most one row's rolled column can hold.
MAX_ROLLED = 6 * DICE_PER_THROW
#: Six doubled sixes, doubled again by the big gift: a generous ceiling for a gift.
MAX_GIFT = 6 * DICE_PER_THROW * 2 * 2


def score(payload: Any) -> dict[str, Any]:
    payload = require_object(payload, "input")
    reject_unknown_keys(payload, "input", ("sheets", "rounds"))
    rounds = require_int(payload.get("rounds", ROUNDS), "rounds", 1, 20)
    sheets = require_object(payload.get("sheets"), "sheets")
    if not MIN_PLAYERS <= len(sheets) <= MAX_PLAYERS:
        raise InputError(f"sheets must hold {MIN_PLAYERS} to {MAX_PLAYERS} players' sheets, "
                         f"got {len(sheets)}")
    parsed = {}
    for name, rows in sheets.items():
        if not name.strip() or len(name) > MAX_NAME_LENGTH:
            raise InputError(f"player names must be 1 to {MAX_NAME_LENGTH} characters, "
                             f"got {name!r}")
        where = f"sheets.{name}"
        rows = require_list(rows, where, min_len=rounds, max_len=rounds)
        parsed[name] = [_row(row, f"{where}[{i}]") for i, row in enumerate(rows)]
    result = tally(parsed)
    return {
        "players": {
            p.name: {"rolled": p.rolled, "bonus": p.bonus, "received": p.received,
                     "given": p.given, "charity_bonus": p.charity_bonus, "total": p.total}
            for p in result.players
        },
        "winners": list(result.winners),
    }


def _row(value: Any, where: str) -> SheetRow:
    cells = require_list(value, where, min_len=4, max_len=4)
    rolled = require_int(cells[0], f"{where}[0] (rolled)", 1, MAX_ROLLED)
    bonus = require_int(cells[1], f"{where}[1] (bonus)", 0)
    if bonus not in BONUS_VALUES:
        raise InputError(f"{where}[1] (bonus) must be one of "
                         f"{', '.join(map(str, sorted(BONUS_VALUES)))}, got {bonus}")
    received = require_int(cells[2], f"{where}[2] (received)", 0, MAX_GIFT)
    given = require_int(cells[3], f"{where}[3] (given)", 0, MAX_GIFT)
    return SheetRow(rolled, bonus, received, given)
