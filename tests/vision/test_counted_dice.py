"""Dice a game says were thrown and the detector did not find (``counted_dice.py``): the
detector's weaker peaks are read only where dice are missing, and only as many as are.

With stand-in stages (a detector whose weaker peaks are given, the painted value reader),
then the shipped models on a demo crowd throw whose missed die peaks under the bar.
"""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.vision.detect.counted_dice import FLOOR, away_from_dice, surest_dice, without_surplus
from dicecam.vision.detect.detector import Detections
from dicecam.vision.pipeline import TablePipeline, iter_outputs, square_crop
from dicecam.vision.settle import SettleConfig
from tests.support.doubles import PaintedValueReader, Value, painted_frame

#: three dice painted, two of them over the detector's bar
PAINTED = [(100, 120, 3), (141, 120, 5), (400, 300, 6)]
EMPTY_SQUARE = (250, 400, 0)  # reads "not a die"


class PeakDetector:
    """Strong peaks always; the weaker ones too when asked for with a lower bar."""

    def __init__(self, strong, weak) -> None:
        self.strong, self.weak = strong, weak
        self.bars: list[float | None] = []

    def __call__(self, frame):
        return self.detect(frame)

    def detect(self, frame, *, threshold=None):
        self.bars.append(threshold)
        peaks = self.strong + (self.weak if threshold is not None else [])
        return Detections(np.float32([(x, y, 40, 40) for x, y, _ in peaks]).reshape(-1, 4),
                          np.float32([s for _, _, s in peaks]))


def _pipeline(detector, **kwargs) -> TablePipeline:
    return TablePipeline(detector, PaintedValueReader(), crop=square_crop, **kwargs)


def test_a_missing_die_is_looked_for_only_when_the_game_says_one_is_missing():
    frame = painted_frame(PAINTED)
    detector = PeakDetector([(100, 120, 0.9), (400, 300, 0.8)], [(141, 120, 0.3)])
    pipeline = _pipeline(detector)
    assert len(pipeline.read_frame(frame).dice) == 2  # not told: two dice
    assert len(pipeline.read_frame(frame, expected=2).dice) == 2
    assert detector.bars == [None, None]
    dice = pipeline.read_frame(frame, expected=3).dice
    assert detector.bars[-1] == FLOOR
    assert sorted((round(d.x), d.value) for d in dice) == [(100, 3), (141, 5), (400, 6)]


def test_only_as_many_as_are_missing_surest_first_and_never_one_without_a_value():
    frame = painted_frame([*PAINTED, EMPTY_SQUARE, (550, 60, 2)])
    detector = PeakDetector([(100, 120, 0.9)],
                            [(141, 120, 0.3), (400, 300, 0.3), (550, 60, 0.25),
                             (EMPTY_SQUARE[0], EMPTY_SQUARE[1], 0.3)])

    def reader(crops):  # the painted values, the 6 surer than the rest
        return [Value(r.value, 0.99 if r.value == 6 else 0.8 if r.value else 0.5)
                for r in PaintedValueReader()(crops)]

    pipeline = TablePipeline(detector, reader, crop=square_crop)
    one_more = pipeline.read_frame(frame, expected=2).dice
    assert sorted(d.value for d in one_more) == [3, 6]
    told_five = pipeline.read_frame(frame, expected=5).dice  # the empty square is no die
    assert sorted(d.value for d in told_five) == [2, 3, 5, 6]


def test_a_missing_die_found_only_by_the_smaller_passes_is_asked():
    """A missing die whose box only the detector's smaller passes found (doubtful) is
    taken, but asked, however sure its read."""
    frame = painted_frame(PAINTED)

    class DoubtfulWeakPeak(PeakDetector):
        def detect(self, frame, *, threshold=None):
            found = super().detect(frame, threshold=threshold)
            return Detections(found.boxes, found.scores,
                              doubtful=np.array([threshold is not None and x == 141
                                                 for x in found.boxes[:, 0]]))

    detector = DoubtfulWeakPeak([(100, 120, 0.9), (400, 300, 0.8)], [(141, 120, 0.65)])
    dice = _pipeline(detector).read_frame(frame, expected=3).dice
    assert {round(d.x): d.confidence < LOW_CONFIDENCE for d in dice} == {
        100: False, 141: True, 400: False}


def test_peaks_on_a_die_already_read_are_not_read_again():
    dice = [DieReading(x=100, y=100, w=40, h=40, value=3, colour=None, confidence=0.95)]
    found = Detections(np.float32([[110, 105, 30, 30], [160, 100, 40, 40], [300, 300, 20, 20]]),
                       np.float32([0.3, 0.3, 0.25]))
    assert away_from_dice(found, dice).boxes[:, 0].tolist() == [160, 300]
    assert len(away_from_dice(found, [])) == 3


def test_the_surest_dice_with_a_value():
    read = [DieReading(x=i, y=0, w=10, h=10, value=v, colour=None, confidence=c)
            for i, (v, c) in enumerate([(2, 0.7), (None, 0.99), (5, 0.95), (1, 0.8)])]
    assert [d.value for d in surest_dice(read, 2)] == [5, 1]
    assert surest_dice(read, 0) == []


def test_a_settled_roll_of_fewer_dice_than_the_game_waits_for_gets_its_missing_die():
    detector = PeakDetector([(100, 120, 0.9), (400, 300, 0.8)], [(141, 120, 0.3)])
    frames = [painted_frame(PAINTED) for _ in range(20)]
    counted = _pipeline(detector, settle=SettleConfig(still_seconds=0.1))
    counted.expected_dice = lambda: 3
    rolls = [o.settled for o in iter_outputs(iter(frames), counted) if o.settled is not None]
    assert len(rolls) == 1 and sorted(d.value for d in rolls[0].dice) == [3, 5, 6]
    # the frames themselves are read as always: the look is for the settled roll only
    uncounted = _pipeline(detector, settle=SettleConfig(still_seconds=0.1))
    uncounted.expected_dice = lambda: None  # the game waits for no throw
    rolls = [o.settled for o in iter_outputs(iter(frames), uncounted) if o.settled is not None]
    assert len(rolls) == 1 and len(rolls[0].dice) == 2


def _die(x: float, value: int | None, confidence: float, **kwargs) -> DieReading:
    return DieReading(x=x, y=0, w=10, h=10, value=value, colour=None, confidence=confidence,
                      **kwargs)


def test_boxes_read_unsure_beside_as_many_sure_dice_as_were_thrown_are_dropped():
    dice = [_die(0, 3, 0.95), _die(20, 5, 0.97), _die(40, 6, 0.5), _die(60, None, 0.4)]
    assert [d.x for d in without_surplus(dice, 2)] == [0, 20]
    assert without_surplus(dice, 3) == dice  # a sure die too few: all are asked
    assert without_surplus(dice, 1) == dice  # more sure dice than thrown: the game says
    corrected = [*dice, _die(80, 2, 0.3, corrected=True)]
    assert [d.x for d in without_surplus(corrected, 3)] == [0, 20, 80]


def test_the_pipeline_drops_the_surplus_where_told_the_count():
    frame = painted_frame([*PAINTED, EMPTY_SQUARE])
    detector = PeakDetector([(x, y, 0.9) for x, y, _ in PAINTED] + [(250, 400, 0.9)], [])

    def reader(crops):  # the empty square: "not a die", unsure (kept by the veto)
        return [Value(r.value, 0.97) if r.value else Value(None, 0.3)
                for r in PaintedValueReader()(crops)]

    pipeline = TablePipeline(detector, reader, crop=square_crop)
    assert len(pipeline.read_frame(frame).dice) == 4
    assert sorted(d.value for d in pipeline.read_frame(frame, expected=3).dice) == [3, 5, 6]
    assert len(pipeline.read_frame(frame, expected=4).dice) == 4


def test_a_count_that_fails_is_read_without():
    detector = PeakDetector([(100, 120, 0.9), (400, 300, 0.8)], [(141, 120, 0.3)])
    pipeline = _pipeline(detector, settle=SettleConfig(still_seconds=0.1))

    def broken() -> int:
        raise RuntimeError("the game's state is being replaced")

    pipeline.expected_dice = broken
    frames = (painted_frame(PAINTED) for _ in range(20))
    rolls = [o.settled for o in iter_outputs(frames, pipeline) if o.settled is not None]
    assert len(rolls) == 1 and len(rolls[0].dice) == 2


def test_a_detector_with_no_weaker_peaks_to_give_reads_as_before():
    class PlainDetector:
        def __call__(self, frame):
            return Detections(np.float32([[100, 120, 40, 40]]), np.float32([0.9]))

    pipeline = _pipeline(PlainDetector())
    assert len(pipeline.read_frame(painted_frame(PAINTED), expected=3).dice) == 1


@pytest.mark.slow
def test_a_crowd_die_peaking_under_the_bar_is_found_when_the_party_is_counted():
    """Throw 128 of ``bench crowd``: an orange 6 in a touching cluster peaks under the
    detector's bar, so 53 of the 54 dice are read; told 54, the reader finds it, right."""
    from dicecam.scorer.diceparty.grown import grown_parties
    from dicecam.scorer.registry import get_game
    from dicecam.vision.detect.detector import MODEL_PATH
    from dicecam.vision.factory import build_pipeline
    from dicecam.vision.matching import match_centres
    from dicecam.vision.sources.demo import DemoSource, DemoThrow

    if not MODEL_PATH.is_file():
        pytest.skip("detector model not built")
    game = get_game("diceparty")
    config, actions = grown_parties(["Ann", "Bo"], 54)
    due = game.throw_due(game.replay(config, actions))
    frames, truth = DemoSource(game.dice_set).thrown(128, DemoThrow(due.colours, due.values))
    pipeline = build_pipeline(game.dice_set, threads=1)
    alone = pipeline.read_frame(frames[-1]).dice
    counted = pipeline.read_frame(frames[-1], expected=54).dice
    assert len(alone) == 53 and len(counted) == 54
    added = [d for d in counted if all((d.x, d.y) != (a.x, a.y) for a in alone)]
    pairs = match_centres([(d.cx, d.cy, max(d.w, d.h)) for d in truth.dice],
                          [(d.x, d.y) for d in added])
    (die,) = [t for t, j in zip(truth.dice, pairs, strict=True) if j is not None]
    assert (added[0].value, added[0].colour) == (die.value, die.colour)
    assert not added[0].needs_check
