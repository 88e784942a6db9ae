"""The table's outbox to the hub, in the table's SQLite journal file.

A settled pass becomes an outbox row in the same file as the game's log; the hub link
sends the rows in order and marks each delivered once the hub has stored it (or refused
when the hub said it is wrong: it is kept, with the reason, for the croupier). A row is
keyed by its action id, so deriving the same result again (after a restart, on every
state the table publishes) adds nothing. The outbox has its own connection: SQLite's WAL
lets it write beside the game store's, and the game store stays as it is.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS hub_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    action_id TEXT NOT NULL UNIQUE,
    round_key TEXT NOT NULL,
    report TEXT NOT NULL,
    state TEXT NOT NULL,
    error TEXT,
    created REAL NOT NULL,
    sent REAL
);
"""


class OutboxState(StrEnum):
    WAITING = "waiting"
    DELIVERED = "delivered"
    REFUSED = "refused"  # the hub said the result is wrong: kept, with its reason


@dataclass(frozen=True)
class OutboxRow:
    id: int
    action_id: str
    round_key: str
    report: dict[str, Any]


class Outbox:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                   timeout=30)
        if self.path != ":memory:":
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def add(self, action_id: str, round_key: str, report: dict[str, Any]) -> bool:
        """Queue a result; False when it is queued (or delivered) already."""
        with self._lock:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO hub_outbox (action_id, round_key, report, state, "
                "created) VALUES (?, ?, ?, ?, ?)",
                (action_id, round_key, json.dumps(report), OutboxState.WAITING.value,
                 time.time()))
            return cursor.rowcount == 1

    def next_waiting(self) -> OutboxRow | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, action_id, round_key, report FROM hub_outbox WHERE state = ? "
                "ORDER BY id LIMIT 1", (OutboxState.WAITING.value,)).fetchone()
        if row is None:
            return None
        return OutboxRow(row[0], row[1], row[2], json.loads(row[3]))

    def mark(self, row_id: int, state: OutboxState, error: str | None = None) -> None:
        with self._lock:
            self._db.execute("UPDATE hub_outbox SET state = ?, error = ?, sent = ? "
                             "WHERE id = ?", (state.value, error, time.time(), row_id))

    def counts(self) -> dict[str, int]:
        with self._lock:
            rows = self._db.execute("SELECT state, count(*) FROM hub_outbox GROUP BY state")
            found = dict(rows.fetchall())
        return {s.value: int(found.get(s.value, 0)) for s in OutboxState}

    def refusals(self, limit: int = 3) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT round_key, error FROM hub_outbox WHERE state = ? "
                                    "ORDER BY id DESC LIMIT ?",
                                    (OutboxState.REFUSED.value, limit)).fetchall()
        return [f"{key}: {error}" for key, error in rows]
