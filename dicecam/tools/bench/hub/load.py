"""``dicecam bench hub`` and ``dicecam bench evening``: the tournament hub under load, and a
whole simulated evening with failures.

``bench hub``: a private hub (PostgreSQL, Redis, ``--processes`` workers on one port), an
evening of ``--tables`` tables whose results are posted as the tables settle them, and
``--phones`` Socket.IO clients watching the standings. For each result: the time from the
table's POST to each phone holding a board that counts it (p50, p95, max), boards a phone
never got (lost), results the hub lost or stored twice, and each worker's memory.

``bench evening``: 8 tables x 3 passes + the final, played by the V6 engine, each table a
child process running the real hub link and outbox; during it one hub worker is killed
(SIGKILL), one table node is killed and started again, and the whole hub is away for
``--hub-down`` seconds. The hub's standings must equal a single-process reference of the
same rounds, with every result stored exactly once.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import socketio  # python-socketio comes with flask-socketio (runtime)

from dicecam.errors import InputError
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.tools.bench.hub.abuse import run_abuse
from dicecam.tools.bench.speed.web import percentile
from dicecam.tools.child_server import ChildServer, children, memory_kb, start_child_server
from dicecam.tools.extras import require_extra
from dicecam.tools.hub_harness import Hub, private_hub
from dicecam.tools.services import missing
from dicecam.tools.tablet_client import ConnectionLost, Tablet
from dicecam.tools.v6_evening import PlayedEvening, play_group, reference_points
from dicecam.webapp import events
from dicecam.webapp.hub_link.signing import TABLE_KEY_VARIABLE

HELP = ("the tournament hub: tables posting results, phones watching the standings over N "
        "hub processes: update latency p95, losses, memory per process (needs the test extra)")
EVENING_HELP = ("a simulated V6 evening (8 tables x 3 passes + final) through the hub, "
                "with a hub worker and a table killed and the hub away: standings equal to "
                "a single-process reference, nothing lost or counted twice (needs the test extra)")
TARGET_P95_MS = 300.0
NODE_SECONDS = 180.0  # most time a table node may take


def players(count: int) -> list[str]:
    return [f"P{i:02d}" for i in range(count)]


# --- the evening with failures ------------------------------------------------------------------


@dataclass
class EveningCheck:
    tables: int
    results_expected: int
    results_stored: int = 0
    mismatches: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    seconds: float = 0.0
    winner: str | None = None
    stored_twice: int = 0  # (table, action id) stored more than once by the hub
    resent: int = 0  # results a table sent again that the hub counted once (the board's)
    #: each result: queued in the table's outbox -> stored by the hub (same clock)
    latencies_ms: list[float] = field(default_factory=list)
    hub_memory_kb: dict[int, int] = field(default_factory=dict)  # hub worker pid -> RSS
    table_memory_kb: dict[str, int] = field(default_factory=dict)  # table -> its peak RSS

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.results_stored == self.results_expected \
            and self.stored_twice == 0


class _Nodes:
    """Table nodes as child processes (``tools/table_node.py``)."""

    def __init__(self, hub: Hub, folder: Path) -> None:
        self.hub, self.folder = hub, folder
        self.args: dict[str, list[str]] = {}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, code: str, evening: PlayedEvening, game_id: int, start_at: float,
              delay: float) -> None:
        states = self.folder / f"{code}-{game_id}.json"
        states.write_text(json.dumps(list(evening.states)), encoding="utf-8")
        self.args[code] = [sys.executable, "-m", "dicecam.tools.table_node", "--hub",
                           self.hub.url, "--key", self.hub.keys[code], "--outbox",
                           str(self.folder / f"{code}.sqlite"), "--states", str(states),
                           "--game-id", str(game_id), "--start-at", str(start_at),
                           "--delay", str(delay)]
        self.procs[code] = subprocess.Popen(self.args[code])

    def kill_and_restart(self, code: str, pause: float) -> None:
        self.procs[code].send_signal(signal.SIGKILL)
        self.procs[code].wait()
        time.sleep(pause)
        self.procs[code] = subprocess.Popen(self.args[code])

    def pids(self) -> dict[str, list[int]]:
        return {code: [proc.pid] for code, proc in self.procs.items()
                if proc.poll() is None}

    def wait(self) -> list[str]:
        failed = []
        for code, proc in self.procs.items():
            try:
                status = proc.wait(timeout=NODE_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                status = -9
            if status != 0:
                failed.append(f"table node {code} ended with status {status}")
        self.procs.clear()
        return failed


class _ServeTables:
    """Real tables: ``dicecam serve --no-camera --game v6 --hub URL`` (the key in the
    environment) as
    child processes, each with its own SQLite journal, and a croupier's tablet per table
    sending the played evening's actions over Socket.IO. The table starts the group's game
    itself from the hub's assignment (the final's too); a killed table is started again
    on its journal and the croupier goes on from the actions the journal holds."""

    def __init__(self, hub: Hub, folder: Path) -> None:
        self.hub, self.folder = hub, folder
        self.servers: dict[str, ChildServer] = {}
        self.threads: dict[str, threading.Thread] = {}
        self.failures: list[str] = []
        self._lock = threading.Lock()

    def _serve(self, code: str) -> ChildServer:
        return start_child_server(self.folder / f"{code}.sqlite", args=(
            "--no-camera", "--game", "v6", "--hub", self.hub.url),
            env={TABLE_KEY_VARIABLE: self.hub.keys[code]})

    def start(self, code: str, evening: PlayedEvening, game_id: int, start_at: float,
              delay: float) -> None:
        if code not in self.servers:
            self.servers[code] = self._serve(code)
        final = bool(evening.config["final"])
        thread = threading.Thread(target=self._croupier, args=(
            code, evening.actions, sorted(evening.config["players"]), final, start_at, delay))
        self.threads[code] = thread
        thread.start()

    def pids(self) -> dict[str, list[int]]:
        """Each table's processes: gunicorn's arbiter and the worker that serves."""
        with self._lock:
            servers = dict(self.servers)
        return {code: [server.process.pid, *children(server.process.pid)]
                for code, server in servers.items() if server.process.poll() is None}

    def kill_and_restart(self, code: str, pause: float) -> None:
        with self._lock:
            self.servers[code].kill()
        time.sleep(pause)
        server = self._serve(code)
        with self._lock:
            self.servers[code] = server

    def _croupier(self, code: str, actions: Sequence[dict[str, Any]], players: list[str],
                  final: bool, start_at: float, delay: float) -> None:
        deadline = time.monotonic() + NODE_SECONDS
        tablet, server = None, None
        done = 0
        while done < len(actions) and time.monotonic() < deadline:
            try:
                with self._lock:
                    current = self.servers[code]
                if tablet is None or server is not current or current.process.poll() is not None:
                    if tablet is not None:
                        tablet.close()
                    server, tablet = current, Tablet(current.url).connect()
                    tablet.pair(current.pin)
                state = tablet.state or {}
                config = state.get("config") or {}
                if state.get("game") != "v6" or sorted(config.get("players", [])) != players \
                        or bool(config.get("final")) != final:
                    time.sleep(0.1)  # the table starts the hub's game by itself
                    continue
                done = int(state["actions"])  # the journal says where the evening is
                if done >= len(actions):
                    break
                time.sleep(max(0.0, start_at + done * delay - time.time()))
                ack = tablet.call(events.ACTION, actions[done])
                if not ack.get("ok"):
                    self.failures.append(f"table {code} refused action {done}: {ack}")
                    return
                # the next action is chosen from the state after this one (a stale state
                # would send this one again)
                tablet.wait_state(lambda s, sent=done: int(s.get("actions", 0)) > sent)
            except (ConnectionLost, InputError, OSError, socketio.exceptions.SocketIOError):
                tablet = None  # killed: wait for it to come back
                time.sleep(0.2)
        if done < len(actions):
            self.failures.append(f"table {code} stopped at action {done} of {len(actions)}")
        if tablet is not None:
            tablet.close()

    def wait(self) -> list[str]:
        for thread in self.threads.values():
            thread.join()
        self.threads.clear()
        failures, self.failures = self.failures, []
        return failures

    def stop(self) -> None:
        for server in self.servers.values():
            server.stop()


class _MemorySampler:
    """Each table's peak memory (its processes together, shared pages once), every half
    second."""

    def __init__(self, nodes: _Nodes | _ServeTables, peaks: dict[str, int]) -> None:
        self.nodes, self.peaks = nodes, peaks
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            for code, pids in self.nodes.pids().items():
                self.peaks[code] = max(self.peaks.get(code, 0), memory_kb(pids))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def run_evening(hub: Hub, names: list[str], seed: str, *, stage_seconds: float,
                hub_down: float, kill_worker: bool = True, kill_table: bool = True,
                chaos_seed: int = 18, real_tables: bool = False) -> EveningCheck:
    """Play the preliminary passes and the final through ``hub`` with failures; the tables
    are ``dicecam serve`` itself with ``real_tables``, else table nodes (quicker)."""
    started = time.monotonic()
    rng = random.Random(chaos_seed)
    plan = v6_tables.plan_evening(names, hub.tables, seed)
    check = EveningCheck(len(plan.groups), 0)
    with tempfile.TemporaryDirectory(prefix="dicecam-nodes-") as folder:
        nodes: _Nodes | _ServeTables = (_ServeTables if real_tables else _Nodes)(
            hub, Path(folder))
        sampler = _MemorySampler(nodes, check.table_memory_kb)
        try:
            played = [play_group(g, f"{seed}/{i}") for i, g in enumerate(plan.groups)]
            _play_stage(hub, nodes, plan.tables, played, 1, stage_seconds, hub_down,
                        kill_worker, kill_table, rng, check)
            board = _wait_board(hub, lambda b: bool(b["final"]), "the final's groups")
            finals = [play_group(g, f"{seed}/final/{i}", final=True,
                                 spent={n: board["spent"][n] for n in g if n in board["spent"]})
                      for i, g in enumerate(board["final"])]
            _play_stage(hub, nodes, board["final_tables"], finals, 2, stage_seconds / 2, 0.0,
                        False, False, rng, check)
            board = _wait_board(hub, lambda b: b["over"], "the final's end")
            check.hub_memory_kb = {pid: h["rss_kb"] for pid, h in hub.worker_health().items()}
        finally:
            sampler.stop()
            if isinstance(nodes, _ServeTables):
                nodes.stop()
        check.latencies_ms = _delivery_ms(hub.db, Path(folder), set(plan.tables))
    check.resent = int(board["duplicates"])
    check.stored_twice = _stored_twice(hub.db)
    check.results_expected = sum(passes_and_table(p) for p in played + finals)
    check.results_stored = _stored_results(hub.db)
    prelim = reference_points(plan.groups, played)
    final = reference_points(board["final"], finals, final=True)
    rows = {r["player"]: r for r in board["rows"]}
    for name, points in prelim.points:
        if rows[name]["points"] != points:
            check.mismatches.append(f"{name}: hub {rows[name]['points']} points, "
                                    f"reference {points}")
    for name, points in final.points:
        if rows[name]["final_points"] != points:
            check.mismatches.append(f"{name}: hub {rows[name]['final_points']} final "
                                    f"points, reference {points}")
    if {r["player"] for r in board["rows"] if r["qualified"]} != set(prelim.qualified):
        check.mismatches.append("the qualified players differ from the reference")
    check.mismatches.extend(board["problems"])
    check.mismatches.extend(board["joker_conflicts"])  # the final tables knew the jokers
    check.winner = board["winner"]
    check.seconds = time.monotonic() - started
    return check


def passes_and_table(evening: PlayedEvening) -> int:
    return evening.final_state.config.passes + 1


def _play_stage(hub: Hub, nodes: _Nodes | _ServeTables, codes: list[str] | tuple[str, ...],
                played: list[PlayedEvening], game_id: int, seconds: float, hub_down: float,
                kill_worker: bool, kill_table: bool, rng: random.Random,
                check: EveningCheck) -> None:
    start_at = time.time() + 1.0
    delay = seconds / max(len(p.states) for p in played)
    for code, evening in zip(codes, played, strict=False):
        nodes.start(code, evening, game_id, start_at, delay)
    chaos = []
    if kill_worker:
        chaos.append((rng.uniform(0.1, 0.3) * seconds, "worker"))
    if kill_table:
        chaos.append((rng.uniform(0.3, 0.5) * seconds, "table"))
    if hub_down:
        chaos.append((rng.uniform(0.5, 0.6) * seconds, "down"))
    for at, what in sorted(chaos):
        time.sleep(max(0.0, start_at + at - time.time()))
        if what == "worker":
            pid = hub.kill_worker(rng.randrange(hub.processes))
            check.events.append(f"{at:.1f} s: SIGKILL of hub worker pid {pid}")
        elif what == "table":
            code = rng.choice(list(codes))
            nodes.kill_and_restart(code, 1.0)
            kind = "table (dicecam serve)" if isinstance(nodes, _ServeTables) else "table node"
            check.events.append(f"{at:.1f} s: SIGKILL of {kind} {code}, started again "
                                "after 1 s")
        else:
            hub.stop()
            check.events.append(f"{at:.1f} s: the whole hub away for {hub_down:.0f} s")
            time.sleep(hub_down)
            hub.start()
    check.mismatches.extend(nodes.wait())


def _wait_board(hub: Hub, ready: Any, what: str, seconds: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        board = hub.get("/api/standings")
        if ready(board):
            return board
        if time.monotonic() > deadline:
            raise RuntimeError(f"the hub's standings never showed {what}: {board['problems']}")
        time.sleep(0.2)


def _delivery_ms(db: str, folder: Path, tables: set[str]) -> list[float]:
    """Each stored result's time from its table's outbox (queued when the pass settled)
    to the hub's database (stored), in ms: the hub away shows here as its 30 s."""
    with psycopg.connect(db) as conn:
        stored = {(table, action): float(at) for table, action, at in conn.execute(
            "SELECT table_code, action_id, extract(epoch FROM received) FROM results")}
    out = []
    for table in sorted(tables):
        path = folder / f"{table}.sqlite"
        if not path.is_file():
            continue
        with closing(sqlite3.connect(path)) as outbox:
            for action, created in outbox.execute("SELECT action_id, created FROM hub_outbox"):
                if (table, action) in stored:
                    out.append((stored[(table, action)] - created) * 1000.0)
    return sorted(out)


def _stored_twice(db: str) -> int:
    """Results the hub holds more than once: the same table's same action id, or the same
    report under two ids (its content sent as two results)."""
    with psycopg.connect(db) as conn:
        (twice,) = conn.execute(
            "SELECT count(*) - count(DISTINCT (evening_id, table_code, round_key, report)) "
            "FROM results").fetchone()
    return int(twice)


def _stored_results(db: str) -> int:
    with psycopg.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM results").fetchone()[0])


# --- latency under load -----------------------------------------------------------------------


@dataclass
class HubFigures:
    tables: int
    phones: int
    processes: int
    posted: int = 0
    stored: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    fan_out_ms: list[float] = field(default_factory=list)  # hub got the POST -> phone got it
    lost: int = 0  # (result, phone) pairs where the phone never held a board counting it
    disconnects: int = 0
    memory_kb: dict[int, int] = field(default_factory=dict)
    cpu_s: dict[int, float] = field(default_factory=dict)  # each worker's CPU during the run
    seconds: float = 0.0
    post_ms: list[float] = field(default_factory=list)  # a table's POST, sent -> answered
    retried: int = 0  # POSTs a table sent again (a timeout, a 429/503), as its outbox would
    phones_cpu_s: float = 0.0  # the phones' processes together
    services_cpu_s: dict[str, float] = field(default_factory=dict)  # PostgreSQL, Redis


class _Phone:
    def __init__(self, url: str) -> None:
        self.boards: list[tuple[float, int]] = []  # (wall clock, version)
        self.fan_out_ms: list[float] = []
        self.disconnects = 0
        # websocket-client checks UTF-8 in pure Python unless told not to (a browser does
        # it in C++): 20 phones in one process spent their time there, not the hub's
        self.client = socketio.Client(reconnection=True, websocket_extra_options={
            "skip_utf8_validation": True})
        self.client.on("standings", self._on_board)
        self.client.on("disconnect", self._on_disconnect)
        self.client.connect(url, transports=["websocket"], wait_timeout=20)

    def _on_board(self, board: dict[str, Any]) -> None:
        now = time.time()
        self.boards.append((now, int(board["version"])))
        if "received" in board:  # the hub's clock is this machine's: hub -> phone alone
            self.fan_out_ms.append((now - board["received"]) * 1000.0)

    def _on_disconnect(self, *_: Any) -> None:
        self.disconnects += 1


class _LightPhone:
    """A phone that takes each board's version (and the hub's receiving time) from the
    Socket.IO frame without parsing the rest: Engine.IO 4 over one WebSocket (open, the
    namespace's connect, pong for ping). A real phone parses the board on its own CPU;
    here 320 phones share the hub's two cores, and parsing each board in Python took them
    two thirds of the machine (without ``--light-phones`` the phones parse every board)."""

    VERSION = re.compile(r'"version":\s*(\d+)')
    RECEIVED = re.compile(r'"received":\s*([0-9.]+)')

    def __init__(self, url: str) -> None:
        self.boards: list[tuple[float, int]] = []
        self.fan_out_ms: list[float] = []
        self.disconnects = 0
        self._closing = False
        import websocket  # the test extra (websocket-client): require_extra checked it

        self.ws = websocket.create_connection(
            url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
            timeout=60, skip_utf8_validation=True, enable_multithread=True)
        if not str(self.ws.recv()).startswith("0"):
            raise ConnectionError("no Engine.IO open packet")
        self.ws.send("40")
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                message = self.ws.recv()
            except Exception:  # closed: by us at the end, or by the hub
                if not self._closing:
                    self.disconnects += 1
                return
            if message == "2":
                self.ws.send("3")
            elif isinstance(message, str) and message.startswith('42["standings"'):
                now = time.time()
                version = self.VERSION.search(message)
                if version:
                    self.boards.append((now, int(version.group(1))))
                received = self.RECEIVED.search(message)
                if received:
                    self.fan_out_ms.append((now - float(received.group(1))) * 1000.0)

    def close(self) -> None:
        self._closing = True
        self.ws.close()


def _phone_group(url: str, count: int, ready: Any, stop: Any, out: Any,
                 light: bool = False) -> None:
    """A child process holding ``count`` phones: one Python process for all 80 phones
    would time its own GIL queue, not the hub."""
    if light:
        lights = [_LightPhone(url) for _ in range(count)]
        ready.put(count)
        stop.wait()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        out.put(([(p.boards, p.fan_out_ms, p.disconnects) for p in lights],
                 usage.ru_utime + usage.ru_stime))
        for phone in lights:
            phone.close()
        return
    phones = [_Phone(url) for _ in range(count)]
    ready.put(count)
    stop.wait()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out.put(([(p.boards, p.fan_out_ms, p.disconnects) for p in phones],
             usage.ru_utime + usage.ru_stime))
    leaving = [threading.Thread(target=p.client.disconnect) for p in phones]
    for thread in leaving:  # a client's disconnect waits ~3 s for the answer: all at once
        thread.start()
    for thread in leaving:
        thread.join()


POST_ATTEMPTS = 5


def _services_cpu(hub: Hub) -> dict[str, float]:
    """CPU seconds so far of the hub's private PostgreSQL (postmaster and backends) and
    Redis, found by their ports (Linux /proc)."""
    db_port = hub.db.rsplit(":", 1)[1].split("/")[0]
    redis_port = hub.redis.rsplit(":", 1)[1].split("/")[0]
    tick = os.sysconf("SC_CLK_TCK")
    procs: dict[int, tuple[int, str, float]] = {}  # pid -> (ppid, command line, cpu s)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        procs[int(entry.name)] = (int(fields[1]), cmdline,
                                  (int(fields[11]) + int(fields[12])) / tick)
    roots = {"PostgreSQL": {pid for pid, (_, cmd, _) in procs.items()
                            if "postgres" in cmd and f"-p {db_port}" in cmd},
             "Redis": {pid for pid, (_, cmd, _) in procs.items()
                       if "redis-server" in cmd and redis_port in cmd}}
    out = {}
    for name, tree in roots.items():
        out[name] = sum(cpu for pid, (ppid, _, cpu) in procs.items()
                        if pid in tree or ppid in tree)
    return out


def run_load(hub: Hub, names: list[str], seed: str, phones: int, seconds: float,
             phone_processes: int = 4, light_phones: bool = False) -> HubFigures:
    plan = v6_tables.plan_evening(names, hub.tables, seed)
    figures = HubFigures(len(plan.groups), phones, hub.processes)
    played = [play_group(g, f"{seed}/{i}") for i, g in enumerate(plan.groups)]
    reports = [v6_tables.reports_from_state(plan.tables[i], f"game{i}", p.states[-1])
               for i, p in enumerate(played)]
    context = multiprocessing.get_context("spawn")
    ready, out, stop = context.Queue(), context.Queue(), context.Event()
    shares = [phones // phone_processes + (i < phones % phone_processes)
              for i in range(phone_processes)]
    children = [context.Process(target=_phone_group, args=(hub.url, n, ready, stop, out,
                                                           light_phones))
                for n in shares if n]
    for child in children:
        child.start()
    for _ in children:
        ready.get(timeout=120)
    posted: list[tuple[float, int]] = []
    lock = threading.Lock()
    before = hub.worker_health()
    services_before = _services_cpu(hub)
    start = time.time()

    def table(index: int) -> None:
        rng = random.Random(index)
        own = reports[index]
        for k, report in enumerate(own):  # spread over the run, as passes settle
            time.sleep(max(0.0, start + (k + rng.random()) * seconds / len(own) - time.time()))
            t0 = time.time()
            for attempt in range(POST_ATTEMPTS):  # a table's outbox sends it again
                sent = time.time()
                try:
                    status, answer = hub.post("/api/results", v6_tables.report_to_json(report),
                                              plan.tables[index])
                except OSError:  # no answer within 10 s
                    status, answer = 0, {}
                with lock:
                    figures.post_ms.append((time.time() - sent) * 1000.0)
                    figures.retried += attempt > 0
                if status == 200:
                    break
                time.sleep(1.0)
            if status == 200 and answer.get("id"):
                with lock:
                    posted.append((t0, int(answer["id"])))

    threads = [threading.Thread(target=table, args=(i,)) for i in range(len(plan.groups))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    time.sleep(2.0)  # the last boards on their way
    figures.seconds = time.time() - start
    after = hub.worker_health()
    figures.services_cpu_s = {name: cpu - services_before.get(name, 0.0)
                              for name, cpu in _services_cpu(hub).items()}
    figures.memory_kb = {pid: h["rss_kb"] for pid, h in after.items()}
    figures.cpu_s = {pid: h["cpu_s"] - before.get(pid, {"cpu_s": 0.0})["cpu_s"]
                     for pid, h in after.items()}
    stop.set()
    groups = [out.get(timeout=60) for _ in children]
    watched = [phone for phones_seen, _ in groups for phone in phones_seen]
    figures.phones_cpu_s = sum(cpu for _, cpu in groups)
    for child in children:
        child.join(timeout=30)
    figures.disconnects = sum(d for _, _, d in watched)
    figures.fan_out_ms = sorted(ms for _, fan, _ in watched for ms in fan)
    figures.posted = sum(len(r) for r in reports)
    figures.stored = _stored_results(hub.db)
    for t0, result_id in posted:
        for boards, _, _ in watched:
            got = next((t for t, version in boards if version >= result_id), None)
            if got is None:
                figures.lost += 1
            else:
                figures.latencies_ms.append((got - t0) * 1000.0)
    return figures


# --- the commands ------------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--phones", type=int, default=80)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--phone-processes", type=int, default=4,
                        help="processes the phones are spread over (the bench's own GIL "
                        "must not be what is measured)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="the results of the evening's passes are spread over this long")
    parser.add_argument("--abuse", action="store_true",
                        help="instead: run a laptop's attacks (idle WebSockets, a flood of "
                        "connects down one socket, of board requests, bad bodies from a key "
                        "holder) against a private hub and say what held, a line each")
    parser.add_argument("--sockets", type=int, default=1000, help="--abuse: idle WebSockets")
    parser.add_argument("--emits", type=int, default=2000, help="--abuse: connects sent")
    parser.add_argument("--requests", type=int, default=2000,
                        help="--abuse: board requests sent")
    parser.add_argument("--light-phones", action="store_true",
                        help="phones that read each board's version without parsing the "
                        "board (a real phone parses on its own CPU; here the phones share "
                        "the hub's cores)")


def run(args: argparse.Namespace) -> int:
    require_extra("test", "bench hub")
    absent = missing()
    if absent:
        print(f"bench hub: needs {', '.join(absent)}", file=sys.stderr)
        return 2
    if args.abuse:
        return run_abuse(args, players(16))
    names = players(4 * args.tables)
    # every phone of the bench comes from 127.0.0.1, as a proxy's would: the hub's cap per
    # address is raised to hold them all (what a cap refuses is `bench hub --abuse`'s)
    with private_hub(names, args.tables, processes=args.processes, seed="bench",
                     phones_per_address=args.phones + 16) as hub:
        f = run_load(hub, names, "bench", args.phones, args.seconds,
                     max(1, args.phone_processes), args.light_phones)
    lat = sorted(f.latencies_ms)
    p95 = percentile(lat, 0.95) if lat else float("nan")
    phones = ("light: the version read from the frame" if args.light_phones else
              "python-socketio clients parsing every board")
    print(f"hub: {f.tables} tables posting, {f.phones} phones watching ({phones}), "
          f"{f.processes} hub processes (Redis message queue), {f.seconds:.1f} s")
    print(f"results: posted {f.posted}, stored {f.stored} (lost {f.posted - f.stored}, none "
          f"twice: {'yes' if f.stored <= f.posted else 'NO'})")
    if lat:
        print(f"standings update latency (table's POST -> phone holds the board), "
              f"{len(lat)} deliveries: median {percentile(lat, 0.5):.0f} ms, p95 {p95:.0f} ms "
              f"(target < {TARGET_P95_MS:.0f}), max {lat[-1]:.0f} ms")
    if f.fan_out_ms:
        fan = f.fan_out_ms
        print(f"  of which hub received the POST -> phone has the board: median "
              f"{percentile(fan, 0.5):.0f} ms, p95 {percentile(fan, 0.95):.0f} ms")
    print(f"boards never received: {f.lost}; phone disconnects: {f.disconnects}")
    if f.post_ms:
        posts = sorted(f.post_ms)
        print(f"a table's POST answered: median {percentile(posts, 0.5):.0f} ms, p95 "
              f"{percentile(posts, 0.95):.0f} ms, max {posts[-1]:.0f} ms; sent again "
              f"{f.retried} times (no answer in 10 s, 429 or 503), as a table's outbox does")
    cpu = [f"hub workers {sum(f.cpu_s.values()):.1f}"] + [
        f"{name} {seconds:.1f}" for name, seconds in f.services_cpu_s.items()] + [
        f"the {f.phones} phones {f.phones_cpu_s:.1f}"]
    cores = os.cpu_count() or 1
    print(f"CPU seconds during the run: {', '.join(cpu)} (the phones' from their start, "
          f"connecting included; this machine has {cores * f.seconds:.0f} in "
          f"{f.seconds:.0f} s on {cores} cores)")
    for pid, kb in sorted(f.memory_kb.items()):
        print(f"hub worker pid {pid}: {kb / 1024:.0f} MB resident, "
              f"{f.cpu_s.get(pid, 0.0):.1f} s CPU during the run")
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (this machine's cores: "
          f"{os.cpu_count()}; the phones, the tables, PostgreSQL and Redis run here too)")
    ok = f.lost == 0 and f.stored == f.posted and p95 < TARGET_P95_MS
    return 0 if ok else 1


def add_evening_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="how long the preliminary passes take (the final half that)")
    parser.add_argument("--hub-down", type=float, default=30.0,
                        help="seconds the whole hub is away during the preliminary passes")
    parser.add_argument("--table-nodes", action="store_true",
                        help="tables as light nodes running the hub link alone, instead of "
                        "dicecam serve with a croupier's tablet (quicker)")


def run_evening_command(args: argparse.Namespace) -> int:
    require_extra("test", "bench evening")
    absent = missing()
    if absent:
        print(f"bench evening: needs {', '.join(absent)}", file=sys.stderr)
        return 2
    names = players(4 * args.tables)
    with private_hub(names, args.tables, processes=2, seed="evening") as hub:
        check = run_evening(hub, names, "evening", stage_seconds=args.seconds,
                            hub_down=args.hub_down, real_tables=not args.table_nodes)
    kind = "light table nodes" if args.table_nodes else "dicecam serve + a croupier's tablet"
    print(f"evening: {check.tables} tables ({kind}) x 3 passes + final, "
          f"{check.seconds:.0f} s")
    for event in check.events:
        print(f"  {event}")
    once = check.results_stored == check.results_expected and check.stored_twice == 0
    print(f"results stored {check.results_stored} of {check.results_expected} "
          f"({'exactly once each' if once else 'WRONG'}); stored twice: "
          f"{check.stored_twice}; sent again by a table and counted once: {check.resent}")
    lat = check.latencies_ms
    if lat:
        print(f"result latency (queued in the table's outbox -> stored by the hub), "
              f"{len(lat)} results: median {percentile(lat, 0.5):.0f} ms, p95 "
              f"{percentile(lat, 0.95):.0f} ms, max {lat[-1]:.0f} ms (the hub away "
              f"{args.hub_down:.0f} s shows in the tail)")
    for pid, kb in sorted(check.hub_memory_kb.items()):
        print(f"hub worker pid {pid}: {kb / 1024:.0f} MB resident at the end")
    if check.table_memory_kb:
        peaks = sorted(check.table_memory_kb.values())
        print(f"tables' peak memory ({kind}; Pss, a page shared by a table's arbiter and "
              f"worker counted once): {peaks[0] / 1024:.0f} to "
              f"{peaks[-1] / 1024:.0f} MB each, {sum(peaks) / 1024:.0f} MB in all")
    print(f"standings equal to the single-process reference: "
          f"{'yes' if not check.mismatches else 'NO'}; winner {check.winner}")
    for line in check.mismatches:
        print(f"  {line}")
    return 0 if check.ok else 1
