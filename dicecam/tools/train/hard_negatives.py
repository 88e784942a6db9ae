"""Hard negatives for the die reader: what the detector takes for a die on real photos
without dice, and on rendered tables without a d6 (``dicecam train render --tables``).

Every box the detector puts on a background photo (``realdata.background_photos``, never
the held-out third) is a false die: a chess piece, a go stone, a domino's pips, a speck of
carpet. Cut as the runtime cuts a die's crop, each becomes a crop of class 0 ("not a
readable die") for the reader, which then vetoes such a box instead of asking the table
about it. Mined with the detector the runtime uses, so the crops are the mistakes the
product actually makes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from dicecam.tools.realdata import background_photos
from dicecam.vision.detect import DieDetector
from dicecam.vision.die_reader import cut_crop, resize_crop


def background_crops(size: int, detector_path: Path | None = None,
                     log: Callable[[str], None] = print) -> np.ndarray:
    """N x size x size x 3 uint8 crops of every detection on the background photos that
    training may use (none where the photos are absent)."""
    detector = DieDetector(detector_path, threads=1, auto_zoom=True)
    crops = []
    photos = background_photos(held_out=False)
    for _folder, path in photos:
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        for cx, cy, w, h in detector.detect(frame).boxes:
            crop = cut_crop(frame, float(cx), float(cy), float(w), float(h))
            crops.append(resize_crop(crop, size))
    log(f"{len(crops)} hard negatives: the detector's boxes on {len(photos)} real photos "
        f"without dice")
    if not crops:
        return np.zeros((0, size, size, 3), np.uint8)
    return np.stack(crops)


def rendered_table_crops(folders: Sequence[Path], size: int, detector_path: Path | None = None,
                         log: Callable[[str], None] = print) -> np.ndarray:
    """N x size x size x 3 uint8 crops of every detection on the rendered tables without a
    d6 in ``folders`` (carpets, stone, cloth, wood; d4, d8, d10, d20 on half of them), each
    read at its own scale (the renders are drawn at the detector's input scale)."""
    crops, renders = [], 0
    detectors: dict[int, DieDetector] = {}  # one a render size
    for folder in folders:
        for path in sorted(Path(folder).glob("*.png")):
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                continue
            renders += 1
            side = max(frame.shape[:2])
            if side not in detectors:
                detectors[side] = DieDetector(detector_path, threads=1, coarse_pass=False,
                                              input_long_side=side)
            detector = detectors[side]
            for cx, cy, w, h in detector.detect(frame).boxes:
                crops.append(resize_crop(cut_crop(frame, float(cx), float(cy), float(w),
                                                  float(h)), size))
    log(f"{len(crops)} hard negatives: the detector's boxes on {renders} rendered tables "
        f"without a d6")
    if not crops:
        return np.zeros((0, size, size, 3), np.uint8)
    return np.stack(crops)
