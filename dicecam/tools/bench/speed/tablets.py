"""``dicecam bench load``: many tablets watching a game that changes many times a second.

Starts the real ``dicecam serve`` as a child process on 127.0.0.1 (no camera, a temporary
database), connects ``--tablets`` watching tablets and one paired tablet that plays, and
has the player change the game ``--rate`` times a second for ``--seconds`` (Charidice: after
one throw, keeping two dice and undoing it, over and over; each change is committed to
SQLite and broadcast as a full ``state`` to every tablet). The tablets are python-socketio
clients over WebSockets in this process, so one clock times both ends.

It prints: the changes made and the rate held; the update latency (from the player sending a
change to each watching tablet having its new state) as median, p95 and max; updates that
never arrived; disconnects; and the server's resident memory after the warm-up and at the
end (growth, and its trend per minute).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from dicecam.errors import InputError
from dicecam.tools.bench.speed.web import percentile
from dicecam.tools.child_server import start_child_server
from dicecam.tools.extras import require_extra
from dicecam.tools.tablet_client import ConnectionLost, Tablet
from dicecam.webapp import events

HELP = ("tablets watching a game that changes N times a second, against dicecam serve on "
        "127.0.0.1: update latency (p95), memory, disconnects (needs the test extra)")

TARGET_P95_MS = 150.0
#: memory growth from the end of the warm-up to the end that counts as steady
STEADY_GROWTH_MB = 5.0
WARMUP_SECONDS = 5.0
CHARIDICE = {"game": "charidice", "config": {"players": ["Ann", "Bo"]}}
SIX = [{"value": v, "colour": c} for v, c in
       zip([1, 2, 3, 4, 5, 6], ["red", "blue", "green", "purple", "black", "grey"], strict=True)]
#: the change and its undo, alternately: the game stays the same size however long it runs
MOVES = ((events.ACTION, {"type": "keep", "kept": [0, 1]}), (events.UNDO, {}))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tablets", type=int, default=20, help="watching tablets (20)")
    parser.add_argument("--rate", type=float, default=30.0, help="changes per second (30)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (60)")


@dataclass
class LoadResult:
    tablets: int
    rate: float
    seconds: float
    changes: int = 0
    refused: int = 0
    elapsed: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    missing: int = 0
    disconnects: int = 0
    memory: list[tuple[float, int]] = field(default_factory=list)  # (seconds, bytes)

    @property
    def held_rate(self) -> float:
        return self.changes / self.elapsed if self.elapsed else 0.0

    @property
    def p95_ms(self) -> float:
        return percentile(self.latencies_ms, 0.95) if self.latencies_ms else float("inf")

    def memory_after_warmup(self) -> tuple[float, float] | None:
        """Resident MB at the end of the warm-up and at the end (medians of 3 samples)."""
        steady = [(t, b) for t, b in self.memory if t >= min(WARMUP_SECONDS, self.seconds / 3)]
        if len(steady) < 2:
            return None
        first = statistics.median(b for _, b in steady[:3]) / 2**20
        last = statistics.median(b for _, b in steady[-3:]) / 2**20
        return first, last

    def memory_trend_mb_per_minute(self) -> float | None:
        steady = [(t, b / 2**20) for t, b in self.memory
                  if t >= min(WARMUP_SECONDS, self.seconds / 3)]
        if len(steady) < 3:
            return None
        slope = statistics.linear_regression([t for t, _ in steady], [m for _, m in steady])
        return slope.slope * 60


class _Arrivals:
    """When each state version reached each watching tablet (monotonic seconds)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.times: dict[tuple[int, int], float] = {}

    def recorder(self, tablet: int):  # -> Callable[[dict, float], None]
        def record(payload: dict, arrived: float) -> None:
            version = payload.get("version")
            if isinstance(version, int):
                with self._lock:
                    self.times[(tablet, version)] = time.monotonic()

        return record


def measure_load(tablets: int, rate: float, seconds: float, *,
                 drain_seconds: float = 2.0) -> LoadResult:
    """``tablets`` watching while one plays ``rate`` changes a second for ``seconds``; an
    update that has not arrived ``drain_seconds`` after the last change counts as missing
    (a test, which judges behaviour and not speed, gives it longer)."""
    result = LoadResult(tablets, rate, seconds)
    arrivals = _Arrivals()
    sent: dict[int, float] = {}
    with tempfile.TemporaryDirectory(prefix="dicecam-load-") as folder:
        server = start_child_server(Path(folder) / "games.sqlite")
        watchers: list[Tablet] = []
        player = None
        stop_sampling = threading.Event()
        started = time.monotonic()

        def sample_memory() -> None:
            while not stop_sampling.wait(0.5):
                rss = server.rss_bytes()
                if rss is not None:
                    result.memory.append((time.monotonic() - started, rss))

        sampler = threading.Thread(target=sample_memory, daemon=True)
        try:
            player = Tablet(server.url).connect()
            player.pair(server.pin)
            for event, payload in ((events.NEW_GAME, CHARIDICE), (events.ENTER_ROLL,
                                                                 {"dice": SIX})):
                ack = player.call(event, payload)
                if not ack.get("ok"):
                    raise InputError(f"the bench's game could not start: {ack.get('error')}")
            for n in range(tablets):
                watchers.append(Tablet(server.url, on_state=arrivals.recorder(n)).connect())
            started = time.monotonic()
            sampler.start()
            total = max(1, round(rate * seconds))
            for i in range(total):
                delay = started + i / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                event, payload = MOVES[i % 2]
                sent_at = time.monotonic()
                try:
                    ack = player.call(event, payload)
                except ConnectionLost:
                    break
                if ack.get("ok"):
                    sent[ack["version"]] = sent_at
                    result.changes += 1
                else:
                    result.refused += 1
            result.elapsed = time.monotonic() - started
            last = max(sent, default=None)
            deadline = time.monotonic() + drain_seconds  # the last updates on their way
            while last is not None and time.monotonic() < deadline and not all(
                    (n, last) in arrivals.times for n in range(tablets)):
                time.sleep(0.02)
            stop_sampling.set()
            result.disconnects = sum(t.disconnects for t in [player, *watchers])
        finally:
            stop_sampling.set()
            server.stop()  # first: closing a live connection waits for the server's reply
            for tablet in [*watchers, *([player] if player else [])]:
                tablet.close()
    for n in range(tablets):
        for version, at in sent.items():
            arrived = arrivals.times.get((n, version))
            if arrived is None:
                result.missing += 1
            else:
                result.latencies_ms.append((arrived - at) * 1000)
    return result


def report(result: LoadResult) -> list[str]:
    lines = [f"{result.tablets} watching tablets, 1 playing; {result.changes} changes in "
             f"{result.elapsed:.1f} s = {result.held_rate:.1f}/s (asked {result.rate:g}/s)"
             + (f", {result.refused} refused" if result.refused else "")]
    if result.latencies_ms:
        ms = result.latencies_ms
        lines.append(f"update latency over {len(ms)} updates: median "
                     f"{statistics.median(ms):.1f} ms   p95 {result.p95_ms:.1f} ms   "
                     f"max {max(ms):.1f} ms")
    lines.append(f"updates that never arrived: {result.missing}; disconnects: "
                 f"{result.disconnects}")
    memory = result.memory_after_warmup()
    trend = result.memory_trend_mb_per_minute()
    if memory is not None and trend is not None:
        first, last = memory
        lines.append(f"server memory: {first:.1f} MB after the warm-up, {last:.1f} MB at the "
                     f"end ({last - first:+.1f} MB; trend {trend:+.2f} MB/min)")
    else:
        lines.append("server memory: not measured (needs /proc and a few seconds)")
    steady = memory is not None and memory[1] - memory[0] < STEADY_GROWTH_MB
    targets = [(f"p95 < {TARGET_P95_MS:.0f} ms", result.p95_ms < TARGET_P95_MS),
               ("no disconnects", not result.disconnects),
               ("every update arrived", not result.missing),
               (f"memory steady (< {STEADY_GROWTH_MB:.0f} MB growth)", steady)]
    lines.append("targets: " + "; ".join(f"{name} {'met' if ok else 'NOT met'}"
                                         for name, ok in targets))
    return lines


def run(args: argparse.Namespace) -> int:
    require_extra("test", "bench load")
    if not 1 <= args.tablets <= 200:
        raise InputError(f"--tablets must be 1 to 200, got {args.tablets}")
    if not 0.5 <= args.rate <= 200:
        raise InputError(f"--rate must be 0.5 to 200 changes per second, got {args.rate:g}")
    if not 1 <= args.seconds <= 3600:
        raise InputError(f"--seconds must be 1 to 3600, got {args.seconds:g}")
    print(f"dicecam bench load: {args.tablets} tablets, {args.rate:g} changes/s, "
          f"{args.seconds:g} s against dicecam serve on 127.0.0.1", flush=True)
    for line in report(measure_load(args.tablets, args.rate, args.seconds)):
        print(line)
    return 0
