"""Printed game boards drawn into a frame: a board's picture from its layout, where it lies
on the table (turned a little, in slight perspective), and warping it there. Used by the
calibration bench (dice on boards) and the rendered tables without dice."""

from __future__ import annotations

import math

import cv2
import numpy as np


def board_image(layout, px_per_unit: float, rng: np.random.Generator):
    """A printed board: tinted zones with borders and the dice fields marked."""

    w, h = (int(round(v * px_per_unit)) for v in layout.size)
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = rng.integers(40, 90, 3)
    for zone in layout.zones:
        pts = np.round(np.array(zone.polygon) * px_per_unit).astype(np.int32)
        cv2.fillPoly(image, [pts], tuple(int(c) for c in rng.integers(60, 200, 3)))
        cv2.polylines(image, [pts], True, (20, 20, 20), max(1, int(px_per_unit * 3)))
        half = layout.field_size * px_per_unit / 2
        for fx, fy in zone.fields:
            x, y = fx * px_per_unit, fy * px_per_unit
            cv2.rectangle(image, (int(x - half), int(y - half)), (int(x + half), int(y + half)),
                          (230, 230, 230), max(1, int(px_per_unit)))
    return image


def quad_in(region, aspect: float, rng: np.random.Generator):
    """Corners of a board of ``aspect`` (w/h) lying in ``region`` (x0, y0, x1, y1), turned a
    little and seen slightly in perspective."""
    x0, y0, x1, y1 = region
    rw, rh = x1 - x0, y1 - y0
    w = min(rw, rh * aspect) * rng.uniform(0.78, 0.9)
    h = w / aspect
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    angle = math.radians(rng.uniform(-7, 7))
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    base = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    keystone = rng.uniform(-0.06, 0.06)  # far edge shorter: a camera looking at an angle
    base[:2, 0] *= 1 - keystone
    base[2:, 0] *= 1 + keystone
    corners = base @ rot.T + [cx, cy] + rng.normal(0, 0.01 * w, (4, 2))
    return tuple((float(x), float(y)) for x, y in corners)


def warp_onto(frame, image, corners) -> None:
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(src, np.float32(corners))
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(image, matrix, size)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size)
    frame[mask > 127] = warped[mask > 127]
