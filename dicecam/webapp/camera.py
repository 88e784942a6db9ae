"""Where the live view's frames come from: the source the user chose, through the pipeline.

``choose_source`` turns ``dicecam serve``'s options into one source spec: an explicit
camera, video, stream or ``--demo``; else the first webcam if the computer has one; else
the bundled demo, so a new user sees the whole thing working at once.
``pipeline_outputs`` makes the web app's outputs factory: for each game it opens the source
again with that game's dice set (colour profile), so switching games switches profiles.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

DEMO = "demo"
#: the dice set the demo shows before any game is chosen
DEFAULT_DICE_SET = "diceparty"


def camera_present(index: int = 0) -> bool:
    """Whether webcam ``index`` exists, cheaply (no camera is opened on Linux)."""
    if sys.platform.startswith("linux"):
        return Path(f"/dev/video{index}").exists()
    import cv2

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


def pipeline_outputs(
    source: str, *, zones: str | None = None, realtime: bool = True
) -> Callable[[str | None], Iterable[Any]]:
    """The outputs factory for ``create_app(OUTPUTS=...)``: source -> pipeline, per game."""

    def open_for(game: str | None) -> Iterator[Any]:
        from dicecam.vision.pipeline import build_pipeline, iter_outputs

        dice_set = game or DEFAULT_DICE_SET
        pipeline = build_pipeline(dice_set, zones=zones)
        # the demo and video files play on forever at their own pace, as a camera would
        yield from iter_outputs(source, pipeline, dice_set=dice_set, realtime=realtime,
                                loop=not source.startswith(("camera:", "http", "rtsp")))

    return open_for
