"""The aws and dicebot sources (issue 57): their held-out splits, aws's dice nobody could
read (found dice for recall and precision, no value to judge), and the sources the shipped
models saw, on tiny fake sets drawn in the test's temp folder."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import onnxruntime as ort
import pytest

from dicecam.reading import DieReading
from dicecam.tools.matching import Tally
from dicecam.tools.realdata import (
    AWS_BLOCK,
    SHIPPED_SOURCES,
    SOURCES,
    UNSEEN_SOURCES,
    LabelledDie,
    aws_family,
    photo_crops,
    real_photos,
)
from dicecam.vision.read.die_reader import TRAINED_MODEL
from dicecam.vision.tally import RealTally
from tests.tools.test_bench_real import _draw, _label

AWS_SIZE = (512, 384)
#: 22 Image_N photos (numbered 1-22, so that name order and number order differ), 6 phone
#: shots named by date and time, 2 gathered one by one
AWS_IMAGE_STEMS = [f"Image_{n}" for n in range(1, 23)]
AWS_IMG_STEMS = [f"IMG_20191112_1108{s:02d}" for s in range(10, 16)]
AWS_OTHER = ["dice-585859.jpeg", "monopoly-2197395.png"]


@pytest.fixture
def aws_root(tmp_path: Path) -> Path:
    root = tmp_path / "real"
    (root / "MANIFEST.md").parent.mkdir(parents=True)
    (root / "MANIFEST.md").write_text("fake\n")
    names = [f"{s}.jpg" for s in AWS_IMAGE_STEMS + AWS_IMG_STEMS] + AWS_OTHER
    for name in names:
        stem = Path(name).stem
        _draw(root / "aws" / "images" / name, [(100, 100, 40), (300, 200, 40)], AWS_SIZE)
        _label(root / "aws" / "labels" / f"{stem}.txt", [(4, 100, 100, 40, 40)], AWS_SIZE)
    # Image_3's second die: its labellers could not read it
    (root / "aws" / "unclear").mkdir()
    w, h = AWS_SIZE
    (root / "aws" / "unclear" / "Image_3.txt").write_text(
        f"{300 / w} {200 / h} {40 / w} {40 / h}\n")
    for video, frames in (("512_dark_mp4", 2), ("512_mp4", 3), ("643_light_mp4", 1)):
        for n in range(frames):
            stem = f"{video}-{n}"
            _draw(root / "dicebot" / "images" / f"{stem}.jpg", [(160, 120, 30)], (320, 240))
            _label(root / "dicebot" / "labels" / f"{stem}.txt", [(2, 160, 120, 30, 30)],
                   (320, 240))
    return root


def test_aws_families_go_in_blocks_of_five_and_every_fourth_block_is_held_out(
        aws_root: Path) -> None:
    aws = [p for p in real_photos(aws_root) if p.source == "aws"]
    assert len(aws) == len(AWS_IMAGE_STEMS) + len(AWS_IMG_STEMS) + len(AWS_OTHER)
    images = [p.image.stem for p in aws if aws_family(p.image.stem) == "Image"]
    assert images == AWS_IMAGE_STEMS  # by number: Image_2 before Image_10
    held = [p.image.stem for p in aws if p.held_out]
    # the fourth block of five Image_N photos (16-20); the phone shots and the gathered
    # ones are fewer than four blocks, so none of theirs
    assert held == [f"Image_{n}" for n in range(3 * AWS_BLOCK + 1, 4 * AWS_BLOCK + 1)]
    assert {aws_family(s) for s in AWS_IMG_STEMS} == {"IMG"}
    assert {aws_family(Path(n).stem) for n in AWS_OTHER} == {"other"}


def test_a_die_nobody_could_read_is_a_die_without_a_value_and_gives_no_crop(
        aws_root: Path) -> None:
    photo = next(p for p in real_photos(aws_root) if p.image.stem == "Image_3")
    dice = photo.dice(*AWS_SIZE)
    assert [d.value for d in dice] == [4, None]
    assert (round(dice[1].cx), round(dice[1].cy), round(dice[1].w)) == (300, 200, 40)
    assert [value for _, value in photo_crops(photo)] == [4]  # the reader learns no guess
    other = next(p for p in real_photos(aws_root) if p.image.stem == "Image_4")
    assert [d.value for d in other.dice(*AWS_SIZE)] == [4]


def test_dicebot_frames_are_held_out_by_video(aws_root: Path) -> None:
    dicebot = [p for p in real_photos(aws_root) if p.source == "dicebot"]
    assert len(dicebot) == 6
    assert sorted(p.image.stem for p in dicebot if p.held_out) == [
        "512_dark_mp4-0", "512_dark_mp4-1", "643_light_mp4-0"]


def _die(x: float, y: float, value: int | None, confidence: float) -> DieReading:
    return DieReading(x=x, y=y, w=30.0, h=30.0, value=value, colour="white",
                      confidence=confidence)


def test_an_unclear_die_found_counts_for_recall_and_precision_and_for_no_value() -> None:
    truth = [LabelledDie(100, 100, 30, 30, 3), LabelledDie(200, 100, 30, 30, None),
             LabelledDie(300, 100, 30, 30, None)]
    found = [_die(101, 100, 3, 0.99), _die(200, 101, 6, 0.99)]  # the third unclear missed
    tally = RealTally()
    outcomes = tally.add(truth, found, colour_read=False)
    row = tally.as_dict()
    assert (row["dice"], row["found"], row["matched"], row["valued"]) == (3, 2, 2, 1)
    assert row["recall"] == round(2 / 3, 4) and row["precision"] == 1.0
    # the unclear die read 6 with confidence 0.99 is no silent error: nobody knows its value
    assert row["value_accuracy"] == 1.0 and row["silent_errors"] == 0
    assert row["asked"] == 0 and row["false_dice"] == 0
    assert sorted(o.kind for o in outcomes) == ["missed", "right", "unclear"]
    plain = Tally()
    plain.add(truth, found)
    assert (plain.matched, plain.valued, plain.value_accuracy) == (2, 1, 1.0)


def test_calibration_counts_each_read_value_in_its_confidence_bin() -> None:
    truth = [LabelledDie(100 * i, 100, 30, 30, 3) for i in range(1, 6)]
    found = [replace(_die(100 * i, 100, value, 0.5), value_confidence=sure)  # the value's
             for i, value, sure in ((1, 3, 0.97), (2, 4, 0.96), (3, 3, 0.995), (4, 3, 0.92),
                                    (5, None, 0.99))]  # the last: unreadable
    tally = RealTally()
    tally.add(truth, found, colour_read=False)
    calibration = tally.as_dict()["calibration"]
    assert calibration["bins"]["0.95-0.99"] == {"dice": 2, "right": 0.5}
    assert calibration["bins"]["0.99-1"] == {"dice": 1, "right": 1.0}
    assert calibration["bins"]["0.9-0.95"] == {"dice": 1, "right": 1.0}
    assert calibration["bins"]["0-0.5"] == {"dice": 0, "right": None}
    # two right of the three read at 0.95 or more; an unreadable die is read with no value
    assert (calibration["read_at_95"], calibration["right_at_95"]) == (3, round(2 / 3, 4))


def test_the_shipped_reader_says_it_learnt_from_the_shipped_sources_alone() -> None:
    """bench loo takes the shipped reader's figures on the unseen sources as its
    leave-one-out ones: that holds only while the reader's own metadata agrees."""
    import json

    meta = ort.InferenceSession(str(TRAINED_MODEL), providers=["CPUExecutionProvider"]
                                ).get_modelmeta().custom_metadata_map
    assert tuple(json.loads(meta["real_tuning_by_source"])) == SHIPPED_SOURCES
    assert set(SHIPPED_SOURCES) | set(UNSEEN_SOURCES) == set(SOURCES)
    assert {"aws", "dicebot", "damiantab"} == set(UNSEEN_SOURCES)
