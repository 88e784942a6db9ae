"""A table's journal in PostgreSQL (``dicecam serve --db postgresql://...``): the same
store contract as SQLite's, checked on both, and the table server running on it. Skipped,
with the reason, where Debian's postgresql is not installed."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from dicecam.errors import InputError
from dicecam.tools import services as private
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.journal.choose import JournalStore, open_journal, open_outbox
from dicecam.webapp.journal.outbox import OutboxState
from dicecam.webapp.journal.postgres import MIGRATIONS, PgGameStore
from dicecam.webapp.journal.sqlite import EntryKind, GameStore, NewEntry, Source
from tests.support.tablets import paired_client

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
    drop_the_journal(url)  # each test starts from empty tables
    return url


def drop_the_journal(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS log, games, settings, hub_outbox, "
                     "journal_migrations")


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


def test_both_journals_keep_the_games_list_scores_and_end_and_delete_games(spec: str) -> None:
    store = open_journal(spec)
    try:
        game_id = store.create_game("v6", {"players": ["Ann", "Bea"]}, remember_as="active")
        other = store.create_game("v6", {"players": ["Cem", "Dan"]})
        game = store.get_game(game_id)
        assert game.closed is None and game.standing is None
        # a standing alone is no change of the game: `updated` stays
        store.set_standing(game_id, {"scores": [{"player": "Ann", "score": 0}], "over": False})
        assert store.get_game(game_id).standing == {"scores": [{"player": "Ann", "score": 0}],
                                                    "over": False}
        assert store.get_game(game_id).updated == game.updated
        # an entry and the scores after it go together
        store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"type": "stop"})],
                     standing={"scores": [{"player": "Änn", "score": 5}], "over": False})
        assert store.get_game(game_id).standing["scores"] == [{"player": "Änn", "score": 5}]
        assert store.get_game(game_id).updated >= game.updated
        store.append(game_id, [NewEntry(EntryKind.UNDO, Source.TAP)])  # none: kept as it was
        assert store.get_game(game_id).standing["scores"][0]["score"] == 5
        # ... in one transaction: scores that cannot be stored take the entry back with them
        with pytest.raises(TypeError):
            store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"type": "b"})],
                         standing={"scores": {1, 2}})
        assert [e.seq for e in store.log(game_id)] == [1, 2]
        assert store.get_game(game_id).standing["scores"][0]["score"] == 5
        # ending another game leaves the active one the active one
        store.close_game(other, forget_setting="active")
        assert store.get_setting("active") == str(game_id)
        assert store.get_game(other).closed is not None
        store.close_game(game_id, forget_setting="active")
        closed = store.get_game(game_id)
        assert closed.closed is not None and store.get_setting("active") is None
        assert [e.seq for e in store.log(game_id)] == [1, 2]  # kept, with its log
        assert {g.id: g.closed is not None for g in store.list_games()} == {game_id: True,
                                                                          other: True}
        store.reopen_game(game_id)
        assert store.get_game(game_id).closed is None
        with pytest.raises(InputError, match="there is no game 999"):
            store.close_game(999, forget_setting="active")
        # deleting takes the game and its whole log, and the setting naming it
        store.set_setting("active", str(game_id))
        store.delete_game(game_id, forget_setting="active")
        assert store.get_setting("active") is None and store.log(game_id) == []
        assert [g.id for g in store.list_games()] == [other]
        with pytest.raises(InputError, match=f"there is no game {game_id}"):
            store.get_game(game_id)
        with pytest.raises(InputError, match=f"there is no game {game_id}"):
            store.delete_game(game_id)
        store.set_setting("active", str(other))
        store.delete_game(other)  # no setting named: it stays
        assert store.get_setting("active") == str(other) and store.list_games() == []
    finally:
        store.close()


def test_a_postgresql_journal_from_before_the_games_list_is_migrated_in_place(
        pg_url: str) -> None:
    drop_the_journal(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE journal_migrations (version INTEGER PRIMARY KEY)")
        conn.execute(dict(MIGRATIONS)[1])  # the schema as the first release made it
        conn.execute("INSERT INTO journal_migrations VALUES (1)")
        conn.execute("INSERT INTO games (game, config, created, updated) VALUES "
                     "('v6', '{\"players\": [\"A\", \"B\"]}', 1, 2)")
    store = open_journal(pg_url)
    try:
        (game,) = store.list_games()
        assert game.config == {"players": ["A", "B"]} and game.updated == 2
        assert game.closed is None and game.standing is None
        store.close_game(game.id)
        store.set_standing(game.id, {"over": True})
        again = store.get_game(game.id)
        assert again.closed is not None and again.standing == {"over": True}
    finally:
        store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM journal_migrations "
                                               "ORDER BY version")]
    assert versions == [version for version, _ in MIGRATIONS]
    open_journal(pg_url).close()  # a journal already migrated opens as it is


def test_both_journals_have_every_method_of_the_journal_interface() -> None:
    """Checked without a database: a method the session calls on one store and the other
    lacks (or takes other arguments) fails here, not at a table on tournament night."""
    members = [name for name in dir(JournalStore)
               if callable(getattr(JournalStore, name)) and not name.startswith("_")]
    assert "set_standing" in members and "delete_game" in members
    for store_class in (GameStore, PgGameStore):
        for name in members:
            method = getattr(store_class, name, None)
            assert method is not None, f"{store_class.__name__} has no {name}"
            wanted = inspect.signature(getattr(JournalStore, name))
            assert inspect.signature(method) == wanted, f"{store_class.__name__}.{name}"


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
    drop_the_journal(pg_url)
    app = create_app({"DB_PATH": pg_url, "TESTING": True})
    try:
        client = paired_client(app)
        ack = client.emit(events.NEW_GAME, {"game": "v6", "config": {
            "players": ["Ann", "Bea"], "groups": [["Ann", "Bea"]]}}, callback=True)
        assert ack["ok"], ack
        ack = client.emit(events.ACTION, {"type": "jokers", "jokers": ["fumo"]}, callback=True)
        assert ack["ok"], ack
        listed = client.emit(events.LIST_GAMES, {}, callback=True)
        (game,) = listed["games"]["stored"]  # the games list: its players and scores
        assert game["players"] == ["Ann", "Bea"] and game["closed"] is None
        assert game["standing"] is not None
    finally:
        services(app).close()
    again = create_app({"DB_PATH": pg_url, "TESTING": True})
    try:
        state = services(again).session.view()
        assert state["game"] == "v6" and state["actions"] == 1
        client = paired_client(again)
        ack = client.emit(events.CLOSE_GAME, {"game_id": game["id"]}, callback=True)
        assert ack["ok"], ack
    finally:
        services(again).close()
    third = create_app({"DB_PATH": pg_url, "TESTING": True})
    try:  # ended: kept, and not resumed as the active game
        assert services(third).session.game_name is None
        assert services(third).store.get_game(game["id"]).closed is not None
        client = paired_client(third)
        ack = client.emit(events.DELETE_GAME, {"game_id": game["id"]}, callback=True)
        assert ack["ok"], ack
        assert services(third).store.list_games() == []
        assert services(third).store.log(game["id"]) == []
    finally:
        services(third).close()


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
