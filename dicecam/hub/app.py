"""The hub's app: the standings page, the tables' API, and live standings over Socket.IO.

``socketio`` is created bare at module level and wired by ``create_hub_app``. With a Redis
URL, Flask-SocketIO's ``message_queue`` carries every emit through Redis to every hub
process, so a phone connected to process 2 sees the result that a table posted to
process 1. Each emit carries ``version``, the id of the newest result it counts: results
are committed in PostgreSQL before the standings are read, so the payload with the higher
version is the newer board, and the page drops an older one arriving late from a slower
process.

A valid result is never dropped, and two kinds wait for the organiser instead of counting
(stored *held*, the table told so with its 200, the board listing them, the organiser
releasing or removing each): a correction of a preliminary pass that would change the
final's draw once the final is drawn (the final stays drawn and its passes keep counting:
an undo and redo at a group's table must not un-draw a final being played), and a
table's pass for a round the organiser overrode (an override holds until the organiser
removes it). A correction that leaves the final's draw as it is counts at once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import logging
import os
import resource
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import psycopg
import socketio as socketio_module
from flask import Flask, current_app, render_template, request, send_from_directory
from flask_socketio import SocketIO, emit
from psycopg_pool import PoolTimeout
from werkzeug.exceptions import HTTPException

from dicecam.errors import InputError
from dicecam.hub.admission import Admission
from dicecam.hub.store import ORGANISER, Evening, HubStore, TableSeat
from dicecam.jsoncheck import (
    parse_json,
    reject_unknown_keys,
    require_choice,
    require_object,
    require_str,
)
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.webapp import static as webapp_static
from dicecam.webapp.api.payload import check_payload
from dicecam.webapp.hub_link import signing

log = logging.getLogger(__name__)

socketio = SocketIO()

STANDINGS = "standings"  # server -> screens: the board (standings_json), with its version
SOCKET_IO_CLIENT = "socket.io-4.8.4.min.js"  # the tablet page's copy, served from here too
WEBAPP_STATIC = Path(webapp_static.__file__).parent
MAX_REPORT_BYTES = 64 * 1024
ORGANISER_COOKIE = "dicecam_organiser"
QUEUE_CHANNEL = "dicecam-hub"  # the Redis channel the hub's processes share
ORGANISER_HOURS = 12
STANDINGS_KEPT = 8  # boards a process keeps by the results they count (hub.standings)
#: threads a hub process serves with (``dicecam hub``: each open WebSocket holds one) and
#: those never given to the phones' side, so the tables' API always has its own
CONNECTIONS = 500
TABLE_THREADS = 50
PHONES_PER_ADDRESS = 64  # screens one address holds open in a process (admission.py)
#: how the board words each of the organiser's changes, for the referee
CHANGED = {"remove": "removed", "restore": "restored", "override": "overridden",
           "release": "released"}

DEFAULTS: dict[str, Any] = {
    "DB_URL": None,  # postgresql://...
    "REDIS_URL": None,  # redis://...; None: a single process, emits stay in it
    "DB_WAIT": 1.0,  # seconds a request waits for the database before answering 503
    "CLOCK_WINDOW": signing.CLOCK_WINDOW,  # seconds a signed request stays valid
    "RATE_PER_SECOND": 20.0,  # a client's requests to the tables' API, sustained ...
    "RATE_BURST": 100.0,  # ... and at once
    "FAILURES_PER_MINUTE": 20.0,  # a client's refused signatures before it waits (429)
    "POLL_SECONDS": 15.0,  # a board asks for itself this often (a database away shows)
    # the phones' side of a process (admission.py): requests and sockets open at once, in
    # all (the rest of the threads stay the tables') and from one address
    "PHONE_SLOTS": CONNECTIONS - TABLE_THREADS,
    "PHONES_PER_ADDRESS": PHONES_PER_ADDRESS,
    # a client's board requests (GET /api/standings, a Socket.IO connect), sustained and
    # at once: a phone asks every POLL_SECONDS and once a connect
    "PHONE_RATE_PER_SECOND": 5.0,
    "PHONE_BURST": 50.0,
    # connect to the database and migrate it when the app is made; a hub worker does
    # neither (`dicecam hub` did both before starting them), so a worker started again
    # while the database is away serves 503s instead of failing to start
    "DB_AT_START": True,
}


class Refusal(Exception):
    """An answer of the tables' API other than 200: its status and one line of reason."""

    def __init__(self, status: int, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.status, self.error, self.extra = status, error, extra


class RateLimit:
    """A token bucket per client address: ``rate`` tokens a second, at most ``burst``.
    Each hub process keeps its own (a client spread over N processes gets N times as
    much), which is enough to stop a flood."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when)
        self._lock = threading.Lock()

    def _tokens(self, client: str, now: float) -> float:
        tokens, when = self._buckets.get(client, (self.burst, now))
        return min(self.burst, tokens + (now - when) * self.rate)

    def available(self, client: str) -> bool:
        with self._lock:
            return self._tokens(client, time.monotonic()) >= 1.0

    def take(self, client: str) -> bool:
        """Take one token; False (and nothing taken) when there is none."""
        with self._lock:
            now = time.monotonic()
            tokens = self._tokens(client, now)
            if len(self._buckets) > 10_000:  # forget clients whose bucket is full again
                self._buckets = {c: (t, w) for c, (t, w) in self._buckets.items()
                                 if t + (now - w) * self.rate < self.burst}
            if tokens < 1.0:
                return False
            self._buckets[client] = (tokens - 1.0, now)
            return True


class HubServices:
    def __init__(self, app: Flask) -> None:
        if not app.config["DB_URL"]:
            raise InputError("the hub needs its database: pass --db postgresql://... or run "
                             "`dicecam hub init` first")
        self.store = HubStore(app.config["DB_URL"], wait=app.config["DB_WAIT"],
                              connect_now=app.config["DB_AT_START"])
        if app.config["DB_AT_START"]:
            self.store.migrate()
        self._final_saved: set[int] = set()  # evenings whose final groups are stored
        #: (evening, the ids of the results counted) -> their standings, the latest few
        self._standings: dict[tuple[int, tuple[int, ...]], v6_tables.Standings] = {}
        self._standings_lock = threading.Lock()
        self.requests = RateLimit(app.config["RATE_PER_SECOND"], app.config["RATE_BURST"])
        self.phone_requests = RateLimit(app.config["PHONE_RATE_PER_SECOND"],
                                        app.config["PHONE_BURST"])
        #: the board the screens get: (evening, board_stamp) -> its JSON, the latest one
        self._shown: tuple[tuple[int, tuple[int, int]], dict[str, Any]] | None = None
        self._shown_lock = threading.Lock()
        self.failures = RateLimit(app.config["FAILURES_PER_MINUTE"] / 60.0,
                                  app.config["FAILURES_PER_MINUTE"])
        self.clock_window = float(app.config["CLOCK_WINDOW"])

    def evening(self) -> Evening:
        return self.store.current_evening()

    def standings(self, evening: Evening,
                  counted: Sequence[tuple[int, v6_tables.Report]]) -> v6_tables.Standings:
        """The standings of these results (id, report), computed once per process for the
        same results: a result's check computes the board with it, which the board sent
        after storing it reuses, and the next result's check starts from that board."""
        key = (evening.id, tuple(i for i, _ in counted))
        with self._standings_lock:
            found = self._standings.get(key)
        return found or v6_tables.standings(evening.plan, [r for _, r in counted])

    def remember(self, evening: Evening, ids: Sequence[int],
                 board: v6_tables.Standings) -> None:
        with self._standings_lock:
            self._standings[(evening.id, tuple(ids))] = board
            while len(self._standings) > STANDINGS_KEPT:
                self._standings.pop(next(iter(self._standings)))

    def board(self, evening: Evening) -> dict[str, Any]:
        version, counted = self.store.counted(evening.id)
        board = self.standings(evening, counted)
        self.remember(evening, [i for i, _ in counted], board)
        if board.final and evening.id not in self._final_saved:
            self.store.save_final_groups(evening, board.final, board.final_tables)
            self._final_saved.add(evening.id)
        out = standings_json(evening, board, version, self.store.joined(evening.id))
        out["changes"] = [f"{c['table']} {c['round']}: {CHANGED[c['action']]} by the "
                          f"organiser ({c['reason']})" for c in self.store.changes(evening.id)]
        out["held"] = [f"{report.table} {report.round_key}: waits for the organiser ({why})"
                       for _, report, why in self.store.held(evening.id)]
        return out

    def shown_board(self, evening: Evening) -> dict[str, Any]:
        """The board for a screen or phone: computed once per change (a result, an
        organiser's change, a table joining) and served from then on; a thousand phones
        connecting at once cost one board and a thousand cheap stamps."""
        key = (evening.id, self.store.board_stamp(evening.id))
        with self._shown_lock:  # one computes, the rest wait for it and take it
            if self._shown is None or self._shown[0] != key:
                self._shown = (key, self.board(evening))
            return self._shown[1]

    def authenticate_organiser(self) -> Evening:
        """The evening whose organiser signed this request (a key ``7-ORG-...``, printed by
        ``dicecam hub init``); a Refusal otherwise, as for a table."""
        client = request.remote_addr or "?"
        if not self.failures.available(client):
            raise Refusal(429, "too many refused signatures from this address; wait a minute")
        if signing.SIGNATURE not in request.headers and ORGANISER_COOKIE in request.cookies:
            return self._organiser_by_cookie(client)
        try:
            claim = signing.read_headers(request.headers)
            secret = self.store.organiser_secret(claim.evening)
            if claim.table != ORGANISER or not secret:
                raise InputError("only the organiser's key (EVENING-ORG-...) may change "
                                 "results")
            signing.verify(claim, secret, request.method, request.path,
                           request.get_data(cache=True), window=self.clock_window)
        except InputError as exc:
            self.failures.take(client)
            raise Refusal(401, str(exc)) from None
        if request.method != "GET" and not self.store.first_use(claim.signature,
                                                                2 * self.clock_window):
            self.failures.take(client)
            raise Refusal(401, "this signed request was received before: a replay is refused")
        current = self.evening()
        if current.id != claim.evening:
            raise Refusal(409, f"that is the organiser's key of evening {claim.evening}; the "
                          f"hub now runs evening {current.id} ('{current.name}')",
                          other_evening=True)
        return current

    def _organiser_by_cookie(self, client: str) -> Evening:
        """The organiser's page: the cookie its login set (the evening, its expiry and an
        HMAC of both with the organiser's secret, so every worker can check it); a change
        also needs the page's own header, which another site's form cannot send."""
        try:
            evening_id, expires, session, _ = request.cookies[ORGANISER_COOKIE].split(".", 3)
            secret = self.store.organiser_secret(int(evening_id)) or ""
            good = hmac.compare_digest(
                request.cookies[ORGANISER_COOKIE].encode(),
                organiser_cookie(int(evening_id), secret, int(expires), session).encode())
        except ValueError:
            good = False
        # the session's row too: a logout ends it on every worker, whatever the cookie says
        if not good or not secret or int(expires) < time.time() or \
                not self.store.session_open(session, int(evening_id)):
            self.failures.take(client)
            raise Refusal(401, "log in again with the organiser's key")
        if request.method != "GET" and request.headers.get("X-Requested-With") != "dicecam":
            raise Refusal(403, "a change comes from the organiser's page only")
        current = self.evening()
        if current.id != int(evening_id):
            raise Refusal(409, "the hub runs another evening now: log in with its key",
                          other_evening=True)
        return current

    def authenticate(self, *, replay_check: bool = True) -> TableSeat:
        """The table that signed this request (``signing``), of the evening running now;
        a Refusal otherwise (401: not signed by a table's key, too old, or a replay; 409:
        a table of another evening)."""
        client = request.remote_addr or "?"
        if not self.failures.available(client):
            raise Refusal(429, "too many refused signatures from this address; wait a minute")
        try:
            claim = signing.read_headers(request.headers)
            seat = self.store.seat(claim.evening, claim.table)
            signing.verify(claim, seat.secret, request.method, request.path,
                           request.get_data(cache=True), window=self.clock_window)
        except InputError as exc:
            self.failures.take(client)
            raise Refusal(401, str(exc)) from None
        if replay_check and not self.store.first_use(claim.signature,
                                                     2 * self.clock_window):
            self.failures.take(client)
            raise Refusal(401, "this signed request was received before: a replay is refused")
        current = self.evening()
        if current.id != seat.evening.id:
            raise Refusal(409, f"table {claim.evening}-{seat.table} is a table of evening "
                          f"{seat.evening.id} ('{seat.evening.name}'); the hub now runs "
                          f"evening {current.id} ('{current.name}'): this table stops "
                          "sending; start it with its key for the new evening",
                          other_evening=True)
        return seat


def organiser_cookie(evening_id: int, secret: str, expires: int, session: str) -> str:
    mac = hmac.new(secret.encode(), f"organiser\n{evening_id}\n{expires}\n{session}".encode(),
                   hashlib.sha256).hexdigest()
    return f"{evening_id}.{expires}.{session}.{mac}"


def cookie_session(cookie: str) -> str | None:
    """The session id an organiser's cookie names (unchecked: for its logout only)."""
    parts = cookie.split(".")
    return parts[2] if len(parts) == 4 else None


def hub(app: Flask | None = None) -> HubServices:
    return (app or current_app).extensions["dicecam_hub"]


def refused(status: int, error: str, **extra: Any) -> tuple[dict[str, Any], int]:
    return {"ok": False, "error": error.strip().splitlines()[0] if error.strip() else
            f"refused ({status})", **extra}, status


def json_body() -> Any:
    """The request's body as modest JSON (the size limited by MAX_CONTENT_LENGTH before
    it is read, then the nesting and counts checked as the table app checks its events)."""
    data = parse_json(request.get_data(cache=True).decode("utf-8", "replace"), "the body")
    check_payload(data, "the body")
    return data


def create_hub_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    # one byte over the limit: a chunked body (no Content-Length) is cut at the limit
    # without a word, so whether it was longer is known only by reading one byte more
    app.config["MAX_CONTENT_LENGTH"] = MAX_REPORT_BYTES + 1
    queue = None if app.config["REDIS_URL"] is None else NewestBoardFirst(
        app.config["REDIS_URL"], channel=QUEUE_CHANNEL)
    socketio.init_app(app, async_mode="threading", client_manager=queue,
                      cors_allowed_origins=None)
    app.extensions["dicecam_hub"] = HubServices(app)
    app.wsgi_app = Admission(app.wsgi_app,  # type: ignore[method-assign]
                             phone_slots=int(app.config["PHONE_SLOTS"]),
                             per_address=int(app.config["PHONES_PER_ADDRESS"]))

    @app.errorhandler(Refusal)
    def on_refusal(exc: Refusal) -> Any:
        return refused(exc.status, exc.error, **exc.extra)

    @app.errorhandler(HTTPException)
    def on_http_error(exc: HTTPException) -> Any:  # 404, 405, 413 ...: JSON, not a page
        return refused(exc.code or 500, f"{exc.name}: {exc.description or ''}")

    @app.errorhandler(psycopg.OperationalError)
    @app.errorhandler(PoolTimeout)
    def on_database_away(exc: Exception) -> Any:
        return refused(503, "the hub's database does not answer; try again shortly")

    @app.errorhandler(Exception)
    def on_bug(exc: Exception) -> Any:
        if isinstance(exc, HTTPException):
            return on_http_error(exc)
        log.exception("the hub failed on %s %s", request.method, request.path)
        return refused(500, f"the hub failed ({type(exc).__name__}); its log says more")

    @app.before_request
    def rate_limit() -> Any:
        if request.path.startswith(("/api/join", "/api/results", "/api/tables/")) and \
                not hub().requests.take(request.remote_addr or "?"):
            return refused(429, "too many requests from this address; slow down")
        return None

    @app.before_request
    def body_limit() -> Any:
        if request.method == "POST" and len(request.get_data(cache=True)) > MAX_REPORT_BYTES:
            return refused(413, f"Request Entity Too Large: a body holds at most "
                                f"{MAX_REPORT_BYTES // 1024} KB")
        return None

    @app.get("/")
    def standings_page() -> str:
        try:
            name = hub().evening().name
        except (psycopg.OperationalError, PoolTimeout):  # the board says it reconnects
            name = "standings"
        return render_template("standings.html", evening=name, event=STANDINGS,
                               poll_ms=int(current_app.config["POLL_SECONDS"] * 1000))

    @app.get("/socket.io.min.js")
    def socket_io_client() -> Any:
        return send_from_directory(WEBAPP_STATIC, SOCKET_IO_CLIENT, max_age=3600)

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {"ok": True, "pid": os.getpid(), "rss_kb": rss_kb(),
                "cpu_s": round(usage.ru_utime + usage.ru_stime, 3)}

    @app.get("/api/standings")
    def api_standings() -> Any:
        if not hub().phone_requests.take(request.remote_addr or "?"):
            return refused(429, "too many board requests from this address; slow down")
        return hub().shown_board(hub().evening())

    @app.post("/api/join")
    def api_join() -> Any:
        """A table joins (signed with its key): where it plays."""
        seat = hub().authenticate()
        try:
            require_object(json_body(), "the body")  # {} : nothing more is needed
        except InputError as exc:
            raise Refusal(400, str(exc)) from None
        seat = hub().store.seat(seat.evening.id, seat.table, join=True)
        board = hub().board(seat.evening)
        if seat.joined_now:  # the board counts the tables joined
            socketio.emit(STANDINGS, screen_board(board))
        return {"ok": True, **assignment(seat.evening, seat.table, board)}

    @app.get("/api/tables/<table_id>")
    def api_table(table_id: str) -> Any:
        """The signing table's assignment now (its final group once drawn), without
        joining it."""
        seat = hub().authenticate(replay_check=False)
        if signing.parse_table_id(table_id) != (seat.evening.id, seat.table):
            raise Refusal(403, f"signed as table {seat.evening.id}-{seat.table}, asked for "
                          f"{table_id}")
        return {"ok": True, **assignment(seat.evening, seat.table, hub().board(seat.evening))}

    @app.post("/api/results")
    def api_results() -> Any:
        received = time.time()
        seat = hub().authenticate()
        try:
            report = v6_tables.report_from_json(json_body())
        except InputError as exc:
            raise Refusal(400, str(exc)) from None
        if report.table != seat.table:
            raise Refusal(400, f"the report is for table {report.table}, but was signed by "
                          f"table {seat.table}")
        # checked before it is stored: a refused report (another group, broken points, a
        # final where none is drawn) changes nothing, whatever it would have replaced
        _, counted = hub().store.counted(seat.evening.id)
        before = hub().standings(seat.evening, counted)
        after = v6_tables.standings(seat.evening.plan, [*(r for _, r in counted), report])
        why = v6_tables.refusal_between(before, after, report)
        if why is not None:
            raise Refusal(409, f"refused, nothing changed: {why}", stored=False)
        held = hold_reason(seat.evening, before, after, report)
        result_id = hub().store.add_result(seat.evening.id, report, held=held)
        if result_id is not None and held is not None:
            log.warning("result %d of evening %d (%s %s) waits for the organiser: %s",
                        result_id, seat.evening.id, report.table, report.round_key, held)
            socketio.emit(STANDINGS, screen_board(hub().board(seat.evening)))
            return {"ok": True, "stored": True, "id": result_id, "held": held}
        if result_id is not None:  # a result sent again changes nothing: no emit
            # the board with it, unless another process stored a result meanwhile
            hub().remember(seat.evening, [*(i for i, _ in counted), result_id], after)
            board = hub().board(seat.evening)
            board["received"] = received
            socketio.emit(STANDINGS, screen_board(board))
        return {"ok": True, "stored": result_id is not None, "id": result_id, "held": None}

    @app.get("/organiser")
    def organiser_page() -> str:
        return render_template("organiser.html")

    @app.post("/organiser/login")
    def organiser_login() -> Any:
        """The organiser's page logs in with the key (once); a cookie for 12 hours."""
        client = request.remote_addr or "?"
        if not hub().failures.available(client):
            raise Refusal(429, "too many refused keys from this address; wait a minute")
        try:
            body = require_object(json_body(), "the body")
            key = signing.parse_key(require_str(body.get("key"), "key", max_len=80))
        except InputError:
            key = None
        evening = hub().evening()
        secret = hub().store.organiser_secret(evening.id) if key else None
        if key is None or key.table != ORGANISER or key.evening != evening.id or not secret \
                or not hmac.compare_digest(secret, key.secret):
            hub().failures.take(client)
            raise Refusal(401, f"that is not the organiser's key of evening {evening.id} "
                          f"('{evening.name}')")
        expires = int(time.time() + ORGANISER_HOURS * 3600)
        session = hub().store.open_session(evening.id, expires)
        answer = current_app.make_response({"ok": True, "evening": evening.name})
        answer.set_cookie(ORGANISER_COOKIE, organiser_cookie(evening.id, secret, expires,
                                                             session),
                          max_age=ORGANISER_HOURS * 3600, httponly=True, samesite="Strict",
                          secure=request.is_secure, path="/")
        return answer

    @app.post("/organiser/logout")
    def organiser_logout() -> Any:
        """Ends the session on the hub (the cookie, kept or copied, no longer works)."""
        session = cookie_session(request.cookies.get(ORGANISER_COOKIE, ""))
        if session:
            hub().store.close_session(session)
        answer = current_app.make_response({"ok": True})
        answer.delete_cookie(ORGANISER_COOKIE, path="/")
        return answer

    @app.get("/api/organiser/results")
    def api_organiser_results() -> Any:
        """Every result of the evening (removed ones too) and the organiser's changes."""
        evening = hub().authenticate_organiser()
        return {"ok": True, "results": hub().store.result_rows(evening.id),
                "changes": hub().store.changes(evening.id)}

    @app.post("/api/organiser/results/<int:result_id>")
    def api_organiser_change(result_id: int) -> Any:
        """Remove, restore or override a result with a reason: ``{"action": "remove" |
        "restore", "reason": "..."}``, or ``{"action": "override", "reason": "...",
        "report": {...}}`` (a new result for the same table and round that corrects this
        one, checked against the seating and the rules before it counts); every open
        board gets the new standings (a newer version)."""
        evening = hub().authenticate_organiser()
        replacement = None
        try:
            body = require_object(json_body(), "the body")
            reject_unknown_keys(body, "the body", ("action", "reason", "report"))
            action = require_choice(body.get("action"), "action",
                                    ("remove", "restore", "override", "release"))
            reason = require_str(body.get("reason"), "reason", max_len=200).strip()
            if not reason:
                raise InputError("reason: say why (it is shown to the referee)")
            if action == "override":
                replacement, version = _override(evening, result_id, body.get("report"),
                                                 reason)
            else:
                if "report" in body:
                    raise InputError("report: only an override takes one")
                version = (hub().store.release_results(evening.id, [result_id], reason)
                           if action == "release" else
                           hub().store.change_result(evening.id, result_id, action, reason))
        except InputError as exc:
            text = str(exc)
            status = 404 if "has no result" in text else 409 if (
                "already" in text or text.startswith("refused")
                or "no longer counts" in text or "is not held" in text) else 400
            raise Refusal(status, text) from None
        log.warning("the organiser %s result %d of evening %d%s: %s", PAST[action],
                    result_id, evening.id, "" if replacement is None else
                    f" with result {replacement}", reason)
        board = hub().board(evening)
        socketio.emit(STANDINGS, screen_board(board))
        return {"ok": True, "version": version, "counted": board["counted"],
                **({} if replacement is None else {"id": replacement})}

    @socketio.on("connect")
    def on_connect(auth: Any = None) -> bool:
        """A screen connects: it gets the board at once (the one computed for this change),
        unless its address connects faster than a phone does (refused: the client says
        so and tries again later). With the database away it gets none until the next
        board, so the screen does not say "live" on a board the hub cannot read."""
        if not hub().phone_requests.take(request.remote_addr or "?"):
            return False
        try:
            board = hub().shown_board(hub().evening())
        except (psycopg.OperationalError, PoolTimeout):
            return True
        emit(STANDINGS, screen_board(board))
        return True

    return app


PAST = {"remove": "removed", "restore": "restored", "override": "overrode",
        "release": "released"}


def hold_reason(evening: Evening, before: v6_tables.Standings,
                after: v6_tables.Standings, report: v6_tables.Report) -> str | None:
    """Why this valid result waits for the organiser instead of counting (see the module's
    docstring), or None: it counts now."""
    override = hub().store.override_of(evening.id, report.table, report.round_key)
    if override is not None:
        return (f"the organiser's override {override} holds for this round until the "
                "organiser removes it")
    if before.final and (after.final, after.final_tables) != (before.final,
                                                              before.final_tables):
        return ("the final is drawn and this correction would change who plays it: the "
                "final stays as drawn unless the organiser releases it")
    return None


def _override(evening: Evening, result_id: int, data: Any, reason: str) -> tuple[int, int]:
    """Check the organiser's report that replaces result ``result_id`` and store it: (the
    new result's id, the board's new version). InputError (nothing stored) when it is not
    for that result's table and round, when a newer result replaced that one already, or
    when the seating or the rules refuse it, exactly as a table's correction is refused."""
    old, replaced = hub().store.result(evening.id, result_id)
    report = v6_tables.report_from_json(data, "report")
    if (report.table, report.round_key) != (old.table, old.round_key):
        raise InputError(f"report: an override of result {result_id} is for "
                         f"{old.table} {old.round_key}, not {report.table} "
                         f"{report.round_key}")
    if replaced:
        raise InputError(f"result {result_id} no longer counts for {old.table} "
                         f"{old.round_key}: a newer result replaced it already; override "
                         "that one (dicecam hub result list)")
    content = json.dumps(v6_tables.report_to_json(report), sort_keys=True).encode()
    report = dataclasses.replace(  # the hub names the override; what it says is hashed
        report, action_id=f"organiser-{result_id}-{hashlib.sha256(content).hexdigest()[:12]}")
    _, reports = hub().store.results(evening.id)
    why = v6_tables.refusal(evening.plan, reports, report)
    if why is not None:
        raise InputError(f"refused, nothing changed: {why}")
    return hub().store.override_result(evening.id, result_id, report, reason)


def assignment(evening: Evening, table: str, board: Mapping[str, Any]) -> dict[str, Any]:
    """What a table plays now: its final group once the final is drawn (with the jokers its
    players used in the preliminary passes, which the final's engine must refuse), else
    its group."""
    code = table
    position = evening.plan.tables.index(code)
    final_tables = board["final_tables"]
    spent: dict[str, list[str]] = {}
    if code in final_tables:
        group = board["final"][final_tables.index(code)]
        stage = v6_tables.FINAL
        spent = {name: board["spent"][name] for name in group if name in board["spent"]}
    elif position < len(evening.plan.groups):
        group, stage = list(evening.plan.groups[position]), v6_tables.PRELIM
    else:
        group, stage = [], v6_tables.PRELIM
    return {"evening": evening.name, "evening_id": evening.id, "table": code,
            "number": position + 1, "stage": stage,
            "group": group, "spent": spent}


def standings_json(evening: Evening, board: v6_tables.Standings, version: int,
                   joined: Mapping[str, bool]) -> dict[str, Any]:
    number = {code: i + 1 for i, code in enumerate(evening.plan.tables)}
    return {
        "version": version,
        "evening": evening.name,
        "evening_id": evening.id,
        "rows": [{"player": r.player, "table": number[r.table], "points": r.points,
                  "passes": r.passes, "zombies": r.zombies, "qualified": r.qualified,
                  "final_table": None if r.final_table is None else number[r.final_table],
                  "final_points": r.final_points, "final_place": r.final_place}
                 for r in board.rows],
        "final": [list(g) for g in board.final],
        "final_tables": list(board.final_tables),
        "over": board.over,
        "winner": board.winner,
        "counted": board.counted,
        "duplicates": board.duplicates,
        "joker_conflicts": list(board.joker_conflicts),
        "spent": {name: list(jokers) for name, jokers in board.spent},
        "problems": list(board.problems),
        "tables": [{"number": number[c], "joined": joined.get(c, False)}
                   for c in evening.plan.tables],
    }


#: the board's row fields, in the order a screen's board sends them (``screen_board``)
SCREEN_COLUMNS = ("player", "table", "points", "passes", "zombies", "qualified",
                  "final_table", "final_points")


def screen_board(board: Mapping[str, Any]) -> dict[str, Any]:
    """The board as it is sent to every screen and phone: the rows as lists under
    ``columns`` and without what no screen shows (each finalist's spent jokers, the final
    places), about a quarter of ``/api/standings``' size for 256 players (13 KB instead of
    52). At an open night's rate every board goes to hundreds of phones: its size is what
    the hub sends and every phone parses."""
    out = {k: v for k, v in board.items() if k not in ("rows", "spent")}
    out["columns"] = list(SCREEN_COLUMNS)
    out["rows"] = [[row[c] for c in SCREEN_COLUMNS] for row in board["rows"]]
    return out


class NewestBoardFirst(socketio_module.RedisManager):  # type: ignore[misc]
    """Flask-SocketIO's Redis message queue, where each process sends its screens only
    the newest board it holds: a board counts every result before it (its version), so
    one that a newer board overtook before it was sent is skipped, never queued behind
    it. One thread a process sends the boards; a burst of results costs the phones one
    board, not one per result, and a process behind on its phones catches up at once.
    Every other emit goes through as Redis brings it."""

    def __init__(self, url: str, channel: str) -> None:
        super().__init__(url, channel=channel)
        self._newest: dict[str, Any] | None = None
        self._ready = threading.Condition()
        self._sender: threading.Thread | None = None

    def _handle_emit(self, message: dict[str, Any]) -> None:
        data = message.get("data")
        if message.get("event") != STANDINGS or message.get("room") is not None or \
                message.get("callback") is not None or not isinstance(data, list) or \
                len(data) != 1 or not isinstance(data[0], dict):
            super()._handle_emit(message)
            return
        with self._ready:
            newest = self._newest
            if newest is None or _board_order(data[0]) >= _board_order(newest["data"][0]):
                self._newest = message
            if self._sender is None:
                self._sender = threading.Thread(target=self._send_boards,
                                                name="newest board", daemon=True)
                self._sender.start()
            self._ready.notify()

    def _send_boards(self) -> None:
        sent: tuple[int, int] = (-1, -1)
        while True:
            with self._ready:
                while self._newest is None:
                    self._ready.wait()
                message, self._newest = self._newest, None
            if _board_order(message["data"][0]) < sent:
                continue  # older than one sent: every screen has better
            sent = _board_order(message["data"][0])
            try:
                super()._handle_emit(message)
            except Exception:  # a broken screen must not stop the boards
                log.exception("sending a board failed")


def _board_order(board: Mapping[str, Any]) -> tuple[int, int]:
    """Which of two boards is newer: a new evening's first, then the higher version (a
    table joining sends a board of the same version, which counts as new)."""
    return int(board.get("evening_id") or 0), int(board.get("version") or 0)


def rss_kb() -> int:
    """This process's resident memory (Linux), for the bench."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
