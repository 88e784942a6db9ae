"""The hub's store: evenings, tables, groups and every result, in PostgreSQL (psycopg 3).

A result is stored under (evening, table, round, action id) with ``ON CONFLICT DO
NOTHING``: a table that sends a result again (it never heard the answer) changes nothing,
whichever hub process receives it. A result stored *held* (``results.held``, the reason:
a correction that arrived after the final was drawn, see ``dicecam.hub.app``) counts for
nothing until the organiser releases it; every result counts only when neither removed
nor held. The schema is a list of numbered migrations applied in
order under an advisory lock, so N hub processes starting at once migrate once.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import conninfo, sql
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from dicecam.errors import InputError
from dicecam.scorer.v6 import tables as v6_tables
from dicecam.webapp.hub_link.signing import TableKey, new_secret

#: how long the pool retries one lost connection before it gives up on that attempt; the
#: next request that waits starts a new one at once. psycopg_pool's retries back off from
#: 1 s, doubling, for up to 5 minutes: after the database was away 20 s the next attempt
#: came 8 s after it answered again, every request failing meanwhile
RECONNECT_SECONDS = 2.0

#: (version, what it does, SQL); append only: a migration once shipped never changes
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "evenings, tables, groups and results", """
CREATE TABLE evenings (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    seed TEXT NOT NULL,
    players JSONB NOT NULL,
    qualify INTEGER NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE tables (
    code TEXT PRIMARY KEY,
    evening_id BIGINT NOT NULL REFERENCES evenings(id),
    position INTEGER NOT NULL,
    joined TIMESTAMPTZ,
    UNIQUE (evening_id, position)
);
CREATE TABLE groups (
    evening_id BIGINT NOT NULL REFERENCES evenings(id),
    stage TEXT NOT NULL,
    group_no INTEGER NOT NULL,
    table_code TEXT NOT NULL REFERENCES tables(code),
    players JSONB NOT NULL,
    PRIMARY KEY (evening_id, stage, group_no)
);
CREATE TABLE results (
    id BIGSERIAL PRIMARY KEY,
    evening_id BIGINT NOT NULL REFERENCES evenings(id),
    table_code TEXT NOT NULL REFERENCES tables(code),
    round_key TEXT NOT NULL,
    action_id TEXT NOT NULL,
    report JSONB NOT NULL,
    received TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (evening_id, table_code, round_key, action_id)
);
"""),
    (2, "a table's public name per evening and its secret key; signatures seen", """
ALTER TABLE groups DROP CONSTRAINT groups_table_code_fkey;
ALTER TABLE results DROP CONSTRAINT results_table_code_fkey;
ALTER TABLE tables DROP CONSTRAINT tables_pkey;
ALTER TABLE tables ADD PRIMARY KEY (evening_id, code);
ALTER TABLE tables ADD COLUMN secret TEXT;
UPDATE tables SET secret = code;
ALTER TABLE tables ALTER COLUMN secret SET NOT NULL;
ALTER TABLE groups ADD FOREIGN KEY (evening_id, table_code)
    REFERENCES tables (evening_id, code);
ALTER TABLE results ADD FOREIGN KEY (evening_id, table_code)
    REFERENCES tables (evening_id, code);
CREATE TABLE signatures (
    signature TEXT PRIMARY KEY,
    seen TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX signatures_seen ON signatures (seen);
"""),
    (3, "the organiser's key; results removed and restored, with the reason", """
ALTER TABLE evenings ADD COLUMN organiser_secret TEXT;
ALTER TABLE results ADD COLUMN removed BOOLEAN NOT NULL DEFAULT false;
CREATE TABLE result_changes (
    -- the results' own sequence: a change is a newer board than every result before it
    id BIGINT PRIMARY KEY DEFAULT nextval('results_id_seq'),
    evening_id BIGINT NOT NULL REFERENCES evenings(id),
    result_id BIGINT NOT NULL REFERENCES results(id),
    action TEXT NOT NULL CHECK (action IN ('remove', 'restore')),
    reason TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
"""),
    (4, "the organiser overrides a result: a new result that names the one it corrects", """
ALTER TABLE results ADD COLUMN corrects BIGINT REFERENCES results(id);
ALTER TABLE result_changes DROP CONSTRAINT result_changes_action_check;
ALTER TABLE result_changes ADD CONSTRAINT result_changes_action_check
    CHECK (action IN ('remove', 'restore', 'override'));
ALTER TABLE result_changes ADD COLUMN replacement BIGINT REFERENCES results(id);
"""),
    (5, "a result held for the organiser (why) counts once released", """
ALTER TABLE results ADD COLUMN held TEXT;
ALTER TABLE result_changes DROP CONSTRAINT result_changes_action_check;
ALTER TABLE result_changes ADD CONSTRAINT result_changes_action_check
    CHECK (action IN ('remove', 'restore', 'override', 'release'));
"""),
    (6, "the organiser's page sessions, each ended by its logout", """
CREATE TABLE organiser_sessions (
    session TEXT PRIMARY KEY,
    evening_id INTEGER NOT NULL REFERENCES evenings(id),
    expires TIMESTAMPTZ NOT NULL
);
"""),
)
ORGANISER = "ORG"  # the organiser's key names this instead of a table: 7-ORG-SECRET
MIGRATION_LOCK = 0x6469636563616D  # any fixed number; "dicecam" in hex
REPORTS_KEPT = 20_000  # parsed reports a process keeps (an evening of 256 players: ~300)


@dataclass(frozen=True)
class Evening:
    id: int
    name: str
    plan: v6_tables.EveningPlan


@dataclass(frozen=True)
class TableSeat:
    table: str  # the table's public name in its evening, "T3"
    position: int  # 0-based: the plan's tables[position]
    evening: Evening
    joined_now: bool = False  # this call joined it (the first time)
    secret: str = field(default="", repr=False)  # its key's secret: verifies, never shown


def table_name(position: int) -> str:
    """The public name of the evening's table at ``position`` (0-based): T1, T2, ..."""
    return f"T{position + 1}"


def create_database(url: str) -> bool:
    """Create the database the URL names when it does not exist yet (through the server's
    ``postgres`` database); True when it was created."""
    try:
        psycopg.connect(url, connect_timeout=5).close()
        return False
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise InputError(f"cannot reach PostgreSQL at {_safe(url)} ({_first_line(exc)}); "
                             "is the postgresql service running?") from None
    name = conninfo.conninfo_to_dict(url).get("dbname")
    if not name:
        raise InputError(f"the database URL {_safe(url)} names no database")
    admin = conninfo.make_conninfo(url, dbname="postgres")
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return True


class HubStore:
    def __init__(self, url: str, *, max_connections: int = 8, wait: float = 10.0,
                 connect_now: bool = True) -> None:
        """``wait``: the seconds a caller waits for a working connection before
        psycopg_pool's PoolTimeout (the database away). ``connect_now``: fail at once (an
        InputError) when the database does not answer; without it (a hub worker started
        again while the database is away) the pool connects in the background and each
        request waits ``wait`` seconds for it, as when the database goes away later."""
        self.url = url
        self._reports: dict[int, v6_tables.Report] = {}  # result id -> its parsed report
        self._evenings: dict[int, Evening] = {}  # evening id -> the evening
        try:
            if connect_now:  # one direct connection first: a refused one fails at once
                psycopg.connect(url, connect_timeout=5).close()
            # check: a connection broken by a database restart is replaced when taken,
            # not discovered by the request that uses it
            self._pool = ConnectionPool(url, min_size=1, max_size=max_connections,
                                        kwargs={"connect_timeout": 5}, open=True, timeout=wait,
                                        check=ConnectionPool.check_connection,
                                        reconnect_timeout=RECONNECT_SECONDS)
            if connect_now:
                self._pool.wait(timeout=10)
        except Exception as exc:  # psycopg_pool raises its own PoolTimeout
            raise InputError(f"cannot reach the hub's database {_safe(url)} "
                             f"({_first_line(exc)}); run `dicecam hub init` first, and "
                             "check that the postgresql service runs") from None

    def close(self) -> None:
        self._pool.close()

    def migrate(self) -> list[int]:
        """Apply the migrations not applied yet; the versions applied now."""
        done = []
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER "
                         "PRIMARY KEY, name TEXT NOT NULL, applied TIMESTAMPTZ NOT NULL "
                         "DEFAULT now())")
            have = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
            for version, name, sql in MIGRATIONS:
                if version in have:
                    continue
                conn.execute(sql)
                conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                             (version, name))
                done.append(version)
        return done

    # -- evenings --------------------------------------------------------------------------

    def create_evening(self, name: str, players: Sequence[str], table_count: int,
                       seed: str, qualify: int = v6_tables.QUALIFY
                       ) -> tuple[Evening, list[TableKey]]:
        """A new evening (the current one from now on) and each table's key, to be given
        to that table once: the store keeps the secrets and never shows them."""
        names = [table_name(i) for i in range(table_count)]
        plan = v6_tables.plan_evening(players, names, seed, qualify)  # checks before storing
        hidden = [new_secret() for _ in names]
        organiser = new_secret()
        with self._pool.connection() as conn, conn.transaction():
            (evening_id,) = conn.execute(
                "INSERT INTO evenings (name, seed, players, qualify, organiser_secret) VALUES "
                "(%s, %s, %s, %s, %s) RETURNING id",
                (name, seed, Jsonb(list(players)), qualify, organiser)).fetchone()
            for position, (table, secret) in enumerate(zip(names, hidden, strict=True)):
                conn.execute("INSERT INTO tables (code, evening_id, position, secret) "
                             "VALUES (%s, %s, %s, %s)", (table, evening_id, position, secret))
            self._save_groups(conn, evening_id, v6_tables.PRELIM, plan.groups, names)
        keys = [TableKey(int(evening_id), table, secret)
                for table, secret in zip(names, hidden, strict=True)]
        keys.append(TableKey(int(evening_id), ORGANISER, organiser))
        return Evening(int(evening_id), name, plan), keys

    def organiser_secret(self, evening_id: int) -> str | None:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT organiser_secret FROM evenings WHERE id = %s",
                               (evening_id,)).fetchone()
        return None if row is None else row[0]

    def evening_count(self) -> tuple[Evening | None, int]:
        """(the current evening or None, how many results it has)."""
        try:
            evening = self.current_evening()
        except InputError:
            return None, 0
        return evening, self.result_count(evening.id)

    def current_evening(self) -> Evening:
        with self._pool.connection() as conn:
            row = conn.execute("SELECT max(id) FROM evenings").fetchone()
            if row[0] is None:
                raise InputError("the hub has no evening yet: run `dicecam hub init`")
            return self._evening(conn, int(row[0]))

    def _evening(self, conn: psycopg.Connection[Any], evening_id: int) -> Evening:
        """An evening: read once per process (its name, players, seed and tables never
        change once created), so a request costs no round trips for it."""
        found = self._evenings.get(evening_id)
        if found is None:
            row = conn.execute("SELECT id, name, seed, players, qualify FROM evenings "
                               "WHERE id = %s", (evening_id,)).fetchone()
            codes = [r[0] for r in conn.execute(
                "SELECT code FROM tables WHERE evening_id = %s ORDER BY position",
                (evening_id,))]
            found = self._evenings[evening_id] = _evening(row, codes)
        return found

    def seat(self, evening_id: int, table: str, *, join: bool = False) -> TableSeat:
        """Table ``table`` of that evening (with ``join``, it joins the evening now, once);
        InputError when the evening has no such table."""
        table = table.strip().upper()
        with self._pool.connection() as conn:
            if join:  # now() is the transaction's start: equal only when set right here
                found = conn.execute("UPDATE tables SET joined = COALESCE(joined, now()) "
                                     "WHERE evening_id = %s AND code = %s RETURNING "
                                     "position, joined = now(), secret",
                                     (evening_id, table)).fetchone()
            else:
                found = conn.execute("SELECT position, false, secret FROM tables "
                                     "WHERE evening_id = %s AND code = %s",
                                     (evening_id, table)).fetchone()
            if found is None:
                raise InputError(f"evening {evening_id} has no table {table}; `dicecam hub "
                                 "init` printed one command per table")
            evening = self._evening(conn, evening_id)
        return TableSeat(table, found[0], evening, bool(found[1]), found[2])

    def first_use(self, signature: str, keep_seconds: float) -> bool:
        """Note a request's signature; False when it was seen before (a replay). Those
        older than ``keep_seconds`` are forgotten (their time is out of the window)."""
        with self._pool.connection() as conn:
            if secrets.randbelow(50) == 0:  # now and then, not on every request
                conn.execute("DELETE FROM signatures WHERE seen < now() - %s * "
                             "interval '1 second'", (keep_seconds,))
            row = conn.execute("INSERT INTO signatures (signature) VALUES (%s) "
                               "ON CONFLICT DO NOTHING RETURNING 1", (signature,)).fetchone()
        return row is not None

    def open_session(self, evening_id: int, expires: float) -> str:
        """A new session of the organiser's page (its id, random), valid until ``expires``
        (epoch seconds) or its logout; sessions past their time are forgotten."""
        session = secrets.token_urlsafe(24)
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM organiser_sessions WHERE expires < now()")
            conn.execute("INSERT INTO organiser_sessions (session, evening_id, expires) VALUES "
                         "(%s, %s, to_timestamp(%s))", (session, evening_id, expires))
        return session

    def session_open(self, session: str, evening_id: int) -> bool:
        with self._pool.connection() as conn:
            return conn.execute("SELECT 1 FROM organiser_sessions WHERE session = %s AND "
                                "evening_id = %s AND expires > now()",
                                (session, evening_id)).fetchone() is not None

    def close_session(self, session: str) -> None:
        with self._pool.connection() as conn:
            conn.execute("DELETE FROM organiser_sessions WHERE session = %s", (session,))

    def joined(self, evening_id: int) -> dict[str, bool]:
        with self._pool.connection() as conn:
            return {table: joined is not None for table, joined in conn.execute(
                "SELECT code, joined FROM tables WHERE evening_id = %s ORDER BY position",
                (evening_id,))}

    def save_final_groups(self, evening: Evening, groups: Sequence[Sequence[str]],
                          codes: Sequence[str]) -> None:
        with self._pool.connection() as conn, conn.transaction():
            self._save_groups(conn, evening.id, v6_tables.FINAL, groups, codes)

    def _save_groups(self, conn: psycopg.Connection[Any], evening_id: int, stage: str,
                     groups: Sequence[Sequence[str]], codes: Sequence[str]) -> None:
        for number, (group, code) in enumerate(zip(groups, codes, strict=False)):
            conn.execute("INSERT INTO groups (evening_id, stage, group_no, table_code, "
                         "players) VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                         (evening_id, stage, number, code, Jsonb(list(group))))

    # -- results ---------------------------------------------------------------------------

    def add_result(self, evening_id: int, report: v6_tables.Report,
                   held: str | None = None) -> int | None:
        """Store a result (``held``: why it waits for the organiser, counting for nothing
        until released); its id, or None when this (table, round, action id) is stored
        already (the table sent it again)."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "INSERT INTO results (evening_id, table_code, round_key, action_id, report, "
                "held) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING id",
                (evening_id, report.table, report.round_key, report.action_id,
                 Jsonb(v6_tables.report_to_json(report)), held)).fetchone()
        return None if row is None else int(row[0])

    def override_of(self, evening_id: int, table: str, round_key: str) -> int | None:
        """The id of the organiser's override that counts for this table's round (neither
        removed nor held), or None: an override holds until the organiser lifts it."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT max(id) FROM results WHERE evening_id = %s AND table_code = %s AND "
                "round_key = %s AND corrects IS NOT NULL AND NOT removed AND held IS NULL",
                (evening_id, table, round_key)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def held(self, evening_id: int, table: str | None = None
             ) -> list[tuple[int, v6_tables.Report, str]]:
        """The results held for the organiser (not removed), oldest first, of one table or
        of all: (id, report, why held)."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT id, report, held FROM results WHERE evening_id = %s AND held IS NOT "
                "NULL AND NOT removed AND (%s::text IS NULL OR table_code = %s) ORDER BY id",
                (evening_id, table, table)).fetchall()
        return [(int(r[0]), v6_tables.report_from_json(r[1]), r[2]) for r in rows]

    def release_results(self, evening_id: int, result_ids: Sequence[int],
                        reason: str) -> int:
        """Count these held results from now on (the organiser, checked by the caller),
        with the reason recorded against each; the last change's id (the board's new
        version). InputError when one of them is no longer held (another worker released
        or removed it meanwhile)."""
        change_id = 0
        with self._pool.connection() as conn, conn.transaction():
            for result_id in result_ids:
                found = conn.execute("UPDATE results SET held = NULL WHERE id = %s AND "
                                     "evening_id = %s AND held IS NOT NULL AND NOT removed "
                                     "RETURNING id", (result_id, evening_id)).fetchone()
                if found is None:
                    raise InputError(f"result {result_id} is not held (any more)")
                (change_id,) = conn.execute(
                    "INSERT INTO result_changes (evening_id, result_id, action, reason) "
                    "VALUES (%s, %s, 'release', %s) RETURNING id",
                    (evening_id, result_id, reason)).fetchone()
        return int(change_id)

    def results(self, evening_id: int) -> tuple[int, list[v6_tables.Report]]:
        """(the board's version: the newest result's or change's id, every result that
        counts (not removed) in the order received)."""
        version, counted = self.counted(evening_id)
        return version, [report for _, report in counted]

    def counted(self, evening_id: int) -> tuple[int, list[tuple[int, v6_tables.Report]]]:
        """``results`` with each result's id (neither removed nor held). A stored report
        never changes, so each is read and parsed once per process: later calls read only
        the ids that count."""
        known = list(self._reports)
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT id, CASE WHEN id = ANY(%s) THEN NULL ELSE report END "
                                "FROM results WHERE evening_id = %s AND NOT removed "
                                "AND held IS NULL ORDER BY id", (known, evening_id)).fetchall()
            (version,) = conn.execute(
                "SELECT GREATEST((SELECT max(id) FROM results WHERE evening_id = %s), "
                "(SELECT max(id) FROM result_changes WHERE evening_id = %s))",
                (evening_id, evening_id)).fetchone()
        if len(self._reports) > REPORTS_KEPT:
            self._reports.clear()  # another evening's: read again when asked
        out = []
        for result_id, data in rows:
            report = self._reports.get(result_id) if data is None else None
            if report is None:
                if data is None:  # forgotten meanwhile: read it again
                    return self._counted_afresh(evening_id)
                report = self._reports[result_id] = v6_tables.report_from_json(data)
            out.append((int(result_id), report))
        return int(version or 0), out

    def board_stamp(self, evening_id: int) -> tuple[int, int]:
        """(the board's version, the tables joined): what a board shown depends on besides
        the results' content, read in one cheap query, so a board computed once serves
        every screen until one of them changes."""
        with self._pool.connection() as conn:
            version, joined = conn.execute(
                "SELECT GREATEST((SELECT max(id) FROM results WHERE evening_id = %s), "
                "(SELECT max(id) FROM result_changes WHERE evening_id = %s)), "
                "(SELECT count(*) FROM tables WHERE evening_id = %s AND joined IS NOT NULL)",
                (evening_id, evening_id, evening_id)).fetchone()
        return int(version or 0), int(joined)

    def _counted_afresh(self, evening_id: int) -> tuple[int, list[tuple[int, v6_tables.Report]]]:
        self._reports.clear()
        return self.counted(evening_id)

    def result_rows(self, evening_id: int) -> list[dict[str, Any]]:
        """Every result of the evening, removed ones too, with its report, for the
        organiser; ``corrects``: the result an organiser's override replaces; ``held``: why
        it waits for the organiser (None: it is not held)."""
        with self._pool.connection() as conn:
            rows = conn.execute("SELECT id, table_code, round_key, action_id, removed, "
                                "received, corrects, report, held FROM results WHERE "
                                "evening_id = %s "
                                "ORDER BY id", (evening_id,)).fetchall()
        return [{"id": int(r[0]), "table": r[1], "round": r[2], "action_id": r[3],
                 "removed": bool(r[4]), "received": r[5].isoformat(),
                 "corrects": None if r[6] is None else int(r[6]), "report": r[7],
                 "held": r[8]}
                for r in rows]

    def result(self, evening_id: int, result_id: int) -> tuple[v6_tables.Report, bool]:
        """One result of the evening: (its report, whether a newer result of its table and
        round replaced it); InputError when the evening has no such result."""
        with self._pool.connection() as conn:
            row = conn.execute("SELECT report, EXISTS (SELECT 1 FROM results n WHERE "
                               "n.evening_id = r.evening_id AND n.table_code = r.table_code "
                               "AND n.round_key = r.round_key AND n.id > r.id AND NOT "
                               "n.removed AND n.held IS NULL) FROM results r WHERE "
                               "r.id = %s AND r.evening_id = %s",
                               (result_id, evening_id)).fetchone()
        if row is None:
            raise InputError(f"the evening has no result {result_id}")
        return v6_tables.report_from_json(row[0]), bool(row[1])

    def change_result(self, evening_id: int, result_id: int, action: str,
                      reason: str) -> int:
        """Remove or restore a result (the organiser), with the reason; the change's id
        (the board's new version). InputError: no such result, or nothing to change."""
        remove = action == "remove"
        with self._pool.connection() as conn, conn.transaction():
            found = conn.execute("SELECT removed FROM results WHERE id = %s AND "
                                 "evening_id = %s FOR UPDATE",
                                 (result_id, evening_id)).fetchone()
            if found is None:
                raise InputError(f"the evening has no result {result_id}")
            if bool(found[0]) == remove:
                raise InputError(f"result {result_id} is "
                                 f"{'removed' if remove else 'counted'} already")
            conn.execute("UPDATE results SET removed = %s WHERE id = %s", (remove, result_id))
            (change_id,) = conn.execute(
                "INSERT INTO result_changes (evening_id, result_id, action, reason) VALUES "
                "(%s, %s, %s, %s) RETURNING id",
                (evening_id, result_id, action, reason)).fetchone()
        return int(change_id)

    def override_result(self, evening_id: int, result_id: int, report: v6_tables.Report,
                        reason: str) -> tuple[int, int]:
        """Store the organiser's ``report`` as a new result that corrects ``result_id``
        (checked by the caller), with the reason: (the new result's id, the change's id,
        which is the board's new version). The replaced result stays stored, as does every other;
        the newer one counts for its round, as a table's correction does. InputError: the
        same override stored already."""
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "INSERT INTO results (evening_id, table_code, round_key, action_id, report, "
                "corrects) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING "
                "RETURNING id", (evening_id, report.table, report.round_key,
                                 report.action_id, Jsonb(v6_tables.report_to_json(report)),
                                 result_id)).fetchone()
            if row is None:
                raise InputError(f"result {result_id} is overridden by this report already")
            (change_id,) = conn.execute(
                "INSERT INTO result_changes (evening_id, result_id, action, reason, "
                "replacement) VALUES (%s, %s, 'override', %s, %s) RETURNING id",
                (evening_id, result_id, reason, row[0])).fetchone()
        return int(row[0]), int(change_id)

    def changes(self, evening_id: int) -> list[dict[str, Any]]:
        """The organiser's changes, oldest first (``replacement``: an override's new
        result)."""
        with self._pool.connection() as conn:
            rows = conn.execute(
                "SELECT c.id, c.result_id, c.action, c.reason, c.at, r.table_code, "
                "r.round_key, c.replacement FROM result_changes c JOIN results r ON "
                "r.id = c.result_id WHERE c.evening_id = %s ORDER BY c.id",
                (evening_id,)).fetchall()
        return [{"id": int(r[0]), "result": int(r[1]), "action": r[2], "reason": r[3],
                 "at": r[4].isoformat(), "table": r[5], "round": r[6],
                 "replacement": None if r[7] is None else int(r[7])} for r in rows]

    def result_count(self, evening_id: int) -> int:
        with self._pool.connection() as conn:
            return int(conn.execute("SELECT count(*) FROM results WHERE evening_id = %s",
                                    (evening_id,)).fetchone()[0])


def _evening(row: tuple[Any, ...], codes: Sequence[str]) -> Evening:
    evening_id, name, seed, players, qualify = row
    plan = v6_tables.plan_evening(players, codes, seed, qualify)
    return Evening(int(evening_id), name, plan)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _safe(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        info = conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "(an unreadable database URL)"
    info.pop("password", None)
    return conninfo.make_conninfo(**info)
