"""The rescaled look at a die read unsure: a tighter and a looser box, a better proposal.

A stand-in reader reads a value from the crop's side, so the test knows which box scale
each reading came from; ``bench real`` measures the stage with the shipped models.
"""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.detect.side_faces import ASKED
from dicecam.vision.read.die_reader import ValueReading, cut_crop
from dicecam.vision.read.rescaled_look import MAX_BOXES, SCALES, look_rescaled

FRAME = np.zeros((1080, 1920, 3), np.uint8)
SIDE = 100.0


def _by_scale(looks: dict[float, ValueReading], sides: list[int]):
    """A reader that reads ``looks[scale]`` from a crop of the box at that scale (known by
    the crop's side, 1.4 times the box's); it records the sides it was given."""
    by_side = {cut_crop(FRAME, 500, 500, SIDE * s, SIDE * s).shape[0]: r
               for s, r in looks.items()}

    def read(crops):
        sides.extend(c.shape[0] for c in crops)
        return [by_side[c.shape[0]] for c in crops]
    return read


def _boxes(count: int = 1) -> np.ndarray:
    return np.array([(200 + 150 * (i % 10), 200 + 150 * (i // 10), SIDE, SIDE)
                     for i in range(count)], np.float32)


def test_an_unsure_die_is_proposed_the_surest_value_of_its_rescaled_boxes_still_asked():
    assert SCALES == (0.85, 1.15)
    sides: list[int] = []
    read = _by_scale({0.85: ValueReading(4, 0.7), 1.15: ValueReading(5, 0.97)}, sides)
    better = look_rescaled(FRAME, _boxes(), {0: ValueReading(3, 0.6)}, read, cut_crop)
    assert len(sides) == 2  # one batch, a crop at each scale
    # the looser box read 5 at 0.97: proposed, never sure
    assert better[0].value == 5 and better[0].confidence == pytest.approx(ASKED)
    assert better[0].confidence < LOW_CONFIDENCE


def test_sure_dice_and_dice_read_more_surely_than_every_rescaled_box_stay():
    sides: list[int] = []
    read = _by_scale({0.85: ValueReading(4, 0.5), 1.15: ValueReading(5, 0.55)}, sides)
    first = {0: ValueReading(3, 0.95), 1: ValueReading(3, 0.6)}
    assert look_rescaled(FRAME, _boxes(2), first, read, cut_crop) == {}
    assert len(sides) == 2  # only the unsure die was read again


def test_a_rescaled_not_a_die_never_counts_and_an_unreadable_die_gets_a_value():
    read = _by_scale({0.85: ValueReading(None, 0.99), 1.15: ValueReading(2, 0.4)}, [])
    # "not a die" read surely in the tighter box says nothing: the first value stays
    assert look_rescaled(FRAME, _boxes(), {0: ValueReading(3, 0.5)}, read, cut_crop) == {}
    # a die read without a value is proposed the value its looser box reads
    better = look_rescaled(FRAME, _boxes(), {0: ValueReading(None, 0.6)}, read, cut_crop)
    assert better[0] == ValueReading(2, pytest.approx(0.4))


def test_a_crowd_is_not_looked_at_again():
    sides: list[int] = []
    read = _by_scale({0.85: ValueReading(4, 0.99), 1.15: ValueReading(4, 0.99)}, sides)
    first = {i: ValueReading(3, 0.5) for i in range(MAX_BOXES + 1)}
    assert look_rescaled(FRAME, _boxes(MAX_BOXES + 1), first, read, cut_crop) == {}
    assert sides == []
    del first[MAX_BOXES]
    assert len(look_rescaled(FRAME, _boxes(MAX_BOXES), first, read, cut_crop)) == MAX_BOXES
