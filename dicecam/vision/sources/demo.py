"""The demo source: dice of a built-in set being rolled, settling, and swept up by a hand.

Frames are rendered on the fly with ``dicecam.synth`` (nothing large ships with the
package) and are the same on every run: each roll is drawn from a generator seeded by the
dice set and the roll's number. One roll is ``ROLL_FRAMES`` frames of dice tumbling in
from a side of the table and slowing down, ``STILL_FRAMES`` identical frames of the dice
at rest, and ``HAND_FRAMES`` frames of a hand reaching in to pick them up. At the default
960x540 a tumbling frame takes a few tens of milliseconds to draw and a still frame none
(it is drawn once), so the demo plays at its 15 fps on a laptop alongside the reader.

With a ``director`` the demo plays a game instead of rolling on its own: it asks the
director before every throw what to throw (``DemoThrow``: one die per colour, some with a
fixed face), and while the director has nothing (the players are choosing), the table
lies still. A hand clears the last throw before the next one rolls in. Big throws (a
Dice Party party of 40-60 dice) are drawn with smaller dice, mostly in clusters. A game
read where its dice lie at the end is laid out instead of thrown (``DemoLayout``,
``demo_boards.py``: printed boards with dice and agents on their fields): a hand passes
over the table and leaves the layout lying there, for as long as the director asks for
that same layout.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicecam.errors import InputError
from dicecam.synth.dicesets import DEFAULT_DICE_SET, DICE_SETS, DieLook, set_look
from dicecam.synth.die import render_die
from dicecam.synth.light import light_gains_bgr
from dicecam.synth.scene import SceneDie, SceneSpec, _table, draw_hand, paste_die, place_dice
from dicecam.vision.sources.demo_boards import DemoLayout, LaidTable, lay_out
from dicecam.vision.sources.frame_sources import FrameSource

ROLL_FRAMES = 14
STILL_FRAMES = 40
HAND_FRAMES = 10
DEMO_FPS = 15.0
POSES = 3
_LIGHT = (0.3, -0.3, 1.0)
#: Dice per roll when the demo rolls by itself and no game says how many (a game's own number
#: is its descriptor's ``demo_dice_per_roll``, which the web app passes in)
DICE_PER_ROLL = 12


@dataclass(frozen=True)
class DemoThrow:
    """What the demo throws next: a die of each colour (None: any of the set's looks),
    each showing its value in ``values`` (None: thrown at random)."""

    colours: tuple[str | None, ...]
    values: tuple[int | None, ...] = ()
    #: what makes this throw differ from the same throw of another game (the director
    #: gives the game and its move; empty: the roll's number alone, as benches replay)
    seed: tuple[int, ...] = ()
    #: laid out in rows by value (row k holds the k+1s), colours in columns: the one-minute
    #: teaching layout (``teach/layout.py``) rather than a throw
    rows: bool = False

    def value_of(self, k: int) -> int | None:
        return self.values[k] if k < len(self.values) else None


Director = Callable[[], "DemoThrow | DemoLayout | None"]
#: Share of the frame's area a throw's dice may cover at most (bigger throws, smaller dice).
_THROW_AREA = 0.12


@dataclass(frozen=True)
class DemoRoll:
    """What one roll of the demo shows once settled (the truth for tests)."""

    index: int
    dice: tuple[SceneDie, ...]


@dataclass(frozen=True)
class _Die:
    look: DieLook
    value: int
    start: tuple[float, float]
    end: tuple[float, float]
    size: float
    rotation: float
    spin: float


class DemoSource(FrameSource):
    """Rendered rolls of ``dice_set``, ``dice_per_roll`` dice each: ``rolls`` of them, or
    endlessly with ``loop``."""

    live = False

    def __init__(self, dice_set: str = DEFAULT_DICE_SET, *, dice_per_roll: int = DICE_PER_ROLL,
                 loop: bool = False, rolls: int = 3,
                 width: int = 960, height: int = 540, fps: float = DEMO_FPS,
                 director: Director | None = None) -> None:
        if dice_set not in DICE_SETS:
            raise InputError(f"unknown dice set {dice_set!r} for the demo; choose one of "
                             f"{', '.join(DICE_SETS)}")
        if dice_per_roll < 1:
            raise InputError(f"the demo throws at least one die a roll, not {dice_per_roll}")
        if rolls < 1 or width < 320 or height < 240:
            raise InputError("the demo needs at least one roll and a frame of 320x240 or more")
        self.dice_set = dice_set
        self.dice_per_roll = dice_per_roll
        self.name = f"demo:{dice_set}"
        self.loop = loop
        self.rolls = rolls
        self.width, self.height = width, height
        self.fps = fps
        self.director = director
        self._seed = zlib.crc32(dice_set.encode())
        table_rng = np.random.default_rng(self._seed)
        self._die_px = min(width, height) / 13.0
        # The lamp's tint is applied to the table and to each die image once, not per frame.
        self._gains = tuple(float(g) for g in
                            light_gains_bgr(float(table_rng.uniform(3000, 6000)), 0.7))
        self._table = self._tint(_table(table_rng, height, width, self._die_px / 24))

    @property
    def frames_per_roll(self) -> int:
        return ROLL_FRAMES + STILL_FRAMES + HAND_FRAMES

    def frames(self) -> Iterator[np.ndarray]:
        if self.director is not None:
            yield from self._directed_frames(self.director)
            return
        index = 0
        while self.loop or index < self.rolls:
            yield from self._roll_frames(index)
            index += 1

    def _directed_frames(self, director: Director) -> Iterator[np.ndarray]:
        """Throws as the director asks for them; the still table while it asks for none;
        a layout laid out once and left lying while it is asked for again."""
        still = self._table
        index = 0
        laid: DemoLayout | None = None
        while True:
            request = director()
            if request is None or request == laid:
                yield still
                continue
            if isinstance(request, DemoLayout):
                yield from self._hand_frames(still, index)
                still = self.laid_table(request).image
                laid = request
            else:
                if index:
                    yield from self._hand_frames(still, index)
                dice = self._plan_throw(index, request)
                still = yield from self._throw_frames(dice, index)
                laid = None
            index += 1

    def laid_table(self, layout: DemoLayout) -> LaidTable:
        """The table with ``layout`` laid out, as a directed demo shows it: its picture,
        boards and dice (the truth). The same layout (whatever game it is laid for) is
        the same table."""
        deal = zlib.crc32(repr(replace(layout, serial=0)).encode())
        return lay_out(self._table, layout, self.dice_set,
                       np.random.default_rng([self._seed, deal, 11]), self._tint)

    def roll(self, index: int) -> DemoRoll:
        """The settled dice of roll ``index`` (top-face boxes in frame pixels)."""
        dice = self._plan(index)
        rng = self._render_rng(index, ROLL_FRAMES)
        _image, truth = self._draw(dice, 1.0, rng)
        return DemoRoll(index, tuple(truth))

    def thrown(self, index: int, request: DemoThrow) -> tuple[list[np.ndarray], DemoRoll]:
        """Throw ``index`` of a directed demo as it is drawn: its frames (rolling in, then
        lying still; no hand) and its settled dice (the truth for benches and tests)."""
        frames = list(self._throw_frames(self._plan_throw(index, request), index))
        return frames, self.still(index, request)[1]

    def still(self, index: int, request: DemoThrow) -> tuple[np.ndarray, DemoRoll]:
        """Throw ``index`` of a directed demo once its dice lie still: the picture and the
        dice (``thrown`` without the rolling frames: training draws thousands)."""
        dice = self._plan_throw(index, request)
        image, truth = self._draw(dice, 1.0, self._render_rng(index, ROLL_FRAMES))
        return image, DemoRoll(index, tuple(truth))

    # -- drawing ---------------------------------------------------------------------

    def _plan(self, index: int) -> list[_Die]:
        rng = np.random.default_rng([self._seed, index])
        count = self.dice_per_roll
        spec = SceneSpec(width=self.width, height=self.height, n_dice=count,
                         die_px=(self._die_px * 0.95, self._die_px * 1.05),
                         cluster_share=0.4 if count > 3 else 0.0)
        side = int(rng.integers(4))
        dice = []
        for p in place_dice(rng, spec):
            along = rng.uniform(0.2, 0.8)
            start = [(along * self.width, self.height + 60.0), (along * self.width, -60.0),
                     (-60.0, along * self.height), (self.width + 60.0, along * self.height)][side]
            dice.append(_Die(set_look(rng, self.dice_set), int(rng.integers(1, 7)), start,
                             (p.cx, p.cy), p.size, p.rotation, rng.uniform(200, 500)))
        return dice

    def _plan_throw(self, index: int, request: DemoThrow) -> list[_Die]:
        """The dice a director asked for, placed so that every one fits the frame."""
        if request.rows:
            return self._plan_rows(index, request)
        rng = np.random.default_rng([self._seed, *request.seed, index, 3])
        count = len(request.colours)
        size = min(self._die_px, math.sqrt(_THROW_AREA * self.width * self.height
                                           / max(count, 1)))
        placed: list = []
        for _ in range(6):  # shrink until all fit
            spec = SceneSpec(width=self.width, height=self.height, n_dice=count,
                             die_px=(size * 0.95, size * 1.05),
                             cluster_share=0.75 if count > 12 else 0.4 if count > 3 else 0.0)
            placed = place_dice(rng, spec)
            if len(placed) >= count:
                break
            size *= 0.85
        side = int(rng.integers(4))
        dice = []
        for k, p in enumerate(placed[:count]):
            along = rng.uniform(0.2, 0.8)
            start = [(along * self.width, self.height + 60.0), (along * self.width, -60.0),
                     (-60.0, along * self.height), (self.width + 60.0, along * self.height)][side]
            value = request.value_of(k) or int(rng.integers(1, 7))
            dice.append(_Die(set_look(rng, self.dice_set, request.colours[k]), value, start,
                             (p.cx, p.cy), p.size, p.rotation, rng.uniform(200, 500)))
        return dice

    def _plan_rows(self, index: int, request: DemoThrow) -> list[_Die]:
        """The teaching layout as a family lays it out: six rows, the 1s at the top, each
        die's colour in its column, slid in by hand (a short way, slightly askew)."""
        rng = np.random.default_rng([self._seed, *request.seed, index, 13])
        placed: dict[int, int] = {}
        cells: list[tuple[int, int, int]] = []  # (row, column, k)
        for k in range(len(request.colours)):
            value = request.value_of(k) or 1 + k % 6
            cells.append((value - 1, placed.get(value, 0), k))
            placed[value] = placed.get(value, 0) + 1
        columns = max(placed.values(), default=1)
        pitch = min(self.height / 7.5, self.width / (columns + 2))
        size = pitch * 0.62
        left = (self.width - (columns - 1) * pitch) / 2
        top = (self.height - 5 * pitch) / 2
        dice = []
        for row, column, k in sorted(cells, key=lambda c: c[2]):
            end = (left + column * pitch + rng.uniform(-0.06, 0.06) * pitch,
                   top + row * pitch + rng.uniform(-0.06, 0.06) * pitch)
            start = (end[0] + rng.uniform(-40, 40), end[1] + rng.uniform(-40, 40))
            dice.append(_Die(set_look(rng, self.dice_set, request.colours[k]), row + 1, start,
                             end, size, float(rng.uniform(-8, 8)), 0.0))
        return dice

    def _render_rng(self, index: int, frame: int) -> np.random.Generator:
        return np.random.default_rng([self._seed, index, frame, 7])

    def _draw(self, dice: list[_Die], progress: float, rng: np.random.Generator,
              poses: list[list[np.ndarray]] | None = None,
              ) -> tuple[np.ndarray, list[SceneDie]]:
        """The table with every die ``progress`` (0..1) of the way from its start to rest.

        While rolling, each die shows one of its pre-rendered tumbling ``poses`` turned by
        its spin (turning an image is much cheaper than rendering a die); at rest it is
        rendered properly, once.
        """
        image = self._table.copy()
        ease = 1.0 - (1.0 - progress) ** 3
        settled = progress >= 1.0
        truth = []
        for k, die in enumerate(dice):
            x = die.start[0] + (die.end[0] - die.start[0]) * ease
            y = die.start[1] + (die.end[1] - die.start[1]) * ease
            if settled or poses is None:
                rendered = render_die(die.value, die.look, max(6, int(round(die.size))), rng,
                                      rotation_deg=die.rotation, tilt=3.0,
                                      tilt_azimuth_deg=45.0, light_dir=_LIGHT)
                cx, cy, w, h = paste_die(image, self._tint(rendered.image_bgra), x, y,
                                         rendered.top_box)
                truth.append(SceneDie(cx, cy, w, h, rendered.top_value, die.look.colour_name))
                continue
            pose = poses[k][int(rng.integers(len(poses[k])))]
            side = pose.shape[0]
            turn = cv2.getRotationMatrix2D((side / 2, side / 2), die.spin * (1.0 - ease), 1.0)
            turned = cv2.warpAffine(pose, turn, (side, side))
            # in the air: no shadow on the table under it
            paste_die(image, turned, x, y, (side / 2, side / 2, side / 2, side / 2), shadow=0)
        return image, truth

    def _tint(self, image: np.ndarray) -> np.ndarray:
        return cv2.multiply(image, (*self._gains, 1.0))  # alpha, where present, kept

    def _poses(self, dice: list[_Die], index: int) -> list[list[np.ndarray]]:
        rng = np.random.default_rng([self._seed, index, 5])
        return [[self._tint(render_die(int(rng.integers(1, 7)), die.look,
                                       max(6, int(round(die.size))), rng,
                                       rotation_deg=rng.uniform(0, 90), tilt=rng.uniform(15, 35),
                                       light_dir=_LIGHT).image_bgra) for _ in range(POSES)]
                for die in dice]

    def _roll_frames(self, index: int) -> Iterator[np.ndarray]:
        still = yield from self._throw_frames(self._plan(index), index)
        yield from self._hand_frames(still, index)

    def _throw_frames(self, dice: list[_Die], index: int
                      ) -> Generator[np.ndarray, None, np.ndarray]:
        """The dice rolling in and lying still; returns the still table."""
        poses = self._poses(dice, index)
        for frame in range(ROLL_FRAMES):
            progress = frame / ROLL_FRAMES
            image, _ = self._draw(dice, progress, self._render_rng(index, frame), poses)
            if progress < 0.7:  # fast dice blur
                length = int(round(6 * (1.0 - progress)))
                image = cv2.blur(image, (length * 2 + 1, 1)) if length else image
            yield image
        still, _ = self._draw(dice, 1.0, self._render_rng(index, ROLL_FRAMES))
        for _ in range(STILL_FRAMES):
            yield still
        return still

    def _hand_frames(self, still: np.ndarray, index: int) -> Iterator[np.ndarray]:
        """A hand reaching in over the table and out again (it sweeps the dice away)."""
        # The hand is drawn once at full reach and slid in and out.
        hand_rng = np.random.default_rng([self._seed, index, 99])
        side = int(hand_rng.integers(4))
        hand = np.zeros_like(still)
        mask = np.zeros(still.shape[:2], np.uint8)
        draw_hand(hand_rng, hand, mask, scale=self._die_px / 24, reach=0.6, side=side)
        hand = self._tint(hand)
        h, w = mask.shape
        full = (0.6 * h) if side in (0, 1) else (0.6 * w)
        for frame in range(HAND_FRAMES):
            reach = math.sin(math.pi * (frame + 1) / (HAND_FRAMES + 1))
            shift = int(round(full * (1.0 - reach)))
            dx, dy = [(0, shift), (0, -shift), (-shift, 0), (shift, 0)][side]
            yield _overlay_shifted(still, hand, mask, dx, dy)


def _overlay_shifted(base: np.ndarray, layer: np.ndarray, mask: np.ndarray, dx: int, dy: int,
                     ) -> np.ndarray:
    """``base`` with ``layer`` pasted where ``mask`` is set, all moved by (dx, dy)."""
    out = base.copy()
    h, w = mask.shape
    sx0, sy0 = max(0, -dx), max(0, -dy)
    tx0, ty0 = max(0, dx), max(0, dy)
    cw, ch = w - abs(dx), h - abs(dy)
    if cw <= 0 or ch <= 0:
        return out
    target = out[ty0:ty0 + ch, tx0:tx0 + cw]
    cv2.copyTo(layer[sy0:sy0 + ch, sx0:sx0 + cw], mask[sy0:sy0 + ch, sx0:sx0 + cw], target)
    return out
