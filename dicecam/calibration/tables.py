"""Pictures of the empty table: saved by ``dicecam calibrate table``, one per name.

A picture is an image file of a frame with no dice on the table, as the camera sees it
(``dicecam/vision/empty_table.py`` compares detections with it). Saved as PNG under
``$DICECAM_HOME/tables/NAME.png``; a path may be given instead of a name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import cv2
import numpy as np

from dicecam.errors import InputError
from dicecam.paths import looks_like_path, saved_names, tables_dir

#: the picture ``dicecam serve`` uses by itself with a camera, when one was saved
DEFAULT_TABLE = "default"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def table_picture_path(name_or_path: str | os.PathLike[str]) -> Path:
    if looks_like_path(name_or_path):
        return Path(name_or_path).expanduser()
    name = str(name_or_path)
    if not _NAME.match(name):
        raise InputError(f"table name {name!r}: use letters, digits, '-', '_' or '.'")
    return tables_dir() / f"{name}.png"


def save_table_picture(frame_bgr: np.ndarray, name_or_path: str | os.PathLike[str]) -> Path:
    target = table_picture_path(name_or_path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        ok = cv2.imwrite(str(target), frame_bgr)
    except (OSError, cv2.error) as exc:
        raise InputError(f"cannot save the table picture to {target}: {exc}") from None
    if not ok:
        raise InputError(f"cannot save the table picture to {target}")
    return target


def load_table_picture(name_or_path: str | os.PathLike[str]) -> np.ndarray:
    path = table_picture_path(name_or_path)
    if not path.is_file():
        raise InputError(f"no picture of the empty table at {path}: take one with "
                         "`dicecam calibrate table --source ...`")
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise InputError(f"{path} is not a readable picture")
    return frame


def saved_table_names() -> tuple[str, ...]:
    return saved_names(tables_dir(), ".png")
