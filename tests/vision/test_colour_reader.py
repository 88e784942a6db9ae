"""The colour stage: drawn crops with known colours, and rendered table scenes."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from dicecam.calibration.colourspace import (
    bgr_to_lab,
    lab_to_linear,
    linear_to_lab,
    linear_to_srgb,
    planckian_white,
    srgb_to_linear,
)
from dicecam.calibration.profile import load_builtin_profile, new_profile
from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE
from dicecam.synth.dicesets import DieLook
from dicecam.synth.die import render_die
from dicecam.synth.light import degrade
from dicecam.synth.scene import paste_die
from dicecam.vision.colour.fit import (
    ColourSample,
    fit_profile,
    instructions,
    samples_by_columns,
)
from dicecam.vision.colour.reader import ColourReader, die_parts
from dicecam.vision.read.die_reader import cut_crop

IVORY = (215, 235, 242)


def pip_crop(body_bgr, pip_bgr=(25, 25, 25), size=60, value=5) -> np.ndarray:
    """A die seen from above inside a crop with the pipeline's margin (1.4)."""
    crop = np.full((size, size, 3), (70, 110, 60), np.uint8)  # green felt
    face = int(size / 1.4)
    o = (size - face) // 2
    cv2.rectangle(crop, (o, o), (o + face, o + face), tuple(int(c) for c in body_bgr), -1)
    spots = {1: [(0.5, 0.5)], 5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75),
                                  (0.75, 0.75)]}[value]
    for px, py in spots:
        cv2.circle(crop, (o + int(px * face), o + int(py * face)), max(2, face // 10),
                   tuple(int(c) for c in pip_bgr), -1, cv2.LINE_AA)
    return crop


def numeral_crop(numeral_bgr, body_bgr=IVORY, size=72, text="3") -> np.ndarray:
    crop = np.full((size, size, 3), (90, 60, 40), np.uint8)
    face = int(size / 1.4)
    o = (size - face) // 2
    cv2.rectangle(crop, (o, o), (o + face, o + face), body_bgr, -1)
    cv2.putText(crop, text, (o + face // 4, o + int(face * 0.78)), cv2.FONT_HERSHEY_SIMPLEX,
                face / 40, tuple(int(c) for c in numeral_bgr), max(2, face // 9), cv2.LINE_AA)
    return crop


def under_light(crop: np.ndarray, kelvin: float, exposure: float = 1.0) -> np.ndarray:
    """The crop as a camera without white balance sees it under a lamp of ``kelvin``."""
    cast = planckian_white(kelvin) / planckian_white(6500)
    cast = cast / cast.max() * exposure
    return np.clip(linear_to_srgb(srgb_to_linear(crop) * cast), 0, 255).astype(np.uint8)


def test_lab_round_trip_and_known_values() -> None:
    assert np.allclose(bgr_to_lab(np.array([255.0, 255.0, 255.0])), [100, 0, 0], atol=0.05)
    assert np.allclose(bgr_to_lab(np.array([0.0, 0.0, 0.0])), [0, 0, 0], atol=0.05)
    red = bgr_to_lab(np.array([0.0, 0.0, 255.0]))  # sRGB red: L 53.2, a 80.1, b 67.2
    assert np.allclose(red, [53.24, 80.09, 67.20], atol=0.1)
    lab = np.array([[60.0, 20.0, -30.0], [85.0, -5.0, 80.0]])
    assert np.allclose(linear_to_lab(lab_to_linear(lab)), lab, atol=1e-6)


def test_planckian_whites_run_from_warm_to_cool() -> None:
    warm, cool = planckian_white(2700), planckian_white(6500)
    assert warm[2] > 1.3 and warm[0] < 0.5  # much red, little blue
    assert np.allclose(cool, [1.0, 1.0, 1.0], atol=0.06)  # D65 is about 6500 K


def test_body_and_pips_are_told_apart() -> None:
    parts = die_parts(pip_crop((30, 215, 245)))
    assert parts is not None and parts.marks is not None
    assert np.allclose(linear_to_srgb(parts.body), (30, 215, 245), atol=3)
    assert np.allclose(linear_to_srgb(parts.marks), (25, 25, 25), atol=12)


def test_a_numeral_covering_the_middle_is_still_the_mark() -> None:
    parts = die_parts(numeral_crop((130, 40, 140), text="8"))
    assert parts is not None and parts.marks is not None
    assert np.allclose(linear_to_srgb(parts.body), IVORY, atol=4)
    assert np.allclose(linear_to_srgb(parts.marks), (130, 40, 140), atol=15)


# Each case: the die as drawn, the colour the game must read (issue 6 "What it reads").
DRAWN = [
    {"description": "yellow Party People die", "set": "diceparty", "body": (30, 215, 245),
     "expected": "yellow"},
    {"description": "orange VIP die", "set": "diceparty", "body": (20, 120, 245),
     "expected": "orange"},
    {"description": "red Mob die with white pips", "set": "diceparty", "body": (35, 30, 200),
     "pips": (240, 240, 240), "expected": "red"},
    {"description": "white money die", "set": "dicetopia", "body": (240, 240, 240),
     "expected": "white"},
    {"description": "turquoise information die", "set": "dicetopia", "body": (190, 190, 40),
     "pips": (240, 240, 240), "expected": "turquoise"},
    {"description": "purple weapons die", "set": "dicetopia", "body": (130, 40, 100),
     "pips": (240, 240, 240), "expected": "purple"},
    {"description": "black numeral", "set": "charidice", "numeral": (25, 25, 25),
     "expected": "black"},
    {"description": "grey numeral (near miss for black)", "set": "charidice",
     "numeral": (130, 130, 130), "expected": "grey"},
    {"description": "red numeral", "set": "charidice", "numeral": (40, 35, 200),
     "expected": "red"},
    {"description": "blue numeral", "set": "charidice", "numeral": (190, 90, 25),
     "expected": "blue"},
]


def _drawn(case: dict) -> np.ndarray:
    if "numeral" in case:
        return numeral_crop(case["numeral"])
    return pip_crop(case["body"], case.get("pips", (25, 25, 25)))


@pytest.mark.parametrize("kelvin", [2700, 4000, 6500])
@pytest.mark.parametrize("case", DRAWN, ids=[c["description"] for c in DRAWN])
def test_drawn_dice_read_under_any_light_with_the_builtin_profile(case: dict,
                                                                  kelvin: float) -> None:
    reader = ColourReader(load_builtin_profile(case["set"]))
    # A frame's batch: the die under test among one die of each colour of the set, so the
    # batch light estimate has the whole set to work with, as in a real frame.
    others = [c for c in DRAWN if c["set"] == case["set"]]
    crops = [under_light(_drawn(c), kelvin) for c in [case, *others]]
    colour, confidence = reader.read(crops)[0]
    assert colour == case["expected"]
    assert 0.0 <= confidence <= 1.0


@pytest.mark.parametrize("exposure", [0.6, 1.0])
def test_charidice_reads_each_die_by_its_own_body_whatever_the_light(exposure: float) -> None:
    reader = ColourReader(load_builtin_profile("charidice"))
    black = under_light(numeral_crop((25, 25, 25)), 2700, exposure)
    grey = under_light(numeral_crop((130, 130, 130)), 2700, exposure)
    # one die at a time: no batch to lean on, the anchor alone does it
    assert reader.read([black])[0][0] == "black"
    assert reader.read([grey])[0][0] == "grey"


def test_a_die_in_shadow_keeps_its_colour_and_confidence() -> None:
    profile = fit_profile_on_drawn("diceparty")
    reader = ColourReader(profile)
    shadowed = under_light(pip_crop((30, 215, 245)), 6500, exposure=0.4)  # yellow in shadow
    colour, confidence = reader.read([shadowed])[0]
    assert colour == "yellow" and confidence >= LOW_CONFIDENCE
    # the same die with no shading allowed is unlike any colour: the tablet would ask
    strict = ColourReader(replace(profile, shading=(1.0, 1.0)))
    assert strict.read([shadowed])[0][1] < LOW_CONFIDENCE


def test_unusable_crops_get_no_colour() -> None:
    reader = ColourReader(load_builtin_profile("diceparty"))
    empty = np.zeros((0, 0, 3), np.uint8)
    tiny = np.zeros((3, 3, 3), np.uint8)
    good = pip_crop((30, 215, 245))
    assert reader.read([empty, tiny, good]) == [(None, 0.0), (None, 0.0),
                                                 (reader.read([good])[0])]
    assert reader.read([]) == []


def test_a_colour_unlike_any_reference_has_low_confidence() -> None:
    profile = fit_profile_on_drawn("diceparty")
    reader = ColourReader(profile)
    colour, confidence = reader.read([pip_crop((200, 60, 30))])[0]  # a blue die
    assert confidence < LOW_CONFIDENCE
    colour, confidence = reader.read([pip_crop((30, 215, 245))])[0]
    assert colour == "yellow" and confidence >= LOW_CONFIDENCE


def fit_profile_on_drawn(set_name: str, kelvin: float = 6500):
    """Fit ``set_name`` from a frame of drawn dice laid out in colour columns."""
    base = load_builtin_profile(set_name)
    bodies = {c["expected"]: c for c in DRAWN if c["set"] == set_name}
    frame = np.full((240, 120 * len(base.colours), 3), (70, 110, 60), np.uint8)
    boxes = []
    for k, colour in enumerate(base.colours):
        for r in range(3):
            crop = _drawn(bodies[colour])
            y, x = 20 + r * 70, 30 + k * 120
            frame[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
            face = crop.shape[0] / 1.4
            boxes.append((x + crop.shape[1] / 2, y + crop.shape[0] / 2, face, face))
    frame = under_light(frame, kelvin)
    return fit_profile(frame, samples_by_columns(boxes, base.colours), base)


def test_fitting_keeps_the_names_and_stores_the_tables_white() -> None:
    profile = fit_profile_on_drawn("diceparty", kelvin=3000)
    assert profile.colours == ("yellow", "orange", "red") and profile.fitted
    white = np.array(profile.white_bgr)
    assert white[2] > white[1] > white[0]  # a warm lamp: white looks orange
    assert all(ref.samples == 3 for ref in profile.references)
    yellow = profile.reference("yellow")
    assert abs(yellow.lab[0] - 86) < 8 and yellow.lab[2] > 60


def test_samples_by_columns_labels_left_to_right() -> None:
    boxes = [(300, 10, 20, 20), (10, 50, 20, 20), (160, 90, 20, 20), (320, 80, 20, 20),
             (20, 5, 20, 20), (150, 30, 20, 20)]
    samples = samples_by_columns(boxes, ("yellow", "orange", "red"))
    assert [s.colour for s in samples] == ["yellow"] * 2 + ["orange"] * 2 + ["red"] * 2
    assert {s.box[0] for s in samples if s.colour == "red"} == {300, 320}
    with pytest.raises(InputError, match="found 5 dice, but 3 colours need the same number"):
        samples_by_columns(boxes[:5], ("yellow", "orange", "red"))


def test_fit_refuses_a_missing_or_unknown_colour() -> None:
    base = load_builtin_profile("diceparty")
    frame = np.zeros((100, 100, 3), np.uint8)
    with pytest.raises(InputError, match="no orange and red die was shown"):
        fit_profile(frame, [ColourSample((50, 50, 30, 30), "yellow")], base)
    with pytest.raises(InputError, match="'green' is not in profile diceparty"):
        fit_profile(frame, [ColourSample((50, 50, 30, 30), "green")], base)


def test_fit_refuses_colours_that_look_the_same() -> None:
    base = load_builtin_profile("diceparty")
    frame = np.full((100, 300, 3), (70, 110, 60), np.uint8)
    crop = pip_crop((30, 215, 245))  # three yellow dice, labelled as three colours
    boxes = []
    for k in range(3):
        frame[20:80, 20 + k * 100:80 + k * 100] = crop
        boxes.append((50 + k * 100, 50, 43, 43))
    with pytest.raises(InputError, match="look almost the same"):
        fit_profile(frame, samples_by_columns(boxes, base.colours), base)


def test_instructions_say_what_to_lay_out() -> None:
    assert "three yellow, three orange and three red dice" in instructions(
        load_builtin_profile("diceparty"))
    text = instructions(load_builtin_profile("charidice"))
    assert "black, grey, red, blue, green and purple" in text


# ---------------------------------------------------------------- rendered table scenes


@pytest.mark.parametrize("set_name,kelvin", [("diceparty", 2700), ("dicetopia", 6500),
                                             ("charidice", 4000)])
def test_rendered_scenes_read_before_and_after_calibration(set_name: str,
                                                           kelvin: float) -> None:
    from dicecam.tools.bench.accuracy.calibration import colour_condition

    rng = np.random.default_rng(17)
    counts = colour_condition(set_name, kelvin, rng, scenes=1).counts
    assert counts["dice"] >= 30
    assert counts["fitted_right"] / counts["dice"] >= 0.95
    assert counts["builtin_right"] / counts["dice"] >= 0.9


def test_an_unseen_dice_set_reads_once_fitted() -> None:
    """Issue 6: colour names come from a profile, so a new set works once it is fitted."""
    from dicecam.synth.dicesets import DieLook
    from dicecam.synth.die import render_die
    from dicecam.synth.scene import paste_die
    from dicecam.vision.read.die_reader import cut_crop

    looks = {"pink": DieLook((180, 105, 255), (255, 255, 255), "pips", "pink"),
             "lime": DieLook((50, 230, 160), (20, 20, 20), "pips", "lime"),
             "navy": DieLook((110, 40, 20), (240, 240, 240), "pips", "navy")}
    rng = np.random.default_rng(5)

    def frame(layout: list[str]) -> tuple[np.ndarray, list]:
        img = np.full((200, 60 * len(layout) + 40, 3), (60, 90, 130), np.uint8)
        boxes = []
        for k, name in enumerate(layout):
            die = render_die(int(rng.integers(1, 7)), looks[name], 34, rng,
                             rotation_deg=rng.uniform(0, 90), tilt=rng.uniform(0, 6))
            boxes.append(paste_die(img, die.image_bgra, 50 + 60 * k, 100, die.top_box))
        return under_light(img, 3200), boxes

    base = new_profile("pastels", "pips", list(looks))
    cal, boxes = frame([n for n in looks for _ in range(3)])
    profile = fit_profile(cal, samples_by_columns(boxes, base.colours), base)
    layout = [str(rng.choice(list(looks))) for _ in range(18)]
    test, boxes = frame(layout)
    readings = ColourReader(replace(profile)).read([cut_crop(test, *b) for b in boxes])
    assert [c for c, _ in readings] == layout


# ---------------------------------------------------------------- rendered crops, one cause each
#
# Each test below renders a die with one thing that used to mislead the colour stage (the
# synthetic crop bench, ``dicecam bench model``, showed them), cut as the pipeline cuts it.


def rendered_crop(look: DieLook, value: int, face: int = 40, *, seed: int = 3,
                  table=(60, 90, 120), glare=None, blur: float = 0.0,
                  jpeg: int | None = None, exposure: float = 1.0,
                  shift=(0.0, 0.0), box_scale: float = 1.0) -> np.ndarray:
    """A die on a table, cut like ``cut_crop`` does. ``glare``: (dx, dy, strength, radius)
    of a white spot, in face widths from the face's centre; ``shift`` and ``box_scale``
    move and grow the box as a sloppy detector would."""
    rng = np.random.default_rng(seed)
    die = render_die(value, look, face, rng, rotation_deg=20.0, tilt=4.0,
                     light_dir=(0.0, 0.0, 1.0))
    size = face * 4
    frame = np.zeros((size, size, 3), np.float32)
    frame[:] = table
    cx, cy, w, h = paste_die(frame, die.image_bgra, size / 2, size / 2, die.top_box)
    frame *= exposure
    if glare is not None:
        dx, dy, strength, radius = glare
        yy, xx = np.mgrid[0:size, 0:size]
        gx, gy = cx + dx * face, cy + dy * face
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (radius * face) ** 2))
        frame += (255 * strength * spot)[..., None]
    image = degrade(np.clip(frame, 0, 255).astype(np.uint8), rng, blur=blur,
                    jpeg_quality=jpeg)
    return cut_crop(image, cx + shift[0] * w, cy + shift[1] * h, w * box_scale,
                    h * box_scale)


def numeral(colour: str, mark) -> DieLook:
    return DieLook(IVORY, mark, "numerals", colour)


NUMERALS = {"black": (25, 25, 25), "grey": (130, 130, 130), "blue": (190, 90, 25),
            "purple": (140, 40, 120)}


@pytest.mark.parametrize("glare", [(0.3, -0.3, 0.5, 0.3), (0.4, 0.0, 0.6, 0.25),
                                   (0.25, 0.25, 0.6, 0.2)])
@pytest.mark.parametrize("colour", ["grey", "purple", "black"])
def test_glare_beside_a_numeral_is_not_taken_for_it(colour: str, glare) -> None:
    # The body used to split into a lit half and a dim half, and one half became the marks.
    crop = rendered_crop(numeral(colour, NUMERALS[colour]), 4, glare=glare, exposure=0.8)
    name, confidence = ColourReader(load_builtin_profile("charidice")).read([crop])[0]
    assert name == colour and confidence >= LOW_CONFIDENCE


@pytest.mark.parametrize("table", [(40, 140, 40), (150, 60, 140), (40, 60, 170)])
def test_the_table_in_an_off_centre_crop_is_not_the_numeral(table) -> None:
    # A loose box off the face's centre lets coloured felt into the middle of the crop.
    reader = ColourReader(load_builtin_profile("charidice"))
    for colour, mark in NUMERALS.items():
        crop = rendered_crop(numeral(colour, mark), 3, face=30, table=table,
                             shift=(0.18, 0.12), box_scale=1.3)
        name, confidence = reader.read([crop])[0]
        assert name == colour and confidence >= LOW_CONFIDENCE, (colour, name, confidence)


@pytest.mark.parametrize("colour", list(NUMERALS))
def test_a_numeral_whose_colour_is_lost_is_asked_not_guessed(colour: str) -> None:
    """A 15 px face, soft and saved as a JPEG at quality 35 (colour at half resolution):
    its strokes are a pixel or two wide and keep little of their colour."""
    reader = ColourReader(load_builtin_profile("charidice"))
    look = numeral(colour, NUMERALS[colour])
    sharp = reader.read([rendered_crop(look, 5)])[0]
    assert sharp[0] == colour and sharp[1] >= LOW_CONFIDENCE
    lost = reader.read([rendered_crop(look, 5, face=15, blur=0.8, jpeg=35)])[0]
    assert lost[1] < LOW_CONFIDENCE


def test_glare_on_a_pip_die_does_not_change_its_body_colour() -> None:
    # Glare and white pips both add white; an orange die's lit half used to read yellow.
    orange = DieLook((20, 120, 245), (240, 240, 240), "pips", "orange")
    others = [rendered_crop(DieLook((30, 215, 245), (25, 25, 25), "pips", "yellow"), 2,
                            seed=9),
              rendered_crop(DieLook((35, 30, 200), (240, 240, 240), "pips", "red"), 3,
                            seed=10)]
    crop = rendered_crop(orange, 5, glare=(0.1, -0.1, 0.45, 0.3))
    name, confidence = ColourReader(load_builtin_profile("diceparty")).read([crop, *others])[0]
    assert name == "orange" and confidence >= LOW_CONFIDENCE


def test_a_close_call_between_body_and_pips_is_settled_by_the_profile() -> None:
    # Two columns of big yellow pips blurred into stripes, each wider than the purple strip
    # between them: by size alone the stripes would be the body.
    crop = np.full((60, 60, 3), (70, 110, 60), np.uint8)
    cv2.rectangle(crop, (9, 9), (51, 51), (130, 40, 100), -1)
    for x in (16, 34):
        cv2.rectangle(crop, (x, 12), (x + 10, 48), (60, 200, 230), -1)
    crop = cv2.GaussianBlur(crop, (0, 0), 1.0)
    parts = die_parts(crop)
    assert parts is not None and parts.alt_body is not None
    reader = ColourReader(load_builtin_profile("dicetopia"))
    others = [pip_crop((240, 240, 240)), pip_crop((190, 190, 40), (240, 240, 240))]
    assert reader.read([crop, *others])[0][0] == "purple"


@pytest.mark.parametrize("set_name", ["diceparty", "dicetopia", "charidice"])
def test_synthetic_crops_are_read_or_asked(set_name: str) -> None:
    """The bench's crops (other seeds): pip dice read right; numeral dice right when sure,
    and the ones whose colour is gone are asked."""
    from dicecam.tools.train.reader.crops import CropOptions, generate_crops

    options = CropOptions(out_px=48, only_set=set_name, kelvin=4000.0, unreadable_share=0.0)
    images, _, colours = generate_crops(120, 4242, options)
    readings = ColourReader(load_builtin_profile(set_name)).read(list(images))
    right = np.array([name == truth for (name, _), truth in zip(readings, colours,
                                                                 strict=True)])
    sure = np.array([conf >= LOW_CONFIDENCE for _, conf in readings])
    assert right[sure].mean() >= 0.97
    if set_name == "charidice":
        assert sure.mean() >= 0.7
    else:
        assert right.mean() >= 0.97 and sure.mean() >= 0.95
