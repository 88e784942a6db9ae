"""bench real's close-up and tilted views of a labelled photo keep their labels on the dice."""

from __future__ import annotations

import numpy as np

from dicecam.tools.bench.accuracy.real_views import closeup, tilted
from dicecam.tools.realdata import LabelledDie


def _photo() -> tuple[np.ndarray, list[LabelledDie]]:
    frame = np.full((640, 640, 3), 40, np.uint8)
    truth = []
    for value, (x, y) in enumerate([(200, 200), (420, 260), (330, 470)], start=2):
        frame[y - 30:y + 30, x - 30:x + 30] = 230  # a 60 px face
        truth.append(LabelledDie(x, y, 60, 60, value))
    return frame, truth


def _face_under(view: np.ndarray, die: LabelledDie) -> float:
    return float(view[int(die.cy), int(die.cx)].mean())


def test_a_close_up_blows_a_die_up_to_300_600_px_with_its_label() -> None:
    frame, truth = _photo()
    made = [closeup(frame, truth, np.random.default_rng(seed)) for seed in range(20)]
    views = [m for m in made if m is not None]
    assert views  # a window that cuts no die is found for most seeds
    for view, kept in views:
        assert view.shape == (1080, 1920, 3)
        assert any(300 <= max(d.w, d.h) <= 600 for d in kept)
        for die in kept:  # inside the frame, on the white face
            assert die.w / 2 <= die.cx <= 1920 - die.w / 2
            assert _face_under(view, die) > 200
        assert {d.value for d in kept} <= {2, 3, 4}


def test_dice_too_small_to_blow_up_give_no_close_up() -> None:
    frame = np.full((640, 640, 3), 40, np.uint8)
    tiny = [LabelledDie(320, 320, 20, 20, 5)]  # 300 px would be 15x
    assert all(closeup(frame, tiny, np.random.default_rng(s)) is None for s in range(5))


def test_a_tilted_view_squashes_the_table_and_keeps_each_label_on_its_die() -> None:
    frame, truth = _photo()
    for seed in range(6):
        view, moved = tilted(frame, truth, np.random.default_rng(seed))
        assert view.shape == frame.shape and len(moved) == len(truth)
        for before, after in zip(truth, moved, strict=True):
            assert after.value == before.value
            # foreshortened, 30-50 degrees off vertical: flatter than wide (the near side of
            # the table comes out larger, the far side smaller)
            assert after.h / after.w < 0.95 * before.h / before.w
            assert _face_under(view, after) > 200
