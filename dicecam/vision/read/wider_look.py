"""A wider look at a large die read unsure: its crop cut again at larger margins.

The detector learnt dice of 5-64 px at its input. On a die larger than that (a camera
close above the table, a phone photo of a few dice) the box it draws is often only part
of the top face: on ``bench real``'s close-ups the box of a die read unsure was 0.5-0.9 of
the die, and the reader's crop (1.4 times the box) cut pips off. Such a die is read again
from crops at ``MARGINS`` times its box and keeps the most confident of those readings
where it is surer than the first.

Only a die whose box is at least ``LARGE_SHARE`` of the frame's long side gets it (60 px
at the detector's 640-px input): smaller dice lie among others, and a wider crop holds
their neighbours. From 40 px it made more dice right and sure on the real photos (3,141
against 3,092 of 3,919) but read 4 wrong and sure. A crop that would hold another die's
centre is not read (a second box on the same die, read sure from a wide crop, was a false
die on a close-up), and another value is taken only when read sure (unsure, it changed
what the tablet proposed for 7 of pxl's asked dice, and made them wrong). "Not a die"
from a wide crop never counts: the crop is loose by design (a taught webcam table lost 4
dice to it).

``bench real`` (shipped models), before -> after: damiantab, which no model saw, value
98.73 -> 99.58% and asked 14.0 -> 4.2%; webcam asked 4.5 -> 3.7%; closeup:damiantab
value 94.4 -> 100%, asked 16.7 -> 5.6%; tilt:damiantab value 91.2 -> 93.0%, asked 14.0
-> 10.5%; every other figure the same or better, and 46 sure mistakes before and after.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.read.die_reader import CROP_MARGIN, cut_crop
from dicecam.vision.read.second_look import ValueFn, ValueReadingLike

#: the wider crops' sides over the box's longer side (the first look's is ``CROP_MARGIN``)
MARGINS = (1.3 * CROP_MARGIN, 1.7 * CROP_MARGIN, 2.2 * CROP_MARGIN)
#: a die's box at least this share of the frame's long side is large (60 of 640 px)
LARGE_SHARE = 60 / 640
#: dice read less surely than this get the wider look (the tablet asks below it)
WIDER_LOOK_BELOW = LOW_CONFIDENCE


def is_large(box: Sequence[float], frame_shape: tuple[int, ...]) -> bool:
    """Whether a box (cx, cy, w, h) is a large die's in a frame of ``frame_shape``."""
    return max(float(box[2]), float(box[3])) >= LARGE_SHARE * max(frame_shape[:2])


def look_wider(frame_bgr: np.ndarray, boxes: np.ndarray,
               first: dict[int, ValueReadingLike], read_values: ValueFn,
               ) -> dict[int, ValueReadingLike]:
    """For each die ``i`` of ``first`` (its first reading; the dice of ``first`` are all
    the frame's) that is large and read under ``WIDER_LOOK_BELOW``: the most confident
    reading of a value from its wider crops that hold no other die's centre, where that
    is surer than the first and reads the same value or is sure. All the crops are read
    as one batch."""
    dice = list(first)
    todo = [n for n, i in enumerate(dice) if first[i].confidence < WIDER_LOOK_BELOW
            and is_large(boxes[i], frame_bgr.shape)]
    if not todo:  # the usual frame: no large die read unsure
        return {}
    centres = np.asarray([boxes[i][:2] for i in dice], np.float64).reshape(-1, 2)
    margins_of: dict[int, list[float]] = {}
    for n in todo:
        cx, cy, w, h = (float(t) for t in boxes[dice[n]])
        # how far the nearest other die's centre lies (in x or y, as a square crop reaches):
        # a crop that holds it reads that die too (a second box on the same die read
        # sure: a close-up's two touching dice)
        reach = np.max(np.abs(centres - (cx, cy)), axis=1)
        reach[n] = np.inf
        margins = [m for m in MARGINS if m * max(w, h) / 2 < float(reach.min())]
        if margins:
            margins_of[dice[n]] = margins
    if not margins_of:
        return {}
    crops = []
    for i, margins in margins_of.items():
        cx, cy, w, h = (float(t) for t in boxes[i])
        crops += [cut_crop(frame_bgr, cx, cy, w * m / CROP_MARGIN, h * m / CROP_MARGIN)
                  for m in margins]
    readings = iter(read_values(crops))
    better: dict[int, ValueReadingLike] = {}
    for i, margins in margins_of.items():
        # a wide crop is loose by design: its "not a die" says nothing of the die
        views = [r for r in (next(readings) for _ in margins) if r.value is not None]
        if not views:
            continue
        best = max(views, key=lambda r: r.confidence)
        # another value only when read sure: an unsure one would change what the tablet
        # proposes for a die it asks about anyway (pxl: 7 proposals made wrong)
        if best.confidence > first[i].confidence and (
                best.value == first[i].value or best.confidence >= WIDER_LOOK_BELOW):
            better[i] = best
    return better
