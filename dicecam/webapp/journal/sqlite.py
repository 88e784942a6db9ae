"""The SQLite store: every game is its config plus an append-only log of entries.

A log entry is either a confirmed game action (with where it came from: a tap, the camera,
a correction) or an undo, which cancels the latest action not yet cancelled. The game's
state is what the rules make of the surviving actions (``effective_actions``), so a restart
resumes every game exactly, and the full log stays for settling a disputed score.

Each write is one transaction, committed before the caller acknowledges anything to a
tablet. One connection is shared by the server's threads behind a lock: SQLite is fast
enough for a game table, and a single writer keeps the log strictly ordered.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from dicecam.errors import InputError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    config TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    closed REAL,
    standing TEXT
);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    action TEXT,
    source TEXT NOT NULL,
    dice TEXT,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

#: columns added after the first release: a database made before them gets them on open
ADDED_COLUMNS = (("games", "closed", "REAL"), ("games", "standing", "TEXT"))

_GAME_COLUMNS = ("id", "game", "config", "created", "updated", "closed", "standing")


class EntryKind(StrEnum):
    ACTION = "action"
    UNDO = "undo"


class Source(StrEnum):
    """Who made an action: it is shown in the log and decides nothing."""

    TAP = "tap"
    CAMERA = "camera"
    CORRECTION = "correction"
    #: played out by the demo table (its Dice Party game started at full parties)
    DEMO = "demo"


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    config: dict[str, Any]
    created: float
    updated: float
    #: when the players ended the game (None: still open)
    closed: float | None = None
    #: the last known scores and winners (``Standing.to_json``), None before any
    standing: dict[str, Any] | None = None


@dataclass(frozen=True)
class LogEntry:
    seq: int
    kind: EntryKind
    action: dict[str, Any] | None
    source: Source
    dice: list[dict[str, Any]] | None
    created: float


@dataclass(frozen=True)
class NewEntry:
    """One entry to append; a correction appends an undo and an action in one go."""

    kind: EntryKind
    source: Source
    action: Mapping[str, Any] | None = None
    dice: Sequence[Mapping[str, Any]] | None = None


def surviving_actions(log: list[LogEntry]) -> list[LogEntry]:
    """The action entries of a game's log that still count: each undo cancels the latest
    survivor (the same for every journal, SQLite or PostgreSQL)."""
    survivors: list[LogEntry] = []
    for entry in log:
        if entry.kind is EntryKind.UNDO:
            if survivors:
                survivors.pop()
        else:
            survivors.append(entry)
    return survivors


class GameStore:
    """Games and their logs in one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        """Open (or create) the store; ``read_only`` opens an existing file without writing
        anything to it (``dicecam doctor``), even while a server is using it."""
        self.path = str(path)
        if read_only:
            try:
                self._db = sqlite3.connect(f"file:{Path(self.path).resolve()}?mode=ro",
                                           uri=True, check_same_thread=False)
            except sqlite3.Error as exc:
                raise InputError(f"cannot open the game database {self.path} ({exc})") from None
            self._lock = threading.Lock()
            self._select = self._game_select()
            return
        if self.path != ":memory:":
            parent = Path(self.path).expanduser().resolve().parent
            if not parent.is_dir():
                raise InputError(
                    f"the database folder {parent} does not exist; create it or pass "
                    "another --db path"
                )
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
            self._add_missing_columns()
            self._select = self._game_select()
        except sqlite3.DatabaseError as exc:
            raise InputError(
                f"cannot open the game database {self.path} ({exc}); move it away to start "
                "a fresh one"
            ) from None
        self._lock = threading.Lock()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def quick_check(self) -> str:
        """SQLite's own check of the file: "ok", or what is damaged."""
        with self._lock:
            return str(self._db.execute("PRAGMA quick_check").fetchone()[0])

    # -- games ---------------------------------------------------------------------------

    def create_game(self, game: str, config: Mapping[str, Any], *,
                    remember_as: str | None = None) -> int:
        """Store a new game; with ``remember_as``, also set that setting to its id, in the
        same transaction (a crash never leaves a new game that is not the active one)."""
        now = time.time()
        with self._lock, self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (game, config, created, updated) VALUES (?, ?, ?, ?)",
                (game, json.dumps(config, ensure_ascii=False), now, now),
            )
            game_id = int(cursor.lastrowid)
            if remember_as is not None:
                self._set(remember_as, str(game_id))
            return game_id

    def get_game(self, game_id: int) -> GameRecord:
        with self._lock:
            row = self._db.execute(
                f"SELECT {self._select} FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            raise InputError(f"there is no game {game_id}; pick one from the list of games")
        return _game_record(row)

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {self._select} FROM games "
                "ORDER BY updated DESC, id DESC LIMIT ?", (limit,)
            ).fetchall()
        return [_game_record(row) for row in rows]

    def set_standing(self, game_id: int, standing: Mapping[str, Any]) -> None:
        """Keep a game's scores for the games list (not a change of the game: ``updated``
        stays)."""
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET standing = ? WHERE id = ?",
                             (json.dumps(standing, ensure_ascii=False), game_id))

    def close_game(self, game_id: int, *, forget_setting: str | None = None) -> None:
        """Mark a game as ended by the players (it stays, with its log, to look at); with
        ``forget_setting``, clear that setting too when it names this game."""
        self.get_game(game_id)  # InputError for an unknown id
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET closed = ? WHERE id = ?", (time.time(), game_id))
            if forget_setting is not None:
                self._forget(forget_setting, game_id)

    def reopen_game(self, game_id: int) -> None:
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET closed = NULL WHERE id = ?", (game_id,))

    def delete_game(self, game_id: int, *, forget_setting: str | None = None) -> None:
        """Remove a game and its whole log, in one transaction."""
        self.get_game(game_id)
        with self._lock, self._transaction():
            self._db.execute("DELETE FROM log WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            if forget_setting is not None:
                self._forget(forget_setting, game_id)

    def _forget(self, key: str, game_id: int) -> None:
        self._db.execute("DELETE FROM settings WHERE key = ? AND value = ?", (key, str(game_id)))

    # -- the log -------------------------------------------------------------------------

    def append(self, game_id: int, entries: Sequence[NewEntry], *,
               standing: Mapping[str, Any] | None = None) -> None:
        """Append entries to a game's log in one transaction (all or nothing), with the
        game's scores after them (``standing``) for the games list."""
        now = time.time()
        with self._lock, self._transaction():
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM log WHERE game_id = ?", (game_id,)
            ).fetchone()
            for offset, entry in enumerate(entries, start=1):
                self._db.execute(
                    "INSERT INTO log (game_id, seq, kind, action, source, dice, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        last + offset,
                        entry.kind.value,
                        None if entry.action is None else json.dumps(entry.action),
                        entry.source.value,
                        None if entry.dice is None else json.dumps(list(entry.dice)),
                        now,
                    ),
                )
            self._db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
            if standing is not None:
                self._db.execute("UPDATE games SET standing = ? WHERE id = ?",
                                 (json.dumps(standing, ensure_ascii=False), game_id))

    def log(self, game_id: int) -> list[LogEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, action, source, dice, created FROM log "
                "WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [
            LogEntry(
                seq=seq,
                kind=EntryKind(kind),
                action=None if action is None else json.loads(action),
                source=Source(source),
                dice=None if dice is None else json.loads(dice),
                created=created,
            )
            for seq, kind, action, source, dice, created in rows
        ]

    def effective_actions(self, game_id: int) -> list[LogEntry]:
        """The action entries that still count: each undo cancels the latest survivor."""
        return surviving_actions(self.log(game_id))

    # -- settings (the active game, survives restarts) ------------------------------------

    def get_setting(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._lock, self._transaction():
            self._set(key, value)

    def _set(self, key: str, value: str) -> None:
        self._db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value)
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def _game_select(self) -> str:
        """The games columns to read; one a database opened read-only (``dicecam doctor``)
        does not have yet reads as NULL."""
        try:
            have = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        except sqlite3.DatabaseError:  # not a database: the first query says so
            have = set()
        if not have:
            return ", ".join(_GAME_COLUMNS)
        return ", ".join(c if c in have else f"NULL AS {c}" for c in _GAME_COLUMNS)

    def _add_missing_columns(self) -> None:
        for table, column, kind in ADDED_COLUMNS:
            have = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error (autocommit connection)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")


def _game_record(row: tuple[Any, ...]) -> GameRecord:
    game_id, game, config, created, updated, closed, standing = row
    return GameRecord(int(game_id), str(game), json.loads(config), created, updated, closed,
                      None if standing is None else json.loads(standing))
