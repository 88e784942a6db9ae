"""The demo's laid-out table (vision/sources/demo_boards.py): boards, dice on their fields, agents,
the same table from the same seed, and the directed demo laying it out once."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from dicecam.calibration.zones import ZoneMap
from dicecam.vision.sources.demo import DemoSource
from dicecam.vision.sources.demo_boards import DemoLayout, LaidZone, lay_out

CITY = ("dicetopia-city", "")
LAYOUT = DemoLayout(
    boards=(CITY, ("dicetopia-faction", "Ann"), ("dicetopia-faction", "Bo")),
    zones=(LaidZone("the_agency", 0, (0, 1, 1)), LaidZone("waste_management", 2, (1,)),
           LaidZone("nethal_syndicate", 1, (0, 0)),
           LaidZone("faction:Ann", 6), LaidZone("faction:Bo", 6)),
    colours=(("purple", 6), ("white", 6), ("turquoise", 3)),
)


def test_each_die_lies_on_a_field_of_its_zone() -> None:
    source = DemoSource("dicetopia")
    laid = source.laid_table(LAYOUT)
    assert laid.image.shape == (540, 960, 3)
    assert Counter(d.zone for d in laid.dice) == {"waste_management": 2, "nethal_syndicate": 1,
                                                 "faction:Ann": 6, "faction:Bo": 6}
    # colours dealt from the counts (15 dice, 15 in the counts), values thrown
    assert Counter(d.colour for d in laid.dice) == {"purple": 6, "white": 6, "turquoise": 3}
    assert {d.value for d in laid.dice} <= set(range(1, 7))
    zones = ZoneMap("demo", 960, 540, boards=laid.boards)
    assert [zones.zone_of(d.cx, d.cy) for d in laid.dice] == [d.zone for d in laid.dice]
    # the boards lie nearly square to the camera: a rectangle around each holds its dice
    for board in laid.boards:
        xs, ys = zip(*board.corners, strict=True)
        assert max(xs) - min(xs) < 1.1 * (board.corners[1][0] - board.corners[0][0])
    # the same layout: the same table, whatever game it is laid for; another: another deal
    again = source.laid_table(replace(LAYOUT, serial=7))
    assert (again.image == laid.image).all() and again.dice == laid.dice
    other = source.laid_table(replace(LAYOUT, colours=(("purple", 5), ("white", 5),
                                                       ("turquoise", 5))))
    assert [(d.colour, d.value) for d in other.dice] != [(d.colour, d.value) for d in laid.dice]


def test_the_agents_are_drawn_and_are_no_dice() -> None:
    table = np.full((540, 960, 3), 200, np.uint8)
    bare = DemoLayout(LAYOUT.boards, tuple(LaidZone(z.zone, z.dice) for z in LAYOUT.zones),
                      LAYOUT.colours)
    with_agents = lay_out(table, LAYOUT, "dicetopia", np.random.default_rng(3))
    without = lay_out(table, bare, "dicetopia", np.random.default_rng(3))
    differs = (with_agents.image != without.image).any(axis=2)
    assert differs.sum() > 6 * 100  # six figures of some size
    assert len(with_agents.dice) == len(without.dice)
    # (the same dice, where the fields' order lets them lie on the same fields)
    assert Counter(d.zone for d in with_agents.dice) == Counter(d.zone for d in without.dice)


def test_a_zone_cannot_hold_more_than_its_fields() -> None:
    crowded = DemoLayout((CITY,), (LaidZone("the_agency", 3, (0, 0, 1)),), (("white", 3),))
    with pytest.raises(ValueError, match="5 fields, not 6"):
        lay_out(np.zeros((540, 960, 3), np.uint8), crowded, "dicetopia",
                np.random.default_rng(0))


def test_the_directed_demo_lays_a_table_out_once_and_leaves_it_lying() -> None:
    again = replace(LAYOUT, serial=1)  # the same table for the next game
    asked = iter([None, LAYOUT, *[LAYOUT] * 30, again, *[again] * 30])
    source = DemoSource("dicetopia", director=lambda: next(asked))
    frames = list(itertools.islice(source.frames(), 62))
    assert (frames[0] == source._table).all()  # nothing asked: the empty table
    laid = source.laid_table(LAYOUT).image
    # a hand passes over (10 frames), then the layout lies still while it is asked for
    assert not (frames[5] == laid).all()
    assert all((f == laid).all() for f in frames[12:41])
    # a new game: the hand passes again (a roll to read), then the table lies there again
    assert not (frames[45] == laid).all()
    assert (frames[-1] == laid).all()
