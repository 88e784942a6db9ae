"""``dicecam serve`` as a child process on 127.0.0.1, for the crash test and the load bench.

The child is the real command (``python -m dicecam serve``) on a free port with its own
database; ``start_child_server`` returns once it answers ``/healthz`` and has printed its
pairing PIN, which the caller reads from its output as a person reads it from the console.
Its output is drained on a thread, so a chatty server never blocks on a full pipe.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dicecam.errors import InputError

PIN_LINE = re.compile(r"Pairing PIN: (\d+) (\d+)")


@dataclass
class ChildServer:
    process: subprocess.Popen[str]
    url: str
    pin: str
    output: list[str] = field(default_factory=list)

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flushing, as a power cut or an OOM kill would."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def rss_bytes(self) -> int | None:
        """The server's memory (Linux): its process and the worker gunicorn forks from it,
        each page shared between them counted once (``memory_kb``); None where /proc is not
        there."""
        pids = [self.process.pid, *children(self.process.pid)]
        kb = memory_kb(pids)
        return None if kb == 0 else kb * 1024


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux), e.g. gunicorn's workers."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def memory_kb(pids: Sequence[int]) -> int:
    """The memory of these processes together, in kB: the sum of their proportional set
    sizes (Pss: a page shared by two processes counts half in each, so a forked worker's
    pages shared with its arbiter count once), VmRSS where Pss is not readable; 0 for
    processes gone."""
    total = 0
    for pid in pids:
        for name, field_name in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
            try:
                text = Path(f"/proc/{pid}/{name}").read_text()
            except OSError:
                continue
            found = [line for line in text.splitlines() if line.startswith(field_name)]
            if found:
                total += int(found[0].split()[1])
                break
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_child_server(db: str | Path, *, args: Sequence[str] = ("--no-camera",),
                       timeout: float = 60.0,
                       env: Mapping[str, str] | None = None) -> ChildServer:
    """``dicecam serve`` in a child process on a free port (``env``: more variables, such
    as the table's key, which is never an argument)."""
    port = free_port()
    command = [sys.executable, "-m", "dicecam", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--db", str(db), *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
    output: list[str] = []

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            output.append(line.rstrip("\n"))

    threading.Thread(target=drain, name="dicecam serve output", daemon=True).start()
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise InputError(f"dicecam serve exited with status {process.returncode}: "
                             + " | ".join(output[-5:]))
        pins = [m for line in list(output) if (m := PIN_LINE.search(line))]
        if pins and _answers(url + "healthz"):
            return ChildServer(process, url, "".join(pins[-1].groups()), output)
        time.sleep(0.05)
    process.kill()
    raise InputError(f"dicecam serve did not answer within {timeout:.0f} s: "
                     + " | ".join(output[-5:]))


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1.0) as response:
            return response.status == 200
    except OSError:
        return False
