"""A private tournament hub for tests and benches: PostgreSQL and Redis on free ports in
temporary folders, ``dicecam hub init`` and ``dicecam hub`` as child processes (the real
commands), and helpers to kill a worker, take the whole hub away and bring it back."""

from __future__ import annotations

import base64
import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from dicecam.tools.services import free_port, postgres_server, redis_server
from dicecam.webapp.hub_link.signing import TableKey, parse_key, sign

START_SECONDS = 30.0


@dataclass
class Hub:
    url: str
    db: str
    redis: str
    home: str
    port: int
    processes: int
    keys: dict[str, str]  # table name (T1) -> the key hub init printed for it
    #: the hub's --phones-per-address (None: its default): a bench's phones all come
    #: from 127.0.0.1, as a proxy's would
    phones_per_address: int | None = None
    process: subprocess.Popen[str] | None = None
    worker_pids: list[int] = field(default_factory=list)
    _lines: list[str] = field(default_factory=list)

    @property
    def tables(self) -> list[str]:
        """The tables' public names, T1, T2, ... (the evening plan's tables)."""
        return list(self.keys)

    def env(self) -> dict[str, str]:
        return dict(os.environ, DICECAM_HOME=self.home, PYTHONUNBUFFERED="1")

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dicecam", "hub", "--processes", str(self.processes),
             *([] if self.phones_per_address is None else
               ["--phones-per-address", str(self.phones_per_address)])],
            env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # a thread reads the hub's output for as long as it runs: the start waits for the
        # workers' pids with a deadline (a read that never returns cannot hang the start),
        # and the pipe never fills while a test runs
        started: queue.Queue[int | None] = queue.Queue()
        threading.Thread(target=self._read_output, args=(started,), daemon=True).start()
        pids: list[int] = []
        deadline = time.monotonic() + START_SECONDS
        while len(pids) < self.processes:
            try:
                pid = started.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"dicecam hub did not start its workers in "
                                   f"{START_SECONDS:.0f} s:\n" + "".join(self._lines)) from None
            if pid is None:
                raise RuntimeError("dicecam hub stopped at start:\n" + "".join(self._lines))
            pids.append(pid)
        self.worker_pids = pids
        self.wait_ready()

    def _read_output(self, started: queue.Queue[int | None]) -> None:
        """Every line the hub prints kept (for errors), each worker's pid handed on; None
        once the hub's output ends. Several workers' lines may arrive on one line."""
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.append(line)
            for pid in re.findall(r"hub worker \d+: pid (\d+)", line):
                started.put(int(pid))
        started.put(None)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                self.get("/healthz")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the hub did not answer within 30 s")

    def stop(self) -> None:
        """Take the whole hub away (supervisor and workers)."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pid in self.worker_pids:  # a worker the supervisor could not stop
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process = None

    def kill_worker(self, index: int = 0) -> int:
        """SIGKILL one worker (the supervisor starts another); its pid."""
        pid = self.worker_pids[index]
        os.kill(pid, signal.SIGKILL)
        return pid

    def get(self, path: str, table: str | None = None) -> dict[str, Any]:
        """GET ``path`` (signed as ``table``, a name or a key, when given)."""
        headers = {} if table is None else sign(self.key(table), "GET", path)
        request = urllib.request.Request(self.url + path, headers=headers)
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    def key(self, table: str) -> TableKey:
        """A table's key: by its name (T1) or given whole."""
        return parse_key(self.keys.get(table.upper(), table))

    def post(self, path: str, body: Any, table: str | None = None, *,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
        """POST ``body`` as JSON (bytes as they are), signed as ``table`` (a name or a key)
        when given; (status, the JSON answer)."""
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        signed = {} if table is None else sign(self.key(table), "POST", path, data)
        request = urllib.request.Request(self.url + path, data=data,
                                         headers={"Content-Type": "application/json",
                                                  **signed, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def worker_health(self) -> dict[int, dict[str, Any]]:
        """Each worker's /healthz (resident memory, CPU seconds), by pid: each request
        lands on one worker, so ask until every one answered."""
        seen: dict[int, dict[str, Any]] = {}
        for _ in range(200):
            answer = self.get("/healthz")
            seen[answer["pid"]] = answer
            if len(seen) >= self.processes:
                break
        return seen


def keys_printed(text: str) -> dict[str, str]:
    """The tables' keys in what ``dicecam hub init`` printed, by table name."""
    keys = re.findall(r": +key (\S+)", text)
    return {parse_key(key).table: key for key in keys}


@contextmanager
def private_hub(players: Sequence[str], tables: int, *, processes: int = 2,
                seed: str = "hub-test", phones_per_address: int | None = None
                ) -> Iterator[Hub]:
    with ExitStack() as stack:
        db = stack.enter_context(postgres_server())
        redis = stack.enter_context(redis_server())
        home = stack.enter_context(tempfile.TemporaryDirectory(prefix="dicecam-hub-"))
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        init = subprocess.run(
            [sys.executable, "-m", "dicecam", "hub", "init", "--db", db, "--redis", redis,
             "--port", str(port), "--players", ",".join(players), "--tables", str(tables),
             "--seed", seed, "--public-url", url],
            env=dict(os.environ, DICECAM_HOME=home), capture_output=True, text=True,
            timeout=60)
        if init.returncode != 0:
            raise RuntimeError(f"dicecam hub init failed: {init.stderr}")
        hub = Hub(url, db, redis, home, port, processes, keys_printed(init.stdout),
                  phones_per_address)
        stack.callback(hub.stop)  # also a hub whose start failed: its workers run
        hub.start()
        yield hub


def open_idle_websockets(url: str, count: int, timeout: float = 10.0
                         ) -> tuple[list[socket.socket], Counter[int]]:
    """Open ``count`` WebSockets to the hub's Socket.IO endpoint from this address and
    leave them idle, as a misbehaving laptop would: (the sockets the hub upgraded, still
    open, every answer's status: 101 upgraded, 429 or 503 refused). The caller closes
    the sockets."""
    host, port = url.removeprefix("http://").split(":")
    request = (f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}:{port}\r\n"
               "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Key: {key}\r\n\r\n")
    opened: list[socket.socket] = []
    statuses: Counter[int] = Counter()
    for _ in range(count):
        conn = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        conn.sendall(request.replace("{key}", key).encode())
        head = b""
        while b"\r\n" not in head:
            chunk = conn.recv(1024)
            if not chunk:
                break
            head += chunk
        status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
        statuses[status] += 1
        if status == 101:
            opened.append(conn)
        else:
            conn.close()
    return opened, statuses
