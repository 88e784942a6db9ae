"""A table's reader learns dice the shipped one cannot read, stays calibrated, and is used
only where its held-back dice say it reads better."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import onnx
import pytest

from dicecam.teach import learner
from dicecam.teach.learn.reader import (
    LearnedReader,
    LearnSettings,
    ReaderCheck,
    check_reader,
    cut_stored_crop,
    fit_temperature,
    learn_reader,
    runtime_crop,
    split_held_back,
)
from dicecam.teach.learner import learn_table
from dicecam.teach.store import TableStore
from dicecam.vision.detect.detector import MODEL_PATH as DETECTOR_MODEL
from dicecam.vision.read.die_reader import CROP_MARGIN, TRAINED_MODEL, DieReader, cut_crop
from tests.support.drawn_dice import drawn_examples, drawn_photo

QUICK = LearnSettings(steps=30, batch=32, replay=8)


def test_marbled_red_dice_are_learnt_in_a_few_steps(tmp_path: Path) -> None:
    learnt = learn_reader(drawn_examples(48, seed=2), settings=QUICK, work_dir=tmp_path)
    path = tmp_path / "table.onnx"
    onnx.save(learnt.model, str(path))
    unseen = drawn_examples(60, seed=1)  # other dice of the same kind
    shipped = check_reader(DieReader(TRAINED_MODEL), unseen)
    table = check_reader(DieReader(path), unseen)
    assert shipped.asked > 0.2  # the shipped reader is unsure of these dice
    assert table.right > shipped.right + 0.2
    assert table.silent <= shipped.silent + 1 / 60
    assert learnt.better and learnt.learned.right >= learnt.shipped.right


def test_the_stored_crop_holds_the_runtime_crop() -> None:
    frame = np.random.default_rng(0).integers(0, 256, (200, 300, 3), dtype=np.uint8)
    stored = cut_stored_crop(frame, 150, 100, 40, 36)
    runtime = cut_crop(frame, 150, 100, 40, 36)
    inner = runtime_crop(stored)
    assert abs(inner.shape[0] - runtime.shape[0]) <= 1
    assert runtime.shape[0] == round(40 * CROP_MARGIN)
    assert np.abs(inner[:50, :50].astype(int) - runtime[:50, :50].astype(int)).mean() < 30


def test_every_fourth_roll_is_held_back_whole() -> None:
    examples = [replace(e, roll=f"roll{i // 3}") for i, e in enumerate(drawn_examples(24, 3))]
    learn, held = split_held_back(examples)
    assert [e.roll for e in held] == ["roll3"] * 3 + ["roll7"] * 3
    assert len(learn) == 18
    alone = drawn_examples(8, seed=3)  # no roll: each die a roll of its own
    assert len(split_held_back(alone)[1]) == 2


def test_too_few_held_back_dice_judge_nothing(tmp_path: Path) -> None:
    learnt = learn_reader(drawn_examples(20, seed=2), settings=LearnSettings(steps=2),
                          work_dir=tmp_path)
    assert learnt.learned.dice == 5 and not learnt.better


def test_an_overconfident_reader_is_cooled_and_never_sharpened() -> None:
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 7, 200)
    sure_but_often_wrong = np.where(rng.random(200) < 0.6, labels, (labels + 1) % 7)
    logits = np.eye(7)[sure_but_often_wrong] * 12.0
    assert fit_temperature(logits, labels) > 2.0
    timid_but_right = np.eye(7)[labels] * 1.0
    assert fit_temperature(timid_but_right, labels) == 1.0  # a few right dice prove little
    # with many held back, it may sharpen as far as the trusted floor, no further
    assert fit_temperature(timid_but_right, labels, floor=0.8) == pytest.approx(0.8)
    assert fit_temperature(logits[:0], labels[:0]) == 1.0


def _fixed_learning(right: float, silent: float, asked: float):
    def fake(examples, **kwargs):
        model = onnx.load(str(TRAINED_MODEL))
        return LearnedReader(model, 1.0, ReaderCheck(10, 0.8, 0.0, 0.2),
                             ReaderCheck(10, right, silent, asked), len(examples), 0.1)
    return fake


@pytest.mark.parametrize("right,silent,asked,used", [
    (0.9, 0.0, 0.1, True),  # more right, no more silent: used
    (0.95, 0.05, 0.0, False),  # more right but a silent error more: kept, not used
    (0.8, 0.0, 0.2, False),  # no better: kept, not used
])
def test_a_version_is_kept_always_and_used_only_where_better(
        monkeypatch: pytest.MonkeyPatch, right, silent, asked, used) -> None:
    store = TableStore("t")
    for example in drawn_examples(14, seed=5):
        store.add(example.crop, (50, 50, 30, 30), (100, 100), example.value, "confirmed")
    monkeypatch.setattr(learner, "learn_reader", _fixed_learning(right, silent, asked))
    learning = learn_table(store)
    assert store.reader_versions() == [learning.version]
    assert learning.used is used
    assert (store.reader_in_use() is not None) is used
    assert store.reader_card(learning.version)["held_back"]["learned"]["right"] == right


def test_too_few_dice_teach_nothing_yet() -> None:
    store = TableStore("t")
    for example in drawn_examples(5, seed=6):
        store.add(example.crop, (50, 50, 30, 30), (100, 100), example.value, "confirmed")
    with pytest.raises(ValueError, match="learns from"):
        learn_table(store)
    assert store.reader_versions() == []


def test_a_table_learns_from_the_base_models_it_is_given(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # bench teach starts a table from a source's leave-one-out models: the learning must
    # start from them, and the card say so
    store = TableStore("t")
    for example in drawn_examples(14, seed=5):
        store.add(example.crop, (50, 50, 30, 30), (100, 100), example.value, "confirmed")
    base = tmp_path / "leave_one_out.onnx"
    base.write_bytes(TRAINED_MODEL.read_bytes())
    bases = []

    def fake(examples, *, base_model, **kwargs):
        bases.append(base_model)
        return _fixed_learning(0.9, 0.0, 0.1)(examples)
    monkeypatch.setattr(learner, "learn_reader", fake)
    learning = learn_table(store, base_reader=base)
    assert bases == [base]
    assert store.reader_card(learning.version)["base"] == "leave_one_out.onnx"


def test_whole_frames_teach_what_is_not_a_die_clear_of_their_dice() -> None:
    rng = np.random.default_rng(5)
    store = TableStore("carpet")
    frame, labels = drawn_photo(rng)
    store.add_frame(frame, [(cx, cy, w, h) for _, cx, cy, w, h in labels], [], complete=True)
    store.add_frame(frame, [], [], complete=False)  # a frame with dice nobody named
    dice = drawn_examples(12, seed=6)
    taught, frames = learner._with_frame_negatives(store, dice, DETECTOR_MODEL, seed=0)
    negatives = taught[len(dice):]
    assert len(frames) == 1 and len(frames[0].dice) == len(labels)  # the whole frame only
    assert taught[:len(dice)] == dice
    assert 0 < len(negatives) <= len(dice) * learner.FRAME_NEGATIVES_PER_DIE
    assert {(e.value, e.roll) for e in negatives} == {(0, "frame:" + store.frames()[0].file.name)}


def test_pieces_of_a_frame_keep_clear_of_its_dice() -> None:
    image = np.zeros((480, 640, 3), np.uint8)
    known = [(100.0, 100.0, 40.0), (320.0, 240.0, 40.0), (500.0, 400.0, 40.0)]
    for x, y, side in known:
        image[int(y - side / 2):int(y + side / 2), int(x - side / 2):int(x + side / 2)] = 255
    pieces = learner._table_pieces(image, known, 30, np.random.default_rng(1), "r")
    assert len(pieces) == 30
    assert all(runtime_crop(p.crop).max() == 0 for p in pieces)  # no die in what is read
    sides = [p.crop.shape[0] / 2 for p in pieces]  # a stored crop is twice its box
    assert 8 <= min(sides) < 20 < max(sides) <= 40  # a fifth of a die's side to a whole one


def test_the_frames_looked_at_for_what_is_not_a_die_are_bounded(
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = TableStore("long-evenings")
    frame, labels = drawn_photo(np.random.default_rng(7))
    for _ in range(5):
        store.add_frame(frame, [(cx, cy, w, h) for _, cx, cy, w, h in labels], [],
                        complete=True)
    monkeypatch.setattr(learner, "NEGATIVE_FRAMES", 3)
    taught, _ = learner._with_frame_negatives(store, drawn_examples(40, seed=8),
                                              DETECTOR_MODEL, seed=0)
    names = {e.roll for e in taught if e.roll and e.roll.startswith("frame:")}
    assert names == {f"frame:{store.frames()[i].file.name}" for i in (0, 2, 4)}
