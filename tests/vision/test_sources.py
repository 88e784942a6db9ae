"""Frame sources from files (no camera): images, folders, videos, the demo, bad specs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dicecam.errors import InputError
from dicecam.vision.sources.frame_sources import CaptureSource, ImageFilesSource, read_image
from dicecam.vision.sources.source_spec import open_source


def _image(value: int) -> np.ndarray:
    img = np.zeros((48, 64, 3), np.uint8)
    img[:, :, 1] = value
    return img


@pytest.fixture
def folder(tmp_path):
    for i, name in enumerate(["a.png", "b.jpg", "c.png"]):
        cv2.imwrite(str(tmp_path / name), _image(40 * (i + 1)))
    (tmp_path / "broken.png").write_bytes(b"\x89PNG not really")
    (tmp_path / "notes.txt").write_text("not an image")
    return tmp_path


def test_an_image_file_gives_one_bgr_frame(folder):
    frames = list(open_source(str(folder / "a.png")))
    assert len(frames) == 1
    assert frames[0].shape == (48, 64, 3) and frames[0].dtype == np.uint8
    assert frames[0][0, 0, 1] == 40


def test_a_folder_gives_its_images_in_name_order_and_reports_a_corrupt_one(folder):
    errors = []
    source = open_source(folder, on_error=errors.append)
    assert isinstance(source, ImageFilesSource)
    frames = list(source)
    assert [int(f[0, 0, 1]) for f in frames[::2]] == [40, 120]
    assert len(frames) == 3
    assert len(errors) == 1 and "broken.png" in str(errors[0]) and "decode" in str(errors[0])


def test_reading_a_corrupt_image_names_it(folder):
    with pytest.raises(InputError, match="broken.png: cannot decode"):
        read_image(folder / "broken.png")
    with pytest.raises(InputError, match="no such image"):
        read_image(folder / "missing.png")


def test_a_video_file_gives_its_frames(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 12.0, (64, 48))
    for i in range(5):
        writer.write(_image(50 * i))
    writer.release()
    with open_source(str(path)) as source:
        assert isinstance(source, CaptureSource) and not source.live
        assert source.fps == pytest.approx(12.0)
        frames = list(source)
    assert len(frames) == 5
    assert [round(float(f[..., 1].mean()) / 50) for f in frames] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("camera:x", "camera index must be a whole number"),
        ("", "frame source is empty"),
        ("/no/such/place.mp4", "no such file or folder"),
        (-1, "camera index must be 0 or more"),
        (True, "must be a camera index"),
    ],
)
def test_bad_specs_say_what_to_do(spec, message):
    with pytest.raises(InputError, match=message):
        open_source(spec)


def test_unknown_file_types_and_empty_folders_are_refused(tmp_path, folder):
    with pytest.raises(InputError, match="unknown file type .txt"):
        open_source(folder / "notes.txt")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match="holds no images"):
        open_source(empty)


def test_an_unopenable_stream_is_a_clear_error():
    with pytest.raises(InputError, match="cannot open"):
        open_source("rtsp://127.0.0.1:1/none")


def test_the_demo_is_deterministic_and_small():
    first = open_source("demo", dice_set="v6")
    second = open_source("demo", dice_set="v6")
    a = [f for _, f in zip(range(3), first, strict=False)]
    b = [f for _, f in zip(range(3), second, strict=False)]
    assert a[0].shape == (540, 960, 3)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], a[2])  # the dice are rolling
    with pytest.raises(InputError, match="unknown dice set"):
        open_source("demo", dice_set="yahtzee")


def test_the_demo_shows_a_still_roll_then_a_hand():
    from dicecam.vision.sources.demo import HAND_FRAMES, ROLL_FRAMES, STILL_FRAMES, DemoSource

    source = DemoSource("charidice", dice_per_roll=6, rolls=1)
    frames = list(source)
    assert len(frames) == ROLL_FRAMES + STILL_FRAMES + HAND_FRAMES
    still = frames[ROLL_FRAMES:ROLL_FRAMES + STILL_FRAMES]
    assert all(np.array_equal(still[0], f) for f in still)
    assert not np.array_equal(still[0], frames[-HAND_FRAMES // 2])
    truth = source.roll(0)
    assert len(truth.dice) == 6
    assert {d.colour for d in truth.dice} <= {"black", "grey", "red", "blue", "green", "purple"}
