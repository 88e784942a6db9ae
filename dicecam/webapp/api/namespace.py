"""The Socket.IO event handlers, one per tablet -> server event, named after it.

Each handler checks its payload (the session validates every field), and answers through
the acknowledgement: ``{"ok": true, ...}`` once the change is committed, or
``{"ok": false, "error": sentence}`` (with a ``code`` where the page acts on it, as
``not_paired``). Nothing a browser sends can crash the server: an unexpected failure is
logged and answered as an error, and the game is left as it was.

Every payload first passes ``check_payload`` (plain JSON of modest size, valid text, finite
numbers), then its event's parser (``tablet_commands``) turns it into a frozen command.
Watching is open to every connection; each event that changes a game first checks that the
connection is paired (``webapp/pairing.py``), before its payload is even looked at.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import SocketIO, emit

from dicecam import jsoncheck as jc
from dicecam.errors import InputError
from dicecam.webapp import events
from dicecam.webapp.api.payload import check_payload
from dicecam.webapp.session import tablet_commands as tc

log = logging.getLogger(__name__)

Handler = Callable[[Any], dict[str, Any]]


def register(socketio: SocketIO, services: Callable[[], Any]) -> None:
    """Attach every handler to ``socketio``; ``services()`` gives the app's Services."""

    def answered(handler: Handler, *, changes_the_game: bool) -> Callable[..., dict[str, Any]]:
        def run(data: Any = None, *extra: Any) -> dict[str, Any]:
            if extra:
                return {"ok": False, "error": "send one JSON object per event"}
            try:
                if changes_the_game:
                    services().pairing.require(request.sid)
                check_payload(data, handler.__name__)
                return {"ok": True, **handler(data)}
            except InputError as exc:
                reply = {"ok": False, "error": str(exc)}
                if exc.message is not None:  # the page words it in the player's language
                    reply["message"] = exc.message.to_json()
                code = getattr(exc, "code", None)
                if code is not None:
                    reply["code"] = code
                return reply
            except Exception:  # a bug must not take the table down: log it, refuse the event
                log.exception("event from %s failed", getattr(request, "sid", "?"))
                return {"ok": False, "error": "the server could not handle that; the game "
                        "is unchanged (details are in the server's log)"}

        run.__name__ = handler.__name__
        return run

    def connect(auth: Any = None) -> None:
        token = auth.get("token") if isinstance(auth, dict) else None
        services().pairing.connect(request.sid, token)
        sync(None)

    def disconnect(*reason: Any) -> None:
        services().pairing.disconnect(request.sid)

    def pair(data: Any) -> dict[str, Any]:
        payload = jc.require_object(data, "pairing")
        jc.reject_unknown_keys(payload, "pairing", ("pin",))
        typed = jc.require_str(payload.get("pin"), "pairing.pin", max_len=20)
        token = services().pairing.pair(request.sid, typed, str(request.remote_addr))
        emit(events.PAIRING, {"paired": True})
        return {"token": token}

    def sync(data: Any) -> dict[str, Any]:
        session = services().session
        emit(events.PAIRING, {"paired": services().pairing.is_paired(request.sid)})
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
        session = services().session
        return session.new_game(tc.parse_new_game(data, session.games))

    def open_game(data: Any) -> dict[str, Any]:
        return services().session.open_game(tc.parse_open_game(data))

    def close_game(data: Any) -> dict[str, Any]:
        return services().session.close_game(tc.parse_close_game(data))

    def delete_game(data: Any) -> dict[str, Any]:
        return services().session.delete_game(tc.parse_delete_game(data))

    def list_games(data: Any) -> dict[str, Any]:
        jc.reject_unknown_keys(jc.require_object(data, "list games"), "list games", ())
        return {"games": services().session.games_payload()}

    def action(data: Any) -> dict[str, Any]:
        return services().session.act(tc.parse_act(data))

    def undo(data: Any) -> dict[str, Any]:
        return services().session.undo(tc.parse_undo(data))

    def correct_die(data: Any) -> dict[str, Any]:
        return services().session.correct_die(tc.parse_correct_die(data))

    def confirm_roll(data: Any) -> dict[str, Any]:
        return services().session.confirm_roll(tc.parse_confirm_roll(data))

    def assign_zone(data: Any) -> dict[str, Any]:
        return services().session.assign_zone(tc.parse_assign_zone(data))

    def enter_roll(data: Any) -> dict[str, Any]:
        return services().session.enter_roll(tc.parse_enter_roll(data))

    def set_zones(data: Any) -> dict[str, Any]:
        return services().session.set_zones(tc.parse_set_zones(data))

    def demo_roll(data: Any) -> dict[str, Any]:
        tc.parse_demo_roll(data)
        demo = services().demo
        if demo is None:
            raise InputError("the camera is not the demo table: throw the dice on the table")
        reply = demo.request()
        services().session.publish_state()  # every tablet: the demo is throwing
        return reply

    socketio.on_event("connect", connect)
    socketio.on_event("disconnect", disconnect)
    for name, handler in ((events.SYNC, sync), (events.PAIR, pair),
                          (events.LIST_GAMES, list_games)):
        socketio.on_event(name, answered(handler, changes_the_game=False))
    changing = {
        events.NEW_GAME: new_game,
        events.OPEN_GAME: open_game,
        events.CLOSE_GAME: close_game,
        events.DELETE_GAME: delete_game,
        events.ACTION: action,
        events.UNDO: undo,
        events.CORRECT_DIE: correct_die,
        events.CONFIRM_ROLL: confirm_roll,
        events.ASSIGN_ZONE: assign_zone,
        events.ENTER_ROLL: enter_roll,
        events.DEMO_ROLL: demo_roll,
        events.SET_ZONES: set_zones,
    }
    assert set(changing) == set(events.CHANGES_THE_GAME), "events.py lists them all"
    for name, handler in changing.items():
        socketio.on_event(name, answered(handler, changes_the_game=True))
