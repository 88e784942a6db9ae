"""A settled roll -> Charidice's next throw: the six dice in the tray.

When some dice carry the zone "tray", only those count; otherwise every die does. A die
the camera could not read (value or colour unknown) is an error asking for a check.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.games.charidice import rules
from dicecam.games.charidice.codec import die_from_reading
from dicecam.games.charidice.options import DICE_PER_THROW
from dicecam.reading import DieReading

TRAY_ZONE = "tray"


def action_from_roll(state: rules.State, dice: Sequence[DieReading]) -> rules.Action | None:
    """The next throw, or None if no throw is due."""
    if state.turn is None or state.turn.throws >= state.config.throws_per_turn:
        return None
    items = list(dice)
    if any(d.zone == TRAY_ZONE for d in items):
        items = [d for d in items if d.zone == TRAY_ZONE]
    if len(items) != DICE_PER_THROW:
        raise InputError(f"Charidice needs all {DICE_PER_THROW} dice in the tray; the camera "
                         f"sees {len(items)}, so check the tray and correct the reading")
    for i, d in enumerate(items):
        if d.value is None or d.colour is None:
            raise InputError(f"die {i} in the tray could not be read; tap it to correct it")
    return rules.Throw(tuple(die_from_reading(d.colour, d.value, f"roll[{i}]")
                             for i, d in enumerate(items)))
