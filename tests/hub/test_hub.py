"""The tournament hub and a table's link to it.

Without servers: the table's outbox and hub link against a stand-in hub (a small HTTP
server in this process): results wait while the hub is away, go in order exactly once
when it answers, a refused one is kept with the reason; ``dicecam serve``'s app queues a
V6 evening's passes as they settle. With private PostgreSQL and Redis instances (skipped,
with the reason, where Debian's postgresql or redis-server is not installed): the real
``dicecam hub`` with two processes, and a smaller version of ``dicecam bench evening`` (4
tables, each ``dicecam serve`` with a croupier's tablet; a hub worker and a table killed,
the hub away 2 s).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import urllib.error
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import socketio

from dicecam.cli import main
from dicecam.commands.doctor import Verdict, check_hub
from dicecam.errors import InputError
from dicecam.hub.store import HubStore
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.tools import services as private
from dicecam.tools.bench.hub.load import run_evening
from dicecam.tools.hub_harness import Hub, keys_printed, open_idle_websockets, private_hub
from dicecam.tools.v6_evening import play_group
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.hub_link import signing
from dicecam.webapp.hub_link.link import HubLink
from dicecam.webapp.hub_link.signing import parse_key
from dicecam.webapp.journal.outbox import Outbox, OutboxState
from tests.support.tablets import paired_client
from tests.support.waiting import wait_until

GROUP = ["Ann", "Bea", "Cem", "Dan"]


def key(table: int, evening: int = 1) -> str:
    """A table key of the form `dicecam hub init` prints (the stand-in checks none)."""
    return f"{evening}-T{table}-ABCDEFGHJKLMNPQRSTUV"
MISSING = private.missing()
needs_servers = pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)}")


class StandInHub:
    """Answers /api/join and /api/results like the hub: stores each action id once."""

    def __init__(self, port: int) -> None:
        self.stage = "prelim"  # what /api/join and /api/tables say this table plays
        self.other_evening = False  # True: answers as a hub running another evening
        self.unsigned = False  # True: refuses every result's signature (a clock far off)
        self.headers: list[dict[str, str]] = []  # each request's headers
        self.received: list[dict[str, Any]] = []
        self.stored: dict[str, dict[str, Any]] = {}
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self._answer(200, hub.seat())

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                hub.headers.append(dict(self.headers))
                if hub.other_evening:
                    self._answer(409, {"ok": False, "other_evening": True,
                                       "error": "table 1-T3 is a table of evening 1; the hub "
                                                "now runs evening 2"})
                    return
                if self.path == "/api/join":
                    self._answer(200, hub.seat())
                    return
                hub.received.append(body)
                if hub.unsigned:
                    self._answer(401, {"ok": False, "error": "the request was signed 600 s "
                                                             "before the hub's time"})
                    return
                if body["group"][0] == "Refused":
                    self._answer(400, {"ok": False, "error": "the evening seats others"})
                    return
                new = body["action_id"] not in hub.stored
                hub.stored.setdefault(body["action_id"], body)
                self._answer(200, {"ok": True, "stored": new})

            def _answer(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def seat(self) -> dict[str, Any]:
        seat = {"ok": True, "number": 3, "group": GROUP, "stage": self.stage,
                "evening": "test"}
        if self.stage == "final":  # the jokers Ann used in the preliminary passes
            seat["spent"] = {"Ann": ["fumo"]}
        return seat

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def evening() -> Any:
    return play_group(GROUP, "hub-link")


def publish_all(link: HubLink, states: Any, game_id: int = 1) -> None:
    for state in states:
        link.observe(events.STATE, {"game": "v6", "game_id": game_id, "state": state})


def test_results_wait_while_the_hub_is_away_then_go_in_order_exactly_once(
        tmp_path: Path, evening: Any) -> None:
    port = private.free_port()
    shown: list[dict[str, Any]] = []
    outbox = Outbox(tmp_path / "games.sqlite")
    link = HubLink(f"http://127.0.0.1:{port}", key(3).lower(), outbox,
                   lambda event, payload: shown.append(payload), retry_most=0.2)
    link.start()
    publish_all(link, evening.states)
    wait_until(lambda: link.online is False)
    status = link.status()
    assert status["waiting"] == 4 and status["delivered"] == 0  # 3 passes + the group table
    assert any(s["online"] is False and s["waiting"] == 4 for s in shown)
    hub = StandInHub(port)
    try:
        wait_until(lambda: link.status()["waiting"] == 0)
        keys = [r["kind"] + str(r.get("pass", "")) for r in hub.received]
        assert keys == ["pass1", "pass2", "pass3", "ranking"]
        assert all(r["table"] == "T3" for r in hub.received)
        # the table restarts: the same states give the same results, nothing is sent again
        link.stop()
        again = HubLink(f"http://127.0.0.1:{port}", key(3), Outbox(tmp_path /
                                                                    "games.sqlite"),
                        lambda *_: None, retry_most=0.2)
        again.start()
        publish_all(again, evening.states[-3:])  # queues nothing: all 4 are delivered
        wait_until(lambda: again.assignment is not None, message="the link never joined")
        assert again.status()["waiting"] == 0 and again.status()["delivered"] == 4
        assert len(hub.received) == 4
        assert again.assignment == {"evening": "test", "number": 3, "stage": "prelim",
                                    "group": GROUP, "spent": None}
        again.stop()
    finally:
        hub.close()


def test_a_refused_result_is_kept_with_the_reason_and_the_rest_still_go(
        tmp_path: Path) -> None:
    port = private.free_port()
    hub = StandInHub(port)
    outbox = Outbox(tmp_path / "games.sqlite")
    link = HubLink(f"http://127.0.0.1:{port}", key(1), outbox, lambda *_: None,
                   retry_most=0.2)
    bad = {"kind": "pass", "group": ["Refused", "X"], "action_id": "bad"}
    good = {"kind": "pass", "group": GROUP, "action_id": "good"}
    assert outbox.add("bad", "prelim/pass1", bad) and outbox.add("good", "prelim/pass2", good)
    assert not outbox.add("good", "prelim/pass2", good)  # queued once
    link.start()
    try:
        wait_until(lambda: link.status()["waiting"] == 0)
        status = link.status()
        assert status["delivered"] == 1 and "the evening seats others" in status["refused"][0]
        assert list(hub.stored) == ["good"]
    finally:
        link.stop()
        hub.close()


def test_a_table_of_another_evening_stops_sending_and_says_why(tmp_path: Path,
                                                               evening: Any) -> None:
    port = private.free_port()
    hub = StandInHub(port)
    hub.other_evening = True
    shown: list[dict[str, Any]] = []
    link = HubLink(f"http://127.0.0.1:{port}", key(3), Outbox(tmp_path / "games.sqlite"),
                   lambda event, payload: shown.append(payload), retry_most=0.2)
    publish_all(link, evening.states)
    link.start()
    try:
        wait_until(lambda: link.status()["stopped"])
        status = link.status()
        assert "now runs evening 2" in status["stopped"] and status["error"] == \
            status["stopped"]
        assert status["waiting"] == 4 and hub.received == []
        asked = len(hub.headers)
        link._wake.set()  # a new result, say: the link does not ask again
        wait_until(lambda: any(s.get("stopped") for s in shown))
        assert len(hub.headers) == asked == 1
        # the request was signed: the public id and a signature, never the secret
        sent = hub.headers[0]
        assert sent["X-Dicecam-Table"] == "1-T3" and len(sent["X-Dicecam-Signature"]) == 64
        assert not any("ABCDEFGHJK" in value for value in sent.values())
    finally:
        link.stop()
        hub.close()


def test_a_result_refused_for_its_signature_waits_and_goes_once_it_is_taken(
        tmp_path: Path) -> None:
    port = private.free_port()
    hub = StandInHub(port)
    hub.unsigned = True
    outbox = Outbox(tmp_path / "games.sqlite")
    link = HubLink(f"http://127.0.0.1:{port}", key(1), outbox, lambda *_: None,
                   retry_most=0.2)
    assert outbox.add("good", "prelim/pass1", {"kind": "pass", "group": GROUP,
                                               "action_id": "good"})
    link.start()
    try:
        wait_until(lambda: len(hub.received) >= 2)  # asked again: not marked refused
        status = link.status()
        assert status["waiting"] == 1 and status["refused"] == []
        assert "before the hub's time" in status["error"]
        hub.unsigned = False  # the clock set right
        wait_until(lambda: link.status()["delivered"] == 1)
        assert list(hub.stored) == ["good"] and link.status()["error"] is None
    finally:
        link.stop()
        hub.close()


def test_a_bad_hub_address_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="http://HOST:PORT"):
        HubLink("192.168.1.5:8770", key(1), Outbox(":memory:"), lambda *_: None)
    with pytest.raises(InputError, match="a table's key is the key"):
        HubLink("http://127.0.0.1:9", "K7QX3P", Outbox(":memory:"), lambda *_: None)


def test_the_table_server_queues_each_settled_pass_for_the_hub(tmp_path: Path,
                                                               evening: Any) -> None:
    port = private.free_port()
    hub = StandInHub(port)
    app = create_app({"DB_PATH": str(tmp_path / "games.sqlite"), "TESTING": True,
                      "HUB_URL": f"http://127.0.0.1:{port}", "TABLE_KEY": key(7)})
    try:
        services(app).start_reader()
        client = paired_client(app)
        ack = client.emit(events.NEW_GAME, {"game": "v6", "config": evening.config},
                          callback=True)
        assert ack["ok"], ack
        for action in evening.actions:
            ack = client.emit(events.ACTION, action, callback=True)
            assert ack["ok"], (action, ack)
        link = services(app).hub_link
        wait_until(lambda: link.status()["delivered"] == 4)
        reports = [v6_tables.report_from_json(r) for r in hub.received]
        assert [r.round_key for r in reports] == ["prelim/pass1", "prelim/pass2",
                                                  "prelim/pass3", "prelim/table"]
        hub_statuses = [m["args"][0] for m in client.get_received() if m["name"] == events.HUB]
        # the page learns the table's public id, never its key
        assert hub_statuses and hub_statuses[-1]["table"] == "1-T7"
        assert not any("ABCDEFGHJK" in json.dumps(s) for s in hub_statuses)
    finally:
        services(app).close()
        hub.close()


def test_the_table_starts_the_group_the_hub_seats_and_then_its_final(
        tmp_path: Path, evening: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr("dicecam.webapp.hub_link.link.ASSIGNMENT_EVERY", 0.1)
    port = private.free_port()
    hub = StandInHub(port)
    app = create_app({"DB_PATH": str(tmp_path / "games.sqlite"), "TESTING": True,
                      "HUB_URL": f"http://127.0.0.1:{port}", "TABLE_KEY": key(3)})
    session = services(app).session
    try:
        services(app).start_reader()
        wait_until(lambda: session.view().get("game") == "v6")
        assert session.view()["config"] == {"players": GROUP, "groups": [GROUP],
                                            "final": False}
        client = paired_client(app)
        for action in evening.actions[:5]:  # an evening in progress is never replaced
            assert client.emit(events.ACTION, action, callback=True)["ok"]
        link = services(app).hub_link
        seated: list[dict[str, Any]] = []  # each assignment, once the table has acted on it
        seat = link._on_assignment

        def seat_and_note(assignment: dict[str, Any]) -> None:
            seat(assignment)
            seated.append(assignment)

        link._on_assignment = seat_and_note
        hub.stage = "final"
        wait_until(lambda: any(a["stage"] == "final" for a in seated),
                   message="the table never asked the hub for its stage again")
        assert session.view()["actions"] == 5 and not session.view()["config"]["final"]
        for action in evening.actions[5:]:
            assert client.emit(events.ACTION, action, callback=True)["ok"]
        wait_until(lambda: session.view()["config"].get("final") is True)
        assert session.view()["actions"] == 0
        assert session.view()["config"]["spent"] == {"Ann": ["fumo"]}
        assert session.view()["state"]["spent_jokers"] == {"Ann": ["fumo"]}
    finally:
        services(app).close()
        hub.close()


# --- with the real servers -------------------------------------------------------------------


@pytest.fixture(scope="module")
def hub() -> Iterator[Any]:
    if MISSING:
        pytest.skip(f"needs {', '.join(MISSING)}")
    with private_hub([f"P{i:02d}" for i in range(16)], 4, processes=2, seed="t") as running:
        yield running


@needs_servers
def test_idle_websockets_from_one_address_leave_the_tables_their_threads(hub: Any) -> None:
    """Far more idle WebSockets from one laptop than the hub gives an address: the rest are
    refused at once, and a table's POST, the page and /healthz still answer."""
    per_process = 64  # the hub's default --phones-per-address
    opened, statuses = open_idle_websockets(hub.url, 3 * per_process * hub.processes)
    try:
        assert 0 < len(opened) <= per_process * hub.processes
        assert statuses[101] == len(opened) and statuses[429] > 0
        assert set(statuses) <= {101, 429}
        status, answer = hub.post("/api/join", {}, "T2")
        assert status == 200 and answer["number"] == 2
        assert hub.get("/healthz")["ok"] is True
        # the page and the board are the phones' side: this address holds its share
        with pytest.raises(urllib.error.HTTPError) as refused:
            hub.get("/api/standings")
        assert refused.value.code == 429
        assert "close some first" in json.loads(refused.value.read())["error"]
    finally:
        for conn in opened:
            conn.close()
    # closed: the address is served again (each process counts it down as its sockets end)
    wait_until(lambda: _standings_answer(hub))


def _standings_answer(hub: Any) -> bool:
    try:
        return bool(hub.get("/api/standings")["evening"])
    except urllib.error.HTTPError:
        return False


@needs_servers
def test_the_hub_counts_a_result_once_and_refuses_a_bad_one_by_name(hub: Any) -> None:
    plan = v6_tables.plan_evening([f"P{i:02d}" for i in range(16)], hub.tables, "t")
    played = play_group(plan.groups[0], "once")
    first = v6_tables.report_to_json(
        v6_tables.reports_from_state(plan.tables[0], "g", played.states[-1])[0])
    phone = socketio.Client()
    boards: list[dict[str, Any]] = []
    phone.on("standings", boards.append)
    phone.connect(hub.url, transports=["websocket"])
    try:
        status, answer = hub.post("/api/results", first, plan.tables[0])
        assert status == 200 and answer["stored"] is True
        status, answer = hub.post("/api/results", first, plan.tables[0])
        assert status == 200 and answer["stored"] is False
        status, answer = hub.post("/api/results", {**first, "pass": 9}, plan.tables[0])
        assert status == 400 and "report.pass" in answer["error"]
        status, answer = hub.post("/api/results", first, plan.tables[1])
        assert status == 400 and "signed by table T2" in answer["error"]
        status, answer = hub.post("/api/join", {}, "1-T9-ABCDEFGHJKLMNPQRSTUV")
        assert status == 401 and "evening 1 has no table T9" in answer["error"]
        table_id = hub.key(plan.tables[0]).table_id
        seat = hub.get(f"/api/tables/{table_id.lower()}", plan.tables[0])
        assert seat["stage"] == "prelim" and seat["group"] == list(plan.groups[0])
        wait_until(lambda: any(b["counted"] == 1 for b in boards))
        board = hub.get("/api/standings")
        assert board["counted"] == 1 and board["version"] == boards[-1]["version"]
    finally:
        phone.disconnect()


def test_doctor_says_the_hub_does_not_answer_and_counts_the_outbox(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    outbox = Outbox(db)
    outbox.add("a", "prelim/pass1", {})
    outbox.add("b", "prelim/pass2", {})
    row = outbox.next_waiting()
    assert row is not None
    outbox.mark(row.id, OutboxState.REFUSED, "the evening seats others")
    outbox.close()
    findings = check_hub(f"http://127.0.0.1:{private.free_port()}", parse_key(key(1)), db)
    assert [f.verdict for f in findings] == [Verdict.WARN, Verdict.WARN]
    assert "does not answer" in findings[0].what
    assert findings[1].what == ("outbox: 0 results delivered, 1 waiting, 1 refused (latest: "
                                "prelim/pass1: the evening seats others)")


@needs_servers
def test_doctor_checks_the_key_with_the_hub(hub: Any, tmp_path: Path, capsys: Any,
                                            monkeypatch: Any) -> None:
    known = check_hub(hub.url, parse_key(hub.keys["T1"].lower()), tmp_path / "none.sqlite")
    assert [f.verdict for f in known] == [Verdict.OK] and "knows table 1" in known[0].what
    forged = check_hub(hub.url, parse_key(hub.key("T1").table_id + "-ABCDEFGHJKLMNPQRSTUV"),
                       tmp_path / "none.sqlite")
    assert forged[0].verdict is Verdict.FAIL and "does not match" in forged[0].what
    # the command takes the key from a file or the environment, never from its arguments
    doctor = ["doctor", "--hub", hub.url, "--db", str(tmp_path / "none.sqlite")]
    assert main([*doctor, "--table-key", hub.keys["T1"]]) == 2
    assert "--table-key KEY is gone" in capsys.readouterr().err
    (tmp_path / "t1.key").write_text(hub.keys["T1"], encoding="utf-8")
    main([*doctor, "--table-key-file", str(tmp_path / "t1.key")])
    assert f"{hub.url} knows table 1" in capsys.readouterr().out
    monkeypatch.setenv("DICECAM_TABLE_KEY", "not a key")
    assert main(doctor) == 2
    assert "$DICECAM_TABLE_KEY does not hold this table's key" in capsys.readouterr().err
    monkeypatch.setenv("DICECAM_TABLE_KEY", hub.keys["T1"])
    main(doctor)
    assert f"{hub.url} knows table 1" in capsys.readouterr().out


def test_a_table_key_never_comes_from_the_command_line(tmp_path: Path, capsys: Any,
                                                       monkeypatch: Any) -> None:
    monkeypatch.delenv("DICECAM_TABLE_KEY", raising=False)
    serve = ["serve", "--no-camera", "--db", str(tmp_path / "g.sqlite"), "--hub",
             "http://127.0.0.1:9"]
    assert main([*serve, "--table-key", key(1)]) == 2
    err = capsys.readouterr().err
    assert "--table-key KEY is gone" in err and "--table-key-file FILE" in err
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)  # no terminal to ask on
    assert main(serve) == 2
    assert "--hub needs this table's key" in capsys.readouterr().err
    assert main([*serve[:-2], "--table-key-file", "k"]) == 2
    assert "goes with --hub URL" in capsys.readouterr().err
    assert main([*serve, "--table-key-file", str(tmp_path / "missing.key")]) == 2
    assert "cannot read this table's key at the hub from" in capsys.readouterr().err
    # typed when asked, hidden
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("getpass.getpass", lambda prompt: key(1))
    assert signing.hub_table_key("http://127.0.0.1:9", None, None) == parse_key(key(1))


@pytest.mark.slow
@needs_servers
def test_an_evening_of_real_tables_survives_kills_and_an_absent_hub() -> None:
    names = [f"P{i:02d}" for i in range(16)]
    with private_hub(names, 4, processes=2, seed="kills") as running:
        # the tables are dicecam serve itself, each with a croupier's tablet
        check = run_evening(running, names, "kills", stage_seconds=10.0, hub_down=2.0,
                            real_tables=True)
    assert len(check.events) == 3, check.events
    assert check.mismatches == []
    assert check.results_stored == check.results_expected == 4 * 4 + 2 * 5
    assert check.stored_twice == 0
    # every stored result's way from its table's outbox to the hub is timed, and the
    # processes' memory read: the hub's two workers and each table's server
    assert len(check.latencies_ms) == check.results_stored
    assert all(ms >= 0 for ms in check.latencies_ms)
    assert len(check.hub_memory_kb) == 2 and all(kb > 0 for kb in check.hub_memory_kb.values())
    assert set(check.table_memory_kb) == set(running.tables)


def test_the_hub_command_says_what_is_missing(capsys: Any) -> None:
    assert main(["hub", "init", "--db", "postgresql://x@127.0.0.1:1/none"]) == 2
    assert "name the evening's players" in capsys.readouterr().err
    # creating the evening and the organiser's changes are subcommands (issue 61, item 6)
    with pytest.raises(SystemExit) as old_spelling:
        main(["hub", "--init", "--players", "A,B"])
    assert old_spelling.value.code == 2
    assert "dicecam hub init --players" in capsys.readouterr().err
    with pytest.raises(SystemExit) as bad_verb:  # argparse names the verbs there are
        main(["hub", "result", "erase", "3"])
    assert bad_verb.value.code == 2
    assert "choose from 'list', 'show', 'remove'" in capsys.readouterr().err
    assert main(["hub", "result", "show"]) == 2
    assert "dicecam hub result show ID" in capsys.readouterr().err
    assert main(["hub", "--processes", "2", "--redis", "none"]) == 2
    assert "share their emits through Redis" in capsys.readouterr().err
    port = private.free_port()
    assert main(["hub", "--processes", "1", "--redis", "none", "--db",
                 f"postgresql://nobody@127.0.0.1:{port}/none"]) == 2
    assert "cannot reach the hub's database" in capsys.readouterr().err


def test_an_outbox_that_fails_does_not_stop_the_game(evening: Any, caplog: Any) -> None:
    class BrokenOutbox:
        def add(self, *args: Any) -> bool:
            raise OSError("disk full")

    broken: Any = BrokenOutbox()
    link = HubLink("http://127.0.0.1:9", key(1), broken, lambda *_: None)
    link.observe(events.STATE, {"game": "v6", "game_id": 1, "state": evening.states[-1]})
    assert "could not queue this table's results" in caplog.text


@needs_servers
def test_the_hub_without_an_evening_says_to_run_init(capsys: Any) -> None:
    with private.postgres_server() as db:
        assert main(["hub", "--processes", "1", "--redis", "none", "--db", db]) == 2
    assert "no evening yet: run `dicecam hub init`" in capsys.readouterr().err


@pytest.mark.slow
@needs_servers
def test_with_redis_away_results_are_stored_and_the_boards_catch_up(tmp_path: Path) -> None:
    names = [f"P{i}" for i in range(8)]
    redis_port = private.free_port()

    def start_redis() -> Any:
        process = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind",
                                    "127.0.0.1", "--save", "", "--appendonly", "no",
                                    "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
        wait_until(lambda: _answers(redis_port))
        return process

    redis = start_redis()
    try:
        with private.postgres_server() as db:
            port = private.free_port()
            url = f"http://127.0.0.1:{port}"
            home = str(tmp_path / "home")
            init = subprocess.run(
                [sys.executable, "-m", "dicecam", "hub", "init", "--db", db, "--redis",
                 f"redis://127.0.0.1:{redis_port}/0", "--port", str(port), "--players",
                 ",".join(names), "--seed", "r"], env={**os.environ, "DICECAM_HOME": home},
                capture_output=True, text=True, check=True)
            hub = Hub(url, db, "", home, port, 2, keys_printed(init.stdout))
            codes = hub.tables
            hub.start()
            try:
                plan = v6_tables.plan_evening(names, codes, "r")
                reports = v6_tables.reports_from_state(
                    codes[0], "g", play_group(plan.groups[0], 1).states[-1])
                versions: list[int] = []
                phone = socketio.Client()
                phone.on("standings", lambda board: versions.append(board["version"]))
                phone.connect(url, transports=["websocket"])
                post = v6_tables.report_to_json
                assert hub.post("/api/results", post(reports[0]), codes[0])[1]["id"] == 1
                wait_until(lambda: 1 in versions)
                listening = listeners(redis_port)  # the workers with a connection listen
                assert listening >= 1
                redis.kill()
                redis.wait()
                # Redis away: the result is stored all the same, only its board is lost
                assert hub.post("/api/results", post(reports[1]), codes[0])[1]["id"] == 2
                redis = start_redis()
                wait_until(lambda: listeners(redis_port) == listening,
                           message="the workers' listeners never subscribed to Redis again")
                assert hub.post("/api/results", post(reports[2]), codes[0])[1]["id"] == 3
                wait_until(lambda: 3 in versions)  # the board counting 2 and 3 arrives
                assert hub.get("/api/standings")["counted"] == 3
                phone.disconnect()
            finally:
                hub.stop()
    finally:
        redis.kill()
        redis.wait()


def listeners(redis_port: int) -> int:
    """How many hub processes listen to the hub's Redis channel (0 while Redis is away; a
    worker listens from its first client on)."""
    import redis

    try:
        with redis.Redis(port=redis_port, socket_timeout=2) as client:
            return dict(client.pubsub_numsub("dicecam-hub")).get(b"dicecam-hub", 0)
    except redis.RedisError:
        return 0


def _answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


@needs_servers
def test_the_hub_store_carries_on_after_a_database_restart() -> None:
    with private.postgres_cluster() as cluster:
        store = HubStore(cluster.url)
        try:
            store.migrate()
            evening, _ = store.create_evening("restart", ["A", "B", "C", "D"], 1, "s")
            cluster.kill()
            cluster.start()
            # the pool replaces the connection the crash broke: the first request works
            assert store.result_count(evening.id) == 0
            assert store.seat(evening.id, evening.plan.tables[0]).position == 0
        finally:
            store.close()


@needs_servers
def test_bench_hub_abuse_says_what_held_a_line_each(capsys: Any) -> None:
    """The bench's smoke run: fewer sockets, connects and requests than its defaults."""
    assert main(["bench", "hub", "--abuse", "--sockets", "200", "--emits", "200",
                 "--requests", "240"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and all(line.startswith("held") for line in lines), lines
    assert "200 idle WebSockets from one address: 128 upgraded" in lines[0]
