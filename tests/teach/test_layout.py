"""The one-minute teaching layout: six rows of dice by value, read by their rows."""

from __future__ import annotations

from dicecam.reading import DieReading
from dicecam.teach.layout import layout_values


def grid(columns: int = 3, *, tilt: float = 0.0) -> list[DieReading]:
    """Dice laid out as the layout asks: row k holds the k's, one colour a column; each
    read surely right except where the test changes it."""
    return [DieReading(100.0 + 70 * c, 60.0 + 70 * r + tilt * c, 40.0, 40.0, r + 1, "red",
                       0.5, value_confidence=0.5)
            for r in range(6) for c in range(columns)]


def test_each_die_takes_its_rows_value() -> None:
    dice = grid(tilt=6.0)  # a camera a little askew: the rows slope
    values, rows = layout_values(list(reversed(dice)))
    assert rows == 6
    assert values == [d.value for d in reversed(dice)]


def test_a_die_between_rows_or_surely_another_value_is_asked_not_guessed() -> None:
    dice = grid()
    dice[4] = DieReading(170.0, 130.0 + 22, 40.0, 40.0, 2, "red", 0.5)  # half a row low
    dice[7] = DieReading(170.0, 200.0, 40.0, 40.0, 5, "red", 0.97, value_confidence=0.97)
    values, rows = layout_values(dice)
    assert rows == 6
    assert values[4] is None and values[7] is None
    assert values[3] == 2 and values[6] == 3 and values.count(None) == 2


def test_more_or_fewer_rows_than_six_are_no_layout() -> None:
    values, rows = layout_values(grid()[:15])  # the 6s left out
    assert rows == 5 and values == [None] * 15
    assert layout_values([]) == ([], 0)
