"""The dice a game says were thrown: the missing ones found, the surplus boxes dropped.

A game that waits for a throw knows how many dice lie on the table (``ThrowDue``: one
entry per die). The live view tells the table reader, which fits the roll that settles to
that count (``TablePipeline.fit_count``), both ways:

- **Fewer dice.** The missing ones are most often touching dice in a crowd whose peak on
  the detector's map stayed under its bar (0.35): on ``bench crowd`` the dice missed were
  orange 6s in clusters peaking at 0.26-0.34. A lower bar for every frame finds them, but
  also false boxes on trays, boards and carpets (``2026-12-07-detector-notebook.md``, "a
  lower peak bar in a crowd"). So the lower bar (``FLOOR``) is used only where the game
  says dice are missing, and only as many dice as are missing are taken: of the peaks away
  from every die already read, those the reader reads as a die, surest first. Each is read
  as any die is (the veto, the second look, the side-face rule); a die read unsure is
  asked.
- **More boxes, and exactly as many dice read sure as were thrown.** The boxes read
  unsure are then none of the dice thrown: they are dropped (``without_surplus``) rather
  than asked. On ``bench real``'s photos, each told its labelled count, that held on 110
  photos: 155 false boxes (webcam's laptop keys, side faces) went and 2 real dice with
  them, both on photos where a false box was read sure, which made the count. A die a
  player corrected is never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.vision.detect.detector import SAME_DIE_SHARE, Detections

#: the peak bar of the look for missing dice (the detector's own is 0.35)
FLOOR = 0.2


def away_from_dice(found: Detections, dice: Sequence[DieReading]) -> Detections:
    """``found``'s boxes that lie on none of ``dice``: each centre further than
    ``SAME_DIE_SHARE`` of the larger of the two boxes' sides from every die's."""
    if not len(found) or not dice:
        return found
    at = np.array([(d.x, d.y, max(d.w, d.h)) for d in dice], np.float64)
    sides = found.boxes[:, 2:4].max(axis=1).astype(np.float64)
    gap = np.hypot(found.boxes[:, None, 0] - at[None, :, 0],
                   found.boxes[:, None, 1] - at[None, :, 1])
    reach = SAME_DIE_SHARE * np.maximum(sides[:, None], at[None, :, 2])
    return found.keep(~(gap < reach).any(axis=1))


def surest_dice(read: Sequence[DieReading], count: int) -> list[DieReading]:
    """The ``count`` readings of ``read`` that name a value, surest first."""
    named = [d for d in read if d.value is not None]
    named.sort(key=lambda d: -d.confidence)
    return named[:max(0, count)]


def without_surplus(dice: Sequence[DieReading], expected: int) -> list[DieReading]:
    """``dice`` less the boxes read unsure where exactly ``expected`` are read sure (they
    are the dice thrown); unchanged otherwise. A corrected die always stays."""
    sure = [d for d in dice if _sure(d)]
    if len(sure) != expected or len(sure) == len(dice):
        return list(dice)
    return sure


def _sure(die: DieReading) -> bool:
    """Read with a value and at least ``LOW_CONFIDENCE`` (its colour too, where the table
    reads colours: the confidence is then the lower of the two), or corrected."""
    return die.corrected or (die.value is not None and die.confidence >= LOW_CONFIDENCE)
