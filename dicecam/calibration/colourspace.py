"""Colour arithmetic the colour stage and the profile fitting share.

Colours are compared in CIE Lab after a von Kries white balance: pixel values are turned
into linear light, divided channel by channel by the colour of white under the table's
light, and converted to Lab as if that white were daylight (D65). Lab separates what
players confuse (yellow/orange/red by hue, black/grey by lightness) on roughly even
scales, so one distance works for every dice set.

All arrays are in OpenCV's channel order, B, G, R.
"""

from __future__ import annotations

import numpy as np

# linear sRGB (R, G, B) -> XYZ, D65; columns reordered below for B, G, R input.
_RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_BGR_TO_XYZ = _RGB_TO_XYZ[:, ::-1]
_XYZ_TO_BGR = np.linalg.inv(_BGR_TO_XYZ)
_WHITE_XYZ = _BGR_TO_XYZ @ np.ones(3)


def srgb_to_linear(values: np.ndarray) -> np.ndarray:
    """8-bit (or 0-255 float) sRGB values to linear light in [0, 1]."""
    v = np.asarray(values, dtype=np.float64) / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(values: np.ndarray) -> np.ndarray:
    v = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    return 255.0 * np.where(v <= 0.0031308, v * 12.92, 1.055 * v ** (1 / 2.4) - 0.055)


def linear_to_lab(linear_bgr: np.ndarray, white_bgr: np.ndarray | None = None) -> np.ndarray:
    """Linear B, G, R (..., 3) to Lab (..., 3), seen relative to ``white_bgr``."""
    lin = np.asarray(linear_bgr, dtype=np.float64)
    if white_bgr is not None:
        lin = lin / np.maximum(np.asarray(white_bgr, dtype=np.float64), 1e-6)
    xyz = lin @ _BGR_TO_XYZ.T
    if xyz.ndim >= 2 and xyz.size and xyz.flags.c_contiguous:
        # the same divisions over rows of whole colours: numpy is slow on a last axis of
        # three (17,280 colours of the table light's search: 0.2 -> 0.08 ms)
        rows = xyz.reshape(xyz.shape[0], -1)
        rows /= np.tile(_WHITE_XYZ, rows.shape[1] // 3)
    else:
        xyz /= _WHITE_XYZ
    np.maximum(xyz, 0.0, out=xyz)
    f = np.cbrt(xyz)
    dark = xyz <= (6 / 29) ** 3  # the linear segment near black; rare in a die's colour
    if dark.any():
        f[dark] = xyz[dark] / (3 * (6 / 29) ** 2) + 4 / 29
    lab = np.empty_like(f)
    lab[..., 0] = 116 * f[..., 1] - 16
    lab[..., 1] = 500 * (f[..., 0] - f[..., 1])
    lab[..., 2] = 200 * (f[..., 1] - f[..., 2])
    return lab


def lab_to_linear(lab: np.ndarray) -> np.ndarray:
    """Lab (..., 3) back to linear B, G, R under the D65 white."""
    lab = np.asarray(lab, dtype=np.float64)
    fy = (lab[..., 0] + 16) / 116
    fx = fy + lab[..., 1] / 500
    fz = fy - lab[..., 2] / 200
    f = np.stack([fx, fy, fz], axis=-1)
    xyz = np.where(f > 6 / 29, f**3, 3 * (6 / 29) ** 2 * (f - 4 / 29)) * _WHITE_XYZ
    return xyz @ _XYZ_TO_BGR.T


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """8-bit sRGB B, G, R to Lab under daylight: how a colour is written in a profile."""
    return linear_to_lab(srgb_to_linear(bgr))


def planckian_white(kelvin: float) -> np.ndarray:
    """Linear B, G, R of a black body at ``kelvin``, scaled so that G = 1.

    Uses the Kim et al. (2002) cubic fit of the Planckian locus (1667-25000 K), which is
    what warm lamps and daylight lie on or near.
    """
    t = float(np.clip(kelvin, 1667.0, 25000.0))
    if t <= 4000:
        x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    else:
        x = -3.0258469e9 / t**3 + 2.1070379e6 / t**2 + 0.2226347e3 / t + 0.240390
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    elif t <= 4000:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    else:
        y = 3.0817580 * x**3 - 5.87338670 * x**2 + 3.75112997 * x - 0.37001483
    xyz = np.array([x / y, 1.0, (1 - x - y) / y])
    bgr = _XYZ_TO_BGR @ xyz
    bgr = np.maximum(bgr, 1e-3)
    return bgr / bgr[1]


def candidate_whites(
    kelvins: np.ndarray | None = None,
    tints: tuple[float, ...] = (-0.06, -0.03, 0.0, 0.03, 0.06),
    scales: tuple[float, ...] = (0.25, 0.32, 0.4, 0.5, 0.63, 0.8, 1.0, 1.25),
) -> np.ndarray:
    """A grid of plausible table lights: colour temperature x green tint x brightness.

    Returned as linear B, G, R whites, shape (n, 3). The brightness factor stands for the
    camera's exposure, which moves every colour's lightness together.
    """
    if kelvins is None:
        # Even steps in mired (1e6 / K) are even steps in how different lights look.
        kelvins = 1e6 / np.linspace(1e6 / 2200.0, 1e6 / 9000.0, 36)
    whites = []
    for k in kelvins:
        base = planckian_white(float(k))
        for tint in tints:
            tinted = base * np.array([1.0, 1.0 + tint, 1.0])
            for s in scales:
                whites.append(tinted * s)
    return np.array(whites)
