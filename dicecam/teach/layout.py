"""The one-minute teaching layout: dice laid out in rows by value, colours in columns.

The players lay every die they play with on the table: the 1s in the top row, the 2s below
them, ... the 6s at the bottom, one colour per column. One settled picture of it then says
every die's value by its row, with no tap per die. ``layout_values`` finds the six rows
in the dice's centres (gaps between rows wider than ``ROW_GAP`` of a die) and gives each
die its row's value; a die that lies between rows, or that the reader is sure shows
another value (a die laid in the wrong row, or turned by a finger), gets None: it is asked,
not guessed. Fewer or more than six rows cannot be read as the layout at all.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from dicecam.reading import DieReading
from dicecam.teach.learn.reader import SURE

#: the rows of the layout, top to bottom: the value each holds
ROWS = 6
#: a gap between two dice's centres (down the picture) this many dice tall starts a new row
ROW_GAP = 0.6
#: a die further than this many dice from its row's middle is between rows: asked
ROW_SPREAD = 0.45


def layout_values(dice: Sequence[DieReading]) -> tuple[list[int | None], int]:
    """Each die's value by its row (None: asked), and how many rows were found (the values
    are all None unless it is ``ROWS``)."""
    if not dice:
        return [], 0
    size = statistics.median(max(d.w, d.h) for d in dice)
    order = sorted(range(len(dice)), key=lambda i: dice[i].y)
    rows: list[list[int]] = [[order[0]]]
    for before, index in zip(order, order[1:], strict=False):
        if dice[index].y - dice[before].y > ROW_GAP * size:
            rows.append([])
        rows[-1].append(index)
    values: list[int | None] = [None] * len(dice)
    if len(rows) != ROWS:
        return values, len(rows)
    for row_number, row in enumerate(rows, start=1):
        middle = statistics.median(dice[i].y for i in row)
        for i in row:
            die = dice[i]
            between = abs(die.y - middle) > ROW_SPREAD * size
            sure_otherwise = die.value is not None and die.value != row_number \
                and die.value_confidence >= SURE
            values[i] = None if between or sure_otherwise else row_number
    return values, len(rows)
