"""Render one die as a small 3D cube seen from above, with OpenCV.

Each visible face is drawn flat (rounded square, pips or a numeral), then warped onto the
projected cube with a homography and shaded by a light from above. Tilting the cube shows
its side faces with their own marks, as a webcam at an angle sees them; a large tilt makes
a cocked die. Faces are drawn at twice the output size and shrunk, for smooth edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicecam.synth.dicesets import DieLook

#: Pip centres per value in face units (0..1, y down): the standard layout.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}

_SUPERSAMPLE = 2


@dataclass(frozen=True)
class RenderedDie:
    """A rendered die on a transparent canvas.

    ``image_bgra`` is HxWx4 uint8 (alpha 0 off the die). ``top_box`` is ``(cx, cy, w, h)``
    of the face that looks most towards the camera, in that image's pixels: what a detector
    boxes and what a crop is centred on. ``top_value`` is the value on that face (for a
    strongly tilted die it may not be the ``value`` asked for).
    """

    image_bgra: np.ndarray
    top_box: tuple[float, float, float, float]
    top_value: int
    top_facing: float  # cosine between the top face's normal and the view direction


def _rounded_mask(size: int, radius: float) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    r = max(1, int(round(radius * size)))
    cv2.rectangle(mask, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _marble(size: int, look: DieLook, rng: np.random.Generator) -> np.ndarray:
    """A body with swirled bands of a second colour."""
    noise = rng.random((5, 5)).astype(np.float32)
    noise = cv2.resize(noise, (size, size), interpolation=cv2.INTER_CUBIC)
    freq = rng.uniform(6, 14)
    bands = 0.5 + 0.5 * np.sin(noise * freq + rng.uniform(0, 6.3))
    # soft-edged swirls: real marbled dice blend their colours rather than print stripes
    bands = np.clip((bands - 0.25) * 1.4, 0, 1)[..., None]
    body = np.array(look.body_bgr, np.float32)
    marble = np.array(look.marble_bgr, np.float32)
    return (body * (1 - bands) + marble * bands).astype(np.float32)


def _draw_marks(face: np.ndarray, value: int, look: DieLook, rng: np.random.Generator,
                pip_radius: float, spread: float, numeral_font: int, numeral_weight: float,
                ) -> None:
    size = face.shape[0]
    colour = tuple(int(c) for c in look.mark_bgr)
    if look.marks == "pips":
        shift = 4
        scale = 1 << shift
        for px, py in PIP_LAYOUT[value]:
            x = 0.5 + (px - 0.5) * spread
            y = 0.5 + (py - 0.5) * spread
            centre = (int(round(x * size * scale)), int(round(y * size * scale)))
            radius = int(round(pip_radius * size * scale))
            cv2.circle(face, centre, radius, colour, -1, cv2.LINE_AA, shift)
        return
    text = str(value)
    thickness = max(1, int(round(size * numeral_weight)))
    (tw, th), _ = cv2.getTextSize(text, numeral_font, 1.0, thickness)
    scale = size * 0.55 / max(th, 1)
    thickness = max(1, int(round(size * numeral_weight)))
    (tw, th), base = cv2.getTextSize(text, numeral_font, scale, thickness)
    org = (int((size - tw) / 2), int((size + th) / 2))
    cv2.putText(face, text, org, numeral_font, scale, colour, thickness, cv2.LINE_AA)
    if value == 6 and rng.random() < 0.5:  # many numeral dice underline the 6
        y = min(size - 2, org[1] + max(2, thickness))
        cv2.line(face, (org[0], y), (org[0] + tw, y), colour, max(1, thickness // 2))


def _face_texture(value: int, look: DieLook, size: int, corner_radius: float,
                  rng: np.random.Generator, style: dict, *, hidden: bool = False
                  ) -> np.ndarray:
    """A face's BGR + alpha texture. A see-through die's faces keep their paint opaque
    over a clearer body; a ``hidden`` face (turned away, seen through the body) is its
    marks alone, as faint as the die's ``see_through``."""
    if look.marbled:
        face = np.clip(_marble(size, look, rng), 0, 255).astype(np.uint8)
    else:
        face = np.empty((size, size, 3), np.uint8)
        face[:] = look.body_bgr
    _draw_marks(face, value, look, rng, **style)
    alpha = _rounded_mask(size, corner_radius).astype(np.float32)
    if look.see_through > 0:
        marks = np.zeros((size, size, 3), np.uint8)
        _draw_marks(marks, value, replace(look, mark_bgr=(255, 255, 255)), rng, **style)
        paint = marks[..., 0].astype(np.float32) / 255.0
        body_alpha = 1.0 - look.see_through if not hidden else 0.0
        keep = min(1.0, 1.5 * look.see_through) if hidden else 1.0
        alpha *= body_alpha + (keep - body_alpha) * paint
    elif look.translucent:
        alpha *= style_alpha(rng)
    return np.dstack([face.astype(np.float32), alpha])


def style_alpha(rng: np.random.Generator) -> float:
    return float(rng.uniform(0.72, 0.9))


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    axis = axis / np.linalg.norm(axis)
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    return np.array([
        [c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
        [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
        [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)],
    ])


# Faces of the unit cube: (normal, u axis, v axis) with u x v = -normal, so a face's texture
# (x right, y down) is seen unmirrored from outside. Camera frame: x right, y up, z to camera.
_FACES = (
    (np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, -1.0, 0])),    # top
    (np.array([0, -1.0, 0]), np.array([1.0, 0, 0]), np.array([0, 0, -1.0])),   # south
    (np.array([0, 1.0, 0]), np.array([-1.0, 0, 0]), np.array([0, 0, -1.0])),   # north
    (np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), np.array([0, 0, -1.0])),    # east
    (np.array([-1.0, 0, 0]), np.array([0, -1.0, 0]), np.array([0, 0, -1.0])),  # west
    (np.array([0, 0, -1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])),    # bottom
)


def side_values(value: int, rng: np.random.Generator) -> tuple[int, int, int, int]:
    """The four values around ``value`` (opposite faces sum to 7), in a random valid order."""
    sides = [v for v in range(1, 7) if v not in (value, 7 - value)]
    first = sides[int(rng.integers(4))]
    second = [v for v in sides if v not in (first, 7 - first)][int(rng.integers(2))]
    # south, north, east, west: opposite pairs sum to 7
    return (first, 7 - first, second, 7 - second)


def render_die(value: int, look: DieLook, size_px: int, rng: np.random.Generator, *,
               rotation_deg: float = 0.0, tilt: float = 0.0, corner_radius: float = 0.15,
               tilt_azimuth_deg: float | None = None, perspective: float = 0.08,
               light_dir: tuple[float, float, float] | None = None) -> RenderedDie:
    """Render a die showing ``value`` on top.

    ``size_px`` is the top face's edge in output pixels. ``rotation_deg`` turns the die about
    the vertical; ``tilt`` (degrees) leans it towards ``tilt_azimuth_deg`` (random when
    None), showing side faces; beyond about 35 degrees the die looks cocked.
    ``perspective`` is the strength of the keystone effect (0 = orthographic).
    """
    if value not in PIP_LAYOUT:
        raise ValueError(f"die value must be 1-6, got {value!r}")
    if size_px < 4:
        raise ValueError(f"die size must be at least 4 px, got {size_px}")
    ss = _SUPERSAMPLE if size_px < 64 else 1
    tex = max(16, int(size_px * ss))
    canvas_side = int(math.ceil(size_px * 2.4)) | 1
    big = canvas_side * ss
    azimuth = math.radians(tilt_azimuth_deg if tilt_azimuth_deg is not None
                           else rng.uniform(0, 360))
    rot = _rotation(np.array([math.cos(azimuth), math.sin(azimuth), 0.0]), math.radians(tilt))
    rot = rot @ _rotation(np.array([0, 0, 1.0]), math.radians(rotation_deg))
    if light_dir is None:
        light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0])
    else:
        light = np.array(light_dir, float)
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.55)
    style = {
        "pip_radius": rng.uniform(0.075, 0.13),
        "spread": rng.uniform(0.9, 1.12),
        "numeral_font": [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX][int(rng.integers(4))],
        "numeral_weight": rng.uniform(0.06, 0.11),
    }
    sides = side_values(value, rng)
    values = (value, *sides, 7 - value)

    scale = size_px * ss
    centre = big / 2.0
    focal = 1.0 / max(perspective, 1e-6)

    def project(points: np.ndarray) -> np.ndarray:
        # the top face centre stays at the canvas centre whatever the tilt
        pts = points @ rot.T - (np.array([0, 0, 0.5]) @ rot.T)
        persp = focal / (focal - pts[:, 2]) if perspective > 0 else np.ones(len(pts))
        return np.stack([centre + scale * pts[:, 0] * persp,
                         centre - scale * pts[:, 1] * persp], axis=1)

    acc = np.zeros((big, big, 3), np.float32)
    acc_alpha = np.zeros((big, big), np.float32)
    drawn = []
    for index, (normal, u, v) in enumerate(_FACES):
        n_cam = rot @ normal
        if n_cam[2] <= 0.02 and look.see_through <= 0:
            continue  # turned away (a see-through die shows its marks through the body)
        corners3 = np.array([normal * 0.5 - u * 0.5 - v * 0.5, normal * 0.5 + u * 0.5 - v * 0.5,
                             normal * 0.5 + u * 0.5 + v * 0.5, normal * 0.5 - u * 0.5 + v * 0.5])
        depth = float((corners3 @ rot.T)[:, 2].mean())
        drawn.append((depth, index, n_cam, project(corners3)))
    drawn.sort(key=lambda item: item[0])
    top_index, top_cos, top_corners = 0, -1.0, None
    for _depth, index, n_cam, corners in drawn:
        hidden = n_cam[2] <= 0.02
        texture = _face_texture(values[index], look, tex, corner_radius, rng, style,
                                hidden=hidden)
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, big), min(y1, big)
        src = np.array([[0, 0], [tex, 0], [tex, tex], [0, tex]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
        warped = cv2.warpPerspective(texture, matrix, (x1 - x0, y1 - y0),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                     borderValue=0)
        # a face seen through the body is lit through it: dimmer than any face outside
        shade = ambient * 0.7 if hidden \
            else ambient + (1 - ambient) * max(0.0, float(n_cam @ light))
        a = warped[..., 3:4] * (1.0 / 255.0)
        roi = acc[y0:y1, x0:x1]
        roi += (warped[..., :3] * shade - roi) * a
        roi_alpha = acc_alpha[y0:y1, x0:x1]
        roi_alpha += (1.0 - roi_alpha) * a[..., 0]
        if hidden:
            continue  # the die's own alpha and its top face are the faces outside
        if n_cam[2] > top_cos:
            top_index, top_cos, top_corners = index, float(n_cam[2]), corners
    if ss > 1:
        acc = cv2.resize(acc, (canvas_side, canvas_side), interpolation=cv2.INTER_AREA)
        acc_alpha = cv2.resize(acc_alpha, (canvas_side, canvas_side),
                               interpolation=cv2.INTER_AREA)
    image = np.dstack([np.clip(acc, 0, 255), np.clip(acc_alpha * 255, 0, 255)]).astype(np.uint8)
    assert top_corners is not None
    box_pts = top_corners / ss
    x0, y0 = box_pts.min(axis=0)
    x1, y1 = box_pts.max(axis=0)
    top_box = ((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0)
    return RenderedDie(image, tuple(float(t) for t in top_box), values[top_index], top_cos)
