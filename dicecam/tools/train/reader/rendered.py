"""The die reader's crops from Blender renders (``dicecam train render``).

Each render is one camera view of one die with its top face's box (``labels.jsonl``); the
crop is cut from it as the runtime cuts a detector's box (``cut_crop``), with the box's
size and centre jittered as an unseen table's detector boxes are (looser, tighter, off
centre: on pxl the box cost more than the classifier), a few times per render.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from dicecam.errors import InputError
from dicecam.vision.read.die_reader import cut_crop, resize_crop

#: box jitter: side times 0.88-1.18, centre moved by up to 7% of the side
JITTER_SCALE = (0.88, 1.18)
JITTER_SHIFT = 0.07
#: a camera's auto exposure: the render's 97th brightness percentile brought to about this
#: grey level (a sun or lamp too weak for the scene leaves a dark render; a webcam would
#: open up), never by more than ``MAX_GAIN``
EXPOSURE_TARGET = 225.0
MAX_GAIN = 3.0


def auto_exposure(image: np.ndarray) -> np.ndarray:
    """The render brightened (or dimmed) as a camera's auto exposure would."""
    level = float(np.percentile(image, 97))
    gain = min(MAX_GAIN, max(0.8, EXPOSURE_TARGET / max(level, 1.0)))
    if abs(gain - 1.0) < 0.05:
        return image
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def read_labels(folder: Path) -> list[dict]:
    """The records of one render folder, in index order (a half-written last line of a
    render still running is skipped)."""
    path = folder / "labels.jsonl"
    if not path.is_file():
        raise InputError(f"{folder} holds no renders (no labels.jsonl): make them with "
                         "`dicecam train render --out DIR`")
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return sorted(records, key=lambda r: r["index"])


def rendered_crops(folders: Iterable[Path], size: int, seed: int, per_render: int = 2,
                   limit: int | None = None, log: Callable[[str], None] = print,
                   ) -> tuple[np.ndarray, np.ndarray]:
    """N x size x size x 3 uint8 crops and their classes (0 = not a readable die), from
    the renders of index under ``limit`` (None: all there are; a limit makes a recipe
    reproducible while a render run goes on)."""
    rng = np.random.default_rng(seed)
    images, labels = [], []
    for folder in folders:
        records = [r for r in read_labels(Path(folder)) if limit is None or r["index"] < limit]
        for record in records:
            image = cv2.imread(str(Path(folder) / record["file"]), cv2.IMREAD_COLOR)
            if image is None:
                continue
            image = auto_exposure(image)
            x0, y0, x1, y1 = record["box"]
            side = max(x1 - x0, y1 - y0)
            for _ in range(per_render):
                scale = rng.uniform(*JITTER_SCALE)
                dx, dy = rng.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2) * side
                crop = cut_crop(image, (x0 + x1) / 2 + dx, (y0 + y1) / 2 + dy,
                                (x1 - x0) * scale, (y1 - y0) * scale)
                images.append(resize_crop(crop, size))
                labels.append(int(record["label"]))
        log(f"{len(records)} renders from {folder}")
    if not images:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(images), np.array(labels, np.int64)
