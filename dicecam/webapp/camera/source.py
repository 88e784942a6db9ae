"""Where the live view's frames come from: the source the user chose, through the pipeline.

``choose_source`` turns ``dicecam serve``'s options into one source spec: an explicit
camera, video, stream or ``--demo``; else the first webcam if the computer has one; else
the bundled demo, so a new user sees the whole thing working at once.

A ``Camera`` is what the web app reads the table through: ``open(game)`` gives the live
outputs while that game is played, and a camera may let the demo play the game
(``direct_demo``) and take colours learnt at the table (``learns_colours``,
``use_profile``). ``TableCamera`` is the real one: for each game it opens the source again
with that game's dice set (colour profile; the demo also throws that game's dice), so
switching games switches profiles. A camera at a named table (``table``) reads with the
reader and detector that table learnt (``teach.store.TableStore.in_use``; the shipped ones
before it learnt) and its empty-table picture where one was taken, as ``teach.table`` does,
and takes newly learnt versions while it runs (``use_models``). The vision pipeline checks its
frames once and drops the unusable ones (``vision/sources/frames.py``); a source that stops (a
camera unplugged, a folder whose images all became unreadable) raises ``CameraFault``
rather than ending, so the live reader reports it lost and opens it again; an unreadable
image in a folder is skipped and named once in the server's log. ``OutputsCamera`` makes
any function of outputs a camera (tests and benches).
"""

from __future__ import annotations

import logging
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

from dicecam.calibration.profile import ColourProfile
from dicecam.scorer.descriptor import GameDescriptor
from dicecam.scorer.registry import get_game
from dicecam.teach.store import TableStore
from dicecam.teach.table import table_config
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.detector import MODEL_PATH as SHIPPED_DETECTOR
from dicecam.vision.factory import make_detector, make_reader, pipeline_from
from dicecam.vision.pipeline import PipelineOutput, TablePipeline, iter_outputs
from dicecam.vision.sources.demo import DEFAULT_DICE_SET, DICE_PER_ROLL, Director
from dicecam.vision.sources.frames import CameraFault
from dicecam.vision.sources.source_spec import open_source
from dicecam.webapp.camera.live import LiveOutput

log = logging.getLogger(__name__)

DEMO = "demo"
LIVE_PREFIXES = ("camera:", "http://", "https://", "rtsp://")

#: game name (or None when no game runs) -> the live outputs to show for it
OpenOutputs = Callable[[str | None], Iterable[LiveOutput]]
#: (source, dice set, on_error[, director=, dice_per_roll= for the demo]) -> the frames
OpenFrames = Callable[..., Iterable[Any]]
#: game name -> the director of one opening of the demo for that game (the demo opened
#: for a game asks it what to throw; ``session.demo_table.DemoDirector.opening``)
DirectorFor = Callable[[str], Director]


#: (dice set, zones[, empty table][, reader_path=, detector_path=]) -> the table reader
#: a table reader from its configuration (tests stand their own readers in)
MakePipeline = Callable[[PipelineConfig], TablePipeline]


def camera_present(index: int = 0) -> bool:
    """Whether webcam ``index`` exists, cheaply (no camera is opened on Linux)."""
    if sys.platform.startswith("linux"):
        return Path(f"/dev/video{index}").exists()
    capture = cv2.VideoCapture(index)
    try:
        return bool(capture.isOpened())
    finally:
        capture.release()


def choose_source(
    *,
    camera: int | None = None,
    video: str | None = None,
    stream: str | None = None,
    demo: bool = False,
    probe: Callable[[int], bool] = camera_present,
) -> str:
    if demo:
        return DEMO
    if camera is not None:
        return f"camera:{camera}"
    if video is not None:
        return video
    if stream is not None:
        return stream
    return "camera:0" if probe(0) else DEMO


def is_live(source: str) -> bool:
    """A camera or a stream: it never ends by itself, so an end means it was lost."""
    return source.startswith(LIVE_PREFIXES)


def open_frames(source: str, dice_set: str, on_error: Callable[[Exception], None],
                director: Director | None = None, dice_per_roll: int = DICE_PER_ROLL) -> Any:
    """The frame source for ``source`` (files and the demo loop, as a camera would; the
    demo throws ``dice_per_roll`` dice, or plays the game when a ``director`` says what to
    throw)."""
    return open_source(source, dice_set=dice_set, dice_per_roll=dice_per_roll,
                       loop=not is_live(source), on_error=on_error, director=director)


def make_pipeline(config: PipelineConfig) -> TablePipeline:
    return pipeline_from(config)


class Camera(ABC):
    """What the web app reads the table through.

    ``open(game)`` gives the live outputs (anything with ``frame_bgr``, ``reading``,
    ``settled``) while ``game`` (None: no game) is played; it is opened again at each game
    switch and after a fault. The rest is what a camera may offer beside them, and the
    base offers none of it."""

    #: whether a roll the players confirm should teach this table's colours (a real table
    #: does; the demo's drawn dice and a recorded video must not become the colours the
    #: next real game is read with)
    learns_colours: bool = False
    #: the table whose dice this camera sees and learns (None: it learns none)
    table: str | None = None

    @abstractmethod
    def open(self, game: str | None) -> Iterable[LiveOutput]:
        """The live outputs for ``game``."""

    def direct_demo(self, director_for: DirectorFor) -> bool:
        """Let the demo play the game, each opening asking the director ``director_for``
        makes for its game: True when this camera is the demo and takes it."""
        return False

    def use_profile(self, profile: ColourProfile) -> bool:
        """Read colours with ``profile`` from the next frame on (True when it is taken)."""
        return False

    def expect_dice(self, count: Callable[[], int | None]) -> bool:
        """Ask ``count`` how many dice the game waits to see thrown each time a roll
        settles, so that a roll of fewer is looked at again for the missing ones (True
        when taken)."""
        return False

    def use_models(self, reader: Path | None, detector: Path | None) -> bool:
        """Read with the die reader and detector at these paths (None: the shipped ones)
        from the next frame on (True when they are taken)."""
        return False


class OutputsCamera(Camera):
    """Any function of outputs as a camera (tests and benches): no demo, nothing learnt."""

    def __init__(self, open_outputs: OpenOutputs) -> None:
        self._open_outputs = open_outputs

    def open(self, game: str | None) -> Iterable[LiveOutput]:
        return self._open_outputs(game)


class TableCamera(Camera):
    """``source`` (a ``choose_source`` spec) read through the table reader, per game.

    ``frames`` opens the frame source and ``pipeline`` builds the table reader; tests pass
    their own (a source that fails on cue, a reader that needs no model). ``table`` names
    the table it reads at: its learnt reader and (unless ``empty_table`` names another)
    its empty-table picture."""

    def __init__(self, source: str, *, zones: str | None = None,
                 empty_table: str | None = None, realtime: bool = True,
                 frames: OpenFrames = open_frames,
                 pipeline: MakePipeline = make_pipeline, table: str | None = None) -> None:
        self.source = source
        self.table = table
        self.learns_colours = is_live(source)
        self._zones = zones
        self._empty_table = empty_table
        self._realtime = realtime
        self._frames = frames
        self._make_pipeline = pipeline
        self._reported: set[str] = set()
        self._director_for: DirectorFor | None = None
        self._dice_due: Callable[[], int | None] | None = None
        #: the table reader now reading, and its dice set
        self._running: tuple[TablePipeline, str] | None = None

    def open(self, game: str | None) -> Iterator[PipelineOutput]:
        descriptor = None if game is None else get_game(game)
        dice_set = DEFAULT_DICE_SET if descriptor is None else descriptor.dice_set
        opened = self._open_frames(descriptor, dice_set)
        try:
            reader = self._make_pipeline(self.pipeline_config(dice_set))
            reader.expected_dice = self._dice_due
            self._running = (reader, dice_set)
            yield from iter_outputs(opened, reader, realtime=self._realtime,
                                    on_bad_frame=self._drop_frame)
        finally:
            close = getattr(opened, "close", None)
            if close is not None:
                close()
        # files and the demo play in a loop, a camera for ever: an end is always a fault
        if is_live(self.source):
            raise CameraFault("the camera stopped sending pictures (unplugged?)")
        raise CameraFault(f"no picture of {self.source} can be read now")

    def pipeline_config(self, dice_set: str) -> PipelineConfig:
        """How this camera's table is read for ``dice_set``: as ``dicecam read`` reads it
        (at a taught table, with the models it uses now and its empty table)."""
        if self.table is not None:
            return table_config(self.table, dice_set=dice_set, zones=self._zones,
                                empty_table=self._empty_table)
        return PipelineConfig(dice_set, zones=self._zones, empty_table=self._empty_table)

    def _open_frames(self, game: GameDescriptor | None, dice_set: str) -> Iterable[Any]:
        if self.source != DEMO or game is None:  # (with no game the demo rolls its own dice)
            return self._frames(self.source, dice_set, self._skip_image)
        # the demo throws the game's dice: it plays a game that says what it waits to see
        # thrown or the table it is read from (asking a director made for this opening),
        # and rolls the others' dice by itself
        plays = game.throw_due is not None or game.table_due is not None
        director = None if not plays or self._director_for is None \
            else self._director_for(game.name)
        return self._frames(self.source, dice_set, self._skip_image, director=director,
                            dice_per_roll=game.demo_dice_per_roll)

    def direct_demo(self, director_for: DirectorFor) -> bool:
        """Let the demo play the game (True when the source is the demo)."""
        self._director_for = director_for
        return self.source == DEMO

    def expect_dice(self, count: Callable[[], int | None]) -> bool:
        """Tell each table reader this camera opens how many dice the game waits for."""
        self._dice_due = count
        running = self._running
        if running is not None:
            running[0].expected_dice = count
        return True

    def use_profile(self, profile: ColourProfile) -> bool:
        """Read colours with ``profile`` from the next frame on, when the reader now
        running reads its dice set (True when it does)."""
        if self._running is None:
            return False
        reader, dice_set = self._running
        if dice_set != profile.name or reader.read_colours is None:
            return False
        reader.read_colours = ColourReader(profile).read_scores
        return True

    def use_models(self, reader: Path | None, detector: Path | None) -> bool:
        """Read with the die reader and detector at these paths (versions the table
        learnt; None: the shipped ones) from the next frame on, without reopening the
        source: the models are loaded here, on the caller's thread, and the running
        pipeline's stages are swapped each in one step (True when a pipeline is running to
        take them; the next opening reads the table's versions in use anyway)."""
        running = self._running
        if running is None:
            return False
        pipeline = running[0]
        config = replace(pipeline.config or PipelineConfig(running[1]),
                         taught_reader_path=reader, detector_path=detector,
                         coarse_detector_path=SHIPPED_DETECTOR)
        if self.table is not None:  # learnt with the models
            config = replace(config, side_faces=TableStore(self.table).side_faces())
        read_values = make_reader(config).read
        detect = make_detector(config)
        pipeline.read_values = read_values
        pipeline.detect = detect
        pipeline.side_faces = config.side_faces
        pipeline.config = config
        return True

    def _skip_image(self, error: Exception) -> None:
        if str(error) not in self._reported:  # a folder plays in a loop: name each once
            self._reported.add(str(error))
            log.warning("skipping an unreadable picture: %s", error)

    def _drop_frame(self, problem: str) -> None:
        if problem not in self._reported:  # a camera may send thousands: name each kind once
            self._reported.add(problem)
            log.warning("dropping unusable pictures from %s: %s", self.source, problem)
