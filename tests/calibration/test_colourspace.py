"""Lab from linear light is the plain formula, whatever the array's shape: the divisions laid
out as rows of whole colours (``linear_to_lab``) and the table light's search
(``ColourReader.estimate_white``) change where numpy divides, not what. Equal to 1e-12, not
to the bit: a matrix product of another shape may take another BLAS kernel, whose sums
round differently on another CPU (a changed formula moves Lab by far more)."""

from __future__ import annotations

import numpy as np
import pytest

from dicecam.calibration.colourspace import _BGR_TO_XYZ, _WHITE_XYZ, linear_to_lab
from dicecam.calibration.profile import builtin_profile_names, load_builtin_profile
from dicecam.vision.colour.reader import _ROBUST_CAP, ColourReader, _planar_squared_distance


def _plain_lab(linear, white=None):
    lin = np.asarray(linear, dtype=np.float64)
    if white is not None:
        lin = lin / np.maximum(np.asarray(white, dtype=np.float64), 1e-6)
    xyz = lin @ _BGR_TO_XYZ.T
    xyz /= _WHITE_XYZ
    np.maximum(xyz, 0.0, out=xyz)
    f = np.cbrt(xyz)
    dark = xyz <= (6 / 29) ** 3
    f[dark] = xyz[dark] / (3 * (6 / 29) ** 2) + 4 / 29
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]),
                     200 * (f[..., 1] - f[..., 2])], axis=-1)


@pytest.mark.parametrize("shape", [(3,), (1, 3), (5, 3), (1, 12, 3), (40, 12, 3), (4, 1, 3),
                                   (2, 3, 4, 3), (0, 3)])
def test_linear_to_lab_is_the_plain_formula(shape) -> None:
    rng = np.random.default_rng(len(shape) * 10 + shape[0])
    for _ in range(10):
        linear = rng.uniform(-0.05, 1.2, shape)  # dark, negative and bright values too
        for white in (None, rng.uniform(0.2, 2.0, 3)):
            np.testing.assert_allclose(linear_to_lab(linear, white), _plain_lab(linear, white),
                                       rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", builtin_profile_names())
def test_the_table_light_is_the_plain_search(name) -> None:
    reader = ColourReader(load_builtin_profile(name))
    rng = np.random.default_rng(7)
    for dice in (1, 2, 5, 12):
        colours = rng.uniform(0.0, 0.9, (dice, 3))
        planes = _plain_lab(colours[None, :, :], reader.candidate_whites[:, None, :]
                            ).transpose(2, 0, 1)
        nearest = np.min([_planar_squared_distance(planes, ref, spread)
                          for ref, spread in zip(reader._ref_lab, reader._spreads,
                                                 strict=True)], axis=0)
        cost = np.minimum(nearest, _ROBUST_CAP).sum(axis=1) + reader._white_prior
        np.testing.assert_array_equal(reader.estimate_white(colours),
                                      reader.candidate_whites[int(np.argmin(cost))])
