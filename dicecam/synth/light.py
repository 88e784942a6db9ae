"""Light and camera effects: colour temperature, glare, shadow, blur, noise, JPEG.

``apply_light`` tints an image as a lamp of the given colour temperature would (2700 K warm
to 6500 K cool), only partly corrected, as a webcam's auto white balance leaves it; it can
add a glare spot and a soft shadow. ``degrade`` adds what a cheap camera does: defocus or
motion blur, sensor noise and JPEG artefacts.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

WARM_K = 2700.0
NEUTRAL_K = 4500.0
COOL_K = 6500.0


def kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """Approximate RGB (0..1) of black-body light (Tanner Helland's fit)."""
    t = min(max(kelvin, 1000.0), 40000.0) / 100.0
    if t <= 66:
        r = 255.0
        g = 99.4708025861 * math.log(t) - 161.1195681661
        b = 0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307
    else:
        r = 329.698727446 * (t - 60) ** -0.1332047592
        g = 288.1221695283 * (t - 60) ** -0.0755148492
        b = 255.0
    return tuple(min(max(c, 0.0), 255.0) / 255.0 for c in (r, g, b))  # type: ignore[return-value]


def light_gains_bgr(kelvin: float, correction: float = 0.6) -> np.ndarray:
    """Per-channel gains (B, G, R) for light of ``kelvin`` after a white balance that removes
    ``correction`` (0..1) of the cast relative to daylight (5500 K)."""
    r, g, b = kelvin_rgb(kelvin)
    r0, g0, b0 = kelvin_rgb(5500.0)
    cast = np.array([b / b0, g / g0, r / r0], np.float32)
    cast /= cast.max()
    gains = cast ** (1.0 - correction)
    return gains / gains.max()


def apply_light(image_bgr: np.ndarray, kelvin: float, rng: np.random.Generator, *,
                glare: float = 0.0, shadow: float = 0.0, brightness: float = 1.0,
                correction: float = 0.6) -> np.ndarray:
    """Light ``image_bgr`` (uint8) by a lamp of ``kelvin``.

    ``glare`` (0..1) is the strength of one soft specular spot at a random place; ``shadow``
    (0..1) how much a soft shadow darkens a random side. Returns a new uint8 image.
    """
    img = image_bgr.astype(np.float32) * (light_gains_bgr(kelvin, correction) * brightness)
    h, w = img.shape[:2]
    if shadow > 0:
        angle = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        proj = ((xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle)) / max(h, w)
        edge = rng.uniform(-0.3, 0.3)
        soft = rng.uniform(0.05, 0.3)
        mask = 1.0 / (1.0 + np.exp(-(proj - edge) / soft))
        img *= (1.0 - shadow * mask)[..., None]
    if glare > 0:
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        radius = rng.uniform(0.05, 0.2) * max(h, w)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * radius * radius))
        img += (glare * 255.0 * spot)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def degrade(image_bgr: np.ndarray, rng: np.random.Generator, *, blur: float = 0.0,
            motion: float = 0.0, noise: float = 0.0, jpeg_quality: int | None = None,
            ) -> np.ndarray:
    """Camera effects on a uint8 image: Gaussian ``blur`` (sigma px), ``motion`` blur
    (length px, random direction), Gaussian ``noise`` (sigma in grey levels) and JPEG
    compression at ``jpeg_quality`` (None: none)."""
    img = image_bgr
    if blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if motion >= 1.0:
        length = int(round(motion)) * 2 + 1
        kernel = np.zeros((length, length), np.float32)
        angle = rng.uniform(0, 180)
        centre = (length - 1) / 2
        dx, dy = math.cos(math.radians(angle)) * centre, math.sin(math.radians(angle)) * centre
        cv2.line(kernel, (int(round(centre - dx)), int(round(centre - dy))),
                 (int(round(centre + dx)), int(round(centre + dy))), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    if noise > 0:
        noisy = img.astype(np.float32) + rng.normal(0, noise, img.shape).astype(np.float32)
        img = np.clip(noisy, 0, 255).astype(np.uint8)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img
