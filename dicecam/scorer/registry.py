"""The one registry of games: name -> ``GameDescriptor``.

The web app, ``dicecam score``, ``dicecam serve --game`` and replays all look games up
here; nothing else lists the games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dicecam.errors import InputError
from dicecam.scorer.charidice import GAME as CHARIDICE
from dicecam.scorer.descriptor import GameDescriptor, Scorer
from dicecam.scorer.diceparty import GAME as DICEPARTY
from dicecam.scorer.dicetopia import GAME as DICETOPIA
from dicecam.scorer.v6 import GAME as V6

GAMES: Mapping[str, GameDescriptor] = {g.name: g for g in (DICEPARTY, CHARIDICE, DICETOPIA, V6)}


def tournament_game() -> GameDescriptor:
    """The game a tournament hub's evening is played in (the one game with a
    ``tournament``); the hub and a table's link to it name no game themselves."""
    played = [g for g in GAMES.values() if g.tournament is not None]
    if len(played) != 1:  # a second tournament game would need the hub to say which
        raise RuntimeError(f"expected one tournament game, found {len(played)}")
    return played[0]


def game_names() -> tuple[str, ...]:
    return tuple(sorted(GAMES))


def get_game(name: str) -> GameDescriptor:
    """The descriptor of a game, with a clear error for an unknown name."""
    if name not in GAMES:
        raise InputError(f"unknown game {name!r}; choose one of {', '.join(game_names())}")
    return GAMES[name]


def scorers() -> dict[str, Scorer]:
    """``dicecam score NAME`` -> its function, over every game (a game may offer several,
    as Charidice offers its score sheet)."""
    return {name: fn for g in GAMES.values() for name, fn in g.scorers.items()}


def replay(name: str, config: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> Any:
    """The state a stored game reaches: its config, then every JSON action in order."""
    return get_game(name).replay(config, actions)
