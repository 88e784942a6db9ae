"""One training tile of the die detector: its own module so that every tile maker (rendered,
real, pasted real dice) builds it without importing the training loop."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Sample:
    image: np.ndarray  # TILE x TILE x 3 uint8
    boxes: np.ndarray  # (N, 4) cx, cy, w, h in tile pixels
    size_known: np.ndarray  # (N,) bool: False where the label box is not the face
    hand: np.ndarray  # TILE x TILE uint8 mask
