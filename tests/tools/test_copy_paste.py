"""Copy-paste tiles: real dice cut from their labels onto photos without dice, and the
detector's sizes learnt from pxl's estimated faces."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dicecam.tools.train.detector.copy_paste import (
    DIE_HALF,
    FACE_PX,
    FADE,
    copy_paste_pool,
    copy_paste_tile,
    die_patches,
)
from dicecam.tools.train.detector.training import TILE, real_pool

WHITE = (245, 245, 245)


def _photo_with_dice(faces: list[tuple[int, int, int]]) -> np.ndarray:
    """A dark blue tray with a white square die (a black pip at its centre) per face."""
    image = np.zeros((240, 320, 3), np.uint8)
    image[:] = (120, 30, 10)
    for cx, cy, side in faces:
        image[cy - side // 2:cy + side // 2, cx - side // 2:cx + side // 2] = WHITE
        cv2.circle(image, (cx, cy), 3, (0, 0, 0), -1)
    return image


def _boxes(faces) -> np.ndarray:
    return np.array([(cx, cy, s, s) for cx, cy, s in faces], np.float32)


def test_a_lone_die_is_cut_with_a_soft_edge_and_a_die_in_a_pile_or_at_the_edge_is_not():
    faces = [(60, 60, 30), (200, 120, 30), (232, 120, 30), (310, 200, 30)]
    image = _photo_with_dice(faces)
    known = np.array([True, False, True, True])
    patches = die_patches(image, _boxes(faces), known, "byler")
    # the two touching dice (a pile) and the die cut by the photo's edge are left
    assert len(patches) == 1
    patch = patches[0]
    side = patch.image.shape[0]
    assert side == 2 * int(np.ceil(30 * (DIE_HALF["byler"] + FADE)))
    assert patch.alpha[side // 2, side // 2] == 1.0  # the die is carried whole
    assert patch.alpha[0, 0] == 0.0 and patch.alpha[side // 2, 0] < 0.5  # the tray is not
    assert (patch.face_w, patch.face_h, patch.size_known) == (30.0, 30.0, True)
    # a pxl label's box is the whole die: more of it is opaque
    pxl = die_patches(image, _boxes(faces), known, "pxl")[0]
    assert (pxl.alpha >= 1.0).sum() > (patch.alpha >= 1.0).sum()


def test_pasted_dice_lie_on_the_table_where_their_boxes_say_at_one_size() -> None:
    faces = [(60, 60, 30), (200, 120, 40)]
    image = _photo_with_dice(faces)
    patches = die_patches(image, _boxes(faces), np.array([True, False]), "byler")
    table = np.zeros((TILE, TILE, 3), np.uint8)
    table[:, :, 1] = 200  # a green cloth
    for seed in range(8):
        tile = copy_paste_tile(np.random.default_rng(seed), patches, table)
        assert tile.image.shape == (TILE, TILE, 3) and len(tile.boxes) >= 1
        assert len(tile.boxes) == len(tile.size_known)
        sides = np.maximum(tile.boxes[:, 2], tile.boxes[:, 3])
        assert sides.min() >= FACE_PX[0] * 0.89 and sides.max() <= FACE_PX[1] * 1.11
        # one size per tile (within 0.9-1.1 and the rounding of a small patch to pixels)
        assert sides.max() / sides.min() < 1.4
        for cx, cy, w, h in tile.boxes:
            if 0 <= cx - w / 2 and cx + w / 2 < TILE and 0 <= cy < TILE and min(w, h) >= 12:
                # a die's face where its box is (beside the centre's pip), not the cloth
                b, g, r = tile.image[int(cy), int(cx + w / 3)].astype(int)
                assert min(b, g, r) > 150, (seed, cx, cy)
        # dice never on top of each other
        centres = tile.boxes[:, :2]
        for i in range(len(centres)):
            for j in range(i):
                assert np.hypot(*(centres[i] - centres[j])) >= sides.max()
        cloth = (tile.image[:, :, 1] > 150) & (tile.image[:, :, 0] < 60)
        assert cloth.mean() > 0.3  # the table shows around the dice
        # the die with a size-known label keeps it known, the estimated one does not
        assert set(tile.size_known) <= {True, False}


def test_the_copy_paste_pool_is_seeded_and_empty_without_dice_or_tables() -> None:
    faces = [(60, 60, 30), (200, 120, 40)]
    real = [(_photo_with_dice(faces), _boxes(faces), np.array([True, True]), "webcam")]
    table = np.full((300, 400, 3), 90, np.uint8)
    negatives = [(table, np.zeros((0, 4), np.float32), np.zeros(0, bool))]
    a = copy_paste_pool(3, 5, real, negatives, TILE)
    b = copy_paste_pool(3, 5, real, negatives, TILE)
    assert len(a) == 3
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x.image, y.image) and np.array_equal(x.boxes, y.boxes)
    assert copy_paste_pool(3, 5, real, [], TILE) == []
    assert copy_paste_pool(3, 5, [], negatives, TILE) == []
    crowded = [(_photo_with_dice([(60, 60, 30), (80, 60, 30)]),
                _boxes([(60, 60, 30), (80, 60, 30)]), np.array([True, True]), "pxl")]
    assert copy_paste_pool(3, 5, crowded, negatives, TILE) == []


def test_estimated_sizes_teach_the_size_of_pxl_faces_only(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "real"
    image = _photo_with_dice([(100, 100, 40)])
    # (the first of two webcam frames is a tuning one, the second held out)
    for folder, stem in (("pxl/images", "PXL_20250101_120000000"),
                         ("webcam/Train", "two_1"), ("webcam/Train", "two_2")):
        (root / folder).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / folder / f"{stem}.jpg"), image)
    (root / "pxl" / "labels").mkdir()
    (root / "pxl" / "labels" / "PXL_20250101_120000000.txt").write_text("2 0.3 0.4 0.2 0.2\n")
    for stem in ("two_1", "two_2"):
        (root / "webcam" / "Train" / f"{stem}.txt").write_text("1 0.3 0.4 0.1 0.1\n")
    (root / "MANIFEST.md").write_text("fake\n")
    monkeypatch.setenv("DICECAM_REAL_DATA", str(root))
    plain = {source: known.tolist() for _i, _b, known, source in real_pool()}
    assert plain == {"pxl": [False], "webcam": [False]}
    learnt = {source: known.tolist() for _i, _b, known, source in
              real_pool(estimated_sizes=True)}
    assert learnt == {"pxl": [True], "webcam": [False]}
