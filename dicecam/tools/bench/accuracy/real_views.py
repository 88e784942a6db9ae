"""Other cameras' views of the real held-out photos, for ``dicecam bench real``'s
``closeup:`` and ``tilt:`` rows.

- **Close-up**: a camera close above a few dice. A window around one to three labelled
  dice is scaled up to a 1920 x 1080 frame so that one die comes out 300-600 px wide, as
  under a webcam 15 cm above the table; the window stays inside the photo and is scaled
  up at most 6x (sources of small dice give none). The scaled-up pixels are soft, but
  both networks look at shrunk copies (the detector's coarse pass at a ninth, the reader
  at 32 px), where a sharp and a soft die look alike.
- **Tilt**: a camera 30-50 degrees off vertical, as clipped to a tablet stand: the photo
  seen through the homography of the table plane turned by that angle about the frame's
  horizontal axis (the far side shrinks, dice stretch and squash). A homography moves the
  table, not the dice' sides: side faces that a real tilted camera sees are not added
  (the Blender renders of the reader's training carry those); the label boxes go through
  the same homography.

Every view is made from a seed, so the rows are the same on every run.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import cv2
import numpy as np

from dicecam.synth.camera import turned_table_corners
from dicecam.tools.realdata import LabelledDie

CLOSEUP_SIZE = (1920, 1080)
CLOSEUP_DIE_PX = (300.0, 600.0)
TILT_DEGREES = (30.0, 50.0)
#: a close-up blows a photo up at most this much (pxl's 25-40 px dice would be mush at 15x:
#: its photos give no close-ups)
MAX_UPSCALE = 6.0


def closeup(frame: np.ndarray, truth: list[LabelledDie], rng: np.random.Generator
            ) -> tuple[np.ndarray, list[LabelledDie]] | None:
    """A close-up 1920 x 1080 view around one to three of the labelled dice (None where
    the photo has none)."""
    if not truth:
        return None
    anchor = truth[int(rng.integers(len(truth)))]
    die_px = max(anchor.w, anchor.h)
    target = rng.uniform(*CLOSEUP_DIE_PX)
    scale = target / die_px
    out_w, out_h = CLOSEUP_SIZE
    win_w, win_h = out_w / scale, out_h / scale
    height, width = frame.shape[:2]
    if scale > MAX_UPSCALE or win_w > width or win_h > height:
        return None  # dice too small to blow up honestly, or the window leaves the photo
    # the window's centre near the anchor die, so that its neighbours may come in too,
    # and inside the photo (nothing made up at its edges)
    cx = anchor.cx + rng.uniform(-0.25, 0.25) * win_w
    cy = anchor.cy + rng.uniform(-0.25, 0.25) * win_h
    x0 = min(max(cx - win_w / 2, 0.0), width - win_w)
    y0 = min(max(cy - win_h / 2, 0.0), height - win_h)
    matrix = np.float32([[scale, 0, -x0 * scale], [0, scale, -y0 * scale]])
    view = cv2.warpAffine(frame, matrix, CLOSEUP_SIZE, flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    kept = []
    for die in truth:
        x, y = (die.cx - x0) * scale, (die.cy - y0) * scale
        w, h = die.w * scale, die.h * scale
        inside = w / 2 <= x <= out_w - w / 2 and h / 2 <= y <= out_h - h / 2
        if inside:
            kept.append(replace(die, cx=x, cy=y, w=w, h=h))
        elif -w / 2 < x < out_w + w / 2 and -h / 2 < y < out_h + h / 2:
            return None  # a die cut by the frame's edge: neither to find nor to ignore
    return (view, kept) if kept else None


def tilted(frame: np.ndarray, truth: list[LabelledDie], rng: np.random.Generator
           ) -> tuple[np.ndarray, list[LabelledDie]]:
    """The photo as a camera 30-50 degrees off vertical would see its table."""
    h, w = frame.shape[:2]
    angle = math.radians(rng.uniform(*TILT_DEGREES))
    # the table plane turned about the horizontal axis through the frame's centre, seen
    # by a pinhole camera whose focal length is the frame's diagonal
    focal = math.hypot(w, h)
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    moved = np.float32(turned_table_corners(w, h, angle, focal))
    if rng.random() < 0.5:  # the camera on the other side of the table
        moved = np.float32([[x, h - y] for x, y in moved[[3, 2, 1, 0]]])
    homography = cv2.getPerspectiveTransform(corners, moved)
    # the edge pixels carried on where the turned table leaves the photo (a mirror image
    # would add dice nobody labelled)
    view = cv2.warpPerspective(frame, homography, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    kept = []
    for die in truth:
        box = np.float32([[[die.cx - die.w / 2, die.cy - die.h / 2]],
                          [[die.cx + die.w / 2, die.cy - die.h / 2]],
                          [[die.cx + die.w / 2, die.cy + die.h / 2]],
                          [[die.cx - die.w / 2, die.cy + die.h / 2]]])
        points = cv2.perspectiveTransform(box, homography)[:, 0]
        (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
        kept.append(replace(die, cx=float(x0 + x1) / 2, cy=float(y0 + y1) / 2,
                            w=float(x1 - x0), h=float(y1 - y0)))
    return view, kept


def views(photos, seed: int = 0) -> Iterator[tuple[str, str, np.ndarray, list[LabelledDie]]]:
    """(group, source, frame, truth) for each held-out photo: its close-up (where one can
    be cut) and its tilted view; the group names are ``closeup:SOURCE``, ``tilt:SOURCE``."""
    for index, photo in enumerate(photos):
        if not photo.held_out:
            continue
        frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
        if frame is None:
            continue
        height, width = frame.shape[:2]
        truth = photo.dice(width, height)
        rng = np.random.default_rng([seed, index])
        for _ in range(4):  # a few tries for a window that cuts no die
            made = closeup(frame, truth, rng)
            if made is not None:
                yield f"closeup:{photo.source}", photo.source, made[0], made[1]
                break
        view, moved = tilted(frame, truth, rng)
        yield f"tilt:{photo.source}", photo.source, view, moved
