"""``dicecam bench teach``: what a table gains from learning its own dice.

For each real source (``dicecam.tools.realdata``: byler, webcam, pxl, damiantab), as a new
table would be taught: every 5th photo in name order (at most ``TEACH_PHOTOS``) is taught
through the same code as ``dicecam calibrate dice --labelled`` (each photo read by the
table reader, its found dice confirmed or corrected by their labels, missed dice added,
false boxes "not a die"), the table learns, and every other photo of the source is read
by the table pipeline with the shipped reader and with the table's: recall, precision,
value accuracy, silent errors (read wrong with confidence >= 0.90), dice asked, and the
learning's seconds. ``--curve`` also learns after the first 10, 30 and 100 confirmed dice.

Each source is taught to its own table in a private ``DICECAM_HOME`` (nothing of the
user's is touched). The shipped models trained on parts of these sources (see the model
cards), so these rows say how learning works, not what an unseen table gets from the
shipped models alone; that figure comes from sources nobody here trained on.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import cv2

from dicecam.errors import InputError
from dicecam.teach.labelled import TaughtFromPhotos, teach_photo
from dicecam.teach.learn.detector import DetectorSettings
from dicecam.teach.learn.reader import LearnSettings
from dicecam.teach.learner import learn_table
from dicecam.teach.store import TableStore
from dicecam.tools.bench.accuracy.real import print_table, read_sources
from dicecam.tools.bench.speed.teach_live import live_cost, photo_labels
from dicecam.tools.realdata import SOURCES, check_sources, iter_photos, real_data_dir
from dicecam.vision.detect.detector import MODEL_PATH as SHIPPED_DETECTOR
from dicecam.vision.factory import build_pipeline

HELP = ("a table taught every 5th photo of each real source, the rest read before and "
        "after it learns: recall, precision, value, silent, asked, learning seconds")

TEACH_EVERY = 5
TEACH_PHOTOS = 24
CURVE = (10, 30, 100)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", dest="sources", action="append", choices=SOURCES,
                        help="only this source (repeatable; default: all)")
    parser.add_argument("--curve", action="store_true",
                        help="also learn after the first 10, 30 and 100 confirmed dice")
    parser.add_argument("--steps", type=int, default=LearnSettings.steps,
                        help=f"learning steps (default {LearnSettings.steps})")
    parser.add_argument("--detector-steps", type=int, default=DetectorSettings.steps,
                        help=f"the detector's learning steps (default {DetectorSettings.steps})")
    parser.add_argument("--seed", type=int, default=LearnSettings.seed,
                        help="the learning's seed, the reader's and the detector's (default "
                             f"{LearnSettings.seed}): a table's learning is one draw of "
                             "many, and a source at the edge of the held-back check (pxl) "
                             "uses its learnt reader in some seeds only")
    parser.add_argument("--reader", type=Path, default=None, metavar="ONNX",
                        help="start from this die reader instead of the shipped one (a "
                             "source's leave-one-out reader: what a table no model saw gets)")
    parser.add_argument("--detector", type=Path, default=None, metavar="ONNX",
                        help="start from this detector instead of the shipped one")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--live-cost", action="store_true",
                        help="instead: teach a table from the first source, then time the "
                             "live view's full reads before, while and after it learns "
                             "(budget: +10%%)")


def split_for_teaching(photos: list) -> tuple[list, list]:
    """(taught, read): every ``TEACH_EVERY``-th photo in name order, spaced wider where
    that would be more than ``TEACH_PHOTOS`` (so the taught photos span the source, as a
    table's first rolls show every value: webcam's are named by the value they show);
    the rest."""
    ordered = sorted(photos, key=lambda p: p.image.name)
    every = max(TEACH_EVERY, -(-len(ordered) // TEACH_PHOTOS))
    taught = ordered[::every][:TEACH_PHOTOS]
    chosen = {p.image for p in taught}
    return taught, [p for p in ordered if p.image not in chosen]


def _read_rows(pipeline, photos, name: str) -> dict:
    groups, _ = read_sources(pipeline, photos, colour_read=False)
    return groups[name].as_dict() if name in groups else {}


@dataclass(frozen=True)
class BaseModels:
    """The models a bench table starts from and falls back to (None: the shipped ones)."""

    reader: Path | None = None
    detector: Path | None = None

    def learn_from(self) -> dict[str, Path]:
        return {**({"base_reader": self.reader} if self.reader else {}),
                **({"base_detector": self.detector} if self.detector else {})}


def bench_source(source: str, root: Path, settings: LearnSettings, curve: bool,
                 log=print, base: BaseModels = BaseModels(),
                 detector_settings: DetectorSettings | None = None) -> dict:
    photos = list(iter_photos(root, source=source))
    taught, read = split_for_teaching(photos)
    shipped = build_pipeline(None, reader_path=base.reader,
                             detector_path=base.detector)
    result: dict = {"taught_photos": len(taught), "read_photos": len(read),
                    "shipped": _read_rows(shipped, read, source), "curve": []}
    store = TableStore(f"bench-{source}")
    tally = TaughtFromPhotos()
    wanted = sorted(n for n in CURVE if curve) + [None]
    for photo in taught:
        frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
        height, width = frame.shape[:2]
        teach_photo(store, frame, photo_labels(photo, width, height),
                    shipped.read_frame, tally, roll=photo.image.name)
        dice = store.counts()["dice"]
        while wanted and wanted[0] is not None and dice >= wanted[0]:
            result["curve"].append(_learn_and_read(store, settings, read, source, log, base,
                                                   detector_settings))
            wanted.pop(0)
    final = _learn_and_read(store, settings, read, source, log, base, detector_settings)
    result.update(taught=tally.to_json(), learning=final["learning"], table=final["read"])
    return result


def _learn_and_read(store: TableStore, settings: LearnSettings, read, source: str,
                    log, base: BaseModels, detector_settings: DetectorSettings | None) -> dict:
    started = time.monotonic()
    learning = learn_table(store, settings=settings, detector_settings=detector_settings,
                           log=lambda _: None, **base.learn_from())
    detector = learning.detector or {}
    log(f"  {source}: learnt {learning.version} from {learning.dice} dice "
        f"({'used' if learning.used else 'not used'}) and {detector.get('version')} "
        f"({'used' if detector.get('used') else 'not used'}) in "
        f"{time.monotonic() - started:.0f} s")
    pipeline = build_pipeline(None, reader_path=base.reader,
                              taught_reader_path=store.in_use("reader"),
                              detector_path=store.in_use("detector") or base.detector,
                              coarse_detector_path=base.detector or SHIPPED_DETECTOR,
                              side_faces=store.side_faces())
    return {"dice": learning.dice, "learning": learning.to_json(),
            "read": _read_rows(pipeline, read, source)}


def run(args: argparse.Namespace) -> int:
    root = real_data_dir()
    if root is None:
        raise InputError("the real dice photos were not found: put them in "
                         "../shared/data/real_dice_dev or set DICECAM_REAL_DATA")
    sources = check_sources(args.sources) or SOURCES
    settings = LearnSettings(steps=args.steps, seed=args.seed)
    if args.steps < 1 or args.detector_steps < 1:
        raise InputError("--steps and --detector-steps must be at least 1")
    for given in (args.reader, args.detector):
        if given is not None and not given.is_file():
            raise InputError(f"no model at {given}")
    base = BaseModels(args.reader, args.detector)
    figures = {}
    with tempfile.TemporaryDirectory() as home:
        previous = os.environ.get("DICECAM_HOME")
        os.environ["DICECAM_HOME"] = home  # the bench's tables, never the user's
        try:
            if args.live_cost:
                taught, _ = split_for_teaching(list(iter_photos(root, source=sources[0])))
                figures = live_cost(sources[0], taught, steps=args.steps,
                                    log=lambda m: None if args.json else print(m))
            for source in () if args.live_cost else sources:
                figures[source] = bench_source(source, root, settings, args.curve,
                                               log=lambda m: None if args.json else print(m),
                                               base=base, detector_settings=DetectorSettings(
                                                   steps=args.detector_steps,
                                                   seed=args.seed))
        finally:
            if previous is None:
                os.environ.pop("DICECAM_HOME", None)
            else:
                os.environ["DICECAM_HOME"] = previous
    if args.json or args.live_cost:
        print(json.dumps(figures))
        return 0
    rows = {}
    for source, row in figures.items():
        rows[f"{source}, {'given' if args.reader or args.detector else 'shipped'}"] = \
            row["shipped"]
        for point in row["curve"]:
            rows[f"{source}, taught {point['dice']} dice"] = point["read"]
        rows[f"{source}, taught {row['learning']['dice']} dice"] = row["table"]
    print_table({"detector": str(args.detector or "shipped"),
                 "reader": f"{args.reader or 'shipped'} / the table's",
                 "colour_stage": None, "asked_below": 0.9, "groups": rows})
    for source, row in figures.items():
        learning = row["learning"]
        print(f"  {source}: taught {row['taught_photos']} photos ({row['taught']}), "
              f"reader learnt in {learning['seconds']} s, {learning['version']} "
              f"{'used' if learning['used'] else 'NOT used'}; held back: shipped "
              f"{learning['shipped']}, learnt {learning['learned']}"
              + (f"; worse on {', '.join(learning['worse_on'])}" if learning["worse_on"]
                 else ""))
        check = learning.get("table_check")
        if check:
            print(f"  {source}: the table's held-back frames, end to end: "
                  + "; ".join(f"{name} {shares}" for name, shares in check.items()))
        detector = learning.get("detector")
        if detector:
            print(f"  {source}: detector learnt in {detector['seconds']} s, "
                  f"{detector['version']} {'used' if detector['used'] else 'NOT used'}; "
                  f"held back: {detector['held_back']}"
                  + (f"; worse on {', '.join(detector['worse_on'])}"
                     if detector.get("worse_on") else ""))
        side_faces = learning.get("side_faces")
        if side_faces:
            print(f"  {source}: side faces {side_faces}")
    return 0
