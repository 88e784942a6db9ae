"""A tablet on a real Socket.IO connection, for the crash test and the load bench.

It is python-socketio's client over a WebSocket only (the ``websocket-client`` package, in
the ``test`` extra), as the page itself connects. It keeps the server's updates as they
arrive: the latest ``state`` payload, and, for the load bench, when each state version
arrived. Events are sent one at a time with ``call``, which waits for the acknowledgement
and gives up at once if the connection drops (a killed server), rather than at a timeout.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from dicecam.errors import InputError
from dicecam.tools.extras import install_hint
from dicecam.webapp import events


class ConnectionLost(Exception):
    """The server went away before it answered."""


class Tablet:
    def __init__(self, url: str, *, token: str | None = None,
                 on_state: Callable[[dict[str, Any], float], None] | None = None) -> None:
        try:
            import socketio
            import websocket  # noqa: F401  (the WebSocket transport needs it)
        except ImportError:
            raise InputError("a tablet client needs python-socketio and websocket-client: "
                             + install_hint("test")) from None
        self.url = url
        self.token = token
        self.state: dict[str, Any] | None = None
        self.paired = False
        self.disconnects = 0
        self._on_state = on_state
        self._gone = threading.Event()
        self._client = socketio.Client(reconnection=False)
        self._client.on(events.STATE, self._state)
        self._client.on(events.PAIRING, self._pairing)
        self._client.on("disconnect", self._disconnected)

    def connect(self, timeout: float = 10.0) -> Tablet:
        self._gone.clear()
        self._client.connect(self.url, transports=["websocket"], wait_timeout=timeout,
                             auth={"token": self.token} if self.token else None)
        return self

    def pair(self, pin: str) -> str:
        ack = self.call(events.PAIR, {"pin": pin})
        if not ack.get("ok"):
            raise InputError(f"pairing refused: {ack.get('error')}")
        self.token = ack["token"]
        return self.token

    def call(self, event: str, payload: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Send one event; its acknowledgement, or ConnectionLost when the server went away."""
        answered = threading.Event()
        reply: list[Any] = []

        def acknowledged(*args: Any) -> None:
            reply.extend(args)
            answered.set()

        try:
            self._client.emit(event, payload, callback=acknowledged)
        except Exception as exc:  # the client raises its own types once disconnected
            raise ConnectionLost(str(exc)) from None
        deadline = time.monotonic() + timeout
        while not answered.wait(0.02):
            if self._gone.is_set():
                raise ConnectionLost(f"the server went away before answering {event}")
            if time.monotonic() > deadline:
                raise ConnectionLost(f"no answer to {event} within {timeout} s")
        return reply[0] if reply else {}

    def wait_state(self, ready: Callable[[dict[str, Any]], bool],
                   timeout: float = 60.0) -> dict[str, Any]:
        """Until the latest state payload is ``ready`` (that payload); ConnectionLost when
        the server goes away or ``timeout`` seconds pass first."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state
            if state is not None and ready(state):
                return state
            if self._gone.is_set():
                raise ConnectionLost("the server went away before its state was ready")
            if time.monotonic() > deadline:
                raise ConnectionLost(f"no such state within {timeout} s")
            time.sleep(0.005)

    def close(self) -> None:
        try:
            self._client.disconnect()
        except Exception:  # closing a connection to a killed server: nothing to do
            pass

    def _state(self, payload: dict[str, Any]) -> None:
        arrived = time.time()
        self.state = payload
        if self._on_state is not None:
            self._on_state(payload, arrived)

    def _pairing(self, payload: dict[str, Any]) -> None:
        self.paired = bool(payload.get("paired"))

    def _disconnected(self, *reason: Any) -> None:
        self.disconnects += 1
        self._gone.set()
