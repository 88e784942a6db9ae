"""The tests' private hub reads the hub's output: workers' lines that ran together."""

from __future__ import annotations

import io
import queue
from types import SimpleNamespace

from dicecam.tools.hub_harness import Hub


def test_every_workers_pid_is_read_also_from_lines_that_ran_together() -> None:
    hub = Hub("http://127.0.0.1:1", "db", "redis", "home", 1, 2, {})
    output = ("Stop with Ctrl+C.\n"
              "hub worker 1: pid 2050hub worker 2: pid 2051\n"
              "hub worker 1: pid 2077\n")
    hub.process = SimpleNamespace(stdout=io.StringIO(output))  # type: ignore[assignment]
    started: queue.Queue[int | None] = queue.Queue()
    hub._read_output(started)
    assert [started.get_nowait() for _ in range(4)] == [2050, 2051, 2077, None]
    assert "".join(hub._lines) == output
