"""The live view's learner: a child process per run, started by newly taught dice; a
crashed or killed run changes nothing the table reads with."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest

from dicecam.teach.background import LEARNER_NICE, BackgroundLearner, learner_nice
from dicecam.teach.store import TableStore
from tests.support.drawn_dice import drawn_examples
from tests.support.waiting import wait_until


def _teach(store: TableStore, count: int, seed: int) -> None:
    for example in drawn_examples(count, seed=seed):
        store.add(example.crop, (50, 50, 30, 30), (100, 100), example.value, "confirmed",
                  reader_value=example.value, reader_confidence=0.5)


def test_enough_new_dice_start_one_run_and_its_outcome_is_told() -> None:
    outcomes: queue.Queue = queue.Queue()
    learner = BackgroundLearner("kitchen", outcomes.put, every=10, steps=4)
    store = TableStore("kitchen")
    _teach(store, 6, seed=1)
    assert not learner.taught()  # too few dice yet
    _teach(store, 20, seed=2)
    assert learner.taught()
    assert not learner.taught()  # one run at a time
    outcome = outcomes.get(timeout=120)
    assert outcome["version"] == "reader-v1" and outcome["dice"] == 26
    assert store.reader_versions() == ["reader-v1"]
    assert not learner.learning
    assert not learner.taught()  # nothing new since that run
    status = store.status()
    assert status["taught"] == 26 and status["asked_shipped"] == 1.0
    learner.close()


def test_a_killed_run_leaves_the_last_good_reader_in_use() -> None:
    outcomes: queue.Queue = queue.Queue()
    store = TableStore("kitchen")
    store.save_reader(b"not read by this test", {}, use=False)
    _teach(store, 24, seed=3)
    learner = BackgroundLearner("kitchen", outcomes.put, every=1, steps=100000)
    learner._learnt_from = 0  # noqa: SLF001 - as if this evening had taught them all
    assert learner.taught()
    wait_until(lambda: learner.learning, message="the learner never started")
    learner._child.kill()  # noqa: SLF001 - what an out-of-memory kill does
    outcome = outcomes.get(timeout=60)
    assert "failed" in outcome
    assert store.reader_in_use() is None and store.reader_versions() == ["reader-v1"]
    assert len(store.dice()) == 24


def test_closing_stops_a_run_and_starts_no_other() -> None:
    outcomes: queue.Queue = queue.Queue()
    store = TableStore("kitchen")
    _teach(store, 24, seed=4)
    learner = BackgroundLearner("kitchen", outcomes.put, every=1, steps=100000)
    assert learner.taught()
    learner.close()
    wait_until(lambda: not learner.learning, message="the run did not stop")
    assert outcomes.empty()  # a closed view is told nothing
    assert not learner.taught()
    assert store.reader_versions() == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_run_held_stands_still_until_resumed_and_then_finishes() -> None:
    outcomes: queue.Queue = queue.Queue()
    store = TableStore("kitchen")
    _teach(store, 24, seed=5)
    learner = BackgroundLearner("kitchen", outcomes.put, every=1, steps=40)
    assert not learner.pause()  # no run going
    learner._learnt_from = 0  # noqa: SLF001 - as if this evening had taught them all
    assert learner.taught()
    pid = learner._child.pid  # noqa: SLF001 - its state is the kernel's to tell

    def state() -> str:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat[stat.rindex(")") + 2]

    try:
        assert learner.pause()
        wait_until(lambda: state() == "T", message="the held run went on")
        cpu = Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[11:13]
        time.sleep(0.5)
        assert Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[11:13] == cpu
        assert outcomes.empty() and learner.learning
    finally:
        learner.resume()
    outcome = outcomes.get(timeout=120)
    assert outcome["version"] == "reader-v1"
    assert not learner.pause()  # the run is over
    learner.close()


def test_the_learner_runs_at_the_lowest_priority_unless_told_otherwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DICECAM_LEARNER_NICE", raising=False)
    assert learner_nice() == LEARNER_NICE == 19
    monkeypatch.setenv("DICECAM_LEARNER_NICE", "5")
    assert learner_nice() == 5
    monkeypatch.setenv("DICECAM_LEARNER_NICE", "low")
    assert learner_nice() == LEARNER_NICE
