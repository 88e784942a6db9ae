"""A still table is not read again; where the picture changed, the dice there are.

Recorded frame sequences of painted dice (the value is a square's green level, as in
test_pipeline.py) with a detector that finds the squares in the picture, so the pipeline
sees real changes: a die that moves, a hand reaching into one corner.
"""

from __future__ import annotations

import numpy as np

from dicecam.vision.change import FULL_READ_SECONDS
from dicecam.vision.detect.detector import Detections
from dicecam.vision.pipeline import STILL_FPS, TablePipeline, iter_outputs, square_crop
from tests.support.doubles import PaintedValueReader, painted_frame

FAR = [(100, 100, 3), (540, 380, 5), (560, 100, 2), (320, 240, 6)]


class SquareDetector:
    """Finds the painted squares (green above the table's grey) in the frame."""

    def __call__(self, frame: np.ndarray) -> Detections:
        mask = (frame[:, :, 1].astype(int) - frame[:, :, 2].astype(int)) > 30
        boxes = []
        for y in range(20, frame.shape[0] - 20, 4):
            for x in range(20, frame.shape[1] - 20, 4):
                if mask[y, x] and not any(abs(x - bx) < 30 and abs(y - by) < 30
                                          for bx, by, _, _ in boxes):
                    ys, xs = np.nonzero(mask[max(0, y - 25):y + 25, max(0, x - 25):x + 25])
                    boxes.append((float(xs.mean() + max(0, x - 25)),
                                  float(ys.mean() + max(0, y - 25)), 40.0, 40.0))
        arr = np.array(boxes, np.float32).reshape(-1, 4)
        return Detections(arr, np.full(len(arr), 0.9, np.float32))


def pipeline(reader: PaintedValueReader) -> TablePipeline:
    return TablePipeline(SquareDetector(), reader, crop=square_crop)


def test_a_still_table_is_not_read_again() -> None:
    reader = PaintedValueReader()
    p = pipeline(reader)
    frame = painted_frame(FAR)
    outputs = [p.process(frame.copy(), timestamp=i / 15) for i in range(30)]
    assert sum(reader.batches) == len(FAR)  # the four dice were read once
    assert [o.changed for o in outputs] == [True] + [False] * 29
    assert p.counts["kept"] == 29
    assert all(sorted(d.value for d in o.reading.dice) == [2, 3, 5, 6] for o in outputs)


def test_the_table_is_read_in_full_again_every_few_seconds() -> None:
    reader = PaintedValueReader()
    p = pipeline(reader)
    frame = painted_frame(FAR)
    for i in range(int(FULL_READ_SECONDS * 15) + 2):
        p.process(frame, timestamp=i / 15)
    assert p.counts["full"] == 2 and sum(reader.batches) == 2 * len(FAR)


def test_a_moved_die_is_read_again_and_the_others_are_not() -> None:
    reader = PaintedValueReader()
    p = pipeline(reader)
    p.process(painted_frame(FAR), timestamp=0.0)
    moved = [FAR[0], FAR[1], FAR[2], (330, 260, 4)]  # the 6 is thrown again: a 4, nearby
    out = p.process(painted_frame(moved), timestamp=0.1)
    assert out.changed and p.counts["changed"] == 1
    assert reader.batches[-1] == 1  # only the moved die's crop was read
    assert sorted(d.value for d in out.reading.dice) == [2, 3, 4, 5]


def test_a_hand_in_one_corner_does_not_reread_the_far_side() -> None:
    reader = PaintedValueReader()
    p = pipeline(reader)
    p.process(painted_frame(FAR), timestamp=0.0)
    hand = painted_frame(FAR)
    hand[:90, :200] = (60, 80, 150)  # skin over the top-left corner, short of the dice there
    hand[90:130, 60:140] = (60, 80, 150)  # ... and a finger over the die at (100, 100)
    out = p.process(hand, timestamp=0.1)
    assert out.changed
    assert sum(reader.batches) == len(FAR)  # nothing new read: the covered die is gone
    assert sorted(d.value for d in out.reading.dice) == [2, 5, 6]
    back = p.process(painted_frame(FAR), timestamp=0.2)
    assert reader.batches[-1] == 1  # the uncovered die alone is read again
    assert sorted(d.value for d in back.reading.dice) == [2, 3, 5, 6]


def test_a_still_table_is_looked_at_a_few_times_a_second() -> None:
    reader = PaintedValueReader()
    p = pipeline(reader)
    frames = [painted_frame(FAR)] * 60  # 4 s at 15 fps, the dice still from the start

    class Source:
        fps = 15.0
        live = False

        def __iter__(self):
            return iter(frames)

    outputs = list(iter_outputs(Source(), p, realtime=False))
    assert len(outputs) == 60  # a recording is read frame by frame (``dicecam read``)
    looked = list(iter_outputs(_Fast(frames), pipeline(PaintedValueReader()), realtime=True))
    settled = next(i for i, o in enumerate(looked) if o.settled is not None)
    assert looked[settled].reading.timestamp < 0.6  # every frame read until the settle
    after = looked[settled + 1:]
    span = after[-1].reading.timestamp - looked[settled].reading.timestamp
    assert len(after) <= span * STILL_FPS + 1  # then about STILL_FPS a second


class _Fast:
    """A recorded source played in real time, at a frame rate high enough to be quick."""

    fps = 60.0
    live = False

    def __init__(self, frames: list[np.ndarray]) -> None:
        self.frames = frames * 4  # 4 s at 60 fps

    def __iter__(self):
        return iter(self.frames)
