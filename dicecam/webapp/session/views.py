"""What tablets are sent: the payloads of the state, games and roll events, built here only.

Plain JSON from the session's data: the active game's state as its codec writes it, the
games offered with their setup (player limits, variants) and the stored ones to resume,
and the current roll with every die in the one shape a die has (``DieReading.to_json``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dicecam.calibration.profile import load_profile
from dicecam.errors import InputError
from dicecam.messages import Message
from dicecam.reading import DieReading
from dicecam.scorer.descriptor import GameDescriptor
from dicecam.webapp.journal.sqlite import GameRecord

#: the most player names a stored game shows in the games list
MAX_LISTED_PLAYERS = 12


class RollStatus(StrEnum):
    SHOWN = "shown"  # the game waits for no dice now: shown, not scored
    PENDING = "pending"  # waits for a tap: a die is unsure, or the rules refused the roll
    APPLIED = "applied"  # scored


@dataclass(frozen=True)
class CurrentRoll:
    """The roll on the table, from settling (or dice typed in) until the next one."""

    roll_id: int
    width: int
    height: int
    dice: tuple[DieReading, ...]
    status: RollStatus
    settled_at: float
    error: str | None = None
    #: the error as the rules engine gave it, for the tablet to word in its language
    error_message: Message | None = None
    #: how many effective actions the game had before this roll was applied
    applied_at: int | None = None
    #: what the dice count as, in one sentence (the game's ``roll_summary``)
    summary: Message | None = None
    #: the game's verdict tied to the roll's dice (the game's ``dice_marks``), to draw
    marks: dict[str, Any] | None = None
    #: dice that are no part of the throw (the game's ``aside_dice``): index and sentence
    aside: tuple[tuple[int, Message], ...] = ()
    #: typed in on the tablet: its dice lie in rows of the pad, not where the camera looks
    typed: bool = False
    #: the teaching layout (dice in rows by value): shown and taught, never scored
    layout: bool = False
    #: why a roll the rules would take waits for a tap (a finished game's table read again)
    note: Message | None = None


def roll_view(roll: CurrentRoll) -> dict[str, Any]:
    return {
        "roll_id": roll.roll_id, "width": roll.width, "height": roll.height,
        "dice": [d.to_json() for d in roll.dice], "status": roll.status.value,
        "error": roll.error, "settled_at": roll.settled_at,
        "error_message": None if roll.error_message is None else roll.error_message.to_json(),
        "summary": None if roll.summary is None else roll.summary.to_json(),
        "marks": roll.marks,
        "aside": [{"index": i, "text": text.to_json()} for i, text in roll.aside],
        "typed": roll.typed,
        "layout": roll.layout,
        "note": None if roll.note is None else roll.note.to_json(),
    }


def state_view(version: int, game_id: int | None, game: GameDescriptor | None,
               config: Mapping[str, Any], state: Any, actions: int,
               roll: CurrentRoll | None) -> dict[str, Any]:
    """The full picture of the active game (None: no game is running)."""
    if game is None:
        return {"version": version, "game_id": None, "game": None}
    return {
        "version": version,
        "game_id": game_id,
        "game": game.name,
        "title": game.title,
        "config": dict(config),
        "colours": dice_colours(game.dice_set),
        "state": game.codec.state_to_json(state),
        "actions": actions,
        "can_undo": actions > 0,
        "roll": None if roll is None else roll_view(roll),
    }


def games_view(offered: Sequence[GameDescriptor], stored: Sequence[GameRecord],
               title_of: Mapping[str, str]) -> dict[str, Any]:
    """The games this server offers (with their setup) and the stored games to resume."""
    return {
        "available": [{"game": g.name, "title": g.title, "setup": g.setup_json()}
                      for g in offered],
        "stored": [
            {"id": r.id, "game": r.game, "title": title_of.get(r.game, r.game),
             "players": player_names(r.config), "created": r.created, "updated": r.updated,
             "closed": r.closed, "standing": r.standing}
            for r in stored
        ],
    }


@functools.lru_cache(maxsize=16)
def _profile_colours(dice_set: str) -> tuple[str, ...]:
    try:
        return load_profile(dice_set).colours
    except InputError:  # a broken fitted profile: taps then name the colours themselves
        return ()


def dice_colours(dice_set: str) -> list[str]:
    """The colour names of a dice set (its profile), for tap-to-correct."""
    return list(_profile_colours(dice_set))


def player_names(config: Mapping[str, Any]) -> list[str]:
    players = config.get("players")
    if not isinstance(players, list):
        return []
    names = []
    for p in players[:MAX_LISTED_PLAYERS]:
        if isinstance(p, str):
            names.append(p)
        elif isinstance(p, Mapping) and isinstance(p.get("name"), str):
            names.append(p["name"])
    return names
