"""Synthetic table scenes: deterministic, labelled, dice touching but never overlapping."""

from __future__ import annotations

import cv2
import numpy as np

from dicecam.synth.scene import (
    Placement,
    SceneSpec,
    _squares_overlap,
    place_dice,
    render_scene,
)

SMALL = SceneSpec(width=480, height=320, n_dice=20, die_px=(18.0, 24.0), distractors=4)


def test_the_same_seed_gives_the_same_scene():
    a = render_scene(np.random.default_rng(3), SMALL)
    b = render_scene(np.random.default_rng(3), SMALL)
    c = render_scene(np.random.default_rng(4), SMALL)
    assert np.array_equal(a.image_bgr, b.image_bgr) and a.dice == b.dice
    assert not np.array_equal(a.image_bgr, c.image_bgr)


def test_every_die_is_labelled_inside_the_frame_with_a_value_and_a_set_colour():
    scene = render_scene(np.random.default_rng(5), SMALL)
    assert scene.image_bgr.shape == (320, 480, 3)
    assert len(scene.dice) == 20
    for d in scene.dice:
        assert 0 < d.cx < 480 and 0 < d.cy < 320
        assert 15 <= max(d.w, d.h) <= 24 * 1.5
        assert d.value in range(1, 7)
        assert d.colour in {"yellow", "orange", "red"}


def test_clustered_dice_touch_but_do_not_overlap():
    spec = SceneSpec(width=960, height=540, n_dice=60, die_px=(20.0, 28.0), cluster_share=1.0)
    placed = place_dice(np.random.default_rng(1), spec)
    assert len(placed) >= 55
    touching = 0
    for i, a in enumerate(placed):
        for b in placed[i + 1:]:
            assert not _squares_overlap(a, b)
            if np.hypot(a.cx - b.cx, a.cy - b.cy) < 1.2 * max(a.size, b.size):
                touching += 1
    assert touching >= 30  # clusters really are packed


def test_overlap_check_tells_touching_from_overlapping():
    a = Placement(100, 100, 20, 0)
    assert not _squares_overlap(a, Placement(120.5, 100, 20, 0))   # edge to edge
    assert not _squares_overlap(a, Placement(120.5, 120.5, 20, 0))  # corner to corner
    assert _squares_overlap(a, Placement(112, 100, 20, 0))
    assert _squares_overlap(a, Placement(122, 100, 20, 45))  # a turned corner pokes in
    assert not _squares_overlap(a, Placement(125, 100, 20, 45))


def test_a_hand_hides_the_dice_under_it():
    spec = SceneSpec(width=480, height=320, n_dice=40, die_px=(18.0, 22.0),
                     hand_probability=1.0)
    hidden = 0
    for seed in range(4):
        scene = render_scene(np.random.default_rng(seed), spec)
        assert scene.has_hand
        for d in scene.dice:
            middle = scene.hand_mask[int(d.cy - d.h / 4):int(d.cy + d.h / 4) + 1,
                                     int(d.cx - d.w / 4):int(d.cx + d.w / 4) + 1]
            covered = np.count_nonzero(middle) / middle.size
            assert d.hidden == (covered >= 0.4)
            hidden += d.hidden
        assert len(scene.visible_dice) + sum(d.hidden for d in scene.dice) == len(scene.dice)
    assert hidden > 0


def test_a_keyboard_is_drawn_only_when_asked_and_leaves_other_scenes_as_they_were():
    from dataclasses import replace

    plain = render_scene(np.random.default_rng(6), SMALL)
    never = render_scene(np.random.default_rng(6), replace(SMALL, keyboard_probability=0.0))
    always = render_scene(np.random.default_rng(6), replace(SMALL, keyboard_probability=1.0))
    assert np.array_equal(plain.image_bgr, never.image_bgr)
    assert not np.array_equal(plain.image_bgr, always.image_bgr)
    assert len(always.dice) == SMALL.n_dice  # keys are not dice: no label added or lost
    assert not always.has_hand


def test_a_large_dies_shadow_is_blurred_as_the_exact_blur_would_and_a_small_ones_exactly():
    from dicecam.synth.scene import SHADOW_EXACT_SIGMA, _shadow_blur

    for side, sigma in ((60, 4.0), (200, SHADOW_EXACT_SIGMA), (400, 24.0), (900, 72.0)):
        alpha = np.zeros((side, side), np.float32)
        alpha[side // 5:side * 4 // 5, side // 4:side * 3 // 4] = 1.0  # the die's silhouette
        exact = cv2.GaussianBlur(alpha, (0, 0), sigma)
        blurred = _shadow_blur(alpha, sigma)
        assert blurred.shape == alpha.shape and blurred.dtype == np.float32
        if sigma <= SHADOW_EXACT_SIGMA:
            assert np.array_equal(blurred, exact)
        else:  # within 1% of full shadow: under a grey level once scaled by its darkness
            assert np.abs(blurred - exact).max() < 0.01
