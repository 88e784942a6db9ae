"""A table learns where its side faces lie only from false boxes that all point one way."""

from __future__ import annotations

import math

import numpy as np

from dicecam.teach.learn.side_faces import MIN_SIDE_FACES, FrameBoxes, learn_side_faces


def _frames(offsets, dice=((200.0, 200.0, 50.0),)) -> list[FrameBoxes]:
    """One frame per offset (in die sides): its dice, and a false box at that offset from
    the first die."""
    x, y, side = dice[0]
    return [FrameBoxes(np.array(dice), np.array([[x + dx * side, y + dy * side]]))
            for dx, dy in offsets]


def test_false_boxes_below_their_dice_make_a_zone_below():
    rng = np.random.default_rng(0)
    offsets = [(rng.uniform(-0.2, 0.2), rng.uniform(0.55, 0.8)) for _ in range(12)]
    zone, figures = learn_side_faces(_frames(offsets))
    assert zone is not None, figures
    assert abs(math.degrees(zone.angle) - 90) < 10
    assert zone.near <= 0.55 and zone.far >= 0.8
    assert figures["candidates"] == 12 and figures["known_dice_inside"] == 0


def test_false_boxes_every_way_round_or_too_few_make_none():
    every_way = [(0.7 * math.cos(a), 0.7 * math.sin(a)) for a in np.linspace(0, 6, 12)]
    zone, figures = learn_side_faces(_frames(every_way))
    assert zone is None and figures["aligned"] < 0.8
    few = [(0.0, 0.7)] * (MIN_SIDE_FACES - 1)
    assert learn_side_faces(_frames(few))[0] is None
    far_away = [(0.0, 3.0)] * 12  # a cable at the table's edge, no die's side face
    assert learn_side_faces(_frames(far_away))[1]["candidates"] == 0


def test_no_zone_where_a_known_die_lies_in_it_from_another():
    crowd = ((200.0, 200.0, 50.0), (200.0, 235.0, 50.0))  # a die leaning on the first
    # the false boxes lie 0.7 of a side below the second die, as the second die lies
    # below the first
    zone, figures = learn_side_faces(_frames([(0.0, 1.4)] * 10, dice=crowd))
    assert zone is None and figures["known_dice_inside"] > 0
