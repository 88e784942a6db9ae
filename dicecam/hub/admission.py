"""Who gets a hub process's threads: the tables' API keeps its own, one address cannot take
the phones' share.

Under gunicorn's threaded worker every request holds one of the process's threads until it
is answered, and an open WebSocket (or a long-poll) holds one for as long as it is open.
Phones and tables share that pool, so about a thousand idle WebSockets from one laptop once
left no thread for a table's POST, ``GET /`` or ``/healthz``. ``Admission`` wraps the app
(WSGI): a request of the tables' side (``TABLE_PATHS``: their API, the organiser's, the
health check) always passes; any other request (the phones' side: Socket.IO, the page, the
board) takes a slot, at most ``phone_slots`` at once in the process and ``per_address`` of
them for one client address, and gives it back when its answer is sent or its socket
closes. Beyond either it is answered at once, 503 or 429 with a JSON reason, holding a
thread for microseconds instead of for the socket's life: the rest of the pool stays free
for the tables.

Each process counts for itself (N processes give an address N times ``per_address``).
Behind a proxy every phone has the proxy's address: raise ``per_address`` there (``dicecam
hub --phones-per-address``).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.wsgi import ClosingIterator

#: paths of the tables' side, never counted against the phones: the tables' API, the
#: organiser's page and API, the health check
TABLE_PATHS = ("/api/join", "/api/results", "/api/tables/", "/api/organiser", "/organiser",
               "/healthz")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class Admission:
    def __init__(self, app: WSGIApp, *, phone_slots: int, per_address: int) -> None:
        self.app = app
        self.phone_slots, self.per_address = phone_slots, per_address
        self._by_address: Counter[str] = Counter()
        self._total = 0
        self._lock = threading.Lock()

    def open_now(self, address: str | None = None) -> int:
        """The phones' requests and sockets open now, in all or from one address."""
        with self._lock:
            return self._total if address is None else self._by_address[address]

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "").startswith(TABLE_PATHS):
            return self.app(environ, start_response)
        address = environ.get("REMOTE_ADDR") or "?"
        with self._lock:
            if self._by_address[address] >= self.per_address:
                refusal = (429, f"this address holds {self.per_address} of the hub's "
                                "connections already; close some first")
            elif self._total >= self.phone_slots:
                refusal = (503, "the hub serves as many screens as it can; try again "
                                "shortly")
            else:
                refusal = None
                self._by_address[address] += 1
                self._total += 1
        if refusal is not None:
            return _refuse(start_response, *refusal)
        released = threading.Event()

        def release() -> None:
            if released.is_set():
                return
            released.set()
            with self._lock:
                self._total -= 1
                self._by_address[address] -= 1
                if self._by_address[address] <= 0:
                    del self._by_address[address]

        try:
            answer = self.app(environ, start_response)
        except BaseException:
            release()
            raise
        return ClosingIterator(answer, [release])


def _refuse(start_response: Callable[..., Any], status: int, error: str) -> list[bytes]:
    body = json.dumps({"ok": False, "error": error}).encode()
    reason = {429: "Too Many Requests", 503: "Service Unavailable"}[status]
    start_response(f"{status} {reason}", [("Content-Type", "application/json"),
                                          ("Content-Length", str(len(body))),
                                          ("Retry-After", "5")])
    return [body]
