"""The group the tournament hub seats at this table, started as a game here.

The hub says which stage of the evening the table plays and which group sits there (at the
start, and again when the final is drawn). The tournament's game
(``registry.tournament_game``) says what game that is (its descriptor's
``tournament.seated_config``) and when a running one leaves the table free for it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from dicecam.scorer.registry import tournament_game
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.tablet_commands import NewGame

log = logging.getLogger(__name__)


def start_assigned_game(session: GameSession, assignment: Mapping[str, Any]) -> bool:
    """Start the game the hub seats at this table when the table is free for it: no game
    running, or an evening that is over (the preliminary passes done, the final drawn). A
    game in progress is never replaced: the croupier decides, the page names the group.
    True when a game was started."""
    game = tournament_game()
    evening = game.tournament
    assert evening is not None  # tournament_game() returns a game with one
    config = evening.seated_config(assignment)
    if game.name not in session.games or config is None:
        return False
    view = session.view()
    if view.get("game") is not None:
        if view["game"] == game.name and evening.plays_seating(view.get("config") or {}, config):
            return False  # already playing it
        if view["game"] != game.name or not evening.evening_over(view["state"]):
            return False
    session.new_game(NewGame(game.name, config))
    log.info("started the hub's %s group at this table: %s", assignment.get("stage"),
             ", ".join(assignment.get("group") or []))
    return True
