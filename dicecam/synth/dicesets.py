"""How the dice of each built-in dice set look, for rendering.

These are the renderer's idea of the physical dice (body colour, mark colour, pips or
numerals); the colour *names* a game uses at read time come from the calibration profiles,
not from here. ``random_look`` makes dice of no particular set, so that the value model
learns to read any body and mark colour, not just the four sets we know.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

Marks = Literal["pips", "numerals"]
BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DieLook:
    """How one die looks: its body and its marks.

    ``colour_name`` is the game colour this die counts as: the body colour for pip dice,
    the numeral colour for numeral dice. ``marble_bgr`` is the second colour swirled into a
    marbled body; ``translucent`` bodies let the table show through faintly. ``see_through``
    (0-1) is how much of the marks on the faces turned away from the camera shows through a
    clear body, as on smoky and gem dice (their opaque paint stays as it is): a one on such
    a die shows the six's pips beneath it.
    """

    body_bgr: BGR
    mark_bgr: BGR
    marks: Marks
    colour_name: str
    translucent: bool = False
    marbled: bool = False
    marble_bgr: BGR = (255, 255, 255)
    see_through: float = 0.0


@dataclass(frozen=True)
class DiceSet:
    """A built-in dice set: its name, its marks and the looks of each game colour."""

    name: str
    marks: Marks
    colours: dict[str, tuple[DieLook, ...]] = field(default_factory=dict)

    @property
    def colour_names(self) -> tuple[str, ...]:
        return tuple(self.colours)


def _pips(name: str, body: BGR, *marks: BGR) -> tuple[DieLook, ...]:
    return tuple(DieLook(body, mark, "pips", name) for mark in marks)


def _numerals(name: str, mark: BGR, *bodies: BGR) -> tuple[DieLook, ...]:
    return tuple(DieLook(body, mark, "numerals", name) for body in bodies)


_BLACK: BGR = (25, 25, 25)
_WHITE: BGR = (240, 240, 240)
_IVORY: BGR = (215, 235, 242)
_LIGHT_GREY: BGR = (225, 225, 222)

#: the set drawn and read when nobody chose one (the demo before a game starts)
DEFAULT_DICE_SET = "diceparty"

DICE_SETS: dict[str, DiceSet] = {
    "diceparty": DiceSet(
        "diceparty",
        "pips",
        {
            "yellow": _pips("yellow", (30, 215, 245), _BLACK, _WHITE),
            "orange": _pips("orange", (20, 120, 245), _BLACK, _WHITE),
            "red": _pips("red", (35, 30, 200), _WHITE, _BLACK),
        },
    ),
    "dicetopia": DiceSet(
        "dicetopia",
        "pips",
        {
            "purple": _pips("purple", (130, 40, 100), _WHITE, (60, 200, 230)),
            "white": _pips("white", _WHITE, _BLACK, (130, 40, 100)),
            "turquoise": _pips("turquoise", (190, 190, 40), _WHITE, _BLACK),
        },
    ),
    "charidice": DiceSet(
        "charidice",
        "numerals",
        {
            "black": _numerals("black", _BLACK, _IVORY, _LIGHT_GREY),
            "grey": _numerals("grey", (130, 130, 130), _IVORY, _LIGHT_GREY),
            "red": _numerals("red", (40, 35, 200), _IVORY, _LIGHT_GREY),
            "blue": _numerals("blue", (190, 90, 25), _IVORY, _LIGHT_GREY),
            "green": _numerals("green", (60, 150, 30), _IVORY, _LIGHT_GREY),
            "purple": _numerals("purple", (140, 40, 120), _IVORY, _LIGHT_GREY),
        },
    ),
    "v6": DiceSet("v6", "pips", {"white": _pips("white", _WHITE, _BLACK)}),
}


def _hsv_bgr(h: float, s: float, v: float) -> BGR:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return (round(b * 255), round(g * 255), round(r * 255))


def _luma(bgr: BGR) -> float:
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


def random_body(rng: np.random.Generator) -> BGR:
    """A body colour drawn from what real dice come in: saturated, pastel, dark or white."""
    kind = rng.random()
    if kind < 0.15:
        return _hsv_bgr(rng.random(), rng.uniform(0.0, 0.12), rng.uniform(0.8, 1.0))  # white
    if kind < 0.27:
        return _hsv_bgr(rng.random(), rng.uniform(0.0, 0.5), rng.uniform(0.06, 0.3))  # black
    return _hsv_bgr(rng.random(), rng.uniform(0.35, 1.0), rng.uniform(0.3, 1.0))


def _stands_out(mark: BGR, body: BGR) -> bool:
    contrast = abs(_luma(mark) - _luma(body))
    hue_gap = float(np.abs(np.subtract(mark, body, dtype=float)).sum())
    return contrast > 55 or (contrast > 30 and hue_gap > 220)


def random_mark(rng: np.random.Generator, body: BGR) -> BGR:
    """A mark colour that stands out from ``body`` (black, white or coloured)."""
    for _ in range(20):
        kind = rng.random()
        if kind < 0.4:
            mark = _hsv_bgr(rng.random(), rng.uniform(0, 0.3), rng.uniform(0.0, 0.18))
        elif kind < 0.75:
            mark = _hsv_bgr(rng.random(), rng.uniform(0, 0.12), rng.uniform(0.85, 1.0))
        else:
            mark = _hsv_bgr(rng.random(), rng.uniform(0.5, 1.0), rng.uniform(0.4, 1.0))
        if _stands_out(mark, body):
            return mark
    return (20, 20, 20) if _luma(body) > 110 else (240, 240, 240)


def marble_colour(rng: np.random.Generator, body: BGR, mark: BGR) -> BGR:
    """The colour swirled into a marbled body: a blend of the body with another colour that
    the marks still stand out from, as on real marbled dice (their makers keep the pips
    legible; swirls the colour of the pips would make a synthetic die no one could read)."""
    for _ in range(20):
        other = random_body(rng)
        share = rng.uniform(0.25, 0.65)
        swirl = tuple(int(round(b + (o - b) * share)) for b, o in zip(body, other, strict=True))
        if _stands_out(mark, swirl):
            return swirl  # type: ignore[return-value]
    return body


def random_look(rng: np.random.Generator, marks: Marks | None = None) -> DieLook:
    """Any die: random body and mark colours, sometimes translucent or marbled."""
    if marks is None:
        marks = "numerals" if rng.random() < 0.22 else "pips"
    body = random_body(rng)
    mark = random_mark(rng, body)
    if marks == "numerals" and rng.random() < 0.6:
        body = _hsv_bgr(rng.random(), rng.uniform(0, 0.15), rng.uniform(0.8, 1.0))
        mark = random_mark(rng, body)
    marbled = rng.random() < 0.18
    translucent = not marbled and rng.random() < 0.15
    marble = marble_colour(rng, body, mark) if marbled else (255, 255, 255)
    return DieLook(body, mark, marks, "any", translucent, marbled, marble)


def set_look(rng: np.random.Generator, set_name: str, colour: str | None = None) -> DieLook:
    """A die of a built-in set (``colour`` None: any colour of that set)."""
    dice_set = DICE_SETS[set_name]
    name = colour if colour is not None else dice_set.colour_names[
        int(rng.integers(len(dice_set.colours)))]
    looks = dice_set.colours[name]
    return looks[int(rng.integers(len(looks)))]
