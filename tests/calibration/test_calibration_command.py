"""``dicecam calibrate colours|zones|list`` end to end on rendered frames."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.calibration.profile import load_profile
from dicecam.calibration.zones import load_zone_map
from dicecam.cli import main


@pytest.fixture(scope="module")
def calibration_image(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    from dicecam.tools.bench.accuracy.calibration import calibration_frame, light_and_camera

    rng = np.random.default_rng(11)
    frame, boxes = calibration_frame("diceparty", ("yellow", "orange", "red"), 3, 36.0, rng)
    frame = light_and_camera(frame, 3000, rng, 1.5)
    path = tmp_path_factory.mktemp("frames") / "calibration.png"
    cv2.imwrite(str(path), frame)
    return path, boxes


def test_instructions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "colours", "--set", "dicetopia", "--instructions"]) == 0
    assert "three purple, three white and three turquoise dice" in capsys.readouterr().out


def test_fit_from_an_image_with_boxes(calibration_image, home: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, boxes = calibration_image
    text = ";".join(",".join(f"{v:.1f}" for v in box) for box in reversed(boxes))
    assert main(["calibrate", "colours", "--set", "diceparty", "--source", str(path),
                 "--boxes", text]) == 0
    out = capsys.readouterr().out
    assert "reads 9 of the 9 calibration dice" in out
    assert (home / "profiles" / "diceparty.json").is_file()
    profile = load_profile("diceparty")  # what `dicecam read --set diceparty` now loads
    assert profile.fitted and profile.fitted_from == str(path)


def test_fit_from_a_samples_file_under_another_name(calibration_image, tmp_path: Path,
                                                    home: Path) -> None:
    path, boxes = calibration_image
    colours = ["yellow"] * 3 + ["orange"] * 3 + ["red"] * 3
    samples = tmp_path / "samples.json"
    samples.write_text(json.dumps([{"box": list(b), "colour": c}
                                   for b, c in zip(boxes, colours, strict=True)]))
    assert main(["calibrate", "colours", "--set", "diceparty", "--source", str(path),
                 "--samples", str(samples), "--name", "kitchen"]) == 0
    assert load_profile("kitchen").dice_set == "diceparty"
    assert not (home / "profiles" / "diceparty.json").exists()


@pytest.mark.parametrize("args,message", [
    (["--boxes", "10,10,20"], "must be four numbers"),
    (["--boxes", "10,10,20,20;30,30,20,20"], "found 2 dice, but 3 colours"),
    ([], None),  # no detector model, or no dice found: either way a sentence, not a trace
])
def test_bad_boxes_give_one_line_and_status_2(calibration_image, args, message,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path, _boxes = calibration_image
    blank = path.parent / "blank.png"
    cv2.imwrite(str(blank), np.full((120, 160, 3), 90, np.uint8))
    source = str(path) if args else str(blank)
    code = main(["calibrate", "colours", "--set", "diceparty", "--source", source, *args])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("dicecam calibrate:")
    if message:
        assert message in err


def test_zones_from_corners_and_drawn_areas(calibration_image, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path, _boxes = calibration_image
    preview = tmp_path / "preview.png"
    assert main(["calibrate", "zones", "--name", "kitchen", "--source", str(path),
                 "--board", "dicetopia-city=100,80 700,100 690,520 90,500",
                 "--board", "dicetopia-faction:anna=800,60,1200,60,1200,220,800,220",
                 "--zone", "party:bob=800,300 1250,300 1250,700 800,700",
                 "--preview", str(preview)]) == 0
    assert "saved zone map kitchen (1280x720)" in capsys.readouterr().out
    zone_map = load_zone_map("kitchen")
    assert zone_map.zone_of(180, 160) == "the_agency"
    assert zone_map.zone_of(1000, 150) == "faction:anna"
    assert zone_map.zone_of(1000, 500) == "party:bob"
    assert cv2.imread(str(preview)).shape == (720, 1280, 3)


@pytest.mark.parametrize("args,message", [
    (["--board", "catan=1,1,9,1,9,9,1,9"], "unknown board 'catan'"),
    (["--board", "dicetopia-city=1,1,9,1,9,9"], "needs four corners"),
    (["--zone", "party:a=1,1 5,5"], "a zone needs at least three"),
    (["--zone", "party:a=1,1 5,5 3000,3"], "outside the 1280x720 frame"),
    ([], "give at least one --board or --zone"),
])
def test_bad_zones(args, message, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["calibrate", "zones", "--name", "t", "--frame-size", "1280x720", *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "list"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert "charidice" in listing["builtin_profiles"]
    assert "dicetopia-city" in listing["boards"]
