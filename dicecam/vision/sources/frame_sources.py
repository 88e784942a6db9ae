"""Frame sources: every place a frame can come from, as a plain iterator of BGR images.

Cameras, streams, video files and image files here; the rendered demo table in
``dicecam.vision.sources.demo``; ``dicecam.vision.sources.source_spec.open_source`` opens
any of them from a user's spec ("demo", "camera:0", a path, a URL).

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

import cv2
import numpy as np

from dicecam.errors import InputError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
#: Photo files OpenCV cannot decode that cameras and phones write (an iPhone's HEIC, raw
#: files): a folder's such files are named to the user, not passed over in silence.
UNREADABLE_PHOTO_SUFFIXES = (".heic", ".heif", ".avif", ".dng", ".cr2", ".cr3", ".nef",
                             ".arw", ".orf", ".rw2", ".raf")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mov", ".mkv", ".webm", ".m4v", ".mpg", ".mpeg")
STREAM_SCHEMES = ("http://", "https://", "rtsp://")


def read_image(path: str | Path) -> np.ndarray:
    """Read one image file as BGR uint8, or raise InputError saying why it cannot be used."""

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


def list_unreadable_photos(folder: str | Path) -> list[Path]:
    """The photo files directly inside ``folder`` that cannot be read (HEIC, raw), in name
    order."""
    return sorted(p for p in Path(folder).iterdir()
                  if p.is_file() and p.suffix.lower() in UNREADABLE_PHOTO_SUFFIXES)


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


def camera_source(index: int) -> CaptureSource:
    if index < 0:
        raise InputError(f"camera index must be 0 or more, got {index}")
    return CaptureSource(index, name=f"camera:{index}", live=True)
