"""What the die detector learns from: a tile with its dice, and the maps it should answer.

Shared by the shipped detector's training (``dicecam train detector``) and a table's own
learning (``teach.learn.detector``), so both teach the network the same answers: a
CenterNet heat peak on each die's top-face centre (a Gaussian around it, 1 at the cell),
the centre's offset within its cell, the log of the face box's width and height (where
the box is the face: ``size_known``), and the hand mask.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: input pixels per cell of the detector's maps
STRIDE = 4


@dataclass
class Sample:
    image: np.ndarray  # TILE x TILE x 3 uint8
    boxes: np.ndarray  # (N, 4) cx, cy, w, h in tile pixels
    size_known: np.ndarray  # (N,) bool: False where the label box is not the face
    hand: np.ndarray  # TILE x TILE uint8 mask


def targets(s: Sample) -> tuple[np.ndarray, ...]:
    """heat (1,G,G), offset+logsize (4,G,G), regression masks (2,G,G), hand (1,G,G)."""
    g = s.image.shape[0] // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((2, g, g), np.float32)  # 0: offset known, 1: size known
    ys, xs = np.mgrid[0:g, 0:g].astype(np.float32)
    for (cx, cy, w, h), known in zip(s.boxes, s.size_known, strict=True):
        fx, fy = cx / STRIDE, cy / STRIDE
        ix, iy = int(fx), int(fy)
        if not (0 <= ix < g and 0 <= iy < g):
            continue
        sigma = max(0.5, min(w, h) / STRIDE * 0.16)
        heat = np.maximum(heat, np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma * sigma)))
        reg[0, iy, ix], reg[1, iy, ix] = fx - ix, fy - iy
        reg[2, iy, ix], reg[3, iy, ix] = math.log(max(w, 1.0)), math.log(max(h, 1.0))
        mask[0, iy, ix] = 1.0
        mask[1, iy, ix] = 1.0 if known else 0.0
    for (cx, cy, _w, _h) in s.boxes:
        ix, iy = int(cx / STRIDE), int(cy / STRIDE)
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
    hand = cv2.resize(s.hand.astype(np.float32) / 255.0, (g, g), interpolation=cv2.INTER_AREA)
    return heat[None], reg, mask, hand[None]
