"""Which found die is which known die: matching by box centre, closest pairs first.

A found die matches a known one (a label, a die the players tapped) when its centre lies
within ``tolerance`` times the known die's size of the known centre; each is used once.
Centres, never overlaps: some labels box only the pip pattern, others the whole die.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def match_centres(
    truth: Sequence[tuple[float, float, float]],
    found: Sequence[tuple[float, float]],
    tolerance: float = 0.5,
) -> list[int | None]:
    """For each true die (cx, cy, size), the index of the found centre it matches, or None."""
    if not truth or not found:
        return [None] * len(truth)
    t = np.asarray(truth, np.float64)
    f = np.asarray(found, np.float64)
    dist = np.hypot(t[:, None, 0] - f[None, :, 0], t[:, None, 1] - f[None, :, 1])
    limit = tolerance * t[:, 2:3]
    result: list[int | None] = [None] * len(truth)
    used = np.zeros(len(found), bool)
    for flat in np.argsort(dist, axis=None):
        i, j = divmod(int(flat), len(found))
        if dist[i, j] > limit[i, 0]:
            continue
        if result[i] is None and not used[j]:
            result[i] = j
            used[j] = True
    return result
