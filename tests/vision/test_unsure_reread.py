"""A taught table's reader: the shipped reader's sure readings stand; the table's own reader
reads again only the crops the shipped one is unsure of, and is taken there where sure."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dicecam.vision.read.die_reader import ValueReading
from dicecam.vision.read.unsure_reread import UnsureReread


class Fixed:
    """A reader answering from a table by the crop's first pixel."""

    def __init__(self, answers: dict[int, ValueReading], name: str) -> None:
        self.answers = answers
        self.model_path = Path(name)
        self.network_seconds = 0.5
        self.asked: list[int] = []

    def read(self, crops):
        keys = [int(c[0, 0, 0]) for c in crops]
        self.asked += keys
        return [self.answers[k] for k in keys]


def crop(key: int) -> np.ndarray:
    return np.full((8, 8, 3), key, np.uint8)


def test_only_what_the_first_is_unsure_of_is_read_again_and_taken_where_sure() -> None:
    shipped = Fixed({0: ValueReading(3, 0.99), 1: ValueReading(4, 0.6),
                     2: ValueReading(5, 0.5), 3: ValueReading(2, 0.7)}, "shipped.onnx")
    table = Fixed({0: ValueReading(6, 0.99), 1: ValueReading(1, 0.98),
                   2: ValueReading(6, 0.85), 3: ValueReading(None, 0.97)}, "table.onnx")
    reader = UnsureReread(shipped, table)
    got = reader.read([crop(k) for k in range(4)])
    assert table.asked == [1, 2, 3]  # the sure one never reaches the table's reader
    assert got == [ValueReading(3, 0.99),  # sure: as an untaught table reads it
                   ValueReading(1, 0.98),  # the table's reader sure: taken
                   ValueReading(5, 0.5),  # both unsure: asked with the shipped guess
                   ValueReading(None, 0.97)]  # a false box the table knows: not a die
    assert reader.model_path == Path("table.onnx") and reader.network_seconds == 1.0
    assert reader.read([]) == []
