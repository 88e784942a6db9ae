"""Full synthetic table frames: many dice in touching clusters on a table, with distractors.

A scene is a table (wood, felt, plain or a printed game board), cards and tokens that must not
be taken for dice (including plain cubes and cards printed with dots), dice from a built-in
set or of random looks, placed loose or packed edge to edge and corner to corner in
clusters, optionally a hand reaching in, then lamp colour, glare, shadow and camera noise.
Every die's top-face box, value and colour name come with the image, so detection, value
and colour can all be scored. Everything is drawn with OpenCV from a numpy Generator: the
same seed gives the same frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from dicecam.synth.dicesets import DEFAULT_DICE_SET, DICE_SETS, DieLook, random_look, set_look
from dicecam.synth.die import render_die
from dicecam.synth.light import apply_light, degrade


@dataclass(frozen=True)
class SceneDie:
    """One die in a scene: its top face box (centre, size) in frame pixels and what it shows.

    ``hidden`` is True when a hand covers the die's centre: such a die must not be reported.
    """

    cx: float
    cy: float
    w: float
    h: float
    value: int
    colour: str
    hidden: bool = False


@dataclass(frozen=True)
class Scene:
    image_bgr: np.ndarray
    dice: tuple[SceneDie, ...]
    hand_mask: np.ndarray  # uint8 HxW, 255 where a hand or arm is

    @property
    def visible_dice(self) -> tuple[SceneDie, ...]:
        return tuple(d for d in self.dice if not d.hidden)

    @property
    def has_hand(self) -> bool:
        return bool(self.hand_mask.any())


@dataclass(frozen=True)
class SceneSpec:
    """What to draw. Sizes are the top face's edge in pixels."""

    width: int = 1920
    height: int = 1080
    n_dice: int = 60
    die_px: tuple[float, float] = (38.0, 56.0)
    dice_set: str | None = DEFAULT_DICE_SET  # None: dice of random looks
    colours: tuple[str, ...] | None = None  # restrict to these colours of the set
    cluster_share: float = 0.7  # share of dice packed into touching clusters
    max_tilt: float = 8.0
    distractors: int = 8
    hand_probability: float = 0.0
    keyboard_probability: float = 0.0  # a laptop's keys at the table's edge
    lighting: bool = True
    camera_noise: bool = True


# ---------------------------------------------------------------- tables and distractors


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: tuple[int, int]) -> np.ndarray:
    small = rng.random(cells).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _table(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    # "skin": beech, birch or a beige cloth as light as a hand: without such tables the
    # detector's hand map learns that every skin-toned pixel is a hand.
    kind = rng.choice(["wood", "felt", "plain", "board", "skin"],
                      p=[0.3, 0.18, 0.22, 0.18, 0.12])
    if kind == "skin":
        base = np.array(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float64)
        base = base * rng.uniform(0.85, 1.2) + rng.uniform(-12, 12, 3)
        kind = "wood" if rng.random() < 0.5 else "plain_skin"
    elif kind == "wood":
        base = np.array([rng.uniform(60, 150), rng.uniform(110, 190), rng.uniform(150, 235)])
        if rng.random() < 0.3:  # dark wood
            base *= 0.45
    if kind == "plain_skin":
        img = base[None, None, :] + (_smooth_noise(rng, h, w, (3, 5)) * 24 - 12)[..., None]
    elif kind == "wood":
        along = _smooth_noise(rng, h, w, (int(rng.integers(3, 8)), int(rng.integers(20, 60))))
        if rng.random() < 0.5:
            along = along.T.copy() if h == w else cv2.resize(along.T, (w, h))
        ys = np.linspace(0, rng.uniform(20, 60), h, dtype=np.float32)[:, None]
        grain = np.sin(ys + along * rng.uniform(8, 20)) * 0.5 + 0.5
        shade = 0.82 + 0.18 * grain
        img = base[None, None, :] * shade[..., None]
    elif kind == "felt":
        hue_bgr = [(60, 110, 30), (110, 60, 20), (40, 40, 140), (70, 70, 70), (30, 30, 30)]
        base = np.array(hue_bgr[int(rng.integers(len(hue_bgr)))], np.float32)
        base = base * rng.uniform(0.7, 1.5)
        img = base[None, None, :] + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    else:
        grey = rng.uniform(20, 245)
        tint = rng.uniform(-15, 15, 3)
        img = np.full((h, w, 3), grey, np.float32) + tint
        img += (_smooth_noise(rng, h, w, (4, 6)) * 20 - 10)[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    if kind == "board":
        _board_print(rng, img, scale)
    return img


def _random_colour(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(0, 256, 3))  # type: ignore[return-value]


def _board_print(rng: np.random.Generator, img: np.ndarray, scale: float) -> None:
    """Game-board artwork: blocks, tracks of squares, circles, dotted lines and text."""
    h, w = img.shape[:2]
    count = int(rng.integers(4, 12) * max(1.0, h * w / (900 * scale) ** 2))
    for _ in range(min(count, 60)):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        size = int(rng.uniform(30, 250) * scale) + 2
        colour = _random_colour(rng)
        shape = rng.integers(5)
        if shape == 0:
            cv2.rectangle(img, (x, y), (x + size, y + size // 2), colour, -1)
        elif shape == 1:
            cv2.circle(img, (x, y), size // 2, colour, int(rng.integers(-1, 6)) or -1)
        elif shape == 2:  # a track of squares, die-sized
            step = int(rng.uniform(25, 70) * scale) + 4
            for k in range(int(rng.integers(3, 10))):
                cv2.rectangle(img, (x + k * step, y), (x + k * step + step - 4, y + step - 4),
                              colour, max(1, int(2 * scale)))
        elif shape == 3:  # dotted line
            for k in range(int(rng.integers(5, 20))):
                cv2.circle(img, (x + int(k * 14 * scale), y), max(1, int(3 * scale)), colour, -1)
        else:
            cv2.putText(img, "".join(rng.choice(list("ABCDEFGH123456"), 5)), (x, y),
                        cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.6, 2.0) * scale, colour,
                        max(1, int(2 * scale)), cv2.LINE_AA)


def _card(rng: np.random.Generator, img: np.ndarray, scale: float) -> None:
    h, w = img.shape[:2]
    cw, ch = int(rng.uniform(60, 110) * scale) + 4, int(rng.uniform(90, 160) * scale) + 4
    card = np.full((ch, cw, 3), 235 if rng.random() < 0.7 else rng.integers(40, 230), np.uint8)
    border = _random_colour(rng)
    cv2.rectangle(card, (2, 2), (cw - 3, ch - 3), border, max(1, int(3 * scale)))
    for _ in range(int(rng.integers(1, 7))):  # printed dots and marks: pips that are not dice
        cv2.circle(card, (int(rng.integers(5, cw - 5)), int(rng.integers(5, ch - 5))),
                   max(1, int(rng.uniform(2, 7) * scale)), _random_colour(rng), -1)
    cv2.putText(card, str(int(rng.integers(1, 10))), (5, int(20 * scale) + 5),
                cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale + 0.1, border, max(1, int(scale)))
    angle = rng.uniform(0, 360)
    _paste_rotated(rng, img, card, angle, (rng.uniform(0, w), rng.uniform(0, h)))


def _token(rng: np.random.Generator, img: np.ndarray, scale: float, die_px: float) -> None:
    h, w = img.shape[:2]
    x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
    colour = _random_colour(rng)
    kind = rng.integers(4)
    size = die_px * rng.uniform(0.6, 1.4)
    if kind == 0:  # disc
        cv2.circle(img, (x + 2, y + 3), int(size / 2), (30, 30, 30), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(size / 2), colour, -1, cv2.LINE_AA)
    elif kind == 1:  # a plain cube: a die-sized square with no marks
        s = int(size)
        cube = np.full((s, s, 3), colour, np.uint8)
        _paste_rotated(rng, img, cube, rng.uniform(0, 90), (x, y))
    elif kind == 2:  # a pawn seen from above
        cv2.circle(img, (x, y), int(size / 2), colour, -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(size / 4), tuple(int(c * 0.7) for c in colour), -1)
    else:  # a pencil or stick
        angle = rng.uniform(0, math.pi)
        length = size * rng.uniform(3, 8)
        end = (int(x + length * math.cos(angle)), int(y + length * math.sin(angle)))
        cv2.line(img, (x, y), end, colour, max(2, int(size / 6)), cv2.LINE_AA)


def _keyboard(rng: np.random.Generator, img: np.ndarray, die_px: float) -> None:
    """A laptop keyboard reaching in from an edge: die-sized dark (or silver) keys with
    light glyphs, the real webcam photos' commonest false die."""
    h, w = img.shape[:2]
    key = die_px * rng.uniform(0.8, 1.4)
    pitch = key * rng.uniform(1.12, 1.3)
    rows, cols = int(rng.integers(2, 6)), int(rng.integers(3, 12))
    dark = rng.random() < 0.7
    deck_shade = int(rng.integers(25, 70) if dark else rng.integers(140, 200))
    key_shade = int(rng.integers(5, 35) if dark else rng.integers(170, 235))
    glyph_shade = int(rng.integers(170, 255) if dark else rng.integers(10, 60))
    ph, pw = int(rows * pitch + key * 0.4) + 2, int(cols * pitch + key * 0.4) + 2
    tint = rng.integers(-8, 9, 3)
    deck = np.clip(np.full((ph, pw, 3), deck_shade) + tint, 0, 255).astype(np.uint8)
    glyph_colour = (glyph_shade,) * 3
    for r in range(rows):
        for c in range(cols):
            x0, y0 = int(key * 0.2 + c * pitch), int(key * 0.2 + r * pitch)
            wide = key * (2.0 if rng.random() < 0.08 else 1.0)
            x1, y1 = min(pw - 1, int(x0 + wide)), int(y0 + key)
            cv2.rectangle(deck, (x0, y0), (x1, y1), (key_shade,) * 3, -1, cv2.LINE_AA)
            kind = rng.integers(4)
            gx, gy = x0 + int(key * rng.uniform(0.2, 0.5)), y0 + int(key * rng.uniform(0.4, 0.7))
            thickness = max(1, int(key / 22))
            if kind == 0:  # a letter or a digit
                cv2.putText(deck, str(rng.choice(list("ABCDEFGHKLMNPRSTWXYZ0123456789"))),
                            (gx, gy), cv2.FONT_HERSHEY_SIMPLEX, key / 60, glyph_colour,
                            thickness, cv2.LINE_AA)
            elif kind == 1:  # an arrow or a symbol
                cv2.arrowedLine(deck, (gx, gy), (gx + int(key * 0.35), gy - int(key * 0.2)),
                                glyph_colour, thickness, cv2.LINE_AA, tipLength=0.4)
            elif kind == 2:  # a word in small print
                cv2.putText(deck, str(rng.choice(["fn", "esc", "shift", "alt", "ctrl", "tab"])),
                            (x0 + int(key * 0.1), y1 - int(key * 0.15)), cv2.FONT_HERSHEY_SIMPLEX,
                            key / 110, glyph_colour, thickness, cv2.LINE_AA)
            # kind 3: a blank key
    angle = rng.uniform(-12, 12) + (90 if rng.random() < 0.5 else 0)
    edge = rng.integers(4)  # centred near an edge so part of it is out of frame
    along = rng.uniform(0.15, 0.85)
    centre = [(along * w, 0.0), (along * w, float(h)), (0.0, along * h), (float(w), along * h)][
        int(edge)]
    _paste_rotated(rng, img, deck, angle, centre)


def _paste_rotated(rng: np.random.Generator, img: np.ndarray, patch: np.ndarray, angle: float,
                   centre: tuple[float, float]) -> None:
    ph, pw = patch.shape[:2]
    side = int(math.hypot(ph, pw)) + 2
    matrix = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    matrix[:, 2] += (side / 2 - pw / 2, side / 2 - ph / 2)
    rotated = cv2.warpAffine(patch, matrix, (side, side))
    mask = cv2.warpAffine(np.full((ph, pw), 255, np.uint8), matrix, (side, side))
    _blend(img, rotated, mask.astype(np.float32) / 255.0,
           int(centre[0] - side / 2), int(centre[1] - side / 2))


def _blend(img: np.ndarray, patch: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    h, w = img.shape[:2]
    ph, pw = patch.shape[:2]
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + pw, w), min(y0 + ph, h)
    if ax0 >= ax1 or ay0 >= ay1:
        return
    src = patch[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0].astype(np.float32)
    a = alpha[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0, None]
    dst = img[ay0:ay1, ax0:ax1].astype(np.float32)
    img[ay0:ay1, ax0:ax1] = (dst + (src - dst) * a).astype(np.uint8)


# ---------------------------------------------------------------- hands

SKIN_BGR = ((90, 130, 200), (120, 160, 225), (60, 95, 160), (40, 65, 110), (150, 180, 230))


def draw_hand(rng: np.random.Generator, img: np.ndarray, mask: np.ndarray, *,
              scale: float, reach: float | None = None, side: int | None = None) -> None:
    """An arm entering from one edge, a palm and fingers, drawn into ``img`` and ``mask``."""
    h, w = img.shape[:2]
    side = int(rng.integers(4)) if side is None else side
    reach = rng.uniform(0.2, 0.55) if reach is None else reach
    along = rng.uniform(0.15, 0.85)
    if side == 0:
        start, direction = (along * w, h + 10.0), (0.0, -1.0)
        length = reach * h
    elif side == 1:
        start, direction = (along * w, -10.0), (0.0, 1.0)
        length = reach * h
    elif side == 2:
        start, direction = (-10.0, along * h), (1.0, 0.0)
        length = reach * w
    else:
        start, direction = (w + 10.0, along * h), (-1.0, 0.0)
        length = reach * w
    wobble = rng.uniform(-0.4, 0.4)
    dx = direction[0] * math.cos(wobble) - direction[1] * math.sin(wobble)
    dy = direction[0] * math.sin(wobble) + direction[1] * math.cos(wobble)
    palm = (start[0] + dx * length, start[1] + dy * length)
    arm_width = int(rng.uniform(70, 110) * scale) + 3
    skin = np.array(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float32)
    skin = skin * rng.uniform(0.85, 1.1)
    if rng.random() < 0.5:  # a sleeve
        sleeve = _random_colour(rng)
        cut = (start[0] + dx * length * 0.5, start[1] + dy * length * 0.5)
        layer = np.zeros_like(mask)
        cv2.line(layer, _pt(start), _pt(cut), 255, int(arm_width * 1.3))
        img[layer > 0] = sleeve
        mask |= layer
        start = cut
    layer = np.zeros_like(mask)
    cv2.line(layer, _pt(start), _pt(palm), 255, arm_width)
    palm_r = int(arm_width * rng.uniform(0.75, 0.95))
    cv2.circle(layer, _pt(palm), palm_r, 255, -1)
    finger_len = palm_r * rng.uniform(1.2, 1.9)
    base_angle = math.atan2(dy, dx)
    spread = rng.uniform(0.2, 0.45)
    for k in range(5):
        angle = base_angle + (k - 2) * spread + rng.uniform(-0.1, 0.1)
        bent = rng.uniform(0.5, 1.0) if k else rng.uniform(0.6, 0.9)
        root = (palm[0] + math.cos(angle) * palm_r * 0.7, palm[1] + math.sin(angle) * palm_r * 0.7)
        tip = (root[0] + math.cos(angle) * finger_len * bent,
               root[1] + math.sin(angle) * finger_len * bent)
        cv2.line(layer, _pt(root), _pt(tip), 255, max(3, int(palm_r * 0.38)))
        cv2.circle(layer, _pt(tip), max(2, int(palm_r * 0.19)), 255, -1)
    shade = 0.75 + 0.35 * _smooth_noise(rng, h, w, (3, 3))
    hand = np.clip(skin[None, None, :] * shade[..., None], 0, 255).astype(np.uint8)
    soft = cv2.GaussianBlur(layer, (0, 0), 1.0).astype(np.float32) / 255.0
    _blend(img, hand, soft, 0, 0)
    mask |= layer


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))


# ---------------------------------------------------------------- dice placement


@dataclass(frozen=True)
class Placement:
    cx: float
    cy: float
    size: float
    rotation: float


def place_dice(rng: np.random.Generator, spec: SceneSpec) -> list[Placement]:
    """Centres, sizes and turns for ``spec.n_dice`` dice, about ``cluster_share`` of them in
    touching clusters (edge to edge and corner to corner), none overlapping another."""
    w, h = spec.width, spec.height
    placed: list[Placement] = []
    n_cluster = int(round(spec.n_dice * spec.cluster_share))

    def fits(p: Placement) -> bool:
        # Square tops may touch but not overlap: compare their separating axes.
        margin = p.size * 0.75
        if not (margin < p.cx < w - margin and margin < p.cy < h - margin):
            return False
        return all(not _squares_overlap(p, q) for q in placed)

    attempts = 0
    while len(placed) < n_cluster and attempts < 200:
        attempts += 1
        size = rng.uniform(*spec.die_px)
        rotation = rng.uniform(0, 90)
        cluster = int(rng.integers(2, 13))
        ox, oy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        cells = {(0, 0)}
        while len(cells) < cluster:
            cx, cy = list(cells)[int(rng.integers(len(cells)))]
            step = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)][int(rng.integers(6))]
            cells.add((cx + step[0], cy + step[1]))
        theta = math.radians(rotation)
        gap = rng.uniform(1.0, 1.06)
        for gx, gy in cells:
            if len(placed) >= n_cluster:
                break
            jitter = rng.uniform(-3, 3)
            s = size * rng.uniform(0.97, 1.03)
            step = size * gap * (1.0 + abs(math.sin(math.radians(jitter))) * 1.5)
            px = ox + step * (gx * math.cos(theta) - gy * math.sin(theta))
            py = oy + step * (gx * math.sin(theta) + gy * math.cos(theta))
            p = Placement(px, py, s, rotation + jitter)
            if fits(p):
                placed.append(p)
    attempts = 0
    while len(placed) < spec.n_dice and attempts < spec.n_dice * 60:
        attempts += 1
        size = rng.uniform(*spec.die_px)
        p = Placement(rng.uniform(0, w), rng.uniform(0, h), size, rng.uniform(0, 90))
        if fits(p):
            placed.append(p)
    return placed


def _corners(p: Placement) -> np.ndarray:
    t = math.radians(p.rotation)
    c, s = math.cos(t), math.sin(t)
    half = p.size / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return local @ np.array([[c, s], [-s, c]]) + [p.cx, p.cy]


def _squares_overlap(a: Placement, b: Placement) -> bool:
    if math.hypot(a.cx - b.cx, a.cy - b.cy) > (a.size + b.size) * 0.72:
        return False
    ca, cb = _corners(a), _corners(b)
    for poly in (ca, cb):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = ca @ axis, cb @ axis
            # a small tolerance lets dice touch (shared edges) without counting as overlap
            slack = 0.02 * np.linalg.norm(axis) * min(a.size, b.size)
            if pa.max() <= pb.min() + slack or pb.max() <= pa.min() + slack:
                return False
    return True


# ---------------------------------------------------------------- the scene


def _look(rng: np.random.Generator, spec: SceneSpec) -> DieLook:
    if spec.dice_set is None:
        return random_look(rng)
    colours = spec.colours or DICE_SETS[spec.dice_set].colour_names
    return set_look(rng, spec.dice_set, colours[int(rng.integers(len(colours)))])


def paste_die(img: np.ndarray, rgba: np.ndarray, cx: float, cy: float,
              top_box: tuple[float, float, float, float], *, shadow: float = 0.35,
              ) -> tuple[float, float, float, float]:
    """Paste a rendered die so its top face is centred at (cx, cy); return the frame box."""
    bx, by, bw, bh = top_box
    x0, y0 = int(round(cx - bx)), int(round(cy - by))
    alpha = rgba[..., 3].astype(np.float32) / 255.0
    if shadow > 0:
        soft = _shadow_blur(alpha, max(1.0, bw * 0.08)) * shadow
        off = max(1, int(bw * 0.06))
        dark = np.zeros_like(rgba[..., :3])
        _blend(img, dark, soft, x0 + off, y0 + off)
    _blend(img, rgba[..., :3], alpha, x0, y0)
    return (x0 + bx, y0 + by, bw, bh)


#: A contact shadow blurred by more than this (a die over 200 px wide: close-ups) is blurred
#: at a smaller scale and grown back: within 1% of the exact blur, and 2 ms instead of 1.6 s
#: for a 700 px die (a kernel of 8 sigma on a sprite twice the die's size). Every die the
#: trainers draw, the demo's and every die of the benches' frames is blurred exactly, as
#: before.
SHADOW_EXACT_SIGMA = 16.0


def _shadow_blur(alpha: np.ndarray, sigma: float) -> np.ndarray:
    """``alpha`` blurred by a Gaussian of ``sigma`` px."""
    if sigma <= SHADOW_EXACT_SIGMA:
        return cv2.GaussianBlur(alpha, (0, 0), sigma)
    h, w = alpha.shape
    factor = sigma / (SHADOW_EXACT_SIGMA / 2)
    small_w, small_h = max(1, round(w / factor)), max(1, round(h / factor))
    small = cv2.resize(alpha, (small_w, small_h), interpolation=cv2.INTER_AREA)
    step = w / small_w
    # the area shrink is itself a blur (a box of ``step`` px: variance step^2 / 12)
    small_sigma = math.sqrt(max(sigma ** 2 - step ** 2 / 12.0, 1.0)) / step
    small = cv2.GaussianBlur(small, (0, 0), small_sigma)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def render_scene(rng: np.random.Generator, spec: SceneSpec | None = None,
                 table: np.ndarray | None = None) -> Scene:
    """Draw one full frame as ``spec`` says (default: 1080p, 60 Dice Party dice); on
    ``table`` (a BGR picture of the frame's size, e.g. a real board or carpet) instead of
    a drawn table when given."""
    spec = spec or SceneSpec()
    h, w = spec.height, spec.width
    mean_px = float(np.mean(spec.die_px))
    # Everything else on the table is sized relative to the dice (1.0 = a 24 px die), so a
    # small tile with small dice looks like a zoomed-out table, not a table of giant cards.
    scale = mean_px / 24
    if table is not None:
        if table.shape[:2] != (h, w):
            raise ValueError(f"the table picture is {table.shape[1]}x{table.shape[0]}, "
                             f"the scene {w}x{h}")
        img = np.ascontiguousarray(table, dtype=np.uint8).copy()
    else:
        img = _table(rng, h, w, scale)
    for _ in range(spec.distractors):
        if rng.random() < 0.35:
            _card(rng, img, scale)
        else:
            _token(rng, img, scale, mean_px)
    # Drawn only when asked for, so that scenes without keyboards keep their random stream.
    if spec.keyboard_probability > 0 and rng.random() < spec.keyboard_probability:
        _keyboard(rng, img, mean_px)
    dice = []
    light = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0)
    for p in place_dice(rng, spec):
        look = _look(rng, spec)
        value = int(rng.integers(1, 7))
        tilt = rng.uniform(0, spec.max_tilt)
        rendered = render_die(value, look, max(4, int(round(p.size))), rng,
                              rotation_deg=p.rotation, tilt=tilt, light_dir=light)
        box = paste_die(img, rendered.image_bgra, p.cx, p.cy, rendered.top_box)
        dice.append(SceneDie(box[0], box[1], box[2], box[3], rendered.top_value,
                             look.colour_name))
    hand_mask = np.zeros((h, w), np.uint8)
    if rng.random() < spec.hand_probability:
        draw_hand(rng, img, hand_mask, scale=scale)
        dice = [_hide_if_covered(d, hand_mask) for d in dice]
    if spec.lighting:
        img = apply_light(img, rng.uniform(2700, 6500), rng,
                          glare=rng.uniform(0, 0.25) if rng.random() < 0.4 else 0.0,
                          shadow=rng.uniform(0, 0.4) if rng.random() < 0.4 else 0.0,
                          brightness=rng.uniform(0.8, 1.15))
    if spec.camera_noise:
        img = degrade(img, rng, blur=rng.uniform(0, 0.8) * scale, noise=rng.uniform(1, 5),
                      jpeg_quality=int(rng.integers(70, 96)))
    return Scene(img, tuple(dice), hand_mask)


def _hide_if_covered(die: SceneDie, mask: np.ndarray) -> SceneDie:
    """Hide a die when the hand covers most of the middle of its top face."""
    h, w = mask.shape
    x0, x1 = max(0, int(die.cx - die.w / 4)), min(w, int(die.cx + die.w / 4) + 1)
    y0, y1 = max(0, int(die.cy - die.h / 4)), min(h, int(die.cy + die.h / 4) + 1)
    middle = mask[y0:y1, x0:x1]
    if middle.size and np.count_nonzero(middle) < 0.4 * middle.size:
        return die
    return SceneDie(die.cx, die.cy, die.w, die.h, die.value, die.colour, hidden=True)
