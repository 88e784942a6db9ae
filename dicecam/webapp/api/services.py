"""What one app instance runs: the journal, the game session, the camera reader, what the
table learns of its dice, the link to a tournament hub, and who may change the game
(pairing)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from flask import Flask

from dicecam.calibration.profile import ColourProfile
from dicecam.errors import InputError
from dicecam.paths import games_db_path
from dicecam.webapp import events
from dicecam.webapp.api.pairing import Pairing
from dicecam.webapp.camera.live import LiveReader
from dicecam.webapp.camera.source import Camera, OpenOutputs, OutputsCamera
from dicecam.webapp.camera.teacher import TableTeacher
from dicecam.webapp.hub_link.link import HubLink
from dicecam.webapp.hub_link.seating import start_assigned_game
from dicecam.webapp.journal.choose import open_journal, open_outbox
from dicecam.webapp.session.demo_table import DemoDirector
from dicecam.webapp.session.game_session import GameSession, Publish
from dicecam.webapp.session.profile_from_play import ProfileFromPlay

log = logging.getLogger(__name__)

#: runs a function on a background task of the server (``SocketIO.start_background_task``)
StartTask = Callable[..., Any]


class Services:
    """Built from the app's config: ``DB_PATH``, ``OUTPUTS`` (a ``Camera``, a function game
    -> outputs, or None for no camera), ``HUB_URL`` and ``TABLE_KEY``, and the rest of
    ``app.DEFAULTS``."""

    def __init__(self, app: Flask, publish: Publish, start_task: StartTask) -> None:
        self._start_task = start_task
        self.pairing = Pairing(app.config["PAIRING_PIN"])
        app.config["PAIRING_PIN"] = self.pairing.pin
        db_path = app.config["DB_PATH"]
        if db_path is None:
            db_path = games_db_path()
            db_path.parent.mkdir(parents=True, exist_ok=True)
        self.store = open_journal(db_path)
        # results for the hub wait in an outbox in the journal's own file
        self.hub_link = None if not app.config["HUB_URL"] else HubLink(
            app.config["HUB_URL"], app.config["TABLE_KEY"] or "", open_outbox(db_path), publish,
            on_assignment=self._seat_from_hub)
        self.session = GameSession(
            self.store, publish if self.hub_link is None else self.hub_link.wrap(publish),
            games=app.config["GAMES"], auto_apply=app.config["AUTO_APPLY"]
        )
        if self.hub_link is not None:  # results settled before a crash and not queued yet
            self.hub_link.observe(events.STATE, self.session.view())
        outputs: Camera | OpenOutputs | None = app.config["OUTPUTS"]
        self.camera = outputs if outputs is None or isinstance(outputs, Camera) \
            else OutputsCamera(outputs)
        # the demo table plays the game (throws what it waits for) when it is the source
        self.demo: DemoDirector | None = None
        self.reader: LiveReader | None = None
        #: what the camera's table learns of its dice (a camera at a named table)
        self.teacher: TableTeacher | None = None
        if self.camera is not None:
            # a roll of fewer dice than the game waits for is looked at again for them
            self.camera.expect_dice(self.session.dice_due)
            director = DemoDirector(self.session)
            if self.camera.direct_demo(director.opening):
                self.demo = director
                self.session.demo_status = director.waiting
            self.reader = LiveReader(
                self.session,
                publish,
                self.camera.open,
                frame_fps=app.config["FRAME_FPS"],
                frame_max_width=app.config["FRAME_MAX_WIDTH"],
                jpeg_quality=app.config["JPEG_QUALITY"],
                stall_seconds=app.config["CAMERA_STALL_SECONDS"],
                retry_seconds=app.config["CAMERA_RETRY_SECONDS"],
            )
            if self.camera.learns_colours:
                # the first roll the players confirm fits this table's colours
                learner = ProfileFromPlay(self._colours_fitted)
                self.reader.profile_from_play = learner
                self.session.on_confirmed = learner.confirmed
            if self.camera.table is not None:
                # every die the players confirm, correct, add or strike teaches the table
                self.teacher = TableTeacher(self.camera.table, publish, self.camera.use_models,
                                            every=app.config["TEACH_EVERY"],
                                            steps=app.config["TEACH_STEPS"])
                self.reader.teacher = self.teacher
                self.session.on_taught = self.teacher.taught
        self.stop = threading.Event()
        self._started = False
        self._start_lock = threading.Lock()

    def _colours_fitted(self, profile: ColourProfile) -> None:
        """The table's colours were fitted from a confirmed roll: the camera reads with them
        from the next frame on, and the tablets say so."""
        if self.camera is not None:
            self.camera.use_profile(profile)
        if self.reader is not None:
            self.reader.colours_fitted(profile.name)

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
            self._start_task(self.reader.run, self.stop)

    def close(self) -> None:
        self.stop.set()
        if self.teacher is not None:
            self.teacher.close()
        if self.hub_link is not None:
            self.hub_link.stop()
            self.hub_link.outbox.close()
        if self.reader is not None:
            self.reader.join(timeout=5.0)
        self.store.close()
