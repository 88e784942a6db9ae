"""The app factory: Flask serves the page and its assets, Flask-SocketIO the live updates.

``socketio`` is created bare at module level and wired by ``create_app``, as in
Flask-SocketIO's own examples. The async mode is ``threading``: it runs on the plain
Python 3.11 here with a real WebSocket transport (through simple-websocket), and the
camera reader is a normal thread that needs no monkey-patching.
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask, abort, current_app, render_template, request
from flask_socketio import SocketIO

from dicecam.errors import InputError
from dicecam.messages import templates as message_templates
from dicecam.paths import games_db_path
from dicecam.scorer.registry import get_game
from dicecam.webapp import events
from dicecam.webapp.api import namespace as sockets
from dicecam.webapp.api.pairing import Pairing
from dicecam.webapp.api.rules_page import (
    HELP,
    RULEBOOK_FILES,
    RULEBOOKS,
    help_json,
    owners_rulebook,
    rulebooks_folder,
    rules_tables,
)
from dicecam.webapp.camera.live import RETRY_SECONDS, STALL_SECONDS, LiveOutput, LiveReader
from dicecam.webapp.hub_link.link import HubLink, start_assigned_game
from dicecam.webapp.journal.choose import open_journal, open_outbox
from dicecam.webapp.session.demo_table import DemoDirector
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.profile_from_play import ProfileFromPlay

socketio = SocketIO()
log = logging.getLogger(__name__)

#: game name (or None when no game runs) -> the live outputs to show for it
OutputsFactory = Callable[[str | None], Iterable[LiveOutput]]

LANGUAGES = ("en", "de")
#: the web app's folder: the page's ``templates/`` and ``static/`` lie there
WEBAPP = Path(__file__).parent.parent
STATIC = WEBAPP / "static"

DEFAULTS: dict[str, Any] = {
    "DB_PATH": None,  # None: the per-user data folder (see dicecam.paths.games_db_path);
    # a postgresql:// URL keeps the journal in PostgreSQL (webapp/journal.py)
    "OUTPUTS": None,  # an OutputsFactory, or None for no camera at all
    "FRAME_FPS": 12.0,  # frames per second sent to tablets (readings go with each)
    "FRAME_MAX_WIDTH": 960,
    "JPEG_QUALITY": 70,
    "AUTO_APPLY": True,  # score a roll at once when every die was read with confidence
    "GAMES": None,  # None: every registered game
    "MAX_HTTP_BUFFER": 64 * 1024,  # the largest event a tablet may send, in bytes
    "PAIRING_PIN": None,  # None: a new random PIN at each start (create_app stores it here)
    "CAMERA_STALL_SECONDS": STALL_SECONDS,  # no picture this long: the camera counts as lost
    "CAMERA_RETRY_SECONDS": RETRY_SECONDS,  # pause before opening a lost camera again
    "HUB_URL": None,  # a tournament hub to send the V6 evening's results to (hub_link.py)
    "TABLE_CODE": None,  # this table's code at that hub
}


class Services:
    """What one app instance runs: the store, the game session, the camera reader, and who
    may change the game (pairing)."""

    def __init__(self, app: Flask) -> None:
        self.pairing = Pairing(app.config["PAIRING_PIN"])
        app.config["PAIRING_PIN"] = self.pairing.pin
        db_path = app.config["DB_PATH"]
        if db_path is None:
            db_path = games_db_path()
            db_path.parent.mkdir(parents=True, exist_ok=True)
        self.store = open_journal(db_path)
        # results for the hub wait in an outbox in the journal's own file
        self.hub_link = None if not app.config["HUB_URL"] else HubLink(
            app.config["HUB_URL"], app.config["TABLE_CODE"] or "", open_outbox(db_path), publish,
            on_assignment=self._seat_from_hub)
        self.session = GameSession(
            self.store, publish if self.hub_link is None else self.hub_link.wrap(publish),
            games=app.config["GAMES"], auto_apply=app.config["AUTO_APPLY"]
        )
        if self.hub_link is not None:  # results settled before a crash and not queued yet
            self.hub_link.observe(events.STATE, self.session.view())
        outputs: OutputsFactory | None = app.config["OUTPUTS"]
        # the demo table plays the game (throws what it waits for) when it is the source
        self.demo: DemoDirector | None = None
        direct_demo = getattr(outputs, "direct_demo", None)
        if direct_demo is not None:
            director = DemoDirector(self.session)
            if direct_demo(director):
                self.demo = director
                self.session.demo_status = director.waiting
        self.reader = None if outputs is None else LiveReader(
            self.session,
            publish,
            outputs,
            frame_fps=app.config["FRAME_FPS"],
            frame_max_width=app.config["FRAME_MAX_WIDTH"],
            jpeg_quality=app.config["JPEG_QUALITY"],
            stall_seconds=app.config["CAMERA_STALL_SECONDS"],
            retry_seconds=app.config["CAMERA_RETRY_SECONDS"],
        )
        if self.reader is not None and getattr(outputs, "learns_colours", False):
            # the first roll the players confirm fits this table's colours
            reader, use_profile = self.reader, getattr(outputs, "use_profile", None)

            def fitted(profile: Any) -> None:
                if use_profile is not None:
                    use_profile(profile)
                reader.colours_fitted(profile.name)  # the tablets say so

            learner = ProfileFromPlay(fitted)
            self.reader.profile_from_play = learner
            self.session.on_confirmed = learner.confirmed
        self.stop = threading.Event()
        self._started = False
        self._start_lock = threading.Lock()

    def _seat_from_hub(self, assignment: dict[str, Any]) -> None:
        """The hub seats a group here (at the start, and the final's): start its game when
        the table is free for it."""
        try:
            start_assigned_game(self.session, assignment)
        except InputError as exc:  # a group the rules refuse: the croupier starts by hand
            log.warning("could not start the hub's group: %s", exc)

    def start_reader(self) -> None:
        """Start the one background reader task and the hub link (once; later calls do
        nothing)."""
        if self.hub_link is not None:
            self.hub_link.start()
        with self._start_lock:
            if self._started or self.reader is None:
                return
            self._started = True
            socketio.start_background_task(self.reader.run, self.stop)

    def close(self) -> None:
        self.stop.set()
        if self.hub_link is not None:
            self.hub_link.stop()
            self.hub_link.outbox.close()
        if self.reader is not None:
            self.reader.join(timeout=5.0)
        self.store.close()


def publish(event: str, payload: dict[str, Any]) -> None:
    """Send one event to every connected tablet."""
    socketio.emit(event, payload)


def services(app: Flask | None = None) -> Services:
    return (app or current_app).extensions["dicecam"]


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, root_path=str(WEBAPP))
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_HTTP_BUFFER"]
    socketio.init_app(
        app,
        async_mode="threading",
        max_http_buffer_size=app.config["MAX_HTTP_BUFFER"],
        # the page is served by this app; tablets never connect from another origin
        cors_allowed_origins=None,
    )
    app.wsgi_app = send_at_once(app.wsgi_app)
    app.extensions["dicecam"] = Services(app)

    @app.get("/")
    def index() -> str:
        lang = request.accept_languages.best_match(LANGUAGES, default="en")
        return render_template("index.html", lang=lang, event_names=event_names(),
                               changes_the_game=list(events.CHANGES_THE_GAME),
                               game_scripts=game_scripts(services().session.games),
                               catalogue=catalogue(services().session.games),
                               # the engines' sentences in both languages (loaded with
                               # the games above), worded on the page in the player's one
                               messages=message_templates(),
                               help=help_json())

    @app.get("/rules/<game>")
    def rules_page(game: str) -> Any:
        """A game's rules in the player's language (``?lang=de``): the help, the game's own
        tables (jokers, missions) and the owner's copy of the rulebook if there is one. The
        game must be one this server offers; nothing else from the request is used."""
        if game not in services().session.games:
            abort(404)
        lang = request.args.get("lang")
        if lang not in LANGUAGES:
            lang = request.accept_languages.best_match(LANGUAGES, default="en")
        return render_template("rules.html", lang=lang, game=game,
                               title=get_game(game).title,
                               sections=HELP[game][lang], rulebook=RULEBOOKS[game][lang],
                               tables=rules_tables(game, lang),
                               owners_copy=owners_rulebook(game, lang),
                               rulebooks_folder=str(rulebooks_folder()),
                               rulebook_files=RULEBOOK_FILES[game][lang])

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"ok": True, "game": services().session.game_name}

    return app


def send_at_once(wsgi_app: Callable[..., Any]) -> Callable[..., Any]:
    """Turn off Nagle's algorithm on each connection's socket (TCP_NODELAY).

    An update is a few small WebSocket frames (the state, then the acknowledgement); with
    Nagle on, the second waits for the tablet's delayed ACK of the first: about 40 ms added
    to every tap. Only the development server (werkzeug) hands the socket over; other
    servers are left as they are."""

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        sock = environ.get("werkzeug.socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:  # not a TCP socket (a test client, a Unix socket)
                pass
        return wsgi_app(environ, start_response)

    return app


def game_scripts(games: Iterable[str]) -> list[str]:
    """Each offered game's view script (a game without one shows its legal actions)."""
    return [f"{game}.js" for game in games if (STATIC / f"{game}.js").is_file()]


def catalogue(games: Iterable[str]) -> dict[str, Any]:
    """Display names from the games' own data tables, for the tablet's pickers (read from
    the engines, never copied, so they cannot drift apart)."""
    return {name: describe() for name in games if (describe := get_game(name).catalogue)}


def event_names() -> dict[str, str]:
    return {name: value for name in dir(events)
            if name.isupper() and isinstance(value := getattr(events, name), str)}


sockets.register(socketio, services)
