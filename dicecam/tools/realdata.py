"""The real dice photos of the development set: photos, labels, splits and crops.

The photos live outside the repository (``../shared/data/real_dice_dev`` next to it, or
the folder named by ``DICECAM_REAL_DATA``); see its MANIFEST.md. Labels are YOLO boxes,
class k meaning a top face of k+1 pips. Two sources:

* ``byler``: phone photos; a label box covers the whole top face, so the crop is cut from
  the box as ``cut_crop`` does at run time.
* ``webcam``: webcam frames; a box surrounds only the pip pattern (one pip for a 1), so
  the die's face is estimated from the box (the pattern spans about 60% of the face),
  never below the smallest face in those frames. Detections are matched to such labels by
  centre, never by overlap (``dicecam.tools.matching``).

Each photo is either *held out* (never trained on) or *tuning* (may be used to fine-tune),
fixed by its file name: byler photos go in runs of ten consecutive shots (a run is one
table, re-rolled), every fourth run held out; webcam frames by capture session (file
prefix), the last 30% of each session's frames held out; so near-duplicate frames never
land on both sides.
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
#: Pip-pattern boxes of the webcam set span about this share of the face.
WEBCAM_PATTERN_SHARE = 0.6
#: The smallest webcam face, as a die's size for matching detections to labels ...
WEBCAM_MIN_FACE_PX = 60.0
#: ... and as the size a reader crop is cut at (a little margin more).
WEBCAM_MIN_CROP_FACE_PX = 70.0
_WEBCAM_PREFIXES = ("dice", "two", "three", "four", "five", "six")


def real_data_dir() -> Path | None:
    """The development set's folder (``DICECAM_REAL_DATA`` or ../shared/data/...), or None
    where it is absent."""
    configured = os.environ.get(ENV_VAR)
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data" / \
        "real_dice_dev"
    return path if (path / "MANIFEST.md").is_file() else None


@dataclass(frozen=True)
class LabelledDie:
    cx: float
    cy: float
    w: float
    h: float
    value: int
    colour: str | None = None
    #: False where the label box is not the top face (webcam: the pip pattern only).
    box_is_face: bool = True


@dataclass(frozen=True)
class LabelledPhoto:
    source: str  # "byler" or "webcam"
    image: Path
    labels: Path
    held_out: bool

    def boxes(self, width: int, height: int) -> list[tuple[int, float, float, float, float]]:
        """(value, cx, cy, w, h) in pixels for each label line, as written."""
        found = []
        for line in self.labels.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:])
            found.append((cls + 1, cx * width, cy * height, w * width, h * height))
        return found

    def dice(self, width: int, height: int) -> list[LabelledDie]:
        """The labelled dice, each with its face's box (estimated for webcam labels)."""
        found = []
        for value, cx, cy, w, h in self.boxes(width, height):
            if self.source == "webcam":
                face = max(max(w, h) / WEBCAM_PATTERN_SHARE, WEBCAM_MIN_FACE_PX)
                found.append(LabelledDie(cx, cy, face, face, value, None, False))
            else:
                found.append(LabelledDie(cx, cy, w, h, value))
        return found


def real_photos(root: Path | None = None) -> list[LabelledPhoto]:
    """Every labelled photo of the development set in a fixed order, with its split."""
    root = root if root is not None else real_data_dir()
    if root is None:
        raise InputError(f"the real dice photos were not found: put them in "
                         f"{REPO_ROOT.parent / 'shared' / 'data' / 'real_dice_dev'} or set "
                         f"{ENV_VAR}")
    photos: list[LabelledPhoto] = []
    images = sorted((root / "byler" / "images" / "train").glob("*.jpg"))
    for index, image in enumerate(images):
        labels = root / "byler" / "labels" / "train" / (image.stem + ".txt")
        photos.append(LabelledPhoto("byler", image, labels, (index // 10) % 4 == 3))
    folder = root / "webcam" / "Train"
    for prefix in _WEBCAM_PREFIXES:
        frames = sorted(folder.glob(f"{prefix}_*.jpg"), key=lambda p: int(p.stem.split("_")[1]))
        for index, image in enumerate(frames):
            held_out = index >= int(len(frames) * 0.7)
            photos.append(LabelledPhoto("webcam", image, image.with_suffix(".txt"), held_out))
    return [p for p in photos if p.labels.is_file()]


def iter_photos(
    root: Path | None = None, *, held_out: bool | None = None, source: str | None = None
) -> Iterator[LabelledPhoto]:
    """The photos selected by ``held_out`` and ``source`` (None: all)."""
    for photo in real_photos(root):
        if held_out is not None and photo.held_out != held_out:
            continue
        if source is not None and photo.source != source:
            continue
        yield photo


def photo_crops(photo: LabelledPhoto) -> list[tuple[np.ndarray, int]]:
    """(crop, value) for each labelled die of one photo, cut as the reader sees it."""
    frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
    if frame is None:
        raise InputError(f"could not read {photo.image}")
    height, width = frame.shape[:2]
    crops = []
    for value, cx, cy, w, h in photo.boxes(width, height):
        if photo.source == "webcam":
            face = max(max(w, h) / WEBCAM_PATTERN_SHARE, WEBCAM_MIN_CROP_FACE_PX)
            w = h = face
        crops.append((cut_crop(frame, cx, cy, w, h), value))
    return crops


def real_crops(held_out: bool | None = None, source: str | None = None,
               root: Path | None = None) -> tuple[list[np.ndarray], np.ndarray, list[str]]:
    """(crops, values, source names) of the photos selected by ``held_out`` (None: all)
    and ``source`` (None: every source)."""
    crops, values, sources = [], [], []
    for photo in iter_photos(root, held_out=held_out, source=source):
        for crop, value in photo_crops(photo):
            crops.append(crop)
            values.append(value)
            sources.append(photo.source)
    return crops, np.array(values, np.int64), sources
