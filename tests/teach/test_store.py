"""What a table keeps: every taught die, every learnt version, which one it reads with;
nothing lost to a torn write, and ``forget`` goes back to the shipped models."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.calibration.tables import save_table_picture, saved_table_names
from dicecam.errors import InputError
from dicecam.teach.store import TableStore
from dicecam.vision.detect.side_faces import SideFaceZone
from dicecam.vision.read.die_reader import TRAINED_MODEL

CROP = np.full((40, 40, 3), 128, np.uint8)


def test_taught_dice_come_back_in_order_with_what_the_reader_had_read() -> None:
    store = TableStore("kitchen")
    store.add(CROP, (10, 20, 30, 30), (640, 480), 3, "confirmed", colour="red",
              reader_value=3, reader_confidence=0.97)
    store.add(CROP, (50, 60, 30, 30), (640, 480), 5, "corrected", reader_value=6,
              reader_confidence=0.5)
    store.add(CROP, (90, 60, 30, 30), (640, 480), 0, "not_a_die", reader_value=1)
    store.add(CROP, (90, 90, 30, 30), (640, 480), 2, "added")
    dice = TableStore("kitchen").dice()  # a new store object: from the files alone
    assert [(d.value, d.how) for d in dice] == [(3, "confirmed"), (5, "corrected"),
                                                (0, "not_a_die"), (2, "added")]
    assert [d.reader_was_right for d in dice] == [True, False, False, None]
    assert dice[0].colour == "red" and dice[0].box == (10, 20, 30, 30)
    assert [e.value for e in store.examples()] == [3, 5, 0, 2]
    assert store.counts() == {"dice": 3, "not_a_die": 1}


def test_a_die_taught_again_in_its_roll_counts_once_as_said_last() -> None:
    store = TableStore("kitchen")
    store.add(CROP, (10, 20, 30, 30), (640, 480), 3, "confirmed", roll="r1")
    store.add(CROP, (50, 60, 30, 30), (640, 480), 6, "confirmed", roll="r1")
    store.add(CROP, (10.2, 19.9, 30, 30), (640, 480), 5, "corrected", roll="r1")
    store.add(CROP, (10, 20, 30, 30), (640, 480), 2, "confirmed", roll="r2")  # a new roll
    store.add(CROP, (50, 60, 30, 30), (640, 480), 0, "not_a_die", roll="r1")
    dice = TableStore("kitchen").dice()
    assert [(d.value, d.how, d.roll) for d in dice] == [
        (5, "corrected", "r1"), (2, "confirmed", "r2"), (0, "not_a_die", "r1")]
    assert store.counts() == {"dice": 2, "not_a_die": 1}
    assert len((store.folder / "dice.jsonl").read_text().splitlines()) == 5  # all kept


@pytest.mark.parametrize("value,how", [(7, "confirmed"), (0, "confirmed"), (3, "not_a_die"),
                                       (3, "guessed")])
def test_a_die_that_makes_no_sense_is_refused(value, how) -> None:
    with pytest.raises(InputError):
        TableStore("kitchen").add(CROP, (1, 1, 1, 1), (10, 10), value, how)
    assert TableStore("kitchen").dice() == []


def test_a_torn_last_line_loses_only_that_die() -> None:
    store = TableStore("kitchen")
    store.add(CROP, (10, 20, 30, 30), (640, 480), 3, "confirmed")
    with open(store.folder / "dice.jsonl", "a") as handle:
        handle.write('{"crop": "dice/000002.png", "box": [1, 2')  # killed mid-write
    assert [d.value for d in store.dice()] == [3]
    store.add(CROP, (10, 20, 30, 30), (640, 480), 4, "confirmed")
    assert [d.value for d in TableStore("kitchen").dice()] == [3, 4]


def test_every_version_is_kept_and_one_is_in_use() -> None:
    store = TableStore("kitchen")
    assert store.reader_in_use() is None
    model = TRAINED_MODEL.read_bytes()
    first = store.save_reader(model, {"held_back": {}}, use=True)
    second = store.save_reader(model, {"held_back": {}}, use=False)
    assert store.reader_versions() == [first, second] == ["reader-v1", "reader-v2"]
    assert store.reader_in_use() == store.models / "reader-v1.onnx"
    store.use_reader(second)
    assert store.reader_in_use() == store.models / "reader-v2.onnx"
    with pytest.raises(InputError):
        store.use_reader("reader-v9")


def test_a_broken_choice_reads_with_the_shipped_models() -> None:
    store = TableStore("kitchen")
    store.save_reader(TRAINED_MODEL.read_bytes(), {}, use=True)
    (store.models / "in_use.json").write_text("{not json")
    assert store.reader_in_use() is None
    (store.models / "in_use.json").write_text('{"reader": "reader-v7"}')
    assert store.reader_in_use() is None


def test_a_half_written_version_is_never_listed_or_used() -> None:
    store = TableStore("kitchen")
    store.save_reader(TRAINED_MODEL.read_bytes(), {}, use=True)
    (store.models / ".reader-v2.onnx.tmp").write_bytes(b"half a model")
    assert store.reader_versions() == ["reader-v1"]
    assert store.reader_in_use() == store.models / "reader-v1.onnx"


def test_forget_goes_back_to_the_shipped_models_and_keeps_the_empty_table() -> None:
    store = TableStore("kitchen")
    save_table_picture(np.zeros((48, 64, 3), np.uint8), "kitchen")
    store.add(CROP, (10, 20, 30, 30), (640, 480), 3, "confirmed")
    store.save_reader(TRAINED_MODEL.read_bytes(), {}, use=True)
    store.save_side_faces(SideFaceZone(1.5, 0.5, 0.5, 0.9), {"candidates": 9})
    store.forget()
    assert store.dice() == [] and store.reader_versions() == []
    assert store.reader_in_use() is None and store.side_faces() is None
    assert "kitchen" in saved_table_names()


def test_the_side_face_zone_is_kept_and_a_learning_without_one_clears_it() -> None:
    store = TableStore("kitchen")
    assert store.side_faces() is None  # never learnt
    store.save_side_faces(SideFaceZone(1.5, 0.5, 0.5, 0.9), {"candidates": 9})
    zone = TableStore("kitchen").side_faces()
    assert zone is not None and (zone.near, zone.far) == (0.5, 0.9)
    store.save_side_faces(None, {"candidates": 2})
    assert store.side_faces() is None
    (store.models / "side_faces.json").write_text("{not json")
    assert store.side_faces() is None  # a damaged file: no zone, nothing else lost


def test_a_table_name_is_a_name() -> None:
    with pytest.raises(InputError):
        TableStore("../elsewhere")
