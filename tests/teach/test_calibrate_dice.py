"""``dicecam calibrate dice`` teaches a table from labelled photos; ``read --table`` reads
with what it learnt; ``--forget`` goes back; a learner killed mid-learning loses nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import pytest

from dicecam.cli import main
from dicecam.teach.labelled import read_labels
from dicecam.teach.store import TableStore
from tests.support.drawn_dice import write_labelled_folder
from tests.support.waiting import WAIT_SECONDS, wait_until

STEPS = "40"  # a tempered reader (stage 5) sharpens over more steps: 30 read 14 of 18
QUICK_STEPS = "4"  # enough to make a version; what it learns is another test's


def _read(capsys: pytest.CaptureFixture, folder: Path, *table: str) -> list[dict]:
    capsys.readouterr()
    assert main(["read", "--json", *table, str(folder / "images")]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _sure_and_right(readings: list[dict], folder: Path) -> int:
    count = 0
    for reading in readings:
        image = Path(reading["path"])
        labels = read_labels(folder / "labels" / f"{image.stem}.txt", reading["width"],
                             reading["height"])
        for label in labels:
            near = [d for d in reading["dice"] if abs(d["x"] - label.cx) < label.w / 2
                    and abs(d["y"] - label.cy) < label.h / 2]
            count += any(d["value"] == label.value and d["confidence"] >= 0.9 for d in near)
    return count


def test_a_table_taught_from_photos_reads_its_odd_dice_surely(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    taught = write_labelled_folder(tmp_path / "taught", photos=8, seed=1)
    later = write_labelled_folder(tmp_path / "later", photos=3, seed=2)
    assert main(["calibrate", "dice", "--table", "kitchen", "--labelled", str(taught),
                 "--steps", STEPS, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["used"] and figures["version"] == "reader-v1"
    assert figures["learned"]["right"] > figures["shipped"]["right"]
    assert figures["taught"]["photos"] == 8 and figures["dice"] >= 40
    # drawn from above: the faint boxes beside the dice make no side-face zone
    assert figures["side_faces"]["zone"] is None and figures["side_faces"]["frames"] == 8
    shipped = _sure_and_right(_read(capsys, later), later)
    table = _sure_and_right(_read(capsys, later, "--table", "kitchen"), later)
    assert table > shipped and table >= 15  # of 18 dice

    assert main(["calibrate", "dice", "--table", "kitchen", "--forget"]) == 0
    assert "shipped models" in capsys.readouterr().out
    assert _read(capsys, later, "--table", "kitchen") == _read(capsys, later)


def test_a_table_with_nothing_taught_reads_as_the_shipped_models(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    later = write_labelled_folder(tmp_path / "later", photos=1, seed=3)
    assert _read(capsys, later, "--table", "new") == _read(capsys, later)


def test_a_folder_without_labels_is_a_clear_error(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "images").mkdir()
    assert main(["calibrate", "dice", "--table", "t", "--labelled", str(tmp_path)]) == 2
    assert "labels/" in capsys.readouterr().err


def test_a_learner_killed_mid_learning_loses_nothing(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture) -> None:
    first = write_labelled_folder(tmp_path / "first", photos=3, seed=4)
    assert main(["calibrate", "dice", "--table", "kitchen", "--labelled", str(first),
                 "--steps", QUICK_STEPS]) == 0
    store = TableStore("kitchen")
    before, in_use = len(store.dice()), store.reader_in_use()
    more = write_labelled_folder(tmp_path / "more", photos=2, seed=5)
    learner = subprocess.Popen(
        [sys.executable, "-m", "dicecam", "calibrate", "dice", "--table", "kitchen",
         "--labelled", str(more), "--steps", "100000"],
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        wait_until(lambda: len(store.dice()) >= before + 12 or learner.poll() is not None,
                   timeout=2 * WAIT_SECONDS, message="the learner never taught both photos")
        assert learner.poll() is None, "the learner ended before it could be killed"
        time.sleep(1.0)  # both photos taught, it is learning now: killed a moment into it
        learner.send_signal(signal.SIGKILL)
    finally:
        learner.kill()
        learner.wait(30)
    assert len(store.dice()) == before + 12  # every die taught before the kill is kept
    assert store.reader_in_use() == in_use  # the table reads with its last good reader
    assert store.reader_versions() == ["reader-v1"]
    frame = cv2.imread(str(next((more / "images").iterdir())))
    assert frame is not None
    capsys.readouterr()
    assert main(["read", "--json", "--table", "kitchen", str(more / "images")]) == 0
    assert main(["calibrate", "dice", "--table", "kitchen", "--labelled", str(more),
                 "--steps", QUICK_STEPS]) == 0  # and it learns again
    assert TableStore("kitchen").reader_versions()[-1] == "reader-v2"
