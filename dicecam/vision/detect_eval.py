"""Scoring detections against labels: match by box centre, count recall and precision.

The real development photos (see ``../shared/data/real_dice_dev/MANIFEST.md``) label each
die with a YOLO box; the webcam set's boxes surround only the pip pattern, so detections
are matched to labels by centre distance, never by overlap. A detection matches a label
when its centre lies within ``tolerance`` times the label's die size of the label's centre
(each label and each detection used once, closest pairs first).

The held-out split is the one the die reader uses (``dicecam.models.realdata``): byler
photos in runs of ten consecutive shots, every fourth run held out; webcam frames held
out for the last 30% of each capture session. Numbers on held-out photos are reported
apart from those on photos a model may have been tuned on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
ENV_VAR = "DICECAM_REAL_DATA"
#: Pip-pattern boxes of the webcam set span about this share of the face.
WEBCAM_PATTERN_SHARE = 0.6
WEBCAM_MIN_FACE_PX = 60.0
_WEBCAM_PREFIXES = ("dice", "two", "three", "four", "five", "six")


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

    def dice(self, width: int, height: int) -> list[LabelledDie]:
        found = []
        for line in self.labels.read_text().splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:])
            cx, cy, w, h = cx * width, cy * height, w * width, h * height
            if self.source == "webcam":
                face = max(max(w, h) / WEBCAM_PATTERN_SHARE, WEBCAM_MIN_FACE_PX)
                found.append(LabelledDie(cx, cy, face, face, cls + 1, None, False))
            else:
                found.append(LabelledDie(cx, cy, w, h, cls + 1))
        return found


def real_data_dir() -> Path | None:
    """The development set's folder (``DICECAM_REAL_DATA`` or ../shared/data/...), or None."""
    configured = os.environ.get(ENV_VAR)
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data" / \
        "real_dice_dev"
    return path if (path / "MANIFEST.md").is_file() else None


def real_photos(root: Path) -> list[LabelledPhoto]:
    """Every labelled photo of the development set in a fixed order, with its split."""
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


def match_centres(
    truth: Sequence[tuple[float, float, float]],
    found: Sequence[tuple[float, float]],
    tolerance: float = 0.5,
) -> list[int | None]:
    """For each true die (cx, cy, size), the index of the found centre it matches, or None."""
    if not truth or not found:
        return [None] * len(truth)
    t = np.asarray(truth, np.float64)
    f = np.asarray(found, np.float64)
    dist = np.hypot(t[:, None, 0] - f[None, :, 0], t[:, None, 1] - f[None, :, 1])
    limit = tolerance * t[:, 2:3]
    result: list[int | None] = [None] * len(truth)
    used = np.zeros(len(found), bool)
    for flat in np.argsort(dist, axis=None):
        i, j = divmod(int(flat), len(found))
        if dist[i, j] > limit[i, 0]:
            continue
        if result[i] is None and not used[j]:
            result[i] = j
            used[j] = True
    return result


@dataclass
class Tally:
    """Running counts for recall, precision, value and colour accuracy."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    value_right: int = 0
    colour_total: int = 0
    colour_right: int = 0

    def add(self, truth: Sequence[LabelledDie], found: Sequence, tolerance: float = 0.5) -> None:
        """``found`` items need ``x, y`` and may have ``value`` and ``colour`` (DieReading)."""
        pairs = match_centres([(d.cx, d.cy, max(d.w, d.h)) for d in truth],
                              [(f.x, f.y) for f in found], tolerance)
        self.truth += len(truth)
        self.found += len(found)
        for die, j in zip(truth, pairs, strict=True):
            if j is None:
                continue
            self.matched += 1
            got = found[j]
            if getattr(got, "value", None) == die.value:
                self.value_right += 1
            if die.colour is not None:
                self.colour_total += 1
                if getattr(got, "colour", None) == die.colour:
                    self.colour_right += 1

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def value_accuracy(self) -> float:
        """Right values among matched dice (detection misses are counted by recall)."""
        return self.value_right / self.matched if self.matched else 0.0

    @property
    def colour_accuracy(self) -> float | None:
        return self.colour_right / self.colour_total if self.colour_total else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "dice": self.truth,
            "recall": round(self.recall, 4),
            "precision": round(self.precision, 4),
            "value_accuracy": round(self.value_accuracy, 4),
            "colour_accuracy": None if self.colour_accuracy is None
            else round(self.colour_accuracy, 4),
        }


def iter_photos(
    root: Path, *, held_out: bool | None = None, source: str | None = None
) -> Iterator[LabelledPhoto]:
    for photo in real_photos(root):
        if held_out is not None and photo.held_out != held_out:
            continue
        if source is not None and photo.source != source:
            continue
        yield photo
