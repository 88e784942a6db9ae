"""The colour stage's readings of a fixed set of die crops, frozen: a change that makes the
stage faster must read every crop as before. A change meant to read differently writes the
file again:

    .venv/bin/python -m tests.vision.test_colour_frozen --write

and says in its commit what moved and why.

What is frozen is what a reading means: the colour named, the ranking of the set's colours,
and whether the confidence is at or above the 0.90 line (sure) or below it (asked). The
numbers themselves may move by what float arithmetic moves between CPUs and releases of
numpy and OpenCV (the stage resizes, blurs and opens with OpenCV): ``TOLERANCE``. The crops
are drawn with numpy alone (``tests/vision/drawn_crops.py``), never by the OpenCV scene
renderer, whose pixels change between OpenCV releases."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from dicecam.calibration.profile import load_profile
from dicecam.vision.colour.reader import ColourReader
from tests.vision.drawn_crops import drawn_crops

FROZEN = Path(__file__).parent / "data" / "colour_readings.json"
SETS = ("diceparty", "charidice", "dicetopia", "v6")
CROPS_PER_SET = 96
SEED = 56
#: a white fitted at a table (``ColourProfile.white_bgr``): the stage's other light path;
#: a cool one, so that warm-lit dice read less surely
TABLE_WHITE = (1.3, 1.0, 0.75)
#: how far a confidence or a score may move: float arithmetic across CPUs and library
#: releases moves them by about 1e-5 (4e-5 seen); a reading that changes moves far more
TOLERANCE = 1e-3
SURE = 0.90


def crops_of(set_name: str) -> list[np.ndarray]:
    return [crop for crop, _ in drawn_crops(set_name, CROPS_PER_SET, SEED)]


def readings() -> dict[str, list]:
    """Per set and light path, each crop's (colour, confidence, scores), one batch a set."""
    out: dict[str, list] = {}
    for set_name in SETS:
        crops = crops_of(set_name)
        profile = load_profile(set_name)
        variants = {set_name: profile,
                    f"{set_name}+table_white": replace(profile, white_bgr=TABLE_WHITE)}
        for key, variant in variants.items():
            out[key] = [[name, round(conf, 9), [list(s) for s in scores]]
                        for name, conf, scores in ColourReader(variant).read_scores(crops)]
    return out


def ranking_agrees(scores: list, was_scores: list) -> bool:
    """Every pair of colours whose frozen scores differ by more than twice the tolerance is
    ranked as it was (a near tie may swap)."""
    now, was = dict(scores), dict(was_scores)
    if set(now) != set(was):
        return False
    names = list(was)
    return all((now[a] > now[b]) == (was[a] > was[b])
               for a in names for b in names if was[a] - was[b] > 2 * TOLERANCE)


@pytest.fixture(scope="module")
def now() -> dict[str, list]:
    return readings()


@pytest.mark.parametrize("key", [f"{s}{light}" for s in SETS for light in ("", "+table_white")])
def test_every_crop_reads_as_frozen(now: dict[str, list], key: str) -> None:
    frozen = json.loads(FROZEN.read_text())[key]
    assert len(now[key]) == len(frozen)
    for index, ((name, conf, scores), (was, was_conf, was_scores)) in enumerate(
            zip(now[key], frozen, strict=True)):
        where = f"{key} crop {index}"
        assert name == was, f"{where}: read {name}, was {was}"
        assert conf == pytest.approx(was_conf, abs=TOLERANCE), where
        if abs(was_conf - SURE) > TOLERANCE:
            assert (conf >= SURE) == (was_conf >= SURE), \
                f"{where}: crossed {SURE} ({was_conf} -> {conf})"
        assert ranking_agrees(scores, was_scores), f"{where}: {was_scores} -> {scores}"
        assert [s for _, s in scores] == pytest.approx([s for _, s in was_scores],
                                                       abs=TOLERANCE), where


def test_the_frozen_crops_cover_sure_and_asked_readings(now: dict[str, list]) -> None:
    confidences = [conf for rows in now.values() for _, conf, _ in rows]
    assert len(confidences) >= 700
    assert sum(c >= SURE for c in confidences) >= 100
    assert sum(c < SURE for c in confidences) >= 40


def test_the_frozen_colours_are_mostly_the_drawn_ones() -> None:
    """The drawn dice look like their set's dice: the frozen readings are of real work."""
    frozen = json.loads(FROZEN.read_text())
    for set_name in SETS:
        truth = [colour for _, colour in drawn_crops(set_name, CROPS_PER_SET, SEED)]
        read = [name for name, _, _ in frozen[set_name]]
        right = sum(r == t for r, t in zip(read, truth, strict=True))
        assert right >= 0.9 * len(truth), set_name


def test_a_reading_moved_by_more_than_rounding_fails_the_ranking() -> None:
    was = [["red", 0.6], ["orange", 0.3], ["yellow", 0.0]]
    assert ranking_agrees([["red", 0.6004], ["orange", 0.2996], ["yellow", 0.0]], was)
    assert not ranking_agrees([["red", 0.3], ["orange", 0.6], ["yellow", 0.0]], was)
    assert ranking_agrees([["a", 0.5], ["b", 0.5004]], [["a", 0.5003], ["b", 0.5]])


if __name__ == "__main__" and "--write" in sys.argv:
    FROZEN.parent.mkdir(exist_ok=True)
    FROZEN.write_text(json.dumps(readings(), indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {FROZEN}")
