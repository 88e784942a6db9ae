"""Teaching from labelled photos keeps each die as a player would confirm it."""

from __future__ import annotations

import numpy as np

from dicecam.reading import DieReading, FrameReading
from dicecam.teach.labelled import LabelledBox, TaughtFromPhotos, teach_photo
from dicecam.teach.store import TableStore


def _reading(*dice: DieReading) -> FrameReading:
    return FrameReading(320, 240, dice)


def _die(x: float, y: float, size: float, value: int | None, confidence: float = 0.95):
    return DieReading(x, y, size, size, value, None, confidence, value_confidence=confidence)


def test_found_dice_are_confirmed_corrected_added_or_not_dice() -> None:
    frame = np.full((240, 320, 3), 90, np.uint8)
    labels = [LabelledBox(3, 60, 60, 40, 40), LabelledBox(5, 160, 60, 40, 40),
              LabelledBox(2, 260, 60, 40, 40), LabelledBox(6, 60, 180, 40, 40)]
    found = _reading(_die(61, 59, 38, 3),  # read right
                     _die(158, 62, 40, 6, 0.6),  # read wrong: corrected
                     _die(262, 60, 12, 1),  # a pip of the 2: the die was missed
                     _die(200, 200, 30, 4))  # on no die
    store, tally = TableStore("t"), TaughtFromPhotos()
    teach_photo(store, frame, labels, lambda _: found, tally)
    taught = [(d.value, d.how) for d in store.dice()]
    assert taught == [(3, "confirmed"), (5, "corrected"), (2, "added"), (6, "added"),
                      (0, "not_a_die"), (0, "not_a_die")]
    assert tally.to_json() == {"photos": 1, "confirmed": 1, "corrected": 1, "added": 2,
                               "not_a_die": 2}
    (frame_kept,) = store.frames()
    assert frame_kept.complete and len(frame_kept.dice) == 4 and len(frame_kept.not_dice) == 2
    assert store.dice()[0].box == (61, 59, 38, 38)  # the detector's box: what it will cut
