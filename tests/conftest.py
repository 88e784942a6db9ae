"""Shared fixtures: every test runs with a private data folder; one headless chromium per
browser test module."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browsers import headless_chromium

# One BLAS thread a process (set before numpy loads OpenBLAS; children inherit it): the
# workers of a parallel run already share the cores, and OpenBLAS threads that wait for a
# busy core made the table-learning tests four times slower (69 s against 17 s on 2 cores)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# The tables' learners at normal priority: at the lowest (the product's), a learner beside a
# training run or the other workers gets about 1% of a core, and its test waits for minutes
os.environ.setdefault("DICECAM_LEARNER_NICE", "0")


# optional: without pytest-xdist installed (a plain `pytest`), the hook has no spec to meet
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The workers of ``-n auto`` (./test.sh): two a core, at most eight. Much of the suite
    waits (on child servers, browsers, a paced evening), and a second worker's tests use the
    core meanwhile."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return min(2 * (cores or os.cpu_count() or 1), 8)


@pytest.fixture(scope="session", autouse=True)
def worker_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``DICECAM_HOME`` for what starts before a test's own (a module's servers): private to
    this run and, in a parallel run, to this worker."""
    patch = pytest.MonkeyPatch()
    home = tmp_path_factory.mktemp("home")
    patch.setenv("DICECAM_HOME", str(home))
    yield home
    patch.undo()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``DICECAM_HOME`` in the test's temp folder: saved profiles, zone maps and the games
    database never touch the user's own, and start empty."""
    monkeypatch.setenv("DICECAM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless chromium at tablet size that prefers British English, for one module
    (the modules that use it carry ``BROWSER_MARKS``, which skip without chromium)."""
    yield from headless_chromium(accept_languages="en-GB,en")
