"""The 8-bit channel medians are numpy's, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.vision.colour.pixel_medians import channel_medians, masked_channel_medians


@pytest.mark.parametrize("count", [1, 2, 3, 8, 9, 1000, 14400])
def test_channel_medians_are_numpys_median(count) -> None:
    rng = np.random.default_rng(count)
    for pixels in (rng.integers(0, 256, (count, 3), np.uint8),
                   rng.integers(100, 104, (count, 3), np.uint8),  # many ties
                   np.full((count, 2), 255, np.uint8)):
        expected = np.median(pixels, axis=0)
        got = channel_medians(pixels)
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, expected)
        # as the table colour under a hand takes it: float32 Lab cells
        np.testing.assert_array_equal(got.astype(np.float32),
                                      np.median(pixels.astype(np.float32), axis=0))


@pytest.mark.parametrize("side", [1, 3, 40, 83])
def test_masked_channel_medians_are_numpys_median_of_the_masked_pixels(side) -> None:
    rng = np.random.default_rng(side)
    for image in (rng.integers(0, 256, (side, side, 3), np.uint8),
                  rng.integers(100, 104, (side, side, 3), np.uint8)):  # many ties
        for share in (0.0, 0.1, 0.5, 1.0):
            mask = (rng.random((side, side)) < share).astype(np.uint8) * 255
            mask.flat[0] = 255  # at least one pixel
            np.testing.assert_array_equal(masked_channel_medians(image, mask),
                                          np.median(image[mask > 0], axis=0))
        np.testing.assert_array_equal(masked_channel_medians(image, None),
                                      np.median(image.reshape(-1, 3), axis=0))
