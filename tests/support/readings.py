"""Settled dice for adapter tests: (value, colour, zone) -> DieReading, boxes in a row."""

from __future__ import annotations

from dicecam.reading import DieReading


def read_dice(*items: tuple[int | None, str | None, str | None]) -> list[DieReading]:
    return [DieReading(40.0 + 50 * i, 40.0, 36.0, 36.0, value, colour, 0.99, zone)
            for i, (value, colour, zone) in enumerate(items)]
