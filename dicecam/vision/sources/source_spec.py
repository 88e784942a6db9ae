"""Open a frame source from what a user typed.

``open_source(spec)`` understands:

- ``"demo"``: rendered frames of dice being rolled and settling (no camera, no files);
- ``"camera:N"`` or an int ``N``: the N-th webcam;
- a video file (``.mp4``, ``.avi``, ...);
- an image file, or a folder of images (read in name order);
- an ``http://``, ``https://`` or ``rtsp://`` URL (MJPEG or RTSP streams of phone camera apps).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dicecam.errors import InputError
from dicecam.vision.sources.demo import DEFAULT_DICE_SET, DICE_PER_ROLL, DemoSource, Director
from dicecam.vision.sources.frame_sources import (
    IMAGE_SUFFIXES,
    STREAM_SCHEMES,
    VIDEO_SUFFIXES,
    CaptureSource,
    FrameSource,
    ImageFilesSource,
    camera_source,
    list_images,
)


def open_source(
    spec: str | int | Path,
    *,
    dice_set: str = DEFAULT_DICE_SET,
    dice_per_roll: int = DICE_PER_ROLL,
    loop: bool = False,
    on_error: Callable[[InputError], None] | None = None,
    director: Director | None = None,
) -> FrameSource:
    """Open a frame source from a user's spec (see the module docstring for the forms).

    ``dice_set`` and ``dice_per_roll`` choose the dice of the demo source (a game's own, when
    the web app opens it for one); ``loop`` replays files and the demo forever (for the web
    app's kiosk mode). Raises InputError with a sentence when the spec names nothing usable.
    """
    if isinstance(spec, bool):
        raise InputError(f"frame source must be a camera index, a path or a URL, got {spec!r}")
    if isinstance(spec, int):
        return camera_source(spec)
    text = str(spec).strip()
    if not text:
        raise InputError("frame source is empty: give demo, camera:0, a file, a folder or a URL")
    if text == "demo":
        return DemoSource(dice_set, dice_per_roll=dice_per_roll, loop=loop, director=director)
    if text.startswith("camera:") or text.isdigit():
        index_text = text.removeprefix("camera:")
        if not index_text.isdigit():
            raise InputError(f"camera index must be a whole number, as in camera:0; got {text!r}")
        return camera_source(int(index_text))
    if text.lower().startswith(STREAM_SCHEMES):
        return CaptureSource(text, name=text, live=True)
    path = Path(text).expanduser()
    if path.is_dir():
        images = list_images(path)
        if not images:
            raise InputError(f"{path}: this folder holds no images ({', '.join(IMAGE_SUFFIXES)})")
        return ImageFilesSource(images, name=str(path), loop=loop, on_error=on_error)
    if not path.exists():
        raise InputError(
            f"{text}: no such file or folder; a source is demo, camera:N, a video file, "
            f"an image file, a folder of images or an http(s)/rtsp URL"
        )
    suffix = path.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        return ImageFilesSource([path], name=str(path), loop=loop, on_error=on_error)
    if suffix in VIDEO_SUFFIXES:
        return CaptureSource(str(path), name=str(path), live=False, loop=loop)
    raise InputError(
        f"{path}: unknown file type {suffix or '(none)'}; use an image "
        f"({', '.join(IMAGE_SUFFIXES)}) or a video ({', '.join(VIDEO_SUFFIXES)})"
    )


