"""A settled roll -> a V6 throw: one die is one throw."""

from __future__ import annotations

from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.reading import DieReading
from dicecam.scorer.descriptor import ThrowDue
from dicecam.scorer.v6 import player_round as rnd
from dicecam.scorer.v6 import rules
from dicecam.scorer.v6.messages import MESSAGES


def throw_due(state: rules.Evening) -> ThrowDue | None:
    """One die when a throw may come. The croupier's free throw, a joker's throw and a
    throw-off come by themselves; going on after a throw is the player's choice (or stop,
    or a joker), so the demo waits to be asked."""
    if state.phase is rules.EveningPhase.THROW_OFF:
        return ThrowDue.of((None,), by_itself=True)
    if state.phase is not rules.EveningPhase.ROUND or state.round is None:
        return None
    phase = state.round.phase
    if phase not in (rnd.Phase.FREE_THROW, rnd.Phase.ANNOUNCE, rnd.Phase.THROW):
        return None
    return ThrowDue.of((None,), by_itself=phase is not rnd.Phase.ANNOUNCE)


def action_from_roll(state: rules.Evening, dice: Sequence[DieReading]) -> rnd.Throw | None:
    """The throw, when the evening waits for one (a round's free throw, the player going on,
    a joker's throw, or a throw-off); otherwise None (a tap is due)."""
    if throw_due(state) is None:
        return None
    if len(dice) != 1:
        raise InputError(MESSAGES("v6.one_die", n=len(dice)))
    if dice[0].value is None:
        raise InputError(MESSAGES("v6.unread"))
    return rnd.Throw(dice[0].value)
