"""The app factory: Flask serves the page and its assets, Flask-SocketIO the live updates.

``socketio`` is created bare at module level and wired by ``create_app``, as in
Flask-SocketIO's own examples. The async mode is ``threading``: it runs on the plain
Python 3.11 here with a real WebSocket transport (through simple-websocket), and the
camera reader is a normal thread that needs no monkey-patching.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from flask import Flask, abort, current_app, render_template, request
from flask_socketio import SocketIO

from dicecam.messages import templates as message_templates
from dicecam.scorer.registry import get_game
from dicecam.teach.background import LEARN_EVERY
from dicecam.webapp import events
from dicecam.webapp.api.namespace import TabletNamespace
from dicecam.webapp.api.rules_page import (
    help_json,
    help_sections,
    owners_rulebook,
    rulebook_title,
    rules_tables,
)
from dicecam.webapp.api.services import Services
from dicecam.webapp.camera.live import RETRY_SECONDS, STALL_SECONDS

socketio = SocketIO()

LANGUAGES = ("en", "de")
#: the web app's folder: the page's ``templates/`` and ``static/`` lie there
WEBAPP = Path(__file__).parent.parent
STATIC = WEBAPP / "static"

DEFAULTS: dict[str, Any] = {
    "DB_PATH": None,  # None: the per-user data folder (see dicecam.paths.games_db_path);
    # a postgresql:// URL keeps the journal in PostgreSQL (journal/choose.py)
    "OUTPUTS": None,  # a Camera (camera/source.py), a function game -> outputs, or None:
    # no camera at all
    "FRAME_FPS": 12.0,  # frames per second sent to tablets (readings go with each)
    "FRAME_MAX_WIDTH": 960,
    "JPEG_QUALITY": 70,
    "AUTO_APPLY": True,  # score a roll at once when every die was read with confidence
    "GAMES": None,  # None: every registered game
    "MAX_HTTP_BUFFER": 64 * 1024,  # the largest event a tablet may send, in bytes
    "PAIRING_PIN": None,  # None: a new random PIN at each start (create_app stores it here)
    "CAMERA_STALL_SECONDS": STALL_SECONDS,  # no picture this long: the camera counts as lost
    "CAMERA_RETRY_SECONDS": RETRY_SECONDS,  # pause before opening a lost camera again
    "HUB_URL": None,  # a tournament hub to send the evening's results to (hub_link/)
    "TABLE_KEY": None,  # this table's key at that hub (a file, $DICECAM_TABLE_KEY or typed)
    "TEACH_EVERY": LEARN_EVERY,  # new dice taught at the camera's table that start a learning run
    "TEACH_STEPS": None,  # a learning run's steps (None: the learner's own number)
}


def publish(event: str, payload: dict[str, Any]) -> None:
    """Send one event to every connected tablet."""
    socketio.emit(event, payload)


def services(app: Flask | None = None) -> Services:
    """The ``Services`` of ``app`` (default: the app of the request being handled)."""
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
    app.extensions["dicecam"] = Services(app, publish, socketio.start_background_task)

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
                               sections=help_sections(game, lang),
                               rulebook=rulebook_title(game, lang),
                               tables=rules_tables(game, lang),
                               owners_copy=owners_rulebook(game, lang))

    @app.errorhandler(404)
    @app.errorhandler(405)
    def not_found(error: Any) -> Any:
        """A page that is not there, in the player's language (``?lang=de`` or the
        browser's), with the way back to the table: never Flask's bare English page."""
        lang = request.args.get("lang")
        if lang not in LANGUAGES:
            lang = request.accept_languages.best_match(LANGUAGES, default="en")
        return render_template("not_found.html", lang=lang), error.code

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"ok": True, "game": services().session.game_name}

    return app


def send_at_once(wsgi_app: Callable[..., Any]) -> Callable[..., Any]:
    """Turn off Nagle's algorithm on each connection's socket (TCP_NODELAY).

    An update is a few small WebSocket frames (the state, then the acknowledgement); with
    Nagle on, the second waits for the tablet's delayed ACK of the first: about 40 ms added
    to every tap. werkzeug (the test server) hands the socket over; gunicorn, which
    serves the app (``webapp/server.py``), sets it on its listening socket, and the
    connections it accepts inherit it."""

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


socketio.on_namespace(TabletNamespace(services))
