"""Where dicecam keeps a user's data: colour profiles, zone maps and the games database.

All of it lives under one data folder so it travels together and the web app and the
command line find the same files. ``DICECAM_HOME`` overrides the folder (tests, several tables on
one machine); otherwise the XDG data folder is used (``~/.local/share/dicecam``).
"""

from __future__ import annotations

import os
from pathlib import Path


def dicecam_home() -> Path:
    override = os.environ.get("DICECAM_HOME")
    if override:
        return Path(override).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "dicecam"


def profiles_dir() -> Path:
    return dicecam_home() / "profiles"


def zones_dir() -> Path:
    return dicecam_home() / "zones"


def tables_dir() -> Path:
    """Pictures of the table without dice (``dicecam calibrate table``)."""
    return dicecam_home() / "tables"


def games_db_path() -> Path:
    """The SQLite file of the table's games (``dicecam serve --db`` names another)."""
    return dicecam_home() / "games.sqlite"


def saved_names(folder: Path, suffix: str = ".json") -> tuple[str, ...]:
    """The names things were saved under in one of the data folders (their file stems),
    sorted; none when the folder was never made."""
    if not folder.is_dir():
        return ()
    return tuple(sorted(p.stem for p in folder.glob(f"*{suffix}")))


def looks_like_path(name_or_path: str | os.PathLike[str]) -> bool:
    """A name is a bare word; anything with a folder separator or a .json suffix is a file."""
    text = os.fspath(name_or_path)
    return isinstance(name_or_path, os.PathLike) or "/" in text or "\\" in text or (
        text.endswith(".json")
    )
