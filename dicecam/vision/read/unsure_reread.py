"""A taught table's die reader: the shipped reader first, the table's own where it is unsure.

The shipped reader reads every crop; the reader a table learnt (``teach.learn.reader``)
reads again only the crops the shipped one read less sure than ``LOW_CONFIDENCE`` (the
ones the tablet would ask about, false boxes among them), and its reading stands there
where it is sure itself, ``TAKEN_FROM_TABLE`` (where it is less sure, the die is asked
with the shipped reader's guess, which was right more often: byler's asked dice). A die
the shipped reader reads surely is read as at an untaught table, so teaching changes only
what the table would have asked: it cannot make a sure reading wrong.

Why not the table's reader alone: a reader fine-tuned on a few dozen of a table's dice
reads some dice the shipped one read right and sure differently. ``bench teach`` on byler
(2026-12-07, every 5th photo taught, the rest read): the table's reader alone asked 14.7
-> 12.1% of dice but read values 98.40 -> 97.94% (2 -> 3 read as 3 nine times), one
false die more; the held-back frames it was checked on (36 dice) could not show a change
of six dice in 1,300.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.read.die_reader import ValueReading

#: how sure the table's own reader must be for its reading to stand where the shipped one
#: was unsure: the tablet's own line. 0.97 was tried (2026-12-07) and not kept: fewer
#: silent errors after about 100 taught dice, but webcam taught in full read a die wrong
#: and sure that 0.90 did not, and byler learnt nothing it used
#: (``docs/experiments/2026-12-07-teach-taken-threshold.md``)
TAKEN_FROM_TABLE = LOW_CONFIDENCE


class ValueReader(Protocol):
    model_path: Path
    network_seconds: float

    def read(self, crops_bgr: Sequence[np.ndarray]) -> list[ValueReading]: ...


class UnsureReread:
    """``first`` reads every crop; ``then`` reads again those ``first`` read less sure
    than ``sure``, and its reading replaces the first one there where it is at least
    ``taken`` sure."""

    def __init__(self, first: ValueReader, then: ValueReader,
                 sure: float = LOW_CONFIDENCE, taken: float = TAKEN_FROM_TABLE) -> None:
        self.first = first
        self.then = then
        self.sure = sure
        self.taken = taken
        #: the table's own reader names what the table reads with
        self.model_path = then.model_path

    @property
    def network_seconds(self) -> float:
        return self.first.network_seconds + self.then.network_seconds

    def read(self, crops_bgr: Sequence[np.ndarray]) -> list[ValueReading]:
        readings = self.first.read(crops_bgr)
        unsure = [i for i, r in enumerate(readings) if r.confidence < self.sure]
        if unsure:
            again = self.then.read([crops_bgr[i] for i in unsure])
            for i, reading in zip(unsure, again, strict=True):
                if reading.confidence >= self.taken:
                    readings[i] = reading
        return readings
