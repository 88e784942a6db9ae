"""A learning is used only where the whole table reads its held-back frames worse on nothing
(issue 58: the learnt detector passed its own check on aws, and the table then read more
dice wrong without asking)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from dicecam.teach.store import TableStore
from dicecam.teach.table_check import (
    Models,
    TableCheck,
    check_table,
    choose_models,
    held_back_frames,
)
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.detector import MODEL_PATH as DETECTOR_MODEL
from dicecam.vision.read.die_reader import TRAINED_MODEL
from tests.support.drawn_dice import drawn_photo

SHIPPED = Models(TRAINED_MODEL, DETECTOR_MODEL)


def _table_with_frames(name: str, frames: int, seed: int) -> TableStore:
    store = TableStore(name)
    rng = np.random.default_rng(seed)
    for k in range(frames):
        frame, labels = drawn_photo(rng)
        store.add_frame(frame, [(cx, cy, w, h) for _, cx, cy, w, h in labels], [],
                        complete=True, values=[v for v, *_ in labels], roll=f"photo-{k}")
    return store


def _changed_reader(folder: Path, name: str, change) -> Path:
    model = onnx.load(str(TRAINED_MODEL))
    for tensor in model.graph.initializer:
        if tensor.name in ("net.head.weight", "net.head.bias"):
            tensor.CopyFrom(numpy_helper.from_array(
                change(numpy_helper.to_array(tensor)), tensor.name))
    path = folder / f"{name}.onnx"
    onnx.save(model, str(path))
    return path


def _muddled_reader(folder: Path) -> Path:
    """The shipped reader with its classes shifted by one: every value read wrong, surely."""
    return _changed_reader(folder, "muddled", lambda w: np.roll(w, 1, axis=0))


def _timid_reader(folder: Path) -> Path:
    """The shipped reader at a tenth of its logits: right as often, sure of nothing (a
    taught table's reader reads again what the first reader is unsure of: here, all)."""
    return _changed_reader(folder, "timid", lambda w: w / 10.0)


def test_a_check_names_every_figure_it_is_worse_on() -> None:
    base = TableCheck(4, 20, recall=0.9, precision=0.9, value=0.95, silent=0.02, asked=0.1)
    assert base.worse_on(base) == ()
    worse = TableCheck(4, 20, recall=0.95, precision=0.8, value=0.95, silent=0.05, asked=0.05)
    assert worse.worse_on(base) == ("precision", "silent")
    assert base.worse_on(worse) == ("recall", "asked")


def test_the_frames_checked_are_the_held_back_rolls_known_whole() -> None:
    store = _table_with_frames("felt", 3, seed=1)
    store.add_frame(np.zeros((48, 64, 3), np.uint8), [(10, 10, 8, 8)], [], complete=True)
    frames = held_back_frames(store.frames(), {"photo-1", "photo-2"})
    assert [f.roll for f in frames] == ["photo-1", "photo-2"]  # no values, no roll: never
    assert all(len(f.values) == len(f.dice) == 6 for f in frames)


def test_a_reader_the_table_reads_worse_with_is_not_used(tmp_path: Path) -> None:
    store = _table_with_frames("felt", 3, seed=2)
    frames = held_back_frames(store.frames(), {"photo-0", "photo-1", "photo-2"})
    shipped = check_table(PipelineConfig(), frames)
    assert shipped.dice == 18 and shipped.recall == 1.0 and shipped.value >= 0.9
    muddled = Models(_muddled_reader(tmp_path), DETECTOR_MODEL)
    copy = tmp_path / "copy.onnx"
    copy.write_bytes(TRAINED_MODEL.read_bytes())
    timid = Models(_timid_reader(tmp_path), DETECTOR_MODEL)
    assert check_table(PipelineConfig(reader_path=timid.reader), frames).asked == 1.0
    baselines = {"shipped": timid, "in_use": timid}
    choice = choose_models(PipelineConfig(), frames, baselines,
                           {"learnt_reader": muddled, "learnt_copy": Models(copy, DETECTOR_MODEL)})
    assert choice is not None and choice.models == Models(copy, DETECTOR_MODEL)
    assert "value" in choice.worse_on  # what the first choice read worse, for the tablet
    assert choice.checks["learnt_reader"].value < shipped.value
    assert choice.checks["learnt_copy"].asked < choice.checks["shipped"].asked
    # where every candidate is worse, the models in use stay
    kept = choose_models(PipelineConfig(), frames, baselines, {"learnt_reader": muddled})
    assert kept is not None and kept.models == timid
    # a table's reader reads only what the first one is unsure of: after the shipped
    # reader even a muddled one reads wrong no die the shipped one read surely
    after_shipped = choose_models(PipelineConfig(), frames,
                                  {"shipped": SHIPPED, "in_use": SHIPPED},
                                  {"learnt_reader": muddled}).checks["learnt_reader"]
    assert after_shipped.value >= shipped.value - shipped.asked - 1e-9
    assert after_shipped.value > choice.checks["learnt_reader"].value
    # too few known dice judge nothing: the models' own checks decide
    assert choose_models(PipelineConfig(), frames[:1], baselines,
                         {"learnt_reader": muddled}) is None


def test_a_learnt_reader_that_passed_its_own_check_is_kept_out_by_the_tables(
        monkeypatch, tmp_path: Path) -> None:
    from dicecam.teach import learner
    from dicecam.teach.learn.reader import LearnedReader, ReaderCheck
    from tests.support.drawn_dice import drawn_examples

    store = _table_with_frames("felt", 8, seed=3)
    for k, example in enumerate(drawn_examples(16, seed=5)):
        store.add(example.crop, (50 + 10 * k, 50, 30, 30), (640, 480), example.value,
                  "confirmed", roll=f"photo-{k % 8}")
    muddled = onnx.load(str(_muddled_reader(tmp_path)))

    def learnt(examples, **kwargs):  # better on its crops, by its own check
        return LearnedReader(muddled, 1.0, ReaderCheck(10, 0.8, 0.0, 0.2),
                             ReaderCheck(10, 0.9, 0.0, 0.1), len(examples), 0.1)
    monkeypatch.setattr(learner, "learn_reader", learnt)
    monkeypatch.setattr(learner, "_learn_detector", lambda *args: None)
    timid = _timid_reader(tmp_path)  # the base reader is unsure of every die
    learning = learner.learn_table(store, base_reader=timid)
    assert not learning.used and store.reader_in_use() is None
    assert "value" in learning.worse_on
    card = store.reader_card(learning.version)
    assert card["table_check"]["shipped"]["dice"] == 12  # photo-3 and photo-7, held back
    assert card["table_check"]["learnt_reader"]["value"] < card["table_check"]["shipped"]["value"]
