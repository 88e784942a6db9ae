"""The Blender renderer's training crops: a tiny render (where the renderer's environment
exists: `.ci/run` makes it) and the crops the reader's training cuts from renders."""

from __future__ import annotations

import json
import subprocess

import cv2
import numpy as np
import pytest

from dicecam.errors import InputError
from dicecam.tools.render.cli import DEFAULT_ENV, render
from dicecam.tools.train.reader.rendered import read_labels, rendered_crops


def _has_renderer() -> bool:
    python = DEFAULT_ENV / "bin" / "python"
    return python.is_file() and subprocess.run([str(python), "-c", "import bpy"],
                                               capture_output=True).returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not _has_renderer(), reason="no renderer environment (.venv-render with "
                    "bpy; `.ci/run` or `dicecam train render` makes it)")
def test_renders_are_labelled_and_reproducible(tmp_path):
    assert render(tmp_path / "a", count=3, seed=7, log=lambda _m: None) == 3
    assert render(tmp_path / "b", count=1, seed=7, start=2, log=lambda _m: None) == 1
    records = read_labels(tmp_path / "a")
    assert [r["index"] for r in records] == [0, 1, 2]
    for record in records:
        image = cv2.imread(str(tmp_path / "a" / record["file"]))
        assert image.shape == (96, 96, 3) and image.std() > 3  # a scene, not a blank
        assert 0 <= record["label"] <= 6
        if record["kind"] == "d6":
            x0, y0, x1, y1 = record["box"]
            assert 0 <= x0 < x1 <= 96 and 0 <= y0 < y1 <= 96  # the top face is in view
    # a sample depends on its seed and index only, not on the run that made it
    again = read_labels(tmp_path / "b")[0]
    assert again == records[2]
    first = cv2.imread(str(tmp_path / "a" / "000002.png")).astype(int)
    second = cv2.imread(str(tmp_path / "b" / "000002.png")).astype(int)
    assert np.abs(first - second).mean() < 2.0  # the denoiser may differ by a grey level


def _fake_renders(folder, records):
    folder.mkdir()
    for record in records:
        image = np.full((96, 96, 3), 90, np.uint8)
        x0, y0, x1, y1 = (int(v) for v in record["box"])
        image[y0:y1, x0:x1] = 230
        cv2.imwrite(str(folder / record["file"]), image)
    lines = [json.dumps(r) for r in records] + ['{"half a line']  # a render still writing
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")


def test_crops_are_cut_around_the_top_face_with_jitter(tmp_path):
    records = [{"file": "000001.png", "index": 1, "label": 5, "box": [30, 30, 66, 66]},
               {"file": "000000.png", "index": 0, "label": 0, "box": [10, 10, 40, 40]}]
    _fake_renders(tmp_path / "r", records)
    images, labels = rendered_crops([tmp_path / "r"], 32, seed=3, per_render=4,
                                    log=lambda _m: None)
    assert images.shape == (8, 32, 32, 3) and images.dtype == np.uint8
    assert labels.tolist() == [0] * 4 + [5] * 4  # index order
    # the face fills the middle of every crop; the jitter moves its edges
    assert all(crop[14:18, 14:18].mean() > 200 for crop in images)
    assert len({crop.tobytes() for crop in images[4:]}) == 4
    again, _ = rendered_crops([tmp_path / "r"], 32, seed=3, per_render=4, log=lambda _m: None)
    assert np.array_equal(images, again)


def test_a_folder_without_renders_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="no labels.jsonl"):
        rendered_crops([tmp_path], 32, seed=0)
