"""Learning beside the live view: one child process at a time, at the lowest priority.

The live view must never wait for the learning (at most one core, frame time no more than
10% above normal), and a learner that crashes or is killed must cost nothing but its own
run. So the learning runs in a child process (``python -m dicecam.teach.worker TABLE``)
with ``nice`` 19 (``DICECAM_LEARNER_NICE`` sets another) and one BLAS thread, and talks to
the live view only through the table's folder: it reads the taught dice, writes a new
version whole and, where it is better, the choice of version. ``BackgroundLearner`` starts
a run when enough new dice were taught since the last one, watches it from a thread, and
tells ``on_learnt`` what it made of the table (or that it failed); the live view then reads
with whatever version is in use.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

from dicecam.teach.learner import MIN_DICE
from dicecam.teach.store import TableStore

log = logging.getLogger(__name__)

#: new confirmed dice that start another learning run
LEARN_EVERY = 20

#: the learner's priority: the lowest, so that it never takes a core the live view wants
LEARNER_NICE = 19


def learner_nice() -> int:
    """``DICECAM_LEARNER_NICE`` or the lowest priority. The test suite runs its learners at
    0: beside a training run a learner at 19 gets about 1% of a core and its tests wait for
    minutes."""
    value = os.environ.get("DICECAM_LEARNER_NICE", "")
    try:
        return int(value) if value.strip() else LEARNER_NICE
    except ValueError:
        log.warning("DICECAM_LEARNER_NICE=%r is not a whole number; the learner runs at %d",
                    value, LEARNER_NICE)
        return LEARNER_NICE


class BackgroundLearner:
    """Starts and watches one table's learning runs."""

    def __init__(self, table: str, on_learnt: Callable[[dict[str, Any]], None], *,
                 every: int = LEARN_EVERY, steps: int | None = None) -> None:
        self.store = TableStore(table)
        self.on_learnt = on_learnt
        self.every = every
        self.steps = steps
        self._lock = threading.Lock()
        self._child: subprocess.Popen | None = None
        self._learnt_from: int | None = None  # dice at the last run's start
        self.last: dict[str, Any] | None = None  # the last run's outcome
        self._closed = False

    @property
    def learning(self) -> bool:
        with self._lock:
            return self._child is not None

    def taught(self) -> bool:
        """Dice were taught: start a run when enough are new (True when one started)."""
        dice = self.store.counts()["dice"]
        with self._lock:
            if self._closed or self._child is not None or dice < MIN_DICE:
                return False
            if self._learnt_from is not None and dice - self._learnt_from < self.every:
                return False
            if self._learnt_from is None and self.store.reader_versions():
                # a table taught on another evening: learn again once this one adds dice
                self._learnt_from = dice
                return False
            if self._learnt_from is None and dice < 2 * self.every:
                return False  # the first run once its held-back rolls can judge it
            self._learnt_from = dice
            command = [sys.executable, "-m", "dicecam.teach.worker", self.store.name,
                       "--nice", str(learner_nice())]
            if self.steps is not None:
                command += ["--steps", str(self.steps)]
            # The child lowers its own priority: a preexec_fn can deadlock the fork of a
            # process with threads (the live view's), and Popen then never returns
            self._child = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
            child = self._child
        threading.Thread(target=self._watch, args=(child,), name="table-learner",
                         daemon=True).start()
        return True

    def _watch(self, child: subprocess.Popen) -> None:
        out, err = child.communicate()
        outcome: dict[str, Any]
        if child.returncode == 0:
            try:
                outcome = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                outcome = {"failed": "the learner said nothing"}
        else:
            reason = (err.strip().splitlines() or [f"exit status {child.returncode}"])[-1]
            outcome = {"failed": reason}
            log.warning("learning table %s failed (%s); it reads with its last good "
                        "models", self.store.name, reason)
        with self._lock:
            self._child = None
            self.last = outcome
            closed = self._closed
        if not closed:
            self.on_learnt(outcome)

    def pause(self) -> bool:
        """Stop the running run where it is until ``resume`` (SIGSTOP): ``bench teach
        --live-cost`` times the live view in turns with the run going and held, so that the
        machine's drift falls on both alike. False when no run is going (or the system has
        no such signal)."""
        with self._lock:
            child = self._child
        if child is None or child.poll() is not None or not hasattr(signal, "SIGSTOP"):
            return False
        try:
            child.send_signal(signal.SIGSTOP)
        except ProcessLookupError:
            return False
        return True

    def resume(self) -> None:
        """Let a run held by ``pause`` go on."""
        with self._lock:
            child = self._child
        if child is not None and hasattr(signal, "SIGCONT"):
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signal.SIGCONT)

    def close(self) -> None:
        """Stop a run (its half-made version is never used) and start no other."""
        with self._lock:
            self._closed = True
            child = self._child
        if child is not None and child.poll() is None:
            child.kill()
