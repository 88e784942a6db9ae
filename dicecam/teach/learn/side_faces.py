"""Learning where a table's side faces lie (``vision/detect/side_faces.py``) from its whole frames.

In every frame whose dice are all known (a labelled photo, a roll accepted as read), the
detector's boxes on no known die that lie ``NEAR_LIMIT`` to ``FAR_LIMIT`` of a side from
the nearest known die are candidate side faces. They make a zone only when there are at
least ``MIN_SIDE_FACES`` of them and they point one way (the mean of their directions as
unit vectors at least ``ALIGNED`` long: a tilted camera's side faces all face it, while a
die's pips and second boxes, an overhead camera's false boxes, lie every way round). The
zone spans their directions and distances with a margin, and is refused where any known
die lies in it from another known die of the same frame: there it would drop real dice.

A camera's perspective turns the side faces it sees towards the point below it, so over
a wide view their directions fan out: webcam's 62 photos of every capture session (every
5th of the folder, ``calibrate dice``) gave 72 candidates from 30 to 180 degrees, 63 of
them within 30-150, aligned 0.7. Hence ``ALIGNED`` 0.65 and a zone of up to +-60 degrees
(0.8 and +-40 made no zone there).

Measured (``bench teach``, every 5th photo teaches, 2026-11-27): the webcam source's 24
taught photos gave 23 candidates, aligned 0.89, a zone 76 degrees (downwards) +-55, 0.51
to 0.95 of a side, and no known die in it; its taught table's false boxes on the other
262 photos fell from 26 to 8 (precision 97.1 -> 99.1%), recall, values and dice asked
unchanged. The rest are beside dice read unsure themselves (no sure die to go by) or just
outside the zone. byler (2 candidates), damiantab (85, aligned 0.09: its carpet) and pxl
(255, aligned 0.14) make none, and read as before.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dicecam.vision.detect.side_faces import SideFaceZone

#: the detector's threshold for candidates: side faces reach its usual 0.35 on about one
#: frame in ten (the webcam's 24 taught photos: 1 candidate; at 0.1, 23, aligned 0.89;
#: at 0.15 13 and at 0.2 7, as aligned); on a carpet it draws boxes every way round
#: (damiantab at 0.1: 85 candidates aligned 0.09), and no zone is made
CANDIDATE_THRESHOLD = 0.1
#: candidate side faces lie this far from their die's centre (in its box sides): nearer
#: are a die's own pips and second boxes; a side face's centre lies within a side
NEAR_LIMIT = 0.25
FAR_LIMIT = 0.95
#: the fewest candidates that make a zone
MIN_SIDE_FACES = 6
#: the least length of the mean of the candidates' unit directions (1: all one way)
ALIGNED = 0.65
#: the zone's half-width: the candidates' 90th percentile turn from its axis plus a margin,
#: within these limits
SPREAD_MARGIN = math.radians(10.0)
SPREAD_LIMITS = (math.radians(15.0), math.radians(60.0))
#: the zone's distances: the candidates' 5th to 95th percentile, widened by this
DISTANCE_MARGIN = 0.05


@dataclass(frozen=True)
class FrameBoxes:
    """One whole frame: its known dice (N x 3: centre x, y and box side) and the centres
    of the detector's boxes on no known die (M x 2)."""

    dice: np.ndarray
    false: np.ndarray


def learn_side_faces(frames: Sequence[FrameBoxes]) -> tuple[SideFaceZone | None, dict[str, Any]]:
    """The table's side-face zone (None where its frames show none, or one that would drop
    a known die) and the figures it was decided on."""
    offsets = np.array([offset for frame in frames for offset in _candidates(frame)],
                       np.float64).reshape(-1, 2)
    figures: dict[str, Any] = {"frames": len(frames), "candidates": len(offsets)}
    if len(offsets) < MIN_SIDE_FACES:
        return None, {**figures, "why_none": f"fewer than {MIN_SIDE_FACES} candidates"}
    distances = np.hypot(offsets[:, 0], offsets[:, 1])
    mean = (offsets / distances[:, None]).mean(axis=0)
    aligned = float(np.hypot(*mean))
    figures["aligned"] = round(aligned, 3)
    if aligned < ALIGNED:
        return None, {**figures, "why_none": "the candidates point every way"}
    angle = math.atan2(mean[1], mean[0])
    turns = np.abs(np.angle(np.exp(1j * (np.arctan2(offsets[:, 1], offsets[:, 0]) - angle))))
    spread = float(np.clip(np.percentile(turns, 90) + SPREAD_MARGIN, *SPREAD_LIMITS))
    near = max(NEAR_LIMIT, float(np.percentile(distances, 5)) - DISTANCE_MARGIN)
    far = min(FAR_LIMIT, float(np.percentile(distances, 95)) + DISTANCE_MARGIN)
    zone = SideFaceZone(angle, spread, near, far)
    inside = int(sum(zone.contains(*offsets.T)))
    figures.update(zone=zone.to_json(), candidates_inside=inside)
    conflicts = sum(_known_dice_inside(frame, zone) for frame in frames)
    figures["known_dice_inside"] = conflicts
    if conflicts:
        return None, {**figures, "why_none": "known dice lie in it from each other"}
    return zone, figures


def _candidates(frame: FrameBoxes) -> list[tuple[float, float]]:
    dice = np.asarray(frame.dice, np.float64).reshape(-1, 3)
    if not len(dice):
        return []
    out = []
    for x, y in np.asarray(frame.false, np.float64).reshape(-1, 2):
        dx, dy = (x - dice[:, 0]) / dice[:, 2], (y - dice[:, 1]) / dice[:, 2]
        nearest = int(np.argmin(np.hypot(dx, dy)))
        if NEAR_LIMIT <= math.hypot(dx[nearest], dy[nearest]) <= FAR_LIMIT:
            out.append((float(dx[nearest]), float(dy[nearest])))
    return out


def _known_dice_inside(frame: FrameBoxes, zone: SideFaceZone) -> int:
    dice = np.asarray(frame.dice, np.float64).reshape(-1, 3)
    if len(dice) < 2:
        return 0
    dx = (dice[None, :, 0] - dice[:, None, 0]) / dice[:, None, 2]
    dy = (dice[None, :, 1] - dice[:, None, 1]) / dice[:, None, 2]
    inside = zone.contains(dx, dy)
    np.fill_diagonal(inside, False)
    return int(inside.sum())
