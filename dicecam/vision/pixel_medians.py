"""Per-channel medians of 8-bit pixels, from each channel's histogram.

``np.median`` sorts (or partitions) the pixels; for 8-bit values a histogram gives the same
median, the mean of the two middle values as numpy takes it, in a fraction of the time:
the table colour under a hand (14,400 cells, 0.40 -> 0.10 ms) and the colour a crowd die's
neighbours are painted over in (a few thousand pixels, 0.26 ms a call before).
"""

from __future__ import annotations

import numpy as np


def channel_medians(pixels: np.ndarray) -> np.ndarray:
    """``np.median(pixels, axis=0)`` (as float64) of K x C uint8 pixels, K >= 1."""
    count = len(pixels)
    out = np.empty(pixels.shape[1], np.float64)
    for channel in range(pixels.shape[1]):
        below = np.cumsum(np.bincount(pixels[:, channel], minlength=256))
        low = int(np.searchsorted(below, (count - 1) // 2, side="right"))
        high = int(np.searchsorted(below, count // 2, side="right"))
        out[channel] = (low + high) / 2  # numpy's mean of the middle two
    return out
