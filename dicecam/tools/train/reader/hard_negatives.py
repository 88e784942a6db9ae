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
from dicecam.vision.detect.detector import MODEL_PATH, DieDetector
from dicecam.vision.read.die_reader import cut_crop, resize_crop

#: The crops mined in this process, by what they were mined from (the files and their
#: modification times, the detector, the size): ``bench loo`` trains a twin's four stages in
#: one process, each from the same hard negatives, which took 2-3 s of detection a stage.
_MINED: dict[tuple, np.ndarray] = {}


def _mined(key: tuple, mine: Callable[[], np.ndarray],
           log: Callable[[str], None]) -> np.ndarray:
    """``mine()``'s crops, mined once a process for ``key``; read-only, so a caller that
    wants to change them copies first."""
    if key not in _MINED:
        crops = mine()
        crops.flags.writeable = False
        _MINED[key] = crops
    else:
        log(f"{len(_MINED[key])} hard negatives mined before in this process ({key[0]})")
    return _MINED[key]


def _files_key(paths: Sequence[Path]) -> tuple:
    return tuple((str(path), path.stat().st_mtime_ns if path.exists() else None)
                 for path in paths)


def background_crops(size: int, detector_path: Path | None = None,
                     log: Callable[[str], None] = print) -> np.ndarray:
    """N x size x size x 3 uint8 crops of every detection on the background photos that
    training may use (none where the photos are absent)."""
    photos = background_photos(held_out=False)
    key = ("backgrounds", size, _files_key([detector_path or MODEL_PATH]),
           _files_key([p for _, p in photos]))
    return _mined(key, lambda: _background_crops(photos, size, detector_path, log), log)


def _background_crops(photos: Sequence[tuple[str, Path]], size: int,
                      detector_path: Path | None, log: Callable[[str], None]) -> np.ndarray:
    detector = DieDetector(detector_path, threads=1, auto_zoom=True)
    crops = []
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
    renders = [path for folder in folders for path in sorted(Path(folder).glob("*.png"))]
    key = ("rendered tables", size, _files_key([detector_path or MODEL_PATH]),
           _files_key(renders))
    return _mined(key, lambda: _rendered_table_crops(renders, size, detector_path, log), log)


def _rendered_table_crops(paths: Sequence[Path], size: int, detector_path: Path | None,
                          log: Callable[[str], None]) -> np.ndarray:
    crops, renders = [], 0
    detectors: dict[int, DieDetector] = {}  # one a render size
    for path in paths:
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
