"""Dice Party: the verdict tied to the dice of a roll, so the tablet draws it on the dice.

The engine's verdict (``verdict.escalation``, ``verdict.millionaire``) speaks of guests by
kind and level, not of the dice the camera saw. ``dice_marks`` ties them together: for the
throw the game waits for now, each die of the roll gets its part in the verdict (the
covering group it belongs to, an uncovered Mob, a spare guest) and whether it brings a
millionaire or a wallet. Dice of equal kind and level are interchangeable in every rule,
so any die showing the value a group needs may stand for it; the dice are taken in the
roll's order, which keeps the drawing stable from one redraw to the next.

Pure: the state the roll is judged on and the roll's dice in, frozen marks out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from dicecam.reading import DieReading
from dicecam.scorer.diceparty import rules
from dicecam.scorer.diceparty.adapter import thrown_dice
from dicecam.scorer.diceparty.verdict import (
    KIND_OF_COLOUR,
    PICKPOCKET_LEVEL,
    Die,
    Escalation,
    Kind,
    Millionaire,
    escalation,
    millionaire,
)


class Role(StrEnum):
    """A die's part in the escalation check (the FAQ's "Party People/VIPs = Mobs" groups)."""

    GUEST = "guest"  # a Party People or VIP in a group that covers Mobs
    MOB = "mob"  # a Mob its group covers
    UNCOVERED = "uncovered"  # a Mob no group covers: the reason the party escalates
    SPARE = "spare"  # a guest no group needed (or any guest when no Mob came)


@dataclass(frozen=True)
class DieMark:
    """One die's part: ``group`` indexes the escalation's groups (None outside a group)."""

    role: Role
    group: int | None = None
    #: a VIP on a level that brings a millionaire
    millionaire: bool = False
    #: a Party People at level 6, whose wallet may be stolen
    wallet: bool = False


@dataclass(frozen=True)
class DiceMarks:
    """The thrower's verdict and each die's mark (None: not part of the throw judged)."""

    player: str
    escalation: Escalation
    millionaire: Millionaire
    marks: tuple[DieMark | None, ...]


def dice_marks(state: rules.State, dice: Sequence[DieReading]) -> DiceMarks | None:
    """The verdict on the dice of a turn's throw, judged on ``state`` (the state the throw
    was due in). None when the game waits for no turn's throw (the preparty compares totals
    only) or a die of the throw is not read as a Dice Party die yet."""
    if state.phase != rules.Phase.THROW:
        return None
    throws = thrown_dice(state, dice)
    if not throws:
        return None
    (player, indices), = throws.items()
    thrown: list[tuple[int, Die]] = []
    for i in indices:
        die = dice[i]
        if die.value is None or die.colour not in KIND_OF_COLOUR:
            return None
        thrown.append((i, Die(KIND_OF_COLOUR[die.colour], die.value)))
    verdict = escalation([d for _, d in thrown])
    rich = millionaire([d for _, d in thrown])

    # the roll's dice of each kind and level, in roll order, to stand for the verdict's dice
    waiting: dict[Die, list[int]] = defaultdict(list)
    for i, die in thrown:
        waiting[die].append(i)
    marks: list[DieMark | None] = [None] * len(dice)

    def place(die: Die, role: Role, group: int | None) -> None:
        index = waiting[die].pop(0)
        marks[index] = DieMark(
            role, group,
            millionaire=die.kind == Kind.VIP and die.pips in rich.levels,
            wallet=die.kind == Kind.PARTY_PEOPLE and die.pips == PICKPOCKET_LEVEL)

    for number, group in enumerate(verdict.groups):
        for die in group.guests:
            place(die, Role.GUEST, number)
        for die in group.mobs:
            place(die, Role.MOB, number)
    for die in verdict.uncovered:
        place(die, Role.UNCOVERED, None)
    for die in verdict.spare:
        place(die, Role.SPARE, None)
    return DiceMarks(player, verdict, rich, tuple(marks))
