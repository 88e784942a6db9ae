"""`dicecam doctor`: each check finds what is wrong and says what to do; the exit status is
1 when something is broken. Files live in temporary folders (DICECAM_HOME, --db); the
camera is a stand-in, except for reading the first picture of an image file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.commands.doctor import (
    Finding,
    Verdict,
    check_camera,
    check_database,
    check_model,
    check_profiles,
    check_zone_maps,
    first_picture,
    load_detector,
    load_reader,
    render,
)
from dicecam.errors import InputError
from dicecam.webapp.journal.sqlite import EntryKind, GameStore, NewEntry, Source

# --- camera -------------------------------------------------------------------------------


def test_no_webcam_is_a_warning_the_demo_plays() -> None:
    found = check_camera(None, None, present=lambda index: False)
    assert found.verdict is Verdict.WARN and "bundled demo" in found.what
    assert "plug in a USB webcam" in found.fix


@pytest.mark.parametrize(("grabbed", "verdict", "what"), [
    (np.zeros((720, 1280, 3), np.uint8), Verdict.OK, "camera:0 sends 1280x720 pictures"),
    (None, Verdict.FAIL, "camera:0 opens but sends no picture within 8 s"),
    (np.zeros((0, 0, 3), np.uint8), Verdict.FAIL, "camera:0 sends a picture of 0x0 pixels"),
])
def test_the_camera_is_asked_for_a_picture(grabbed: object, verdict: Verdict,
                                           what: str) -> None:
    found = check_camera(None, None, present=lambda index: True, grab=lambda spec: grabbed)
    assert (found.verdict, found.what) == (verdict, what)
    assert bool(found.fix) == (verdict is not Verdict.OK)


def test_a_camera_that_cannot_be_opened_fails_with_its_reason() -> None:
    def unplugged(spec: str) -> None:
        raise InputError(f"cannot open camera 2: is it plugged in? ({spec})")

    found = check_camera(2, None, grab=unplugged)
    assert found.verdict is Verdict.FAIL and "camera:2" in found.what
    assert "--camera N" in found.fix


def test_the_first_picture_of_a_real_source(tmp_path: Path) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((60, 80, 3), 128, np.uint8))
    assert first_picture(str(path)).shape == (60, 80, 3)
    with pytest.raises(InputError, match="no such file"):
        first_picture(str(tmp_path / "nowhere.mp4"))


# --- models -------------------------------------------------------------------------------


def test_a_missing_model_says_what_to_run(tmp_path: Path) -> None:
    found = check_model("die detector", tmp_path / "detector.onnx", "dicecam train detector",
                        load_detector)
    assert found.verdict is Verdict.FAIL and found.what.startswith("missing: ")
    assert "`dicecam train detector`" in found.fix and "pip install -e '.[train]'" in found.fix


@pytest.mark.parametrize("load", [load_detector, load_reader])
def test_a_broken_model_file_fails_and_mentions_a_running_training(tmp_path: Path,
                                                                   load: object) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(b"half written" * 100)
    found = check_model("model", path, "dicecam train reader", load)  # type: ignore[arg-type]
    assert found.verdict is Verdict.FAIL and "cannot be used" in found.what
    assert "\n" not in found.what and "training is still writing it" in found.fix


def test_a_model_that_loads_and_reads_is_ok(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(b"x" * 4096)
    loaded: list[Path] = []
    found = check_model("die reader", path, "dicecam train reader", loaded.append)
    assert loaded == [path]
    assert (found.verdict, found.what) == (Verdict.OK, f"{path} loads and reads (4 KB)")


# --- colour profiles and zone maps ---------------------------------------------------------


def test_built_in_profiles_are_ok_and_a_broken_fitted_one_fails(home: Path) -> None:
    first = check_profiles()
    assert first[0].verdict is Verdict.OK and "charidice, diceparty, dicetopia, v6" in first[0].what
    assert len(first) == 1
    (home / "profiles").mkdir(parents=True)
    (home / "profiles" / "diceparty.json").write_text('{"format": "dicecam-colour-profile"')
    found = check_profiles()
    assert [f.verdict for f in found] == [Verdict.OK, Verdict.FAIL]
    assert "not valid JSON" in found[1].what
    assert "dicecam calibrate colours --set diceparty" in found[1].fix


def test_no_zone_map_is_fine_and_a_broken_one_fails(home: Path) -> None:
    assert [f.verdict for f in check_zone_maps()] == [Verdict.OK]
    (home / "zones").mkdir(parents=True)
    (home / "zones" / "kitchen.json").write_text('{"format": "dicecam-zone-map", "zones": 3}')
    found = check_zone_maps()
    assert [f.verdict for f in found] == [Verdict.OK, Verdict.FAIL]
    assert "dicecam calibrate zones --name kitchen" in found[1].fix


# --- database --------------------------------------------------------------------------------


def test_no_database_yet_is_fine_but_a_missing_folder_is_not(tmp_path: Path) -> None:
    assert check_database(tmp_path / "games.sqlite", explicit=True)[0].verdict is Verdict.OK
    found = check_database(tmp_path / "nope" / "games.sqlite", explicit=True)
    assert found[0].verdict is Verdict.FAIL and "does not exist" in found[0].what


def test_a_file_that_is_no_database_fails_with_how_to_start_afresh(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"not a database at all" * 200)
    found = check_database(path, explicit=True)
    assert [f.verdict for f in found] == [Verdict.FAIL]
    assert f"mv {path} {path}.broken" in found[0].fix


def test_a_good_database_is_counted_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    game_id = store.create_game("charidice", {"players": ["Ann", "Bo"]})
    store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"type": "big_gift"})])
    stale = store.create_game("charidice", {"players": ["Ann", "Bo"]})
    store.append(stale, [NewEntry(EntryKind.ACTION, Source.TAP, {"type": "no_such_move"})])
    store.close()
    before = path.read_bytes()
    found = check_database(path, explicit=True)
    assert found[0] == Finding("database", Verdict.OK,
                               f"{path}: 2 games, 2 log entries, integrity ok")
    assert found[1].verdict is Verdict.WARN and f"{stale} (charidice)" in found[1].what
    assert len(found) == 2
    assert path.read_bytes() == before  # read only (SQLite may add its empty -wal/-shm)


# --- the command -------------------------------------------------------------------------------


def test_render_puts_the_fix_under_each_problem_and_sums_up() -> None:
    lines = render([Finding("camera", Verdict.WARN, "no webcam", "plug one in"),
                    Finding("die reader", Verdict.FAIL, "missing", "train it"),
                    Finding("database", Verdict.OK, "fine")])
    assert lines == ["warn  camera: no webcam", "      fix: plug one in",
                     "FAIL  die reader: missing", "      fix: train it",
                     "ok    database: fine", "1 problem(s) to fix, 1 warning(s)"]
    assert render([Finding("database", Verdict.OK, "fine")])[-1] == "dicecam has what it needs"


def test_the_command_checks_every_part_and_fails_exactly_when_something_is_broken(
        tmp_path: Path) -> None:
    env = {**os.environ, "DICECAM_HOME": str(tmp_path / "home")}
    (tmp_path / "home" / "zones").mkdir(parents=True)
    (tmp_path / "home" / "zones" / "bad.json").write_text("[")
    result = subprocess.run(
        [sys.executable, "-m", "dicecam", "doctor", "--db", str(tmp_path / "games.sqlite")],
        capture_output=True, text=True, timeout=120, env=env)
    lines = result.stdout.splitlines()
    areas = {line.split(":")[0].split(maxsplit=1)[1] for line in lines
             if line.startswith(("ok ", "warn ", "FAIL "))}
    assert areas == {"camera", "die detector", "die reader", "colour profiles", "zone maps",
                     "database"}
    assert any(line.startswith("FAIL  zone maps:") for line in lines)
    assert result.returncode == 1 and "problem(s) to fix" in lines[-1]
    assert result.stderr == ""


def test_a_bad_option_is_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "dicecam", "doctor", "--camera", "-1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == "dicecam doctor: --camera must be 0 or more, got -1"
