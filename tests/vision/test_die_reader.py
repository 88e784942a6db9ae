"""The ONNX die reader wrapper and cut_crop: batch in, readings out, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE
from dicecam.synth.dicesets import DICE_SETS, DieLook
from dicecam.synth.die import render_die
from dicecam.vision.read.die_reader import (
    CLASS_VALUES,
    CROP_MARGIN,
    DEFAULT_MODEL,
    TRAINED_MODEL,
    TURNS_BELOW,
    DieReader,
    ValueReading,
    cut_crop,
)

needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(),
                                 reason=f"the shipped model {DEFAULT_MODEL} is absent")


@pytest.fixture(scope="module")
def reader() -> DieReader:
    return DieReader()


def _clean_crop(value: int, look: DieLook, rotation: float) -> np.ndarray:
    """A flat die on a plain grey table, cut as the pipeline cuts it."""
    die = render_die(value, look, 40, np.random.default_rng(value), rotation_deg=rotation,
                     light_dir=(0.2, 0.1, 1.0))
    alpha = die.image_bgra[..., 3:4] / 255.0
    table = np.full(die.image_bgra.shape[:2] + (3,), (120, 130, 125), np.float32)
    frame = (die.image_bgra[..., :3] * alpha + table * (1 - alpha)).astype(np.uint8)
    return cut_crop(frame, *die.top_box)


@needs_model
def test_batch_in_readings_out(reader: DieReader) -> None:
    white = DICE_SETS["v6"].colours["white"][0]
    crops = [_clean_crop(v, white, rot) for v in range(1, 7) for rot in (0.0, 30.0)]
    readings = reader.read(crops)
    assert len(readings) == len(crops)
    for reading in readings:
        assert isinstance(reading, ValueReading)
        assert reading.value in CLASS_VALUES and 0.0 <= reading.confidence <= 1.0
    assert [r.value for r in readings] == [v for v in range(1, 7) for _ in range(2)]


@needs_model
def test_reads_coloured_sets_and_numerals(reader: DieReader) -> None:
    looks = [DICE_SETS["diceparty"].colours["red"][0], DICE_SETS["dicetopia"].colours[
        "purple"][0], DICE_SETS["charidice"].colours["blue"][0]]
    crops = [_clean_crop(v, look, 15.0) for look in looks for v in range(1, 7)]
    assert [r.value for r in reader.read(crops)] == list(range(1, 7)) * 3


@needs_model
def test_empty_table_is_not_a_die(reader: DieReader) -> None:
    empty = np.full((48, 48, 3), (60, 120, 40), np.uint8)
    (reading,) = reader.read([empty])
    assert reading.value is None


@needs_model
def test_empty_batch_gives_no_readings(reader: DieReader) -> None:
    assert reader.read([]) == []
    assert reader.probabilities([]).shape == (0, 7)


@needs_model
def test_crops_of_any_size_are_accepted(reader: DieReader) -> None:
    crops = [np.zeros((s, s, 3), np.uint8) for s in (8, 32, 57, 200)]
    crops.append(np.zeros((30, 41, 3), np.uint8))
    assert len(reader.read(crops)) == 5


@needs_model
@pytest.mark.parametrize(("crop", "message"), [
    (np.zeros((32, 32, 3), np.float32), "crop 0 must be a uint8"),
    (np.zeros((32, 32), np.uint8), "HxWx3"),
    (np.zeros((32, 32, 4), np.uint8), "HxWx3"),
    (np.zeros((2, 2, 3), np.uint8), "at least 4 px"),
    ([[1, 2, 3]], "crop 0 must be a uint8 BGR image, got list"),
])
def test_wrong_crops_are_refused_with_a_sentence(reader: DieReader, crop, message) -> None:
    with pytest.raises(InputError, match=message):
        reader.read([crop])


def test_missing_model_file_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(InputError, match="not found.*dicecam train reader"):
        DieReader(tmp_path / "nowhere.onnx")


def test_corrupt_model_file_is_a_clear_error(tmp_path) -> None:
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"this is not an onnx model" * 10)
    with pytest.raises(InputError, match="could not be loaded.*corrupt"):
        DieReader(broken)


@needs_model
def test_truncated_shipped_model_is_a_clear_error(tmp_path) -> None:
    cut = tmp_path / "cut.onnx"
    cut.write_bytes(DEFAULT_MODEL.read_bytes()[:5000])
    with pytest.raises(InputError, match="could not be loaded"):
        DieReader(cut)


def test_cut_crop_is_square_around_the_centre_with_margin() -> None:
    frame = np.zeros((100, 200, 3), np.uint8)
    frame[40:60, 90:110] = 255
    crop = cut_crop(frame, 100, 50, 20, 10)
    side = round(20 * CROP_MARGIN)
    assert crop.shape == (side, side, 3)
    assert crop[side // 2, side // 2].tolist() == [255, 255, 255]
    assert crop[0, 0].tolist() == [0, 0, 0]


def test_cut_crop_repeats_the_edge_outside_the_frame() -> None:
    frame = np.zeros((50, 50, 3), np.uint8)
    frame[:, :5] = 200
    crop = cut_crop(frame, 2, 25, 20, 20)
    assert crop.shape == (28, 28, 3)
    assert crop[14, 0].tolist() == [200, 200, 200]  # left of the frame: its edge repeated


@pytest.mark.parametrize(("args", "message"), [
    ((np.zeros((10, 10), np.uint8), 5, 5, 4, 4), "HxWx3"),
    ((np.zeros((10, 10, 3), np.uint8), 5, 5, 0, 4), "positive size"),
    ((np.zeros((10, 10, 3), np.uint8), 500, 500, 4, 4), "outside"),
    # wholly above or left of the frame: not a crop cut from the far rows or columns
    ((np.zeros((25, 120, 3), np.uint8), 100, -20, 10, 10), "outside"),
    ((np.zeros((120, 25, 3), np.uint8), -20, 100, 10, 10), "outside"),
])
def test_cut_crop_refuses_bad_input(args, message) -> None:
    with pytest.raises(InputError, match=message):
        cut_crop(*args)


def test_an_unsure_crop_is_read_in_four_turns_and_a_sure_one_once() -> None:
    reader = DieReader()
    rng = np.random.default_rng(8)
    crops = [rng.integers(0, 256, (40, 40, 3), dtype=np.uint8) for _ in range(12)]
    reader.turns_below = 0.0
    plain = reader.probabilities(crops)
    reader.turns_below = 1.01  # every crop counts as unsure
    turned = reader.probabilities(crops)
    batch = reader.preprocess(crops)
    reader.turns_below = 0.0
    by_hand = np.mean([reader._session.run(None, {reader._input: np.ascontiguousarray(
        np.rot90(batch, k, axes=(1, 2)))})[0] for k in range(4)], axis=0)
    assert np.allclose(turned, by_hand, atol=1e-5)
    reader.turns_below = 0.9
    mixed = reader.probabilities(crops)
    sure = plain.max(axis=1) >= 0.9
    assert np.allclose(mixed[sure], plain[sure]) and np.allclose(mixed[~sure], turned[~sure])


def test_readings_just_above_the_asking_line_are_confirmed_by_the_turns() -> None:
    # a reading the tablet would score without asking must survive the four turns first
    # unless it is far above the line
    assert LOW_CONFIDENCE < TURNS_BELOW < 1.0
    assert DieReader().turns_below == TURNS_BELOW


@pytest.mark.parametrize(("written", "expected"), [("0", 0.0), ("0.5", 0.5), ("2", None),
                                                   ("often", None)])
def test_a_model_may_carry_its_own_turns_line(tmp_path, written, expected) -> None:
    import onnx

    model = onnx.load(str(TRAINED_MODEL))
    entry = model.metadata_props.add()
    entry.key, entry.value = "turns_below", written
    path = tmp_path / "reader.onnx"
    onnx.save(model, str(path))
    if expected is None:
        with pytest.raises(InputError, match="no probability"):
            DieReader(path)
    else:
        assert DieReader(path).turns_below == expected
