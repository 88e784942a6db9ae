"""``dicecam read`` on image files, a folder with a corrupt image, and a video file."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from dicecam.cli import main
from dicecam.synth.scene import SceneSpec, render_scene
from dicecam.vision.detect.detector import MODEL_PATH
from dicecam.vision.read.die_reader import DEFAULT_MODEL as READER_MODEL

pytestmark = pytest.mark.skipif(not (MODEL_PATH.is_file() and READER_MODEL.is_file()),
                                reason="the detector or die reader model is not built yet")

SPEC = SceneSpec(width=960, height=540, n_dice=12, die_px=(30.0, 36.0), distractors=3)


@pytest.fixture(scope="module")
def scenes():
    return [render_scene(np.random.default_rng(seed), SPEC) for seed in (11, 12)]


@pytest.fixture
def images(tmp_path, scenes):
    for i, scene in enumerate(scenes):
        cv2.imwrite(str(tmp_path / f"table_{i}.png"), scene.image_bgr)
    return tmp_path


def test_json_lines_hold_every_die_with_the_documented_fields(images, scenes, capsys):
    status = main(["read", str(images / "table_0.png"), str(images / "table_1.png"), "--json",
                   "--set", "diceparty"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0 and len(lines) == 2
    for line, scene in zip(lines, scenes, strict=True):
        record = json.loads(line)
        assert set(record) == {"path", "width", "height", "dice"}
        assert (record["width"], record["height"]) == (960, 540)
        assert set(record["dice"][0]) == {"x", "y", "w", "h", "value", "colour", "confidence",
                                          "zone"}
        # a token the detector took for a die is kept only as unreadable, to be asked
        read = [d for d in record["dice"] if d["value"] is not None]
        assert len(read) == len(scene.dice)
        assert all(d["confidence"] < 0.9 for d in record["dice"] if d["value"] is None)
        found = {(round(d["x"] / 10), round(d["y"] / 10)) for d in record["dice"]}
        assert len(found) >= len(scene.dice) - 1  # centres are distinct dice
        assert {d["colour"] for d in record["dice"]} <= {"yellow", "orange", "red", None}


def test_a_corrupt_image_in_a_folder_is_reported_and_the_rest_is_read(images, capsys, tmp_path):
    (images / "zz_broken.jpg").write_bytes(b"\xff\xd8 not a jpeg")
    out_dir = tmp_path / "annotated"
    status = main(["read", str(images), "--annotate", str(out_dir)])
    captured = capsys.readouterr()
    assert status == 2
    assert "zz_broken.jpg: cannot decode" in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert captured.out.count(" dice") == 2
    assert sorted(p.name for p in out_dir.iterdir()) == ["table_0.jpg", "table_1.jpg"]


def test_a_phone_photo_it_cannot_decode_in_a_folder_is_named_and_the_rest_is_read(
        images, capsys):
    (images / "IMG_0001.HEIC").write_bytes(b"ftypheic")  # an iPhone's photo
    (images / "notes.txt").write_text("not a photo")  # other files are passed over
    status = main(["read", str(images)])
    captured = capsys.readouterr()
    assert status == 2 and captured.out.count(" dice") == 2
    assert captured.err.strip().splitlines() == [
        f"dicecam read: {images / 'IMG_0001.HEIC'}: HEIC photos cannot be read; save them as "
        f"JPEG or PNG (a phone's export or sharing does)"]


def test_a_missing_path_is_one_line_and_status_2(capsys):
    assert main(["read", "/no/such/photo.jpg"]) == 2
    assert "no such image" in capsys.readouterr().err


def test_a_video_publishes_its_still_roll_once(tmp_path, scenes, capsys):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (960, 540))
    blank = np.full((540, 960, 3), 60, np.uint8)
    for _ in range(3):
        writer.write(blank)
    for _ in range(12):
        writer.write(scenes[0].image_bgr)
    writer.release()
    assert main(["read", str(path), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 15
    assert [r["frame"] for r in records] == list(range(15))
    settled = [r for r in records if r["settled"]]
    assert len(settled) == 1
    # a token the detector took for a die is kept only as unreadable, to be asked
    assert len([d for d in settled[0]["dice"] if d["value"] is not None]) == len(scenes[0].dice)


def test_told_how_many_dice_a_photo_shows_read_looks_for_a_die_painted_out_of_the_detector(
        images, scenes, capsys, monkeypatch):
    """A die whose peak the detector keeps under its bar (here: its box dropped unless the
    bar is the look's lower one) is read when ``--dice`` says one is missing."""
    from dicecam.vision.detect.detector import DieDetector

    scene = scenes[0]
    hidden = scene.visible_dice[0]
    detect = DieDetector.detect

    def detect_without_one(self, frame, *, threshold=None):
        found = detect(self, frame, threshold=threshold)
        if threshold is not None:
            return found
        off = np.hypot(found.boxes[:, 0] - hidden.cx, found.boxes[:, 1] - hidden.cy) > 8
        return found.keep(off)

    monkeypatch.setattr(DieDetector, "detect", detect_without_one)
    path = str(images / "table_0.png")

    def dice(*extra):
        assert main(["read", path, "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)["dice"]

    alone = dice()  # (with any box read as no die, to be asked)
    assert len([d for d in alone if d["value"]]) == len(scene.dice) - 1
    found = dice("--dice", str(len(alone) + 1))
    assert len(found) == len(alone) + 1
    (new,) = [d for d in found if abs(d["x"] - hidden.cx) < 8 and abs(d["y"] - hidden.cy) < 8]
    assert new["value"] == hidden.value
    assert main(["read", path, "--dice", "0"]) == 2
    assert "--dice must be 1 or more" in capsys.readouterr().err
