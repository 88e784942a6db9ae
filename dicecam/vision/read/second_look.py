"""A second look at a die read unsure in a crowd: its crop without the dice beside it.

In a crowded throw (a Dice Party party of 54 dice lies in touching clusters) the die
reader's crop, 1.4 times the die's box, holds the corners and pips of the dice touching
it, and the reader, sure of the same die lying alone, reads it unsure. The second look
cuts such a die again with every other box outside its own painted over in the colour
of the table around it (the crop's pixels in no box), at three margins (1.2, 1.3 and 1.4
times the box), reads those three crops as one batch, and takes as the die's confidence
the mean probability the three give its first value (a view that reads another value
gives it none; among several neighbours, where all three agree, the best two's). It
never changes a value the first look read: it can only confirm it.

Only a die in a crowd gets it: its box about square, another box reaching into its crop,
none covering much of it, and the detector fairly sure of it (``SECOND_LOOK_SCORE``). On
the real photos, without these limits, it made 9 of the 60 dice it confirmed sure and
wrong (a tag, a die's side face beside its top, half a die beside the box of the whole).

Measured on 120 rendered 54-die Dice Party throws as the demo draws them (seeds 120-239,
6,480 dice): dice asked 525 -> 151, throws waiting for a tap 117 -> 81, dice read wrong
and sure 0 -> 0. ``bench real``: dice asked byler 14.2 -> 13.9%, webcam 9.2 -> 8.9%,
every other figure unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import cv2
import numpy as np

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.colour.pixel_medians import masked_channel_medians
from dicecam.vision.detect.detector import CLOSE_MAX_BOXES
from dicecam.vision.read.die_reader import CROP_MARGIN, ValueReading, cut_crop

#: the margins (crop side / box side) of the second look's three crops
MARGINS = (1.2, 1.3, 1.4)
#: the confidence the views give the first value: the mean of all three, or of the best
#: ``VIEWS_COUNTED`` for a die with at least ``CROWDED_BY`` other boxes reaching its widest
#: crop where every view reads the first value: among several neighbours the widest crop
#: keeps the most of their painted-over edges and is the weakest view. (The best two for
#: every die read a side face beside one other box sure.)
VIEWS_COUNTED = 2
CROWDED_BY = 2
#: dice read less surely than this get the second look (the tablet asks below it)
SECOND_LOOK_BELOW = LOW_CONFIDENCE
#: the second look is for boxes the detector is this sure are dice: the boxes it confirmed
#: wrongly on the real photos (a tag beside a false box, a side face beside its top, half
#: a die beside the whole) scored lower than most it confirmed rightly
SECOND_LOOK_SCORE = 0.55
#: ...and in a frame of more than ``CROWD_BOXES`` boxes (a crowd: the close pass's own
#: test, ``detect.CLOSE_MAX_BOXES``), from this lower score: a crowd's dice score lower,
#: and no real photo of a single table is a crowd (from 0.5 everywhere a false box on a
#: desk was made sure)
CROWD_SECOND_LOOK_SCORE = 0.5
CROWD_BOXES = CLOSE_MAX_BOXES
#: a box another covers more of than this (of the smaller of the two) is a die's side
#: face beside its top, part of a die or a second box on one: painted over, the other
#: left it a clean "die" (a tilted webcam photo's side face read a sure 5). The boxes
#: of touching dice turned 45 degrees overlap by at most a quarter.
MAX_OVERLAP = 0.35
#: a box longer than this times its width is no die's top face seen from above (a side
#: face beside its die's top: painted over, that top left the side face a clean "die")
SQUARE = 1.25


class ValueReadingLike(Protocol):
    value: int | None
    confidence: float


ValueFn = Callable[[Sequence[np.ndarray]], Sequence[ValueReadingLike]]


def crop_without_neighbours(frame_bgr: np.ndarray, boxes: np.ndarray, index: int,
                            margin: float = CROP_MARGIN) -> np.ndarray:
    """Die ``index``'s crop (``cut_crop``, ``margin`` times its box's longer side) with
    the other ``boxes`` (cx, cy, w, h) painted over outside its own box, in the median
    colour of the crop's pixels that lie in no box (of the whole crop where too few do)."""
    cx, cy, w, h = (float(t) for t in boxes[index])
    scale = margin / CROP_MARGIN
    crop = cut_crop(frame_bgr, cx, cy, w * scale, h * scale)  # a copy of its own
    side = crop.shape[0]
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    all_boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    # the boxes near enough to reach the crop, found for all at once (a loop over every
    # box of a 60-die frame cost 0.25 ms a crop), and their spans in it, the die's own first
    near = (np.abs(all_boxes[:, 0] - cx) <= side) & (np.abs(all_boxes[:, 1] - cy) <= side)
    near[index] = False
    (own_top, own_bottom, own_left, own_right), *spans = _spans(
        all_boxes[np.concatenate(([index], np.flatnonzero(near)))], x0, y0, side).tolist()
    others = [span for span in spans if span[1] > span[0] and span[3] > span[2]]
    if not others:
        return crop
    free = np.full((side, side), 255, np.uint8)
    for top, bottom, left, right in [*others, (own_top, own_bottom, own_left, own_right)]:
        free[top:bottom, left:right] = 0
    colour = masked_channel_medians(crop, free if np.count_nonzero(free) >= 8 else None)
    paint = tuple(int(c) for c in colour)  # the mean of the middle two, cut
    # painted a box at a time and the die's own box put back: a boolean mask's assignment
    # cost 0.085 ms a crop, slices of the crop 0.04 ms, OpenCV's filled rectangles 0.01
    own = crop[own_top:own_bottom, own_left:own_right].copy()
    for top, bottom, left, right in others:
        cv2.rectangle(crop, (left, top), (right - 1, bottom - 1), paint, cv2.FILLED)
    crop[own_top:own_bottom, own_left:own_right] = own
    return crop


#: a box's (top, bottom, left, right) from its (cx, cy, w, h): the centre's coordinate
#: and half the side, taken away or added (``cy - h / 2`` to the bit)
_EDGE_CENTRES = [1, 1, 0, 0]
_EDGE_SIDES = [3, 3, 2, 2]
_EDGE_HALVES = np.array([-0.5, 0.5, -0.5, 0.5])


def _spans(boxes: np.ndarray, x0: int, y0: int, size: int) -> np.ndarray:
    """Each box's (top, bottom, left, right) in a crop whose corner lies at (``x0``,
    ``y0``) of the frame and whose side is ``size``: its edges less the corner, rounded as
    Python's ``round`` rounds (half to even), held within the crop."""
    edges = boxes[:, _EDGE_CENTRES] + boxes[:, _EDGE_SIDES] * _EDGE_HALVES
    edges -= np.array([y0, y0, x0, x0], np.float64)
    return np.clip(np.rint(edges), 0, size).astype(np.int64)


def look_again(frame_bgr: np.ndarray, boxes: np.ndarray, first: dict[int, ValueReadingLike],
               read_values: ValueFn, margins: Sequence[float] = MARGINS
               ) -> dict[int, ValueReading]:
    """The second look's reading of each die of ``first`` (index into ``boxes`` -> its
    first reading) read under ``SECOND_LOOK_BELOW`` whose box is about square and has
    another box reaching into its crop (a die in a crowd): its first value, read at the
    mean probability the views give it (a view that reads another value gives it none);
    where the first look read no value ("not a die", unsurely), the value every view
    reads, at their mean confidence. A die keeps its first confidence where that is
    higher; dice the views read no value for, or differently, are left out. The caller
    passes only boxes the detector is fairly sure of (``SECOND_LOOK_SCORE``)."""
    neighbours = {i: _crowd_neighbours(boxes, i, max(margins)) for i, r in first.items()
                  if float(r.confidence) < SECOND_LOOK_BELOW}
    unsure = [i for i, count in neighbours.items() if count]
    if not unsure:
        return {}
    crops = [crop_without_neighbours(frame_bgr, boxes, i, m) for i in unsure for m in margins]
    views = list(read_values(crops))
    if len(views) != len(crops):
        raise ValueError(f"value reader returned {len(views)} readings for {len(crops)} crops")
    out: dict[int, ValueReading] = {}
    for n, i in enumerate(unsure):
        own = views[n * len(margins):(n + 1) * len(margins)]
        value, floor = first[i].value, float(first[i].confidence)
        if value is None:
            seen = {v.value for v in own}
            if len(seen) != 1 or None in seen:
                continue
            value, floor = seen.pop(), 0.0
        backing = [float(v.confidence) if v.value == value else 0.0 for v in own]
        if neighbours[i] >= CROWDED_BY and all(v.value == value for v in own):
            backing = sorted(backing, reverse=True)[:VIEWS_COUNTED]
        agreed = sum(backing) / len(backing)
        out[i] = ValueReading(value, max(floor, agreed))
    return out


def _crowd_neighbours(boxes: np.ndarray, index: int, margin: float) -> int:
    """How many other boxes reach into box ``index``'s crop of ``margin``, where the box is
    about square (``SQUARE``) and none covers more than ``MAX_OVERLAP`` of it or of itself
    (0 otherwise: not a die in a crowd)."""
    cx, cy, w, h = (float(t) for t in boxes[index])
    if max(w, h) > SQUARE * min(w, h):
        return 0
    half = max(w, h) * margin / 2
    others = np.delete(np.asarray(boxes, np.float64).reshape(-1, 4), index, axis=0)
    near = ((np.abs(others[:, 0] - cx) < half + others[:, 2] / 2)
            & (np.abs(others[:, 1] - cy) < half + others[:, 3] / 2))
    if not near.any():
        return 0
    ox, oy, ow, oh = others[near].T
    across = np.clip(np.minimum(cx + w / 2, ox + ow / 2) - np.maximum(cx - w / 2, ox - ow / 2),
                     0, None)
    down = np.clip(np.minimum(cy + h / 2, oy + oh / 2) - np.maximum(cy - h / 2, oy - oh / 2),
                   0, None)
    if (across * down > MAX_OVERLAP * np.minimum(w * h, ow * oh)).any():
        return 0
    return int(near.sum())
