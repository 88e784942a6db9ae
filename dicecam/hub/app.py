"""The hub's app: the standings page, the tables' API, and live standings over Socket.IO.

``socketio`` is created bare at module level and wired by ``create_hub_app``. With a Redis
URL, Flask-SocketIO's ``message_queue`` carries every emit through Redis to every hub
process, so a phone connected to process 2 sees the result that a table posted to
process 1. Each emit carries ``version``, the id of the newest result it counts: results
are committed in PostgreSQL before the standings are read, so the payload with the higher
version is the newer board, and the page drops an older one arriving late from a slower
process.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, current_app, render_template, request, send_from_directory
from flask_socketio import SocketIO, emit

from dicecam.errors import InputError
from dicecam.hub.store import Evening, HubStore
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.webapp import static as webapp_static

socketio = SocketIO()

STANDINGS = "standings"  # server -> screens: the board (standings_json), with its version
SOCKET_IO_CLIENT = "socket.io-4.8.4.min.js"  # the tablet page's copy, served from here too
WEBAPP_STATIC = Path(webapp_static.__file__).parent
MAX_REPORT_BYTES = 64 * 1024

DEFAULTS: dict[str, Any] = {
    "DB_URL": None,  # postgresql://...
    "REDIS_URL": None,  # redis://...; None: a single process, emits stay in it
}


class HubServices:
    def __init__(self, app: Flask) -> None:
        if not app.config["DB_URL"]:
            raise InputError("the hub needs its database: pass --db postgresql://... or run "
                             "`dicecam hub --init` first")
        self.store = HubStore(app.config["DB_URL"])
        self.store.migrate()
        self._final_saved: set[int] = set()  # evenings whose final groups are stored

    def evening(self) -> Evening:
        return self.store.current_evening()

    def board(self, evening: Evening) -> dict[str, Any]:
        version, reports = self.store.results(evening.id)
        board = v6_tables.standings(evening.plan, reports)
        if board.final and evening.id not in self._final_saved:
            self.store.save_final_groups(evening, board.final, board.final_tables)
            self._final_saved.add(evening.id)
        return standings_json(evening, board, version, self.store.joined(evening.id))


def hub(app: Flask | None = None) -> HubServices:
    return (app or current_app).extensions["dicecam_hub"]


def create_hub_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = MAX_REPORT_BYTES
    socketio.init_app(app, async_mode="threading", message_queue=app.config["REDIS_URL"],
                      channel="dicecam-hub", cors_allowed_origins=None)
    app.extensions["dicecam_hub"] = HubServices(app)

    @app.get("/")
    def standings_page() -> str:
        return render_template("standings.html", evening=hub().evening().name,
                               event=STANDINGS)

    @app.get("/socket.io.min.js")
    def socket_io_client() -> Any:
        return send_from_directory(WEBAPP_STATIC, SOCKET_IO_CLIENT, max_age=3600)

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {"ok": True, "pid": os.getpid(), "rss_kb": rss_kb(),
                "cpu_s": round(usage.ru_utime + usage.ru_stime, 3)}

    @app.get("/api/standings")
    def api_standings() -> dict[str, Any]:
        return hub().board(hub().evening())

    @app.post("/api/join")
    def api_join() -> Any:
        data = request.get_json(silent=True)
        code = data.get("code") if isinstance(data, dict) else None
        if not isinstance(code, str):
            return {"ok": False, "error": "send {\"code\": \"ABC123\"}: the table's code"}, 400
        try:
            seat = hub().store.seat(code)
        except InputError as exc:
            return {"ok": False, "error": str(exc)}, 404
        board = hub().board(seat.evening)
        if seat.joined_now:  # the board counts the tables joined
            socketio.emit(STANDINGS, board)
        return {"ok": True, **assignment(seat.evening, seat.code, board)}

    @app.get("/api/tables/<code>")
    def api_table(code: str) -> Any:
        """A table's assignment now (its final group once drawn), without joining it."""
        try:
            seat = hub().store.seat(code, join=False)
        except InputError as exc:
            return {"ok": False, "error": str(exc)}, 404
        return {"ok": True, **assignment(seat.evening, seat.code, hub().board(seat.evening))}

    @app.post("/api/results")
    def api_results() -> Any:
        received = time.time()
        code = request.headers.get("X-Table-Code", "").strip().upper()
        try:
            seat = hub().store.seat(code, join=False)
            report = v6_tables.report_from_json(request.get_json(silent=True))
        except InputError as exc:
            return {"ok": False, "error": str(exc)}, 400
        if report.table != seat.code:
            return {"ok": False, "error": f"the report is for table {report.table}, but was "
                                          f"sent with the code of table {seat.code}"}, 400
        result_id = hub().store.add_result(seat.evening.id, report)
        if result_id is not None:  # a result sent again changes nothing: no emit
            board = hub().board(seat.evening)
            board["received"] = received
            socketio.emit(STANDINGS, board)
        return {"ok": True, "stored": result_id is not None, "id": result_id}

    @socketio.on("connect")
    def on_connect(auth: Any = None) -> None:
        emit(STANDINGS, hub().board(hub().evening()))

    return app


def assignment(evening: Evening, code: str, board: Mapping[str, Any]) -> dict[str, Any]:
    """What a table plays now: its final group once the final is drawn (with the jokers its
    players used in the preliminary passes, which the final's engine must refuse), else
    its group."""
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
    return {"evening": evening.name, "table": code, "number": position + 1, "stage": stage,
            "group": group, "spent": spent}


def standings_json(evening: Evening, board: v6_tables.Standings, version: int,
                   joined: Mapping[str, bool]) -> dict[str, Any]:
    number = {code: i + 1 for i, code in enumerate(evening.plan.tables)}
    return {
        "version": version,
        "evening": evening.name,
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


def rss_kb() -> int:
    """This process's resident memory (Linux), for the bench."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
