"""Settle detection: a still roll is published once; motion, hands and moved dice hold it."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.reading import DieReading, FrameReading
from dicecam.vision.settle import MotionMeter, SettleConfig, SettleDetector, match_dice, vote

FPS = 10.0


def die(x: float, y: float, value: int | None, colour: str | None = "red",
        conf: float = 0.99) -> DieReading:
    return DieReading(x, y, 40, 40, value, colour, conf, value_confidence=conf,
                      colour_confidence=conf)


ROLL = (die(100, 100, 3), die(141, 100, 5), die(300, 250, 6, "yellow"))


def frame(i: int, dice=ROLL, *, moving: bool = False, hand: bool = False) -> FrameReading:
    return FrameReading(640, 480, tuple(dice), moving=moving, hand_in_view=hand,
                        frame_index=i, timestamp=i / FPS)


def feed(detector: SettleDetector, readings) -> list:
    return [(r.frame_index, s) for r in readings if (s := detector.update(r)) is not None]


def test_a_still_roll_is_published_exactly_once():
    detector = SettleDetector(SettleConfig(still_seconds=0.5))
    readings = [frame(i, moving=True) for i in range(5)] + [frame(i) for i in range(5, 40)]
    published = feed(detector, readings)
    assert len(published) == 1
    index, roll = published[0]
    assert index == 10  # still from frame 5, 0.5 s later at 10 fps
    assert roll.roll_id == 1
    assert [d.value for d in roll.dice] == [3, 5, 6]


def test_each_new_roll_is_published_once():
    detector = SettleDetector(SettleConfig(still_seconds=0.3))
    second = (die(400, 300, 1), die(60, 60, 2))
    readings = ([frame(i) for i in range(0, 10)]
                + [frame(i, moving=True) for i in range(10, 15)]
                + [frame(i, second) for i in range(15, 30)])
    published = feed(detector, readings)
    assert [roll.roll_id for _, roll in published] == [1, 2]
    assert [d.value for d in published[1][1].dice] == [1, 2]


def test_a_hand_in_view_publishes_nothing_even_when_nothing_moves():
    detector = SettleDetector(SettleConfig(still_seconds=0.2))
    readings = [frame(i, hand=True) for i in range(30)]
    assert feed(detector, readings) == []


def test_a_hand_reaching_in_before_the_dice_settle_delays_publication():
    detector = SettleDetector(SettleConfig(still_seconds=0.5))
    readings = ([frame(i) for i in range(0, 4)]              # still, but not long enough
                + [frame(i, hand=True) for i in range(4, 8)]
                + [frame(i) for i in range(8, 20)])
    published = feed(detector, readings)
    assert [i for i, _ in published] == [13]


def test_a_die_moved_without_pixel_motion_restarts_the_wait():
    detector = SettleDetector(SettleConfig(still_seconds=0.3))
    nudged = (die(100, 100, 3), die(170, 100, 5), die(300, 250, 6, "yellow"))
    readings = [frame(i) for i in range(0, 2)] + [frame(i, nudged) for i in range(2, 12)]
    published = feed(detector, readings)
    assert [i for i, _ in published] == [5]


def test_a_die_that_stays_does_not_republish_after_a_brief_flicker_of_motion():
    detector = SettleDetector(SettleConfig(still_seconds=0.2))
    readings = [frame(i) for i in range(10)]
    assert len(feed(detector, readings)) == 1
    # the same dice after a hand passes: that is a new roll (the table was touched)
    readings = [frame(i, hand=True) for i in range(10, 12)] + [frame(i) for i in range(12, 20)]
    assert len(feed(detector, readings)) == 1


def test_an_empty_table_is_not_a_roll():
    detector = SettleDetector(SettleConfig(still_seconds=0.1))
    assert feed(detector, [frame(i, ()) for i in range(10)]) == []


def test_values_are_voted_over_the_still_frames():
    flicker = [
        frame(0, (die(100, 100, 3), die(300, 250, 6))),
        frame(1, (die(101, 100, 5, conf=0.6), die(300, 251, 6))),
        frame(2, (die(100, 101, 3), die(300, 250, None, conf=0.3))),
    ]
    voted = vote(flicker)
    assert [d.value for d in voted] == [3, 6]
    assert voted[0].value_confidence == pytest.approx(2 / 3 * 0.99)
    assert voted[0].needs_check  # one frame in three disagreed


def test_matching_pairs_the_nearest_dice_within_tolerance():
    a = (die(100, 100, 1), die(140, 100, 2))
    b = (die(141, 101, 2), die(99, 99, 1), die(500, 500, 4))
    assert match_dice(a, b, 0.25) == [1, 0]
    assert match_dice(a, (die(130, 100, 1),), 0.1) == [None, None]


def test_motion_meter_sees_a_moving_die_but_not_sensor_noise():
    rng = np.random.default_rng(0)
    base = np.full((540, 960, 3), 120, np.uint8)
    meter = MotionMeter()
    assert not meter.update(base)
    noisy = np.clip(base + rng.normal(0, 3, base.shape), 0, 255).astype(np.uint8)
    assert not meter.update(noisy)
    moved = noisy.copy()
    moved[200:240, 300:340] = (20, 20, 200)  # a die of 40 px appears
    assert meter.update(moved)
    assert not meter.update(moved)


def test_config_rejects_nonsense():
    with pytest.raises(ValueError):
        SettleConfig(still_seconds=-1)
    with pytest.raises(ValueError):
        SettleConfig(move_tolerance=0)
