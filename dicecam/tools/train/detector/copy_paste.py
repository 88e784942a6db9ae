"""Copy-paste: real dice cut from their labels and pasted onto other real tables.

The real tuning photos show a few dice sets on a few tables (byler's trays, the webcam's
desk, pxl's felt on a carpet); the real photos without dice show boards, dominoes and
carpets with no die on them. A detector that only ever sees real dice on their own
tables can learn the table instead of the die. ``copy_paste_pool`` cuts each labelled
die that is not buried in a pile (``die_patches``) with a soft edge, and pastes a few
dozen of them, at one size per tile, turned and flipped at random, with a faint shadow,
onto a crop of a photo without dice (``copy_paste_tile``). The boxes are the dice's faces
as the labels give them, scaled with the die; ``size_known`` follows the label (a pxl or
webcam label's face is an estimate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from dicecam.teach.learn.detector_targets import Sample

#: How far a die reaches from its label's centre, in face sides, per source: a byler or
#: webcam label is the top face (and the sides a near-top-down camera sees a little of);
#: a pxl label's box is the whole die seen at an angle, 1/0.7 of its face.
DIE_HALF = {"byler": 0.6, "webcam": 0.6, "pxl": 0.72}
#: Beyond the die the patch fades to nothing over this many face sides: the table around
#: a die is not carried along with it (a ring of tray felt would be a die's mark).
FADE = 0.12
#: A die with another labelled die's centre nearer than this many of its face sides is in
#: a pile: its patch would carry a part of its neighbour, unlabelled. Not cut.
CROWDED = 1.2
#: The face sides a pasted die may have in a tile (tile pixels).
FACE_PX = (8.0, 56.0)


@dataclass(frozen=True)
class DiePatch:
    image: np.ndarray  # S x S x 3 uint8, the die at the centre
    alpha: np.ndarray  # S x S float32, 1 on the die, 0 at the edge
    face_w: float  # the face's size in the patch's pixels
    face_h: float
    size_known: bool


def _soft_mask(side: int, face: float, die_half: float) -> np.ndarray:
    """1 out to ``die_half`` faces from the centre (a rounded square), 0 ``FADE`` beyond."""
    c = (side - 1) / 2.0
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32)
    # a squircle distance: square enough to keep a die's corners, round enough to lose
    # the table's corners
    d = ((np.abs(xs - c) ** 4 + np.abs(ys - c) ** 4) ** 0.25) / face
    return np.clip((die_half + FADE - d) / FADE, 0.0, 1.0).astype(np.float32)


def die_patches(image: np.ndarray, boxes: np.ndarray, known: np.ndarray,
                source: str) -> list[DiePatch]:
    """The patches of the dice of one ``source`` photo (``boxes``: face boxes cx, cy, w,
    h) that are not crowded by another die and lie wholly inside the photo."""
    patches = []
    h, w = image.shape[:2]
    centres = boxes[:, :2]
    die_half = DIE_HALF[source]
    for i, (cx, cy, fw, fh) in enumerate(boxes):
        face = max(fw, fh)
        if face < 4:
            continue
        others = np.delete(centres, i, axis=0)
        if len(others) and np.hypot(*(others - (cx, cy)).T).min() < CROWDED * face:
            continue
        half = int(math.ceil(face * (die_half + FADE)))
        x0, y0 = int(round(cx)) - half, int(round(cy)) - half
        if x0 < 0 or y0 < 0 or x0 + 2 * half > w or y0 + 2 * half > h:
            continue
        cut = image[y0:y0 + 2 * half, x0:x0 + 2 * half].copy()
        patches.append(DiePatch(cut, _soft_mask(2 * half, face, die_half), float(fw),
                                float(fh), bool(known[i])))
    return patches


def table_crop(rng: np.random.Generator, image: np.ndarray, size: int) -> np.ndarray:
    """A ``size`` square of ``image`` at a random scale (0.5-1.6) and place."""
    scale = math.exp(rng.uniform(math.log(0.5), math.log(1.6)))
    h, w = image.shape[:2]
    scaled = cv2.resize(image, (max(size, round(w * scale)), max(size, round(h * scale))),
                        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    x0 = int(rng.integers(0, scaled.shape[1] - size + 1))
    y0 = int(rng.integers(0, scaled.shape[0] - size + 1))
    return scaled[y0:y0 + size, x0:x0 + size].copy()


def _turned(rng: np.random.Generator, patch: DiePatch, scale: float
            ) -> tuple[np.ndarray, np.ndarray, float, float]:
    side = max(4, round(patch.image.shape[0] * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    image = cv2.resize(patch.image, (side, side), interpolation=interp)
    alpha = cv2.resize(patch.alpha, (side, side), interpolation=cv2.INTER_LINEAR)
    fw, fh = patch.face_w * side / patch.image.shape[0], patch.face_h * side / patch.image.shape[0]
    turns = int(rng.integers(4))
    image, alpha = np.rot90(image, turns), np.rot90(alpha, turns)
    if turns % 2:
        fw, fh = fh, fw
    if rng.random() < 0.5:
        image, alpha = image[:, ::-1], alpha[:, ::-1]
    # each die lit a little differently, as on a real table
    image = np.clip(image.astype(np.float32) * rng.uniform(0.85, 1.15), 0, 255)
    return image, alpha, fw, fh


def copy_paste_tile(rng: np.random.Generator, patches: list[DiePatch], table: np.ndarray):
    """``table`` (a square photo without dice) with real dice pasted on it, as a
    ``Sample``: one face size per tile, dice never on top of each other."""
    tile = table.astype(np.float32)
    size = tile.shape[0]
    face = math.exp(rng.uniform(math.log(FACE_PX[0]), math.log(FACE_PX[1])))
    wanted = int(rng.integers(1, max(2, min(40, int(0.12 * size * size / (face * face))))))
    boxes, known, placed = [], [], []
    for _ in range(wanted * 4):
        if len(boxes) >= wanted:
            break
        patch = patches[int(rng.integers(len(patches)))]
        scale = face * rng.uniform(0.9, 1.1) / max(patch.face_w, patch.face_h)
        image, alpha, fw, fh = _turned(rng, patch, scale)
        side = image.shape[0]
        cx, cy = rng.uniform(0, size), rng.uniform(0, size)
        if any(math.hypot(cx - x, cy - y) < 1.45 * max(fw, fh, r) for x, y, r in placed):
            continue
        x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
        sx0, sy0 = max(0, -x0), max(0, -y0)
        tx0, ty0 = max(0, x0), max(0, y0)
        tx1, ty1 = min(size, x0 + side), min(size, y0 + side)
        if tx1 <= tx0 or ty1 <= ty0:
            continue
        pasted = np.zeros((size, size, 3), np.float32)
        cover = np.zeros((size, size), np.float32)
        pasted[ty0:ty1, tx0:tx1] = image[sy0:sy0 + ty1 - ty0, sx0:sx0 + tx1 - tx0]
        cover[ty0:ty1, tx0:tx1] = alpha[sy0:sy0 + ty1 - ty0, sx0:sx0 + tx1 - tx0]
        # a faint shadow a little below and beside the die
        shift = max(1, round(0.08 * side))
        shadow = np.zeros_like(cover)
        shadow[shift:, shift:] = cover[:-shift, :-shift]
        tile *= 1.0 - 0.3 * shadow[..., None]
        tile = tile * (1.0 - cover[..., None]) + pasted * cover[..., None]
        boxes.append((cx, cy, fw, fh))
        known.append(patch.size_known)
        placed.append((cx, cy, max(fw, fh)))
    return Sample(np.clip(tile, 0, 255).astype(np.uint8),
                  np.array(boxes, np.float32).reshape(-1, 4), np.array(known, bool),
                  np.zeros((size, size), np.uint8))


def copy_paste_pool(count: int, seed: int, real: list, negatives: list, size: int) -> list:
    """``count`` tiles of the real dice of ``real`` (``real_pool`` items: image, boxes,
    size_known, source) pasted onto crops of ``negatives`` (``background_pool`` items);
    none when either is empty."""
    patches = [p for image, boxes, known, source in real
               for p in die_patches(image, boxes, known, source)]
    if count <= 0 or not patches or not negatives:
        return []
    rng = np.random.default_rng(seed + 104_729)
    tiles = []
    for _ in range(count):
        table = table_crop(rng, negatives[int(rng.integers(len(negatives)))][0], size)
        tiles.append(copy_paste_tile(rng, patches, table))
    return tiles
