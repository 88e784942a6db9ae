"""The one background task: reads the table and pushes frames and settled rolls.

It iterates the outputs of the vision pipeline (anything with ``frame_bgr``, ``reading``
and ``settled``, like ``dicecam.vision.pipeline.PipelineOutput``), hands each settled
roll to the game session at once (that is the latency that matters), and sends a
downscaled JPEG of the live frame with its reading at a limited rate, so that slow
tablets and Wi-Fi never hold back a verdict.

When the active game changes, the outputs are opened again for the new game (its dice set
and colour profile). When the source fails, stalls (no picture for ``STALL_SECONDS``), sends
only unusable pictures, or a camera stops sending, the tablets are told at once ("camera
lost, reconnecting") and the reader opens it again every ``RETRY_SECONDS`` until pictures
come back; the game state is never touched by a camera fault. The source is read on a
thread of its own (``camera/pump.py``), so a read that blocks cannot block the reader.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Protocol

import cv2
import numpy as np

from dicecam.reading import FrameReading, SettledRoll
from dicecam.vision.sources.frames import CameraFault
from dicecam.webapp import events
from dicecam.webapp.camera.pump import OutputPump, Stalled
from dicecam.webapp.camera.teacher import TableTeacher
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.profile_from_play import ProfileFromPlay

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
#: no usable picture for this long and the camera counts as lost (tablets must know within
#: 2 s; an image folder plays at one picture a second)
STALL_SECONDS = 1.5
#: opening a camera and loading the models for the first picture may take this long
STARTUP_SECONDS = 20.0
#: how long a given-up source may take to close before it counts as stuck
CLOSE_SECONDS = 1.0
#: sources whose read never returned; with this many, the reader stops opening new ones
MAX_STUCK_SOURCES = 2
#: how often the camera's cost (this process's share of one CPU core) is measured anew
CPU_REPORT_SECONDS = 5.0
#: how often tablets get the picture while the table is still (it does not change)
STILL_FRAME_SECONDS = 1.0
#: how often the reader looks up from a silent source (stop, game switch)
_POLL_SECONDS = 0.1


class LiveOutput(Protocol):
    """One frame read (``vision.pipeline.PipelineOutput``): a usable BGR picture (the
    pipeline checked it, ``vision/sources/frames.py``), its reading, and the roll it settled."""

    frame_bgr: np.ndarray
    reading: FrameReading
    settled: SettledRoll | None


_ENDED = object()  # the source came to its end


class CameraStatus(StrEnum):
    STARTING = "starting"
    RUNNING = "running"
    ENDED = "ended"  # a video file or image folder played to its end
    LOST = "lost"  # the source failed; the reader tries again


class LiveReader:
    def __init__(
        self,
        session: GameSession,
        publish: Callable[[str, dict[str, Any]], None],
        open_outputs: Callable[[str | None], Iterable[LiveOutput]],
        *,
        frame_fps: float = 12.0,
        frame_max_width: int = 960,
        jpeg_quality: int = 70,
        restart_when_ended: bool = False,
        stall_seconds: float = STALL_SECONDS,
        startup_seconds: float = STARTUP_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self.session = session
        self._publish = publish
        self._open_outputs = open_outputs
        self._frame_interval = 1.0 / frame_fps if frame_fps > 0 else float("inf")
        self._max_width = frame_max_width
        self._jpeg_quality = jpeg_quality
        self._restart_when_ended = restart_when_ended
        self._stall_seconds = stall_seconds
        self._startup_seconds = startup_seconds
        self._retry_seconds = retry_seconds
        self._status = CameraStatus.STARTING
        self._message = ""
        self._done = threading.Event()
        self._stuck: list[OutputPump] = []
        self.frames_seen = 0
        self.settles_seen = 0
        self._cpu_share: float | None = None
        #: keeps the pictures of settled rolls, to fit the table's colours from one the
        #: players confirm
        self.profile_from_play: ProfileFromPlay | None = None
        #: keeps the pictures of settled rolls, to teach the table the dice the players
        #: say something about
        self.teacher: TableTeacher | None = None
        #: the dice set whose colours were fitted from a confirmed roll, if any
        self._colours_fitted: str | None = None
        self._cpu_mark: tuple[float, float] | None = None

    def status_payload(self) -> dict[str, Any]:
        return {"status": self._status.value, "message": self._message,
                "cpu": self._cpu_share, "colours_fitted": self._colours_fitted}

    def colours_fitted(self, dice_set: str) -> None:
        """The colours of ``dice_set`` were just fitted at this table: tablets are told."""
        self._colours_fitted = dice_set
        self._publish(events.CAMERA, self.status_payload())

    def _measure_cpu(self) -> None:
        """What the live view costs, as this process's share of one core over the last
        ``CPU_REPORT_SECONDS``; the tablets are told when it moves by a point or more."""
        now, cpu = time.monotonic(), time.process_time()
        if self._cpu_mark is None:
            self._cpu_mark = (now, cpu)
            return
        wall = now - self._cpu_mark[0]
        if wall < CPU_REPORT_SECONDS:
            return
        share = round((cpu - self._cpu_mark[1]) / wall, 2)
        self._cpu_mark = (now, cpu)
        if self._cpu_share is None or abs(share - self._cpu_share) >= 0.01:
            self._cpu_share = share
            self._publish(events.CAMERA, self.status_payload())

    def join(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                game = self.session.game_name
                switched = self._play(game, stop)
                if switched or stop.is_set():
                    continue
                if self._status is CameraStatus.ENDED and not self._restart_when_ended:
                    # wait for a game switch, which opens the source again for its dice
                    while not stop.is_set() and self.session.game_name == game:
                        stop.wait(0.2)
                else:
                    stop.wait(self._retry_seconds)
        finally:
            self._done.set()

    def _play(self, game: str | None, stop: threading.Event) -> bool:
        """Show one opening of the outputs; True when it stopped for a game switch."""
        self._stuck = [pump for pump in self._stuck if pump.alive]
        if len(self._stuck) >= MAX_STUCK_SOURCES:
            self._lost(CameraFault("the camera does not answer; unplug it and plug it back in"))
            return False
        pump = None
        try:
            pump = OutputPump(self._open_outputs(game))
            return self._show(pump, game, stop)
        except Exception as exc:  # a camera fault must never stop the server
            self._lost(exc)
            return False
        finally:
            if pump is not None:
                pump.abandon()
                if not pump.join(CLOSE_SECONDS):
                    self._stuck.append(pump)

    def _show(self, pump: OutputPump, game: str | None, stop: threading.Event) -> bool:
        last_frame = 0.0
        shown = 0
        while True:
            limit = self._stall_seconds if shown else self._startup_seconds
            try:
                output = self._next_output(pump, game, stop, time.monotonic() + limit)
            except Stalled:
                raise Stalled(f"no picture for {limit:.1f} s") from None
            if output is None:
                return not stop.is_set()
            if output is _ENDED:
                if not shown:
                    raise CameraFault("the source gave no picture")
                self._set_status(CameraStatus.ENDED, "the video source has ended")
                return False
            if output.settled is not None:
                self.settles_seen += 1
                self._settle(output.settled, output.frame_bgr)
            now = time.monotonic()
            shown += 1
            self._measure_cpu()
            if self._status is not CameraStatus.RUNNING:
                self._set_status(CameraStatus.RUNNING, "")
            self.frames_seen += 1
            # a still table's picture is the same: tablets get it once a second
            interval = self._frame_interval if getattr(output, "changed", True) \
                else max(self._frame_interval, STILL_FRAME_SECONDS)
            if now - last_frame >= interval:
                last_frame = now
                self._send_frame(output.frame_bgr, output.reading)
            if self.session.game_name != game:
                return True

    def _next_output(self, pump: OutputPump, game: str | None, stop: threading.Event,
                     deadline: float) -> Any:
        """The next output, _ENDED at the source's end, None on stop or a game switch;
        ``Stalled`` once ``deadline`` (monotonic) has passed with nothing."""
        while True:
            if stop.is_set() or self.session.game_name != game:
                return None
            wait = min(_POLL_SECONDS, deadline - time.monotonic())
            try:
                return pump.next_item(max(0.0, wait))
            except StopIteration:
                return _ENDED
            except Stalled:
                if time.monotonic() >= deadline:
                    raise

    def _lost(self, error: BaseException) -> None:
        message = f"camera lost ({error}); reconnecting"
        if message != self._message:  # say it once, not on every retry
            log.warning("frame source failed: %s", error)
        self._set_status(CameraStatus.LOST, message)

    def _settle(self, roll: SettledRoll, frame_bgr: np.ndarray) -> None:
        try:
            if self.teacher is not None:  # before the tablets can see the roll and tap it
                self.teacher.remember(roll.roll_id, frame_bgr, roll.dice)
            current = self.session.settle(roll, settled_at=time.time())
            if self.profile_from_play is not None:
                self.profile_from_play.remember(current.roll_id, frame_bgr)
        except Exception:  # a scoring bug is not a camera fault: log it, keep reading
            log.exception("scoring settled roll %s failed", roll.roll_id)

    def _send_frame(self, frame_bgr: np.ndarray, reading: FrameReading) -> None:
        height, width = frame_bgr.shape[:2]
        if width > self._max_width:
            scale = self._max_width / width
            frame_bgr = cv2.resize(frame_bgr, (self._max_width, max(1, round(height * scale))),
                                   interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, self._jpeg_quality])
        if not ok:
            return
        self._publish(events.FRAME, {"jpeg": jpeg.tobytes(), "reading": reading.to_json(),
                                     "sent_at": time.time()})

    def _set_status(self, status: CameraStatus, message: str) -> None:
        if status is self._status and message == self._message:
            return
        self._status = status
        self._message = message
        self._publish(events.CAMERA, self.status_payload())
