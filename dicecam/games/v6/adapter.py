"""A settled roll -> a V6 throw: one die is one throw."""

from __future__ import annotations

from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.games.v6 import round as rnd
from dicecam.games.v6 import rules
from dicecam.reading import DieReading


def action_from_roll(state: rules.Evening, dice: Sequence[DieReading]) -> rnd.Throw | None:
    """The throw, when the evening waits for one (a round's free throw, the player going on,
    a joker's throw, or a throw-off); otherwise None (a tap is due)."""
    waiting = state.phase is rules.EveningPhase.THROW_OFF or (
        state.phase is rules.EveningPhase.ROUND and state.round is not None
        and state.round.phase in (rnd.Phase.FREE_THROW, rnd.Phase.ANNOUNCE, rnd.Phase.THROW))
    if not waiting:
        return None
    if len(dice) != 1:
        raise InputError(f"V6 throws one die at a time; the camera saw {len(dice)} dice. "
                         "Leave exactly one die in view.")
    if dice[0].value is None:
        raise InputError("the die could not be read; tap it to enter its value")
    return rnd.Throw(dice[0].value)
