"""Where the picture changed since the table was last read: the pipeline re-reads only there.

A settled table does not change, so the table reader need not read it again: each frame's
small blurred grey copy is compared with the one the dice were last read from, pixel by
pixel. Where nothing changed, the dice keep their readings; where
something did (a die moved, a hand reached in), the dice there are read again. A full
re-read every ``FULL_READ_SECONDS`` guards against slow drift (light changing, a die
nudged below the change threshold).
"""

from __future__ import annotations

import cv2
import numpy as np

#: The width of the small grey copy frames are compared on (a die is several pixels there).
CHANGE_WIDTH = 320
#: Grey levels (0-255) a small-image pixel must change by to count as changed.
CHANGE_LEVEL = 10
#: How far (in small-image pixels) a change reaches: a die whose centre lies this close to a
#: changed pixel is read again.
CHANGE_REACH_PX = 6
#: The table is read from scratch at least this often while nothing seems to change.
FULL_READ_SECONDS = 3.0


class ChangeMap:
    """Compares frames (small blurred grey copies) with the last read one."""

    def __init__(self, width: int = CHANGE_WIDTH, level: int = CHANGE_LEVEL,
                 reach_px: int = CHANGE_REACH_PX) -> None:
        self.width = width
        self.level = level
        self.reach_px = reach_px
        self._reference: np.ndarray | None = None
        self._changed: np.ndarray | None = None

    def reset(self) -> None:
        self._reference = None
        self._changed = None

    def small(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame as compared: shrunk to ``width``, grey, lightly blurred (noise)."""
        height = max(1, round(frame_bgr.shape[0] * self.width / frame_bgr.shape[1]))
        small = cv2.resize(frame_bgr, (self.width, height), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)

    def compare(self, grey: np.ndarray) -> bool | None:
        """Whether ``grey`` (``small(frame)``) differs from the last read frame anywhere
        (None: nothing was read yet, or the frame size changed: read everything)."""
        if self._reference is None or self._reference.shape != grey.shape:
            self._changed = None
            return None
        changed = cv2.absdiff(grey, self._reference) > self.level
        if self.reach_px > 0 and changed.any():
            size = 2 * self.reach_px + 1
            changed = cv2.dilate(changed.astype(np.uint8), np.ones((size, size), np.uint8)) > 0
        self._changed = changed
        return bool(changed.any())

    def changed_at(self, x: float, y: float, width: int, height: int) -> bool:
        """Whether the frame point (x, y) lies in or near a changed part (after compare)."""
        if self._changed is None:
            return True
        gh, gw = self._changed.shape
        gx = min(gw - 1, max(0, int(x * gw / width)))
        gy = min(gh - 1, max(0, int(y * gh / height)))
        return bool(self._changed[gy, gx])

    def mark_read(self, grey: np.ndarray) -> None:
        """The dice were read from this frame: later frames are compared with it."""
        self._reference = grey.copy()
