"""Zone maps: named polygons in frame pixels that say where on the table each die lies.

A zone map is made of printed boards placed by their four corners (the board's layout,
``boards/*.json``, is carried into the frame by a homography) and of polygons drawn by
hand (Dice Party's party areas). It is saved as JSON under the zones folder and validated
on load. Zone names are what the game adapters read:

- Dicetopia city map: the districts ``the_agency``, ``the_gugu_airforce``,
  ``waste_management``, ``twilight_congress``, ``observatory_bank``, ``nethal_syndicate``;
- Dicetopia faction board placed with label L: ``faction:L``;
- Dice Party: one drawn zone per player, by convention ``party:NAME``.

``zone_of(x, y)`` answers the first zone (board zones first, in the order the boards were
placed, then drawn zones) whose polygon holds the point, or None.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from dicecam.calibration.homography import (
    CORNER_ORDER,
    apply_homography,
    check_corners,
    homography,
)
from dicecam.calibration.profile import check_name
from dicecam.errors import InputError
from dicecam.jsoncheck import (
    parse_json,
    reject_unknown_keys,
    require_int,
    require_list,
    require_number,
    require_object,
    require_str,
)
from dicecam.paths import looks_like_path, saved_names, zones_dir

MAP_FORMAT = "dicecam-zone-map"
BOARD_FORMAT = "dicecam-board"
VERSION = 1
BOARDS_PACKAGE = "dicecam.calibration.boards"
#: How far (as a share of the frame's size) a corner or vertex may stray outside the frame:
#: a click on the frame's very edge lands a pixel or two off.
EDGE_TOLERANCE = 0.02

Point = tuple[float, float]


# ------------------------------------------------------------------------ board layouts


@dataclass(frozen=True)
class BoardZone:
    name: str  # may hold "{label}", filled in when the board is placed
    polygon: tuple[Point, ...]  # board units
    fields: tuple[Point, ...] = ()  # centres of the dice fields, board units


@dataclass(frozen=True)
class BoardLayout:
    """A printed board's zones in its own units; (0, 0) is its top-left corner."""

    name: str
    description: str
    size: tuple[float, float]
    field_size: float
    zones: tuple[BoardZone, ...]

    @property
    def needs_label(self) -> bool:
        return any("{label}" in z.name for z in self.zones)

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        w, h = self.size
        return ((0.0, 0.0), (w, 0.0), (w, h), (0.0, h))


def board_names() -> tuple[str, ...]:
    folder = resources.files(BOARDS_PACKAGE)
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


def load_board(name_or_path: str | os.PathLike[str]) -> BoardLayout:
    """A board layout by built-in name or JSON file path."""
    if looks_like_path(name_or_path):
        path = Path(name_or_path).expanduser()
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read board layout {path}: {exc}") from None
        return board_from_json(parse_json(text, f"board layout {path}"), f"board {path.name}")
    name = str(name_or_path)
    if name not in board_names():
        raise InputError(
            f"unknown board {name!r}; known boards are {', '.join(board_names())} "
            "(or give the path of a board layout .json file)"
        )
    text = resources.files(BOARDS_PACKAGE).joinpath(f"{name}.json").read_text("utf-8")
    return board_from_json(parse_json(text, f"board {name}"), f"board {name}")


def board_from_json(data: Any, where: str) -> BoardLayout:
    obj = require_object(data, where)
    reject_unknown_keys(
        obj, where, ("format", "version", "name", "description", "size", "field_size", "zones")
    )
    if obj.get("format") != BOARD_FORMAT:
        raise InputError(f"{where}.format must be {BOARD_FORMAT!r}; is this a board layout?")
    require_int(obj.get("version"), f"{where}.version", 1, VERSION)
    size_items = require_list(obj.get("size"), f"{where}.size", min_len=2, max_len=2)
    size = (
        require_number(size_items[0], f"{where}.size[0]", 1e-3),
        require_number(size_items[1], f"{where}.size[1]", 1e-3),
    )
    zones = []
    for i, item in enumerate(require_list(obj.get("zones"), f"{where}.zones", min_len=1)):
        w = f"{where}.zones[{i}]"
        z = require_object(item, w)
        reject_unknown_keys(z, w, ("name", "polygon", "fields"))
        polygon = _polygon(z.get("polygon"), f"{w}.polygon")
        for k, (x, y) in enumerate(polygon):
            if not (-1e-6 <= x <= size[0] + 1e-6 and -1e-6 <= y <= size[1] + 1e-6):
                raise InputError(f"{w}.polygon[{k}] lies outside the board's size {size}")
        fields = tuple(
            _point(p, f"{w}.fields[{k}]") for k, p in enumerate(require_list(z.get("fields", []),
                                                                             f"{w}.fields"))
        )
        zones.append(BoardZone(require_str(z.get("name"), f"{w}.name", max_len=80), polygon,
                               fields))
    return BoardLayout(
        name=require_str(obj.get("name"), f"{where}.name"),
        description=require_str(obj.get("description", ""), f"{where}.description",
                                max_len=2000),
        size=size,
        field_size=require_number(obj.get("field_size", 1.0), f"{where}.field_size", 1e-3),
        zones=tuple(zones),
    )


# ---------------------------------------------------------------------------- zone maps


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[Point, ...]  # frame pixels

    def contains(self, x: float, y: float) -> bool:
        return _inside(self.polygon, x, y)


@dataclass(frozen=True)
class PlacedBoard:
    """A board layout placed in the frame by its four corners (in CORNER_ORDER)."""

    board: str
    corners: tuple[Point, Point, Point, Point]
    label: str = ""

    def layout(self) -> BoardLayout:
        return load_board(self.board)

    def matrix(self, layout: BoardLayout | None = None) -> np.ndarray:
        layout = layout or self.layout()
        return homography(layout.corners, self.corners)

    def zones(self) -> tuple[Zone, ...]:
        layout = self.layout()
        if layout.needs_label and not self.label:
            raise InputError(
                f"board {layout.name} needs a label (the player it belongs to), as in "
                f"{layout.name}:anna; its zones are named "
                + ", ".join(z.name.replace("{label}", "LABEL") for z in layout.zones)
            )
        matrix = self.matrix(layout)
        out = []
        for z in layout.zones:
            frame_poly = apply_homography(matrix, z.polygon)
            out.append(
                Zone(z.name.replace("{label}", self.label),
                     tuple((float(x), float(y)) for x, y in frame_poly))
            )
        return tuple(out)

    def fields(self) -> dict[str, tuple[Point, ...]]:
        """Centres of each zone's dice fields in frame pixels (for drawing and benches)."""
        layout = self.layout()
        matrix = self.matrix(layout)
        return {
            z.name.replace("{label}", self.label): tuple(
                (float(x), float(y)) for x, y in apply_homography(matrix, z.fields)
            )
            for z in layout.zones
            if z.fields
        }


@dataclass(frozen=True)
class ZoneMap:
    """Named zones in the pixels of a ``width`` x ``height`` frame."""

    name: str
    width: int
    height: int
    boards: tuple[PlacedBoard, ...] = ()
    drawn: tuple[Zone, ...] = ()

    def __post_init__(self) -> None:
        check_name(self.name, "zone map name")
        if self.width <= 0 or self.height <= 0:
            raise InputError(
                f"zone map frame size must be positive, got {self.width}x{self.height}"
            )
        if not self.boards and not self.drawn:
            raise InputError("a zone map needs at least one board or drawn zone")
        for i, b in enumerate(self.boards):
            where = f"board {i + 1} ({b.board})"
            check_corners(b.corners, where)
            for k, (x, y) in enumerate(b.corners):
                self._check_in_frame(x, y, f"{where} corner {k + 1} ({CORNER_ORDER})")
        for z in self.drawn:
            if len(z.polygon) < 3:
                raise InputError(
                    f"zone {z.name!r} has {len(z.polygon)} point(s); a zone needs at least three"
                )
            for k, (x, y) in enumerate(z.polygon):
                self._check_in_frame(x, y, f"zone {z.name!r} point {k + 1}")
        names = [z.name for z in self.zones]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise InputError(
                f"zone name(s) {', '.join(dupes)} appear more than once; give each board a "
                "different label and each drawn zone its own name"
            )

    def _check_in_frame(self, x: float, y: float, what: str) -> None:
        tx, ty = EDGE_TOLERANCE * self.width, EDGE_TOLERANCE * self.height
        if not (-tx <= x <= self.width + tx and -ty <= y <= self.height + ty):
            raise InputError(
                f"{what} at ({x:g}, {y:g}) lies outside the {self.width}x{self.height} frame; "
                "zones must lie in the camera's view"
            )

    @cached_property
    def zones(self) -> tuple[Zone, ...]:
        out: list[Zone] = []
        for b in self.boards:
            out.extend(b.zones())
        out.extend(self.drawn)
        return tuple(out)

    @property
    def zone_names(self) -> tuple[str, ...]:
        return tuple(z.name for z in self.zones)

    def zone_of(self, x: float, y: float) -> str | None:
        for z in self.zones:
            if z.contains(x, y):
                return z.name
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": MAP_FORMAT,
            "version": VERSION,
            "name": self.name,
            "frame": [self.width, self.height],
            "boards": [
                {"board": b.board, "label": b.label,
                 "corners": [[round(x, 2), round(y, 2)] for x, y in b.corners]}
                for b in self.boards
            ],
            "zones": [
                {"name": z.name, "polygon": [[round(x, 2), round(y, 2)] for x, y in z.polygon]}
                for z in self.drawn
            ],
        }


def zone_map_from_json(data: Any, where: str = "zone map") -> ZoneMap:
    obj = require_object(data, where)
    reject_unknown_keys(obj, where, ("format", "version", "name", "frame", "boards", "zones"))
    if obj.get("format") != MAP_FORMAT:
        raise InputError(f"{where}.format must be {MAP_FORMAT!r}; is this a dicecam zone map?")
    require_int(obj.get("version"), f"{where}.version", 1, VERSION)
    frame = require_list(obj.get("frame"), f"{where}.frame", min_len=2, max_len=2)
    width = require_int(frame[0], f"{where}.frame[0] (width)", 1)
    height = require_int(frame[1], f"{where}.frame[1] (height)", 1)
    boards = []
    for i, item in enumerate(require_list(obj.get("boards", []), f"{where}.boards")):
        w = f"{where}.boards[{i}]"
        b = require_object(item, w)
        reject_unknown_keys(b, w, ("board", "label", "corners"))
        board = require_str(b.get("board"), f"{w}.board")
        load_board(board)  # unknown board: a clear error now, not at the first die
        corners = require_list(b.get("corners"), f"{w}.corners", min_len=4, max_len=4)
        boards.append(
            PlacedBoard(
                board,
                tuple(_point(c, f"{w}.corners[{k}]") for k, c in enumerate(corners)),  # type: ignore[arg-type]
                require_str(b.get("label", ""), f"{w}.label", max_len=40),
            )
        )
    drawn = []
    for i, item in enumerate(require_list(obj.get("zones", []), f"{where}.zones")):
        w = f"{where}.zones[{i}]"
        z = require_object(item, w)
        reject_unknown_keys(z, w, ("name", "polygon"))
        name = require_str(z.get("name"), f"{w}.name", max_len=80)
        if not name.strip():
            raise InputError(f"{w}.name must not be empty")
        drawn.append(Zone(name, _polygon(z.get("polygon"), f"{w}.polygon")))
    return ZoneMap(
        name=require_str(obj.get("name"), f"{where}.name"),
        width=width,
        height=height,
        boards=tuple(boards),
        drawn=tuple(drawn),
    )


def saved_zone_map_names() -> tuple[str, ...]:
    return saved_names(zones_dir())


def load_zone_map(name_or_path: str | os.PathLike[str]) -> ZoneMap:
    """A zone map by file path, or by the name it was saved under."""
    if looks_like_path(name_or_path):
        path = Path(name_or_path).expanduser()
    else:
        path = zones_dir() / f"{name_or_path}.json"
        if not path.is_file():
            known = saved_zone_map_names()
            hint = f"saved zone maps are {', '.join(known)}" if known else "none is saved yet"
            raise InputError(
                f"there is no zone map named {str(name_or_path)!r} ({hint}); make one with "
                "`dicecam calibrate zones` or give the path of a zone map .json file"
            )
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise InputError(f"zone map file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read zone map {path}: {exc}") from None
    return zone_map_from_json(parse_json(text, f"zone map {path}"), f"zone map {path.name}")


def save_zone_map(zone_map: ZoneMap, path: str | os.PathLike[str] | None = None) -> Path:
    if path is None:
        target = zones_dir() / f"{zone_map.name}.json"
    else:
        target = Path(path).expanduser()
    data = zone_map.to_json()
    zone_map_from_json(json.loads(json.dumps(data)))  # never write what cannot be read back
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        raise InputError(f"cannot save zone map to {target}: {exc}") from None
    return target


# ------------------------------------------------------------------------------ helpers


def _point(value: Any, where: str) -> Point:
    items = require_list(value, where, min_len=2, max_len=2)
    return (
        require_number(items[0], f"{where}[0] (x)"),
        require_number(items[1], f"{where}[1] (y)"),
    )


def _polygon(value: Any, where: str) -> tuple[Point, ...]:
    items = require_list(value, where)
    if len(items) < 3:
        raise InputError(f"{where} has {len(items)} point(s); a zone needs at least three")
    return tuple(_point(p, f"{where}[{k}]") for k, p in enumerate(items))


def _inside(polygon: Sequence[Point], x: float, y: float) -> bool:
    """Even-odd ray casting; points on an edge count as inside the first zone tested."""
    inside = False
    n = len(polygon)
    for i in range(n):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            cross_x = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross_x:
                inside = not inside
            elif x == cross_x:
                return True
    return inside
