"""A settled roll -> the Dice Party throw the game waits for.

Zones are named after the players; a die counts for a party when it lies in that player's
zone, and its colour gives the guest kind (yellow Party People, orange VIP, red Mob). Dice
outside the parties' zones (the counter die, the stock) are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.games.diceparty import rules
from dicecam.games.diceparty.verdict import KIND_OF_COLOUR, Die
from dicecam.reading import DieReading


def action_from_roll(state: rules.State, dice: Sequence[DieReading]) -> rules.Action | None:
    """The preparty throw or the active player's throw; None when no throw is due."""
    if state.phase == rules.Phase.PREPARTY:
        names = [state.players[i].name for i in rules.in_round(state)]
        return rules.PrepartyThrow(tuple((n, _zone_dice(dice, n)) for n in names))
    if state.phase == rules.Phase.THROW:
        assert state.active is not None
        return rules.Throw(_zone_dice(dice, state.players[state.active].name))
    return None


def _zone_dice(dice: Sequence[DieReading], zone: str) -> tuple[Die, ...]:
    found = []
    for i, die in enumerate(dice):
        if die.zone != zone:
            continue
        where = f"roll[{i}]"
        if die.value is None:
            raise InputError(f"{where} in {zone}'s zone could not be read; tap it to enter "
                             f"its value")
        if die.colour not in KIND_OF_COLOUR:
            raise InputError(f"{where} in {zone}'s zone has colour {die.colour!r}, not one of "
                             f"{', '.join(KIND_OF_COLOUR)}; tap it to correct the colour")
        found.append(Die(KIND_OF_COLOUR[die.colour], die.value))
    return tuple(found)
