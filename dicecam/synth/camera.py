"""Where a table lands in a camera that does not look straight down: the geometry the
tilted views of real photos (``bench real``'s tilt) and the detector's tilted training
scenes share."""

from __future__ import annotations

import math

import numpy as np


def turned_table_corners(width: int, height: int, angle: float, focal: float) -> np.ndarray:
    """Where a ``width`` x ``height`` picture's corners (top left, top right, bottom right,
    bottom left) land when the table plane is turned ``angle`` radians about the
    horizontal axis through its centre and seen by a pinhole camera of ``focal`` pixels:
    4 x 2, float64. Its near (bottom) edge grows, its far edge shrinks."""
    moved = []
    for x, y in ((0, 0), (width, 0), (width, height), (0, height)):
        dy = y - height / 2
        depth = focal + dy * math.sin(angle)
        moved.append([width / 2 + (x - width / 2) * focal / depth,
                      height / 2 + dy * math.cos(angle) * focal / depth])
    return np.array(moved, np.float64)
