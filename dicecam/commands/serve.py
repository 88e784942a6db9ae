"""``dicecam serve``: the live tablet view (Flask + Flask-SocketIO) for every game.

With no source option it uses the first webcam, or the bundled demo when the computer has
none, and prints the address to open here and the one a tablet on the same network reaches,
and the pairing PIN: anyone may watch, but a tablet changes the game only once its PIN has
been typed in (a new PIN at each start).

The camera reads at a table (``--table NAME``; by default ``default`` for a webcam or
stream and ``demo`` for the bundled demo): with the die reader that table learnt and its
empty-table picture, and every die the players confirm, correct, add or strike on the
tablet teaches it (``webapp/camera/teacher.py``).
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from typing import Any

from dicecam.calibration.tables import DEFAULT_TABLE, load_table_picture, saved_table_names
from dicecam.errors import InputError
from dicecam.hub.config import lan_address
from dicecam.scorer.registry import game_names, get_game
from dicecam.webapp.api.app import create_app, services
from dicecam.webapp.api.pairing import new_pin
from dicecam.webapp.camera.source import DEMO, TableCamera, choose_source, is_live
from dicecam.webapp.hub_link import signing
from dicecam.webapp.server import Built, ServerOptions, serve

#: tablets and phones one table serves at once (each open WebSocket holds a thread)
CONNECTIONS = 100

DEFAULT_PORT = 8765


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--camera", type=int, metavar="N", help="read webcam N (0 is the first)")
    source.add_argument("--video", metavar="FILE", help="read a video file (played in a loop)")
    source.add_argument("--stream", metavar="URL", help="read an MJPEG/RTSP stream (phone app)")
    source.add_argument("--demo", action="store_true",
                        help="show the bundled demo (the default when no webcam is found)")
    source.add_argument("--no-camera", action="store_true",
                        help="no camera at all: dice are entered by tapping")
    parser.add_argument("--game", help=f"offer only this game ({', '.join(game_names())}); "
                        "default: all of them")
    parser.add_argument("--zones", metavar="MAP", help="zone map (built-in name or JSON file) "
                        "naming where dice lie: players' parties, districts, the tray")
    parser.add_argument("--empty-table", metavar="NAME", help="picture of the table without "
                        "dice (`dicecam calibrate table`; default: the one saved as "
                        f"{DEFAULT_TABLE!r}, with a camera, when there is one): boxes that "
                        "still look like it are never taken for dice")
    parser.add_argument("--table", metavar="NAME", help="the table the camera looks at: it "
                        "reads with the dice reader this table learnt, and every die the "
                        f"players confirm or correct teaches it (default: {DEFAULT_TABLE!r} "
                        f"with a camera or stream, {DEMO!r} for the demo, none for a video)")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to listen on (default 0.0.0.0: tablets on the LAN too)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--db", metavar="PATH", help="SQLite file with the games, or a "
                        "postgresql://... URL to keep them in PostgreSQL "
                        "(default: games.sqlite in the data folder, $DICECAM_HOME or "
                        "~/.local/share/dicecam)")
    parser.add_argument("--hub", metavar="URL", help="a tournament hub (dicecam hub) to send "
                        "this table's V6 results to, e.g. http://192.168.1.10:8770")
    parser.add_argument("--table-key-file", metavar="FILE", help="the file holding this "
                        "table's secret key at the hub (dicecam hub init prints it; it "
                        f"signs every result); or set ${signing.TABLE_KEY_VARIABLE}, or "
                        "leave both out and type it when asked")
    parser.add_argument("--table-key", help=argparse.SUPPRESS)  # on argv: says where to
    parser.add_argument("--table-code", help=argparse.SUPPRESS)  # before keys: says so


def addresses(host: str, port: int) -> list[str]:
    if host in ("0.0.0.0", "::", ""):
        urls = [f"http://localhost:{port}/"]
        lan = lan_address()
        if lan:
            urls.append(f"http://{lan}:{port}/")
        return urls
    return [f"http://{host}:{port}/"]


def pin_line(pin: str) -> str:
    half = len(pin) // 2
    return (f"Pairing PIN: {pin[:half]} {pin[half:]}   (type it on a tablet to change the "
            "score; watching needs no PIN)")


def run(args: argparse.Namespace) -> int:
    if args.game is not None:
        get_game(args.game)  # an unknown name is a clear error before anything starts
    if not 1 <= args.port <= 65535:
        raise InputError(f"--port must be 1 to 65535, got {args.port}")
    source = None if args.no_camera else choose_source(
        camera=args.camera, video=args.video, stream=args.stream, demo=args.demo)
    if args.table_code:
        raise InputError("--table-code is gone: a table now signs its results with its key. "
                         "Run `dicecam hub init --new-evening ...` and start each table "
                         "with the key its line gives")
    table_key = signing.hub_table_key(args.hub, args.table_key_file, args.table_key)
    table = args.table
    if table is None and source is not None:
        table = DEMO if source == DEMO else DEFAULT_TABLE if is_live(source) else None
    if table is not None and source is None:
        raise InputError("--table needs a camera: without one there is no picture to learn "
                         "the table's dice from")
    empty_table = args.empty_table
    if empty_table is None and table is not None and table in saved_table_names():
        empty_table = table
        print(f"Using the picture of the empty table saved as {table!r} "
              "(dicecam calibrate table takes a new one)")
    if empty_table is not None:
        load_table_picture(empty_table)  # a missing picture is a clear error now
    config = {
        "HUB_URL": args.hub,
        "TABLE_KEY": None if table_key is None else table_key.text(),
        "DB_PATH": args.db,
        "GAMES": None if args.game is None else [args.game],
        # chosen here, so a worker that gunicorn starts again keeps the PIN on the console
        "PAIRING_PIN": new_pin(),
    }
    try:
        listener = socket.create_server((args.host, args.port), reuse_port=False)
        listener.close()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {args.port} is in use (another dicecam serve?); stop it "
                             "or pass --port with a free port") from None
        raise InputError(f"cannot listen on {args.host}:{args.port} ({exc.strerror})") from None

    def build() -> Built:
        """In the server's worker process: the app, its camera reader and hub link."""
        app = create_app({**config, "OUTPUTS": None if source is None else TableCamera(
            source, zones=args.zones, empty_table=empty_table, table=table)})
        _announce(app, args, source, table)
        services(app).start_reader()
        return Built(app, services(app).close)

    status = serve(build, ServerOptions(args.host, args.port, threads=CONNECTIONS,
                                        name="dicecam serve"))
    sys.stdout.flush()
    return status


def _announce(app: Any, args: argparse.Namespace, source: str | None,
              table: str | None) -> None:
    urls = addresses(args.host, args.port)
    what = "no camera (tap in the dice)" if source is None else (
        "the bundled demo" if source == "demo" else source)
    print(f"dicecam serve: reading {what}; games are stored in "
          f"{services(app).store.path}", flush=True)
    print(f"Open {urls[0]} in a browser here", flush=True)
    for url in urls[1:]:
        print(f"  or {url} on a tablet or phone on the same network", flush=True)
    print(pin_line(services(app).pairing.pin), flush=True)
    if table is not None:
        status = services(app).teacher.status_payload() if services(app).teacher else {}
        print(f"Table {table!r}: {status.get('taught', 0)} dice taught, reading with "
              f"{status.get('reading_with') or 'the shipped reader'}", flush=True)
    if args.hub:
        print(f"Results go to the hub {args.hub} as table "
              f"{services(app).hub_link.table_id} (kept in the journal while the hub is "
              "unreachable)", flush=True)
    print("Stop with Ctrl+C.", flush=True)
