"""A tilted camera's side faces: where beside a die they lie at one table, and dropping them.

A camera that looks at the table from the side (a webcam on a stand, 30-50 degrees off
vertical) sees each die's side face turned towards it, and the detector often draws a box
on it: the webcam source's taught table kept 26 false boxes on 262 photos, 24 of them the
side face below a die, 0.43-0.81 of a side from its centre, each asked. No single frame
says where such faces lie (a frame of two dice holds one such box at most), and a rule for
every table cannot tell them from a crowd's touching dice (a die leaning on another lies
0.7 of a side away: ``2026-12-07-detector-notebook.md``). Before any teaching,
``ask_faces_below`` only asks about a box just below a die, and only in a frame whose close
dice all lie one above the other (no crowd). One table's camera does not move, though, so
the table learns its own zone from the frames it was taught
(``teach/learn/side_faces.py``): the direction and distance at which its false boxes lie
from its known dice, kept only when they all point one way and no two of its known dice lie
that way from each other.

``SideFaceZone.drop`` then removes, from one frame's dice, those whose centre lies in the
zone of a die read surely and are read less surely than it: every die read unsure (under
``LOW_CONFIDENCE``, or no value), and a die read sure only beside a surer one. A die a
player corrected is never dropped. Taught webcam table (``bench teach``): unsure ones only,
26 -> 11 false boxes (3 read sure); the sure ones beside a surer die too, 8 (1 read
sure), precision 98.9 -> 99.1%, recall and values the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dicecam.reading import LOW_CONFIDENCE, DieReading


@dataclass(frozen=True)
class SideFaceZone:
    """Where a table's side faces lie from their die's centre: ``angle`` (radians, image
    axes: 0 is to the right, pi/2 downwards) within ``spread`` either way, ``near`` to
    ``far`` of the die's box side away."""

    angle: float
    spread: float
    near: float
    far: float

    def __post_init__(self) -> None:
        if not (0.0 < self.spread <= math.pi and 0.0 <= self.near < self.far):
            raise ValueError(f"not a side-face zone: {self}")

    def contains(self, dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
        """Whether offsets (in die sides) lie in the zone."""
        dx, dy = np.asarray(dx, np.float64), np.asarray(dy, np.float64)
        distance = np.hypot(dx, dy)
        turn = np.angle(np.exp(1j * (np.arctan2(dy, dx) - self.angle)))
        return (distance >= self.near) & (distance <= self.far) & (np.abs(turn) <= self.spread)

    def drop(self, dice: Sequence[DieReading]) -> list[DieReading]:
        """``dice`` less those in the zone of a die read surely and read less surely
        than it (unsure, or sure beside a surer die)."""
        sure = [d for d in dice if _sure(d)]
        if not sure:
            return list(dice)
        anchors = np.array([(d.x, d.y, max(d.w, d.h), d.value_confidence) for d in sure])
        kept = []
        for die in dice:
            if not die.corrected:
                dx = (die.x - anchors[:, 0]) / anchors[:, 2]
                dy = (die.y - anchors[:, 1]) / anchors[:, 2]
                inside = self.contains(dx, dy)
                if _sure(die):  # (a die is never in its own zone: distance 0)
                    inside &= anchors[:, 3] > die.value_confidence
                if inside.any():
                    continue
            kept.append(die)
        return kept

    def to_json(self) -> dict[str, float]:
        return {"angle_deg": round(math.degrees(self.angle), 1),
                "spread_deg": round(math.degrees(self.spread), 1),
                "near": round(self.near, 3), "far": round(self.far, 3)}

    @classmethod
    def from_json(cls, data: Any) -> SideFaceZone | None:
        """The zone written by ``to_json`` (None for anything else: a damaged file reads
        as no zone, which only keeps a few more boxes to be asked)."""
        try:
            return cls(math.radians(float(data["angle_deg"])),
                       math.radians(float(data["spread_deg"])),
                       float(data["near"]), float(data["far"]))
        except (TypeError, KeyError, ValueError):
            return None


#: Before any teaching, where the frame says so itself: a box ``BELOW`` (near, far) of a
#: die's side below it (``BELOW_SLOPE``: no further sideways than this times downwards)
#: is asked. A camera on a stand sees each die's side face turned towards it below the
#: die in the frame, and a die off to one side of the camera shows it down and that way.
BELOW = (0.45, 0.82)
BELOW_SLOPE = 0.8
#: ...only where every two dice closer than this (in sides) lie one above the other: a
#: crowd from overhead has touching dice side by side too, and is left alone (the rule
#: without this asked 760 dice of 120 Dice Party throws, 119 throws waiting)
UPRIGHT_PAIRS_REACH = 1.2
#: the confidence an asked side face is given (just under the tablet's bar)
ASKED = LOW_CONFIDENCE - 0.01


def ask_faces_below(dice: Sequence[DieReading]) -> list[DieReading]:
    """``dice``, those that lie where a tilted camera shows a side face (``BELOW`` a die's
    centre) asked rather than scored, when every close pair of the frame's dice lies one
    above the other (``UPRIGHT_PAIRS_REACH``). A die a player corrected is never asked.

    No frame says for sure whether a box below a die is a side face or a die touching it,
    so the box is kept and asked, never dropped. ``bench real``, 2026-11-27: dice read
    wrong or false boxes read sure 46 -> 35 (webcam's false boxes read sure 12 -> 3, pxl's
    11 -> 9), byler asks 14.6 -> 14.9% of its dice, every value, recall and precision the
    same; ``bench crowd --still`` asks no die more."""
    if len(dice) < 2:
        return list(dice)
    centres = np.array([(d.x, d.y) for d in dice])
    sides = np.array([max(d.w, d.h) for d in dice])
    # offset[i, j]: die j's centre from die i's
    offset = centres[None, :, :] - centres[:, None, :]
    pair_side = np.maximum(sides[:, None], sides[None, :])
    close = np.hypot(offset[..., 0], offset[..., 1]) <= UPRIGHT_PAIRS_REACH * pair_side
    np.fill_diagonal(close, False)
    if (close & (np.abs(offset[..., 0]) > BELOW_SLOPE * np.abs(offset[..., 1]))).any():
        return list(dice)
    down = offset[..., 1] / sides[:, None]
    across = offset[..., 0] / sides[:, None]
    below = (down >= BELOW[0]) & (down <= BELOW[1]) & (np.abs(across) <= BELOW_SLOPE * down)
    faces = below.any(axis=0)
    return [replace(d, confidence=ASKED, value_confidence=min(d.value_confidence, ASKED))
            if face and not d.corrected and d.confidence >= LOW_CONFIDENCE else d
            for d, face in zip(dice, faces, strict=True)]


def _sure(die: DieReading) -> bool:
    return die.value is not None and die.value_confidence >= LOW_CONFIDENCE
