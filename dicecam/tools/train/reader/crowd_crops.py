"""Crops of crowded Dice Party throws, as the demo draws them, for the die reader.

A Dice Party party of 54 dice lies in touching clusters; the reader's crop (1.4 x a die's
box) then holds the corners and pips of its neighbours, and the reader trained on crops
with at most a few neighbours reads such dice unsure (``dicecam bench crowd``: most of the
throws that wait for a tap wait on a die read right but under 0.90). These crops are cut
from the still pictures of demo throws of the party ``grown_parties`` grows, around each
die's true top face as ``cut_crop`` cuts a detector's box; the training's ``--warp``
jitters their size and centre as a detector would. Throw numbers start at
``CROWD_FIRST``, far from the ones the benches read (``bench crowd``: 0 to a few hundred).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from dicecam.scorer.diceparty.grown import grown_parties
from dicecam.scorer.registry import get_game
from dicecam.vision.read.die_reader import cut_crop, resize_crop
from dicecam.vision.sources.demo import DemoSource, DemoThrow

GAME = "diceparty"
#: a "not a die" crop is centred at least this many die sizes from every die's centre
NO_DIE_DISTANCE = 0.8
#: draws of a place per "not a die" crop wanted
PLACE_TRIES = 20
PARTY = 54
#: the first throw number drawn for training; ``seed`` moves it on by ``SEED_STRIDE``
CROWD_FIRST = 100_000
SEED_STRIDE = 10_000


def party_throws(first: int, count: int):
    """(still picture, its roll) of ``count`` demo throws of the grown party from ``first``."""
    game = get_game(GAME)
    config, actions = grown_parties(["Ann", "Bo"], PARTY)
    state = game.replay(config, actions)
    due = game.throw_due(state) if game.throw_due is not None else None
    if due is None:
        raise ValueError("the grown Dice Party game waits for no throw")
    source = DemoSource(game.dice_set)
    request = DemoThrow(tuple(due.colours))  # values thrown at random
    for index in range(first, first + count):
        yield source.still(index, request)


def crowd_tiles(throws: int, seed: int, tile: int, long_side: int, per_throw: int = 2,
                scales: tuple[float, float] = (1.0, 1.0)) -> list[tuple[np.ndarray, np.ndarray]]:
    """(tile x tile x 3 uint8 picture, N x 4 boxes) pairs for the detector: the still
    pictures of ``throws`` demo throws scaled as the detector sees a frame (``long_side``)
    times a factor drawn from ``scales`` (log-uniform: a camera higher or lower above the
    table), ``per_throw`` squares of each around a die drawn at random (the clusters are
    where the dice are), with the top faces of the dice lying in them; a throw drawn
    smaller than a tile gives none (the demo's 960 x 540 pictures under about 0.71: at
    0.4-1.2, about half the throws). Throw numbers as ``crowd_crops`` draws them for
    ``seed`` (the reader's and the detector's are alike)."""
    rng = np.random.default_rng([seed, CROWD_FIRST, 1])
    out = []
    first = CROWD_FIRST + seed * SEED_STRIDE
    for picture, roll in party_throws(first, throws):
        height, width = picture.shape[:2]
        k = long_side / max(height, width)
        if scales != (1.0, 1.0):
            k *= float(np.exp(rng.uniform(np.log(scales[0]), np.log(scales[1]))))
        scaled = cv2.resize(picture, (round(width * k), round(height * k)),
                            interpolation=cv2.INTER_AREA)
        boxes = np.array([(d.cx * k, d.cy * k, d.w * k, d.h * k) for d in roll.dice
                          if not d.hidden], np.float32).reshape(-1, 4)
        sh, sw = scaled.shape[:2]
        for _ in range(per_throw if len(boxes) and min(sh, sw) >= tile else 0):
            cx, cy = boxes[int(rng.integers(len(boxes))), :2]
            x0 = int(np.clip(cx - tile / 2 + rng.uniform(-tile / 4, tile / 4), 0, sw - tile))
            y0 = int(np.clip(cy - tile / 2 + rng.uniform(-tile / 4, tile / 4), 0, sh - tile))
            b = boxes - np.array([x0, y0, 0, 0], np.float32)
            inside = (b[:, 0] >= 0) & (b[:, 0] < tile) & (b[:, 1] >= 0) & (b[:, 1] < tile)
            out.append((scaled[y0:y0 + tile, x0:x0 + tile].copy(), b[inside]))
    return out


def crowd_crops(throws: int, size: int, seed: int, negatives: int = 0,
                log: Callable[[str], None] = lambda _: None) -> tuple[np.ndarray, np.ndarray]:
    """(N x size x size x 3 uint8 crops, N classes) from ``throws`` demo throws: every die
    (its value) and up to ``negatives`` a throw of places ``NO_DIE_DISTANCE`` die sizes
    or more from every die's centre, cut at a die's size (class 0, "not a die": the
    cloth between the clusters, the edges of dice beside them)."""
    images, labels = [], []
    first = CROWD_FIRST + seed * SEED_STRIDE
    rng = np.random.default_rng([seed, CROWD_FIRST])
    for number, (picture, roll) in enumerate(party_throws(first, throws), 1):
        for die in roll.dice:
            images.append(resize_crop(cut_crop(picture, die.cx, die.cy, die.w, die.h), size))
            labels.append(die.value)
        for cx, cy, side in _places_without_a_die(rng, picture.shape, roll.dice, negatives):
            images.append(resize_crop(cut_crop(picture, cx, cy, side, side), size))
            labels.append(0)
        if number % 20 == 0:
            log(f"drew {number}/{throws} crowded throws ({len(labels)} dice)")
    return (np.stack(images) if images else np.zeros((0, size, size, 3), np.uint8),
            np.array(labels, np.int64))


def _places_without_a_die(rng: np.random.Generator, shape: tuple[int, ...], dice,
                          wanted: int) -> list[tuple[float, float, float]]:
    if not wanted or not dice:
        return []
    centres = np.array([(d.cx, d.cy) for d in dice], np.float64)
    side = float(np.median([max(d.w, d.h) for d in dice]))
    height, width = shape[:2]
    places = []
    for _ in range(wanted * PLACE_TRIES):
        x, y = rng.uniform(side, width - side), rng.uniform(side, height - side)
        if np.hypot(*(centres - (x, y)).T).min() >= NO_DIE_DISTANCE * side:
            places.append((x, y, side * rng.uniform(0.85, 1.15)))
            if len(places) == wanted:
                break
    return places
