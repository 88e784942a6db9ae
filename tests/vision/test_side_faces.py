"""A table's side-face zone: unsure boxes there beside a sure die are dropped, nothing else."""

from __future__ import annotations

import math

import numpy as np

from dicecam.reading import DieReading
from dicecam.vision.detect.side_faces import SideFaceZone
from dicecam.vision.pipeline import TablePipeline
from tests.support.doubles import FakeDetector, Value, painted_frame

#: side faces 0.5-0.9 of a side below their die (a camera tilted towards the viewer)
BELOW = SideFaceZone(angle=math.pi / 2, spread=math.radians(30), near=0.5, far=0.9)


def _die(x, y, value=3, sure=0.97, corrected=False) -> DieReading:
    return DieReading(x=x, y=y, w=40, h=40, value=value, colour=None, confidence=sure,
                      value_confidence=sure, corrected=corrected)


def test_the_zone_holds_offsets_in_its_direction_and_distance_only():
    dx = np.array([0.0, 0.0, 0.0, 0.7, 0.0, 0.3])
    dy = np.array([0.7, 0.4, 1.0, 0.0, -0.7, 0.6])  # the last 27 degrees off its axis
    assert BELOW.contains(dx, dy).tolist() == [True, False, False, False, False, True]


def test_an_unsure_box_below_a_sure_die_is_dropped_and_nothing_else_is():
    die = _die(100, 100)
    side_face = _die(100, 128, value=5, sure=0.6)  # 0.7 of a side below
    unsure_elsewhere = _die(100, 72, value=2, sure=0.6)  # above: kept, and asked
    sure_below = _die(300, 328, value=4)  # a sure die below another sure die is kept
    sure_above = _die(300, 300, value=1)
    struck_by_players = _die(100, 128, value=6, sure=0.6, corrected=True)
    dice = [die, side_face, unsure_elsewhere, sure_below, sure_above]
    assert BELOW.drop(dice) == [die, unsure_elsewhere, sure_below, sure_above]
    assert BELOW.drop([die, struck_by_players]) == [die, struck_by_players]


def test_a_sure_box_below_a_surer_die_is_a_side_face_too():
    die = _die(100, 100, sure=0.98)
    side_face = _die(100, 128, value=5, sure=0.93)
    as_sure_below = _die(300, 328, value=4, sure=0.98)  # as sure as the die above it
    above = _die(300, 300, value=1, sure=0.98)
    assert BELOW.drop([die, side_face, above, as_sure_below]) == [die, above, as_sure_below]


def test_without_a_sure_die_beside_it_an_unsure_box_stays():
    top = _die(100, 100, sure=0.8)
    below = _die(100, 128, sure=0.6)
    assert BELOW.drop([top, below]) == [top, below]


def test_the_zone_round_trips_through_json_and_a_damaged_one_is_none():
    again = SideFaceZone.from_json(BELOW.to_json())
    assert again is not None
    assert math.isclose(again.angle, BELOW.angle, abs_tol=1e-3)
    assert math.isclose(again.spread, BELOW.spread, abs_tol=1e-3)
    assert (again.near, again.far) == (BELOW.near, BELOW.far)
    assert SideFaceZone.from_json({"angle_deg": "down"}) is None
    assert SideFaceZone.from_json(None) is None


def test_the_pipeline_drops_side_faces_where_its_table_has_a_zone():
    frame = painted_frame([(100, 100, 3), (100, 128, 5)])
    detector = FakeDetector([(100, 100, 40, 40), (100, 128, 40, 40)])

    def reader(crops):  # the die sure, the box below it unsure
        return [Value(3, 0.97), Value(5, 0.5)][:len(crops)]

    plain = TablePipeline(detector, reader, None)
    zoned = TablePipeline(detector, reader, None, side_faces=BELOW)
    assert len(plain.read_frame(frame).dice) == 2
    assert [(d.x, d.y) for d in zoned.read_frame(frame).dice] == [(100, 100)]


def test_before_teaching_a_sure_box_just_below_a_die_is_asked_not_dropped():
    from dicecam.vision.detect.side_faces import ask_faces_below

    die = _die(100, 100, value=1, sure=0.8)  # the top face: surely read or not
    side_face = _die(104, 128, value=5)  # 0.7 of a side below, read sure
    asked = ask_faces_below([die, side_face])
    assert asked[0] == die
    assert asked[1].value == 5 and asked[1].needs_check
    assert asked[1].confidence < 0.9 and asked[1].value_confidence < 0.9
    # a die the players corrected stays as they said
    corrected = _die(104, 128, value=5, corrected=True)
    assert ask_faces_below([die, corrected]) == [die, corrected]
    # a die a whole side below (touching), or off to the side, is a die
    assert ask_faces_below([die, _die(100, 140)]) == [die, _die(100, 140)]
    assert ask_faces_below([die, _die(130, 125)]) == [die, _die(130, 125)]
    # a die off to one side of the camera shows its side face down and that way: a box
    # 0.7 of a side below and 0.5 across (35 degrees off straight down) is asked too
    assert ask_faces_below([die, _die(120, 128)])[1].needs_check


def test_a_frame_with_touching_dice_side_by_side_is_a_crowd_and_left_alone():
    from dicecam.vision.detect.side_faces import ask_faces_below

    crowd = [_die(100, 100), _die(104, 128), _die(140, 100)]  # the third beside the first
    assert ask_faces_below(crowd) == crowd
    # the same two dice with the third far away: the box below is asked
    apart = [_die(100, 100), _die(104, 128), _die(400, 100)]
    assert ask_faces_below(apart)[1].needs_check
