"""The real dice photos of the development set, cut into labelled crops.

The photos live outside the repository (``../shared/data/real_dice_dev`` next to it, or
the folder named by ``DICECAM_REAL_DATA``); see its MANIFEST.md. Two sources:

* ``byler``: phone photos; a label box covers the whole top face, so the crop is cut from
  the box as ``cut_crop`` does at run time.
* ``webcam``: webcam frames; a box surrounds only the pip pattern (one pip for a 1), so
  the crop is cut around the box centre with the face size estimated from the box (the
  pattern spans about 60% of the face) and never below ``WEBCAM_MIN_FACE_PX``, the size of
  the smallest face in those frames.

Each photo is either *held out* (never trained on) or *tuning* (may be used to fine-tune),
fixed by its file name: byler photos go in runs of ten consecutive shots (a run is one
table, re-rolled), webcam frames by capture session (file prefix) and frame number range,
so that near-duplicate frames never land on both sides.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicecam.errors import InputError
from dicecam.vision.die_reader import cut_crop

REPO_ROOT = Path(__file__).resolve().parents[2]
ENV_VAR = "DICECAM_REAL_DATA"
WEBCAM_MIN_FACE_PX = 70.0
WEBCAM_PATTERN_SHARE = 0.6
_WEBCAM_PREFIXES = ("dice", "two", "three", "four", "five", "six")


def real_data_dir() -> Path | None:
    """The development set's folder, or None where it is absent."""
    configured = os.environ.get(ENV_VAR)
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data" / \
        "real_dice_dev"
    return path if (path / "MANIFEST.md").is_file() else None


@dataclass(frozen=True)
class RealPhoto:
    source: str          # "byler" or "webcam"
    image: Path
    labels: Path
    held_out: bool


def _byler(root: Path) -> Iterator[RealPhoto]:
    images = sorted((root / "byler" / "images" / "train").glob("*.jpg"))
    for index, image in enumerate(images):
        labels = root / "byler" / "labels" / "train" / (image.stem + ".txt")
        # runs of ten consecutive shots; every fourth run is held out
        yield RealPhoto("byler", image, labels, (index // 10) % 4 == 3)


def _webcam(root: Path) -> Iterator[RealPhoto]:
    folder = root / "webcam" / "Train"
    for prefix in _WEBCAM_PREFIXES:
        frames = sorted(folder.glob(f"{prefix}_*.jpg"), key=lambda p: int(p.stem.split("_")[1]))
        for index, image in enumerate(frames):
            # the last 30% of each session's frames (by number) are held out
            held_out = index >= int(len(frames) * 0.7)
            yield RealPhoto("webcam", image, image.with_suffix(".txt"), held_out)


def real_photos(root: Path | None = None) -> list[RealPhoto]:
    """Every labelled photo of the development set, in a fixed order."""
    root = root if root is not None else real_data_dir()
    if root is None:
        raise InputError(f"the real dice photos were not found: put them in "
                         f"{REPO_ROOT.parent / 'shared' / 'data' / 'real_dice_dev'} or set "
                         f"{ENV_VAR}")
    return [p for p in (*_byler(root), *_webcam(root)) if p.labels.is_file()]


def _boxes(photo: RealPhoto, width: int, height: int) -> Iterator[tuple[int, float, float,
                                                                         float, float]]:
    for line in photo.labels.read_text().splitlines():
        parts = line.split()
        if len(parts) != 5:
            continue
        cls, cx, cy, w, h = int(parts[0]), *map(float, parts[1:])
        yield cls + 1, cx * width, cy * height, w * width, h * height


def photo_crops(photo: RealPhoto) -> list[tuple[np.ndarray, int]]:
    """(crop, value) for each labelled die of one photo."""
    frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
    if frame is None:
        raise InputError(f"could not read {photo.image}")
    height, width = frame.shape[:2]
    crops = []
    for value, cx, cy, w, h in _boxes(photo, width, height):
        if photo.source == "webcam":
            face = max(max(w, h) / WEBCAM_PATTERN_SHARE, WEBCAM_MIN_FACE_PX)
            w = h = face
        crops.append((cut_crop(frame, cx, cy, w, h), value))
    return crops


def real_crops(held_out: bool | None = None, source: str | None = None,
               root: Path | None = None) -> tuple[list[np.ndarray], np.ndarray, list[str]]:
    """(crops, values, source names) of the photos selected by ``held_out`` (None: all)
    and ``source`` (None: both)."""
    crops, values, sources = [], [], []
    for photo in real_photos(root):
        if held_out is not None and photo.held_out != held_out:
            continue
        if source is not None and photo.source != source:
            continue
        for crop, value in photo_crops(photo):
            crops.append(crop)
            values.append(value)
            sources.append(photo.source)
    return crops, np.array(values, np.int64), sources
