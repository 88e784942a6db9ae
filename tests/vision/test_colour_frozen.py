"""The colour stage's readings of a fixed set of rendered crops, frozen: a change that makes
the stage faster must read every crop as before (the same colour, the same confidence and
scores to float rounding). A change meant to read differently writes the file again:

    .venv/bin/python -m tests.vision.test_colour_frozen --write

and says in its commit what moved and why."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from dicecam.calibration.profile import load_profile
from dicecam.synth.scene import SceneSpec, render_scene
from dicecam.vision.colour import ColourReader
from dicecam.vision.die_reader import cut_crop

FROZEN = Path(__file__).parent / "data" / "colour_readings.json"
SETS = ("diceparty", "charidice", "dicetopia", "v6")
#: a white fitted at a table (``ColourProfile.white_bgr``): the stage's other light path;
#: a cool one, so that warm-lit dice read less surely
TABLE_WHITE = (1.3, 1.0, 0.75)
#: how far a confidence or a score may move (float rounding, never a reading)
TOLERANCE = 1e-6


def crops_of(set_name: str) -> list[np.ndarray]:
    """Two rendered tables of the set's dice, 18-80 px faces (some larger than the mark
    search's 64 px), each die cut at its true box as the pipeline cuts the detector's, and
    again off its centre at another size (the table and its neighbours in view)."""
    crops = []
    for index in range(2):
        rng = np.random.default_rng([28, index])
        scene = render_scene(rng, SceneSpec(
            width=960, height=540, n_dice=24, die_px=(18.0, 80.0), dice_set=set_name,
            cluster_share=0.5, distractors=2))
        for d in scene.visible_dice:
            crops.append(cut_crop(scene.image_bgr, d.cx, d.cy, d.w, d.h))
            dx, dy, grow = rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35), rng.uniform(0.6, 1.6)
            crops.append(cut_crop(scene.image_bgr, d.cx + dx * d.w, d.cy + dy * d.h,
                                  d.w * grow, d.h * grow))
    return crops


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
        assert (conf >= 0.90) == (was_conf >= 0.90), f"{where}: crossed 0.90 ({was_conf} -> {conf})"
        assert [c for c, _ in scores] == [c for c, _ in was_scores], where
        assert [s for _, s in scores] == pytest.approx([s for _, s in was_scores],
                                                       abs=1e-4 + TOLERANCE), where


def test_the_frozen_crops_cover_sure_and_asked_readings(now: dict[str, list]) -> None:
    confidences = [conf for rows in now.values() for _, conf, _ in rows]
    assert len(confidences) >= 300
    assert sum(c >= 0.90 for c in confidences) >= 100
    assert sum(c < 0.90 for c in confidences) >= 10


if __name__ == "__main__" and "--write" in sys.argv:
    FROZEN.parent.mkdir(exist_ok=True)
    FROZEN.write_text(json.dumps(readings(), indent=None, separators=(",", ":")) + "\n")
    print(f"wrote {FROZEN}")
