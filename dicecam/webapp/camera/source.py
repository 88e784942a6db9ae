"""Where the live view's frames come from: the source the user chose, through the pipeline.

``choose_source`` turns ``dicecam serve``'s options into one source spec: an explicit
camera, video, stream or ``--demo``; else the first webcam if the computer has one; else
the bundled demo, so a new user sees the whole thing working at once.
``pipeline_outputs`` makes the web app's outputs factory: for each game it opens the source
again with that game's dice set (colour profile), so switching games switches profiles.
Unusable frames are dropped before the table reader sees them (``webapp/frames.py``); a
source that stops (a camera unplugged, a folder whose images all became unreadable) raises
``CameraFault`` rather than ending, so the live reader reports it lost and opens it again;
an unreadable image in a folder is skipped and named once in the server's log.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import cv2

from dicecam.calibration.profile import ColourProfile
from dicecam.scorer.registry import get_game
from dicecam.vision.colour import ColourReader
from dicecam.vision.demo import Director
from dicecam.vision.frames import CameraFault, CheckedFrames
from dicecam.vision.pipeline import build_pipeline, iter_outputs
from dicecam.vision.source_spec import open_source

log = logging.getLogger(__name__)

DEMO = "demo"
LIVE_PREFIXES = ("camera:", "http://", "https://", "rtsp://")
#: the dice set the demo shows before any game is chosen
DEFAULT_DICE_SET = "diceparty"


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
                director: Director | None = None) -> Any:
    """The frame source for ``source`` (files and the demo loop, as a camera would; the
    demo plays the game when a ``director`` says what to throw)."""
    return open_source(source, dice_set=dice_set, loop=not is_live(source), on_error=on_error,
                       director=director)


def make_pipeline(dice_set: str, zones: str | None, empty_table: str | None = None) -> Any:
    return build_pipeline(dice_set, zones=zones, empty_table=empty_table)


def pipeline_outputs(
    source: str, *, zones: str | None = None, empty_table: str | None = None,
    realtime: bool = True,
    frames: Callable[[str, str, Callable[[Exception], None]], Any] = open_frames,
    pipeline: Callable[..., Any] = make_pipeline,
) -> Callable[[str | None], Iterable[Any]]:
    """The outputs factory for ``create_app(OUTPUTS=...)``: source -> pipeline, per game.

    ``frames`` opens the frame source and ``pipeline`` builds the table reader; tests pass
    their own (a source that fails on cue, a reader that needs no model)."""
    reported: set[str] = set()
    demo: dict[str, Director] = {}
    running: dict[str, Any] = {}  # the table reader now reading, and its dice set

    def skip_image(error: Exception) -> None:
        if str(error) not in reported:  # a folder plays in a loop: name each bad file once
            reported.add(str(error))
            log.warning("skipping an unreadable picture: %s", error)

    def drop_frame(problem: str) -> None:
        if problem not in reported:  # a camera may send thousands: name each kind once
            reported.add(problem)
            log.warning("dropping unusable pictures from %s: %s", source, problem)

    def open_for(game: str | None) -> Iterator[Any]:
        dice_set = game or DEFAULT_DICE_SET
        # the demo plays a game that says what it waits to see thrown; others it rolls
        plays = source == DEMO and game is not None and get_game(game).throw_due is not None
        director = demo.get("director") if plays else None
        opened = (frames(source, dice_set, skip_image, director=director) if director
                  else frames(source, dice_set, skip_image))
        try:
            checked = CheckedFrames(opened, on_bad=drop_frame)
            # (the third argument only when given: test readers take two)
            reader = pipeline(dice_set, zones, empty_table) if empty_table is not None \
                else pipeline(dice_set, zones)
            running.update(reader=reader, dice_set=dice_set)
            yield from iter_outputs(checked, reader, dice_set=dice_set, realtime=realtime)
        finally:
            close = getattr(opened, "close", None)
            if close is not None:
                close()
        # files and the demo play in a loop, a camera for ever: an end is always a fault
        if is_live(source):
            raise CameraFault("the camera stopped sending pictures (unplugged?)")
        raise CameraFault(f"no picture of {source} can be read now")

    def direct_demo(director: Director) -> bool:
        """Let the demo play the game (True when the source is the demo)."""
        demo["director"] = director
        return source == DEMO

    def use_profile(profile: ColourProfile) -> bool:
        """Read colours with ``profile`` from the next frame on, when the reader now
        running reads its dice set (True when it does)."""
        reader = running.get("reader")
        if reader is None or running.get("dice_set") != profile.name \
                or getattr(reader, "read_colours", None) is None:
            return False
        reader.read_colours = ColourReader(profile).read_scores
        return True

    open_for.direct_demo = direct_demo  # type: ignore[attr-defined]
    open_for.use_profile = use_profile  # type: ignore[attr-defined]
    # a real table teaches its colours; the demo's drawn dice and a recorded video must not
    # become the colours the next real game is read with
    open_for.learns_colours = is_live(source)  # type: ignore[attr-defined]
    return open_for
