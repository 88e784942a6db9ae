"""Drawing the V6 groups of four from a seed the caller passes (section 4: "zugeloste
Vierer-Gruppen").

Pure: the same players and seed always give the same groups, on every machine and Python
version (the draw orders players by a SHA-256 of seed and name, no random module), so a
stored evening can be replayed. The web app picks the seed (for example from the clock)
and stores it with the evening; the engine itself never draws anything. A table may also
seat its players as they were entered (``groups_in_order``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from dicecam.errors import InputError
from dicecam.scorer.v6.messages import MESSAGES as M

GROUP_SIZE = 4
MIN_GROUP = 2


def groups_in_order(players: Sequence[str], size: int = GROUP_SIZE) -> tuple[tuple[str, ...], ...]:
    """Players as entered, dealt round the groups in turn (9 players: 1 4 7 | 2 5 8 | 3 6 9),
    as few groups of at most ``size`` as hold everyone, as even as possible."""
    names = list(players)
    if len(names) < MIN_GROUP:
        raise InputError(M("v6.no.draw_players", low=MIN_GROUP, n=len(names)))
    count = -(-len(names) // size)
    return tuple(tuple(names[start::count]) for start in range(count))


def form_groups(players: Sequence[str], seed: str | int,
                size: int = GROUP_SIZE) -> tuple[tuple[str, ...], ...]:
    """Players drawn into groups of ``size``; when the count does not divide, the groups are
    as even as possible (10 players: 4, 3, 3), larger groups first."""
    names = list(players)
    if len(set(names)) != len(names):
        raise InputError(M("v6.no.draw_distinct"))
    if len(names) < MIN_GROUP:
        raise InputError(M("v6.no.draw_players", low=MIN_GROUP, n=len(names)))
    if size < MIN_GROUP:
        raise InputError(M("v6.no.draw_size", low=MIN_GROUP, size=size))
    drawn = sorted(names, key=lambda name: hashlib.sha256(f"{seed}\x00{name}".encode())
                   .hexdigest())
    count = -(-len(drawn) // size)
    base, extra = divmod(len(drawn), count)
    groups, start = [], 0
    for index in range(count):
        length = base + (1 if index < extra else 0)
        groups.append(tuple(drawn[start:start + length]))
        start += length
    return tuple(groups)
