"""Waiting on a condition, never on the clock: a test that sleeps a fixed time and then
asserts fails on a loaded machine. The limits are generous (a wait that succeeds returns
as soon as the condition holds, so only a failing test pays for them)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: seconds before a wait gives up: far beyond what a quiet machine needs, so that a test
#: on a machine busy with other work (or with the other workers of a parallel run) passes
WAIT_SECONDS = 60.0


def wait_until(predicate: Callable[[], T], timeout: float = WAIT_SECONDS,
               message: str | Callable[[], str] = "the condition never held",
               interval: float = 0.02) -> T:
    """Call ``predicate`` until it returns something true, and return that; an
    ``AssertionError`` with ``message`` (a string, or a function giving one, for the state
    at the time) once ``timeout`` seconds have passed without."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            text = message() if callable(message) else message
            raise AssertionError(f"{text} (waited {timeout:.0f} s)")
        time.sleep(interval)
