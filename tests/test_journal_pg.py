"""A table's journal in PostgreSQL (``dicecam serve --db postgresql://...``): the same
store contract as SQLite's, checked on both, and the table server running on it. Skipped,
with the reason, where Debian's postgresql is not installed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from tablets import paired_client

from dicecam.errors import InputError
from dicecam.tools import services as private
from dicecam.webapp import events
from dicecam.webapp.app import create_app, services
from dicecam.webapp.journal import open_journal, open_outbox
from dicecam.webapp.outbox import OutboxState
from dicecam.webapp.store import EntryKind, NewEntry, Source

NO_POSTGRES = private.postgres_bin() is None


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    if NO_POSTGRES:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    with private.postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def spec(request: Any, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    url = request.getfixturevalue("pg_url")
    # each test starts from empty tables
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS log, games, settings, hub_outbox, "
                     "journal_migrations")
    return url


def test_both_journals_keep_games_logs_undos_and_settings(spec: str) -> None:
    store = open_journal(spec)
    try:
        game_id = store.create_game("v6", {"players": ["Ann", "Bea"]}, remember_as="active")
        assert store.get_setting("active") == str(game_id)
        store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"type": "stop"})])
        store.append(game_id, [NewEntry(EntryKind.UNDO, Source.TAP),
                               NewEntry(EntryKind.ACTION, Source.CORRECTION, {"type": "a"},
                                        [{"value": 3, "colour": None, "zone": None}])])
        log = store.log(game_id)
        assert [(e.seq, e.kind) for e in log] == [(1, EntryKind.ACTION), (2, EntryKind.UNDO),
                                                  (3, EntryKind.ACTION)]
        assert [e.action for e in store.effective_actions(game_id)] == [{"type": "a"}]
        assert log[2].dice == [{"value": 3, "colour": None, "zone": None}]
        assert store.get_game(game_id).config == {"players": ["Ann", "Bea"]}
        assert [g.id for g in store.list_games()] == [game_id]
        with pytest.raises(InputError, match="there is no game 999"):
            store.get_game(999)
        store.set_setting("active", "7")
        assert store.get_setting("active") == "7" and store.quick_check() == "ok"
    finally:
        store.close()


def test_both_outboxes_queue_once_and_keep_the_order(spec: str) -> None:
    outbox = open_outbox(spec)
    try:
        assert outbox.add("a", "prelim/pass1", {"n": 1}) and outbox.add("b", "prelim/pass2",
                                                                         {"n": 2})
        assert not outbox.add("a", "prelim/pass1", {"n": 1})
        first = outbox.next_waiting()
        assert first is not None and first.report == {"n": 1}
        outbox.mark(first.id, OutboxState.REFUSED, "wrong group")
        second = outbox.next_waiting()
        assert second is not None and second.action_id == "b"
        outbox.mark(second.id, OutboxState.DELIVERED)
        assert outbox.next_waiting() is None
        assert outbox.counts() == {"waiting": 0, "delivered": 1, "refused": 1}
        assert outbox.refusals() == ["prelim/pass1: wrong group"]
    finally:
        outbox.close()


def test_the_table_server_runs_on_a_postgresql_journal_and_resumes(pg_url: str) -> None:
    app = create_app({"DB_PATH": pg_url, "TESTING": True})
    try:
        client = paired_client(app)
        ack = client.emit(events.NEW_GAME, {"game": "v6", "config": {
            "players": ["Ann", "Bea"], "groups": [["Ann", "Bea"]]}}, callback=True)
        assert ack["ok"], ack
        ack = client.emit(events.ACTION, {"type": "jokers", "jokers": ["fumo"]}, callback=True)
        assert ack["ok"], ack
    finally:
        services(app).close()
    again = create_app({"DB_PATH": pg_url, "TESTING": True})
    try:
        state = services(again).session.view()
        assert state["game"] == "v6" and state["actions"] == 1
    finally:
        services(again).close()


def test_an_unreachable_postgresql_journal_is_a_clear_error() -> None:
    port = private.free_port()
    with pytest.raises(InputError, match="cannot open the game journal in PostgreSQL"):
        open_journal(f"postgresql://nobody@127.0.0.1:{port}/none")


def test_a_postgresql_journal_connects_again_after_the_database_restarted() -> None:
    if NO_POSTGRES:
        pytest.skip("needs PostgreSQL (apt-get install postgresql)")
    with private.postgres_cluster() as cluster:
        store = open_journal(cluster.url)
        try:
            game_id = store.create_game("v6", {"players": ["Ann", "Bea"]})
            cluster.kill()  # while the table is idle
            cluster.start()
            with pytest.raises(InputError, match="did not answer"):
                store.get_game(game_id)  # the call on the connection the crash broke
            store.get_game(game_id)  # the next one connects again
            cluster.kill()  # and while the database is away
            for expected in ("did not answer", "cannot open the game journal"):
                with pytest.raises(InputError, match=expected):
                    store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP,
                                                    {"type": "a"})])
            cluster.start()
            store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"type": "b"})])
            assert [e.action for e in store.log(game_id)] == [{"type": "b"}]
        finally:
            store.close()
