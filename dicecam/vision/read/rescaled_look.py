"""A die read unsure, read again in a tighter and a looser box: a better value to propose.

The detector's box on a die it never saw is often a little too large or too small, and the
reader reads unseen dice best at different box scales: by source, with the reader trained
without that source (``dicecam bench loo``'s twins), the share of found dice read right is
highest at 0.85 of the box for byler, 1.15 for pxl, webcam and damiantab, and no one scale
suits them all. So each die read unsure is read again from crops cut around its box at
``SCALES`` times its size, and the most confident value read there becomes the value the
tablet proposes, where it is read more surely than the first.

It never makes a die sure (the confidence stays under the tablet's bar, ``ASKED``): taken
as sure, those readings cut the dice asked by a third but read 12 more dice wrong and sure
on ``bench real`` (23 -> 35 sure mistakes); capped, the proposals are right more often and
nothing else changes. ``bench real``, value (the share of found dice read right, asked
ones included), before -> after: byler 97.38 -> 97.78%, pxl 85.76 -> 87.58%,
closeup:webcam 96.30 -> 100%, tilt:byler 97.48 -> 97.84%, tilt:damiantab 93.22 -> 96.61%;
no value lower, no die more read wrong and sure or asked. The readers trained without a
source (``bench loo``): byler 87.07 -> 89.49%, pxl 71.33 -> 74.17%, webcam 99.47 ->
99.68%.

The parts of a die the detector also saw whole (``Detections.wholes``) wait for the
whole's read: a part given a value here would keep the whole from being read
(``TablePipeline._whole_dice``), and a damiantab die read sure whole became an asked part.

Only frames of at most ``MAX_BOXES`` boxes get it: two more looks (each read in four turns,
as unsure crops are) at every unsure die of a 60-die crowd would add half again to the
reader's time, where the crowd's own second look (``second_look.py``) already reads its
unsure dice again; a frame of a few dice has the time.
"""

from __future__ import annotations

import numpy as np

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.detect.side_faces import ASKED
from dicecam.vision.read.die_reader import ValueReading
from dicecam.vision.read.second_look import ValueFn, ValueReadingLike

#: the boxes' sides, as shares of the detector's box, of the second and third looks
SCALES = (0.85, 1.15)
#: frames with more boxes than this (a crowd) are not looked at again
MAX_BOXES = 30


def look_rescaled(frame_bgr: np.ndarray, boxes: np.ndarray,
                  first: dict[int, ValueReadingLike], read_values: ValueFn,
                  crop, *, frame_boxes: int | None = None) -> dict[int, ValueReading]:
    """For each die ``i`` of ``first`` (its reading so far, of ``boxes[i]``) read under
    ``LOW_CONFIDENCE``: the most confident value read from crops of its box scaled by
    ``SCALES``, where that is more confident than ``first[i]`` (or ``first[i]`` has no
    value), with its confidence capped at ``ASKED``. ``crop`` cuts a crop as the first look
    did (``cut_crop``). All the crops are read as one batch; a frame of more than
    ``MAX_BOXES`` boxes (``frame_boxes``, default: ``boxes``) is left as it is."""
    if (len(boxes) if frame_boxes is None else frame_boxes) > MAX_BOXES:
        return {}
    todo = [i for i, reading in first.items() if reading.confidence < LOW_CONFIDENCE]
    if not todo:
        return {}
    crops = [crop(frame_bgr, float(boxes[i][0]), float(boxes[i][1]),
                  float(boxes[i][2]) * scale, float(boxes[i][3]) * scale)
             for i in todo for scale in SCALES]
    readings = iter(read_values(crops))
    better: dict[int, ValueReading] = {}
    for i in todo:
        views = [r for r in (next(readings) for _ in SCALES) if r.value is not None]
        if not views:
            continue
        best = max(views, key=lambda r: r.confidence)
        if first[i].value is None or best.confidence > first[i].confidence:
            better[i] = ValueReading(best.value, min(float(best.confidence), ASKED))
    return better
