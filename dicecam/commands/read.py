"""``dicecam read PATH...``: read every die in images, folders of images or video files.

With ``--json`` each image gives one JSON object on its own line (JSON Lines)::

    {"path": str, "width": int, "height": int,
     "dice": [{"x": float, "y": float, "w": float, "h": float, "value": 1-6 or null,
               "colour": str or null, "confidence": float, "zone": str or null}, ...]}

``x, y`` is the die's centre in pixels. A video file gives one object per frame with three
more fields: ``frame`` (its number), ``moving`` (dice rolling or a hand in view) and
``settled`` (true on the one frame where a still roll is published; its dice are then the
values voted over the still frames). ``--annotate OUT_DIR`` writes each image (for a
video, each settled frame) with boxes, values and colours drawn on it. An image that
cannot be read prints one line on stderr and the others are still read; the exit status
is then 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from dicecam.calibration.profile import builtin_profile_names
from dicecam.errors import InputError
from dicecam.teach.table import table_config
from dicecam.vision.config import PipelineConfig
from dicecam.vision.factory import pipeline_from
from dicecam.vision.pipeline import iter_outputs
from dicecam.vision.sources.frame_sources import (
    IMAGE_SUFFIXES,
    VIDEO_SUFFIXES,
    list_images,
    list_unreadable_photos,
    read_image,
)
from dicecam.vision.sources.source_spec import open_source


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="an image, a folder of images, or a video file")
    parser.add_argument("--json", action="store_true", help="print one JSON object per image")
    parser.add_argument("--annotate", metavar="OUT_DIR",
                        help="write annotated copies of the images into OUT_DIR")
    parser.add_argument("--set", dest="dice_set", metavar="NAME",
                        help="dice set whose colour profile names the colours "
                             f"({', '.join(builtin_profile_names())}, or a profile file); "
                             "without it colours are not read")
    parser.add_argument("--zones", metavar="NAME",
                        help="zone map (built-in name or JSON file) assigning dice to zones")
    parser.add_argument("--empty-table", metavar="NAME",
                        help="a picture of the table without dice (saved by `dicecam "
                             "calibrate table`, or an image file): boxes that still look like "
                             "it are not dice")
    parser.add_argument("--table", metavar="NAME",
                        help="read as this table reads: with what it learnt from its players "
                             "(`dicecam calibrate dice`) and its empty-table picture")
    parser.add_argument("--dice", type=int, default=None, metavar="N",
                        help="how many dice each image (a video: each settled roll) shows, "
                             "where you know it: fewer found, the detector's weaker peaks "
                             "are read too; as many read sure, the boxes read unsure are "
                             "dropped (as the live view does for a game's throw)")
    parser.add_argument("--threads", type=int, default=None,
                        help="CPU threads for the models (default: onnxruntime's choice)")


def run(args: argparse.Namespace) -> int:
    inputs: list[tuple[str, Path]] = []
    failures = 0
    for text in args.paths:
        path = Path(text)
        if path.is_dir():
            images = list_images(path)
            for photo in list_unreadable_photos(path):
                _fail(f"{photo}: {photo.suffix.lstrip('.').upper()} photos cannot be read; "
                      f"save them as JPEG or PNG (a phone's export or sharing does)")
                failures += 1
            if not images:
                _fail(f"{path}: this folder holds no images")
                failures += 1
            inputs.extend(("image", p) for p in images)
        elif path.suffix.lower() in VIDEO_SUFFIXES and path.is_file():
            inputs.append(("video", path))
        elif path.suffix.lower() in IMAGE_SUFFIXES or path.is_file():
            inputs.append(("image", path))
        else:
            _fail(f"{path}: no such image, folder or video file")
            failures += 1
    if not inputs:
        return 2
    if args.dice is not None and args.dice < 1:
        raise InputError("--dice must be 1 or more")
    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    pipeline = _pipeline(args)
    for kind, path in inputs:
        try:
            if kind == "video":
                _read_video(pipeline, path, args, out_dir)
            else:
                _read_image(pipeline, path, args, out_dir)
        except InputError as exc:
            _fail(str(exc))
            failures += 1
    return 2 if failures else 0


def read_config(args: argparse.Namespace) -> PipelineConfig:
    """How ``dicecam read`` reads: the product's table reader (as ``dicecam serve`` reads
    the same table), at a taught table with what it learnt."""
    if args.table is not None:
        return table_config(args.table, dice_set=args.dice_set, zones=args.zones,
                            threads=args.threads, empty_table=args.empty_table)
    return PipelineConfig(args.dice_set, zones=args.zones, threads=args.threads,
                          empty_table=args.empty_table)


def _pipeline(args: argparse.Namespace):
    try:
        return pipeline_from(read_config(args))
    except ImportError as exc:
        raise InputError(f"the die reader is not installed ({exc}); reinstall dicecam") from None


def _read_image(pipeline, path: Path, args: argparse.Namespace, out_dir: Path | None) -> None:
    frame = read_image(path)
    reading = pipeline.read_frame(frame, expected=args.dice)
    _emit(str(path), reading, args.json)
    if out_dir is not None:
        _write_annotated(out_dir / f"{path.stem}.jpg", frame, reading.dice)


def _read_video(pipeline, path: Path, args: argparse.Namespace, out_dir: Path | None) -> None:
    pipeline.reset()
    pipeline.expected_dice = lambda: args.dice
    with open_source(path) as source:
        for out in iter_outputs(source, pipeline):
            reading = out.reading
            dice = out.settled.dice if out.settled is not None else reading.dice
            extra = {"frame": reading.frame_index, "moving": reading.moving,
                     "settled": out.settled is not None}
            _emit(str(path), reading, args.json, dice=dice, extra=extra)
            if out_dir is not None and out.settled is not None:
                name = f"{path.stem}_{reading.frame_index:06d}.jpg"
                _write_annotated(out_dir / name, out.frame_bgr, dice)


def _emit(path: str, reading, as_json: bool, *, dice=None, extra: dict | None = None) -> None:
    dice = reading.dice if dice is None else dice
    if as_json:
        record = {"path": path, "width": reading.width, "height": reading.height}
        record.update(extra or {})
        record["dice"] = [
            {"x": round(d.x, 2), "y": round(d.y, 2), "w": round(d.w, 2), "h": round(d.h, 2),
             "value": d.value, "colour": d.colour, "confidence": round(d.confidence, 4),
             "zone": d.zone}
            for d in dice
        ]
        print(json.dumps(record), flush=True)
        return
    where = path if not extra else f"{path} frame {extra['frame']}"
    state = ""
    if extra:
        state = " (settled)" if extra["settled"] else (" (moving)" if extra["moving"] else "")
    values = [d.value for d in dice]
    counts = " ".join(f"{v}:{values.count(v)}" for v in range(1, 7) if values.count(v))
    unread = values.count(None)
    print(f"{where}: {len(dice)} dice{state}" + (f"  values {counts}" if counts else "")
          + (f"  unreadable {unread}" if unread else ""), flush=True)


def draw_dice(frame, dice):
    """A copy of ``frame`` with each die's box, value and colour; unsure dice in orange."""

    image = frame.copy()
    thickness = max(1, round(max(image.shape[:2]) / 800))
    for d in dice:
        colour = (0, 200, 0) if not d.needs_check else (0, 140, 255)
        x0, y0 = round(d.x - d.w / 2), round(d.y - d.h / 2)
        x1, y1 = round(d.x + d.w / 2), round(d.y + d.h / 2)
        cv2.rectangle(image, (x0, y0), (x1, y1), colour, thickness)
        label = f"{d.value if d.value is not None else '?'}"
        if d.colour:
            label += f" {d.colour}"
        scale = max(0.35, d.h / 60)
        cv2.putText(image, label, (x0, max(10, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (0, 0, 0), thickness + 2, cv2.LINE_AA)
        cv2.putText(image, label, (x0, max(10, y0 - 3)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    colour, thickness, cv2.LINE_AA)
    return image


def _write_annotated(out_path: Path, frame, dice) -> None:
    image = draw_dice(frame, dice)
    if not cv2.imwrite(str(out_path), image):
        raise InputError(f"{out_path}: cannot write the annotated image (is the folder "
                         f"writable?)")


def _fail(message: str) -> None:
    print(f"dicecam read: {message}", file=sys.stderr)
