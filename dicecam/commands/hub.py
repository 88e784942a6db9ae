"""``dicecam hub``: the tournament hub (``dicecam/hub``).

``dicecam hub init --players "Ann,Bea,..."`` creates the database (PostgreSQL), draws the
groups and prints the one command per table; ``dicecam hub`` then serves the standings page
and the tables' API with N processes on one port, their emits joined through Redis;
``dicecam hub result VERB [ID]`` is the organiser's (list, show, remove, restore, override,
release).
"""

from __future__ import annotations

import argparse
import json
import secrets
import socket
import sys
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

from dicecam.errors import InputError
from dicecam.hub import config as hub_config
from dicecam.hub.app import CONNECTIONS, PHONES_PER_ADDRESS, create_hub_app, hub
from dicecam.hub.store import ORGANISER, HubStore, create_database
from dicecam.scorer.registry import tournament_game
from dicecam.webapp.hub_link.signing import (
    ORGANISER_KEY_VARIABLE,
    TABLE_KEY_VARIABLE,
    command_key,
    sign,
)
from dicecam.webapp.server import Built, ServerOptions, serve

#: what the organiser may do with a result (``dicecam hub result VERB [ID]``)
RESULT_VERBS = ("list", "show", "remove", "restore", "override", "release")


class _InitIsASubcommand(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        parser.error("creating the evening is a subcommand now: dicecam hub init --players "
                     "\"Ann,Bea,...\" (the same options after it)")


def _where(parser: argparse.ArgumentParser, *, under: bool = False) -> None:
    """The database, Redis and the port: on ``dicecam hub`` and again after each of its
    subcommands (given there, or not at all: a subcommand's missing one keeps the hub's)."""
    keep = {"default": argparse.SUPPRESS} if under else {}
    parser.add_argument("--db", metavar="URL", help="PostgreSQL database (default: the saved "
                        f"one, else {hub_config.DEFAULT_DB})", **keep)
    parser.add_argument("--redis", metavar="URL", help="Redis for N processes' emits (default: "
                        f"the saved one, else {hub_config.DEFAULT_REDIS}); 'none' for one "
                        "process without Redis", **keep)
    parser.add_argument("--host", help="address to listen on (default 0.0.0.0)", **keep)
    parser.add_argument("--port", type=int, help=f"port (default {hub_config.DEFAULT_PORT})",
                        **keep)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("dicecam hub serves the evening's standings and the tables' API; "
                          "dicecam hub init creates the evening, dicecam hub result is the "
                          "organiser's")
    _where(parser)
    parser.add_argument("--processes", type=int, default=hub_config.DEFAULT_PROCESSES,
                        help="hub processes sharing the port (default "
                        f"{hub_config.DEFAULT_PROCESSES}; more than 1 needs Redis)")
    parser.add_argument("--phones-per-address", type=int, default=PHONES_PER_ADDRESS,
                        help="screens and phones one address may hold open in each process "
                        f"(default {PHONES_PER_ADDRESS}; behind a proxy every phone has its "
                        "address: raise it there)")
    # the old spelling, refused with the new one before its options are parsed
    parser.add_argument("--init", action=_InitIsASubcommand, nargs=0, help=argparse.SUPPRESS)
    actions = parser.add_subparsers(dest="hub_action", metavar="{init,result}")
    init = actions.add_parser("init", help="create the database and a new evening; print "
                              "each table's command and key")
    _where(init, under=True)
    init.add_argument("--players", help="the evening's players, separated by commas")
    init.add_argument("--players-file", metavar="FILE", help="the players, one per line")
    init.add_argument("--tables", type=int, help="tables (default: one per group of four)")
    init.add_argument("--name", default="V6 evening", help="the evening's name on the board")
    init.add_argument("--seed", help="seed of the group draw (default: a random one, stored)")
    init.add_argument("--new-evening", action="store_true", help="start a new evening in a "
                      "database that holds one already (the running hub switches to it; "
                      "the old evening's tables are refused)")
    init.add_argument("--public-url", help="the hub's address as tables reach it (default: "
                      "this computer's LAN address)")
    result = actions.add_parser(
        "result", help="the organiser: list, show, remove, restore, override or release a "
        "result", description="dicecam hub result list | show ID | remove ID | restore ID | "
        "override ID --report FILE | release ID, each change with --reason TEXT, and the "
        "organiser's key (--organiser-key-file FILE, or $DICECAM_ORGANISER_KEY, or typed "
        "when asked): list the evening's results, print one's report, remove or "
        "restore one, replace it with a corrected report (checked like a table's before it "
        "counts), or count one held for the organiser (a late correction, a pass after an "
        "override); every open board shows the new standings, the reason is shown to the "
        "referee")
    _where(result, under=True)
    result.add_argument("verb", choices=RESULT_VERBS, help="what to do")
    result.add_argument("id", nargs="?", help="the result's number (list shows them)")
    result.add_argument("--reason", help="why the result is removed, restored, overridden or "
                        "released")
    result.add_argument("--report", metavar="FILE", help="override: the corrected "
                        "report, JSON ('-': standard input), e.g. what `dicecam hub "
                        "result show ID` printed, edited")
    result.add_argument("--organiser-key-file", metavar="FILE", help="the file "
                        "holding the organiser's key that `dicecam hub init` printed; or "
                        f"${ORGANISER_KEY_VARIABLE}, or type it when asked")
    result.add_argument("--organiser-key", help=argparse.SUPPRESS)  # says where to
    result.add_argument("--hub", metavar="URL", help="the running hub (default: "
                        "http://127.0.0.1:PORT)")


def _settings(args: argparse.Namespace) -> hub_config.HubConfig:
    saved = hub_config.load()
    redis = args.redis if args.redis is not None else saved.redis
    settings = replace(saved, db=args.db or saved.db,
                       redis=None if redis in (None, "", "none") else redis,
                       host=args.host or saved.host, port=args.port or saved.port)
    if not 1 <= settings.port <= 65535:
        raise InputError(f"--port must be 1 to 65535, got {settings.port}")
    return settings


def _players(args: argparse.Namespace) -> list[str]:
    if args.players_file:
        try:
            text = Path(args.players_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot read {args.players_file} ({exc.strerror})") from None
        names = [line.strip() for line in text.splitlines()]
    elif args.players:
        names = [name.strip() for name in args.players.split(",")]
    else:
        raise InputError("name the evening's players: --players \"Ann,Bea,...\" or "
                         "--players-file FILE (one per line)")
    return [name for name in names if name]


def run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if args.hub_action == "result":
        return _organiser(args, settings)
    if args.hub_action == "init":
        return _init(args, settings)
    if args.processes < 1:
        raise InputError(f"--processes must be 1 or more, got {args.processes}")
    if args.processes > 1 and settings.redis is None:
        raise InputError("several hub processes share their emits through Redis: pass "
                         "--redis URL, or --processes 1")
    # the database and its evening checked once here, so a wrong URL or a missing `hub init`
    # is one clear line rather than N workers failing
    store = HubStore(settings.db)
    try:
        store.migrate()
        evening = store.current_evening()
    finally:
        store.close()
    try:  # another hub (or anything) already answering there would share our connections
        socket.create_connection(("127.0.0.1", settings.port), timeout=0.5).close()
        raise InputError(f"port {settings.port} is in use; stop what runs there or pass "
                         "--port")
    except OSError:
        pass
    print(f"dicecam hub: evening '{evening.name}' ({len(evening.plan.players)} players, "
          f"{len(evening.plan.tables)} tables); {args.processes} processes on port "
          f"{settings.port}; standings at {board_url(settings)} (big screen and "
          "phones)", flush=True)
    print("Stop with Ctrl+C.", flush=True)
    if args.phones_per_address < 1:
        raise InputError(f"--phones-per-address must be 1 or more, got "
                         f"{args.phones_per_address}")
    config = {"DB_URL": settings.db, "REDIS_URL": settings.redis, "DB_AT_START": False,
              "PHONES_PER_ADDRESS": args.phones_per_address,
              # as many board requests as sockets: a proxy's phones share one bucket too
              "PHONE_BURST": max(50.0, float(args.phones_per_address)),
              "PHONE_RATE_PER_SECOND": max(5.0, args.phones_per_address / 10.0)}

    def build() -> Built:
        """In each worker process (gunicorn forks them): the hub's app."""
        app = create_hub_app(config)
        return Built(app, hub(app).store.close)

    def started(number: int, pid: int) -> None:  # a worker started again counts on
        # one write a line: the workers print at once, and print() writes the line's end
        # apart, so two workers' lines ran together
        sys.stdout.write(f"hub worker {number}: pid {pid}\n")
        sys.stdout.flush()

    return serve(build, ServerOptions(settings.host, settings.port, workers=args.processes,
                                      threads=CONNECTIONS, reuse_port=True,
                                      name="dicecam hub"), on_worker=started)


def board_url(settings: hub_config.HubConfig) -> str:
    """The board's address as this computer prints it: the LAN address when the hub
    listens on every interface, else the address it listens on (127.0.0.1 answers here
    only, and a LAN address would not answer at all)."""
    return f"http://{hub_config.reachable_host(settings.host)}:{settings.port}/"


def _init(args: argparse.Namespace, settings: hub_config.HubConfig) -> int:
    players = _players(args)
    game = tournament_game()
    assert game.tournament is not None  # tournament_game() returns a game with one
    created = create_database(settings.db)
    store = HubStore(settings.db)
    try:
        store.migrate()
        current, results = store.evening_count()
        if current is not None and not args.new_evening:
            raise InputError(
                f"the database {settings.db} holds evening {current.id} '{current.name}' "
                f"already ({results} results; a running hub serves it): hub init changes "
                "nothing. To start a new evening there, add --new-evening (the hub "
                "switches to it, the old evening's tables are refused); to run another "
                "hub, pass --db with another database")
        tables = args.tables or max(1, -(-len(players) // game.tournament.group_size))
        evening, keys = store.create_evening(args.name, players, tables,
                                             args.seed or secrets.token_hex(4))
    finally:
        store.close()
    path = hub_config.save(settings)
    url = args.public_url or board_url(settings).rstrip("/")
    print(f"dicecam hub: {'created the database, ' if created else ''}evening "
          f"{evening.id} '{evening.name}' with {len(players)} players at {tables} tables; "
          f"settings saved in {path}")
    print("Start the hub with:  dicecam hub")
    organiser = next(k for k in keys if k.table == ORGANISER)
    print(f"The organiser's key (keep it; shown here once): {organiser.text()}")
    print("  remove, restore or override a result:  dicecam hub result remove ID --reason "
          "\"...\"  (it asks for the key; dicecam hub result list shows the IDs), or the "
          f"page {url}/organiser")
    print("Then, at each table (each key is that table's secret: give it to that table "
          "only; it is shown here once, never on a page; the table asks for it, or reads "
          f"it from --table-key-file FILE or ${TABLE_KEY_VARIABLE}, never from the command "
          "line, where anyone on that computer could read it):")
    for number, key in enumerate([k for k in keys if k.table != ORGANISER], start=1):
        group = evening.plan.groups[number - 1] if number <= len(evening.plan.groups) else ()
        print(f"  table {number} ({', '.join(group) or 'final only'}):  key {key.text()}")
    print(f"  start each with:  dicecam serve --game {game.name} --hub {url}")
    if (settings.host.startswith("127.") or settings.host in ("::1", "localhost")) \
            and not args.public_url:
        print(f"The hub listens on {settings.host} only: tables on other computers cannot "
              "reach it (--host 0.0.0.0 for the network).")
    print("Two tables on one computer: each its own data folder and port, e.g. "
          "DICECAM_HOME=~/dicecam-table2 dicecam serve ... --port 8766")
    return 0


def _organiser(args: argparse.Namespace, settings: hub_config.HubConfig) -> int:
    """``dicecam hub result list | remove ID | restore ID``: through the running hub's
    organiser API, signed with the organiser's key."""
    verb = args.verb
    # a result's number first: a missing one is said before the key is asked for
    result_id = None if verb == "list" else _result_id(args)
    key = command_key(args.organiser_key_file, ORGANISER_KEY_VARIABLE, "the organiser's key",
                      typed_flag=args.organiser_key, flag="--organiser-key")
    if key is None:
        raise InputError("the organiser's key, as `dicecam hub init` printed it: "
                         f"--organiser-key-file FILE, or ${ORGANISER_KEY_VARIABLE}, or run "
                         "this in a terminal and type it when asked")
    if key.table != ORGANISER:
        raise InputError(f"that is table {key.table_id}'s key, not the organiser's "
                         "(EVENING-ORG-...)")
    url = (args.hub or f"http://127.0.0.1:{settings.port}").rstrip("/")
    if verb in ("list", "show"):
        path = "/api/organiser/results"
        answer = _call(url, path, sign(key, "GET", path), None)
        if verb == "show":
            wanted = result_id
            row = next((r for r in answer["results"] if r["id"] == wanted), None)
            if row is None:
                raise InputError(f"the evening has no result {wanted} (dicecam hub result "
                                 "list shows them)")
            print(json.dumps(row["report"], indent=2))
            return 0
        why = {c["result"]: c["reason"] for c in answer["changes"]}
        replaced = {r["corrects"]: r["id"] for r in answer["results"] if r["corrects"]}
        for row in answer["results"]:
            state = f"removed ({why.get(row['id'], '')})" if row["removed"] else (
                f"held: {row['held']}" if row.get("held") else "counts")
            if row["id"] in replaced:
                state = f"overridden by {replaced[row['id']]} ({why.get(row['id'], '')})"
            elif row["corrects"]:
                state += f", overrides {row['corrects']}"
            print(f"{row['id']:>5}  {row['table']:<4} {row['round']:<14} {row['received'][11:19]}"
                  f"  {state}")
        return 0
    if not args.reason:
        raise InputError("--reason TEXT: why (it is shown to the referee on the board)")
    change: dict[str, Any] = {"action": verb, "reason": args.reason}
    if verb == "override":
        change["report"] = _report(args.report)
    path = f"/api/organiser/results/{result_id}"
    body = json.dumps(change).encode()
    answer = _call(url, path, sign(key, "POST", path, body), body)
    done = {"remove": "removed", "restore": "restored", "release": "released",
            "override": f"overridden by result {answer.get('id')}"}[verb]
    print(f"result {result_id} {done}; the board counts {answer['counted']} results "
          f"(version {answer['version']})")
    return 0


def _result_id(args: argparse.Namespace) -> int:
    if args.id is None or not args.id.isdigit():
        raise InputError(f"dicecam hub result {args.verb} ID: the result's number (dicecam "
                         "hub result list shows them)")
    return int(args.id)


def _report(source: str | None) -> Any:
    """The corrected report for an override, from a JSON file or standard input."""
    if not source:
        raise InputError("--report FILE: the corrected report as JSON (dicecam hub result "
                         "show ID prints the one it replaces)")
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        return json.loads(text)
    except OSError as exc:
        raise InputError(f"cannot read {source} ({exc.strerror})") from None
    except ValueError as exc:
        raise InputError(f"{source} is not JSON ({exc})") from None


def _call(url: str, path: str, headers: dict[str, str], body: bytes | None) -> Any:
    request = urllib.request.Request(url + path, data=body, method="GET" if body is None
                                     else "POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            reason = json.loads(exc.read()).get("error", exc.reason)
        except ValueError:
            reason = exc.reason
        raise InputError(f"the hub refused ({exc.code}): {reason}") from None
    except (OSError, ValueError) as exc:
        raise InputError(f"the hub at {url} does not answer ({exc}); is `dicecam hub` "
                         "running? (--hub URL)") from None
