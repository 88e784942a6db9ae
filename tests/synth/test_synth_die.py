"""The die renderer and crop generator: labels match what is drawn, same seed same pixels."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from dicecam.synth.dicesets import DICE_SETS, DieLook, random_look, set_look
from dicecam.synth.die import PIP_LAYOUT, render_die, side_values
from dicecam.synth.light import apply_light, degrade, light_gains_bgr
from dicecam.tools.train.reader.crops import UNREADABLE, CropOptions, generate_crops, make_crop

WHITE_DIE = DieLook((235, 235, 235), (20, 20, 20), "pips", "white")
RED_DIE = DieLook((40, 30, 200), (240, 240, 240), "pips", "red")


def _on_background(image_bgra: np.ndarray, background: int) -> np.ndarray:
    alpha = image_bgra[..., 3:4].astype(np.float32) / 255.0
    out = image_bgra[..., :3] * alpha + background * (1 - alpha)
    return out.astype(np.uint8)


def _count_marks(image_bgr: np.ndarray, box: tuple[float, float, float, float],
                 dark: bool) -> int:
    """Connected blobs of mark colour inside the box (shrunk to stay off the edges)."""
    cx, cy, w, h = box
    x0, x1 = int(cx - 0.42 * w), int(cx + 0.42 * w)
    y0, y1 = int(cy - 0.42 * h), int(cy + 0.42 * h)
    grey = cv2.cvtColor(image_bgr[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    mask = (grey < 110) if dark else (grey > 200)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 6)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("rotation", [0.0, 17.0, 45.0, 90.0])
def test_clean_render_shows_as_many_pips_as_its_value(value: int, rotation: float) -> None:
    rng = np.random.default_rng(value)
    die = render_die(value, WHITE_DIE, 64, rng, rotation_deg=rotation, light_dir=(0, 0, 1))
    assert die.top_value == value
    image = _on_background(die.image_bgra, 255)
    assert _count_marks(image, die.top_box, dark=True) == value


@pytest.mark.parametrize("value", range(1, 7))
def test_white_pips_on_a_red_die_are_counted_too(value: int) -> None:
    rng = np.random.default_rng(10 + value)
    die = render_die(value, RED_DIE, 64, rng, rotation_deg=30.0, light_dir=(0, 0, 1))
    image = _on_background(die.image_bgra, 0)
    assert _count_marks(image, die.top_box, dark=False) == value


def test_tilted_die_keeps_its_value_on_top_and_shows_sides() -> None:
    rng = np.random.default_rng(3)
    flat = render_die(2, WHITE_DIE, 48, rng, tilt=0.0)
    tilted = render_die(2, WHITE_DIE, 48, rng, tilt=30.0, tilt_azimuth_deg=20.0)
    assert tilted.top_value == 2
    assert 0.8 < tilted.top_facing < 0.9  # cos 30 degrees
    # the side faces make the die's silhouette larger than the top face alone
    assert (tilted.image_bgra[..., 3] > 128).sum() > 1.2 * (flat.image_bgra[..., 3] > 128).sum()


def test_side_values_are_the_four_neighbours_of_the_top() -> None:
    rng = np.random.default_rng(0)
    for value in range(1, 7):
        sides = side_values(value, rng)
        assert sorted(sides) == sorted(v for v in range(1, 7) if v not in (value, 7 - value))
        assert sides[0] + sides[1] == 7 and sides[2] + sides[3] == 7


def test_numerals_differ_per_value() -> None:
    look = DICE_SETS["charidice"].colours["black"][0]
    images = []
    for value in range(1, 7):
        die = render_die(value, look, 48, np.random.default_rng(0), light_dir=(0, 0, 1))
        images.append(_on_background(die.image_bgra, 255).astype(int))
    for i in range(6):
        for j in range(i + 1, 6):
            assert np.abs(images[i] - images[j]).sum() > 1000


def test_same_seed_same_render() -> None:
    look = random_look(np.random.default_rng(5))
    a = render_die(4, look, 30, np.random.default_rng(9), rotation_deg=12, tilt=20)
    b = render_die(4, look, 30, np.random.default_rng(9), rotation_deg=12, tilt=20)
    assert np.array_equal(a.image_bgra, b.image_bgra) and a.top_box == b.top_box


def test_bad_values_are_refused() -> None:
    with pytest.raises(ValueError, match="1-6"):
        render_die(7, WHITE_DIE, 30, np.random.default_rng(0))
    with pytest.raises(ValueError, match="size"):
        render_die(1, WHITE_DIE, 2, np.random.default_rng(0))


def test_every_built_in_set_has_its_colours() -> None:
    assert set(DICE_SETS) == {"diceparty", "dicetopia", "charidice", "v6"}
    assert DICE_SETS["diceparty"].colour_names == ("yellow", "orange", "red")
    assert DICE_SETS["dicetopia"].colour_names == ("purple", "white", "turquoise")
    assert {"black", "grey"} <= set(DICE_SETS["charidice"].colour_names)
    assert len(DICE_SETS["charidice"].colours) == 6
    rng = np.random.default_rng(0)
    for name, dice_set in DICE_SETS.items():
        look = set_look(rng, name)
        assert look.marks == dice_set.marks and look.colour_name in dice_set.colours


def test_generator_is_deterministic_whatever_the_worker_count() -> None:
    a_img, a_lab, a_col = generate_crops(40, 123, workers=1)
    b_img, b_lab, b_col = generate_crops(40, 123, workers=2)
    assert np.array_equal(a_img, b_img) and np.array_equal(a_lab, b_lab) and a_col == b_col
    c_img, _, _ = generate_crops(40, 124, workers=1)
    assert not np.array_equal(a_img, c_img)
    assert a_img.shape == (40, 32, 32, 3) and a_img.dtype == np.uint8
    assert set(a_lab.tolist()) <= set(range(7))


def test_a_crop_of_a_set_die_carries_its_colour_name() -> None:
    options = CropOptions(out_px=48, only_set="diceparty", unreadable_share=0.0)
    rng = np.random.default_rng(1)
    for _ in range(10):
        crop, label, colour = make_crop(rng, options)
        assert crop.shape == (48, 48, 3)
        assert label in PIP_LAYOUT and colour in ("yellow", "orange", "red")
    crop, label, colour = make_crop(rng, options, label=UNREADABLE)
    assert label == UNREADABLE and colour == ""


def test_warm_light_is_redder_than_cool_light() -> None:
    warm, cool = light_gains_bgr(2700), light_gains_bgr(6500)
    assert warm[2] / warm[0] > 1.3 > cool[2] / cool[0]
    grey = np.full((8, 8, 3), 128, np.uint8)
    lit = apply_light(grey, 2700, np.random.default_rng(0), correction=0.0)
    assert lit[..., 2].mean() > lit[..., 0].mean() + 20


def test_degrade_keeps_shape_and_type() -> None:
    image = np.random.default_rng(0).integers(0, 255, (40, 40, 3), dtype=np.uint8)
    out = degrade(image, np.random.default_rng(1), blur=1.0, motion=3, noise=5, jpeg_quality=50)
    assert out.shape == image.shape and out.dtype == np.uint8


def test_a_clear_die_shows_its_far_faces_pips_and_keeps_its_own_paint() -> None:
    """A one on a smoky die with red paint: seen from above, the six beneath shows through
    as faint marks around the one's pip; the opaque die shows the one alone."""
    smoky = DieLook((80, 80, 80), (40, 40, 200), "pips", "any", translucent=True)
    clear = replace(smoky, see_through=0.6)
    opaque = render_die(1, replace(smoky, translucent=False), 64, np.random.default_rng(4),
                        light_dir=(0, 0, 1), perspective=0.0)
    seen = render_die(1, clear, 64, np.random.default_rng(4), light_dir=(0, 0, 1),
                      perspective=0.0)
    assert seen.top_value == 1 and seen.top_box == opaque.top_box

    def reddish(die) -> int:
        image = _on_background(die.image_bgra, 200).astype(int)
        cx, cy, w, h = die.top_box
        face = image[int(cy - 0.4 * h):int(cy + 0.4 * h), int(cx - 0.4 * w):int(cx + 0.4 * w)]
        return int(((face[..., 2] - face[..., 1]) > 25).sum())

    # the one's own pip is as red on both; the six's pips add faint red beside it
    assert reddish(seen) > 1.5 * reddish(opaque)
    # the paint on the top stays opaque: the pip's centre is the paint's colour
    cx, cy = (int(round(t)) for t in seen.top_box[:2])
    assert seen.image_bgra[cy, cx, 3] == 255


def test_clear_dice_join_the_training_crops_only_when_asked_for() -> None:
    plain = generate_crops(40, 9, CropOptions(), workers=1)[0]
    again = generate_crops(40, 9, CropOptions(see_through_share=0.0), workers=1)[0]
    more = generate_crops(40, 9, CropOptions(see_through_share=1.0), workers=1)[0]
    assert np.array_equal(plain, again) and not np.array_equal(plain, more)
