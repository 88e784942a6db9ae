"""What every game offers the web app, so one session loop can drive all four games.

A game is its list of actions: the web app stores each confirmed action, and the state is
``replay(config, actions)``. Each game's codec module (``dicecam/scorer/<game>_json.py``,
registered in ``GAME_CODECS``) provides the functions of ``GameCodec`` over plain JSON,
built on that game's pure rules module. All of them are pure: no I/O, no randomness.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any, Protocol

from dicecam.errors import InputError

# game name -> codec module. The web app, `dicecam score` and replays use this table.
GAME_CODECS: dict[str, str] = {
    "diceparty": "dicecam.scorer.diceparty_json",
    "charidice": "dicecam.scorer.charidice_json",
    "dicetopia": "dicecam.scorer.dicetopia_json",
    "v6": "dicecam.scorer.v6_json",
}


class GameCodec(Protocol):
    """The functions a codec module defines (checked by tests/test_protocol.py)."""

    #: display name, e.g. "Dice Party"
    TITLE: str

    def new_game(self, config: Mapping[str, Any]) -> Any:
        """Start a game from a JSON config (players, variants). InputError if malformed."""

    def action_from_json(self, data: Mapping[str, Any]) -> Any:
        """A JSON action ({"type": ...}) as the game's frozen action; InputError if malformed."""

    def action_to_json(self, action: Any) -> dict[str, Any]:
        """The inverse of action_from_json: action_from_json(action_to_json(a)) == a."""

    def apply(self, state: Any, action: Any) -> Any:
        """The next state. RuleError (a sentence) if the rules forbid the action now."""

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """Everything the tablet shows: players, totals, whose turn, the verdict with its
        explanation, and ``"legal"``: the actions offered now (so only legal buttons show)."""

    def action_from_roll(self, state: Any, dice: list[Mapping[str, Any]]) -> Any | None:
        """Map a settled camera roll onto the game's own input, or None when the game waits
        for no dice now. ``dice`` items: {"value": 1-6, "colour": str|None, "zone": str|None}."""


def load_codec(game: str) -> ModuleType:
    """The codec module for a game name, with a clear error for an unknown one."""
    if game not in GAME_CODECS:
        raise InputError(f"unknown game {game!r}; choose one of {', '.join(sorted(GAME_CODECS))}")
    return importlib.import_module(GAME_CODECS[game])


def replay(game: str, config: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> Any:
    """The state a stored game reaches: its config, then every JSON action in order."""
    codec = load_codec(game)
    state = codec.new_game(config)
    for data in actions:
        state = codec.apply(state, codec.action_from_json(data))
    return state
