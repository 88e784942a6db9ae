"""Camera faults during a game: the server keeps running, the tablet hears "camera lost"
(within 2 s: the reader's stall deadline is shorter; the tests wait on the status, not on
the clock), reading resumes by itself when the camera is back, and the game is untouched.

The faults are injected into a fake webcam behind the real ``TableCamera`` (frame
checks, the end of a live source) and the real live reader (pump thread, stall deadline,
reconnecting); the table reader is a stand-in that needs no model. A folder source uses the
real image-folder reader on files the test spoils and repairs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from dicecam.errors import InputError
from dicecam.reading import DieReading, FrameReading, SettledRoll
from dicecam.vision.pipeline import PipelineOutput
from dicecam.vision.sources.frames import (
    MAX_BAD_IN_A_ROW,
    CameraFault,
    CheckedFrames,
    frame_problem,
)
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.camera.live import STALL_SECONDS
from dicecam.webapp.camera.pump import OutputPump, Stalled
from dicecam.webapp.camera.source import TableCamera, open_frames
from tests.support.tablets import paired_client
from tests.support.waiting import wait_until

#: what the issue asks: the tablet shows "camera lost, reconnecting" within this
LOST_WITHIN = 2.0
GOOD = np.full((240, 320, 3), 90, np.uint8)
V6 = {"game": "v6", "config": {"players": ["Ann", "Bo"], "groups": [["Ann", "Bo"]]}}

FAULTS = {
    "unplugged (reads fail, the camera cannot be opened)": "unplugged",
    "unplugged (the driver just stops sending)": "ended",
    "a stream that stalls (reads block)": "stalled",
    "frames of zero size": "zero_size",
    "frames of the wrong shape (two channels)": "wrong_shape",
    "frames of float pixels": "float_pixels",
    "frames that are no array at all": "not_an_image",
}


class FakeCamera:
    """A webcam that the test unplugs, stalls and spoils on cue."""

    fps = 60.0
    live = True

    def __init__(self) -> None:
        self.fault: str | None = None
        self.back = threading.Event()  # released: stalled reads return
        self.back.set()
        self._settles = 0
        self._lock = threading.Lock()
        self.opens = 0  # tries to open it: the reader's reconnects

    def set_fault(self, fault: str | None) -> None:
        self.fault = fault
        if fault == "stalled":
            self.back.clear()
        else:
            self.back.set()

    def request_settle(self) -> None:
        with self._lock:
            self._settles += 1

    def take_settle(self) -> bool:
        with self._lock:
            if self._settles:
                self._settles -= 1
                return True
            return False

    def open(self, source: str, dice_set: str, on_error: Callable[[Exception], None]) -> Any:
        self.opens += 1
        if self.fault == "unplugged":
            raise InputError("cannot open camera 0: is it plugged in and not used by another "
                             "program?")
        return _Stream(self)


class _Stream:
    def __init__(self, camera: FakeCamera) -> None:
        self.camera = camera
        self.fps = camera.fps
        self.live = True

    def __iter__(self) -> Iterator[Any]:
        bad = {"zero_size": np.zeros((0, 0, 3), np.uint8),
               "wrong_shape": np.zeros((240, 320, 2), np.uint8),
               "float_pixels": np.zeros((240, 320, 3), np.float32),
               "not_an_image": None}
        while True:
            fault = self.camera.fault
            if fault == "unplugged":
                raise OSError("camera unplugged")
            if fault == "ended":
                return
            if fault == "stalled":
                self.camera.back.wait()
                continue
            yield bad[fault] if fault in bad else GOOD
            time.sleep(1 / self.camera.fps)


class StandInReader:
    """The table reader's place: one die of 4 per frame, a settled roll when asked."""

    def __init__(self, camera: FakeCamera) -> None:
        self.camera = camera
        self.rolls = 0

    def process(self, frame: np.ndarray, timestamp: float = 0.0) -> PipelineOutput:
        height, width = frame.shape[:2]
        die = DieReading(x=100.0, y=100.0, w=40.0, h=40.0, value=4, colour="white",
                         confidence=0.99)
        reading = FrameReading(width=width, height=height, dice=(die,))
        settled = None
        if self.camera.take_settle():
            self.rolls += 1
            settled = SettledRoll(roll_id=self.rolls, width=width, height=height, dice=(die,))
        return PipelineOutput(frame, reading, settled)


@dataclass
class Table:
    app: Any
    client: Any
    camera: FakeCamera
    seen: list[dict[str, Any]]

    def take(self) -> list[dict[str, Any]]:
        self.seen.extend(self.client.get_received())
        return self.seen

    def camera_statuses(self) -> list[str]:
        return [m["args"][0]["status"] for m in self.take() if m["name"] == events.CAMERA]

    def wait_camera(self, status: str, after: int) -> None:
        """Until a camera event ``status`` arrives beyond the first ``after``."""
        wait_until(lambda: status in self.camera_statuses()[after:],
                   message=lambda: f"no camera {status}: {self.camera_statuses()}")

    def frames(self) -> int:
        return sum(1 for m in self.take() if m["name"] == events.FRAME)

    def total(self) -> int:
        return services(self.app).session.view()["state"]["round"]["total"]


def start_table(tmp_path: Path, outputs: Any, camera: FakeCamera | None = None) -> Table:
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs,
                      "FRAME_FPS": 30.0, "CAMERA_RETRY_SECONDS": 0.2})
    client = paired_client(app)
    assert client.emit(events.NEW_GAME, V6, callback=True)["ok"]
    assert client.emit(events.ACTION, {"type": "jokers", "jokers": []}, callback=True)["ok"]
    services(app).start_reader()
    return Table(app, client, camera or FakeCamera(), [])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    camera = FakeCamera()
    outputs = TableCamera("camera:0", frames=camera.open,
                          pipeline=lambda config: StandInReader(camera))
    running = start_table(tmp_path, outputs, camera)
    try:
        yield running
    finally:
        camera.set_fault(None)
        services(running.app).close()


def game_record(app: Any) -> tuple[Any, ...]:
    view = services(app).session.view()
    return view["state"], view["version"], services(app).store.log(view["game_id"])


def test_the_stall_deadline_keeps_the_promise_of_2_s() -> None:
    """A stalled camera is the slowest fault to see; its deadline is within the promise
    (how soon a busy machine shows it is for the benches, not for these tests)."""
    assert 0 < STALL_SECONDS < LOST_WITHIN


@pytest.mark.parametrize("fault", list(FAULTS.values()), ids=list(FAULTS))
def test_a_camera_fault_is_shown_within_2_s_and_reading_resumes(table: Table,
                                                                 fault: str) -> None:
    table.wait_camera("running", after=0)
    table.camera.request_settle()
    wait_until(lambda: table.total() == 4)  # a roll scored before the fault
    before = game_record(table.app)
    statuses = len(table.camera_statuses())
    opens = table.camera.opens

    table.camera.set_fault(fault)
    table.wait_camera("lost", after=statuses)
    lost = [m["args"][0] for m in table.take() if m["name"] == events.CAMERA][-1]
    assert lost["message"].startswith("camera lost (") and "reconnecting" in lost["message"]
    wait_until(lambda: table.camera.opens > opens,  # the reader tries again meanwhile
               message="the reader never tried the faulty camera again")
    assert table.client.emit(events.SYNC, {}, callback=True) == {"ok": True}
    assert game_record(table.app) == before, "a camera fault changed the game"

    statuses = len(table.camera_statuses())
    table.camera.set_fault(None)
    table.wait_camera("running", after=statuses)
    shown = table.frames()
    wait_until(lambda: table.frames() > shown + 3)
    table.camera.request_settle()  # reading resumed: the next roll is scored
    wait_until(lambda: table.total() == 8)
    assert len(game_record(table.app)[2]) == len(before[2]) + 1


def test_a_corrupt_image_in_a_folder_is_skipped_and_a_spoilt_folder_reconnects(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "table"
    folder.mkdir()
    good = [folder / "a.png", folder / "b.png"]
    for path in good:
        cv2.imwrite(str(path), GOOD)
    (folder / "c.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"not really a png" * 20)

    def fast_folder(source: str, dice_set: str, on_error: Callable[[Exception], None]) -> Any:
        opened = open_frames(source, dice_set, on_error)
        opened.fps = 20.0  # an image folder plays at 1 picture/s; the test needs no wait
        return opened

    camera = FakeCamera()
    outputs = TableCamera(str(folder), frames=fast_folder,
                          pipeline=lambda config: StandInReader(camera))
    caplog.set_level(logging.WARNING, logger="dicecam.webapp.camera.source")
    running = start_table(tmp_path, outputs)
    try:
        running.wait_camera("running", after=0)
        wait_until(lambda: running.frames() >= 10)  # several passes over the folder
        assert "lost" not in running.camera_statuses()
        skipped = [r.getMessage() for r in caplog.records if "c.png" in r.getMessage()]
        assert len(skipped) == 1, "a bad picture is named once, not on every pass"
        before = game_record(running.app)

        statuses = len(running.camera_statuses())
        for path in good:
            path.write_bytes(b"spoilt")
        running.wait_camera("lost", after=statuses)
        assert game_record(running.app) == before

        statuses = len(running.camera_statuses())
        for path in good:
            cv2.imwrite(str(path), GOOD)
        running.wait_camera("running", after=statuses)
        shown = running.frames()
        wait_until(lambda: running.frames() > shown + 3)
    finally:
        services(running.app).close()


# --- a camera of unusable pictures: lost, saying why ------------------------------------


class _SpoiltStream:
    """A camera whose pictures are spoilt (zero rows) while ``spoilt`` is set: they come
    at once, so the frame checks give up on them before any stall deadline."""

    fps = 60.0
    live = True

    def __init__(self, spoilt: threading.Event) -> None:
        self.spoilt = spoilt

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            if self.spoilt.is_set():
                yield np.zeros((0, 320, 3), np.uint8)
            else:
                yield GOOD
                time.sleep(0.03)


def test_a_camera_of_unusable_pictures_is_lost_saying_why(tmp_path: Path) -> None:
    spoilt = threading.Event()
    camera = FakeCamera()
    outputs = TableCamera("camera:0", frames=lambda *a: _SpoiltStream(spoilt),
                          pipeline=lambda config: StandInReader(camera))
    running = start_table(tmp_path, outputs, camera)
    try:
        running.wait_camera("running", after=0)
        before = game_record(running.app)
        statuses = len(running.camera_statuses())
        spoilt.set()
        running.wait_camera("lost", after=statuses)  # the frame checks give up on a run
        lost = [m["args"][0] for m in running.take() if m["name"] == events.CAMERA][-1]
        assert "unusable pictures (a picture of 320x0 pixels)" in lost["message"]
        assert game_record(running.app) == before
        statuses = len(running.camera_statuses())
        spoilt.clear()
        running.wait_camera("running", after=statuses)
    finally:
        services(running.app).close()


# --- the parts ------------------------------------------------------------------------------


def test_checked_frames_convert_grey_and_bgra_and_drop_the_unusable() -> None:
    grey = np.full((40, 50), 7, np.uint8)
    bgra = np.full((40, 50, 4), 9, np.uint8)
    frames = [GOOD, np.zeros((0, 0, 3), np.uint8), grey, None, bgra,
              np.zeros((8, 50, 3), np.uint8), np.zeros((40, 50, 3), np.int16)]
    problems: list[str] = []
    checked = CheckedFrames(frames, on_bad=problems.append)
    out = list(checked)
    assert [f.shape for f in out] == [(240, 320, 3), (40, 50, 3), (40, 50, 3)]
    assert (checked.good, checked.bad) == (3, 4)
    assert problems == ["a picture of 0x0 pixels", "a NoneType instead of a picture",
                        "a picture of 50x8 pixels", "pixels of type int16 instead of 8-bit"]


def test_checked_frames_give_up_after_a_run_of_unusable_ones() -> None:
    frames = [GOOD] + [np.zeros((240, 320, 2), np.uint8)] * MAX_BAD_IN_A_ROW + [GOOD]
    checked = CheckedFrames(frames)
    with pytest.raises(CameraFault, match=r"unusable pictures \(a picture of shape"):
        list(checked)
    assert checked.good == 1


@pytest.mark.parametrize(("frame", "problem"), [
    (GOOD, None),
    (np.zeros((16, 16, 3), np.uint8), None),
    (np.zeros((15, 640, 3), np.uint8), "a picture of 640x15 pixels"),
    (np.zeros((240, 320), np.uint8), "a picture of shape (240, 320) instead of height x width x 3"),
    ([[1, 2, 3]], "a list instead of a picture"),
])
def test_frame_problem_says_what_is_wrong(frame: Any, problem: str | None) -> None:
    assert frame_problem(frame) == problem


def test_a_pump_reports_a_stall_and_closes_the_source_once_it_answers() -> None:
    release = threading.Event()
    closed = threading.Event()

    def source() -> Iterator[int]:
        try:
            yield 1
            release.wait()
            yield 2
        finally:
            closed.set()

    pump = OutputPump(source())
    assert pump.next_item(1.0) == 1
    with pytest.raises(Stalled):
        pump.next_item(0.2)
    pump.abandon()
    assert not closed.is_set()  # still blocked in the read
    release.set()
    assert pump.join(2.0) and closed.is_set()


def test_a_pump_hands_over_the_sources_error_and_its_end() -> None:
    def failing() -> Iterator[int]:
        yield 1
        raise OSError("read failed")

    pump = OutputPump(failing())
    assert pump.next_item(1.0) == 1
    with pytest.raises(OSError, match="read failed"):
        pump.next_item(1.0)
    ending = OutputPump(iter([5]))
    assert ending.next_item(1.0) == 5
    with pytest.raises(StopIteration):
        ending.next_item(1.0)
