"""Labelled crops for the die reader: one die per crop, on a table, as the camera cuts it.

A crop is cut around the top face of the die in the middle, the way
``dicecam.vision.read.die_reader.cut_crop`` cuts one at run time (square, ``CROP_MARGIN`` times
the top face's box), with the box size and centre jittered as a detector's would be. Around
it: a table surface (felt, wood, a grey tray, a printed board), neighbouring dice touching
the crop, shadows, lamp colour 2700-6500 K, glare, blur, noise and JPEG.

Label ``UNREADABLE`` (0) is for crops the pipeline must not guess on: a cocked die (on an
edge), a die mostly out of the crop, a hand, a game token or a blank cube, board print, an
empty table. Labels 1-6 are the value on top.

Everything is drawn from a ``numpy`` Generator; ``generate_crops`` splits the work into
chunks with their own seeds, so the result does not depend on the number of workers.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicecam.synth.dicesets import DICE_SETS, DieLook, random_body, random_look, set_look
from dicecam.synth.die import RenderedDie, render_die
from dicecam.synth.light import apply_light, degrade
from dicecam.vision.read.die_reader import CROP_MARGIN

UNREADABLE = 0
CHUNK = 256
_NEIGHBOUR_POOL = 24


@dataclass(frozen=True)
class CropOptions:
    """Knobs of the crop generator (defaults: the training mix)."""

    out_px: int = 32
    unreadable_share: float = 0.14
    set_share: float = 0.3           # dice of a built-in set, the rest of random looks
    max_tilt: float = 36.0           # readable dice lean at most this much
    neighbour_chance: float = 0.55
    only_set: str | None = None      # every die from this built-in set (colour benches)
    kelvin: float | None = None      # fixed lamp colour (colour benches)
    degrade: bool = True
    #: dice made clear bodies that show the marks of their far faces (``DieLook.see_through``;
    #: byler's smoky dice with red pips, read 1 -> 6 by readers that never saw such dice)
    see_through_share: float = 0.0


# ---------------------------------------------------------------------------- tables

def _noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.random((cells, cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def table_surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A patch of table: felt, wood, grey tray, white desk or printed board (uint8 BGR)."""
    kind = rng.random()
    base = np.empty((h, w, 3), np.float32)
    if kind < 0.2:  # felt: a saturated or dark cloth
        colour = np.array(random_body(rng), np.float32) * rng.uniform(0.4, 0.9)
        base[:] = colour
        base += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    elif kind < 0.45:  # wood grain
        light = np.array([rng.uniform(90, 190), rng.uniform(130, 210), rng.uniform(170, 235)])
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, math.pi)
        t = xx * math.cos(angle) + yy * math.sin(angle)
        warp = _noise(rng, h, w, 4) * rng.uniform(5, 25)
        grain = 0.5 + 0.5 * np.sin((t + warp) / rng.uniform(1.5, 6.0))
        base[:] = light
        base *= (1.0 - rng.uniform(0.05, 0.25) * grain)[..., None]
    elif kind < 0.7:  # grey or white tray / desk
        level = rng.uniform(140, 245)
        tint = rng.normal(0, 6, 3)
        base[:] = level + tint
        base += rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    else:  # printed board: flat colours, lines, shapes, letters
        base[:] = random_body(rng)
        _board_print(rng, base)
    return np.clip(base, 0, 255).astype(np.uint8)


def _board_print(rng: np.random.Generator, img: np.ndarray) -> None:
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 6))):
        colour = tuple(float(c) for c in random_body(rng))
        what = rng.random()
        p1 = (int(rng.integers(-w // 2, w)), int(rng.integers(-h // 2, h)))
        p2 = (int(rng.integers(0, w + w // 2)), int(rng.integers(0, h + h // 2)))
        if what < 0.35:
            cv2.rectangle(img, p1, p2, colour, -1 if rng.random() < 0.6 else 2)
        elif what < 0.6:
            cv2.line(img, p1, p2, colour, int(rng.integers(1, 4)), cv2.LINE_AA)
        elif what < 0.8:
            radius = int(rng.integers(2, max(3, w // 2)))
            cv2.circle(img, p1, radius, colour, -1 if rng.random() < 0.5 else 2, cv2.LINE_AA)
        else:
            text = "".join(chr(int(rng.integers(65, 91))) for _ in range(int(rng.integers(1, 5))))
            # OpenCV draws text on 8-bit images only: draw a mask, then paint through it
            mask = np.zeros((h, w), np.uint8)
            cv2.putText(mask, text, p1, cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.3, 1.5),
                        255, int(rng.integers(1, 3)), cv2.LINE_AA)
            a = mask[..., None].astype(np.float32) / 255.0
            img += (np.array(colour, np.float32) - img) * a


# ---------------------------------------------------------------------------- drawing

def _paste(canvas: np.ndarray, rgba: np.ndarray, left: int, top: int,
           shadow: tuple[float, float, float] | None = None) -> None:
    """Alpha-blend ``rgba`` onto the float ``canvas`` with its top-left at (left, top); a
    ``shadow`` (dx, dy, strength) first darkens the table under the die."""
    h, w = rgba.shape[:2]
    alpha = rgba[..., 3].astype(np.float32) / 255.0
    if shadow is not None:
        dx, dy, strength = shadow
        soft = cv2.GaussianBlur(alpha, (0, 0), max(0.8, 0.04 * w))
        _blend(canvas, None, soft * strength, left + int(round(dx)), top + int(round(dy)))
    _blend(canvas, rgba[..., :3].astype(np.float32), alpha, left, top)


def _blend(canvas: np.ndarray, colour: np.ndarray | None, alpha: np.ndarray,
           left: int, top: int) -> None:
    ch, cw = canvas.shape[:2]
    h, w = alpha.shape
    x0, y0 = max(left, 0), max(top, 0)
    x1, y1 = min(left + w, cw), min(top + h, ch)
    if x0 >= x1 or y0 >= y1:
        return
    a = alpha[y0 - top:y1 - top, x0 - left:x1 - left, None]
    roi = canvas[y0:y1, x0:x1]
    if colour is None:
        roi *= 1.0 - a
    else:
        roi += (colour[y0 - top:y1 - top, x0 - left:x1 - left] - roi) * a


def _random_die(rng: np.random.Generator, face_px: int, options: CropOptions,
                max_tilt: float) -> RenderedDie:
    look = _pick_look(rng, options)
    return render_die(int(rng.integers(1, 7)), look, face_px, rng,
                      rotation_deg=rng.uniform(0, 360), tilt=_tilt(rng, max_tilt),
                      corner_radius=rng.uniform(0.08, 0.3),
                      perspective=rng.uniform(0.0, 0.2))


def _pick_look(rng: np.random.Generator, options: CropOptions) -> DieLook:
    if options.only_set is not None:
        return set_look(rng, options.only_set)
    if rng.random() < options.set_share:
        return set_look(rng, list(DICE_SETS)[int(rng.integers(len(DICE_SETS)))])
    look = random_look(rng)
    # (drawn only where asked for, so earlier recipes draw the same crops)
    if options.see_through_share > 0 and rng.random() < options.see_through_share:
        look = see_through_look(rng, look)
    return look


def see_through_look(rng: np.random.Generator, look: DieLook) -> DieLook:
    """``look`` as a clear die: a smoky grey or tinted body, half of them tinted like
    ``look``'s, marks painted in a colour that stands out (red, white, gold or black)."""
    if rng.random() < 0.5:  # smoke: a dark, nearly grey body
        grey = rng.uniform(40, 110)
        tint = rng.uniform(-12, 12, 3)
        body = tuple(int(np.clip(grey + t, 0, 255)) for t in tint)
    else:
        body = look.body_bgr
    paints = [(40, 40, 200), (235, 235, 235), (60, 190, 230), (25, 25, 25)]
    mark = look.mark_bgr if rng.random() < 0.3 else paints[int(rng.integers(len(paints)))]
    return replace(look, body_bgr=body, mark_bgr=mark, translucent=True, marbled=False,
                   see_through=float(rng.uniform(0.3, 0.6)))


def _tilt(rng: np.random.Generator, max_tilt: float) -> float:
    # most dice are seen nearly from above; some (webcam at an angle) lean a lot
    return float(max_tilt * rng.random() ** 1.6)


def _hand(rng: np.random.Generator, canvas: np.ndarray) -> None:
    h, w = canvas.shape[:2]
    skin = np.array([rng.uniform(60, 190), rng.uniform(90, 200), rng.uniform(140, 245)],
                    np.float32)
    layer = np.zeros((h, w), np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    cv2.ellipse(layer, (int(cx), int(cy)), (int(w * rng.uniform(0.3, 0.7)),
                int(h * rng.uniform(0.2, 0.5))), rng.uniform(0, 180), 0, 360, 1.0, -1)
    for _ in range(int(rng.integers(1, 5))):  # fingers
        angle = rng.uniform(0, 2 * math.pi)
        length = rng.uniform(0.4, 0.9) * w
        end = (int(cx + length * math.cos(angle)), int(cy + length * math.sin(angle)))
        cv2.line(layer, (int(cx), int(cy)), end, 1.0, max(2, int(w * rng.uniform(0.1, 0.2))))
    layer = cv2.GaussianBlur(layer, (0, 0), max(0.6, 0.02 * w))
    shade = _noise(rng, h, w, 3)[..., None] * 0.35 + 0.75
    colour = skin * shade
    canvas += (colour - canvas) * layer[..., None]


def _token(rng: np.random.Generator, canvas: np.ndarray, face_px: int) -> None:
    """A game token: a disc, a meeple-ish blob, or a blank cube that is not a die."""
    h, w = canvas.shape[:2]
    colour = tuple(float(c) for c in random_body(rng))
    kind = rng.random()
    if kind < 0.45:
        look = DieLook(random_body(rng), random_body(rng), "pips", "blank")
        cube = render_die(1, look, face_px, rng, rotation_deg=rng.uniform(0, 360),
                          tilt=rng.uniform(0, 25), corner_radius=rng.uniform(0.0, 0.2))
        # a blank cube: paint the one pip over with the body colour of its face
        image = cube.image_bgra.copy()
        cx, cy, bw, bh = cube.top_box
        r = max(1, int(0.16 * max(bw, bh)))
        centre = (int(round(cx)), int(round(cy)))
        sample = image[int(cy - bh * 0.3), int(cx - bw * 0.3), :3].tolist()
        cv2.circle(image, centre, r, (*sample, 255), -1, cv2.LINE_AA)
        left = int(w / 2 - cx + rng.normal(0, 0.05 * w))
        top = int(h / 2 - cy + rng.normal(0, 0.05 * h))
        _paste(canvas, image, left, top, (0.1 * face_px, 0.1 * face_px, 0.35))
    elif kind < 0.8:
        centre = (int(w / 2 + rng.normal(0, 0.08 * w)), int(h / 2 + rng.normal(0, 0.08 * h)))
        radius = int(face_px * rng.uniform(0.4, 0.8))
        cv2.circle(canvas, centre, radius, colour, -1, cv2.LINE_AA)
        if rng.random() < 0.5:
            ring = tuple(float(c) for c in random_body(rng))
            cv2.circle(canvas, centre, max(1, int(radius * 0.6)), ring, max(1, radius // 6),
                       cv2.LINE_AA)
    else:
        pts = np.array([[w / 2 + rng.normal(0, 0.3) * face_px, h / 2 + rng.normal(0, 0.3)
                         * face_px] for _ in range(7)], np.float32)
        hull = cv2.convexHull(pts).astype(np.int32)
        cv2.fillConvexPoly(canvas, hull, colour, cv2.LINE_AA)


# ---------------------------------------------------------------------------- one crop

class _Pool:
    """Recently rendered dice reused as neighbours: cheap, and deterministic per chunk."""

    def __init__(self) -> None:
        self.dice: list[RenderedDie] = []

    def neighbour(self, rng: np.random.Generator, face_px: int, options: CropOptions,
                  ) -> RenderedDie:
        if len(self.dice) >= _NEIGHBOUR_POOL and rng.random() < 0.85:
            die = self.dice[int(rng.integers(len(self.dice)))]
            side = die.image_bgra.shape[0]
            want = int(round(side * face_px / max(die.top_box[2], 1.0) * 0.8))
            if abs(want - side) > 2 and want > 8:
                scale = want / side
                image = cv2.resize(die.image_bgra, (want, want), interpolation=cv2.INTER_AREA)
                cx, cy, bw, bh = die.top_box
                return RenderedDie(image, (cx * scale, cy * scale, bw * scale, bh * scale),
                                   die.top_value, die.top_facing)
            return die
        die = _random_die(rng, face_px, options, options.max_tilt)
        if len(self.dice) < _NEIGHBOUR_POOL:
            self.dice.append(die)
        else:
            self.dice[int(rng.integers(len(self.dice)))] = die
        return die


def make_crop(rng: np.random.Generator, options: CropOptions = CropOptions(),
              pool: _Pool | None = None, label: int | None = None,
              ) -> tuple[np.ndarray, int, str]:
    """One labelled crop: (BGR uint8 ``out_px`` square, label 0-6, colour name or "")."""
    pool = pool if pool is not None else _Pool()
    if label is None:
        label = UNREADABLE if rng.random() < options.unreadable_share else int(
            rng.integers(1, 7))
    face_px = int(round(math.exp(rng.uniform(math.log(14), math.log(56)))))
    box_px = face_px * rng.uniform(1.0, 1.3)  # detector boxes of rotated faces are larger
    side = max(12, int(round(box_px * CROP_MARGIN * rng.uniform(0.85, 1.2))))
    pad = max(2, side // 8)  # a margin for the centre jitter; pasting clips the rest
    canvas = table_surface(rng, side + 2 * pad, side + 2 * pad).astype(np.float32)
    centre = pad + side / 2 + rng.normal(0, 0.05 * side, 2)
    shadow = (rng.uniform(-0.12, 0.12) * face_px, rng.uniform(-0.12, 0.12) * face_px,
              rng.uniform(0.1, 0.5))

    if rng.random() < options.neighbour_chance:
        for _ in range(int(rng.integers(1, 4))):
            die = pool.neighbour(rng, face_px, options)
            angle = rng.uniform(0, 2 * math.pi)
            dist = face_px * rng.uniform(1.05, 1.6)
            nx, ny = centre[0] + dist * math.cos(angle), centre[1] + dist * math.sin(angle)
            cx, cy = die.top_box[:2]
            _paste(canvas, die.image_bgra, int(round(nx - cx)), int(round(ny - cy)), shadow)

    colour_name = ""
    if label == UNREADABLE:
        _unreadable(rng, canvas, centre, face_px, side, options, shadow)
    else:
        look = _pick_look(rng, options)
        die = render_die(label, look, face_px, rng, rotation_deg=rng.uniform(0, 360),
                         tilt=_tilt(rng, options.max_tilt),
                         corner_radius=rng.uniform(0.08, 0.3),
                         perspective=rng.uniform(0.0, 0.2))
        if die.top_value != label:  # cannot happen below 45 degrees; guard the label anyway
            raise AssertionError("rendered top face differs from the label")
        colour_name = look.colour_name
        cx, cy = die.top_box[:2]
        _paste(canvas, die.image_bgra, int(round(centre[0] - cx)), int(round(centre[1] - cy)),
               shadow)

    x0 = int(round(pad))
    image = np.clip(canvas[x0:x0 + side, x0:x0 + side], 0, 255).astype(np.uint8)
    kelvin = options.kelvin if options.kelvin is not None else rng.uniform(2700, 6500)
    image = apply_light(image, kelvin, rng,
                        glare=rng.uniform(0.1, 0.5) if rng.random() < 0.25 else 0.0,
                        shadow=rng.uniform(0.1, 0.5) if rng.random() < 0.25 else 0.0,
                        brightness=rng.uniform(0.55, 1.25),
                        correction=rng.uniform(0.3, 0.9))
    crop = image
    if options.degrade:
        crop = degrade(crop, rng, blur=rng.uniform(0, 0.03 * side) if rng.random() < 0.6 else 0,
                       motion=rng.uniform(0, 0.04 * side) if rng.random() < 0.15 else 0,
                       noise=rng.uniform(0, 8), jpeg_quality=int(rng.integers(35, 95))
                       if rng.random() < 0.6 else None)
    crop = cv2.resize(crop, (options.out_px, options.out_px), interpolation=cv2.INTER_AREA)
    return crop, int(label), colour_name


def _unreadable(rng: np.random.Generator, canvas: np.ndarray, centre: np.ndarray,
                face_px: int, side: int, options: CropOptions,
                shadow: tuple[float, float, float]) -> None:
    kind = rng.random()
    if kind < 0.3:  # cocked: resting on an edge, two faces lean alike
        look = _pick_look(rng, options)
        azimuth = float(rng.integers(4)) * 90 + rng.normal(0, 5)
        die = render_die(int(rng.integers(1, 7)), look, face_px, rng, rotation_deg=0.0,
                         tilt=rng.uniform(42, 48), tilt_azimuth_deg=azimuth,
                         corner_radius=rng.uniform(0.08, 0.3),
                         perspective=rng.uniform(0.0, 0.2))
        image = _rotate_rgba(die.image_bgra, rng.uniform(0, 360))
        ys, xs = np.nonzero(image[..., 3] > 128)
        cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
        _paste(canvas, image, int(round(centre[0] - cx)), int(round(centre[1] - cy)), shadow)
    elif kind < 0.55:  # mostly out of the crop
        die = _random_die(rng, face_px, options, options.max_tilt)
        angle = rng.uniform(0, 2 * math.pi)
        dist = side * rng.uniform(0.55, 0.8)
        cx, cy = die.top_box[:2]
        x, y = centre[0] + dist * math.cos(angle), centre[1] + dist * math.sin(angle)
        _paste(canvas, die.image_bgra, int(round(x - cx)), int(round(y - cy)), shadow)
    elif kind < 0.7:  # a hand, maybe over a die
        if rng.random() < 0.5:
            die = _random_die(rng, face_px, options, options.max_tilt)
            cx, cy = die.top_box[:2]
            _paste(canvas, die.image_bgra, int(round(centre[0] - cx)),
                   int(round(centre[1] - cy)), shadow)
        _hand(rng, _view(canvas, centre, side / 2))
    elif kind < 0.88:
        _token(rng, _view(canvas, centre, side / 2), face_px)
    else:  # board print or bare table
        if rng.random() < 0.7:
            _board_print(rng, _view(canvas, centre, side / 2))


def _view(canvas: np.ndarray, centre: np.ndarray, half: float) -> np.ndarray:
    """The square of ``canvas`` (a view, clipped to it) around ``centre``."""
    h, w = canvas.shape[:2]
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    return canvas[y0:min(h, int(centre[1] + half)), x0:min(w, int(centre[0] + half))]


def _rotate_rgba(image: np.ndarray, degrees: float) -> np.ndarray:
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, matrix, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=0)


# ---------------------------------------------------------------------------- many crops

def _chunk(args: tuple[np.random.SeedSequence, int, CropOptions]
           ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    seed, count, options = args
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    pool = _Pool()
    images = np.empty((count, options.out_px, options.out_px, 3), np.uint8)
    labels = np.empty(count, np.int64)
    colours = []
    for i in range(count):
        images[i], labels[i], colour = make_crop(rng, options, pool)
        colours.append(colour)
    return images, labels, colours


def generate_crops(count: int, seed: int, options: CropOptions = CropOptions(), *,
                   workers: int = 1, progress: Callable[[str], None] | None = None,
                   ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``count`` crops: (N x out x out x 3 uint8 BGR, labels N, colour names N).

    The same ``seed`` and options give the same crops whatever ``workers`` is.
    """
    if count <= 0:
        raise ValueError(f"crop count must be positive, got {count}")
    sizes = [CHUNK] * (count // CHUNK) + ([count % CHUNK] if count % CHUNK else [])
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    jobs = [(s, n, options) for s, n in zip(seeds, sizes, strict=True)]
    parts = []
    start = time.monotonic()
    done = 0

    def report(n: int) -> None:
        if progress is not None:
            rate = n / max(time.monotonic() - start, 1e-6)
            progress(f"rendered {n}/{count} crops ({rate:.0f}/s)")

    if workers <= 1:
        for job in jobs:
            parts.append(_chunk(job))
            done += job[1]
            report(done)
    else:
        with ProcessPoolExecutor(max_workers=workers) as executor:
            for part in executor.map(_chunk, jobs):
                parts.append(part)
                done += len(part[1])
                report(done)
    images = np.concatenate([p[0] for p in parts])
    labels = np.concatenate([p[1] for p in parts])
    colours = [c for p in parts for c in p[2]]
    return images, labels, colours


def print_progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
