"""Crash safety: the real ``dicecam serve`` is killed (SIGKILL) at random moments during a
scripted game, and restarted on the same database, again and again.

After each kill, before the restart, the database is checked directly: SQLite's integrity
check; every acknowledged change is in the log, in the order it was acknowledged (each state
a tablet was shown after an acknowledgement is the replay of a prefix of the log); at most
the one change in flight when the server died is there unacknowledged; and no correction is
half written (its undo without its action). After the restart the server resumes exactly
what is stored, and the game goes on with a new PIN.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from dicecam.scorer.registry import get_game
from dicecam.tools.child_server import ChildServer, start_child_server
from dicecam.tools.tablet_client import ConnectionLost, Tablet
from dicecam.webapp import events
from dicecam.webapp.journal.sqlite import EntryKind, GameStore, LogEntry, Source

pytestmark = pytest.mark.slow

SEED = 1729
KILLS = 4
CHARIDICE = {"game": "charidice", "config": {"players": ["Ann", "Bo"]}}
COLOURS = ["red", "blue", "green", "purple", "black", "grey"]
#: the most log entries one change writes (a correction: its undo and its action)
LARGEST_CHANGE = 2


def next_move(rng: random.Random, view: dict[str, Any]) -> tuple[str, Any]:
    """A move a player at the table might make now (some of them the rules refuse)."""
    state = view.get("state") or {}
    if view.get("game") != "charidice" or state.get("phase") == "over":
        return events.NEW_GAME, CHARIDICE
    legal = {item["type"] for item in state.get("legal", [])}
    moves: list[tuple[str, Any]] = []
    if "throw" in legal:
        colours = rng.sample(COLOURS, 6)
        moves += [(events.ENTER_ROLL, {"dice": [
            {"value": rng.randint(1, 6), "colour": c} for c in colours]})] * 3
    if "choose" in legal and state.get("options"):
        option = rng.choice(state["options"][:3])
        moves += [(events.ACTION, {"type": "choose", "kind": option["kind"],
                                   "scored": option["scored"]})] * 3
    if "keep" in legal:
        moves.append((events.ACTION, {"type": "keep",
                                      "kept": sorted(rng.sample(range(6), rng.randint(0, 3)))}))
    if view.get("can_undo"):
        moves.append((events.UNDO, {}))
    roll = view.get("roll")
    if roll and roll.get("status") == "applied" and roll.get("dice"):
        index = rng.randrange(len(roll["dice"]))
        moves.append((events.CORRECT_DIE, {"roll_id": roll["roll_id"], "index": index,
                                           "value": rng.randint(1, 6),
                                           "colour": roll["dice"][index]["colour"]}))
    return rng.choice(moves) if moves else (events.NEW_GAME, CHARIDICE)


def play_until_killed(server: ChildServer, rng: random.Random,
                      acked: list[tuple[int, dict[str, Any]]]) -> tuple[int, dict[str, Any]]:
    """Play as one paired tablet while a timer kills the server: the changes acknowledged,
    and the state the server showed when the tablet connected."""
    tablet = Tablet(server.url).connect()
    tablet.pair(server.pin)
    tablet.call(events.SYNC, {})
    resumed = tablet.state
    assert resumed is not None
    killer = threading.Timer(rng.uniform(0.2, 1.0), server.kill)
    killer.start()
    made = 0
    try:
        while True:
            event, payload = next_move(rng, tablet.state or {})
            try:
                ack = tablet.call(event, payload)
            except ConnectionLost:
                break
            if ack.get("ok") and tablet.state is not None:
                # the new state is sent before the acknowledgement, on the same connection
                acked.append((tablet.state["game_id"], tablet.state["state"]))
                made += 1
    finally:
        killer.join()
        tablet.close()  # after the kill: a live connection takes seconds to close
    return made, resumed


def prefix_states(game: str, config: dict[str, Any], log: list[LogEntry]) -> list[Any]:
    """The state after each prefix of a log (index k: the first k entries), undos folded."""
    codec = get_game(game).codec
    stack = [codec.new_game(config)]
    states = [codec.state_to_json(stack[0])]
    for entry in log:
        if entry.kind is EntryKind.UNDO:
            if len(stack) > 1:
                stack.pop()
        else:
            assert entry.action is not None
            stack.append(codec.apply(stack[-1], codec.action_from_json(entry.action)))
        states.append(codec.state_to_json(stack[-1]))
    return states


def check_after_kill(db: Path, acked: list[tuple[int, dict[str, Any]]]) -> None:
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    store = GameStore(db)
    try:
        by_game: dict[int, list[Any]] = defaultdict(list)
        for game_id, state in acked:
            by_game[game_id].append(state)
        for record in store.list_games(limit=10_000):
            log = store.log(record.id)
            # (a game killed right after it was made has no entries: nothing to pair)
            for entry, after in zip(log, [*log[1:], None] if log else [], strict=True):
                if entry.kind is EntryKind.UNDO and entry.source is Source.CORRECTION:
                    assert after is not None and after.kind is EntryKind.ACTION \
                        and after.source is Source.CORRECTION, \
                        f"game {record.id}: a correction's undo without its action"
            states = prefix_states(record.game, record.config, log)
            position = 0
            for n, state in enumerate(by_game.get(record.id, [])):
                found = [k for k in range(position, len(states)) if states[k] == state]
                assert found, (f"game {record.id}: acknowledged change {n} is not in the "
                               f"log:\n{json.dumps(state)[:300]}")
                last = n == len(by_game[record.id]) - 1
                position = found[-1] if last else found[0]
            if record.id in by_game:
                assert len(log) - position <= LARGEST_CHANGE, (
                    f"game {record.id}: {len(log) - position} entries after the last "
                    "acknowledged change; only the one in flight may be there")
    finally:
        store.close()


def test_killed_at_random_moments_nothing_acknowledged_is_lost(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db = tmp_path / "games.sqlite"
    acked: list[tuple[int, dict[str, Any]]] = []
    made: list[int] = []
    last_game = 0
    log_before_restart: dict[int, list[LogEntry]] = {}
    for _ in range(KILLS):
        server = start_child_server(db)
        try:
            done, resumed = play_until_killed(server, rng, acked)
        finally:
            server.kill()
        assert server.process.returncode == -9
        made.append(done)
        if len(made) > 1:  # the restarted server resumed exactly what was stored
            assert resumed["game_id"] >= last_game
            store = GameStore(db)
            try:
                game = store.get_game(resumed["game_id"])
                stored = prefix_states(game.game, game.config, log_before_restart[game.id])
            finally:
                store.close()
            assert resumed["state"] == stored[-1]
        check_after_kill(db, acked)
        last_game = acked[-1][0]
        log_before_restart = logs(db)
    assert all(n > 0 for n in made), f"every run should acknowledge changes: {made}"


def logs(db: Path) -> dict[int, list[LogEntry]]:
    store = GameStore(db)
    try:
        return {g.id: store.log(g.id) for g in store.list_games(limit=10_000)}
    finally:
        store.close()


def test_the_checks_catch_a_lost_change_and_a_half_written_correction(tmp_path: Path) -> None:
    """The crash test's own checks fail where they should (so its pass means something)."""
    from dicecam.webapp.journal.sqlite import NewEntry

    db = tmp_path / "games.sqlite"
    store = GameStore(db)
    game_id = store.create_game("charidice", CHARIDICE["config"])
    throw = {"type": "throw", "dice": [{"colour": c, "value": v}
                                       for c, v in zip(COLOURS, [1, 2, 3, 4, 5, 6], strict=True)]}
    store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, throw)])
    store.close()
    codec = get_game("charidice").codec
    after_throw = codec.state_to_json(codec.apply(codec.new_game(CHARIDICE["config"]),
                                                  codec.action_from_json(throw)))
    check_after_kill(db, [(game_id, after_throw)])
    start = codec.state_to_json(codec.new_game(CHARIDICE["config"]))
    with pytest.raises(AssertionError, match="is not in the log"):
        check_after_kill(db, [(game_id, after_throw), (game_id, {"never": "stored"})])
    with pytest.raises(AssertionError, match="only the one in flight"):
        store = GameStore(db)
        store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, throw)] * 2)
        store.close()
        check_after_kill(db, [(game_id, start)])
    store = GameStore(db)
    store.append(game_id, [NewEntry(EntryKind.UNDO, Source.CORRECTION)])
    store.close()
    with pytest.raises(AssertionError, match="undo without its action"):
        check_after_kill(db, [(game_id, after_throw)])
