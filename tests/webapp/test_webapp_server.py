"""``dicecam serve`` runs under gunicorn's threaded worker (``webapp/server.py``), not
werkzeug's development server: no development-server warning, the app in a worker forked
by the arbiter, and the worker gone with a SIGKILL of ``dicecam serve`` (the crash test's
power cut still reaches the process that writes the journal)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from dicecam.tools.child_server import children, start_child_server
from dicecam.tools.tablet_client import Tablet
from dicecam.webapp import events
from tests.support.waiting import wait_until


def _alive(pid: int) -> bool:
    """Running (a zombie nobody reaped yet counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def test_serve_runs_in_a_gunicorn_worker_that_dies_with_it(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    server = start_child_server(db)
    try:
        workers = wait_until(lambda: children(server.process.pid))
        assert len(workers) == 1
        output = "\n".join(server.output)
        assert "development server" not in output and "WARNING" not in output
        with urllib.request.urlopen(server.url + "healthz", timeout=10) as answer:
            assert json.loads(answer.read())["ok"] is True
        tablet = Tablet(server.url).connect()  # a WebSocket through the worker
        tablet.pair(server.pin)
        assert tablet.call(events.NEW_GAME, {"game": "charidice", "config": {
            "players": ["Ann", "Ben"]}})["ok"]
        tablet.close()
        server.kill()  # SIGKILL of dicecam serve
        wait_until(lambda: not _alive(workers[0]), message="the worker outlived its server")
    finally:
        server.stop()
    again = start_child_server(db)  # the journal is whole: the game is there
    try:
        tablet = Tablet(again.url).connect()
        assert wait_until(lambda: tablet.state).get("game") == "charidice"
        tablet.close()
    finally:
        again.stop()
