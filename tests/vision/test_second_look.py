"""The second look at a die read unsure: its crop without the dice beside it.

A stand-in reader that is unsure while a crop holds a neighbour's colour checks the
plumbing; one rendered 54-die Dice Party throw checks it with the shipped models.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicecam.reading import LOW_CONFIDENCE
from dicecam.vision.factory import build_pipeline
from dicecam.vision.pipeline import VETO_SURE, TablePipeline
from dicecam.vision.read.die_reader import CROP_MARGIN, ValueReading, cut_crop
from dicecam.vision.read.second_look import (
    CROWD_BOXES,
    CROWD_SECOND_LOOK_SCORE,
    CROWDED_BY,
    MARGINS,
    SECOND_LOOK_SCORE,
    VIEWS_COUNTED,
    crop_without_neighbours,
    look_again,
)
from tests.support.doubles import FakeDetector, Value

TABLE = (40, 60, 80)
DIE = (0, 200, 200)
NEIGHBOUR = (0, 0, 220)


def _frame() -> np.ndarray:
    """A die at (100, 100) and a touching one at (140, 100), both 40 px, on the table."""
    frame = np.full((240, 320, 3), TABLE, np.uint8)
    frame[80:120, 80:120] = DIE
    frame[80:120, 120:160] = NEIGHBOUR
    return frame


BOXES = np.array([(100, 100, 40, 40), (140, 100, 40, 40)], np.float32)


def test_the_neighbours_box_is_painted_in_the_tables_colour_and_the_die_kept():
    frame = _frame()
    crop = crop_without_neighbours(frame, BOXES, 0, 1.4)
    plain = cut_crop(frame, 100, 100, 40, 40)
    assert crop.shape == plain.shape
    assert not (crop == NEIGHBOUR).all(axis=2).any()
    assert (plain == NEIGHBOUR).all(axis=2).any()
    assert (crop == DIE).all(axis=2).sum() == (plain == DIE).all(axis=2).sum()
    assert (crop == TABLE).all(axis=2).sum() > (plain == TABLE).all(axis=2).sum()


def test_a_die_alone_is_cut_as_the_reader_cuts_it():
    frame = _frame()
    alone = BOXES[:1]
    assert np.array_equal(crop_without_neighbours(frame, alone, 0, 1.4),
                          cut_crop(frame, 100, 100, 40, 40))


def _shows(crop: np.ndarray, colour: tuple[int, int, int]) -> bool:
    return bool((crop == colour).all(axis=2).any())


def _unsure_beside_red(crops):
    """Reads 3 from every crop; unsure (0.6) while the crop shows both dice."""
    return [Value(3, 0.6 if _shows(c, NEIGHBOUR) and _shows(c, DIE) else 0.93) for c in crops]


def test_a_die_read_unsure_beside_another_is_confirmed_when_read_sure_alone():
    confirmed = look_again(_frame(), BOXES, {0: Value(3, 0.6)}, _unsure_beside_red)
    assert confirmed == {0: ValueReading(3, pytest.approx(0.93))}


def test_views_of_another_value_count_nothing_and_the_first_reading_is_the_floor():
    def other_value(crops):
        return [Value(5, 0.97) for _ in crops]

    assert look_again(_frame(), BOXES, {0: Value(3, 0.7)}, other_value) == {
        0: ValueReading(3, pytest.approx(0.7))}

    def one_of_three(crops):
        return [Value(3 if k % len(MARGINS) == 0 else 5, 0.96) for k in range(len(crops))]

    assert look_again(_frame(), BOXES, {0: Value(3, 0.2)}, one_of_three) == {
        0: ValueReading(3, pytest.approx(0.96 / len(MARGINS)))}


def _widest_view_weak(crops):
    """Reads 3 from every crop: 0.95 and 0.93 from the tighter two, 0.6 from the widest."""
    return [Value(3, (0.95, 0.93, 0.6)[k % len(MARGINS)]) for k in range(len(crops))]


def test_a_die_among_several_takes_its_best_views_and_one_beside_one_takes_all_three():
    assert (VIEWS_COUNTED, CROWDED_BY) == (2, 2)
    one_neighbour = look_again(_frame(), BOXES, {0: Value(3, 0.7)}, _widest_view_weak)
    assert one_neighbour == {0: ValueReading(3, pytest.approx((0.95 + 0.93 + 0.6) / 3))}
    # a third die touching from below: two boxes reach the first die's widest crop
    frame = _frame()
    frame[120:160, 80:120] = NEIGHBOUR
    crowd = np.vstack([BOXES, [(100, 140, 40, 40)]]).astype(np.float32)
    two_neighbours = look_again(frame, crowd, {0: Value(3, 0.7)}, _widest_view_weak)
    assert two_neighbours == {0: ValueReading(3, pytest.approx((0.95 + 0.93) / 2))}

    def widest_reads_five(crops):
        return [Value(5 if k % len(MARGINS) == 2 else 3, 0.95) for k in range(len(crops))]

    # a view of another value: every view counts (that one nothing)
    assert look_again(frame, crowd, {0: Value(3, 0.5)}, widest_reads_five) == {
        0: ValueReading(3, pytest.approx(0.95 * 2 / 3))}


def test_a_die_read_as_no_value_takes_the_value_every_view_reads():
    def agreeing(crops):
        return [Value(4, 0.9 + 0.02 * k) for k in range(len(crops))]

    def differing(crops):
        return [Value(4 if k else 5, 0.95) for k in range(len(crops))]

    def no_die(crops):
        return [Value(None if k else 4, 0.95) for k in range(len(crops))]

    assert look_again(_frame(), BOXES, {0: Value(None, 0.5)}, agreeing) == {
        0: ValueReading(4, pytest.approx(0.92))}
    assert look_again(_frame(), BOXES, {0: Value(None, 0.5)}, differing) == {}
    assert look_again(_frame(), BOXES, {0: Value(None, 0.5)}, no_die) == {}


def test_a_die_alone_in_a_long_box_or_under_another_box_gets_no_second_look():
    calls = []

    def reader(crops):
        calls.append(len(crops))
        return [Value(3, 0.99) for _ in crops]

    far = np.array([(100, 100, 40, 40), (250, 100, 40, 40)], np.float32)
    assert look_again(_frame(), far, {0: Value(3, 0.5)}, reader) == {}
    side_face = np.array([(100, 100, 40, 25), (140, 100, 40, 40)], np.float32)
    assert look_again(_frame(), side_face, {0: Value(3, 0.5)}, reader) == {}
    # a box half over another: a side face beside its die's top, or half a die
    half_over = np.array([(100, 100, 40, 40), (100, 120, 40, 40)], np.float32)
    assert look_again(_frame(), half_over, {0: Value(3, 0.5)}, reader) == {}
    assert calls == []


def test_sure_dice_get_no_second_look():
    calls = []

    def reader(crops):
        calls.append(len(crops))
        return [Value(3, 0.99) for _ in crops]

    first = {0: Value(3, LOW_CONFIDENCE), 1: Value(None, 0.95)}
    assert look_again(_frame(), BOXES, first, reader) == {}
    assert calls == []


def test_the_pipeline_takes_the_second_looks_confidence_only_when_asked_to():
    frame = _frame()

    def reader(crops):
        return _unsure_beside_red(crops)

    def pipeline(second_look):
        return TablePipeline(FakeDetector(BOXES), reader, second_look=second_look)

    without = pipeline(False).read_frame(frame)
    with_it = pipeline(True).read_frame(frame)
    assert [d.value for d in without.dice] == [d.value for d in with_it.dice] == [3, 3]
    assert [d.confidence for d in without.dice] == pytest.approx([0.6, 0.6])
    assert [d.confidence for d in with_it.dice] == pytest.approx([0.93, 0.93])


def test_the_pipeline_looks_again_only_in_boxes_the_detector_is_fairly_sure_of():
    def reader(crops):
        # "not a die", too unsure for the veto
        return [Value(None, VETO_SURE - 0.05) if _shows(c, NEIGHBOUR) and _shows(c, DIE)
                else Value(3, 0.95) for c in crops]

    def values(score):
        detector = FakeDetector(BOXES, scores=[score, score])
        return [d.value for d in TablePipeline(detector, reader, second_look=True)
                .read_frame(_frame()).dice]

    assert values(SECOND_LOOK_SCORE + 0.01) == [3, 3]
    assert values(SECOND_LOOK_SCORE - 0.05) == [None, None]


def test_in_a_crowd_the_pipeline_looks_again_in_boxes_the_detector_is_less_sure_of():
    """A frame of more than ``CROWD_BOXES`` boxes is a crowd: the bar is
    ``CROWD_SECOND_LOOK_SCORE`` there (far boxes stand in for the crowd's other dice)."""
    def reader(crops):
        return [Value(None, VETO_SURE - 0.05) if _shows(c, NEIGHBOUR) and _shows(c, DIE)
                else Value(3, 0.95) for c in crops]

    score = (CROWD_SECOND_LOOK_SCORE + SECOND_LOOK_SCORE) / 2
    others = [(10 + 6 * (k % 50), 230, 4, 4) for k in range(CROWD_BOXES)]

    def values(boxes):
        detector = FakeDetector(boxes, scores=[score, score] + [0.9] * (len(boxes) - 2))
        pipeline = TablePipeline(detector, reader, second_look=True)
        dice = pipeline._read_dice(_frame(), detector.boxes, detector.scores,
                                   [None] * len(boxes), regrow=False)
        return [d.value for d in dice if d.w == 40]

    assert values(BOXES.tolist()) == [None, None]  # two dice: not a crowd
    assert values(BOXES.tolist() + others) == [3, 3]


def test_a_rendered_crowded_throw_is_asked_about_less_and_read_the_same():
    from dicecam.scorer.diceparty.verdict import COLOUR_OF, KINDS
    from dicecam.vision.sources.demo import DemoSource, DemoThrow

    source = DemoSource("diceparty")
    colours = tuple(COLOUR_OF[kind] for kind, n in zip(KINDS, (20, 17, 17), strict=True)
                    for _ in range(n))
    # a throw whose first look asks about 3 dice (throw 3, used before, is read sure
    # throughout since the detector learnt crowded throws)
    frames, roll = source.thrown(15, DemoThrow(colours))
    image, truth = frames[-1], roll.dice
    first = build_pipeline("diceparty", threads=1)
    first.second_look = False
    before = first.read_frame(image).dice
    after = build_pipeline("diceparty", threads=1).read_frame(image).dice
    assert len(truth) == 54 and len(before) == len(after) == 54
    changed = [(b.value, a.value) for b, a in zip(before, after, strict=True)
               if b.value != a.value]
    assert all(b is None for b, _ in changed)  # only a die read as no value gets one
    assert sum(d.needs_check for d in after) < sum(d.needs_check for d in before)
    assert all(a.confidence >= b.confidence for a, b in zip(after, before, strict=True))


def _plainly_without_neighbours(frame, boxes, index, margin):
    """``crop_without_neighbours`` as plain numpy says it: boolean masks of the span of
    every other box centred within a crop's side and of the die's own, numpy's median, a
    boolean assignment."""
    def span(start, stop, size):
        return slice(min(size, max(0, int(round(start)))), min(size, max(0, int(round(stop)))))

    cx, cy, w, h = (float(t) for t in boxes[index])
    scale = margin / CROP_MARGIN
    crop = cut_crop(frame, cx, cy, w * scale, h * scale).copy()
    side = crop.shape[0]
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    others = np.zeros((side, side), bool)
    for n, (ox, oy, ow, oh) in enumerate(np.asarray(boxes, np.float64)):
        if n != index and abs(ox - cx) <= side and abs(oy - cy) <= side:
            others[span(oy - oh / 2 - y0, oy + oh / 2 - y0, side),
                   span(ox - ow / 2 - x0, ox + ow / 2 - x0, side)] = True
    if not others.any():
        return crop
    own = np.zeros((side, side), bool)
    own[span(cy - h / 2 - y0, cy + h / 2 - y0, side),
        span(cx - w / 2 - x0, cx + w / 2 - x0, side)] = True
    free = ~others & ~own
    pixels = crop[free] if np.count_nonzero(free) >= 8 else crop.reshape(-1, 3)
    crop[others & ~own] = np.median(pixels, axis=0).astype(np.uint8)
    return crop


def test_the_crop_without_neighbours_is_the_plain_formulas_to_the_bit() -> None:
    """Spans rounded half to even in numpy, the colour from masked histograms, boxes
    painted as filled rectangles: the same pixels as the plain formulas, on boxes at the
    frame's edges, half-pixel edges, touching and overlapping boxes and crowds too close
    to leave 8 free pixels."""
    rng = np.random.default_rng(11)
    painted = 0
    for k in range(300):
        height, width = (int(t) for t in rng.integers(30, 160, 2))
        frame = cv2.GaussianBlur(rng.integers(0, 256, (height, width, 3), np.uint8),
                                 (0, 0), 1 + k % 3)
        count = int(rng.integers(1, 14))
        boxes = np.stack([rng.uniform(0, width, count), rng.uniform(0, height, count),
                          rng.uniform(4, 50, count), rng.uniform(4, 50, count)], axis=1)
        if k % 3 == 0:
            boxes = np.round(boxes * 2) / 2  # edges on half pixels: rounding's ties
        boxes = boxes.astype(np.float32)
        for index in range(count):
            for margin in MARGINS:
                crop = crop_without_neighbours(frame, boxes, index, margin)
                plain = _plainly_without_neighbours(frame, boxes, index, margin)
                assert crop.shape == plain.shape and np.array_equal(crop, plain)
                cx, cy, w, h = (float(t) for t in boxes[index])
                scale = margin / CROP_MARGIN
                painted += not np.array_equal(crop, cut_crop(frame, cx, cy, w * scale,
                                                             h * scale))
    assert painted > 1000
