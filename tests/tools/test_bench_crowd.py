"""``dicecam bench crowd``: what becomes of each thrown die, and one throw end to end."""

from __future__ import annotations

import json

import pytest

from dicecam.cli import main
from dicecam.reading import DieReading
from dicecam.tools.bench.accuracy.crowd import classify
from dicecam.vision.sources.demo import DemoSource, DemoThrow


def _die(x: float, value: int | None, colour: str | None = "red", confidence: float = 0.97
         ) -> DieReading:
    return DieReading(x, 50.0, 30.0, 30.0, value, colour, confidence,
                      value_confidence=confidence)


def test_each_thrown_die_is_sure_asked_wrong_or_missed_and_boxes_beyond_are_extra():
    truth = [(x, 50.0, 30.0, 3, "red") for x in (50.0, 100.0, 150.0, 200.0, 250.0, 300.0)]
    read = (_die(50, 3), _die(100, 4), _die(150, 3, confidence=0.6), _die(200, None),
            _die(250, 3, colour="yellow"), _die(400, 2), _die(450, 2, confidence=0.5))
    assert classify(truth, read) == [
        "right and sure", "WRONG AND SURE", "asked: value unsure", "asked: no value",
        "WRONG AND SURE", "missed", "EXTRA AND SURE", "extra, asked"]


def test_the_demo_draws_a_throw_as_it_shows_it_frames_then_still():
    colours = ("red", "yellow", "orange")
    source = DemoSource("diceparty")
    frames, truth = source.thrown(5, DemoThrow(colours))
    assert len(truth.dice) == 3 and sorted(d.colour for d in truth.dice) == sorted(colours)
    assert frames[-1] is frames[-2]  # lying still
    assert frames[0].shape == (source.height, source.width, 3)


def test_a_throw_is_read_and_counted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "crowd", "--throws", "1", "--still", "--party", "20"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["throws"] == 1 and 0 <= figures["throws_waiting"] <= 1
    assert sum(n for k, n in figures["dice"].items() if "EXTRA" not in k
               and "extra" not in k) >= 20


def test_other_models_are_read_with_and_missing_ones_refused(
        capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    from dicecam.vision.detect.detector import MODEL_PATH
    from dicecam.vision.read.die_reader import TRAINED_MODEL

    assert main(["bench", "crowd", "--throws", "1", "--still", "--party", "20",
                 "--reader", str(TRAINED_MODEL), "--detector", str(MODEL_PATH)]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["throws"] == 1
    assert main(["bench", "crowd", "--reader", str(tmp_path / "none.onnx")]) == 2
    assert "--reader: no model at" in capsys.readouterr().err
    assert main(["bench", "crowd", "--detector", str(tmp_path / "none.onnx")]) == 2
    assert "--detector: no model at" in capsys.readouterr().err
