"""The Socket.IO event handlers, one per tablet -> server event, named after it.

Each handler checks its payload (the session validates every field), and answers through
the acknowledgement: ``{"ok": true, ...}`` once the change is committed, or
``{"ok": false, "error": sentence}``. Nothing a browser sends can crash the server: an
unexpected failure is logged and answered as an error, and the game is left as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import SocketIO, emit

from dicecam.errors import InputError
from dicecam.webapp import events

log = logging.getLogger(__name__)

Handler = Callable[[Any], dict[str, Any]]


def register(socketio: SocketIO, services: Callable[[], Any]) -> None:
    """Attach every handler to ``socketio``; ``services()`` gives the app's Services."""

    def answered(handler: Handler) -> Callable[..., dict[str, Any]]:
        def run(data: Any = None, *extra: Any) -> dict[str, Any]:
            if extra:
                return {"ok": False, "error": "send one JSON object per event"}
            try:
                return {"ok": True, **handler(data)}
            except InputError as exc:
                return {"ok": False, "error": str(exc)}
            except Exception:  # a bug must not take the table down: log it, refuse the event
                log.exception("event from %s failed", getattr(request, "sid", "?"))
                return {"ok": False, "error": "the server could not handle that; the game "
                        "is unchanged (details are in the server's log)"}

        run.__name__ = handler.__name__
        return run

    def connect(auth: Any = None) -> None:
        sync(None)

    def sync(data: Any) -> dict[str, Any]:
        session = services().session
        emit(events.GAMES, session.games_payload())
        emit(events.STATE, session.view())
        roll = session.roll_payload()
        if roll is not None:
            emit(events.ROLL, roll)
        reader = services().reader
        if reader is not None:
            emit(events.CAMERA, reader.status_payload())
        return {}

    def new_game(data: Any) -> dict[str, Any]:
        return services().session.new_game(data)

    def open_game(data: Any) -> dict[str, Any]:
        return services().session.open_game(data)

    def action(data: Any) -> dict[str, Any]:
        return services().session.act(data)

    def undo(data: Any) -> dict[str, Any]:
        return services().session.undo(data)

    def correct_die(data: Any) -> dict[str, Any]:
        return services().session.correct_die(data)

    def confirm_roll(data: Any) -> dict[str, Any]:
        return services().session.confirm_roll(data)

    def assign_zone(data: Any) -> dict[str, Any]:
        return services().session.assign_zone(data)

    def enter_roll(data: Any) -> dict[str, Any]:
        return services().session.enter_roll(data)

    socketio.on_event("connect", connect)
    for name, handler in (
        (events.SYNC, sync),
        (events.NEW_GAME, new_game),
        (events.OPEN_GAME, open_game),
        (events.ACTION, action),
        (events.UNDO, undo),
        (events.CORRECT_DIE, correct_die),
        (events.CONFIRM_ROLL, confirm_roll),
        (events.ASSIGN_ZONE, assign_zone),
        (events.ENTER_ROLL, enter_roll),
    ):
        socketio.on_event(name, answered(handler))
