"""``dicecam bench calibration``: colour accuracy per dice set and light, zone accuracy.

Colour: for each built-in dice set with more than one colour and each light (2700, 4000,
6500 K) the bench sets up one synthetic table (camera distance, so die size, fixed), lays
out a calibration frame as ``fitting.instructions`` asks (colour columns, left to right),
labels it with ``samples_by_columns`` and fits a profile; then it renders table scenes
(``dicecam.synth.scene``) under the same light and reads every visible die's crop with the
built-in profile only and with the fitted profile.

Zones: synthetic Dicetopia tables (the city map and two to four faction boards drawn,
placed in perspective, dice rendered on their fields, seen with the height parallax of a
camera above the table) and Dice Party tables (four party areas drawn by hand): the zone
map is built from corners clicked with a few pixels of error, and every die's top-face
centre (with detector-like jitter) is assigned a zone.

Light and camera effects follow the table scenes' own ranges (``synth.scene.render_scene``)
with the colour temperature fixed. Everything is seeded: the same seed prints the same
figures.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np

from dicecam.calibration.homography import apply_homography, homography
from dicecam.calibration.profile import load_builtin_profile
from dicecam.calibration.zones import PlacedBoard, Zone, ZoneMap, load_board
from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.scorer.colour_counts import fit_to_counts
from dicecam.synth.boards import board_image, quad_in, warp_onto
from dicecam.synth.dicesets import set_look
from dicecam.synth.die import render_die
from dicecam.synth.light import apply_light, degrade
from dicecam.synth.scene import SceneSpec, paste_die, render_scene
from dicecam.tools.bench.accuracy.real_colours import SETS as REAL_SETS
from dicecam.tools.bench.accuracy.real_colours import print_colour_check
from dicecam.tools.realdata import real_data_dir
from dicecam.vision.colour.fit import DICE_PER_COLOUR, fit_profile, samples_by_columns
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.detect.detector import DieDetector
from dicecam.vision.read.die_reader import cut_crop

HELP = ("colour accuracy per dice set under warm/neutral/cool light, before and after "
        "calibration; zone accuracy on synthetic board tables")

KELVINS = (2700.0, 4000.0, 6500.0)
#: Top-face size range (pixels, in a 1280x720 frame) per set: how close a camera sits to
#: each game. Dice Party spreads up to 60 dice per player over the table, Dicetopia a board
#: and faction boards, Charidice six dice in a small area.
DIE_PX = {"diceparty": (24.0, 36.0), "dicetopia": (26.0, 40.0), "charidice": (36.0, 56.0)}
TARGETS = {"diceparty": 0.995, "dicetopia": 0.995, "charidice": 0.99}
FRAME = (1280, 720)
#: Camera height over the die's edge: the top face of a die appears this share of its
#: distance from the image centre further out than the board point under it.
PARALLAX = 0.03
CLICK_ERROR_PX = 2.0
DETECT_JITTER_PX = 1.5
ZONE_TARGET = 0.995


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=8, help="random seed (default 8)")
    parser.add_argument("--scenes", type=int, default=10,
                        help="table scenes per dice set and light (default 10, 40 dice each)")
    parser.add_argument("--zone-scenes", type=int, default=20,
                        help="synthetic board tables for the zone figure (default 20)")
    parser.add_argument("--sets", default="diceparty,dicetopia,charidice",
                        help="dice sets to measure, comma-separated")
    parser.add_argument("--skip-zones", action="store_true", help="colour figures only")
    parser.add_argument("--correction", type=float, default=0.6,
                        help="share of the light's colour cast the camera removes (default 0.6 "
                             "as in the table scenes; 0: white balance locked to daylight)")
    parser.add_argument("--real-only", action="store_true",
                        help="only the colour check on the real labelled photos")
    parser.add_argument("--die-px", metavar="LO,HI",
                        help="top-face size range in pixels for every set (default: per set)")


def run(args: argparse.Namespace) -> int:
    import cv2

    cv2.setNumThreads(1)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in DIE_PX]
    if unknown:
        raise InputError(f"no colour bench for {', '.join(unknown)}; choose from "
                         f"{', '.join(DIE_PX)} (v6 has a single colour)")
    if args.scenes < 1:
        raise InputError("--scenes must be 1 or more")
    if not 0.0 <= args.correction <= 1.0:
        raise InputError(f"--correction must be from 0 to 1, got {args.correction}")
    CORRECTION["value"] = args.correction
    die_range = None
    if args.die_px:
        try:
            lo, hi = (float(v) for v in args.die_px.split(","))
        except ValueError:
            raise InputError(f"--die-px must be two numbers LO,HI, got {args.die_px!r}") from None
        if not 8 <= lo <= hi:
            raise InputError("--die-px needs 8 <= LO <= HI")
        die_range = (lo, hi)
    started = time.perf_counter()
    if real_data_dir() is not None:
        print_colour_check([s for s in sets if s in REAL_SETS])
        print()
    else:
        print("colour on real photos: skipped (the real dice photos are not here)\n")
    if args.real_only:
        return 0
    print(f"colour accuracy on synthetic table scenes (seed {args.seed}, {args.scenes} scenes "
          f"of 40 dice per set and light, camera removes {args.correction:.0%} of the cast)")
    print(f"{'set':10s} {'light':>6s} {'dice':>5s} {'built-in':>9s} {'fitted':>8s} "
          f"{'flagged*':>8s} {'asked**':>7s}  fitted confusions")
    totals: dict[str, Counter] = {}
    for set_name in sets:
        total = totals.setdefault(set_name, Counter())
        for k, kelvin in enumerate(KELVINS):
            rng = np.random.default_rng([args.seed, sets.index(set_name), k])
            result = colour_condition(set_name, kelvin, rng, scenes=args.scenes,
                                      die_px_range=die_range or DIE_PX[set_name])
            total.update(result.counts)
            confusions = ", ".join(f"{t}->{g} {n}" for (t, g), n in
                                   result.confusions.most_common(4)) or "-"
            print(f"{set_name:10s} {kelvin:5.0f}K {result.counts['dice']:5d} "
                  f"{_pct(result.counts['builtin_right'], result.counts['dice']):>9s} "
                  f"{_pct(result.counts['fitted_right'], result.counts['dice']):>8s} "
                  f"{_flagged(result.counts):>8s} "
                  f"{_pct(result.counts['fitted_asked'], result.counts['dice']):>7s}  {confusions}")
    print("* share of the fitted profile's wrong colours whose confidence is under "
          "LOW_CONFIDENCE, so the tablet asks")
    print("** share of all dice the fitted profile reads with a confidence under LOW_CONFIDENCE")
    print()
    for set_name, total in totals.items():
        fitted = total["fitted_right"] / max(total["dice"], 1)
        verdict = "meets" if fitted >= TARGETS[set_name] else "MISSES"
        print(f"{set_name:10s} all lights: built-in {_pct(total['builtin_right'], total['dice'])}"
              f", fitted {_pct(total['fitted_right'], total['dice'])} of {total['dice']} dice "
              f"({verdict} the {TARGETS[set_name] * 100:.1f}% target)")
    if "diceparty" in sets:
        print()
        print_counted_throws(args.seed, args.scenes)
    if not args.skip_zones:
        print()
        zone_rng = np.random.default_rng([args.seed, 99])
        zones = zone_figures(zone_rng, args.zone_scenes)
        missed = zones.pop("dicetopia dice not detected", (0, 0))[1]
        if missed:
            print(f"zones: {missed} dice were not found by the detector (left out below)")
        for kind, (right, n) in zones.items():
            verdict = "meets" if right / max(n, 1) >= ZONE_TARGET else "MISSES"
            print(f"zones {kind:22s} {_pct(right, n)} of {n} dice in the right zone "
                  f"({verdict} the {ZONE_TARGET * 100:.1f}% target)")
        centres = ("the shipped detector's centres" if _detector() is not None else
                   f"true centres with {DETECT_JITTER_PX:g} px jitter (no detector model yet)")
        print(f"(corners clicked with {CLICK_ERROR_PX:g} px error; die centres: {centres}; "
              f"top faces seen with {PARALLAX:g} parallax)")
    print(f"\n{time.perf_counter() - started:.0f} s")
    return 0


def _pct(right: int, n: int) -> str:
    return f"{100.0 * right / n:.2f}%" if n else "-"


def _flagged(counts: Counter) -> str:
    wrong = counts["dice"] - counts["fitted_right"]
    return _pct(counts["fitted_wrong_flagged"], wrong) if wrong else "-"


# ------------------------------------------------------------------------------- colour


@dataclass
class ColourResult:
    counts: Counter
    confusions: Counter


#: Share of the light's colour cast the camera's auto white balance removes (the renderer's
#: default); ``--correction 0`` measures a camera with its white balance locked to daylight.
CORRECTION = {"value": 0.6}


def light_and_camera(image, kelvin: float, rng: np.random.Generator, scale: float):
    """The table scenes' light and camera effects at a fixed colour temperature."""

    image = apply_light(image, kelvin, rng, correction=CORRECTION["value"],
                        glare=rng.uniform(0, 0.25) if rng.random() < 0.4 else 0.0,
                        shadow=rng.uniform(0, 0.4) if rng.random() < 0.4 else 0.0,
                        brightness=rng.uniform(0.8, 1.15))
    return degrade(image, rng, blur=rng.uniform(0, 0.8) * scale, noise=rng.uniform(1, 5),
                   jpeg_quality=int(rng.integers(70, 96)))


def calibration_frame(set_name: str, colours: tuple[str, ...], per_colour: int,
                      die_px: float, rng: np.random.Generator):
    """An empty table with dice laid out as the instructions say; returns (frame, boxes)."""

    width, height = FRAME
    table = render_scene(rng, SceneSpec(width=width, height=height, n_dice=0, distractors=0,
                                        dice_set=set_name, lighting=False,
                                        camera_noise=False)).image_bgr.copy()
    light = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0)
    boxes = []
    columns = len(colours)
    for c, colour in enumerate(colours):
        for r in range(per_colour):
            cx = width * (c + 0.5) / columns + rng.uniform(-0.1, 0.1) * width / columns
            cy = height * (r + 0.5) / per_colour + rng.uniform(-0.1, 0.1) * height / per_colour
            size = max(4, int(round(die_px * rng.uniform(0.92, 1.08))))
            rendered = render_die(int(rng.integers(1, 7)), set_look(rng, set_name, colour), size,
                                  rng, rotation_deg=rng.uniform(0, 90), tilt=rng.uniform(0, 8),
                                  light_dir=light)
            boxes.append(paste_die(table, rendered.image_bgra, cx, cy, rendered.top_box))
    return table, boxes


def colour_condition(set_name: str, kelvin: float, rng: np.random.Generator, *,
                     scenes: int, die_px_range: tuple[float, float] | None = None,
                     ) -> ColourResult:
    builtin = load_builtin_profile(set_name)
    lo, hi = die_px_range or DIE_PX[set_name]
    die_px = rng.uniform(lo, hi)  # this table's camera distance
    scale = die_px / 24.0
    per = DICE_PER_COLOUR[builtin.marks]
    frame, boxes = calibration_frame(set_name, builtin.colours, per, die_px, rng)
    frame = light_and_camera(frame, kelvin, rng, scale)
    samples = samples_by_columns(boxes, builtin.colours)
    fitted = fit_profile(frame, samples, builtin, source="bench")
    readers = {"builtin": ColourReader(builtin), "fitted": ColourReader(fitted)}
    counts: Counter = Counter()
    confusions: Counter = Counter()
    width, height = FRAME
    for _ in range(scenes):
        spec = SceneSpec(width=width, height=height, n_dice=40, dice_set=set_name,
                         die_px=(die_px * 0.92, die_px * 1.08), lighting=False,
                         camera_noise=False)
        scene = render_scene(rng, spec)
        image = light_and_camera(scene.image_bgr, kelvin, rng, scale)
        dice = scene.visible_dice
        crops = [cut_crop(image, d.cx, d.cy, d.w, d.h) for d in dice]
        truth = [d.colour for d in dice]
        counts["dice"] += len(dice)
        for name, reader in readers.items():
            for (colour, conf), true in zip(reader.read(crops), truth, strict=True):
                if name == "fitted":
                    counts["fitted_asked"] += conf < LOW_CONFIDENCE
                if colour == true:
                    counts[f"{name}_right"] += 1
                elif name == "fitted":
                    confusions[(true, colour)] += 1
                    counts["fitted_wrong_flagged"] += conf < LOW_CONFIDENCE
    return ColourResult(counts, confusions)


#: colour temperatures of the rendered Dice Party throws read with the game's counts
THROW_KELVINS = (2200.0, 2700.0, 3300.0, 4000.0, 5000.0, 6500.0)


def print_counted_throws(seed: int, scenes: int) -> None:
    """Rendered Dice Party throws (tables of wood, coloured felt, printed boards) under warm
    to cool light, read with the built-in profile and then decided together with the
    throw's colour counts, as the game knows them (``fit_to_counts``)."""
    print(f"Dice Party throws read with the game's counts (rendered, {scenes} throws of 8-40 "
          f"dice per light, built-in profile)")
    print(f"{'light':>6s} {'dice':>5s} {'plain':>8s} {'silent':>7s} {'counted':>8s} "
          f"{'silent':>7s} {'asked':>7s}")
    reader = ColourReader(load_builtin_profile("diceparty"))
    width, height = FRAME
    total: Counter = Counter()
    for k, kelvin in enumerate(THROW_KELVINS):
        rng = np.random.default_rng([seed, 77, k])
        row: Counter = Counter()
        for _ in range(scenes):
            die_px = rng.uniform(*DIE_PX["diceparty"])
            spec = SceneSpec(width=width, height=height, n_dice=int(rng.integers(8, 41)),
                             dice_set="diceparty", die_px=(die_px * 0.92, die_px * 1.08),
                             lighting=False, camera_noise=False)
            scene = render_scene(rng, spec)
            image = light_and_camera(scene.image_bgr, kelvin, rng, die_px / 24.0)
            dice = scene.visible_dice
            read = reader.read_scores([cut_crop(image, d.cx, d.cy, d.w, d.h) for d in dice])
            readings = [DieReading(1.0, 1.0, 1.0, 1.0, None, got, conf, colour_confidence=conf,
                                   colour_scores=scores) for got, conf, scores in read]
            counts = Counter({c: 0 for c in reader.profile.colours})
            counts.update(d.colour for d in dice)
            fitted = fit_to_counts(readings, counts) or readings
            for die, plain, decided in zip(dice, readings, fitted, strict=True):
                row["dice"] += 1
                row["plain_right"] += plain.colour == die.colour
                row["plain_silent"] += (plain.colour != die.colour
                                        and plain.colour_confidence >= LOW_CONFIDENCE)
                row["right"] += decided.colour == die.colour
                row["silent"] += (decided.colour != die.colour
                                  and decided.colour_confidence >= LOW_CONFIDENCE)
                row["asked"] += decided.colour_confidence < LOW_CONFIDENCE
        total.update(row)
        print(f"{kelvin:5.0f}K {row['dice']:5d} {_pct(row['plain_right'], row['dice']):>8s} "
              f"{row['plain_silent']:7d} {_pct(row['right'], row['dice']):>8s} "
              f"{row['silent']:7d} {_pct(row['asked'], row['dice']):>7s}")
    print(f"{'all':>6s} {total['dice']:5d} {_pct(total['plain_right'], total['dice']):>8s} "
          f"{total['plain_silent']:7d} {_pct(total['right'], total['dice']):>8s} "
          f"{total['silent']:7d} {_pct(total['asked'], total['dice']):>7s}")


# -------------------------------------------------------------------------------- zones


def dicetopia_boards(rng: np.random.Generator, width: int, height: int, n_faction: int):
    """Where a Dicetopia table's boards lie in a frame: the city board on the left and
    ``n_faction`` faction boards stacked on the right, as (layout, label, corners)."""
    city = load_board("dicetopia-city")
    faction = load_board("dicetopia-faction")
    placed = [(city, "", quad_in((0.02 * width, 0.04 * height, 0.64 * width, 0.96 * height),
                                  city.size[0] / city.size[1], rng))]
    slot = 0.92 * height / n_faction
    for k in range(n_faction):
        region = (0.66 * width, 0.04 * height + k * slot, 0.98 * width,
                  0.04 * height + (k + 1) * slot)
        placed.append((faction, f"p{k + 1}", quad_in(region, faction.size[0] / faction.size[1],
                                                        rng)))
    return placed


def dicetopia_table(rng: np.random.Generator, n_faction: int):
    """A rendered Dicetopia table: (frame, true PlacedBoards, dice as (cx, cy, size, zone,
    colour))."""

    width, height = FRAME
    frame = render_scene(rng, SceneSpec(width=width, height=height, n_dice=0, distractors=0,
                                        lighting=False, camera_noise=False)).image_bgr.copy()
    placed = dicetopia_boards(rng, width, height, n_faction)
    light = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), 1.0)
    dice = []
    centre = np.array([width / 2, height / 2])
    for layout, label, corners in placed:
        warp_onto(frame, board_image(layout, 2.0, rng), corners)
        matrix = homography(layout.corners, corners)
        unit_px = float(np.linalg.norm(np.subtract(corners[1], corners[0]))) / layout.size[0]
        for zone in layout.zones:
            name = zone.name.replace("{label}", label)
            for fx, fy in zone.fields:
                if rng.random() < 0.25:
                    continue  # an empty field
                jitter = rng.uniform(-0.15, 0.15, 2) * layout.field_size
                foot = apply_homography(matrix, [(fx + jitter[0], fy + jitter[1])])[0]
                top = foot + PARALLAX * (foot - centre)
                size = max(6, int(round(layout.field_size * 0.75 * unit_px)))
                look = set_look(rng, "dicetopia")
                rendered = render_die(int(rng.integers(1, 7)), look, size, rng,
                                      rotation_deg=rng.uniform(0, 90),
                                      tilt=rng.uniform(0, 6), light_dir=light)
                box = paste_die(frame, rendered.image_bgra, float(top[0]), float(top[1]),
                                rendered.top_box)
                dice.append((box[0], box[1], max(box[2], box[3]), name, look.colour_name))
    boards = [PlacedBoard(layout.name, corners, label) for layout, label, corners in placed]
    return frame, boards, dice


def diceparty_table(rng: np.random.Generator):
    """Four party areas drawn around the table, dice inside them: (polygons, dice)."""

    width, height = FRAME
    mid = np.array([width / 2, height / 2]) + rng.normal(0, 20, 2)
    zones, dice = [], []
    quads = [((0, 0), (1, 0)), ((1, 0), (1, 1)), ((1, 1), (0, 1)), ((0, 1), (0, 0))]
    for k, (a, b) in enumerate(quads):
        # a triangle-ish area between the frame's centre and one edge, as a user draws it
        pa = np.array([a[0] * width, a[1] * height]) * 0.96 + 0.02 * np.array([width, height])
        pb = np.array([b[0] * width, b[1] * height]) * 0.96 + 0.02 * np.array([width, height])
        apex = mid + (pa + pb - 2 * mid) * 0.12
        polygon = (tuple(apex), tuple(pa), tuple(pb))
        zones.append(Zone(f"party:p{k + 1}", tuple((float(x), float(y)) for x, y in polygon)))
        for _ in range(int(rng.integers(4, 16))):
            # a point well inside: barycentric weights kept away from the edges
            wts = rng.dirichlet((3, 3, 3))
            point = wts[0] * apex + wts[1] * pa + wts[2] * pb
            dice.append((float(point[0]), float(point[1]), 30.0, zones[-1].name))
    return zones, dice


def zone_figures(rng: np.random.Generator, scenes: int) -> dict[str, tuple[int, int]]:
    width, height = FRAME
    results = {"dicetopia (boards)": [0, 0], "dice party (drawn areas)": [0, 0]}
    detector = _detector()
    for _ in range(scenes):
        frame, boards, dice = dicetopia_table(rng, int(rng.integers(2, 5)))
        frame = light_and_camera(frame, rng.uniform(2700, 6500), rng, 1.0)
        if detector is not None:
            dice = _match_detections(detector, frame, dice, results)
        clicked = tuple(
            PlacedBoard(b.board, tuple((x + rng.normal(0, CLICK_ERROR_PX),
                                        y + rng.normal(0, CLICK_ERROR_PX))
                                       for x, y in b.corners), b.label)
            for b in boards
        )
        zone_map = ZoneMap("bench", width, height, boards=clicked)
        for cx, cy, _size, zone, _colour in dice:
            jitter = 0.0 if detector is not None else DETECT_JITTER_PX
            x, y = cx + rng.normal(0, jitter), cy + rng.normal(0, jitter)
            results["dicetopia (boards)"][0] += zone_map.zone_of(x, y) == zone
            results["dicetopia (boards)"][1] += 1
        zones, party_dice = diceparty_table(rng)
        drawn = tuple(Zone(z.name, tuple((x + rng.normal(0, CLICK_ERROR_PX),
                                          y + rng.normal(0, CLICK_ERROR_PX))
                                         for x, y in z.polygon)) for z in zones)
        zone_map = ZoneMap("bench", width, height, drawn=drawn)
        for cx, cy, _size, zone in party_dice:
            x, y = cx + rng.normal(0, DETECT_JITTER_PX), cy + rng.normal(0, DETECT_JITTER_PX)
            results["dice party (drawn areas)"][0] += zone_map.zone_of(x, y) == zone
            results["dice party (drawn areas)"][1] += 1
    return {k: (v[0], v[1]) for k, v in results.items()}


def _detector():
    """The shipped die detector, when there is one: then the zone figure uses its centres."""

    try:

        return DieDetector(threads=1)
    except (ImportError, InputError):
        return None


def _match_detections(detector, frame, dice, results):
    """Replace true centres by detected ones (nearest within half a die); count misses."""
    found = detector.detect(frame).boxes
    matched = []
    used: set[int] = set()
    for cx, cy, size, zone, colour in dice:
        if len(found):
            d = np.hypot(found[:, 0] - cx, found[:, 1] - cy)
            d[list(used)] = np.inf
            best = int(np.argmin(d))
            if d[best] <= size / 2:
                used.add(best)
                matched.append((float(found[best, 0]), float(found[best, 1]), size, zone,
                                colour))
                continue
        results.setdefault("dicetopia dice not detected", [0, 0])[1] += 1
    return matched
