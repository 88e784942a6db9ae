"""The projective map from a board's own layout onto the camera frame.

The user marks a printed board's four corners in the frame (top-left, top-right,
bottom-right, bottom-left as the board is printed); the homography through those four
point pairs carries every zone of the board's known layout into frame pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dicecam.errors import InputError

Point = tuple[float, float]

CORNER_ORDER = "top-left, top-right, bottom-right, bottom-left"


def homography(src: Sequence[Point], dst: Sequence[Point]) -> np.ndarray:
    """The 3x3 matrix H with H @ (x, y, 1) ~ (u, v, 1) for four point pairs."""
    s = np.asarray(src, dtype=np.float64)
    d = np.asarray(dst, dtype=np.float64)
    if s.shape != (4, 2) or d.shape != (4, 2):
        raise InputError(f"a homography needs exactly four point pairs, got {len(s)} and {len(d)}")
    rows, rhs = [], []
    for (x, y), (u, v) in zip(s, d, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    a = np.array(rows)
    if abs(np.linalg.det(a)) < 1e-9 * max(1.0, np.abs(a).max()) ** 4:
        raise InputError(
            "the four corners do not span an area (three of them lie on a line); mark the "
            f"board's corners again in the order {CORNER_ORDER}"
        )
    h = np.linalg.solve(a, np.array(rhs))
    return np.append(h, 1.0).reshape(3, 3)


def apply_homography(matrix: np.ndarray, points: Sequence[Point] | np.ndarray) -> np.ndarray:
    """Map points (n, 2) through ``matrix``."""
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    ph = np.hstack([p, np.ones((len(p), 1))]) @ np.asarray(matrix).T
    return ph[:, :2] / ph[:, 2:3]


def check_corners(corners: Sequence[Point], where: str) -> None:
    """Refuse corners that cannot be a board seen by a camera: not four, crossed, concave."""
    c = np.asarray(corners, dtype=np.float64)
    if c.shape != (4, 2):
        raise InputError(f"{where} must be four corners (x, y), got {len(c)}")
    crosses = []
    for i in range(4):
        a, b, nxt = c[i], c[(i + 1) % 4], c[(i + 2) % 4]
        (ux, uy), (vx, vy) = b - a, nxt - b
        crosses.append(float(ux * vy - uy * vx))
    # A board seen from above is a convex quadrilateral; on screen (y down) going round it
    # top-left -> top-right -> bottom-right -> bottom-left turns the same way each time.
    if not (all(x > 0 for x in crosses) or all(x < 0 for x in crosses)):
        raise InputError(
            f"{where}: the four corners do not make a convex quadrilateral; give them in the "
            f"order {CORNER_ORDER}, as the board is printed"
        )
