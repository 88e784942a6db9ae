"""A table's folder, and the picture of the empty table saved by ``dicecam calibrate table``.

Everything dicecam keeps about one table lives in ``$DICECAM_HOME/tables/NAME/``: the
picture of the empty table (``empty.png``: a frame with no dice on the table, as the camera
sees it; ``dicecam/vision/detect/empty_table.py`` compares detections with it) and what the table
learnt from its players (``dicecam/teach/``). A picture saved by an earlier version as
``tables/NAME.png`` is still found; a path may be given instead of a name.
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


#: the empty table's picture in a table's folder
PICTURE = "empty.png"


def table_dir(name: str) -> Path:
    """The folder of the table ``name`` (not made here)."""
    if not _NAME.match(name):
        raise InputError(f"table name {name!r}: use letters, digits, '-', '_' or '.'")
    return tables_dir() / name


def table_picture_path(name_or_path: str | os.PathLike[str]) -> Path:
    if looks_like_path(name_or_path):
        return Path(name_or_path).expanduser()
    path = table_dir(str(name_or_path)) / PICTURE
    legacy = tables_dir() / f"{name_or_path}.png"
    return legacy if not path.is_file() and legacy.is_file() else path


def save_table_picture(frame_bgr: np.ndarray, name_or_path: str | os.PathLike[str]) -> Path:
    target = table_picture_path(name_or_path)
    if not looks_like_path(name_or_path):
        target = table_dir(str(name_or_path)) / PICTURE  # never over an earlier layout's
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
    """The tables with a picture of their empty table."""
    folder = tables_dir()
    current = {p.parent.name for p in folder.glob(f"*/{PICTURE}")} if folder.is_dir() else set()
    return tuple(sorted(current | set(saved_names(folder, ".png"))))
