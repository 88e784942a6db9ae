"""The one reading type that crosses from vision to the rest of dicecam.

A ``DieReading`` is one die as read (or as a player corrected it on the tablet); a
``FrameReading`` is what the pipeline makes of one frame; a ``SettledRoll`` is published
once per real roll, when the dice have stopped. The web app and the per-game adapters
(``dicecam.scorer.<game>.adapter``) only ever see these: never pixels. All are frozen so
they can cross threads safely, and all convert to the flat JSON the ``dicecam read
--json`` command and the tablet use (one shape of a die everywhere).
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field, fields
from typing import Any

#: Below this confidence a reading is shown to the user for tap-to-correct.
LOW_CONFIDENCE = 0.90


@dataclass(frozen=True)
class DieReading:
    """One die in one frame.

    ``x, y`` is the centre of the die's top face and ``w, h`` its box size, in pixels of
    the original frame. ``value`` is 1-6, or None when the die cannot be read (cocked, half
    hidden); ``colour`` is a name from the dice set's profile, or None when unknown.
    ``confidence`` is the lower of the value and colour confidences, in [0, 1].
    ``corrected`` is True once a player said on the tablet what the die shows (a tap, a
    confirmation, dice typed in): such a die is never asked about again. ``colour_scores``
    gives every colour of the dice set a score (the colour stage's posterior times how much
    the die looks like the set's dice at all; empty when unknown), so a game that knows how
    many dice of each colour a throw holds can weigh the colours together.
    """

    x: float
    y: float
    w: float
    h: float
    value: int | None
    colour: str | None
    confidence: float
    zone: str | None = None
    value_confidence: float = 1.0
    colour_confidence: float = 1.0
    corrected: bool = False
    colour_scores: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        numbers = _numbers_of(self)
        # one sum is finite only where every number is: the loop that names the bad one
        # runs only then (a frame builds a hundred readings; the loop cost 3 us each)
        if not (all(isinstance(number, int | float) for number in numbers)
                and math.isfinite(sum(numbers))):
            for name, number in zip(_NUMBER_FIELDS, numbers, strict=True):
                if not isinstance(number, int | float) or not math.isfinite(number):
                    raise ValueError(f"DieReading.{name} must be a finite number, "
                                     f"got {number!r}")
        if self.w <= 0 or self.h <= 0:
            raise ValueError(f"DieReading box must have positive size, got w={self.w} h={self.h}")
        if self.value is not None and self.value not in range(1, 7):
            raise ValueError(f"DieReading.value must be 1-6 or None, got {self.value!r}")
        if not (0.0 <= self.confidence <= 1.0 and 0.0 <= self.value_confidence <= 1.0
                and 0.0 <= self.colour_confidence <= 1.0):
            for name in _CONFIDENCE_FIELDS:
                if not 0.0 <= getattr(self, name) <= 1.0:
                    raise ValueError(f"DieReading.{name} must be in [0, 1], "
                                     f"got {getattr(self, name)}")

    @property
    def needs_check(self) -> bool:
        """True when the user should confirm this die (unreadable or unsure, not corrected)."""
        if self.corrected:
            return False
        return self.value is None or self.colour is None or self.confidence < LOW_CONFIDENCE

    def to_json(self) -> dict[str, Any]:
        # field by field, not dataclasses.asdict: its deep copy cost ~0.1 ms a die, 6 ms
        # for a 54-die throw on its way to the tablet (every field here is plain already)
        data = {name: getattr(self, name) for name in _DIE_FIELDS}
        data["colour_scores"] = dict(self.colour_scores)
        data["needs_check"] = self.needs_check
        return data


_DIE_FIELDS = tuple(f.name for f in fields(DieReading))
_CONFIDENCE_FIELDS = ("confidence", "value_confidence", "colour_confidence")
_NUMBER_FIELDS = ("x", "y", "w", "h", *_CONFIDENCE_FIELDS)
#: a reading's numbers in ``_NUMBER_FIELDS``' order, the names written once
_numbers_of = operator.attrgetter(*_NUMBER_FIELDS)


@dataclass(frozen=True)
class FrameReading:
    """Everything read from one frame.

    ``moving`` is True while dice roll or something (a hand) is in view; such a reading is
    shown live but never scored.
    """

    width: int
    height: int
    dice: tuple[DieReading, ...] = ()
    moving: bool = False
    hand_in_view: bool = False
    frame_index: int = 0
    timestamp: float = 0.0

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"FrameReading size must be positive, got {self.width}x{self.height}")
        if not isinstance(self.dice, tuple):
            raise ValueError(f"FrameReading.dice must be a tuple, got {type(self.dice).__name__}")

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in _FRAME_FIELDS}
        data["dice"] = [d.to_json() for d in self.dice]
        return data


_FRAME_FIELDS = tuple(f.name for f in fields(FrameReading))


@dataclass(frozen=True)
class SettledRoll:
    """The dice of one finished roll, each value voted over the still frames."""

    roll_id: int
    width: int
    height: int
    dice: tuple[DieReading, ...] = field(default_factory=tuple)
    frame_index: int = 0
    timestamp: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["dice"] = [d.to_json() for d in self.dice]
        return data
