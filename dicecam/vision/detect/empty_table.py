"""The empty table: a box that looks like the table did without dice is not a die.

A fixed camera sees the same table for hours. One picture of it with no dice on it
(``dicecam calibrate table``) tells the pipeline what every printed square, carpet speck
and wood knot looks like there; a detection whose patch still looks like that picture
(the same structure, the same colour) is dropped before it is read: the detector's false
dice on a patterned cloth or a printed board. A real die changes its patch, so it stays.

Decisions:
- Patches are compared at a reduced size (``COMPARE_LONG_SIDE``), blurred, allowing a shift
  of a few pixels (a camera nudged, a frame's jitter), by their normalised correlation and
  their mean colour; a flat patch (felt) has no structure to correlate, so there its colour
  alone decides.
- A box the frame's edge cuts is compared on the part of its patch inside the frame (at
  least half its side each way); a sliver at the very edge is kept. On ``bench real`` the
  false dice left with the empty-table picture lay along the edges: the real photos
  without dice 6 -> 0, the rendered tables 14 -> 1 (2026-11-27).
- Light changes over an evening: each patch is compared after the table's overall gain
  (frame against picture, per channel, over the whole table) is taken out. The picture is
  never updated from play: a die lying still for an hour, or one the detector missed, would
  otherwise become "table" and be dropped from then on.
- When the camera has moved, patches no longer match and nothing is dropped: the failure
  is the reading without this stage, never a lost die. A picture of another size than the
  frames is ignored with a warning by whoever loads it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Frames and the picture are compared with their long side scaled to this.
COMPARE_LONG_SIDE = 480
#: Blur (sigma, in compared pixels) before comparing: noise and sub-pixel jitter.
BLUR_SIGMA = 1.2
#: The patch compared around a box: its larger side times this.
PATCH_SCALE = 1.25
#: The largest shift (compared pixels) searched between frame and picture.
MAX_SHIFT = 2
#: A patch is the table when it correlates at least this well with the picture ...
MIN_CORRELATION = 0.75
#: ... and its mean colour (after the table's gain) lies within this many 8-bit levels.
MAX_COLOUR_DIFFERENCE = 14.0
#: A patch the frame's edge cuts is compared when at least this share of its side (each
#: way) lies inside the frame, less the shift searched
MIN_EDGE_SHARE = 0.5
#: Below this standard deviation (8-bit grey) a patch has no structure to correlate.
FLAT_STD = 4.0


@dataclass(frozen=True)
class EmptyTable:
    """A picture of the table without dice, kept at the comparing size."""

    picture: np.ndarray  # float32 H x W x 3, blurred, at COMPARE_LONG_SIDE
    width: int  # the frame size it was taken at
    height: int

    @classmethod
    def from_frame(cls, frame_bgr: np.ndarray) -> EmptyTable:
        height, width = frame_bgr.shape[:2]
        return cls(_prepare(frame_bgr), width, height)

    @property
    def grey(self) -> np.ndarray:
        return _grey(self.picture)

    def fits(self, frame_bgr: np.ndarray) -> bool:
        """Whether frames of this size can be compared with the picture."""
        height, width = frame_bgr.shape[:2]
        return (width, height) == (self.width, self.height)

    def matches(self, frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """For each box (cx, cy, w, h in frame pixels), True where the frame there still
        looks like the empty table (so the box holds no die)."""
        out = np.zeros(len(boxes), bool)
        if len(boxes) == 0 or not self.fits(frame_bgr):
            return out
        frame = _prepare(frame_bgr)
        gain = np.array(cv2.mean(self.picture)[:3]) / np.maximum(cv2.mean(frame)[:3], 1.0)
        frame = cv2.multiply(frame, (*gain, 0.0))  # the light as when the picture was taken
        k = frame.shape[1] / self.width
        frame_grey, picture_grey = _grey(frame), self.grey
        for i, (cx, cy, w, h) in enumerate(boxes):
            half = max(3, int(round(max(w, h) * k * PATCH_SCALE / 2)))
            out[i] = _same_patch(frame, self.picture, frame_grey, picture_grey,
                                 int(round(cx * k)), int(round(cy * k)), half)
        return out


def _prepare(frame_bgr: np.ndarray) -> np.ndarray:
    height, width = frame_bgr.shape[:2]
    k = COMPARE_LONG_SIDE / max(height, width)
    small = cv2.resize(frame_bgr, (max(1, round(width * k)), max(1, round(height * k))),
                       interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small.astype(np.float32), (0, 0), BLUR_SIGMA)


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _same_patch(frame: np.ndarray, picture: np.ndarray, frame_grey: np.ndarray,
                picture_grey: np.ndarray, x: int, y: int, half: int) -> bool:
    height, width = frame.shape[:2]
    # at the frame's edge the part of the patch inside it (less the shift searched) is
    # compared; under ``MIN_EDGE_SHARE`` of the patch's side left either way, the die is
    # kept (a speckled carpet's false dice lay along the edges, where no patch fitted)
    x0, x1 = max(x - half, MAX_SHIFT), min(x + half + 1, width - MAX_SHIFT)
    y0, y1 = max(y - half, MAX_SHIFT), min(y + half + 1, height - MAX_SHIFT)
    if min(x1 - x0, y1 - y0) < MIN_EDGE_SHARE * (2 * half + 1):
        return False  # too little of it inside the frame: keep the die
    rows, cols = slice(y0, y1), slice(x0, x1)
    colour = max(abs(a - b) for a, b in zip(cv2.mean(frame[rows, cols])[:3],
                                            cv2.mean(picture[rows, cols])[:3], strict=True))
    if colour > MAX_COLOUR_DIFFERENCE:
        return False
    grey = np.ascontiguousarray(frame_grey[rows, cols])
    if cv2.meanStdDev(grey)[1][0, 0] < FLAT_STD and \
            cv2.meanStdDev(np.ascontiguousarray(picture_grey[rows, cols]))[1][0, 0] < FLAT_STD:
        return True  # both flat: no structure to correlate, the colour decides
    # the best normalised correlation over shifts of up to MAX_SHIFT pixels
    around = picture_grey[y0 - MAX_SHIFT:y1 + MAX_SHIFT, x0 - MAX_SHIFT:x1 + MAX_SHIFT]
    corr = cv2.matchTemplate(np.ascontiguousarray(around), grey, cv2.TM_CCOEFF_NORMED)
    return float(np.nanmax(corr)) >= MIN_CORRELATION
