"""The damiantab labels kept in the repository (``dicecam/tools/real_labels/damiantab``):
they parse, their boxes lie inside the image, every photo has one, and the loader lists
the source with its fixed split. The photos themselves are only read where
../shared/data is present."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.tools.realdata import (
    DAMIANTAB_LABELS,
    damiantab_held_out,
    real_data_dir,
    real_photos,
    real_unlabelled_dir,
    select_photos,
)

LABEL_FILES = sorted(DAMIANTAB_LABELS.glob("*.txt"))


def _lines(path: Path) -> list[tuple[int, float, float, float, float]]:
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        parts = line.split()
        assert len(parts) == 5, f"{path.name}:{number}: expected 5 fields, got {line!r}"
        rows.append((int(parts[0]), *(float(v) for v in parts[1:])))
    return rows


def test_every_label_line_parses_with_a_class_0_to_5_and_a_box_inside_the_image() -> None:
    assert len(LABEL_FILES) == 80
    assert (DAMIANTAB_LABELS / "README.md").is_file()
    values: Counter = Counter()
    for path in LABEL_FILES:
        rows = _lines(path)
        assert rows, f"{path.name} labels no die"
        for cls, cx, cy, w, h in rows:
            assert 0 <= cls <= 5, f"{path.name}: class {cls}"
            assert w > 0 and h > 0, f"{path.name}: empty box"
            assert cx - w / 2 >= 0 and cx + w / 2 <= 1, f"{path.name}: box leaves the image"
            assert cy - h / 2 >= 0 and cy + h / 2 <= 1, f"{path.name}: box leaves the image"
            values[cls + 1] += 1
    assert values == {value: 40 for value in range(1, 7)}  # 240 dice, as the README says


def test_held_out_part_is_every_fourth_block_of_five() -> None:
    held = [n for n in range(1, 81) if damiantab_held_out(f"dice{n:02d}")]
    assert held == [*range(16, 21), *range(36, 41), *range(56, 61), *range(76, 81)]
    assert not damiantab_held_out("cover")


def test_loader_lists_damiantab_beside_the_development_set(tmp_path: Path,
                                                           monkeypatch) -> None:
    monkeypatch.delenv("DICECAM_REAL_UNLABELLED", raising=False)
    root = tmp_path / "real_dice_dev"
    root.mkdir()
    (root / "MANIFEST.md").write_text("fake\n")
    assert real_unlabelled_dir(root) is None
    assert real_photos(root) == []
    folder = tmp_path / "real_unlabelled" / "damiantab"
    folder.mkdir(parents=True)
    for name in ("dice15", "dice16", "extra"):  # "extra" has no label: not listed
        cv2.imwrite(str(folder / f"{name}.jpg"), np.zeros((12, 9, 3), np.uint8))
    photos = real_photos(root)
    assert [(p.source, p.image.stem, p.held_out) for p in photos] == [
        ("damiantab", "dice15", False), ("damiantab", "dice16", True)]
    assert photos[0].labels == DAMIANTAB_LABELS / "dice15.txt"
    assert select_photos(photos, leave_out=["damiantab"]) == []
    dice = photos[0].dice(907, 1209)
    assert dice and all(d.box_is_face for d in dice)


needs_photos = pytest.mark.skipif(
    real_data_dir() is None or real_unlabelled_dir() is None
    or not (real_unlabelled_dir() / "damiantab").is_dir(),
    reason="the damiantab photos (../shared/data/real_unlabelled/damiantab or "
           "DICECAM_REAL_UNLABELLED) are absent")


@needs_photos
def test_every_photo_has_a_label_file_and_every_label_a_photo() -> None:
    folder = real_unlabelled_dir() / "damiantab"
    images = sorted(folder.glob("*.jpg"))
    assert {p.stem for p in images} == {p.stem for p in LABEL_FILES}
    for image in images[::10]:
        assert cv2.imread(str(image)).shape[:2] == (1209, 907)
    photos = [p for p in real_photos() if p.source == "damiantab"]
    assert len(photos) == 80 and sum(p.held_out for p in photos) == 20
