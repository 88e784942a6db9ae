"""The empty table: boxes where the frame still shows the table without dice are dropped."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.calibration.tables import load_table_picture, saved_table_names
from dicecam.cli import main
from dicecam.errors import InputError
from dicecam.synth.scene import SceneSpec, render_scene
from dicecam.vision.detect.detector import Detections
from dicecam.vision.detect.empty_table import EmptyTable
from dicecam.vision.pipeline import TablePipeline
from dicecam.vision.read.die_reader import ValueReading


def _board_and_dice() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A drawn table with cards and tokens and no dice, the same table with 12 dice on it,
    and those dice's boxes."""
    empty = render_scene(np.random.default_rng(4), SceneSpec(
        width=960, height=540, n_dice=0, die_px=(36, 40), distractors=6))
    with_dice = render_scene(np.random.default_rng(5), SceneSpec(
        width=960, height=540, n_dice=12, die_px=(36, 40), distractors=0),
        table=empty.image_bgr)
    boxes = np.array([(d.cx, d.cy, d.w, d.h) for d in with_dice.visible_dice], np.float32)
    return empty.image_bgr, with_dice.image_bgr, boxes


def _later(frame: np.ndarray, seed: int = 1) -> np.ndarray:
    """The same view a while later: a dimmer lamp, sensor noise, a one-pixel nudge."""
    noise = np.random.default_rng(seed).normal(0, 3, frame.shape)
    return np.clip(np.roll(frame, 1, axis=1) * 0.85 + noise, 0, 255).astype(np.uint8)


def test_dice_never_match_the_empty_table_and_the_table_always_does() -> None:
    empty, with_dice, boxes = _board_and_dice()
    table = EmptyTable.from_frame(empty)
    assert not table.matches(with_dice, boxes).any()
    assert table.matches(_later(empty), boxes).all()


def test_at_the_frames_edge_the_part_inside_is_compared() -> None:
    """Boxes cut by the frame's edge: a die half out of view still differs from the
    table, the table's own pattern there still matches it; a sliver is never dropped."""
    empty, with_dice, boxes = _board_and_dice()
    table = EmptyTable.from_frame(empty)
    height, width = empty.shape[:2]
    side = 40.0
    edges = np.float32([(side / 4, height / 2, side, side), (width - side / 4, 100, side, side),
                        (width / 2, side / 4, side, side), (300, height - side / 4, side, side)])
    assert table.matches(_later(empty), edges).all()
    # a die of the picture with dice laid on the empty table there, cut by the edge
    x, y = (int(round(v)) for v in boxes[0][:2])
    half = int(side) // 2
    die = with_dice[y - half:y + half, x - half:x + half]
    for ex, ey, _, _ in edges:
        frame = _later(empty).copy()
        x0, y0 = int(round(ex)) - half, int(round(ey)) - half
        fx0, fy0 = max(x0, 0), max(y0, 0)
        fx1, fy1 = min(x0 + 2 * half, width), min(y0 + 2 * half, height)
        frame[fy0:fy1, fx0:fx1] = die[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0]
        assert not table.matches(frame, np.float32([(ex, ey, side, side)])).any()
    sliver = np.float32([(1.0, height / 2, side, side)])  # the box's centre on the edge
    assert not table.matches(_later(empty), sliver).any()


def test_a_picture_of_another_size_drops_nothing() -> None:
    empty, _, boxes = _board_and_dice()
    table = EmptyTable.from_frame(cv2.resize(empty, (640, 360)))
    assert not table.fits(empty)
    assert not table.matches(_later(empty), boxes).any()


class _FixedBoxes:
    """A detector that finds the same boxes in every frame (the dice's places)."""

    def __init__(self, boxes: np.ndarray) -> None:
        self.boxes = boxes

    def __call__(self, frame: np.ndarray) -> Detections:
        return Detections(self.boxes, np.full(len(self.boxes), 0.95, np.float32))


def _read_values(crops):
    return [ValueReading(4, 0.99) for _ in crops]


def test_only_the_boxes_on_dice_are_read_and_a_still_empty_table_settles_no_roll() -> None:
    empty, with_dice, boxes = _board_and_dice()
    pipeline = TablePipeline(_FixedBoxes(boxes), _read_values,
                             empty_table=EmptyTable.from_frame(empty))
    assert len(pipeline.read_frame(with_dice).dice) == len(boxes)
    assert pipeline.read_frame(_later(empty)).dice == ()
    settled = [out.settled for k in range(40)
               if (out := pipeline.process(_later(empty, k), timestamp=k / 10)).settled]
    assert all(not roll.dice for roll in settled)


def test_calibrate_table_saves_the_picture_and_read_uses_it(tmp_path: Path, capsys) -> None:
    empty, with_dice, _ = _board_and_dice()
    cv2.imwrite(str(tmp_path / "empty.png"), empty)
    cv2.imwrite(str(tmp_path / "dice.png"), with_dice)
    assert main(["calibrate", "table", "--source", str(tmp_path / "empty.png")]) == 0
    assert "default" in saved_table_names()
    assert load_table_picture("default").shape == empty.shape
    capsys.readouterr()
    assert main(["read", str(tmp_path / "empty.png"), str(tmp_path / "dice.png"), "--json",
                 "--empty-table", "default"]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["dice"] == []  # whatever the detector saw on the empty table is dropped
    assert len([d for d in second["dice"] if d["value"] is not None]) >= 10


def test_a_missing_picture_is_one_clear_error() -> None:
    with pytest.raises(InputError, match="calibrate table"):
        load_table_picture("nowhere")
