"""Training command (tiny smoke run) and the real photos' fixed held-out split."""

from __future__ import annotations

import pytest

from dicecam.cli import main
from dicecam.tools.realdata import photo_crops, real_crops, real_data_dir, real_photos


@pytest.mark.slow
def test_smoke_training_writes_a_model_the_reader_loads(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")
    import numpy as np
    import onnxruntime as ort

    from dicecam.tools.train.reader.training import TrainConfig, train_reader
    from dicecam.vision.read.die_reader import DieReader

    out = tmp_path / "reader.onnx"
    lines: list[str] = []
    config = TrainConfig(seed=3, samples=96, val_samples=32, epochs=1, batch=32, workers=1,
                         use_real=False, out=out)
    report = train_reader(config, lines.append)
    assert out.is_file() and report.history and 0.0 <= report.val_accuracy <= 1.0
    assert any("rendered 96/96" in line for line in lines)  # progress was reported
    meta = ort.InferenceSession(str(out)).get_modelmeta().custom_metadata_map
    assert meta["seed"] == "3" and meta["classes"] == "unreadable,1,2,3,4,5,6"
    assert meta["label_smoothing"] == "0.05"  # as every shipped recipe
    readings = DieReader(out).read([np.zeros((40, 40, 3), np.uint8)] * 3)
    assert len(readings) == 3


@pytest.mark.slow
def test_a_wider_reader_trains_and_fine_tunes_at_its_own_widths(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")
    import onnxruntime as ort

    from dicecam.tools.train.from_onnx import conv_widths
    from dicecam.tools.train.reader.training import TrainConfig, train_reader

    wide = tmp_path / "wide.onnx"
    train_reader(TrainConfig(seed=3, samples=64, val_samples=16, epochs=1, batch=32, workers=1,
                             use_real=False, out=wide, widths=(8, 16, 24, 40)), lambda _: None)
    assert conv_widths(wide) == [8, 16, 16, 24, 24, 40]
    meta = ort.InferenceSession(str(wide)).get_modelmeta().custom_metadata_map
    assert meta["widths"] == "8,16,24,40"
    tuned = tmp_path / "tuned.onnx"  # a fine-tune keeps the widths of the file it starts from
    train_reader(TrainConfig(seed=4, samples=64, val_samples=16, epochs=1, batch=32, workers=1,
                             use_real=False, out=tuned, init_onnx=wide), lambda _: None)
    assert conv_widths(tuned) == [8, 16, 16, 24, 24, 40]
    with pytest.raises(ValueError, match="has"):
        train_reader(TrainConfig(seed=4, samples=64, val_samples=16, epochs=1, batch=32,
                                 workers=1, use_real=False, out=tuned, init_onnx=wide,
                                 widths=(16, 32, 64, 128)), lambda _: None)


@pytest.mark.slow
def test_temperature_is_folded_into_the_written_model(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")
    import numpy as np

    from dicecam.tools.train.reader.training import TrainConfig, train_reader
    from dicecam.vision.read.die_reader import DieReader

    probs = {}
    for t in (1.0, 2.0):
        out = tmp_path / f"t{t}.onnx"
        train_reader(TrainConfig(seed=5, samples=64, val_samples=16, epochs=1, batch=32,
                                 workers=1, use_real=False, out=out, label_smoothing=0.0,
                                 temperature=t), lambda _: None)
        reader = DieReader(out)
        reader.turns_below = 0.0
        crops = [np.random.default_rng(i).integers(0, 255, (40, 40, 3), np.uint8)
                 for i in range(4)]
        probs[t] = reader.probabilities(crops)
    logits = np.log(probs[1.0])
    tempered = np.exp(logits / 2.0)
    tempered /= tempered.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(probs[2.0], tempered, atol=1e-4)


@pytest.mark.slow
def test_a_student_learns_the_turned_readings_the_table_reader_makes(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")
    import numpy as np
    import onnxruntime as ort
    import torch

    from dicecam.tools.train.from_onnx import load_folded_onnx
    from dicecam.tools.train.reader.net import ReaderNet
    from dicecam.tools.train.reader.training import TrainConfig, train_reader, turned_reading
    from dicecam.vision.read.die_reader import DieReader

    teacher_file = tmp_path / "teacher.onnx"
    train_reader(TrainConfig(seed=6, samples=64, val_samples=16, epochs=1, batch=32,
                             workers=1, use_real=False, out=teacher_file), lambda _: None)
    # the target is what the runtime reader makes of a crop, turns and all
    reader = DieReader(teacher_file)
    crops = [np.random.default_rng(i).integers(0, 255, (32, 32, 3), np.uint8)
             for i in range(16)]
    teacher = ReaderNet()
    load_folded_onnx(teacher, teacher_file)
    teacher.eval()
    x = torch.from_numpy(reader.preprocess(crops)).permute(0, 3, 1, 2).float() / 255.0
    for line in (0.0, 0.3, 1.01):  # none, some and every crop read in four turns
        reader.turns_below = line
        np.testing.assert_allclose(turned_reading(torch, teacher, x, line).numpy(),
                                   reader.probabilities(crops), atol=1e-5)
    student = tmp_path / "student.onnx"
    lines: list[str] = []
    train_reader(TrainConfig(seed=7, samples=64, val_samples=16, epochs=1, batch=32,
                             workers=1, use_real=False, out=student, init_onnx=teacher_file,
                             turns_teacher=teacher_file, turns_below=0.0), lines.append)
    assert any("turned readings" in line for line in lines)
    meta = ort.InferenceSession(str(student)).get_modelmeta().custom_metadata_map
    assert meta["turns_teacher"] == "teacher.onnx" and meta["turns_below"] == "0.0"
    assert DieReader(student).turns_below == 0.0  # the runtime reads it in one pass


def test_train_command_refuses_bad_numbers(capsys) -> None:
    assert main(["train", "reader", "--samples", "0"]) == 2
    assert "--samples must be at least 1" in capsys.readouterr().err
    assert main(["train", "reader", "--warp", "1.5"]) == 2
    assert "--warp must be from 0 to 1" in capsys.readouterr().err
    assert main(["train", "reader", "--turns-below", "1.5"]) == 2
    assert "--turns-below must be from 0 to 1" in capsys.readouterr().err
    assert main(["train", "reader", "--turns-teacher", "/no/such.onnx"]) == 2
    assert "--turns-teacher: no model" in capsys.readouterr().err
    assert main(["train", "reader", "--widths", "16,32,64"]) == 2
    assert "--widths takes four numbers" in capsys.readouterr().err
    assert main(["train", "reader", "--label-smoothing", "0.5"]) == 2
    assert "--label-smoothing must be from 0 to under 0.5" in capsys.readouterr().err
    assert main(["train", "reader", "--temperature", "0"]) == 2
    assert "--temperature must be from 0.25 to 4" in capsys.readouterr().err
    assert main(["train", "reader", "--device", "tpu"]) == 2
    assert "--device 'tpu': cpu or cuda" in capsys.readouterr().err


needs_real = pytest.mark.skipif(real_data_dir() is None,
                                reason="the real dice photos (../shared/data/real_dice_dev or "
                                       "DICECAM_REAL_DATA) are absent")


@needs_real
def test_held_out_split_is_fixed_and_keeps_sessions_apart() -> None:
    photos = real_photos()
    assert photos == real_photos()
    held = [p for p in photos if p.held_out]
    assert 0.2 < len(held) / len(photos) < 0.4
    webcam = [p for p in photos if p.source == "webcam"]
    for prefix in {p.image.stem.split("_")[0] for p in webcam}:
        session = [p for p in webcam if p.image.stem.split("_")[0] == prefix]
        held_numbers = [int(p.image.stem.split("_")[1]) for p in session if p.held_out]
        tuning_numbers = [int(p.image.stem.split("_")[1]) for p in session if not p.held_out]
        assert held_numbers and tuning_numbers
        assert min(held_numbers) > max(tuning_numbers)  # one number range each
    byler = [p for p in photos if p.source == "byler"]
    runs = [byler[i:i + 10] for i in range(0, len(byler), 10)]
    assert all(len({p.held_out for p in run}) == 1 for run in runs)


@needs_real
def test_real_crops_are_square_with_their_labelled_values() -> None:
    photo = next(p for p in real_photos() if p.source == "webcam")
    crops = photo_crops(photo)
    assert crops
    for crop, value in crops:
        assert crop.shape[0] == crop.shape[1] >= 70 and crop.shape[2] == 3
        assert 1 <= value <= 6


@needs_real
def test_a_photo_that_cannot_be_read_is_skipped_and_said(capsys) -> None:
    # aws/images holds one empty file: the training's real crops go on without it
    broken = [p for p in real_photos() if p.image.stat().st_size == 0]
    if not broken:
        pytest.skip("no empty photo among the real sources")
    crops, values, sources = real_crops(source=broken[0].source)
    assert crops and len(crops) == len(values) == len(sources)
    assert f"skipped: could not read {broken[0].image}" in capsys.readouterr().err


@pytest.mark.slow
def test_detector_smoke_training_by_steps_writes_a_model_the_detector_loads(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")
    import numpy as np

    from dicecam.tools.train.detector.training import synthetic_tile, train_on
    from dicecam.vision.detect.detector import DieDetector

    out = tmp_path / "detector.onnx"
    summary = train_on([synthetic_tile(s) for s in range(3)], [], out, seconds=float("inf"),
                       steps=3, batch=2, log=lambda line: None)
    assert summary["steps"] == 3 and out.is_file()
    found = DieDetector(out, threads=1).detect(np.zeros((120, 200, 3), np.uint8))
    assert found.boxes.shape[1] == 4


@pytest.mark.slow
def test_detector_weights_kept_by_one_run_start_the_next(tmp_path) -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")

    from dicecam.tools.train.detector.training import synthetic_tile, train_on

    tiles = [synthetic_tile(s) for s in range(2)]
    first, second = tmp_path / "first.pt", tmp_path / "second.pt"
    train_on(tiles, [], tmp_path / "a.onnx", seconds=float("inf"), steps=2, batch=2,
             weights_out=first, log=lambda line: None)
    saved = torch.load(first, weights_only=True)
    # No steps: the second run exports exactly what it started from.
    train_on(tiles, [], tmp_path / "b.onnx", seconds=float("inf"), steps=0, batch=2,
             init=first, weights_out=second, log=lambda line: None)
    again = torch.load(second, weights_only=True)
    assert saved.keys() == again.keys()
    assert all(torch.equal(saved[k], again[k]) for k in saved)
    fresh = tmp_path / "fresh.pt"
    train_on(tiles, [], tmp_path / "c.onnx", seconds=float("inf"), steps=0, batch=2,
             weights_out=fresh, seed=9, log=lambda line: None)
    other = torch.load(fresh, weights_only=True)
    assert not all(torch.equal(saved[k], other[k]) for k in saved)


def test_warp_squashes_shifts_and_turns_only_the_share_asked() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    from dicecam.tools.train.reader.training import WARP_ASPECT, _warp

    # a bright square die face in the middle of a dark 32 px crop
    x = torch.zeros(64, 3, 32, 32)
    x[:, :, 10:22, 10:22] = 1.0
    same = _warp(torch, x, torch.Generator().manual_seed(1), 0.0)
    assert torch.equal(same, x)
    warped = _warp(torch, x, torch.Generator().manual_seed(1), 1.0)
    assert warped.shape == x.shape and warped.min() >= 0.0 and warped.max() <= 1.0
    changed = (warped - x).abs().flatten(1).amax(dim=1) > 0.2
    assert changed.float().mean() > 0.9
    # the face stays in the crop and near its middle (a shift of at most 8% of the side)...
    mass = warped[:, 0]
    ys, xs = torch.meshgrid(torch.arange(32.0), torch.arange(32.0), indexing="ij")
    total = mass.sum(dim=(1, 2))
    cy, cx = (mass * ys).sum(dim=(1, 2)) / total, (mass * xs).sum(dim=(1, 2)) / total
    assert ((cy - 15.5).abs() < 4).all() and ((cx - 15.5).abs() < 4).all()
    # ...and some faces come out squashed: wider than high or the other way round
    width = (mass > 0.5).any(dim=1).sum(dim=1).float()
    height = (mass > 0.5).any(dim=2).sum(dim=1).float()
    ratio = torch.maximum(width / height, height / width)
    assert ratio.max() > 1.15 and ratio.max() < WARP_ASPECT * 1.4
    # half the share: about half the crops change
    half = _warp(torch, x, torch.Generator().manual_seed(2), 0.5)
    share = ((half - x).abs().flatten(1).amax(dim=1) > 0).float().mean()
    assert 0.3 < share < 0.7


def test_real_dice_are_cut_again_around_the_detectors_boxes() -> None:
    import numpy as np

    from dicecam.tools.realdata import LabelledDie
    from dicecam.tools.train.reader.detector_crops import cut_found

    frame = np.zeros((200, 300, 3), np.uint8)
    frame[40:80, 40:80] = 255  # a die's face where the detector's box is, off the label's
    truth = [LabelledDie(66.0, 66.0, 44.0, 44.0, 4, box_is_face=False),  # found
             LabelledDie(240.0, 150.0, 30.0, 30.0, 2),  # missed: no box near it
             LabelledDie(150.0, 100.0, 40.0, 40.0, 5)]  # a box on one of its pips only
    boxes = np.array([[60.0, 60.0, 40.0, 40.0], [150.0, 20.0, 20.0, 20.0],
                      [140.0, 90.0, 8.0, 8.0]])
    crops, values = cut_found(frame, truth, boxes)
    assert values == [4]
    assert crops[0].shape[:2] == (56, 56)  # 1.4 x the detector's box, not the label's
    centre = crops[0][28, 28]
    assert (centre == 255).all()
    assert cut_found(frame, truth, np.zeros((0, 4))) == ([], [])


def test_rendered_tables_join_the_detectors_hard_negatives_without_boxes(tmp_path,
                                                                         monkeypatch) -> None:
    import json

    import cv2
    import numpy as np

    from dicecam.tools.train.detector.training import background_pool

    monkeypatch.setenv("DICECAM_REAL_BACKGROUNDS", str(tmp_path / "none"))
    folder = tmp_path / "tables"
    folder.mkdir()
    for index in range(2):
        cv2.imwrite(str(folder / f"{index:06d}.png"), np.full((192, 192, 3), 90, np.uint8))
    (folder / "labels.jsonl").write_text("".join(
        json.dumps({"file": f"{i:06d}.png", "index": i, "label": 0, "kind": "table",
                    "box": None}) + "\n" for i in range(2)))
    pool = background_pool((folder,))
    assert len(pool) == 2
    for image, boxes, known in pool:
        assert max(image.shape[:2]) == 640 and boxes.shape == (0, 4) and known.size == 0
    assert background_pool((folder,), photos=False) and background_pool() == []


def test_crowded_throws_give_crops_of_their_dice_and_join_a_smoke_training(tmp_path) -> None:
    import numpy as np

    from dicecam.tools.train.reader.crowd_crops import PARTY, crowd_crops

    images, values = crowd_crops(1, 40, seed=0)
    assert images.shape == (PARTY, 40, 40, 3) and images.dtype == np.uint8
    assert set(values) <= set(range(1, 7)) and len(set(values)) > 2
    again, _ = crowd_crops(1, 40, seed=0)
    assert np.array_equal(images, again)  # reproducible from the seed
    other, _ = crowd_crops(1, 40, seed=1)
    assert not np.array_equal(images, other)
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    import onnxruntime as ort

    from dicecam.tools.train.reader.training import TrainConfig, train_reader

    out = tmp_path / "reader.onnx"
    config = TrainConfig(seed=3, samples=64, val_samples=16, epochs=1, batch=32, workers=1,
                         use_real=False, out=out, crowd_throws=1, crowd_share=0.5,
                         input_px=40)
    report = train_reader(config, lambda _: None)
    assert report.crowd_crops == PARTY and "crowd_accuracy" in report.history[-1]
    session = ort.InferenceSession(str(out))
    assert session.get_inputs()[0].shape[1:] == [40, 40, 3]  # the crop size asked for
    assert session.get_modelmeta().custom_metadata_map["crowd_crops"] == str(PARTY)


def test_crowded_throws_can_add_places_without_a_die(tmp_path) -> None:
    import numpy as np

    from dicecam.tools.train.reader.crowd_crops import PARTY, crowd_crops

    images, classes = crowd_crops(2, 32, seed=0, negatives=5)
    assert np.count_nonzero(classes == 0) > 0
    assert np.count_nonzero(classes > 0) == 2 * PARTY
    assert images.shape[0] == len(classes) <= 2 * (PARTY + 5)


def test_rendered_tables_give_the_reader_hard_negatives(tmp_path) -> None:
    # whatever the detector boxes on a render is cut as a "not a die" crop (a render of
    # --tables holds no d6; here a drawn photo stands in, so that there are boxes to cut)
    import os

    import cv2
    import numpy as np

    from dicecam.tools.train.reader.hard_negatives import rendered_table_crops
    from tests.support.drawn_dice import drawn_photo

    image, labels = drawn_photo(np.random.default_rng(0))
    cv2.imwrite(str(tmp_path / "000000.png"), image)
    cv2.imwrite(str(tmp_path / "000001.png"), np.full_like(image, 120))  # bare cloth
    said: list[str] = []
    crops = rendered_table_crops([tmp_path], 32, log=said.append)
    assert crops.shape[1:] == (32, 32, 3) and crops.dtype == np.uint8
    assert len(labels) - 1 <= len(crops) <= len(labels) + 1
    # the next stage of a run takes the same crops without detecting again, until a
    # render changes
    again = rendered_table_crops([tmp_path], 32, log=said.append)
    assert np.array_equal(again, crops) and "mined before" in said[-1]
    cv2.imwrite(str(tmp_path / "000001.png"), image)
    os.utime(tmp_path / "000001.png", ns=(1, 1))  # whatever the clock's resolution
    changed = rendered_table_crops([tmp_path], 32, log=said.append)
    assert "mined before" not in said[-1] and len(changed) > len(crops)


def test_recolour_turns_hues_and_keeps_each_pixels_brightness() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    from dicecam.tools.train.reader.training import _recolour

    # a saturated red die (BGR) with dark pips on grey felt
    x = torch.full((64, 3, 32, 32), 0.5)
    x[:, :, 8:24, 8:24] = torch.tensor([0.1, 0.1, 0.8])[:, None, None]
    x[:, :, 14:18, 14:18] = 0.05
    assert torch.equal(_recolour(torch, x, torch.Generator().manual_seed(2), 0.0), x)
    out = _recolour(torch, x, torch.Generator().manual_seed(2), 1.0)
    assert out.min() >= 0.0 and out.max() <= 1.0

    def luma(t):
        return 0.114 * t[:, 0] + 0.587 * t[:, 1] + 0.299 * t[:, 2]

    # brightness is kept wherever no channel was clipped: the pips stay darker than the body
    body = out[:, :, 10, 10]
    assert (luma(out)[:, 15, 15] < luma(out)[:, 10, 10]).all()
    unclipped = ((body > 0) & (body < 1)).all(dim=1)
    assert unclipped.any()
    assert torch.allclose(luma(out)[unclipped, 10, 10], luma(x)[unclipped, 10, 10], atol=1e-5)
    # the body's colour changes (the hue turns, some crops grey), the grey felt stays grey
    assert (body - x[:, :, 10, 10]).abs().amax(dim=1).gt(0.1).float().mean() > 0.8
    assert (body.amax(dim=1) - body.amin(dim=1)).lt(1e-5).any()  # a grey one among them
    assert torch.allclose(out[:, :, 0, 0], x[:, :, 0, 0], atol=1e-5)


def test_soften_blurs_only_the_share_asked_and_keeps_the_mean() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    from dicecam.tools.train.reader.training import _soften

    x = torch.zeros(200, 3, 32, 32)
    x[:, :, ::2, ::2] = 1.0  # the finest detail a 32 px crop holds
    same = _soften(torch, x, torch.Generator().manual_seed(3), 0.0)
    assert torch.equal(same, x)
    out = _soften(torch, x, torch.Generator().manual_seed(3), 0.5)
    soft = (out - x).abs().flatten(1).amax(dim=1) > 0.1
    assert 0.3 < soft.float().mean() < 0.7
    assert (out[soft].amax(dim=(1, 2, 3)) < 0.9).all()  # the detail is gone
    assert torch.allclose(out[soft].mean(dim=(1, 2, 3)), x[soft].mean(dim=(1, 2, 3)), atol=0.03)
    assert torch.equal(out[~soft], x[~soft])


def test_recolour_and_soften_shares_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from dicecam.cli import main

    assert main(["train", "reader", "--recolour", "1.5"]) == 2
    assert "--recolour must be from 0 to 1" in capsys.readouterr().err
    assert main(["train", "reader", "--soften", "-0.1"]) == 2
    assert "--soften must be from 0 to 1" in capsys.readouterr().err
