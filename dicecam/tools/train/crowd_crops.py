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

import numpy as np

from dicecam.scorer.registry import get_game
from dicecam.tools.grown_parties import grown_parties
from dicecam.vision.demo import DemoSource, DemoThrow
from dicecam.vision.die_reader import cut_crop, resize_crop

GAME = "diceparty"
PARTY = 54
#: the first throw number drawn for training; ``seed`` moves it on by ``SEED_STRIDE``
CROWD_FIRST = 100_000
SEED_STRIDE = 10_000


def crowd_crops(throws: int, size: int, seed: int,
                log: Callable[[str], None] = lambda _: None) -> tuple[np.ndarray, np.ndarray]:
    """(N x size x size x 3 uint8 crops, N values 1-6) from ``throws`` demo throws."""
    game = get_game(GAME)
    config, actions = grown_parties(["Ann", "Bo"], PARTY)
    state = game.replay(config, actions)
    due = game.throw_due(state) if game.throw_due is not None else None
    if due is None:
        raise ValueError("the grown Dice Party game waits for no throw")
    source = DemoSource(game.dice_set)
    request = DemoThrow(tuple(due.colours))  # values thrown at random
    images, labels = [], []
    first = CROWD_FIRST + seed * SEED_STRIDE
    for index in range(first, first + throws):
        picture, roll = source.still(index, request)
        for die in roll.dice:
            images.append(resize_crop(cut_crop(picture, die.cx, die.cy, die.w, die.h), size))
            labels.append(die.value)
        if (index - first + 1) % 20 == 0:
            log(f"drew {index - first + 1}/{throws} crowded throws ({len(labels)} dice)")
    return (np.stack(images) if images else np.zeros((0, size, size, 3), np.uint8),
            np.array(labels, np.int64))
