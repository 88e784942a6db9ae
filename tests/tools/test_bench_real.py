"""The real sources' loader (pxl, the leave-out selection) and ``dicecam bench real``'s
counting, on a tiny fake set of drawn photos made in the test's temp folder."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from dicecam.cli import main
from dicecam.errors import InputError
from dicecam.reading import DieReading, FrameReading
from dicecam.tools.bench.accuracy.real import read_backgrounds, read_sources
from dicecam.tools.realdata import (
    LABEL_ADDENDA,
    LABEL_ERRATA,
    LABEL_VALUE_FIXES,
    PXL_FACE_SHARE,
    UNSEEN_SOURCES,
    LabelledDie,
    LabelledPhoto,
    background_photos,
    photo_crops,
    pxl_held_out,
    pxl_runs,
    real_photos,
    select_photos,
)
from dicecam.vision.read.die_reader import CROP_MARGIN
from dicecam.vision.tally import RealTally, is_asked

# Seven pxl shots: a run of three 2 s apart, a 30 s pause, a run of two, a 25 s pause, and
# a run of two: the third run is held out.
PXL_STEMS = ["PXL_20240219_191021760", "PXL_20240219_191023760", "PXL_20240219_191025000",
             "PXL_20240219_191055000", "PXL_20240219_191057100",
             "PXL_20240219_191122100", "PXL_20240219_191124000"]


def _draw(path: Path, dice: list[tuple[float, float, float]], size=(640, 640)) -> None:
    """A grey photo with a white square (die) at each (cx, cy, side)."""
    image = np.full((size[1], size[0], 3), 90, np.uint8)
    for cx, cy, side in dice:
        cv2.rectangle(image, (int(cx - side / 2), int(cy - side / 2)),
                      (int(cx + side / 2), int(cy + side / 2)), (245, 245, 245), -1)
        cv2.circle(image, (int(cx), int(cy)), max(2, int(side / 8)), (20, 20, 20), -1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def _label(path: Path, lines: list[tuple[int, float, float, float, float]],
           size=(640, 640)) -> None:
    w, h = size
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{v - 1} {cx / w} {cy / h} {bw / w} {bh / h}\n"
                            for v, cx, cy, bw, bh in lines))


@pytest.fixture
def fake_root(tmp_path: Path) -> Path:
    root = tmp_path / "real"
    (root).mkdir()
    (root / "MANIFEST.md").write_text("fake\n")
    for i in range(2):
        stem = f"IMG_{i}"
        _draw(root / "byler" / "images" / "train" / f"{stem}.jpg", [(200, 200, 40)])
        _label(root / "byler" / "labels" / "train" / f"{stem}.txt", [(3, 200, 200, 40, 40)])
    for n in (1, 2):
        _draw(root / "webcam" / "Train" / f"two_{n}.jpg", [(300, 200, 80)], (640, 480))
        _label(root / "webcam" / "Train" / f"two_{n}.txt", [(2, 300, 200, 30, 30)], (640, 480))
    for stem in PXL_STEMS:
        _draw(root / "pxl" / "images" / f"{stem}.jpg", [(320, 320, 50), (100, 500, 40)])
        _label(root / "pxl" / "labels" / f"{stem}.txt",
               [(6, 320, 320, 60, 50), (2, 100, 500, 40, 40)])
    return root


def test_pxl_runs_split_at_pauses_and_every_third_run_is_held_out() -> None:
    runs = pxl_runs(reversed(PXL_STEMS))  # order of the input does not matter
    assert runs == [PXL_STEMS[:3], PXL_STEMS[3:5], PXL_STEMS[5:]]
    assert pxl_held_out(PXL_STEMS) == set(PXL_STEMS[5:])
    # a pause of exactly the gap starts a run; another day too
    assert len(pxl_runs(["PXL_20240219_101000000", "PXL_20240219_101020000"])) == 2
    assert len(pxl_runs(["PXL_20240219_101000000", "PXL_20240220_101001000"])) == 2
    assert len(pxl_runs(["PXL_20240219_101000000", "PXL_20240219_101019900"])) == 1


def test_loader_lists_pxl_with_its_split_and_leaves_a_source_out(fake_root: Path) -> None:
    photos = real_photos(fake_root)
    assert [p.source for p in photos] == ["byler"] * 2 + ["webcam"] * 2 + ["pxl"] * 7
    pxl = [p for p in photos if p.source == "pxl"]
    assert [p.image.stem for p in pxl if p.held_out] == PXL_STEMS[5:]
    without = select_photos(photos, leave_out=["pxl"])
    assert {p.source for p in without} == {"byler", "webcam"} and len(without) == 4
    only = select_photos(photos, sources=["pxl", "webcam"], leave_out=["webcam"],
                         held_out=False)
    assert [p.image.stem for p in only] == PXL_STEMS[:5]
    with pytest.raises(InputError, match="unknown real source 'pixel'"):
        select_photos(photos, leave_out=["pixel"])


def test_pxl_face_is_estimated_from_the_whole_die_box(fake_root: Path) -> None:
    photo = next(p for p in real_photos(fake_root) if p.source == "pxl")
    dice = photo.dice(640, 640)
    assert dice[0] == LabelledDie(320, 320, 60 * PXL_FACE_SHARE, 50 * PXL_FACE_SHARE, 6,
                                  None, False)
    crops = photo_crops(photo)
    assert [v for _, v in crops] == [6, 2]
    side = round(60 * PXL_FACE_SHARE * CROP_MARGIN)
    assert crops[0][0].shape == (side, side, 3)
    byler = next(p for p in real_photos(fake_root) if p.source == "byler")
    assert byler.dice(640, 640)[0].box_is_face  # unchanged for byler


def test_a_label_line_found_to_mark_no_die_is_dropped(tmp_path: Path) -> None:
    """webcam's five_1 labels a "1" on bare wood beside its one die: the line is read as
    no die, the photo's other line as written; the same line elsewhere stays."""
    (line,) = LABEL_ERRATA[("webcam", "five_1")]
    labels = tmp_path / "five_1.txt"
    labels.write_text(f"{line}\n4 0.560937 0.450000 0.093750 0.141667\n")
    photo = LabelledPhoto("webcam", tmp_path / "five_1.jpg", labels, False)
    assert [d[0] for d in photo.boxes(640, 480)] == [5]
    assert photo.die_lines() == [1]  # a colour label still names the 5 by its line
    other = LabelledPhoto("webcam", tmp_path / "five_2.jpg", labels, False)
    assert [d[0] for d in other.boxes(640, 480)] == [1, 5]


def test_a_die_the_labels_left_out_is_added_and_a_wrong_value_fixed(tmp_path: Path) -> None:
    """byler's IMG_20191209_095439 labels a die showing four pips 5; IMG_20191208_112342
    leaves a green 3 out: read with the fix and the added line, the colour labels' line
    numbers unchanged."""
    (wrong, four), = LABEL_VALUE_FIXES[("byler", "IMG_20191209_095439")].items()
    labels = tmp_path / "IMG_20191209_095439.txt"
    labels.write_text(f"0 0.5 0.4 0.07 0.07\n{wrong}\n")
    photo = LabelledPhoto("byler", tmp_path / "IMG_20191209_095439.jpg", labels, False)
    assert [d[0] for d in photo.boxes(640, 640)] == [1, four] and four == 4
    assert photo.die_lines() == [0, 1]
    (added,) = LABEL_ADDENDA[("byler", "IMG_20191208_112342")]
    labels.write_text("3 0.366 0.236 0.06 0.06\n")
    photo = LabelledPhoto("byler", tmp_path / "IMG_20191208_112342.jpg", labels, False)
    assert [d[0] for d in photo.boxes(640, 640)] == [4, 3]
    assert photo.die_lines() == [0]
    assert photo.dice(640, 640)[1].cx == pytest.approx(float(added.split()[1]) * 640)
    # bench teach confirms the same dice a player would: the added one too
    from dicecam.tools.bench.speed.teach_live import photo_labels
    assert [(b.value, round(b.cx)) for b in photo_labels(photo, 640, 640)] == [
        (4, round(0.366 * 640)), (3, round(float(added.split()[1]) * 640))]


def test_every_label_fix_names_a_line_the_shared_labels_hold() -> None:
    """Each fixed value's line is in its photo's labels as written, and the fix changes
    it: a fix that matches no line would leave the wrong label standing unseen."""
    from dicecam.tools.realdata import real_data_dir, real_photos

    root = real_data_dir()
    if root is None:
        pytest.skip("the real development photos are not here (../shared/data/real_dice_dev)")
    photos = {(p.source, p.image.stem): p for p in real_photos(root)}
    for (source, stem), fixes in LABEL_VALUE_FIXES.items():
        lines = photos[(source, stem)].labels.read_text().splitlines()
        for line, value in fixes.items():
            assert line in lines, (source, stem, line)
            assert int(line.split()[0]) + 1 != value, (source, stem, line)


def _die(x, y, value, conf, size=30.0) -> DieReading:
    return DieReading(x=x, y=y, w=size, h=size, value=value, colour=None, confidence=conf,
                      value_confidence=conf)


def test_tally_counts_silent_errors_asked_dice_and_silent_false_dice() -> None:
    truth = [LabelledDie(100, 100, 30, 30, 3), LabelledDie(200, 100, 30, 30, 4),
             LabelledDie(300, 100, 30, 30, 5), LabelledDie(400, 100, 30, 30, 6),
             LabelledDie(500, 100, 30, 30, 1), LabelledDie(600, 100, 30, 30, 2)]
    found = [
        _die(102, 101, 3, 0.99),   # right, sure
        _die(199, 99, 5, 0.95),    # wrong, sure: silent
        _die(300, 103, 2, 0.50),   # wrong, asked
        _die(401, 100, 6, 0.60),   # right, asked
        _die(500, 100, None, 0.97),  # unreadable: wrong and asked whatever its confidence
        # the die at x=600 is missed
        _die(600, 400, 5, 0.93),   # false, silent
        _die(700, 400, 1, 0.40),   # false, asked
    ]
    tally = RealTally()
    outcomes = tally.add(truth, found, colour_read=False)
    row = tally.as_dict()
    assert (row["dice"], row["found"], row["matched"]) == (6, 7, 5)
    assert row["recall"] == round(5 / 6, 4) and row["precision"] == round(5 / 7, 4)
    assert row["value_accuracy"] == 0.4
    assert row["silent_errors"] == 1 and row["silent_share"] == 0.2
    assert row["asked"] == 3 and row["asked_share"] == 0.6
    assert (row["false_dice"], row["false_silent"]) == (2, 1)
    assert row["wrong_values"] == {"4->5": 1, "5->2": 1, "1->-": 1}
    assert row["colour_accuracy"] is None
    kinds = sorted(o.kind for o in outcomes)
    assert kinds == sorted(["right", "silent", "wrong_asked", "right_asked", "wrong_asked",
                            "missed", "false_silent", "false"])


def test_colour_labels_count_and_a_sure_wrong_colour_is_silent() -> None:
    truth = [LabelledDie(100, 100, 30, 30, 3, "red"), LabelledDie(200, 100, 30, 30, 4, "blue")]
    found = [DieReading(100, 100, 30, 30, 3, "red", 0.95, value_confidence=0.95),
             DieReading(200, 100, 30, 30, 4, "red", 0.95, value_confidence=0.95)]
    tally = RealTally()
    tally.add(truth, found, colour_read=True)
    row = tally.as_dict()
    assert row["colour_accuracy"] == 0.5 and row["silent_errors"] == 1
    assert row["value_accuracy"] == 1.0
    # with a colour stage a die without a colour is asked (needs_check)
    no_colour = DieReading(1, 1, 3, 3, 3, None, 0.99, value_confidence=0.99)
    assert is_asked(no_colour, colour_read=True) and not is_asked(no_colour, colour_read=False)


class FakePipeline:
    """Reads every photo as one sure 6 at (320, 320) and one sure 1 on the table (none
    once it holds a picture of the empty table)."""

    read_colours = None
    empty_table = None

    def read_frame(self, frame):
        h, w = frame.shape[:2]
        if self.empty_table is not None:
            return FrameReading(width=w, height=h, dice=())
        return FrameReading(width=w, height=h, dice=(
            _die(320, 322, 6, 0.99, 40), _die(600, 40, 1, 0.95, 40)))


def test_read_sources_groups_by_source_and_held_out_part(fake_root: Path) -> None:
    photos = select_photos(real_photos(fake_root), sources=["pxl"])
    groups, worst = read_sources(FakePipeline(), photos, colour_read=False)
    assert set(groups) == {"pxl", "pxl_held_out"}
    assert groups["pxl"].photos == 7 and groups["pxl_held_out"].photos == 2
    row = groups["pxl"].as_dict()
    assert row["recall"] == 0.5 and row["value_accuracy"] == 1.0
    assert row["false_silent"] == 7 and row["silent_errors"] == 0
    assert len(worst) == 7 and all(badness > 0 for badness, *_ in worst)
    background = fake_root.parent / "bg"
    _draw(background / "carpet" / "a.jpg", [])
    (background / "MANIFEST.md").write_text("fake\n")
    images = background_photos(background)
    assert images == [("carpet", background / "carpet" / "a.jpg")]
    pipeline = FakePipeline()
    bg, _ = read_backgrounds(pipeline, images, colour_read=False)
    assert bg["bg:carpet"].as_dict()["false_dice"] == 2
    assert bg["bg:all, later, empty table"].as_dict()["false_dice"] == 0
    assert pipeline.empty_table is None  # the bench's picture is taken away again


def test_bench_real_command_prints_json_and_annotates(fake_root, tmp_path, monkeypatch,
                                                      capsys) -> None:
    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    monkeypatch.setenv("DICECAM_REAL_BACKGROUNDS", str(tmp_path / "none"))
    out = tmp_path / "annotated"
    assert main(["bench", "real", "--source", "pxl", "--source", "byler", "--limit", "6",
                 "--rendered", "2", "--json", "--annotate", str(out)]) == 0
    figures = json.loads(capsys.readouterr().out)
    # --limit 6: the first six pxl shots, one of them held out; no byler photo is; the
    # held-out one seen tilted (its dice too small to blow up into a close-up)
    assert list(figures["groups"]) == ["pxl", "pxl_held_out", "byler", "rendered:boards",
                                       "rendered:drawn table",
                                       "rendered:all, later, empty table", "tilt:pxl"]
    assert figures["groups"]["tilt:pxl"]["photos"] == 1
    assert figures["groups"]["tilt:pxl"]["dice"] == figures["groups"]["pxl_held_out"]["dice"]
    assert figures["groups"]["rendered:boards"]["photos"] == 1
    assert figures["groups"]["pxl"]["photos"] == 6 and figures["groups"]["pxl"]["dice"] == 12
    assert figures["groups"]["pxl_held_out"]["photos"] == 1
    assert all(p.suffix == ".png" for p in out.iterdir())
    assert main(["bench", "real", "--source", "dice"]) == 2
    assert "unknown real source 'dice'" in capsys.readouterr().err
    assert main(["bench", "real", "--rendered", "-1"]) == 2
    assert "--rendered must be 0 or more" in capsys.readouterr().err


def test_train_commands_refuse_an_unknown_source(capsys) -> None:
    assert main(["train", "reader", "--leave-out", "nowhere", "--smoke"]) == 2
    assert "unknown real source 'nowhere'" in capsys.readouterr().err
    assert main(["train", "detector", "--leave-out", "nowhere", "--steps", "1"]) == 2
    assert "unknown real source 'nowhere'" in capsys.readouterr().err


def test_bench_teach_refuses_a_base_model_that_is_not_there(fake_root, tmp_path, monkeypatch,
                                                            capsys) -> None:
    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    missing = tmp_path / "leave_pxl_out.onnx"
    assert main(["bench", "teach", "--source", "pxl", "--reader", str(missing)]) == 2
    assert f"no model at {missing}" in capsys.readouterr().err
    assert main(["bench", "teach", "--source", "pxl", "--detector", str(missing)]) == 2
    assert f"no model at {missing}" in capsys.readouterr().err


def test_bench_teach_refuses_learning_without_steps(fake_root, monkeypatch, capsys) -> None:
    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    assert main(["bench", "teach", "--source", "pxl", "--detector-steps", "0"]) == 2
    assert "--detector-steps must be at least 1" in capsys.readouterr().err


def test_bench_teach_learns_with_the_seed_it_is_given(fake_root, monkeypatch, capsys) -> None:
    from dicecam.tools.bench.accuracy import teach

    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    seen = []

    def bench_source(source, root, settings, curve, log, base, detector_settings):
        seen.append((source, settings.seed, settings.steps, detector_settings.seed))
        return {"dice": 0}

    monkeypatch.setattr(teach, "bench_source", bench_source)
    assert main(["bench", "teach", "--source", "pxl", "--json"]) == 0
    assert main(["bench", "teach", "--source", "pxl", "--seed", "2", "--steps", "7",
                 "--json"]) == 0
    assert seen == [("pxl", 0, teach.LearnSettings.steps, 0), ("pxl", 2, 7, 2)]
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {"pxl": {"dice": 0}}


def test_bench_reader_refuses_a_model_that_is_not_there(tmp_path, capsys) -> None:
    missing = tmp_path / "wider.onnx"
    assert main(["bench", "reader", "--no-real", "--frames", "1", "--reader",
                 str(missing)]) == 2
    assert f"no model at {missing}" in capsys.readouterr().err


def _table_renders(folder: Path, count: int = 2) -> Path:
    """A folder as `train render --tables` writes it: plain cloth, no die on it."""
    folder.mkdir(parents=True)
    lines = []
    for index in range(count):
        name = f"{index:06d}.png"
        cv2.imwrite(str(folder / name), np.full((192, 192, 3), 60 + 40 * index, np.uint8))
        lines.append(json.dumps({"file": name, "index": index, "seed": 21, "label": 0,
                                 "kind": "table", "box": None}))
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n")
    return folder


@pytest.mark.slow
def test_bench_loo_trains_the_reader_without_the_source_once_and_reads_with_both(
        fake_root, tmp_path, monkeypatch, capsys) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed (the optional train extra)")
    import onnxruntime as ort

    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    tables = _table_renders(tmp_path / "TABLES")
    work = tmp_path / "work"
    argv = ["bench", "loo", "--source", "webcam", "--work", str(work), "--tables", str(tables),
            "--threads", "1", "--smoke", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    twin = work / "twin-webcam-smoke.onnx"
    assert figures["reader"] == str(twin) and figures["detector"] == "shipped"
    assert list(figures["groups"]) == ["webcam, shipped", "webcam, without webcam",
                                       "webcam_held_out, shipped",
                                       "webcam_held_out, without webcam"]
    assert figures["groups"]["webcam, without webcam"]["dice"] == 2
    assert figures["groups"]["webcam_held_out, shipped"]["dice"] == 1
    meta = ort.InferenceSession(str(twin)).get_modelmeta().custom_metadata_map
    assert set(meta["left_out"].split(",")) == {"webcam", *UNSEEN_SOURCES}
    assert meta["label_smoothing"] == "0.0" and meta["temperature"] == "1.5"
    # made as the shipped reader: stage 5 fine-tuned from 4, from 3, from 1
    assert meta["fine_tuned_from"] == "twin-webcam-smoke-stage4.onnx"
    stage3 = work / "twin-webcam-smoke-stage3.onnx"
    stage3_meta = ort.InferenceSession(str(stage3)).get_modelmeta().custom_metadata_map
    assert stage3_meta["fine_tuned_from"] == "twin-webcam-smoke-stage1.onnx"
    assert stage3_meta["label_smoothing"] == "0.05" and stage3_meta["temperature"] == "1.0"
    # the twin is kept and read again, not trained again
    made = twin.stat().st_mtime_ns
    assert main(argv) == 0
    assert "reusing" in capsys.readouterr().err and twin.stat().st_mtime_ns == made


def test_a_stopped_twin_goes_on_from_the_last_stage_it_wrote(tmp_path, monkeypatch) -> None:
    from dicecam.tools.bench.accuracy import loo

    made = []

    def train_stage(recipe, source, out, tables, cache, threads, smoke, init=None,
                    device="cpu"):
        made.append((out.name, init.name if init else None, bool(tables)))
        out.write_bytes(b"model")

    monkeypatch.setattr(loo, "train_stage", train_stage)
    twin = tmp_path / "twin-pxl.onnx"
    (tmp_path / "twin-pxl-stage1.onnx").write_bytes(b"model")
    (tmp_path / "twin-pxl-stage3.onnx").write_bytes(b"model")
    loo.train_twin("pxl", twin, [tmp_path / "T"], tmp_path / "c", 1, False, False, False,
                   lambda _: None)
    assert made == [("twin-pxl-stage4.onnx", "twin-pxl-stage3.onnx", True),
                    ("twin-pxl.onnx", "twin-pxl-stage4.onnx", True)]
    made.clear()
    loo.train_twin("pxl", twin, [], tmp_path / "c", 1, False, False, True, lambda _: None)
    assert [name for name, _, _ in made] == ["twin-pxl-stage1.onnx", "twin-pxl-stage3.onnx",
                                             "twin-pxl-stage4.onnx", "twin-pxl.onnx"]
    assert made[0][1] is None  # stage 1 from scratch
    # --one-stage: the quicker twin, one run from scratch, under its own name
    recipes = []
    monkeypatch.setattr(loo, "train_stage", lambda recipe, *a, **k: recipes.append(recipe))
    assert loo.twin_path(tmp_path, "pxl", True, False).name == "L-pxl.onnx"
    loo.train_twin("pxl", tmp_path / "L-pxl.onnx", [], tmp_path / "c", 1, False, True, False,
                   lambda _: None)
    assert recipes == [loo.LOO_RECIPE]



def test_bench_loo_reads_the_unseen_source_with_the_shipped_reader_alone(
        fake_root, tmp_path, monkeypatch, capsys) -> None:
    unlabelled = tmp_path / "unlabelled"
    for stem in ("dice01", "dice02"):  # their labels are the repository's own
        _draw(unlabelled / "damiantab" / f"{stem}.jpg", [(300, 200, 80)], (640, 480))
    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    monkeypatch.setenv("DICECAM_REAL_UNLABELLED", str(unlabelled))
    assert main(["bench", "loo", "--source", "damiantab", "--work", str(tmp_path / "w"),
                 "--json"]) == 0
    captured = capsys.readouterr()
    figures = json.loads(captured.out)
    assert "no shipped model saw damiantab" in captured.err
    assert figures["reader"] == "shipped" and not (tmp_path / "w").exists()
    assert list(figures["groups"])[0] == "damiantab, shipped"
    assert figures["groups"]["damiantab, shipped"]["photos"] == 2
    assert all(name.endswith(", shipped") for name in figures["groups"])


def test_bench_loo_refuses_tables_that_were_never_rendered(fake_root, tmp_path, monkeypatch,
                                                            capsys) -> None:
    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    assert main(["bench", "loo", "--source", "byler", "--tables", str(tmp_path)]) == 2
    assert f"--tables: no renders in {tmp_path}" in capsys.readouterr().err
    assert main(["bench", "loo", "--source", "byler", "--threads", "0"]) == 2
    assert "--threads must be at least 1" in capsys.readouterr().err
    assert main(["bench", "loo", "--source", "byler", "--device", "tpu"]) == 2
    assert "--device 'tpu': cpu or cuda" in capsys.readouterr().err
    monkeypatch.setenv("DICECAM_REAL_UNLABELLED", str(tmp_path / "none"))
    assert main(["bench", "loo", "--source", "damiantab"]) == 2  # its photos are not here
    assert "no labelled photos of damiantab were found" in capsys.readouterr().err


def test_bench_loo_says_torch_is_missing_before_rendering_anything(fake_root, tmp_path,
                                                                   monkeypatch, capsys) -> None:
    import importlib.util

    monkeypatch.setenv("DICECAM_REAL_DATA", str(fake_root))
    real_find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "torch" else real_find(name, *a))
    work = tmp_path / "work"
    assert main(["bench", "loo", "--source", "pxl", "--work", str(work)]) == 2
    assert "training the twin needs torch" in capsys.readouterr().err
    assert not work.exists()  # no render was started
