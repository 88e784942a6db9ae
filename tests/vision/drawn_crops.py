"""Die crops drawn with numpy's elementwise arithmetic alone, for tests that freeze what a
stage reads of them.

The scene renderer (``dicecam.synth``) draws with OpenCV, whose anti-aliased shapes, text and
JPEG codec change between its releases (OpenCV 4.14 and 5.1 render the same seeded table up
to 224 grey levels apart): a test frozen on its renders fails on a new release although the
stage under test did not change. These crops use only ``+ - * /``, comparisons, square roots
and means of a seeded PCG64's uniform draws, which every CPU and numpy release compute to
the same uint8 pixels.

Each crop is a die of a built-in set (its body and marks: pips, or a bar figure standing in
for a numeral), turned, off centre, shaded from one side, sometimes glared, lit by a tinted
lamp and partly corrected as a webcam would, on a table of its own colour, with a second
die's edge in view now and then and sensor noise."""

from __future__ import annotations

import math

import numpy as np

from dicecam.synth.dicesets import DICE_SETS, DieLook

#: pip centres per value in face units (-1..1)
_PIPS = {
    1: ((0, 0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0, 0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0, 0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0), (0.5, 0), (-0.5, 0.5), (0.5, 0.5)),
}
#: a numeral's strokes as boxes (u0, v0, u1, v1) in face units: a seven-segment figure
_SEGMENTS = {
    "top": (-0.35, -0.62, 0.35, -0.48), "middle": (-0.35, -0.07, 0.35, 0.07),
    "bottom": (-0.35, 0.48, 0.35, 0.62), "upper_left": (-0.35, -0.62, -0.21, 0.0),
    "upper_right": (0.21, -0.62, 0.35, 0.0), "lower_left": (-0.35, 0.0, -0.21, 0.62),
    "lower_right": (0.21, 0.0, 0.35, 0.62),
}
_DIGITS = {
    1: ("upper_right", "lower_right"),
    2: ("top", "upper_right", "middle", "lower_left", "bottom"),
    3: ("top", "upper_right", "middle", "lower_right", "bottom"),
    4: ("upper_left", "upper_right", "middle", "lower_right"),
    5: ("top", "upper_left", "middle", "lower_right", "bottom"),
    6: ("top", "upper_left", "middle", "lower_left", "lower_right", "bottom"),
}
_TABLES = ((60, 90, 130), (40, 110, 40), (120, 120, 120), (35, 35, 45), (170, 190, 200),
           (90, 60, 30), (200, 200, 205))
_SUPERSAMPLE = 3


def _pick(rng: np.random.Generator, n: int) -> int:
    return min(int(rng.random() * n), n - 1)


def _uniform(rng: np.random.Generator, low: float, high: float) -> float:
    return low + (high - low) * float(rng.random())


def _lamp_gains(kelvin: float) -> np.ndarray:
    """B, G, R gains of a lamp of ``kelvin`` after a white balance that took away half its
    cast: a straight line between warm and cool, not a black body (no logarithms)."""
    warmth = (6500.0 - kelvin) / 3800.0  # 1 at 2700 K, 0 at 6500 K
    return np.array([1.0 - 0.30 * warmth, 1.0 - 0.08 * warmth, 1.0])


def _face_marks(u: np.ndarray, v: np.ndarray, value: int, look: DieLook) -> np.ndarray:
    """Where the marks are, as a 0/1 array over face coordinates ``u``, ``v`` (-1..1)."""
    marks = np.zeros(u.shape, bool)
    if look.marks == "numerals":
        for name in _DIGITS[value]:
            u0, v0, u1, v1 = _SEGMENTS[name]
            marks |= (u >= u0) & (u <= u1) & (v >= v0) & (v <= v1)
    else:
        for pu, pv in _PIPS[value]:
            marks |= (u - pu) ** 2 + (v - pv) ** 2 <= 0.18 ** 2
    return marks


def _square(x: np.ndarray, y: np.ndarray, cx: float, cy: float, half: float, cos: float,
            sin: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A rounded square turned by (cos, sin) about (cx, cy): its mask and face coordinates."""
    u = ((x - cx) * cos + (y - cy) * sin) / half
    v = (-(x - cx) * sin + (y - cy) * cos) / half
    corner = 0.25
    du = np.maximum(np.abs(u) - (1 - corner), 0.0)
    dv = np.maximum(np.abs(v) - (1 - corner), 0.0)
    inside = (np.abs(u) <= 1) & (np.abs(v) <= 1) & (du * du + dv * dv <= corner * corner)
    return inside, u, v


def draw_crop(rng: np.random.Generator, set_name: str) -> tuple[np.ndarray, str]:
    """One crop (uint8 BGR, 18-110 px square) of a die of ``set_name`` and its colour's name."""
    dice_set = DICE_SETS[set_name]
    colour = dice_set.colour_names[_pick(rng, len(dice_set.colours))]
    looks = dice_set.colours[colour]
    look = looks[_pick(rng, len(looks))]
    value = 1 + _pick(rng, 6)
    side = 18 + _pick(rng, 93)
    n = side * _SUPERSAMPLE
    y, x = np.mgrid[0:n, 0:n].astype(np.float64) / _SUPERSAMPLE

    table = np.array(_TABLES[_pick(rng, len(_TABLES))], np.float64)
    table_shade = 0.85 + 0.3 * (x + y) / (2 * side) * _uniform(rng, 0.0, 1.0)
    image = table[None, None, :] * table_shade[..., None]

    if rng.random() < 0.3:  # a neighbour's edge in view
        ncx, ncy = (side * _uniform(rng, -0.2, 1.2) for _ in range(2))
        near, _, _ = _square(x, y, ncx, ncy, side * 0.45, 1.0, 0.0)
        image[near] = np.array(looks[0].body_bgr, np.float64) * 0.9

    half = side * _uniform(rng, 0.28, 0.47)
    cx = side / 2 + side * _uniform(rng, -0.12, 0.12)
    cy = side / 2 + side * _uniform(rng, -0.12, 0.12)
    angle = _uniform(rng, 0.0, math.pi / 2)
    die, u, v = _square(x, y, cx, cy, half, math.cos(angle), math.sin(angle))
    marks = _face_marks(u, v, value, look)
    body = np.array(look.body_bgr, np.float64)
    mark = np.array(look.mark_bgr, np.float64)
    face = np.where(marks[..., None], mark[None, None, :], body[None, None, :])
    shade = 1.0 - _uniform(rng, 0.0, 0.25) * (u + v + 2) / 4
    face = face * shade[..., None]
    if rng.random() < 0.25:  # a glare spot
        gu, gv = _uniform(rng, -0.6, 0.6), _uniform(rng, -0.6, 0.6)
        spot = np.maximum(0.0, 1.0 - ((u - gu) ** 2 + (v - gv) ** 2) / 0.2)
        face = face + (255.0 - face) * (0.7 * spot)[..., None]
    image = np.where(die[..., None], face, image)

    image = image.reshape(side, _SUPERSAMPLE, side, _SUPERSAMPLE, 3).mean(axis=(1, 3))
    image = image * _lamp_gains(_uniform(rng, 2700.0, 6500.0))[None, None, :]
    image = image * _uniform(rng, 0.55, 1.15)  # the exposure
    sigma = _uniform(rng, 0.0, 6.0)  # sensor noise: three uniforms, nearly normal
    noise = (rng.random(image.shape) + rng.random(image.shape) + rng.random(image.shape)
             - 1.5) * (2.0 * sigma)
    return np.clip(np.floor(image + noise + 0.5), 0, 255).astype(np.uint8), colour


def drawn_crops(set_name: str, count: int, seed: int) -> list[tuple[np.ndarray, str]]:
    rng = np.random.Generator(np.random.PCG64([seed, sum(map(ord, set_name))]))
    return [draw_crop(rng, set_name) for _ in range(count)]
