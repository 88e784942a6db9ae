"""Whether a camera's picture can be used, and a frame stream with the unusable ones dropped.

Cameras and phone streams do hand out odd frames: an empty one while a USB camera
re-enumerates, a grey or four-channel one after a driver switches mode, garbage from a
half-received stream. One such frame must not take the table reader down, and a camera that
sends nothing else must be reported as lost (``CameraFault``), so the web app's live reader
opens it again. ``pipeline.iter_outputs`` checks every frame it reads here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import cv2
import numpy as np

#: smaller than this on either side is no picture of a table
MIN_FRAME_PX = 16
#: unusable frames in a row before the camera counts as lost (about a second of video)
MAX_BAD_IN_A_ROW = 30


class CameraFault(Exception):
    """The frame source cannot deliver pictures now (a reader of a camera opens it again)."""


def frame_problem(frame: Any) -> str | None:
    """Why ``frame`` is no H x W x 3 uint8 BGR picture of a usable size, or None if it is."""
    if not isinstance(frame, np.ndarray):
        return f"a {type(frame).__name__} instead of a picture"
    if frame.dtype != np.uint8:
        return f"pixels of type {frame.dtype} instead of 8-bit"
    if frame.ndim != 3 or frame.shape[2] != 3:
        return f"a picture of shape {frame.shape} instead of height x width x 3"
    height, width = frame.shape[:2]
    if min(height, width) < MIN_FRAME_PX:
        return f"a picture of {width}x{height} pixels"
    return None


def as_bgr(frame: Any) -> Any:
    """Grey and BGRA pictures as BGR (what drivers hand out after a mode switch)."""
    if isinstance(frame, np.ndarray) and frame.dtype == np.uint8:
        if frame.ndim == 2 and min(frame.shape) >= MIN_FRAME_PX:
            return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        if frame.ndim == 3 and frame.shape[2] == 4 and min(frame.shape[:2]) >= MIN_FRAME_PX:
            return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


class CheckedFrames:
    """The frames of ``source`` that can be used (grey and BGRA converted), in order.

    Keeps the source's ``fps`` and ``live`` so the pipeline times it the same way. Raises
    ``CameraFault`` after ``max_bad_in_a_row`` unusable frames in a row; ``good`` counts the
    frames handed on.
    """

    def __init__(self, source: Iterable[Any], *, max_bad_in_a_row: int = MAX_BAD_IN_A_ROW,
                 on_bad: Callable[[str], None] | None = None) -> None:
        self._source = source
        self.fps = getattr(source, "fps", 30.0)
        self.live = getattr(source, "live", False)
        self._max_bad = max_bad_in_a_row
        self._on_bad = on_bad or (lambda problem: None)
        self.good = 0
        self.bad = 0

    def __iter__(self) -> Iterator[np.ndarray]:
        in_a_row = 0
        for raw in self._source:
            frame = as_bgr(raw)
            problem = frame_problem(frame)
            if problem is None:
                in_a_row = 0
                self.good += 1
                yield frame
                continue
            self.bad += 1
            in_a_row += 1
            self._on_bad(problem)
            if in_a_row >= self._max_bad:
                raise CameraFault(f"the camera sends unusable pictures ({problem})")
