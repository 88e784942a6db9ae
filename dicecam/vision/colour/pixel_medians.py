"""Per-channel medians of 8-bit pixels, from each channel's histogram.

``np.median`` sorts (or partitions) the pixels; for 8-bit values a histogram gives the same
median, the mean of the two middle values as numpy takes it, in a fraction of the time:
the table colour under a hand (14,400 cells, 0.40 -> 0.10 ms) and the colour a crowd die's
neighbours are painted over in (the crop's pixels in no box: OpenCV counts them under a
mask, so they are never gathered).
"""

from __future__ import annotations

import cv2
import numpy as np


def channel_medians(pixels: np.ndarray) -> np.ndarray:
    """``np.median(pixels, axis=0)`` (as float64) of K x C uint8 pixels, K >= 1."""
    return _medians_of_histograms(np.stack([np.bincount(pixels[:, channel], minlength=256)
                                            for channel in range(pixels.shape[1])]))


def masked_channel_medians(image: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """``channel_medians(image[mask > 0])`` of an H x W x C uint8 image where ``mask``
    (H x W uint8, at least one pixel set; None: every pixel) says which pixels count,
    without gathering them: OpenCV counts each channel's histogram under the mask (a crowd
    die's painting colour, 0.11 -> 0.05 ms)."""
    return _medians_of_histograms(np.stack([
        cv2.calcHist([image], [channel], mask, [256], [0, 256]).ravel()
        for channel in range(image.shape[2])]).astype(np.int64))


def _medians_of_histograms(histograms: np.ndarray) -> np.ndarray:
    """Each row's median value, from a C x 256 array of counts (rows of one sum)."""
    below = np.cumsum(histograms, axis=1)
    count = int(below[0, -1])
    # the first value whose running count passes the middle ones' places (the
    # ``searchsorted(below, k, side="right")`` of each row), found for all rows at once
    middle = np.array([(count - 1) // 2, count // 2])[:, None, None]
    return (below > middle).argmax(axis=2).sum(axis=0) / 2  # numpy's mean of the middle two
