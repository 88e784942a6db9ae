"""The one background task: reads the table and pushes frames and settled rolls.

It iterates the outputs of the vision pipeline (anything with ``frame_bgr``, ``reading``
and ``settled``, like ``dicecam.vision.pipeline.PipelineOutput``), hands each settled
roll to the game session at once (that is the latency that matters), and sends a
downscaled JPEG of the live frame with its reading at a limited rate, so that slow
tablets and Wi-Fi never hold back a verdict.

When the active game changes, the outputs are opened again for the new game (its dice set
and colour profile). When the source fails or ends, the tablets are told, and the reader
opens it again after a pause; the game state is never touched by a camera fault.
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

from dicecam.vision.reading import FrameReading, SettledRoll
from dicecam.webapp import events
from dicecam.webapp.session import GameSession

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0


class LiveOutput(Protocol):
    frame_bgr: np.ndarray
    reading: FrameReading
    settled: SettledRoll | None


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
    ) -> None:
        self.session = session
        self._publish = publish
        self._open_outputs = open_outputs
        self._frame_interval = 1.0 / frame_fps if frame_fps > 0 else float("inf")
        self._max_width = frame_max_width
        self._jpeg_quality = jpeg_quality
        self._restart_when_ended = restart_when_ended
        self._status = CameraStatus.STARTING
        self._message = ""
        self._done = threading.Event()
        self.frames_seen = 0
        self.settles_seen = 0

    def status_payload(self) -> dict[str, Any]:
        return {"status": self._status.value, "message": self._message}

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
                    stop.wait(RETRY_SECONDS)
        finally:
            self._done.set()

    def _play(self, game: str | None, stop: threading.Event) -> bool:
        """Show one opening of the outputs; True when it stopped for a game switch."""
        last_frame = 0.0
        try:
            for output in self._open_outputs(game):
                if stop.is_set():
                    return False
                if self._status is not CameraStatus.RUNNING:
                    self._set_status(CameraStatus.RUNNING, "")
                self.frames_seen += 1
                if output.settled is not None:
                    self.settles_seen += 1
                    self._settle(output.settled)
                now = time.monotonic()
                if now - last_frame >= self._frame_interval:
                    last_frame = now
                    self._send_frame(output.frame_bgr, output.reading)
                if self.session.game_name != game:
                    return True
        except Exception as exc:  # a camera fault must never stop the server
            message = f"camera lost ({exc}); reconnecting"
            if message != self._message:  # say it once, not on every retry
                log.warning("frame source failed: %s", exc)
            self._set_status(CameraStatus.LOST, message)
            return False
        self._set_status(CameraStatus.ENDED, "the video source has ended")
        return False

    def _settle(self, roll: SettledRoll) -> None:
        try:
            self.session.settle(roll, settled_at=time.time())
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
