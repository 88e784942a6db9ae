"""`dicecam bench load` in small (3 tablets for 2 s against the real server), its report and
its refusals; and the socket option that keeps a tap's round trip short."""

from __future__ import annotations

import socket
import subprocess
import sys
from typing import Any

import pytest

from dicecam.tools.bench.speed.tablets import LoadResult, measure_load, report
from dicecam.webapp.api.app import send_at_once
from tests.support.waiting import WAIT_SECONDS

pytestmark = pytest.mark.slow


def test_three_tablets_for_two_seconds_get_every_update() -> None:
    # every update arrives, however long a busy machine takes to deliver it
    result = measure_load(tablets=3, rate=30.0, seconds=2.0, drain_seconds=WAIT_SECONDS)
    assert result.refused == 0 and result.changes == 60
    assert result.missing == 0 and result.disconnects == 0
    assert len(result.latencies_ms) == 3 * 60
    assert all(ms >= 0 for ms in result.latencies_ms)
    assert result.memory, "the server's memory was sampled"
    lines = report(result)
    assert lines[0].startswith("3 watching tablets, 1 playing; 60 changes in ")
    assert "updates that never arrived: 0; disconnects: 0" in lines


def test_the_report_says_which_targets_were_missed() -> None:
    result = LoadResult(tablets=20, rate=30, seconds=60, changes=1800, elapsed=60.0,
                        latencies_ms=[10.0] * 90 + [400.0] * 10, missing=3, disconnects=1,
                        memory=[(t, (70 + t / 6) * 2**20) for t in range(5, 61)])
    lines = report(result)
    assert "p95 400.0 ms" in lines[1]
    assert lines[-2] == ("server memory: 71.0 MB after the warm-up, 79.8 MB at the end "
                         "(+8.8 MB; trend +10.00 MB/min)")
    assert lines[-1] == ("targets: p95 < 150 ms NOT met; no disconnects NOT met; every update "
                         "arrived NOT met; memory steady (< 5 MB growth) NOT met")


@pytest.mark.parametrize(("argv", "message"), [
    (["--tablets", "0"], "--tablets must be 1 to 200, got 0"),
    (["--rate", "1000"], "--rate must be 0.5 to 200 changes per second, got 1000"),
    (["--seconds", "0.5"], "--seconds must be 1 to 3600, got 0.5"),
])
def test_the_bench_refuses_bad_options_in_one_line(argv: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "dicecam", "bench", "load", *argv],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip() == f"dicecam bench: {message}"


def test_each_connection_sends_without_waiting_for_acks() -> None:
    """TCP_NODELAY: a state and its acknowledgement leave at once (not ~40 ms apart)."""
    seen: list[Any] = []

    def inner(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        sock = environ.get("werkzeug.socket")
        seen.append(None if sock is None else sock.getsockopt(socket.IPPROTO_TCP,
                                                              socket.TCP_NODELAY))
        return []

    with socket.create_server(("127.0.0.1", 0)) as listener:
        client = socket.create_connection(listener.getsockname())
        accepted, _ = listener.accept()
        with client, accepted:
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 0
            send_at_once(inner)({"werkzeug.socket": accepted}, None)
    send_at_once(inner)({}, None)  # other servers (and test clients) hand no socket over
    assert seen == [1, None]
