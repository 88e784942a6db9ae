"""A table's die detector: the shipped detector fine-tuned on the table's own frames.

It learns from two kinds of tiles, both at the scale the table reader runs the detector
(the frame's long side at the model's ``input_long_side``):

* pieces of the frames the players confirmed whole (``complete``: a roll accepted as read,
  a labelled photo), each taught die a centre to find, everything else (the table's
  board, tokens, carpet, the boxes they called "not a die") a place to find nothing;
* the table's empty picture with its own confirmed dice pasted onto it (copy-paste, as
  the shipped detector's training does with real dice), so a few rolls give many layouts.

CenterNet's focal loss on the heat map and L1 on offsets and sizes, as
``dicecam train detector`` trains the shipped one (``detector_targets`` is shared); L2-SP
to the shipped weights so it keeps what it knew. Every ``HOLD_BACK``-th complete frame is
held back: both detectors read those frames the way the table reader does (``DieDetector``
with auto-zoom) and the new one is used only where it is worse on neither figure there
(no die more missed, no false box more) and better on one (``DetectorCheck.better_than``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnx

from dicecam.teach.learn.detector_targets import STRIDE, Sample, targets
from dicecam.teach.learn.graph import Graph
from dicecam.teach.learn.optimiser import Adam
from dicecam.vision.detect.detector import MODEL_PATH, DieDetector
from dicecam.vision.matching import match_centres

#: the detector's maps before the export's sigmoid and peak test
RAW = "/net/head/head.1/Conv_output_0"
#: the side of a training tile, in detector input pixels (a multiple of 16)
TILE = 160
#: draws of a tile's place before one with a die across its edge is taken anyway
TILE_TRIES = 8
#: one complete frame in this many is held back to check the new detector
HOLD_BACK = 4
#: fewer held-back dice than this judge nothing: the new detector is kept, not used
MIN_HELD_BACK = 10
#: a found die's centre within this share of the true die's size matches it
MATCH_TOLERANCE = 0.5


@dataclass(frozen=True)
class TableFrame:
    """A taught frame: the picture, its known dice boxes (cx, cy, w, h) in its pixels, and
    whether every die in it is known."""

    image: np.ndarray
    dice: np.ndarray
    complete: bool
    #: the roll or photo it shows (None: not kept), held back with that roll's dice
    roll: str | None = None


@dataclass(frozen=True)
class DetectorSettings:
    steps: int = 200
    batch: int = 8
    learning_rate: float = 5e-4
    anchor: float = 1e-3  # L2-SP: pull towards the shipped weights
    paste_share: float = 0.5  # tiles of the empty table with the table's dice pasted on
    seed: int = 0


@dataclass(frozen=True)
class DetectorCheck:
    """How a detector found the held-back frames' dice."""

    frames: int
    dice: int
    found: int  # true dice found
    false: int  # boxes on no die

    @property
    def recall(self) -> float:
        return self.found / self.dice if self.dice else 0.0

    def worse_on(self, other: DetectorCheck) -> tuple[str, ...]:
        """What this detector did worse than ``other`` on the same held-back frames:
        "recall" (fewer dice found), "precision" (more boxes on no die)."""
        return tuple(name for name, worse in (("recall", self.found < other.found),
                                              ("precision", self.false > other.false))
                     if worse)

    def better_than(self, other: DetectorCheck) -> bool:
        """Worse on neither figure and better on one. A detector that trades missed dice
        for fewer false boxes is not used (pxl's held-back frames: 11 missed and 50 false
        with the shipped detector, 17 and 8 with the table's, used before 2026-12-07): a
        die missed at a taught table is a die the game never counts unless a player
        sees the gap."""
        return not self.worse_on(other) and (self.found > other.found
                                             or self.false < other.false)

    def to_json(self) -> dict[str, int | float]:
        return {"frames": self.frames, "dice": self.dice, "found": self.found,
                "false": self.false, "recall": round(self.recall, 4)}


@dataclass(frozen=True)
class LearnedDetector:
    model: onnx.ModelProto
    shipped: DetectorCheck
    learned: DetectorCheck
    tiles_from: int  # frames learnt from
    seconds: float

    @property
    def better(self) -> bool:
        return self.learned.dice >= MIN_HELD_BACK and self.learned.better_than(self.shipped)


def input_long_side(model: onnx.ModelProto) -> int:
    meta = {p.key: p.value for p in model.metadata_props}
    return int(meta.get("input_long_side", 640))


def _at_scale(frame: TableFrame, long_side: int) -> tuple[np.ndarray, np.ndarray]:
    h, w = frame.image.shape[:2]
    scale = min(1.0, long_side / max(h, w))
    image = frame.image if scale == 1.0 else cv2.resize(
        frame.image, (max(16, round(w * scale)), max(16, round(h * scale))),
        interpolation=cv2.INTER_AREA)
    return image, frame.dice.reshape(-1, 4).astype(np.float32) * scale


def _padded(image: np.ndarray, size: int) -> np.ndarray:
    h, w = image.shape[:2]
    if h >= size and w >= size:
        return image
    return cv2.copyMakeBorder(image, 0, max(0, size - h), 0, max(0, size - w),
                              cv2.BORDER_REPLICATE)


def frame_tile(rng: np.random.Generator, image: np.ndarray, boxes: np.ndarray) -> Sample:
    """A TILE square of a frame at input scale, often around one of its dice, placed where
    no die lies across its edge when such a place is found in ``TILE_TRIES`` draws: a die
    whose centre falls outside the tile but whose face shows inside it would teach "no
    die here" on a die's corner. Measured on damiantab (dice 40-125 input px, a tile is
    160; 16 photos taught, the other 64 read): false boxes 10 -> 6, the same 3 of 192 dice
    missed (2s, which the shipped detector finds at scores of only 0.5-0.66)."""
    image = _padded(image, TILE)
    h, w = image.shape[:2]
    for _ in range(TILE_TRIES):
        if len(boxes) and rng.random() < 0.7:
            cx, cy = boxes[int(rng.integers(len(boxes)))][:2]
            x0 = int(np.clip(cx - rng.uniform(0.15, 0.85) * TILE, 0, w - TILE))
            y0 = int(np.clip(cy - rng.uniform(0.15, 0.85) * TILE, 0, h - TILE))
        else:
            x0, y0 = int(rng.integers(0, w - TILE + 1)), int(rng.integers(0, h - TILE + 1))
        if not _dice_across_edge(boxes, x0, y0):
            break
    tile = image[y0:y0 + TILE, x0:x0 + TILE]
    b = boxes.copy()
    if len(b):
        b[:, 0] -= x0
        b[:, 1] -= y0
        b = b[(b[:, 0] >= 0) & (b[:, 0] < TILE) & (b[:, 1] >= 0) & (b[:, 1] < TILE)]
    return Sample(tile, b.reshape(-1, 4), np.ones(len(b), bool),
                  np.zeros((TILE, TILE), np.uint8))


def _dice_across_edge(boxes: np.ndarray, x0: int, y0: int) -> bool:
    """Whether a die's centre lies outside the tile at (x0, y0) while its face overlaps it."""
    if not len(boxes):
        return False
    cx, cy = boxes[:, 0] - x0, boxes[:, 1] - y0
    half_w, half_h = boxes[:, 2] / 2, boxes[:, 3] / 2
    centre_in = (cx >= 0) & (cx < TILE) & (cy >= 0) & (cy < TILE)
    overlaps = (cx + half_w > 0) & (cx - half_w < TILE) & (cy + half_h > 0) & \
        (cy - half_h < TILE)
    return bool((overlaps & ~centre_in).any())


def pasted_tile(rng: np.random.Generator, empty: np.ndarray,
                dice: Sequence[tuple[np.ndarray, float]]) -> Sample:
    """A TILE square of the empty table with 1-6 of the table's dice pasted on it, apart.
    ``dice``: (stored crop, 2 x the face's side in input pixels) pairs."""
    empty = _padded(empty, TILE)
    h, w = empty.shape[:2]
    x0, y0 = int(rng.integers(0, w - TILE + 1)), int(rng.integers(0, h - TILE + 1))
    tile = empty[y0:y0 + TILE, x0:x0 + TILE].astype(np.float32)
    boxes = []
    for _ in range(int(rng.integers(1, 7))):
        crop, side = dice[int(rng.integers(len(dice)))]
        side = side * rng.uniform(0.9, 1.1)
        size = max(6, int(round(side)))
        if size >= TILE:
            continue
        cx, cy = rng.uniform(size / 2, TILE - size / 2, 2)
        if any(math.hypot(cx - bx, cy - by) < 0.6 * (size + bw * 2) / 2
               for bx, by, bw, _ in boxes):
            continue
        patch = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA
                           if crop.shape[0] > size else cv2.INTER_LINEAR).astype(np.float32)
        k = int(rng.integers(4))
        patch = np.rot90(patch, k)
        yy, xx = np.mgrid[0:size, 0:size]
        r = np.hypot(xx - (size - 1) / 2, yy - (size - 1) / 2) / (size / 2)
        # the die and a rim of its own table, fading out: no hard seam to find instead
        alpha = np.clip((0.95 - r) / 0.25, 0.0, 1.0)[..., None]
        left, top = int(round(cx - size / 2)), int(round(cy - size / 2))
        roi = tile[top:top + size, left:left + size]
        roi += (patch - roi) * alpha
        face = side / 2
        boxes.append((left + size / 2, top + size / 2, face, face))
    b = np.array(boxes, np.float32).reshape(-1, 4)
    return Sample(np.clip(tile, 0, 255).astype(np.uint8), b, np.ones(len(b), bool),
                  np.zeros((TILE, TILE), np.uint8))


def _augment(rng: np.random.Generator, s: Sample) -> Sample:
    img, boxes = s.image.astype(np.float32), s.boxes.copy()
    if rng.random() < 0.5:
        img = img[:, ::-1]
        boxes[:, 0] = TILE - boxes[:, 0]
    if rng.random() < 0.5:
        img = img[::-1]
        boxes[:, 1] = TILE - boxes[:, 1]
    if rng.random() < 0.5:
        img = img.transpose(1, 0, 2)
        boxes = boxes[:, [1, 0, 3, 2]]
    img = img * rng.uniform(0.8, 1.2) + rng.uniform(-15, 15)
    return Sample(np.clip(img, 0, 255), boxes, s.size_known, s.hand)


def loss_and_grad(raw: np.ndarray, heat: np.ndarray, reg: np.ndarray,
                  mask: np.ndarray) -> tuple[float, np.ndarray]:
    """CenterNet's focal loss (heat) and L1 (offsets, log sizes) of raw maps N x 6 x G x G,
    and its gradient; the hand map (channel 5) is left as it is."""
    grad = np.zeros_like(raw)
    z = raw[:, 0:1]
    p = np.clip(1.0 / (1.0 + np.exp(-z)), 1e-4, 1 - 1e-4)
    pos = (heat == 1.0).astype(raw.dtype)
    neg = 1.0 - pos
    weight = (1.0 - heat) ** 4
    n_pos = max(1.0, float(pos.sum()))
    loss = -(np.log(p) * (1 - p) ** 2 * pos + np.log(1 - p) * p ** 2 * weight * neg).sum()
    # d/dz of each term (dp/dz = p (1 - p))
    d_pos = -(1 - p) ** 3 + 2 * p * np.log(p) * (1 - p) ** 2
    d_neg = p ** 3 - 2 * p ** 2 * (1 - p) * np.log(1 - p)
    grad[:, 0:1] = (d_pos * pos + d_neg * weight * neg) / n_pos
    offsets, sizes = mask[:, 0:1], mask[:, 1:2]
    n_sizes = max(1.0, float(sizes.sum()))
    diff = raw[:, 1:5] - reg
    loss_reg = (np.abs(diff[:, 0:2]) * offsets).sum() / n_pos + \
        (np.abs(diff[:, 2:4]) * sizes).sum() / n_sizes
    grad[:, 1:3] = np.sign(diff[:, 0:2]) * offsets / n_pos
    grad[:, 3:5] = np.sign(diff[:, 2:4]) * sizes / n_sizes
    return float(loss / n_pos + loss_reg), grad


def split_held_back(frames: Sequence[TableFrame], held_rolls: set[str] | None = None
                    ) -> tuple[list[TableFrame], list[TableFrame]]:
    """(to learn from, held back): the complete frames of ``held_rolls`` (the rolls whose
    dice the reader holds back: the whole table is checked on frames neither model learnt
    from), and every ``HOLD_BACK``-th complete frame of those without a roll."""
    learn, held = [], []
    complete = 0
    for frame in frames:
        if frame.complete and held_rolls is not None and frame.roll is not None:
            (held if frame.roll in held_rolls else learn).append(frame)
        elif frame.complete:
            complete += 1
            if complete % HOLD_BACK == 0:
                held.append(frame)
                continue
        learn.append(frame)
    return learn, held


def check_detector(detector: DieDetector, held: Sequence[TableFrame]) -> DetectorCheck:
    dice = found = false = 0
    for frame in held:
        boxes = detector(frame.image).boxes
        truth = [(b[0], b[1], max(b[2], b[3])) for b in frame.dice.reshape(-1, 4)]
        pairs = match_centres(truth, [(b[0], b[1]) for b in boxes], MATCH_TOLERANCE)
        matched = sum(1 for j in pairs if j is not None)
        dice += len(truth)
        found += matched
        false += len(boxes) - matched
    return DetectorCheck(len(held), dice, found, false)


def learn_detector(frames: Sequence[TableFrame], dice: Sequence[tuple[np.ndarray, float]],
                   empty: np.ndarray | None, *, work_dir: Path,
                   base_model: Path = MODEL_PATH, settings: DetectorSettings | None = None,
                   log: Callable[[str], None] = lambda _: None,
                   held_rolls: set[str] | None = None) -> LearnedDetector:
    """Fine-tune the detector at ``base_model`` on a table's ``frames`` and its ``dice``
    (stored crops with their face side in frame pixels) pasted on ``empty`` (its empty
    picture, or None); check it against the base on the held-back frames."""
    settings = settings or DetectorSettings()
    started = time.monotonic()
    rng = np.random.default_rng(settings.seed)
    learn, held = split_held_back(frames, held_rolls)
    graph = Graph.load(base_model, RAW)
    long_side = input_long_side(graph.model)
    scaled = [_at_scale(f, long_side) for f in learn if f.complete]
    empty_scaled = None
    pasted: list[tuple[np.ndarray, float]] = []
    if empty is not None and dice:
        empty_scaled, _ = _at_scale(TableFrame(empty, np.zeros((0, 4)), True), long_side)
        scale = empty_scaled.shape[1] / empty.shape[1]
        pasted = [(crop, 2 * face * scale) for crop, face in dice]
    if not scaled and not pasted:
        raise ValueError("no complete frame and no empty-table picture to learn from")
    anchor = {k: v.copy() for k, v in graph.params.items()}
    adam = Adam(graph.params, settings.learning_rate)
    for step in range(settings.steps):
        samples = []
        for _ in range(settings.batch):
            if pasted and (not scaled or rng.random() < settings.paste_share):
                sample = pasted_tile(rng, empty_scaled, pasted)
            else:
                image, boxes = scaled[int(rng.integers(len(scaled)))]
                sample = frame_tile(rng, image, boxes)
            samples.append(_augment(rng, sample))
        parts = [targets(s) for s in samples]
        heat = np.stack([p[0] for p in parts])
        reg = np.stack([p[1] for p in parts])
        mask = np.stack([p[2] for p in parts])
        batch = np.stack([s.image.transpose(2, 0, 1) for s in samples]).astype(np.float32)
        raw = graph.forward(batch, keep=True)
        loss, grad = loss_and_grad(raw, heat, reg, mask)
        grads = graph.backward(grad / settings.batch)
        for k in grads:
            grads[k] = grads[k] + settings.anchor * (graph.params[k] - anchor[k])
        rate = settings.learning_rate * 0.5 * (1 + np.cos(np.pi * step / settings.steps))
        adam.step(graph.params, grads, rate)
        if step % 40 == 0:
            log(f"detector step {step}/{settings.steps}: loss {loss / settings.batch:.3f}")
    model = graph.with_weights()
    work_dir.mkdir(parents=True, exist_ok=True)
    candidate = work_dir / "detector.candidate.onnx"
    onnx.save(model, str(candidate))
    shipped = check_detector(DieDetector(base_model, auto_zoom=True), held)
    learned = check_detector(DieDetector(candidate, auto_zoom=True,
                                         coarse_model_path=base_model), held)
    candidate.unlink()
    return LearnedDetector(model, shipped, learned, len(scaled), time.monotonic() - started)


_ = STRIDE  # the tiles' side must be a multiple of the maps' stride times four
assert TILE % (STRIDE * 4) == 0
