"""Rendered tables without dice (``tools.bench.accuracy.empty_tables``) and their bench rows."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.reading import DieReading, FrameReading
from dicecam.tools.bench.accuracy.empty_tables import EMPTY_TABLE_KINDS, empty_table, empty_tables
from dicecam.tools.bench.accuracy.real import read_rendered_tables

SMALL = (320, 180)


@pytest.mark.parametrize("kind", EMPTY_TABLE_KINDS)
def test_every_kind_renders_a_frame_of_the_asked_size_the_same_for_a_seed(kind) -> None:
    frame = empty_table(np.random.default_rng(3), kind, SMALL)
    assert frame.shape == (180, 320, 3) and frame.dtype == np.uint8
    assert np.array_equal(frame, empty_table(np.random.default_rng(3), kind, SMALL))
    assert not np.array_equal(frame, empty_table(np.random.default_rng(4), kind, SMALL))
    assert frame.std() > 3  # a texture, not a flat fill


def test_the_kinds_come_in_turn_and_an_unknown_kind_is_refused() -> None:
    kinds = [kind for kind, _ in empty_tables(len(EMPTY_TABLE_KINDS) + 2, seed=1, size=SMALL)]
    assert kinds == list(EMPTY_TABLE_KINDS) + list(EMPTY_TABLE_KINDS[:2])
    assert "stone counter" in EMPTY_TABLE_KINDS  # issue 33 names stone among the tables
    with pytest.raises(ValueError, match="unknown table kind 'lawn'"):
        empty_table(np.random.default_rng(0), "lawn", SMALL)


class OneDiePipeline:
    """Finds one sure 5 on every frame: on a table without dice it is a false die."""

    read_colours = None
    empty_table = None

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []

    def read_frame(self, frame):
        h, w = frame.shape[:2]
        self.sizes.append((w, h))
        if self.empty_table is not None:  # the picture of the empty table removes it
            return FrameReading(width=w, height=h, dice=())
        return FrameReading(width=w, height=h, dice=(
            DieReading(x=w / 2, y=h / 2, w=30, h=30, value=5, colour=None, confidence=0.99,
                       value_confidence=0.99),))


def test_every_die_found_on_a_rendered_table_counts_false_per_kind() -> None:
    pipeline = OneDiePipeline()
    count = len(EMPTY_TABLE_KINDS) + 1  # boards twice, every other kind once
    groups = read_rendered_tables(pipeline, count, colour_read=False)
    assert list(groups) == ([f"rendered:{kind}" for kind in EMPTY_TABLE_KINDS]
                            + ["rendered:all, later, empty table"])
    rows = {name: tally.as_dict() for name, tally in groups.items()}
    assert rows["rendered:all, later, empty table"]["photos"] == count
    assert rows["rendered:all, later, empty table"]["false_dice"] == 0
    assert pipeline.empty_table is None  # the bench's picture is taken away again
    assert rows["rendered:boards"]["photos"] == 2 and rows["rendered:boards"]["false_dice"] == 2
    assert rows["rendered:patterned cloth"]["false_silent"] == 1
    assert pipeline.sizes == [(1280, 720)] * 2 * count
    assert read_rendered_tables(pipeline, 0, colour_read=False) == {}
