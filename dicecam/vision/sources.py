"""Frame sources: every place a frame can come from, as a plain iterator of BGR images.

``open_source(spec)`` understands:

- ``"demo"``: rendered frames of dice being rolled and settling (no camera, no files);
- ``"camera:N"`` or an int ``N``: the N-th webcam;
- a video file (``.mp4``, ``.avi``, ...);
- an image file, or a folder of images (read in name order);
- an ``http://``, ``https://`` or ``rtsp://`` URL (MJPEG or RTSP streams of phone camera apps).

Every source yields ``numpy`` arrays of shape (H, W, 3), dtype uint8, BGR. ``source.fps`` is
the nominal frame rate used for timestamps of recorded sources; ``source.live`` is True for
cameras and streams, whose timestamps come from the wall clock instead.
An image that cannot be decoded raises ``InputError`` naming that image from
``read_image``; an image folder reports it through ``on_error`` and goes on with the next.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from dicecam.errors import InputError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg")
STREAM_SCHEMES = ("http://", "https://", "rtsp://")


def read_image(path: str | Path) -> np.ndarray:
    """Read one image file as BGR uint8, or raise InputError saying why it cannot be used."""
    import cv2

    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such image file")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise InputError(
            f"{path}: cannot decode this image (corrupt or not an image); "
            f"use a JPEG, PNG, BMP, WebP or TIFF file"
        )
    return image


def list_images(folder: str | Path) -> list[Path]:
    """The image files directly inside ``folder``, in name order."""
    folder = Path(folder)
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def _warn(message: str) -> None:
    print(f"dicecam: {message}", file=sys.stderr)


class FrameSource:
    """Base class: an iterator of BGR frames that can be closed (also as a context manager)."""

    name: str = "source"
    fps: float = 30.0
    live: bool = False

    def __iter__(self) -> Iterator[np.ndarray]:
        return self.frames()

    def frames(self) -> Iterator[np.ndarray]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file; iterating after close() yields nothing."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ImageFilesSource(FrameSource):
    """A fixed list of image files, e.g. one file or the images of a folder."""

    def __init__(
        self,
        paths: list[Path],
        *,
        name: str,
        fps: float = 1.0,
        loop: bool = False,
        on_error: Callable[[InputError], None] | None = None,
    ) -> None:
        self.paths = list(paths)
        self.name = name
        self.fps = fps
        self.loop = loop
        self.on_error = on_error or (lambda exc: _warn(str(exc)))
        self.current_path: Path | None = None

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            good = 0
            for path in self.paths:
                try:
                    image = read_image(path)
                except InputError as exc:
                    self.on_error(exc)
                    continue
                good += 1
                self.current_path = path
                yield image
            if not self.loop or good == 0:
                return


class CaptureSource(FrameSource):
    """Anything OpenCV's VideoCapture opens: a webcam, a video file, an MJPEG/RTSP stream."""

    def __init__(self, target: int | str, *, name: str, live: bool, loop: bool = False) -> None:
        import cv2

        self.name = name
        self.live = live
        self.loop = loop and not live
        self._target = target
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            self._capture.release()
            if isinstance(target, int):
                raise InputError(
                    f"cannot open camera {target}: is it plugged in and not used by another "
                    f"program? Try another index (camera:1) or a video file"
                )
            raise InputError(
                f"cannot open {target}: check the path or address (for a phone camera app, "
                f"use the MJPEG or RTSP address it shows)"
            )
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 240.0 else 30.0

    def frames(self) -> Iterator[np.ndarray]:
        import cv2

        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok or image is None:
                if self.loop and self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0):
                    ok, image = self._capture.read()
                if not ok or image is None:
                    return
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            elif image.shape[2] == 4:
                image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
            yield image

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def open_source(
    spec: str | int | Path,
    *,
    dice_set: str = "diceparty",
    loop: bool = False,
    on_error: Callable[[InputError], None] | None = None,
) -> FrameSource:
    """Open a frame source from a user's spec (see the module docstring for the forms).

    ``dice_set`` chooses the dice of the demo source; ``loop`` replays files and the demo
    forever (for the web app's kiosk mode). Raises InputError with a sentence when the spec
    names nothing usable.
    """
    if isinstance(spec, bool):
        raise InputError(f"frame source must be a camera index, a path or a URL, got {spec!r}")
    if isinstance(spec, int):
        return _camera(spec)
    text = str(spec).strip()
    if not text:
        raise InputError("frame source is empty: give demo, camera:0, a file, a folder or a URL")
    if text == "demo":
        from dicecam.demo.sequence import DemoSource

        return DemoSource(dice_set=dice_set, loop=loop)
    if text.startswith("camera:") or text.isdigit():
        index_text = text.removeprefix("camera:")
        if not index_text.isdigit():
            raise InputError(f"camera index must be a whole number, as in camera:0; got {text!r}")
        return _camera(int(index_text))
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


def _camera(index: int) -> CaptureSource:
    if index < 0:
        raise InputError(f"camera index must be 0 or more, got {index}")
    return CaptureSource(index, name=f"camera:{index}", live=True)
