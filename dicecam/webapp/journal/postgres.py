"""A table's journal in PostgreSQL (``dicecam serve --db postgresql://...``): the same games,
log and settings as the SQLite ``GameStore``, and the hub outbox beside them.

The rows mirror the SQLite store's (JSON kept as text, times as epoch seconds), so a game
reads the same from either; each write is one transaction, committed before the caller
acknowledges anything, and one lock keeps the log strictly ordered as in SQLite. The schema
is created by numbered migrations under an advisory lock.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg

from dicecam.errors import InputError
from dicecam.webapp.journal.outbox import OutboxRow, OutboxState
from dicecam.webapp.journal.sqlite import (
    EntryKind,
    GameRecord,
    LogEntry,
    NewEntry,
    Source,
    surviving_actions,
)

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, """
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL
);
CREATE TABLE log (
    game_id BIGINT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    action TEXT,
    source TEXT NOT NULL,
    dice TEXT,
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE hub_outbox (
    id BIGSERIAL PRIMARY KEY,
    action_id TEXT NOT NULL UNIQUE,
    round_key TEXT NOT NULL,
    report TEXT NOT NULL,
    state TEXT NOT NULL,
    error TEXT,
    created DOUBLE PRECISION NOT NULL,
    sent DOUBLE PRECISION
);
"""),
    # the games list (issue 16): when the players ended a game, its last known scores
    (2, """
ALTER TABLE games ADD COLUMN closed DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN standing TEXT;
"""),
)
MIGRATION_LOCK = 0x6A6F75726E616C  # any fixed number; "journal" in hex

_GAME_COLUMNS = "id, game, config, created, updated, closed, standing"


def is_postgres_url(spec: object) -> bool:
    return isinstance(spec, str) and spec.startswith(("postgresql://", "postgres://"))


def _connect(url: str) -> psycopg.Connection[Any]:
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        first = (str(exc).strip().splitlines() or ["no answer"])[0]
        raise InputError(f"cannot open the game journal in PostgreSQL ({first}); check the "
                         "--db URL and that the postgresql service runs") from None
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS journal_migrations (version INTEGER "
                     "PRIMARY KEY)")
        have = {r[0] for r in conn.execute("SELECT version FROM journal_migrations")}
        for version, sql in MIGRATIONS:
            if version not in have:
                conn.execute(sql)
                conn.execute("INSERT INTO journal_migrations VALUES (%s)", (version,))
    return conn


class _Connected:
    """One connection behind a lock, opened again after the database went away: the call
    that met the outage fails with a sentence (a write is never retried by itself, so it
    cannot be stored twice), the next one connects again."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._db = _connect(url)
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _using(self, transaction: bool = False) -> Iterator[psycopg.Connection[Any]]:
        with self._lock:
            if self._db.broken or self._db.closed:
                self._db = _connect(self._url)
            try:
                if transaction:
                    with self._db.transaction():
                        yield self._db
                else:
                    yield self._db
            except psycopg.OperationalError as exc:
                first = (str(exc).strip().splitlines() or ["no answer"])[0]
                raise InputError(f"the game journal's database did not answer ({first}); "
                                 "try again in a moment") from None


class PgGameStore(_Connected):
    """``GameStore``'s methods over one PostgreSQL connection."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.path = url.split("@")[-1] if "@" in url else url  # shown, without a password

    def quick_check(self) -> str:
        with self._using() as db:
            db.execute("SELECT count(*) FROM log")
        return "ok"

    def create_game(self, game: str, config: Mapping[str, Any], *,
                    remember_as: str | None = None) -> int:
        now = time.time()
        with self._using(transaction=True) as db:
            (game_id,) = db.execute(
                "INSERT INTO games (game, config, created, updated) VALUES (%s, %s, %s, %s) "
                "RETURNING id", (game, json.dumps(config, ensure_ascii=False), now, now)
            ).fetchone()
            if remember_as is not None:
                self._set(db, remember_as, str(game_id))
        return int(game_id)

    def get_game(self, game_id: int) -> GameRecord:
        with self._using() as db:
            row = db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = %s",
                             (game_id,)).fetchone()
        if row is None:
            raise _no_game(game_id)
        return _game_record(row)

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        with self._using() as db:
            rows = db.execute(f"SELECT {_GAME_COLUMNS} FROM games "
                              "ORDER BY updated DESC, id DESC LIMIT %s", (limit,)).fetchall()
        return [_game_record(row) for row in rows]

    def set_standing(self, game_id: int, standing: Mapping[str, Any]) -> None:
        """Keep a game's scores for the games list (not a change of the game: ``updated``
        stays)."""
        with self._using(transaction=True) as db:
            db.execute("UPDATE games SET standing = %s WHERE id = %s",
                       (json.dumps(standing, ensure_ascii=False), game_id))

    def close_game(self, game_id: int, *, forget_setting: str | None = None) -> None:
        """Mark a game as ended by the players (it stays, with its log); with
        ``forget_setting``, clear that setting too when it names this game. An unknown id
        is an ``InputError`` and changes nothing."""
        with self._using(transaction=True) as db:
            cursor = db.execute("UPDATE games SET closed = %s WHERE id = %s",
                                (time.time(), game_id))
            if cursor.rowcount == 0:
                raise _no_game(game_id)  # leaving the transaction on it rolls back
            if forget_setting is not None:
                self._forget(db, forget_setting, game_id)

    def reopen_game(self, game_id: int) -> None:
        with self._using(transaction=True) as db:
            db.execute("UPDATE games SET closed = NULL WHERE id = %s", (game_id,))

    def delete_game(self, game_id: int, *, forget_setting: str | None = None) -> None:
        """Remove a game and its whole log, in one transaction."""
        with self._using(transaction=True) as db:
            db.execute("DELETE FROM log WHERE game_id = %s", (game_id,))
            if db.execute("DELETE FROM games WHERE id = %s", (game_id,)).rowcount == 0:
                raise _no_game(game_id)
            if forget_setting is not None:
                self._forget(db, forget_setting, game_id)

    def _forget(self, db: psycopg.Connection[Any], key: str, game_id: int) -> None:
        db.execute("DELETE FROM settings WHERE key = %s AND value = %s", (key, str(game_id)))

    def append(self, game_id: int, entries: Sequence[NewEntry], *,
               standing: Mapping[str, Any] | None = None) -> None:
        """Append entries to a game's log in one transaction (all or nothing), with the
        game's scores after them (``standing``) for the games list."""
        now = time.time()
        with self._using(transaction=True) as db:
            (last,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM log WHERE "
                                       "game_id = %s", (game_id,)).fetchone()
            for offset, entry in enumerate(entries, start=1):
                db.execute(
                    "INSERT INTO log (game_id, seq, kind, action, source, dice, created) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                    (game_id, last + offset, entry.kind.value,
                     None if entry.action is None else json.dumps(entry.action),
                     entry.source.value,
                     None if entry.dice is None else json.dumps(list(entry.dice)), now))
            db.execute("UPDATE games SET updated = %s WHERE id = %s", (now, game_id))
            if standing is not None:
                db.execute("UPDATE games SET standing = %s WHERE id = %s",
                           (json.dumps(standing, ensure_ascii=False), game_id))

    def log(self, game_id: int) -> list[LogEntry]:
        with self._using() as db:
            rows = db.execute("SELECT seq, kind, action, source, dice, created FROM log "
                                    "WHERE game_id = %s ORDER BY seq", (game_id,)).fetchall()
        return [LogEntry(seq=seq, kind=EntryKind(kind),
                         action=None if action is None else json.loads(action),
                         source=Source(source), dice=None if dice is None else json.loads(dice),
                         created=created)
                for seq, kind, action, source, dice, created in rows]

    def effective_actions(self, game_id: int) -> list[LogEntry]:
        return surviving_actions(self.log(game_id))

    def get_setting(self, key: str) -> str | None:
        with self._using() as db:
            row = db.execute("SELECT value FROM settings WHERE key = %s",
                                   (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._using(transaction=True) as db:
            self._set(db, key, value)

    def _set(self, db: psycopg.Connection[Any], key: str, value: str) -> None:
        db.execute("INSERT INTO settings (key, value) VALUES (%s, %s) ON CONFLICT (key) "
                         "DO UPDATE SET value = excluded.value", (key, value))


class PgOutbox(_Connected):
    """``Outbox``'s methods in the PostgreSQL journal (its own connection)."""

    def add(self, action_id: str, round_key: str, report: dict[str, Any]) -> bool:
        with self._using() as db:
            cursor = db.execute(
                "INSERT INTO hub_outbox (action_id, round_key, report, state, created) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (action_id) DO NOTHING",
                (action_id, round_key, json.dumps(report), OutboxState.WAITING.value,
                 time.time()))
            return cursor.rowcount == 1

    def next_waiting(self) -> OutboxRow | None:
        with self._using() as db:
            row = db.execute("SELECT id, action_id, round_key, report FROM hub_outbox "
                                   "WHERE state = %s ORDER BY id LIMIT 1",
                                   (OutboxState.WAITING.value,)).fetchone()
        return None if row is None else OutboxRow(row[0], row[1], row[2], json.loads(row[3]))

    def mark(self, row_id: int, state: OutboxState, error: str | None = None) -> None:
        with self._using() as db:
            db.execute("UPDATE hub_outbox SET state = %s, error = %s, sent = %s "
                             "WHERE id = %s", (state.value, error, time.time(), row_id))

    def counts(self) -> dict[str, int]:
        with self._using() as db:
            found = dict(db.execute("SELECT state, count(*) FROM hub_outbox "
                                          "GROUP BY state").fetchall())
        return {s.value: int(found.get(s.value, 0)) for s in OutboxState}

    def refusals(self, limit: int = 3) -> list[str]:
        with self._using() as db:
            rows = db.execute("SELECT round_key, error FROM hub_outbox WHERE state = %s "
                                    "ORDER BY id DESC LIMIT %s",
                                    (OutboxState.REFUSED.value, limit)).fetchall()
        return [f"{key}: {error}" for key, error in rows]


def _no_game(game_id: int) -> InputError:
    return InputError(f"there is no game {game_id}; pick one from the list of games")


def _game_record(row: tuple[Any, ...]) -> GameRecord:
    game_id, game, config, created, updated, closed, standing = row
    return GameRecord(int(game_id), str(game), json.loads(config), created, updated, closed,
                      None if standing is None else json.loads(standing))
