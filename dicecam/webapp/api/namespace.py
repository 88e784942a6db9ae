"""The Socket.IO event handlers: ``TabletNamespace``, one ``on_<event>`` method per tablet ->
server event (``events.py`` names them).

Each handler checks its payload (the session validates every field), and answers through
the acknowledgement: ``{"ok": true, ...}`` once the change is committed, or
``{"ok": false, "error": sentence}`` (with a ``code`` where the page acts on it, as
``not_paired``). Nothing a browser sends can crash the server: an unexpected failure is
logged and answered as an error, and the game is left as it was.

Every payload first passes ``check_payload`` (plain JSON of modest size, valid text, finite
numbers), then its event's parser (``session/tablet_commands``) turns it into a frozen
command. Watching is open to every connection; each event that changes a game
(``events.CHANGES_THE_GAME``) first checks that the connection is paired
(``api/pairing.py``), before its payload is even looked at.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import Namespace, emit

from dicecam import jsoncheck as jc
from dicecam.errors import InputError
from dicecam.webapp import events
from dicecam.webapp.api.payload import check_payload
from dicecam.webapp.api.services import Services
from dicecam.webapp.session import tablet_commands as tc
from dicecam.webapp.session.messages import APP

log = logging.getLogger(__name__)

#: a handler method: (namespace, payload) -> the acknowledgement's fields besides "ok"
Handler = Callable[["TabletNamespace", Any], dict[str, Any]]
#: the events anyone may send (every other one changes a game and needs a paired tablet)
WATCHING = (events.SYNC, events.PAIR, events.LIST_GAMES)


def answered(handler: Handler) -> Callable[..., dict[str, Any]]:
    """``handler`` (``on_<event>``) answered through the acknowledgement: the pairing check
    for an event that changes the game, the payload check, then ``{"ok": true, ...}`` or
    ``{"ok": false, "error": ...}``."""
    event = handler.__name__.removeprefix("on_")
    changes_the_game = event in events.CHANGES_THE_GAME

    @functools.wraps(handler)
    def run(self: TabletNamespace, data: Any = None, *extra: Any) -> dict[str, Any]:
        if extra:
            return {"ok": False, "error": "send one JSON object per event"}
        try:
            if changes_the_game:
                self.services().pairing.require(request.sid)
            check_payload(data, event)
            return {"ok": True, **handler(self, data)}
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

    return run


class TabletNamespace(Namespace):
    """The tablets' events on the default namespace; ``services()`` gives the app's
    ``Services`` (the app of the connection's request)."""

    def __init__(self, services: Callable[[], Services]) -> None:
        super().__init__("/")
        self.services = services
        missing = [e for e in (*WATCHING, *events.CHANGES_THE_GAME)
                   if not callable(getattr(self, f"on_{e}", None))]
        assert not missing, f"no handler for {missing}"

    def trigger_event(self, event: str, *args: Any) -> Any:
        """Run ``on_<event>``; an event without one is left unanswered (no acknowledgement),
        as Socket.IO leaves an event no handler was registered for."""
        if not callable(getattr(self, f"on_{event}", None)):
            return self.socketio.server.not_handled
        return super().trigger_event(event, *args)

    # -- the connection ------------------------------------------------------------------

    def on_connect(self, auth: Any = None) -> None:
        token = auth.get("token") if isinstance(auth, dict) else None
        self.services().pairing.connect(request.sid, token)
        self._sync()

    def on_disconnect(self, *reason: Any) -> None:
        self.services().pairing.disconnect(request.sid)

    # -- watching (any connection) -------------------------------------------------------

    @answered
    def on_pair(self, data: Any) -> dict[str, Any]:
        payload = jc.require_object(data, "pairing")
        jc.reject_unknown_keys(payload, "pairing", ("pin", "client"))
        typed = jc.require_str(payload.get("pin"), "pairing.pin", max_len=20)
        # the page's own id, so that wrong PINs hold up the browser that typed them
        client = payload.get("client")
        if client is not None:
            client = jc.require_str(client, "pairing.client", max_len=64)
        token = self.services().pairing.pair(request.sid, typed, str(request.remote_addr),
                                             client or None)
        emit(events.PAIRING, {"paired": True})
        return {"token": token}

    @answered
    def on_sync(self, data: Any) -> dict[str, Any]:
        self._sync()
        return {}

    def _sync(self) -> None:
        """Send this tablet everything: whether it is paired, the games, the state, the
        roll on the table and the camera's status."""
        services = self.services()
        session = services.session
        emit(events.PAIRING, {"paired": services.pairing.is_paired(request.sid)})
        emit(events.GAMES, session.games_payload())
        emit(events.STATE, session.view())
        roll = session.roll_payload()
        if roll is not None:
            emit(events.ROLL, roll)
        if services.reader is not None:
            emit(events.CAMERA, services.reader.status_payload())
        if services.teacher is not None:
            emit(events.TEACH, services.teacher.status_payload())

    @answered
    def on_list_games(self, data: Any) -> dict[str, Any]:
        jc.reject_unknown_keys(jc.require_object(data, "list games"), "list games", ())
        return {"games": self.services().session.games_payload()}

    # -- changing the game (a paired tablet) ---------------------------------------------

    @answered
    def on_new_game(self, data: Any) -> dict[str, Any]:
        session = self.services().session
        return session.new_game(tc.parse_new_game(data, session.games))

    @answered
    def on_open_game(self, data: Any) -> dict[str, Any]:
        return self.services().session.open_game(tc.parse_open_game(data))

    @answered
    def on_close_game(self, data: Any) -> dict[str, Any]:
        return self.services().session.close_game(tc.parse_close_game(data))

    @answered
    def on_delete_game(self, data: Any) -> dict[str, Any]:
        return self.services().session.delete_game(tc.parse_delete_game(data))

    @answered
    def on_action(self, data: Any) -> dict[str, Any]:
        return self.services().session.act(tc.parse_act(data))

    @answered
    def on_undo(self, data: Any) -> dict[str, Any]:
        return self.services().session.undo(tc.parse_undo(data))

    @answered
    def on_correct_die(self, data: Any) -> dict[str, Any]:
        return self.services().session.correct_die(tc.parse_correct_die(data))

    @answered
    def on_confirm_roll(self, data: Any) -> dict[str, Any]:
        return self.services().session.confirm_roll(tc.parse_confirm_roll(data))

    @answered
    def on_add_die(self, data: Any) -> dict[str, Any]:
        return self.services().session.add_die(tc.parse_add_die(data))

    @answered
    def on_teach_layout(self, data: Any) -> dict[str, Any]:
        return self.services().session.teach_layout(tc.parse_teach_layout(data))

    @answered
    def on_assign_zone(self, data: Any) -> dict[str, Any]:
        return self.services().session.assign_zone(tc.parse_assign_zone(data))

    @answered
    def on_enter_roll(self, data: Any) -> dict[str, Any]:
        return self.services().session.enter_roll(tc.parse_enter_roll(data))

    @answered
    def on_set_zones(self, data: Any) -> dict[str, Any]:
        return self.services().session.set_zones(tc.parse_set_zones(data))

    @answered
    def on_demo_party(self, data: Any) -> dict[str, Any]:
        """A game the demo played on to where it is crowded first (``demo_crowded``: Dice
        Party's parties of 54 dice), so its big throws are on the table at once."""
        command = tc.parse_demo_party(data)
        services = self.services()
        if services.demo is None:
            raise InputError(APP("app.not_demo_party"))
        return services.session.new_game_crowded(command.game, command.players)

    @answered
    def on_demo_roll(self, data: Any) -> dict[str, Any]:
        layout = tc.parse_demo_roll(data)
        services = self.services()
        if services.demo is None:
            raise InputError(APP("app.not_demo_throw"))
        reply = services.demo.request_layout() if layout else services.demo.request()
        services.session.publish_state()  # every tablet: the demo is throwing
        return reply
