"""A settled roll -> the dice of every Dicetopia zone it shows (a district, a faction board).

Dice outside Dicetopia's zones (no zone, a tray) are ignored. A die in a zone that could
not be read must be corrected first, so that a misread never scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.games.dicetopia import rules
from dicecam.games.dicetopia.codec import die_from_reading
from dicecam.games.dicetopia.messages import MESSAGES, district_name
from dicecam.games.dicetopia.model import Die
from dicecam.reading import DieReading


def action_from_roll(state: rules.GameState, dice: Sequence[DieReading]) -> rules.SetDice | None:
    """The dice of the zones the roll shows; None if it shows none."""
    zones = set(rules.zone_names(state.position))
    found: dict[str, list[Die]] = {}
    for i, die in enumerate(dice):
        if die.zone not in zones:
            continue
        if die.value is None or die.colour is None:
            board = die.zone.removeprefix("board:")
            where = (MESSAGES("dt.board_of", player=board) if die.zone.startswith("board:")
                     else district_name(die.zone))
            raise InputError(MESSAGES("dt.unread", zone=where))
        found.setdefault(die.zone, []).append(die_from_reading(die.colour, die.value,
                                                               f"dice[{i}]"))
    if not found:
        return None
    return rules.SetDice(tuple((zone, tuple(found[zone])) for zone in sorted(found)))
