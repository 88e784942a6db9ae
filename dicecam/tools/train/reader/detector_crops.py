"""Real dice cut as the runtime cuts them: around the detector's box, not the label's.

The real tuning crops (``realdata.photo_crops``) are cut around each label; where a source's
label boxes are not face boxes (pxl's enclose the whole die, webcam's only the pips), the
face is estimated from them. At run time the reader sees crops cut around the detector's
box instead, whose size and centre differ from that estimate die by die: on pxl the shipped
reader read the label crops of the dice the detector found right 95.4% of the time and the
detector's crops of the same dice 77.6% (the size, not the centre, made most of it). So each
real die the detector finds is cut again around its box, with the label's value: the
reader then learns the framing it will get.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from dicecam.tools.matching import match_centres
from dicecam.tools.realdata import LabelledDie, iter_photos
from dicecam.vision.detect.detector import DieDetector
from dicecam.vision.read.die_reader import cut_crop


def detector_crops(source: str, *, held_out: bool | None = False,
                   detector_path: Path | None = None,
                   log: Callable[[str], None] = print) -> tuple[list[np.ndarray], list[int]]:
    """(crops, values) of ``source``'s dice (its tuning part by default) that the detector
    finds, each cut around the detector's box (matched to its label by centre, as
    ``dicecam bench real`` matches them)."""
    detector = DieDetector(detector_path, threads=1, auto_zoom=True)
    crops: list[np.ndarray] = []
    values: list[int] = []
    labelled = 0
    for photo in iter_photos(held_out=held_out, source=source):
        frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        height, width = frame.shape[:2]
        truth = photo.dice(width, height)
        labelled += len(truth)
        cut, cut_values = cut_found(frame, truth, detector.detect(frame).boxes)
        crops += cut
        values += cut_values
    log(f"{source}: {len(values)} of {labelled} dice cut again around the detector's boxes")
    return crops, values


#: A detector's box is cut only when its side is this share of the label's face (a box on
#: one pip of a five, labelled five, would teach the reader that a pip is a die).
SIZE_RANGE = (0.7, 1.4)


def cut_found(frame: np.ndarray, truth: Sequence[LabelledDie], boxes: np.ndarray
              ) -> tuple[list[np.ndarray], list[int]]:
    """Each labelled die a box of about its face's size (``SIZE_RANGE``) was found for, cut
    around that box, with the label's value."""
    found = match_centres([(d.cx, d.cy, max(d.w, d.h)) for d in truth],
                          [(float(b[0]), float(b[1])) for b in boxes])
    crops, values = [], []
    for die, index in zip(truth, found, strict=True):
        if index is None or die.value is None:  # no value to learn from a die nobody read
            continue
        cx, cy, w, h = (float(v) for v in boxes[index])
        share = max(w, h) / max(die.w, die.h)
        if not SIZE_RANGE[0] <= share <= SIZE_RANGE[1]:
            continue
        crops.append(cut_crop(frame, cx, cy, w, h))
        values.append(int(die.value))
    return crops, values
