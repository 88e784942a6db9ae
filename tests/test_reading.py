"""A ``DieReading`` refuses a number that is no finite number, a box of no size, a value
off the die and a confidence outside [0, 1], naming the field; good readings pass."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dicecam.reading import DieReading

GOOD = dict(x=10.0, y=20.0, w=30.0, h=30.0, value=3, colour="red", confidence=0.5,
            value_confidence=0.5, colour_confidence=0.9)


def test_good_readings_pass() -> None:
    DieReading(**GOOD)
    DieReading(**{**GOOD, "x": 3, "value": None, "confidence": 1, "colour_confidence": 0.0})
    DieReading(**{**GOOD, "x": np.float64(5.5)})  # numpy's float64 is a float
    # finite numbers whose sum is not: the check that names a bad one finds none
    DieReading(**{**GOOD, "x": 1e308, "y": 1e308})


@pytest.mark.parametrize("field", ["x", "y", "w", "h", "confidence", "value_confidence",
                                   "colour_confidence"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, "1", None,
                                 np.float32(0.5)])
def test_a_number_that_is_no_finite_number_is_named(field, bad) -> None:
    with pytest.raises(ValueError, match=f"DieReading.{field} must be a finite number"):
        DieReading(**{**GOOD, field: bad})


@pytest.mark.parametrize(("changes", "message"), [
    ({"w": 0.0}, "positive size"),
    ({"h": -1.0}, "positive size"),
    ({"value": 7}, "1-6 or None"),
    ({"value": 0}, "1-6 or None"),
    ({"confidence": 1.01}, r"DieReading.confidence must be in \[0, 1\]"),
    ({"value_confidence": -0.1}, r"DieReading.value_confidence must be in \[0, 1\]"),
    ({"colour_confidence": 2}, r"DieReading.colour_confidence must be in \[0, 1\]"),
])
def test_a_reading_off_its_range_is_refused(changes, message) -> None:
    with pytest.raises(ValueError, match=message):
        DieReading(**{**GOOD, **changes})
