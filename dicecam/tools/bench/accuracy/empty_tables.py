"""Rendered tables with no die on them: what the detector must not fire on.

Five kinds, in turn (``EMPTY_TABLE_KINDS``):

- ``boards``: the Dicetopia city and faction boards (their real layouts,
  ``dicecam/calibration/boards``) printed and laid on a drawn table, as at a game;
- ``drawn table``: the training scenes' tables (wood, felt, plain, printed board art,
  skin-toned) with cards, tokens and counters on them, no dice;
- ``speckled carpet``: a base colour flecked with specks of three to five colours at two
  scales, the texture that drew about 230 boxes for 9 dice on a real carpet;
- ``patterned cloth``: checks, stripes or polka dots (dots are pips that are not dice);
- ``stone counter``: polished granite (grains of three to five minerals, dark ones the size
  of a small die's pips) or marble (veins through a light stone), the kitchen counter and
  the stone table issue 33 names.

The bench (``dicecam bench real``) reads them as the real photos without dice: every die
found is false. The speckled carpet, the patterned cloth and the stone counter are drawn
nowhere in the training scenes (``dicecam/synth/scene.py`` does not make them), so they are
unseen textures. (The Blender tables the models' hard negatives come from have procedural
carpets, granite and cloth of their own: `train render --tables`.)
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np

from dicecam.synth.boards import board_image, warp_onto
from dicecam.synth.light import apply_light, degrade
from dicecam.synth.scene import SceneSpec, render_scene
from dicecam.tools.bench.accuracy.calibration import dicetopia_boards

EMPTY_TABLE_KINDS = ("boards", "drawn table", "speckled carpet", "patterned cloth",
                     "stone counter")

#: The frames' size: a 720p webcam, as the calibration bench draws tables.
FRAME = (1280, 720)


def _drawn_table(rng: np.random.Generator, width: int, height: int,
                 distractors: int) -> np.ndarray:
    spec = SceneSpec(width=width, height=height, n_dice=0, die_px=(24.0, 48.0),
                     distractors=distractors, lighting=False, camera_noise=False)
    return render_scene(rng, spec).image_bgr.copy()


def _boards(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    frame = _drawn_table(rng, width, height, distractors=int(rng.integers(0, 4)))
    for layout, _label, corners in dicetopia_boards(rng, width, height, int(rng.integers(2, 5))):
        warp_onto(frame, board_image(layout, 2.0, rng), corners)
    return frame


def _speckled_carpet(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = rng.uniform(40, 200, 3)
    frame = np.empty((height, width, 3), np.float32)
    frame[:] = base
    palette = rng.uniform(0, 255, (int(rng.integers(3, 6)), 3))
    for speck_px, density in ((rng.uniform(1.5, 3.0), 0.08), (rng.uniform(4.0, 9.0), 0.03)):
        count = int(width * height * density / speck_px ** 2)
        xs = rng.integers(0, width, count)
        ys = rng.integers(0, height, count)
        colours = palette[rng.integers(0, len(palette), count)]
        radii = np.maximum(1, rng.normal(speck_px / 2, speck_px / 6, count)).astype(int)
        for x, y, r, c in zip(xs, ys, radii, colours, strict=True):
            cv2.circle(frame, (int(x), int(y)), int(r), tuple(float(v) for v in c), -1)
    frame += rng.normal(0, 6, (height, width, 1)).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8)


def _patterned_cloth(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    ground = rng.uniform(30, 230, 3)
    ink = rng.uniform(0, 255, 3)
    period = rng.uniform(14, 70)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    u = xs * np.cos(angle) + ys * np.sin(angle)
    v = -xs * np.sin(angle) + ys * np.cos(angle)
    pattern = rng.choice(["checks", "stripes", "dots"])
    if pattern == "checks":
        mask = ((np.floor(u / period) + np.floor(v / period)) % 2).astype(np.float32)
    elif pattern == "stripes":
        mask = (np.sin(2 * np.pi * u / period) > rng.uniform(-0.5, 0.5)).astype(np.float32)
    else:
        du = (u % period) - period / 2
        dv = (v % period) - period / 2
        mask = (np.hypot(du, dv) < period * rng.uniform(0.12, 0.3)).astype(np.float32)
    mask = cv2.GaussianBlur(mask, (0, 0), 0.8)
    frame = ground * (1 - mask[..., None]) + ink * mask[..., None]
    # the cloth's folds: slow light and dark waves
    folds = cv2.resize(rng.random((4, 7)).astype(np.float32), (width, height),
                       interpolation=cv2.INTER_CUBIC)
    frame *= (0.8 + 0.35 * folds)[..., None]
    return np.clip(frame, 0, 255).astype(np.uint8)


def _stone_counter(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    if rng.random() < 0.5:  # granite: each pixel the mineral whose smoothed noise is highest
        count = int(rng.integers(3, 6))
        palette = np.concatenate([rng.uniform(10, 60, (1, 3)), rng.uniform(170, 240, (1, 3)),
                                  rng.uniform(60, 220, (count - 2, 3))])
        grain = rng.uniform(1.2, 3.0)
        fields = []
        for _ in range(count):
            noise = rng.random((height, width)).astype(np.float32)
            fields.append(cv2.GaussianBlur(noise, (0, 0), grain))
        frame = palette[np.argmax(np.stack(fields), axis=0)].astype(np.float32)
    else:  # marble: dark veins along a turbulent direction through a light stone
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        turbulence = np.zeros((height, width), np.float32)
        for cells in (3, 7, 15):
            field = rng.random((cells, max(2, cells * width // height))).astype(np.float32)
            turbulence += cv2.resize(field, (width, height), interpolation=cv2.INTER_CUBIC)
        angle = rng.uniform(0, np.pi)
        period = rng.uniform(300, 700)
        u = xs * np.cos(angle) + ys * np.sin(angle)
        wave = np.sin(2 * np.pi * (u / period + rng.uniform(0.2, 0.5) * turbulence))
        veins = np.exp(-(wave / rng.uniform(0.03, 0.12)) ** 2)
        stone = rng.uniform(180, 245, 3)
        vein = rng.uniform(40, 150, 3)
        # the stone's own clouding, then the veins over it
        clouds = cv2.GaussianBlur(rng.random((height, width)).astype(np.float32), (0, 0), 25)
        clouds = (clouds - clouds.mean()) / max(float(clouds.std()), 1e-6)
        body = stone * (1 + 0.04 * clouds[..., None])
        frame = body * (1 - veins[..., None]) + vein * veins[..., None]
    return np.clip(frame, 0, 255).astype(np.uint8)


def empty_table(rng: np.random.Generator, kind: str, size: tuple[int, int] = FRAME
                ) -> np.ndarray:
    """One BGR frame of a table of ``kind`` (``EMPTY_TABLE_KINDS``) with no die on it,
    lit by a random lamp and seen through a camera."""
    width, height = size
    if kind == "boards":
        frame = _boards(rng, width, height)
    elif kind == "drawn table":
        frame = _drawn_table(rng, width, height, distractors=int(rng.integers(6, 16)))
    elif kind == "speckled carpet":
        frame = _speckled_carpet(rng, width, height)
    elif kind == "patterned cloth":
        frame = _patterned_cloth(rng, width, height)
    elif kind == "stone counter":
        frame = _stone_counter(rng, width, height)
    else:
        raise ValueError(f"unknown table kind {kind!r}: one of {', '.join(EMPTY_TABLE_KINDS)}")
    frame = apply_light(frame, rng.uniform(2700, 6500), rng,
                        glare=rng.uniform(0, 0.2) if rng.random() < 0.3 else 0.0,
                        shadow=rng.uniform(0, 0.4) if rng.random() < 0.4 else 0.0,
                        brightness=rng.uniform(0.8, 1.15))
    return degrade(frame, rng, blur=rng.uniform(0, 0.8), noise=rng.uniform(1, 4),
                   jpeg_quality=int(rng.integers(70, 96)))


def empty_tables(count: int, seed: int = 0, size: tuple[int, int] = FRAME
                 ) -> Iterator[tuple[str, np.ndarray]]:
    """``count`` (kind, frame) pairs, the kinds in turn; the same on every run of a seed."""
    for index in range(count):
        kind = EMPTY_TABLE_KINDS[index % len(EMPTY_TABLE_KINDS)]
        yield kind, empty_table(np.random.default_rng([seed, index]), kind, size)
