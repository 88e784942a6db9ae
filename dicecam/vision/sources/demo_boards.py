"""The demo's laid-out table: printed boards lying on it, dice on their fields, markers.

A game scored from what lies on its boards at the end (Dicetopia: the city map's districts
and the players' faction boards) is not thrown: the demo lays its table out instead
(``DemoLayout``, which the web app makes from the game's own ``TableDue``). The boards
are placed from the frame's size alone: the first board (the city map) on the left, the
others (faction boards) stacked on the right, each lying nearly square to the camera (a
board turned by at most 2 degrees, seen from a little off straight above), so a rectangle
dragged around each on the tablet places its zones. Each zone's dice lie on the first of
its fields in a shuffled order, its markers (a player's agents: flat round pieces in the
player's colour, no dice) on the fields after them. Colours are dealt from the layout's
colour counts, values thrown; everything comes from a generator seeded by the caller, so
the same layout gives the same table, and ``lay_out`` returns the truth beside the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicecam.calibration.homography import apply_homography, homography
from dicecam.calibration.zones import BoardLayout, PlacedBoard, load_board
from dicecam.synth.boards import board_image, warp_onto
from dicecam.synth.dicesets import set_look
from dicecam.synth.die import render_die
from dicecam.synth.scene import paste_die

#: The markers' colours (BGR) by owner: red, blue, green, yellow, as the players' agents
MARKER_BGR = ((40, 40, 200), (200, 90, 30), (50, 150, 40), (30, 200, 230))
#: a die's top face as a share of a field's side
DIE_SHARE = 0.85
#: how far a die lies from its field's centre towards the middle of its zone, as a share
#: of the way (players push dice in from a board's edge)
INWARD = 0.12
#: an agent figure's half height as a share of a field's side
MARKER_SHARE = 0.32
_LIGHT = (0.3, -0.3, 1.0)


@dataclass(frozen=True)
class LaidZone:
    """A zone of a board: ``dice`` dice lie on its first fields, then one marker per owner
    index in ``markers``."""

    zone: str
    dice: int
    markers: tuple[int, ...] = ()


@dataclass(frozen=True)
class DemoLayout:
    """A table to lay out: ``boards`` as (printed board layout, label), the first one big on
    the left; the dice and markers of each zone; ``colours`` the dice of each colour that
    lie on the table in all (their number is the dice's)."""

    boards: tuple[tuple[str, str], ...]
    zones: tuple[LaidZone, ...]
    colours: tuple[tuple[str, int], ...]
    #: the game it is laid for: a new game's table is laid anew (a hand clears the old),
    #: even where it looks the same
    serial: int = 0


@dataclass(frozen=True)
class LaidDie:
    """A die of the laid-out table: its top face box in frame pixels, what it shows, where."""

    cx: float
    cy: float
    w: float
    h: float
    value: int
    colour: str
    zone: str


@dataclass(frozen=True)
class LaidTable:
    image: np.ndarray
    boards: tuple[PlacedBoard, ...]
    dice: tuple[LaidDie, ...]


def board_corners(layouts: list[BoardLayout], width: int, height: int,
                  rng: np.random.Generator) -> list[tuple[tuple[float, float], ...]]:
    """Where each board lies: the first in the left two thirds, the others stacked right."""
    out = []
    regions = [(0.02 * width, 0.05 * height, 0.63 * width, 0.95 * height)]
    rest = len(layouts) - 1
    if rest:
        slot = 0.92 * height / rest
        regions += [(0.65 * width, 0.04 * height + k * slot, 0.985 * width,
                     0.04 * height + (k + 1) * slot) for k in range(rest)]
    for layout, (x0, y0, x1, y1) in zip(layouts, regions, strict=False):
        aspect = layout.size[0] / layout.size[1]
        w = min(x1 - x0, (y1 - y0) * aspect) * 0.95
        h = w / aspect
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        angle = math.radians(rng.uniform(-2, 2))
        rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
        base = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        keystone = rng.uniform(-0.02, 0.02)
        base[:2, 0] *= 1 - keystone
        base[2:, 0] *= 1 + keystone
        corners = base @ rot.T + [cx, cy]
        out.append(tuple((float(x), float(y)) for x, y in corners))
    return out


def lay_out(table: np.ndarray, layout: DemoLayout, dice_set: str, rng: np.random.Generator,
            tint=None) -> LaidTable:
    """``table`` (not changed) with the boards, dice (of ``dice_set``) and markers of
    ``layout`` on it. ``tint`` (image -> image) is the lamp's colour, applied to what is
    drawn on the table."""
    tint = tint or (lambda image: image)
    height, width = table.shape[:2]
    image = table.copy()
    layouts = [load_board(name) for name, _label in layout.boards]
    corners = board_corners(layouts, width, height, rng)
    placed = tuple(PlacedBoard(name, c, label)  # type: ignore[arg-type]
                   for (name, label), c in zip(layout.boards, corners, strict=True))
    fields: dict[str, tuple[tuple[float, float], ...]] = {}
    field_px: dict[str, float] = {}
    for board, board_layout, quad in zip(placed, layouts, corners, strict=True):
        picture = tint(_board_picture(board_layout, rng))
        warp_onto(image, picture, quad)
        for name, points in board.fields().items():
            fields[name] = points
        matrix = homography(board_layout.corners, quad)
        for zone in board_layout.zones:
            if not zone.fields:
                continue
            fx, fy = zone.fields[0]
            half = board_layout.field_size / 2
            a, b = apply_homography(matrix, [(fx - half, fy), (fx + half, fy)])
            field_px[zone.name.replace("{label}", board.label)] = float(np.linalg.norm(b - a))
    pool = [colour for colour, count in layout.colours for _ in range(count)]
    rng.shuffle(pool)
    dice: list[LaidDie] = []
    for laid in layout.zones:
        points = list(fields.get(laid.zone, ()))
        middle = np.mean(points, axis=0) if points else np.zeros(2)
        if laid.dice + len(laid.markers) > len(points):
            raise ValueError(f"zone {laid.zone!r} has {len(points)} fields, not "
                             f"{laid.dice + len(laid.markers)}")
        order = [int(i) for i in rng.permutation(laid.dice + len(laid.markers))]
        side = field_px[laid.zone]
        for k, slot in enumerate(order):
            x, y = np.asarray(points[slot]) + INWARD * (middle - np.asarray(points[slot]))
            x += rng.uniform(-0.08, 0.08) * side
            y += rng.uniform(-0.08, 0.08) * side
            if k < laid.dice:
                colour = pool.pop() if pool else None
                look = set_look(rng, dice_set, colour)
                value = int(rng.integers(1, 7))
                rendered = render_die(value, look, max(8, int(round(side * DIE_SHARE))), rng,
                                      rotation_deg=rng.uniform(-12, 12), tilt=2.0,
                                      tilt_azimuth_deg=45.0, light_dir=_LIGHT)
                cx, cy, w, h = paste_die(image, tint(rendered.image_bgra), x, y,
                                         rendered.top_box)
                dice.append(LaidDie(cx, cy, w, h, rendered.top_value, look.colour_name,
                                    laid.zone))
            else:
                _marker(image, x, y, side * MARKER_SHARE, MARKER_BGR[laid.markers[k - laid.dice]
                                                           % len(MARKER_BGR)], tint)
    return LaidTable(image, placed, tuple(dice))


def _board_picture(layout: BoardLayout, rng: np.random.Generator) -> np.ndarray:
    """The printed board, dimmed as a city at night (dice stand out on it, as on the real
    boards), its fields unmarked (an outline hugging a die hides its edge from the
    detector; the real boards mark their fields with pictures, not frames)."""
    bare = replace(layout, zones=tuple(replace(z, fields=()) for z in layout.zones))
    return (board_image(bare, 2.0, rng) * 0.6).astype(np.uint8)


def _marker(image: np.ndarray, x: float, y: float, radius: float, bgr, tint) -> None:
    """An agent: a flat wooden figure in its player's colour (head, arms, legs), with a
    soft shadow; nothing about it is square or dotted like a die."""
    r = max(4, int(round(radius)))
    side = 4 * r
    patch = np.zeros((side, side, 4), np.uint8)
    c = side / 2
    colour = (*[int(v) for v in bgr], 255)
    body = np.array([
        (c - 0.25 * r, c - 0.45 * r), (c - 0.95 * r, c - 0.2 * r), (c - 0.95 * r, c + 0.1 * r),
        (c - 0.4 * r, c + 0.05 * r), (c - 0.8 * r, c + r), (c - 0.15 * r, c + r),
        (c, c + 0.45 * r), (c + 0.15 * r, c + r), (c + 0.8 * r, c + r), (c + 0.4 * r, c + 0.05 * r),
        (c + 0.95 * r, c + 0.1 * r), (c + 0.95 * r, c - 0.2 * r), (c + 0.25 * r, c - 0.45 * r),
    ], np.float32)
    cv2.fillPoly(patch, [np.round(body * 4).astype(np.int32)], colour, cv2.LINE_AA, shift=2)
    cv2.circle(patch, (int(round(c * 4)), int(round((c - 0.7 * r) * 4))), int(round(0.38 * r * 4)),
               colour, -1, cv2.LINE_AA, shift=2)
    angle = float(np.random.default_rng(int(x * 31 + y)).uniform(-25, 25))
    turn = cv2.getRotationMatrix2D((c, c), angle, 1.0)
    patch = cv2.warpAffine(patch, turn, (side, side))
    paste_die(image, tint(patch), x, y, (c, c, 2 * r, 2 * r), shadow=0.45)
