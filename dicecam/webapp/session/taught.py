"""What the players said about the dice of a camera roll: what teaches the table its dice.

The session never looks at pixels: it only says, for a roll the camera settled, which die
(its box in the frame) the players said shows which value, where they added a die the
camera missed, and which box they said is no die. The camera side
(``camera/teacher.py``) keeps the roll's picture and what the reader read there, and turns
these into the table's taught dice (``dicecam.teach.store``).

Nothing is taught from a die nobody looked at: a tap that confirms or corrects a die, a roll
the players accept as read (*Dice are right*, or a roll scored once its asked dice were
tapped), *a die here*, *not a die*, and the teaching layout's rows. A roll scored at once
because every die was sure, and dice typed in on the pad, teach nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dicecam.reading import DieReading


class Said(StrEnum):
    VALUE = "value"  # the die shows die.value (confirmed or corrected: the reader's read says)
    #: a die of a roll the players accepted as a whole (every die of it said): the die shows
    #: die.value, and the picture holds no other die (the detector learns the whole frame)
    ACCEPTED = "accepted"
    ADDED = "added"  # a die the camera missed, where the players tapped
    NOT_A_DIE = "not_a_die"  # the box is no die


@dataclass(frozen=True)
class TaughtDie:
    """One die of camera roll ``roll_id`` as the players said it is."""

    roll_id: int
    die: DieReading
    said: Said
