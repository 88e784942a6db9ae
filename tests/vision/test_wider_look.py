"""The wider look at a large die read unsure: its crop cut again at larger margins.

A stand-in reader that is surer the more of the die a crop holds checks the plumbing; the
real close-ups of ``bench real`` measure it with the shipped models.
"""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.read.die_reader import ValueReading
from dicecam.vision.read.wider_look import LARGE_SHARE, MARGINS, is_large, look_wider

FRAME = np.zeros((1080, 1920, 3), np.uint8)
LARGE = 1920 * LARGE_SHARE


def _by_side(sizes: list[int]):
    """A reader whose confidence grows with the crop's side (a wider crop holds more of
    the die), reading 6 in every crop; it records the sides it was given."""
    def read(crops):
        sizes.extend(c.shape[0] for c in crops)
        return [ValueReading(6, min(0.99, c.shape[0] / 1000)) for c in crops]
    return read


def test_a_large_die_read_unsure_keeps_its_surest_wider_reading():
    boxes = np.array([(960, 540, LARGE, LARGE)], np.float32)
    sizes: list[int] = []
    better = look_wider(FRAME, boxes, {0: ValueReading(6, 0.5)}, _by_side(sizes))
    assert len(sizes) == len(MARGINS)  # one batch of the three wider crops
    assert better[0].value == 6
    assert better[0].confidence == pytest.approx(max(sizes) / 1000)  # the widest, surest


def test_small_sure_or_better_read_dice_are_left_as_they_were():
    boxes = np.array([(400, 400, LARGE - 2, LARGE - 2), (960, 540, LARGE, LARGE),
                      (1500, 540, LARGE, LARGE)], np.float32)
    sizes: list[int] = []
    first = {0: ValueReading(6, 0.5),                      # small: no wider look
             1: ValueReading(6, LOW_CONFIDENCE),           # sure already
             2: ValueReading(5, 0.98)}                     # sure already
    assert look_wider(FRAME, boxes, first, _by_side(sizes)) == {}
    assert sizes == []
    assert not is_large(boxes[0], FRAME.shape) and is_large(boxes[1], FRAME.shape)


def test_a_wider_reading_less_sure_than_the_first_is_not_taken():
    boxes = np.array([(960, 540, LARGE, LARGE)], np.float32)

    def unsure_wide(crops):
        return [ValueReading(3, 0.2) for _ in crops]

    assert look_wider(FRAME, boxes, {0: ValueReading(6, 0.6)}, unsure_wide) == {}


def test_another_value_is_taken_only_when_read_sure():
    boxes = np.array([(960, 540, LARGE, LARGE)], np.float32)

    def reads(value, confidence):
        return lambda crops: [ValueReading(value, confidence) for _ in crops]

    first = {0: ValueReading(6, 0.5)}
    assert look_wider(FRAME, boxes, first, reads(5, 0.8)) == {}
    assert look_wider(FRAME, boxes, first, reads(5, LOW_CONFIDENCE))[0].value == 5
    assert look_wider(FRAME, boxes, first, reads(6, 0.8))[0].confidence == 0.8


def test_no_wider_crop_holds_another_dies_centre():
    """A second box on the same die (or a touching die) lies inside the wider crops: only
    the margins that leave it out are read, and none where all would hold it."""
    near = LARGE  # a touching die: inside the two widest crops, outside the narrowest
    boxes = np.array([(960, 540, LARGE, LARGE), (960 + near, 540, LARGE, LARGE)], np.float32)
    sizes: list[int] = []
    look_wider(FRAME, boxes, {0: ValueReading(6, 0.5), 1: ValueReading(6, 0.99)},
               _by_side(sizes))
    assert sizes == [round(MARGINS[0] * LARGE)]
    boxes[1, 0] = 960 + LARGE * 0.5  # within every wider crop
    assert look_wider(FRAME, boxes, {0: ValueReading(6, 0.5), 1: ValueReading(6, 0.99)},
                      _by_side([])) == {}


def test_not_a_die_from_a_wide_crop_never_replaces_a_reading():
    boxes = np.array([(960, 540, LARGE, LARGE)], np.float32)
    first = {0: ValueReading(6, 0.5)}
    assert look_wider(FRAME, boxes, first,
                      lambda crops: [ValueReading(None, 0.99) for _ in crops]) == {}


def test_a_second_box_at_the_very_same_centre_counts_as_another_die():
    boxes = np.array([(960, 540, LARGE, LARGE), (960, 540, LARGE * 0.8, LARGE * 0.8)],
                     np.float32)
    assert look_wider(FRAME, boxes, {0: ValueReading(6, 0.5), 1: ValueReading(6, 0.5)},
                      _by_side([])) == {}
