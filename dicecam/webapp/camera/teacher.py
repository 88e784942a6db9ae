"""The table learns its dice from play: what the players said about a roll's dice, kept.

The camera side keeps the picture of each settled roll and the dice the reader read there
(``remember``, by the session's roll id; the last ``KEEP_PICTURES``). When the session
says what the players told it about dice of a roll (``session/taught.py``: a tap that
confirms or corrects a die, a roll accepted as read, *a die here*, *not a die*), the die's
crop is cut from that picture (``teach.learn.reader.cut_stored_crop``) and kept in the
table's store with its box, value, colour and what the reader had read there (value,
confidence and which reader version), after the roll was published and outside the
session's lock. A roll the players accepted as a whole (every die of it said) also keeps
its picture with every die's box and the boxes struck as no die (``TableStore.add_frame``,
complete): the detector learns from those. Then the background learner
(``teach.background``) is told, and starts a learning run in a child process when enough
new dice were taught.

When a run ends with versions the table now uses, the camera reads with them from the next
frame on (``Camera.use_models``; the game is not touched and the live view never waits for
the learning); a run that fails or is killed changes nothing the camera reads with. The
tablets are told the table's figures (``events.TEACH``): dice taught, the share of dice the
reader asks about now and asked with the shipped reader, whether a run is going, the
versions in use.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dicecam.reading import DieReading
from dicecam.teach.background import LEARN_EVERY, BackgroundLearner
from dicecam.teach.learn.reader import cut_stored_crop
from dicecam.teach.store import TableStore
from dicecam.webapp import events
from dicecam.webapp.session.taught import Said, TaughtDie

log = logging.getLogger(__name__)

#: pictures of the last settled rolls kept for the players' word on their dice (it comes
#: seconds after the roll settled, before the next throw or two)
KEEP_PICTURES = 4
#: a die said about is the die the reader read when their centres are this close (share of
#: the box); the session keeps the reader's boxes, so they are the same box
SAME_DIE = 0.25


@dataclass
class _Picture:
    frame: np.ndarray
    dice: tuple[DieReading, ...]  # as the reader read them
    version: str | None  # the reader version that read them (None: the shipped one)
    #: (x, y) of each die kept -> the value kept last (the store counts a die said again in
    #: its roll once, as said last)
    taught: dict[tuple[int, int], int] = field(default_factory=dict)
    struck: list[tuple[float, float, float, float]] = field(default_factory=list)  # no dice
    frame_kept: bool = False  # the whole frame was kept (a roll accepted as a whole)
    #: names the roll among everything the table keeps, across restarts: its dice are held
    #: back together when the learning checks itself
    roll: str = field(default_factory=lambda: f"{time.time():.3f}")


class TableTeacher:
    """Keeps what the players said about a table's dice and lets it learn from them."""

    def __init__(self, table: str, publish: Callable[[str, dict[str, Any]], None],
                 use_models: Callable[[Path | None, Path | None], bool], *,
                 every: int = LEARN_EVERY, steps: int | None = None) -> None:
        self.store = TableStore(table)
        self._publish = publish
        self._use_models = use_models
        #: the reader and detector versions the camera reads with (None: the shipped ones)
        self.version, self.detector = self._in_use()
        #: where the camera takes boxes for side faces (``vision/detect/side_faces.py``)
        self.side_faces = self.store.side_faces()
        self._pictures: OrderedDict[int, _Picture] = OrderedDict()
        self._lock = threading.Lock()
        self._writing = threading.Lock()
        self._publishing = threading.Lock()
        self._failed: str | None = None
        #: the last learning run that ended here: its version and whether it is used
        self._last_run: dict[str, Any] | None = None
        self.learner = BackgroundLearner(table, self._learnt, every=every, steps=steps)

    @property
    def table(self) -> str:
        return self.store.name

    def remember(self, roll_id: int, frame_bgr: np.ndarray,
                 dice: tuple[DieReading, ...]) -> None:
        """The picture a settled roll was read from, and its dice as read."""
        with self._lock:
            fresh = roll_id not in self._pictures
            self._pictures[roll_id] = _Picture(frame_bgr, dice, self.version)
            self._pictures.move_to_end(roll_id)
            while len(self._pictures) > KEEP_PICTURES:
                self._pictures.popitem(last=False)
        if fresh:  # what the table asks, counted over every die it reads
            with self._writing:
                self.store.count_read(self.version, len(dice),
                                      sum(1 for d in dice if d.needs_check))
            self.publish_status()

    def taught(self, said: list[TaughtDie]) -> int:
        """Keep the dice the players said something about (dice of a roll whose picture is
        gone, or said again with the value kept last, are passed over; a new value for a
        die replaces its earlier one); how many were kept."""
        chosen = []
        frames = []
        with self._lock:  # (the live view's remember waits only for this choice)
            for item in said:
                picture = self._pictures.get(item.roll_id)
                if picture is None:
                    continue
                die = item.die
                value = 0 if item.said is Said.NOT_A_DIE else die.value
                if value is None:
                    continue  # (the session never says a value it lacks)
                if item.said is Said.NOT_A_DIE:
                    picture.struck.append((die.x, die.y, die.w, die.h))
                key = (round(die.x), round(die.y))
                if picture.taught.get(key) == value:
                    continue
                picture.taught[key] = value
                chosen.append((picture, item.said, die, value))
            for roll_id in {i.roll_id for i in said if i.said is Said.ACCEPTED}:
                picture = self._pictures.get(roll_id)
                if picture is not None and not picture.frame_kept:
                    picture.frame_kept = True
                    accepted = [i.die for i in said
                                if i.roll_id == roll_id and i.said is Said.ACCEPTED]
                    frames.append((picture, accepted, list(picture.struck)))
        with self._writing:  # tablets' handlers run on threads of their own
            for picture, how, die, value in chosen:
                self._keep(picture, how, die, value)
            for picture, dice, struck in frames:
                values = [d.value for d in dice]
                self.store.add_frame(picture.frame, [(d.x, d.y, d.w, d.h) for d in dice],
                                     struck, complete=True, roll=picture.roll,
                                     values=None if None in values else values)
        if chosen or frames:
            self.learner.taught()
            self.publish_status()
        return len(chosen)

    def _keep(self, picture: _Picture, said: Said, die: DieReading, value: int) -> None:
        read = None if said is Said.ADDED else _read_there(picture.dice, die)
        if said is Said.NOT_A_DIE:
            how = "not_a_die"
        elif read is None:
            how = "added"
        else:
            how = "confirmed" if read.value == value else "corrected"
        height, width = picture.frame.shape[:2]
        crop = cut_stored_crop(picture.frame, die.x, die.y, die.w, die.h)
        self.store.add(crop, (die.x, die.y, die.w, die.h), (width, height), value, how,
                       colour=die.colour,
                       reader_value=None if read is None else read.value,
                       reader_confidence=None if read is None else read.value_confidence,
                       reader_version=None if read is None else picture.version,
                       roll=picture.roll)

    def status_payload(self) -> dict[str, Any]:
        """What the tablets show of the table's learning."""
        status = self.store.status()
        return {**status, "learning": self.learner.learning, "failed": self._failed,
                "last_run": self._last_run,
                "reading_with": self.version, "detecting_with": self.detector,
                "side_faces": self.side_faces is not None}

    def publish_status(self) -> None:
        # (computed and sent in one step: the handlers' threads and the learner's each
        # publish, and the tablets must be left with the latest figures)
        with self._publishing:
            self._publish(events.TEACH, self.status_payload())

    def _learnt(self, outcome: dict[str, Any]) -> None:
        """A learning run ended (on the learner's thread): read with its version where the
        table now uses it; a failed run changes nothing."""
        self._failed = outcome.get("failed")
        if self._failed is None:
            detector = outcome.get("detector") or {}
            # what the run made and what the table kept of it, for the tablet to say
            self._last_run = {"version": outcome.get("version"),
                              "used": bool(outcome.get("used") or detector.get("used")),
                              "reader_used": bool(outcome.get("used")),
                              "reader_worse_on": list(outcome.get("worse_on") or ()),
                              "detector_used": bool(detector.get("used")),
                              "detector_worse_on": list(detector.get("worse_on") or ())}
            reader, detector = (self.store.in_use(kind) for kind in ("reader", "detector"))
            versions = tuple(None if p is None else p.stem for p in (reader, detector))
            zone = self.store.side_faces()
            if versions != (self.version, self.detector) or zone != self.side_faces:
                try:
                    # (the camera also takes the table's side-face zone anew)
                    if self._use_models(reader, detector):
                        self.version, self.detector = versions
                        self.side_faces = zone
                except Exception:  # a version that cannot be loaded: keep the last good ones
                    log.exception("cannot read with %s; the table keeps reading with %s",
                                  versions, (self.version, self.detector))
        self.publish_status()

    def _in_use(self) -> tuple[str | None, str | None]:
        reader, detector = (self.store.in_use(kind) for kind in ("reader", "detector"))
        return (None if reader is None else reader.stem,
                None if detector is None else detector.stem)

    def close(self) -> None:
        self.learner.close()


def _read_there(dice: tuple[DieReading, ...], die: DieReading) -> DieReading | None:
    """The reader's reading of the die at ``die``'s box, if it read one there."""
    best, best_distance = None, SAME_DIE * max(die.w, die.h)
    for read in dice:
        distance = float(np.hypot(read.x - die.x, read.y - die.y))
        if distance <= best_distance:
            best, best_distance = read, distance
    return best
