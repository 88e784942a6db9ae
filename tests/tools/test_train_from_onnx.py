"""Fine-tuning starts from the shipped models: their ONNX weights go back into torch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dicecam.tools.realdata import BACKGROUND_HELD_OUT_EVERY, background_photos

MODELS = Path(__file__).resolve().parents[2] / "dicecam" / "models"


def _need_training_extra() -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")


def test_the_shipped_detector_comes_back_into_torch_unchanged() -> None:
    _need_training_extra()
    import onnxruntime as ort
    import torch

    from dicecam.tools.train.detector.net import DetectorNet, ExportedDetector
    from dicecam.tools.train.from_onnx import load_folded_onnx

    net = DetectorNet()
    load_folded_onnx(net, MODELS / "detector.onnx")
    net.eval()
    image = np.random.default_rng(3).uniform(0, 255, (1, 3, 96, 160)).astype(np.float32)
    session = ort.InferenceSession(str(MODELS / "detector.onnx"))
    expected = session.run(None, {session.get_inputs()[0].name: image})[0]
    with torch.no_grad():
        got = ExportedDetector(net)(torch.from_numpy(image)).numpy()
    assert np.abs(got - expected).max() < 1e-4


def test_the_shipped_reader_comes_back_into_torch_and_frozen_norms_stay_put() -> None:
    _need_training_extra()
    import onnxruntime as ort
    import torch

    from dicecam.tools.train.from_onnx import freeze_batch_norms, load_folded_onnx
    from dicecam.tools.train.reader.net import Exported, ReaderNet

    net = ReaderNet()
    load_folded_onnx(net, MODELS / "die_reader.onnx")
    crops = np.random.default_rng(4).integers(0, 256, (6, 32, 32, 3)).astype(np.uint8)
    net.train()
    freeze_batch_norms(net)  # a training step's forward pass must not touch the statistics
    with torch.no_grad():
        net(torch.from_numpy(crops).permute(0, 3, 1, 2).float() / 255.0)
    net.eval()
    session = ort.InferenceSession(str(MODELS / "die_reader.onnx"))
    expected = session.run(None, {session.get_inputs()[0].name: crops})[0]
    with torch.no_grad():
        got = Exported(net)(torch.from_numpy(crops)).numpy()
    assert np.abs(got - expected).max() < 1e-4


def test_a_net_of_another_shape_is_refused() -> None:
    _need_training_extra()
    from dicecam.tools.train.detector.net import DetectorNet
    from dicecam.tools.train.from_onnx import load_folded_onnx

    with pytest.raises(ValueError, match="shape|layers"):
        load_folded_onnx(DetectorNet(widths=(8, 16, 24, 32)), MODELS / "detector.onnx")


def test_the_held_out_third_of_every_background_folder_is_never_offered_to_training(
        tmp_path: Path) -> None:
    for folder in ("boards", "carpets"):
        (tmp_path / folder).mkdir()
        for i in range(7):
            (tmp_path / folder / f"{i:02d}.jpg").write_bytes(b"")
    (tmp_path / "MANIFEST.md").write_text("backgrounds")
    every = background_photos(tmp_path)
    held = background_photos(tmp_path, held_out=True)
    trained = background_photos(tmp_path, held_out=False)
    assert sorted(held + trained) == sorted(every)
    assert not set(held) & set(trained)
    assert [p.name for f, p in held if f == "boards"] == [
        f"{i:02d}.jpg" for i in range(7) if i % BACKGROUND_HELD_OUT_EVERY == 2]


def test_a_soup_of_one_model_with_itself_is_that_model_and_bad_weights_are_refused(
        tmp_path: Path) -> None:
    _need_training_extra()
    import onnxruntime as ort

    from dicecam.cli import main
    from dicecam.errors import InputError
    from dicecam.tools.train.detector.soup import soup_weights

    shipped = MODELS / "detector.onnx"
    out = tmp_path / "soup.onnx"
    assert main(["train", "soup", str(shipped), str(shipped), "--weights", "0.7", "0.3",
                 "--out", str(out)]) == 0
    image = np.random.default_rng(5).uniform(0, 255, (1, 3, 64, 96)).astype(np.float32)
    outputs = []
    for path in (shipped, out):
        session = ort.InferenceSession(str(path))
        outputs.append(session.run(None, {session.get_inputs()[0].name: image})[0])
    assert np.abs(outputs[0] - outputs[1]).max() < 1e-4
    with pytest.raises(InputError, match="weights for"):
        soup_weights([shipped, shipped], [1.0])
    with pytest.raises(InputError, match="not all 0"):
        soup_weights([shipped], [0.0])


def test_pasted_tiles_draw_dice_on_the_photos_without_dice() -> None:
    from dicecam.tools.train.detector.training import TILE, pasted_pool

    photo = np.zeros((300, 400, 3), np.uint8)
    photo[:, :, 1] = 200  # a green cloth no drawn table has
    negatives = [(photo, np.zeros((0, 4), np.float32), np.zeros(0, bool))]
    tiles = pasted_pool(3, seed=4, negatives=negatives, workers=1)
    assert len(tiles) == 3
    for tile in tiles:
        assert tile.image.shape == (TILE, TILE, 3) and len(tile.boxes) > 0
        px = tile.image.reshape(-1, 3).astype(int)
        cloth = (px[:, 1] > px[:, 0] + 40) & (px[:, 1] > px[:, 2] + 40)
        assert cloth.mean() > 0.1  # the photo's cloth shows around the dice, cards and lamp
    assert pasted_pool(3, seed=4, negatives=[], workers=1) == []


def test_a_squashed_tile_squeezes_its_dice_boxes_with_its_pixels() -> None:
    from dicecam.tools.train.detector.training import (
        CROP,
        MAX_SQUASH,
        TILE,
        Sample,
        augment,
        squash,
    )

    image = np.zeros((TILE, TILE, 3), np.uint8)
    image[100:140, 60:100] = 255  # a 40 px "die" centred at (80, 120)
    tile = Sample(image, np.array([[80, 120, 40, 40]], np.float32), np.ones(1, bool),
                  np.zeros((TILE, TILE), np.uint8))
    for seed in range(6):
        out = squash(np.random.default_rng(seed), tile)
        h, w = out.image.shape[:2]
        assert min(h, w) >= CROP and (h == TILE) != (w == TILE)  # one axis squeezed
        assert max(TILE / h, TILE / w) <= MAX_SQUASH + 0.01
        ys, xs = np.nonzero(out.image[:, :, 0] > 127)
        cx, cy, bw, bh = out.boxes[0]
        assert abs((xs.min() + xs.max() + 1) / 2 - cx) < 1.0
        assert abs((ys.min() + ys.max() + 1) / 2 - cy) < 1.0
        assert abs(xs.max() + 1 - xs.min() - bw) < 1.5 and abs(ys.max() + 1 - ys.min() - bh) < 1.5
    # no squash share: not one random draw more, so recipes from before --squash reproduce
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    augment(a, tile)
    augment(b, tile, squash_share=0.0)
    assert a.random() == b.random()


def test_a_tilted_tile_stretches_its_dice_and_their_boxes_hold_the_whole_face() -> None:
    from dicecam.tools.train.detector.training import TILE, Sample, augment, tilt

    image = np.zeros((TILE, TILE, 3), np.uint8)
    image[100:140, 60:100] = 255  # a 40 px "die" centred at (80, 120)
    hand = np.zeros((TILE, TILE), np.uint8)
    hand[:, TILE // 2:] = 1  # a hand over the right half: the axis of the turn keeps it there
    tile = Sample(image, np.array([[80, 120, 40, 40]], np.float32), np.ones(1, bool), hand)
    for seed in range(6):
        out = tilt(np.random.default_rng(seed), tile)
        assert out.image.shape == image.shape and out.hand.shape == hand.shape
        ys, xs = np.nonzero(out.image[:, :, 0] > 127)
        cx, cy, bw, bh = out.boxes[0]
        # the box is the one around the turned face, pixel for pixel
        assert abs(xs.min() - (cx - bw / 2)) < 1.5 and abs(xs.max() + 1 - (cx + bw / 2)) < 1.5
        assert abs(ys.min() - (cy - bh / 2)) < 1.5 and abs(ys.max() + 1 - (cy + bh / 2)) < 1.5
        # turned 20-55 degrees: the face is wider than high
        assert bw > bh * 1.05
        assert out.hand[:, TILE // 2 + 2:].all() and not out.hand[:, :TILE // 2 - 2].any()
    # no tilt share: not one random draw more, so recipes from before --tilt reproduce
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    augment(a, tile)
    augment(b, tile, tilt_share=0.0)
    assert a.random() == b.random()


def test_train_detector_refuses_a_squash_share_out_of_range(capsys) -> None:
    from dicecam.cli import main

    assert main(["train", "detector", "--squash", "1.5"]) == 2
    assert "--squash must be a share from 0 to 1" in capsys.readouterr().err
    assert main(["train", "detector", "--tilt", "-0.1"]) == 2
    assert "--tilt must be a share from 0 to 1" in capsys.readouterr().err


def test_crowd_tiles_hold_the_dice_of_crowded_throws_at_the_detectors_scale() -> None:
    from dicecam.tools.train.reader.crowd_crops import PARTY, crowd_tiles, party_throws

    tiles = crowd_tiles(2, seed=0, tile=256, long_side=640)
    assert len(tiles) == 4  # two a throw
    picture, roll = next(party_throws(100_000, 1))
    k = 640 / max(picture.shape[:2])
    assert len(roll.dice) == PARTY
    for image, boxes in tiles:
        assert image.shape == (256, 256, 3) and image.dtype == np.uint8
        assert len(boxes) >= 1 and ((boxes[:, :2] >= 0) & (boxes[:, :2] < 256)).all()
        # a die's box at the frame's scale: the party's dice, shrunk as the detector sees them
        assert np.median(boxes[:, 2]) == pytest.approx(
            np.median([d.w for d in roll.dice]) * k, rel=0.25)
        # the box's middle is on a die, not on the cloth: the cloth is the tile's commonest
        cx, cy = (int(v) for v in boxes[0, :2])
        cloth = np.median(image.reshape(-1, 3), axis=0)
        assert np.abs(image[cy, cx].astype(int) - cloth).sum() > 30
    again = crowd_tiles(2, seed=0, tile=256, long_side=640)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(tiles, again, strict=True))


def test_train_detector_refuses_a_negative_crowd_tile_count(capsys) -> None:
    from dicecam.cli import main

    assert main(["train", "detector", "--crowd-tiles", "-1"]) == 2
    assert "--crowd-tiles must be 0 or more" in capsys.readouterr().err


def test_crowd_tiles_drawn_at_other_scales_shrink_their_boxes_with_their_pixels() -> None:
    from dicecam.tools.train.reader.crowd_crops import crowd_tiles

    plain = crowd_tiles(4, seed=0, tile=256, long_side=640)
    scaled = crowd_tiles(4, seed=0, tile=256, long_side=640, scales=(0.75, 0.8))
    assert len(scaled) == len(plain) == 8
    assert np.median([b[:, 2].mean() for _, b in scaled]) < 0.85 * np.median(
        [b[:, 2].mean() for _, b in plain])
    # a throw drawn smaller than a tile (540 x 0.667 x 0.5 = 180 px high) gives none
    assert crowd_tiles(2, seed=0, tile=256, long_side=640, scales=(0.5, 0.5)) == []


def test_train_detector_refuses_crowd_scales_out_of_order(capsys) -> None:
    from dicecam.cli import main

    assert main(["train", "detector", "--crowd-scales", "1.2", "0.4"]) == 2
    assert "--crowd-scales must be LOW <= HIGH" in capsys.readouterr().err
