"""A settled roll -> Charidice's next throw: the six dice in the tray.

When some dice carry the zone "tray", only those count; otherwise every die does. A die
the camera could not read (value or colour unknown) is an error asking for a check.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.reading import DieReading
from dicecam.scorer.charidice import rules
from dicecam.scorer.charidice.codec import die_from_reading
from dicecam.scorer.charidice.messages import MESSAGES
from dicecam.scorer.charidice.options import DICE_PER_THROW
from dicecam.scorer.descriptor import ThrowDue

TRAY_ZONE = "tray"


def throw_due(state: rules.State) -> ThrowDue | None:
    """Six dice when a throw is due; the kept dice stay as they lie (their colour and
    value). The turn's first throw comes by itself; a later one after the player chose
    which dice to keep (or to throw again)."""
    turn = state.turn
    if turn is None or turn.throws >= state.config.throws_per_turn:
        return None
    kept = [turn.dice[i] for i in turn.kept]
    rest = DICE_PER_THROW - len(kept)
    return ThrowDue(tuple(d.colour for d in kept) + (None,) * rest,
                    tuple(d.value for d in kept) + (None,) * rest, by_itself=turn.throws == 0)


def action_from_roll(state: rules.State, dice: Sequence[DieReading]) -> rules.Action | None:
    """The next throw, or None if no throw is due."""
    if state.turn is None or state.turn.throws >= state.config.throws_per_turn:
        return None
    items = list(dice)
    if any(d.zone == TRAY_ZONE for d in items):
        items = [d for d in items if d.zone == TRAY_ZONE]
    if len(items) != DICE_PER_THROW:
        raise InputError(MESSAGES("cd.tray_count", n=DICE_PER_THROW, seen=len(items)))
    for i, d in enumerate(items):
        if d.value is None or d.colour is None:
            raise InputError(MESSAGES("cd.unread", n=i + 1))
    return rules.Throw(tuple(die_from_reading(d.colour, d.value, f"roll[{i}]")
                             for i, d in enumerate(items)))
