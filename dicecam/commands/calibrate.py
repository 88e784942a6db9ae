"""``dicecam calibrate colours|zones|list``: fit a colour profile, make a zone map, list both.

``calibrate colours --set diceparty --source camera:0`` takes a frame in which the user has
laid out dice as ``--instructions`` says (colour columns from left to right), finds the
dice (``--boxes`` or ``--samples`` give them by hand), fits the profile and saves it under
the profiles folder, where ``dicecam read --set diceparty`` and the web app find it.

``calibrate zones --name kitchen --source camera:0 --board dicetopia-city=X1,Y1,...,X4,Y4
--board dicetopia-faction:anna=... --zone party:bob="X,Y X,Y X,Y"`` saves a zone map.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from dicecam.calibration.profile import (
    builtin_profile_names,
    load_profile,
    save_profile,
    saved_profile_names,
)
from dicecam.calibration.tables import DEFAULT_TABLE, save_table_picture, saved_table_names
from dicecam.calibration.zones import (
    PlacedBoard,
    Zone,
    ZoneMap,
    board_names,
    save_zone_map,
    saved_zone_map_names,
)
from dicecam.errors import InputError
from dicecam.jsoncheck import (
    parse_json,
    reject_unknown_keys,
    require_list,
    require_number,
    require_object,
    require_str,
)
from dicecam.paths import profiles_dir, zones_dir
from dicecam.teach.labelled import teach_from_folder
from dicecam.teach.learn.detector import DetectorSettings
from dicecam.teach.learn.reader import LearnSettings
from dicecam.teach.learner import learn_table
from dicecam.teach.store import TableStore
from dicecam.teach.table import table_pipeline
from dicecam.vision.colour.fit import ColourSample, fit_profile, instructions, samples_by_columns
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.detect.detector import DieDetector
from dicecam.vision.read.die_reader import cut_crop
from dicecam.vision.sources.source_spec import open_source

#: Live cameras adjust exposure and white balance during the first frames; skip them.
LIVE_WARMUP_FRAMES = 15
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    colours = actions.add_parser(
        "colours", help="fit a dice set's colour profile from one frame",
        description="Fit a dice set's colour profile from a frame in which dice of every "
        "colour lie in columns from left to right (see --instructions).")
    colours.add_argument("--set", dest="dice_set", required=True, metavar="NAME",
                         help=f"the dice set ({', '.join(builtin_profile_names())}) or a "
                              "profile file to start from")
    colours.add_argument("--source", metavar="SPEC",
                         help="where the frame comes from: an image file, camera:N, a video "
                              "or a stream URL (required unless --instructions)")
    colours.add_argument("--instructions", action="store_true",
                         help="print how to lay out the dice for this set, and stop")
    colours.add_argument("--per-colour", type=int, default=None, metavar="N",
                         help="dice of each colour in the frame (default: 3 for pip dice, "
                              "1 for numeral dice)")
    given = colours.add_mutually_exclusive_group()
    given.add_argument("--boxes", metavar="BOXES",
                       help="the dice's top-face boxes 'cx,cy,w,h;cx,cy,w,h;...' in frame "
                            "pixels, any order (labelled by columns); default: detect them")
    given.add_argument("--samples", metavar="FILE",
                       help="JSON file [{\"box\": [cx, cy, w, h], \"colour\": NAME}, ...]")
    colours.add_argument("--name", metavar="NAME",
                         help="save under this profile name (default: the set's name, so it "
                              "replaces the built-in profile at this table)")
    colours.add_argument("--out", metavar="PATH", help="write the profile to this file instead")
    colours.set_defaults(_action=_run_colours)

    zones = actions.add_parser(
        "zones", help="make a zone map from board corners and drawn areas",
        description="Make a zone map: place printed boards by their four corners "
        "(top-left, top-right, bottom-right, bottom-left) and draw areas as polygons.")
    zones.add_argument("--name", required=True, metavar="NAME", help="the zone map's name")
    size = zones.add_mutually_exclusive_group(required=True)
    size.add_argument("--source", metavar="SPEC", help="take the frame size from this source")
    size.add_argument("--frame-size", metavar="WxH", help="frame size in pixels, e.g. 1280x720")
    zones.add_argument("--board", action="append", default=[], metavar="BOARD[:LABEL]=CORNERS",
                       help="a board and its corners X1,Y1,X2,Y2,X3,Y3,X4,Y4 (repeatable); "
                            "faction boards need the player as LABEL")
    zones.add_argument("--zone", action="append", default=[], metavar="NAME=POINTS",
                       help="a drawn zone: NAME='X,Y X,Y X,Y ...' (at least three points; "
                            "repeatable)")
    zones.add_argument("--out", metavar="PATH", help="write the zone map to this file instead")
    zones.add_argument("--preview", metavar="IMAGE",
                       help="also write the frame (with --source) with the zones drawn on it")
    zones.set_defaults(_action=_run_zones)

    table = actions.add_parser(
        "table", help="take a picture of the empty table (no dice): boxes that still look "
                      "like it are never taken for dice",
        description="Take one frame of the table with no dice on it. From then on a box the "
        "detector puts where the frame still looks like that picture (a printed square, a "
        "speck of carpet) is dropped before it is read. Take it again when the camera or "
        "the cloth moves; with the camera moved nothing is dropped.")
    table.add_argument("--source", required=True, metavar="SPEC",
                       help="where the frame comes from: camera:N, an image file, a video")
    table.add_argument("--name", default=DEFAULT_TABLE, metavar="NAME",
                       help=f"save under this name (default {DEFAULT_TABLE!r}: the one "
                            "`dicecam serve` uses with a camera by itself)")
    table.set_defaults(_action=_run_table)

    dice = actions.add_parser(
        "dice", help="teach a table its own dice from labelled photos (the models learn)",
        description="Teach a table from labelled photos, as if its players had confirmed "
        "those dice at it: each photo is read, its found dice confirmed or corrected by the "
        "labels, missed dice added, false boxes marked 'not a die'; then the table's die "
        "reader learns (a few minutes on a laptop) and is used where it reads the table's "
        "held-back dice better than the shipped one. `dicecam read --table NAME` and "
        "`dicecam serve --table NAME` read with what it learnt.")
    dice.add_argument("--table", required=True, metavar="NAME", help="the table to teach")
    taught = dice.add_mutually_exclusive_group(required=True)
    taught.add_argument("--labelled", metavar="DIR",
                        help="DIR/images/*.jpg with DIR/labels/*.txt (YOLO: class cx cy w h, "
                             "normalised; class k = k+1 pips)")
    taught.add_argument("--forget", action="store_true",
                        help="forget what the table learnt: back to the shipped models")
    dice.add_argument("--steps", type=int, default=None,
                      help=f"learning steps of the reader and the detector (default "
                           f"{LearnSettings.steps} and {DetectorSettings.steps})")
    dice.add_argument("--json", action="store_true", help="print one JSON object")
    dice.set_defaults(_action=_run_dice)

    listing = actions.add_parser("list", help="list colour profiles, boards and zone maps")
    listing.set_defaults(_action=_run_list)


def run(args: argparse.Namespace) -> int:
    return int(args._action(args) or 0)


# ------------------------------------------------------------------------------ colours


def _run_colours(args: argparse.Namespace) -> int:
    base = load_profile(args.dice_set)
    if args.per_colour is not None and args.per_colour < 1:
        raise InputError(f"--per-colour must be 1 or more, got {args.per_colour}")
    if args.instructions:
        print(instructions(base, args.per_colour))
        return 0
    if not args.source:
        raise InputError("give --source (an image file, camera:N, ...) with the dice laid out "
                         "as `dicecam calibrate colours --set NAME --instructions` says")
    frame = _first_frame(args.source)
    if args.samples:
        samples = _read_samples(args.samples)
    else:
        boxes = _parse_boxes(args.boxes) if args.boxes else _detect_boxes(frame)
        samples = samples_by_columns(boxes, base.colours)
    profile = fit_profile(frame, samples, base, name=args.name, source=str(args.source))
    target = save_profile(profile, args.out)
    _report_fit(profile, frame, samples)
    print(f"saved colour profile {profile.name} to {target}")
    return 0


def _report_fit(profile, frame, samples) -> None:
    crops = [cut_crop(frame, *s.box) for s in samples]
    readings = ColourReader(profile).read(crops)
    agree = sum(name == s.colour for (name, _c), s in zip(readings, samples, strict=True))
    for ref in profile.references:
        lab = ", ".join(f"{v:.0f}" for v in ref.lab)
        spread = ", ".join(f"{v:.1f}" for v in ref.spread)
        print(f"  {ref.name:12s} Lab ({lab})  spread ({spread})  from {ref.samples} dice")
    print(f"  the fitted profile reads {agree} of the {len(samples)} calibration dice as laid out")


def _first_frame(spec: str):
    source = open_source(spec)
    skip = LIVE_WARMUP_FRAMES if getattr(source, "live", False) else 0
    try:
        for index, frame in enumerate(source):
            if index >= skip:
                return frame
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()
    raise InputError(f"{spec}: the source gave no frame")


def _detect_boxes(frame) -> list[tuple[float, float, float, float]]:
    try:

        detector = DieDetector()
    except (ImportError, InputError) as exc:
        raise InputError(
            f"cannot find the dice automatically ({exc}); give their boxes with --boxes "
            "'cx,cy,w,h;...' or --samples FILE"
        ) from None
    found = detector.detect(frame)
    return [tuple(float(v) for v in box) for box in found.boxes]


def _parse_boxes(text: str) -> list[tuple[float, float, float, float]]:
    boxes = []
    for k, part in enumerate(p for p in text.replace("\n", ";").split(";") if p.strip()):
        numbers = re.findall(_NUMBER, part)
        if len(numbers) != 4:
            raise InputError(f"--boxes item {k + 1} {part.strip()!r} must be four numbers "
                             "cx,cy,w,h")
        cx, cy, w, h = (float(n) for n in numbers)
        if w <= 0 or h <= 0:
            raise InputError(f"--boxes item {k + 1} must have a positive width and height")
        boxes.append((cx, cy, w, h))
    if not boxes:
        raise InputError("--boxes holds no box; write them as 'cx,cy,w,h;cx,cy,w,h'")
    return boxes


def _read_samples(path: str):
    try:
        text = Path(path).expanduser().read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read samples file {path}: {exc}") from None
    items = require_list(parse_json(text, f"samples file {path}"), "samples", min_len=1)
    samples = []
    for i, item in enumerate(items):
        obj = require_object(item, f"samples[{i}]")
        reject_unknown_keys(obj, f"samples[{i}]", ("box", "colour"))
        box = require_list(obj.get("box"), f"samples[{i}].box", min_len=4, max_len=4)
        values = [require_number(v, f"samples[{i}].box[{k}]") for k, v in enumerate(box)]
        if values[2] <= 0 or values[3] <= 0:
            raise InputError(f"samples[{i}].box must have a positive width and height")
        samples.append(ColourSample(tuple(values), require_str(obj.get("colour"),
                                                                f"samples[{i}].colour")))
    return samples


# -------------------------------------------------------------------------------- zones


def _run_zones(args: argparse.Namespace) -> int:
    frame = None
    if args.source:
        frame = _first_frame(args.source)
        height, width = frame.shape[:2]
    else:
        match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", args.frame_size)
        if not match:
            raise InputError(f"--frame-size must look like 1280x720, got {args.frame_size!r}")
        width, height = int(match.group(1)), int(match.group(2))
    boards = tuple(_parse_board(text) for text in args.board)
    drawn = tuple(_parse_zone(text) for text in args.zone)
    if not boards and not drawn:
        raise InputError("give at least one --board or --zone")
    zone_map = ZoneMap(args.name, width, height, tuple(PlacedBoard(*b) for b in boards),
                       tuple(Zone(*z) for z in drawn))
    target = save_zone_map(zone_map, args.out)
    print(f"saved zone map {zone_map.name} ({width}x{height}) with zones "
          f"{', '.join(zone_map.zone_names)} to {target}")
    if args.preview:
        if frame is None:
            raise InputError("--preview needs --source (the frame to draw the zones on)")
        _write_preview(frame, zone_map, args.preview)
        print(f"wrote preview {args.preview}")
    return 0


def _parse_board(text: str):
    if "=" not in text:
        raise InputError(f"--board {text!r} must look like BOARD[:LABEL]=X1,Y1,X2,Y2,X3,Y3,X4,Y4")
    head, corners_text = text.split("=", 1)
    board, _, label = head.strip().partition(":")
    numbers = [float(n) for n in re.findall(_NUMBER, corners_text)]
    if len(numbers) != 8:
        raise InputError(f"--board {head.strip()} needs four corners (eight numbers) in the "
                         f"order top-left, top-right, bottom-right, bottom-left; got "
                         f"{len(numbers)} numbers")
    corners = tuple((numbers[i], numbers[i + 1]) for i in range(0, 8, 2))
    return board, corners, label.strip()


def _parse_zone(text: str):
    if "=" not in text:
        raise InputError(f"--zone {text!r} must look like NAME='X,Y X,Y X,Y'")
    name, points_text = text.split("=", 1)
    numbers = [float(n) for n in re.findall(_NUMBER, points_text)]
    if len(numbers) % 2:
        raise InputError(f"--zone {name.strip()}: the points must be X,Y pairs")
    points = tuple((numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2))
    if len(points) < 3:
        raise InputError(f"zone {name.strip()!r} has {len(points)} point(s); a zone needs at "
                         "least three")
    return name.strip(), points


def _write_preview(frame, zone_map, path: str) -> None:
    image = frame.copy()
    for k, zone in enumerate(zone_map.zones):
        colour = tuple(int(c) for c in cv2.applyColorMap(
            np.array([[(k * 47) % 256]], np.uint8), cv2.COLORMAP_HSV)[0, 0])
        pts = np.round(np.array(zone.polygon)).astype(np.int32)
        cv2.polylines(image, [pts], True, colour, 2, cv2.LINE_AA)
        cx, cy = pts.mean(axis=0).astype(int)
        cv2.putText(image, zone.name, (int(cx) - 40, int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    colour, 1, cv2.LINE_AA)
    if not cv2.imwrite(path, image):
        raise InputError(f"cannot write preview image {path}")


# --------------------------------------------------------------------------------- list


def _run_table(args: argparse.Namespace) -> int:
    frame = _first_frame(args.source)
    found = DieDetector(threads=1).detect(frame)
    path = save_table_picture(frame, args.name)
    height, width = frame.shape[:2]
    print(f"saved the empty table ({width}x{height}) to {path}")
    if len(found):
        print(f"note: the detector sees {len(found)} dice-like things in it; if dice lay on "
              "the table, take it again without them", file=sys.stderr)
    return 0


def _run_dice(args: argparse.Namespace) -> int:
    store = TableStore(args.table)
    if args.forget:
        store.forget()
        print(f"table {args.table}: forgot what it learnt; it reads with the shipped models")
        return 0
    if args.steps is not None and args.steps < 1:
        raise InputError("--steps must be 1 or more")
    started = time.monotonic()
    taught = teach_from_folder(store, Path(args.labelled), table_pipeline(args.table).read_frame)
    try:
        learning = learn_table(
            store, settings=None if args.steps is None else LearnSettings(steps=args.steps),
            detector_settings=None if args.steps is None else DetectorSettings(
                steps=args.steps))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    figures = {"table": args.table, "taught": taught.to_json(), **learning.to_json(),
               "seconds_in_all": round(time.monotonic() - started, 1)}
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"table {args.table}: {taught.photos} photos taught {taught.confirmed} dice read "
          f"right, {taught.corrected} corrected, {taught.added} missed and added, "
          f"{taught.not_a_die} boxes that are no die; {learning.dice} dice kept in all")
    for name, check in (("shipped reader", learning.shipped),
                        ("reader in use before", learning.previous),
                        (f"learnt {learning.version}", learning.learned)):
        if check is not None:
            print(f"  {name:<24} on {check.dice} held-back dice: {100 * check.right:.1f}% "
                  f"right and sure, {100 * check.silent:.1f}% wrong and sure, "
                  f"{100 * check.asked:.1f}% asked")
    verdict = ("is now in use" if learning.used
               else "is kept, not used: it reads the held-back dice no better")
    print(f"  {learning.version} {verdict}; learnt in {learning.seconds:.0f} s")
    detector = learning.detector
    if detector is not None:
        checks = detector["held_back"]
        for name in ("shipped", "previous", "learned"):
            check = checks[name]
            if check is not None:
                label = {"shipped": "shipped detector", "previous": "detector in use before",
                         "learned": f"learnt {detector['version']}"}[name]
                print(f"  {label:<24} on {check['frames']} held-back frames: found "
                      f"{check['found']} of {check['dice']} dice, {check['false']} false boxes")
        verdict = ("is now in use" if detector["used"] else
                   "is kept, not used: it finds the held-back dice no better")
        print(f"  {detector['version']} {verdict}; learnt in {detector['seconds']:.0f} s")
    _print_side_faces(learning.side_faces)
    print(f"  {figures['seconds_in_all']:.0f} s in all")
    return 0


def _print_side_faces(side_faces: dict | None) -> None:
    """Where the camera shows the dice's side faces, as the learning found (or why not)."""
    if not side_faces:
        return
    zone = side_faces.get("zone")
    if zone is None:
        print(f"  side faces: none dropped ({side_faces.get('why_none', 'no zone')}; "
              f"{side_faces.get('candidates', 0)} faint boxes beside the dice)")
        return
    print(f"  side faces: unsure boxes {zone['near']:.2f}-{zone['far']:.2f} of a side from a "
          f"sure die towards {zone['angle_deg']:.0f} degrees (+-{zone['spread_deg']:.0f}; "
          f"0 is right, 90 down) are dropped; from {side_faces['candidates']} faint boxes")


def _run_list(args: argparse.Namespace) -> int:
    listing = {
        "builtin_profiles": list(builtin_profile_names()),
        "saved_profiles": list(saved_profile_names()),
        "profiles_folder": str(profiles_dir()),
        "boards": list(board_names()),
        "saved_zone_maps": list(saved_zone_map_names()),
        "zones_folder": str(zones_dir()),
        "empty_tables": list(saved_table_names()),
    }
    print(json.dumps(listing, indent=2))
    return 0
