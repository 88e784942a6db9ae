"""Colours decided together when the game knows how many dice of each colour were thrown.

A Dice Party throw is a known party: the game state says how many Party People (yellow),
VIPs (orange) and Mobs (red) the thrower's party holds, and the throw must show exactly
those. ``fit_to_counts`` takes the colour stage's scores of every die and finds

* the most likely labelling that holds the counts (every die's colour chosen together), and
* for every die, how likely its colour is among all labellings that hold the counts (its
  marginal), which becomes its colour confidence.

So a die the camera was unsure of takes the colour the counts leave for it, sure, when the
other dice are clear; while a die read as a clear red that the counts would turn orange
keeps a low confidence and is asked on the tablet, never silently shifted (a die whose own
reading gave the forced colour almost no chance, ``MIN_SUPPORT``, is always asked).
Dice the players corrected keep their colour. Pure: no I/O.

Some games know only a most: Dicetopia has 2N + 2 dice of each colour in the whole game, so
the dice on its city and boards hold at most that many of each. A group marked ``at_most``
is fitted the same way over every labelling that stays within its counts: while the dice
read keep within them nothing moves, and an eleventh "purple" die among ten sure ones is
the one asked (or, when the rest of its reading points there, read as the colour left).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from dicecam.reading import LOW_CONFIDENCE, DieReading

#: The least a die's own scores must give the colour the counts choose for it before that
#: colour may be taken without asking.
MIN_SUPPORT = 0.05
#: Floor on any colour's probability (a score of 0 must not make a labelling impossible).
_FLOOR = 1e-4
#: A die that lacks scores: the share of belief its read colour gets at least (its colour
#: confidence when higher; the rest is spread over the other colours).
_UNSCORED_PRIOR = 0.8


class ColourGroup(NamedTuple):
    """Dice of one roll (their indices) whose colours the game knows the counts of: exactly
    ``counts[colour]`` of each, or with ``at_most`` no more than that."""

    indices: Sequence[int]
    counts: Mapping[str, int]
    at_most: bool = False


#: What a game's ``colour_groups`` returns: ColourGroups or plain (indices, counts) pairs.
ColourGroups = Sequence[ColourGroup | tuple[Sequence[int], Mapping[str, int]]]


def fit_groups(dice: Sequence[DieReading], groups: ColourGroups) -> tuple[DieReading, ...]:
    """The dice with each group's colours decided together (``groups``: the indices of a
    throw's dice and the count of each colour it must show, from the game). A group no
    labelling fits is left as read: the rules then say what is wrong with the throw."""
    out = list(dice)
    for group in groups:
        indices, counts, at_most = ColourGroup(*group)
        fitted = fit_to_counts([dice[i] for i in indices], counts, at_most=at_most)
        if fitted is not None:
            for i, die in zip(indices, fitted, strict=True):
                out[i] = die
    return tuple(out)


def fit_to_counts(dice: Sequence[DieReading], counts: Mapping[str, int], *,
                  at_most: bool = False) -> tuple[DieReading, ...] | None:
    """The dice with colours (and confidences) decided together so that exactly
    ``counts[colour]`` dice have each colour (``at_most``: no more than that); None when
    no labelling can (a die too many or too few, or a corrected die of a colour the counts
    leave no room for)."""
    colours = list(counts)
    target = tuple(int(counts[c]) for c in colours)
    if any(t < 0 for t in target) or not colours:
        return None
    if sum(target) < len(dice) or (sum(target) != len(dice) and not at_most):
        return None
    probs = np.array([_probabilities(d, colours) for d in dice]).reshape(len(dice),
                                                                         len(colours))
    labels = _most_likely(probs, target, at_most=at_most)
    if labels is None:
        return None
    marginals = _marginals(probs, target, at_most=at_most)
    fitted = []
    for die, row, label, marginal in zip(dice, probs, labels, marginals, strict=True):
        if die.corrected:
            fitted.append(die)
            continue
        colour = colours[label]
        typical = sum(s for _, s in die.colour_scores) if die.colour_scores else 1.0
        confidence = float(np.clip(marginal[label] * min(1.0, typical), 0.0, 1.0))
        if row[label] < MIN_SUPPORT:
            confidence = min(confidence, LOW_CONFIDENCE / 2)
        fitted.append(replace(die, colour=colour, colour_confidence=confidence,
                              confidence=min(die.value_confidence, confidence)))
    return tuple(fitted)


def _probabilities(die: DieReading, colours: list[str]) -> list[float]:
    """A die's belief over ``colours``, summing to 1."""
    if die.corrected:
        row = [1.0 if c == die.colour else 0.0 for c in colours]
        return row if any(row) else [0.0] * len(colours)
    if die.colour_scores:
        scores = dict(die.colour_scores)
        row = [max(float(scores.get(c, 0.0)), _FLOOR) for c in colours]
    elif die.colour in colours:
        own = min(max(_UNSCORED_PRIOR, float(die.colour_confidence)), 1.0 - _FLOOR)
        rest = (1.0 - own) / max(len(colours) - 1, 1)
        row = [own if c == die.colour else rest for c in colours]
    else:
        row = [1.0] * len(colours)
    total = sum(row)
    return [r / total for r in row]


class _Cells(NamedTuple):
    """Every cell (a, b, ...) of a count table, flattened: a dice of the first colour, b
    of the second... Each cell is reached after exactly a + b + ... dice, so each die's
    step of the fit touches only the cells of its own count (a few hundred of a Dice Party
    throw's thousands: the whole fit then costs the table once, not once a die)."""

    #: per colour, the flat index of the cell with one die fewer of it (-1: none)
    fewer: np.ndarray  # colours x cells
    #: per colour, the flat index of the cell with one die more of it (-1: past the limit)
    more: np.ndarray  # colours x cells
    #: per count of dice 0..n, the flat indices of the cells of that count, ascending
    by_count: list[np.ndarray]
    #: the shape of the table, (limit + 1) a colour
    shape: tuple[int, ...]


def _cells(target: tuple[int, ...], n: int) -> _Cells:
    shape = tuple(t + 1 for t in target)
    grid = np.indices(shape).reshape(len(shape), -1)
    flat = np.arange(grid.shape[1]).reshape(shape)
    fewer = np.full(grid.shape, -1)
    more = np.full(grid.shape, -1)
    for axis in range(len(shape)):
        below = [slice(None)] * len(shape)
        above = [slice(None)] * len(shape)
        below[axis], above[axis] = slice(0, -1), slice(1, None)
        fewer[axis].reshape(shape)[tuple(above)] = flat[tuple(below)]
        more[axis].reshape(shape)[tuple(below)] = flat[tuple(above)]
    total = grid.sum(axis=0)
    return _Cells(fewer, more, [np.flatnonzero(total == c) for c in range(n + 1)], shape)


def _most_likely(probs: np.ndarray, target: tuple[int, ...], *, at_most: bool = False
                 ) -> list[int] | None:
    """The labelling with the highest product of probabilities that holds the counts
    (``at_most``: stays within them). The table's cell (a, b, ...) is the best labelling
    so far with a dice of the first colour, b of the second...: a count past its limit
    falls off the table."""
    n, k = probs.shape
    cells = _cells(target, n)
    # a corrected die's other colours are impossible, not just unlikely
    logp = np.full(probs.shape, -np.inf)
    np.log(probs, out=logp, where=probs > 0)
    best = np.full(cells.fewer.shape[1], -np.inf)
    best[0] = 0.0  # no die yet
    choice = np.zeros(cells.fewer.shape[1], np.int64)  # the last die's colour, a cell
    for i, row in enumerate(logp):
        here = cells.by_count[i + 1]
        fewer = cells.fewer[:, here]
        candidates = np.where(fewer >= 0, best[fewer] + row[:, None], -np.inf)
        choice[here] = np.argmax(candidates, axis=0)
        best[here] = candidates[choice[here], np.arange(len(here))]
    ends = cells.by_count[n]
    if at_most:
        end = int(ends[np.argmax(best[ends])]) if len(ends) else -1
    else:
        end = int(np.ravel_multi_index(target, cells.shape))
    if end < 0 or not np.isfinite(best[end]):
        return None
    labels = []
    for _ in range(n):
        label = int(choice[end])
        labels.append(label)
        end = int(cells.fewer[label, end])
    return labels[::-1]


def _marginals(probs: np.ndarray, target: tuple[int, ...], *, at_most: bool = False
               ) -> np.ndarray:
    """For each die and colour, the probability of that colour among the labellings that
    hold the counts (forward-backward over the counts so far, scaled at every step). With
    ``at_most`` every count within the limits may end the labelling (the cells that n
    dice cannot reach never get any weight forward)."""
    n, k = probs.shape
    cells = _cells(target, n)
    size = cells.fewer.shape[1]

    def gathered(table: np.ndarray, index: np.ndarray) -> np.ndarray:
        return np.where(index >= 0, table[index], 0.0)

    forward = np.zeros(size)  # a cell of count i: the labellings of the first i dice
    forward[0] = 1.0
    for i, row in enumerate(probs):
        here = cells.by_count[i + 1]
        step = row @ gathered(forward, cells.fewer[:, here])
        forward[here] = step / max(step.sum(), 1e-300)
    backward = np.zeros(size)  # a cell of count i: the ways dice i.. complete it
    if at_most:
        backward[cells.by_count[n]] = 1.0
    else:
        backward[np.ravel_multi_index(target, cells.shape)] = 1.0
    out = np.zeros((n, k))
    for i in range(n - 1, -1, -1):
        here = cells.by_count[i]
        after = gathered(backward, cells.more[:, here])  # colours x cells
        out[i] = (after @ forward[here]) * probs[i]
        step = probs[i] @ after
        backward[here] = step / max(step.sum(), 1e-300)
        total = out[i].sum()
        out[i] = out[i] / total if total > 0 else 0.0
    return out
