"""Learning a table: what it kept -> a new reader and detector, each used only where better.

``learn_table`` fine-tunes the shipped reader on every example the table ever kept (a
second evening at the same table starts from all of the first one's dice: later learning
adds to earlier by adding examples, always from the shipped weights, so no version drifts
from a drift), plus pieces of its empty-table picture as "not a die", and what the frames
whose every die is known (a roll accepted as read, a labelled photo) hold besides their
dice: the detector's boxes on no die there and pieces of the cloth or carpet. The players
never saw those, because the reader already turned them down, and a reader that learns
only the table's dice stops turning them down. The new version is
checked on the held-back share against the shipped reader and against the version in use;
it is kept in any case (with its figures and what it read worse, ``worse_on``), and used
only where it beats both there and is worse than neither on any figure. The
detector learns the same way from the table's whole frames and its dice pasted on its
empty picture (``learn.detector``), checked on held-back frames.

The learning is numpy on the CPU; ``OPENBLAS_NUM_THREADS`` (or the caller's process) decides
how many cores it takes: the live view runs it in a child process at low priority on one.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnx

from dicecam.calibration.tables import load_table_picture, saved_table_names
from dicecam.teach.learn.detector import (
    MATCH_TOLERANCE,
    DetectorSettings,
    TableFrame,
    check_detector,
    learn_detector,
)
from dicecam.teach.learn.detector import split_held_back as split_frames
from dicecam.teach.learn.reader import (
    Example,
    LearnSettings,
    ReaderCheck,
    background_examples,
    check_reader,
    cut_stored_crop,
    learn_reader,
    split_held_back,
)
from dicecam.teach.learn.side_faces import (
    CANDIDATE_THRESHOLD,
    FrameBoxes,
    learn_side_faces,
)
from dicecam.teach.store import TableStore
from dicecam.teach.table import table_config
from dicecam.teach.table_check import ModelChoice, Models, choose_models, held_back_frames
from dicecam.vision.detect.detector import MODEL_PATH as DETECTOR_MODEL
from dicecam.vision.detect.detector import DieDetector
from dicecam.vision.matching import match_centres
from dicecam.vision.read.die_reader import TRAINED_MODEL, DieReader
from dicecam.vision.read.unsure_reread import UnsureReread

#: fewer confirmed dice than this teach nothing yet (too few to hold any back)
MIN_DICE = 10
#: pieces of the empty table per confirmed die, as "not a die"
BACKGROUND_PER_DIE = 0.25
#: at most this many of the detector's boxes on no die of a whole frame per confirmed
#: die, as "not a die"
FRAME_NEGATIVES_PER_DIE = 0.5
#: whole frames looked at for them at most (a detector pass each: ~30 ms for 1080p)
NEGATIVE_FRAMES = 60
#: draws of a piece's place per piece wanted, before a crowded frame gives fewer
PIECE_TRIES = 5


@dataclass(frozen=True)
class TableLearning:
    """What one learning run made of a table."""

    version: str  # the reader's
    used: bool
    dice: int
    shipped: ReaderCheck
    previous: ReaderCheck | None
    learned: ReaderCheck
    seconds: float
    #: the detector's part (version, used, frames, checks), None where the table kept no
    #: whole frame and no empty-table picture to learn it from
    detector: dict[str, Any] | None = None
    #: where the table's side faces lie (``learn.side_faces``): the zone, or None, and
    #: the figures it was decided on
    side_faces: dict[str, Any] | None = None
    #: the figures the new reader read worse than the shipped one or the one in use
    #: ("value", "silent", "asked"): why it is not used
    worse_on: tuple[str, ...] = ()
    #: the whole table's check of the choices on its held-back frames (``table_check``),
    #: None where nothing new passed its own check or too few frames were held back
    table_check: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "used": self.used, "dice": self.dice,
                "shipped": self.shipped.to_json(),
                "previous": None if self.previous is None else self.previous.to_json(),
                "learned": self.learned.to_json(), "seconds": round(self.seconds, 1),
                "detector": self.detector, "side_faces": self.side_faces,
                "worse_on": list(self.worse_on), "table_check": self.table_check}


def _with_background(store: TableStore, examples: list[Example], seed: int) -> list[Example]:
    if store.name not in saved_table_names():
        return examples
    dice = [e for e in examples if e.value]
    if not dice:
        return examples
    box = float(np.median([e.crop.shape[0] for e in dice])) / 2.0  # stored crop = 2 x box
    rng = np.random.default_rng(seed)
    count = max(4, int(len(dice) * BACKGROUND_PER_DIE))
    return examples + background_examples(load_table_picture(store.name), box, count, rng)


def _with_frame_negatives(store: TableStore, examples: list[Example], base_detector: Path,
                          seed: int) -> tuple[list[Example], list[FrameBoxes]]:
    """``examples`` and, as "not a die", what the table's whole frames hold besides their
    known dice: the boxes ``base_detector`` finds there on no die, then pieces of the
    table itself (the cloth, carpet or board around the dice) from a fifth to the whole
    of a die's side (the detector's false boxes on a textured table are mostly small).
    At most ``FRAME_NEGATIVES_PER_DIE`` a confirmed die, the detector's boxes first; each
    frame's a roll of their own (held back together). Also each frame's known dice and
    the detector's boxes on none of them (where the table's side faces lie)."""
    dice = [e for e in examples if e.value]
    frames = [f for f in store.frames() if f.complete]
    if not frames or not dice:
        return examples, []
    if len(frames) > NEGATIVE_FRAMES:  # spread over the evenings, at a bounded cost
        frames = [frames[int(i)] for i in np.linspace(0, len(frames) - 1, NEGATIVE_FRAMES)]
    limit = int(len(dice) * FRAME_NEGATIVES_PER_DIE)
    rng = np.random.default_rng(seed)
    detector = DieDetector(base_detector, auto_zoom=True)
    # side faces: a tilted camera's side faces reach the detector's usual threshold on
    # about one frame in ten, and a table is taught from a few dozen; they are seen at a
    # lower one (``learn.side_faces``)
    faint = DieDetector(base_detector, auto_zoom=True, threshold=CANDIDATE_THRESHOLD)
    found, pieces, seen = [], [], []
    for stored in frames:
        image = stored.read()
        if image is None:
            continue
        # held back with its roll's dice where the frame names it
        roll = stored.roll or f"frame:{stored.file.name}"
        known = [(b[0], b[1], max(b[2], b[3])) for b in stored.dice + stored.not_dice]
        boxes = detector(image).boxes
        taken = _on_known(known, boxes)
        found += [Example(cut_stored_crop(image, *b[:4]), 0, roll)
                  for j, b in enumerate(boxes) if j not in taken]
        pieces += _table_pieces(image, known, -(-limit // len(frames)), rng, roll)
        seen.append(_frame_boxes(known[:len(stored.dice)], faint(image).boxes))
    if len(found) > limit:
        found = [found[i] for i in sorted(rng.choice(len(found), limit, replace=False))]
    return examples + found + pieces[:limit - len(found)], seen


def _on_known(known: list[tuple[float, float, float]], boxes: np.ndarray) -> set[int]:
    """Indices of the detector's ``boxes`` that lie on one of the ``known`` places."""
    return {j for j in match_centres(known, [(b[0], b[1]) for b in boxes], MATCH_TOLERANCE)
            if j is not None}


def _frame_boxes(dice: list[tuple[float, float, float]], boxes: np.ndarray) -> FrameBoxes:
    """A frame's known dice and the boxes on none of them (a box on a place the players
    struck is one: that was a false box)."""
    on_dice = _on_known(dice, boxes)
    return FrameBoxes(np.array(dice, np.float64).reshape(-1, 3),
                      np.array([b[:2] for j, b in enumerate(boxes) if j not in on_dice],
                               np.float64).reshape(-1, 2))


def _table_pieces(image: np.ndarray, known: list[tuple[float, float, float]], count: int,
                  rng: np.random.Generator, roll: str) -> list[Example]:
    """Up to ``count`` pieces of a whole frame clear of its known dice, as "not a die"."""
    if not known:
        return []
    side = float(np.median([k[2] for k in known]))
    height, width = image.shape[:2]
    pieces = []
    for _ in range(count * PIECE_TRIES):
        if len(pieces) == count:
            break
        box = side * float(np.exp(rng.uniform(np.log(0.2), 0.0)))
        x, y = rng.uniform(box / 2, width - box / 2), rng.uniform(box / 2, height - box / 2)
        # the piece's runtime crop (0.7 of its side each way) holds no part of a die
        if any(np.hypot(x - kx, y - ky) < (ks + box) * 0.75 for kx, ky, ks in known):
            continue
        pieces.append(Example(cut_stored_crop(image, x, y, box, box), 0, roll))
    return pieces


def learn_table(store: TableStore, *, settings: LearnSettings | None = None,
                detector_settings: DetectorSettings | None = None,
                log: Callable[[str], None] = lambda _: None,
                base_reader: Path = TRAINED_MODEL,
                base_detector: Path = DETECTOR_MODEL) -> TableLearning:
    """Learn a new reader and detector for ``store``'s table from everything it kept
    (ValueError when it kept too few dice), fine-tuned from ``base_reader`` and
    ``base_detector`` (the shipped models; a bench gives a source's leave-one-out models
    to see what a table none of them saw gets). Each is used only where its own check
    and the whole table's (``table_check``) find it worse on nothing."""
    settings = settings or LearnSettings()
    examples = list(store.examples())
    dice = sum(1 for e in examples if e.value)
    if dice < MIN_DICE:
        raise ValueError(f"table {store.name} has {dice} confirmed dice; it learns from "
                         f"{MIN_DICE} on")
    held_rolls = {e.roll for e in split_held_back(examples)[1] if e.roll is not None}
    examples = _with_background(store, examples, settings.seed)
    examples, frame_boxes = _with_frame_negatives(store, examples, base_detector,
                                                  settings.seed)
    zone, zone_figures = learn_side_faces(frame_boxes)
    store.save_side_faces(zone, zone_figures)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "reader").mkdir()
        result = learn_reader(examples, base_model=base_reader, settings=settings,
                              work_dir=work / "reader", log=log)
        previous_path = store.reader_in_use()
        previous = None
        if previous_path is not None:
            previous = check_reader(UnsureReread(DieReader(base_reader),
                                                 DieReader(previous_path)),
                                    split_held_back(examples)[1])
        reader_passes = result.better and (previous is None
                                           or result.learned.better_than(previous))
        worse_on = worse_than(result.learned, result.shipped, previous)
        reader_file = work / "reader.onnx"
        onnx.save(result.model, str(reader_file))
        detector = _learn_detector(store, detector_settings or DetectorSettings(), log,
                                   base_detector, held_rolls, work)
        choice = _choose(store, base_reader, base_detector, held_rolls,
                         reader_file if reader_passes else None,
                         detector.file if detector is not None and detector.passes else None)
        reader_used = reader_passes if choice is None else choice.models.reader == reader_file
        if reader_passes and not reader_used:
            worse_on = tuple(dict.fromkeys(worse_on + choice.worse_on))
        card = {"trained_on": result.trained_on, "temperature": round(result.temperature, 4),
                "seconds": round(result.seconds, 1), "steps": settings.steps,
                "label_smoothing": settings.label_smoothing,
                "seed": settings.seed, "base": base_reader.name,
                "held_back": {"shipped": result.shipped.to_json(),
                              "previous": None if previous is None else previous.to_json(),
                              "learned": result.learned.to_json()},
                "table_check": None if choice is None else choice.to_json(),
                "used": reader_used, "worse_on": list(worse_on)}
        version = store.save_reader(reader_file.read_bytes(), card, use=reader_used)
        detector_figures = None
        if detector is not None:
            detector_used = detector.passes if choice is None \
                else choice.models.detector == detector.file
            detector_worse = detector.worse_on
            if detector.passes and not detector_used:
                detector_worse = tuple(dict.fromkeys(detector_worse + choice.worse_on))
            figures = {**detector.figures, "used": detector_used,
                       "worse_on": list(detector_worse),
                       "table_check": None if choice is None else choice.to_json()}
            name = store.save_model("detector", detector.file.read_bytes(), figures,
                                    use=detector_used)
            detector_figures = {"version": name, **figures}
    return TableLearning(version, reader_used, dice, result.shipped, previous, result.learned,
                         result.seconds, detector_figures,
                         {"zone": None if zone is None else zone.to_json(), **zone_figures},
                         worse_on, None if choice is None else choice.to_json())


def worse_than(learned: Any, shipped: Any, previous: Any | None) -> tuple[str, ...]:
    """The figures ``learned`` (a reader's or a detector's check) is worse on than the
    shipped model's or the version in use's, in the checks' order."""
    names = list(learned.worse_on(shipped))
    if previous is not None:
        names += [n for n in learned.worse_on(previous) if n not in names]
    return tuple(names)


def _choose(store: TableStore, base_reader: Path, base_detector: Path, held_rolls: set[str],
            reader: Path | None, detector: Path | None) -> ModelChoice | None:
    """The models the table reads with after this learning (``table_check``): both new
    ones that passed their own checks, else one of them, else those in use. None where
    nothing new passed or too few whole frames were held back to judge."""
    if reader is None and detector is None:
        return None
    frames = held_back_frames(store.frames(), held_rolls)
    in_use = Models(store.in_use("reader") or base_reader,
                    store.in_use("detector") or base_detector)
    candidates = {}
    if reader is not None and detector is not None:
        candidates["learnt_both"] = Models(reader, detector)
    if reader is not None:
        candidates["learnt_reader"] = Models(reader, in_use.detector)
    if detector is not None:
        candidates["learnt_detector"] = Models(in_use.reader, detector)
    # the table as it reads now, as ``dicecam read --table`` reads it, the coarse pass
    # of a learnt detector by the base it learnt from
    config = replace(table_config(store.name), coarse_detector_path=base_detector)
    return choose_models(config, frames, {"shipped": Models(base_reader, base_detector),
                                          "in_use": in_use}, candidates)


@dataclass(frozen=True)
class _DetectorRun:
    file: Path  # the candidate, in the learning's work folder
    passes: bool  # its own check: better than the shipped one and the one in use
    worse_on: tuple[str, ...]
    figures: dict[str, Any]


def _learn_detector(store: TableStore, settings: DetectorSettings,
                    log: Callable[[str], None], base: Path, held_rolls: set[str],
                    work: Path) -> _DetectorRun | None:
    frames = []
    for stored in store.frames():
        image = stored.read()
        if image is not None:
            frames.append(TableFrame(image, np.array(stored.dice, np.float32).reshape(-1, 4),
                                     stored.complete, stored.roll))
    empty = load_table_picture(store.name) if store.name in saved_table_names() else None
    dice = []
    for die in store.dice():
        crop = cv2.imread(str(die.crop_file), cv2.IMREAD_COLOR) if die.value else None
        if crop is not None:
            dice.append((crop, float(max(die.box[2], die.box[3]))))
    if not any(f.complete for f in frames) and (empty is None or not dice):
        return None
    (work / "detector").mkdir()
    result = learn_detector(frames, dice, empty, work_dir=work / "detector",
                            settings=settings, log=log, base_model=base,
                            held_rolls=held_rolls)
    previous_path = store.in_use("detector")
    previous = None
    if previous_path is not None:
        previous = check_detector(DieDetector(previous_path, auto_zoom=True,
                                              coarse_model_path=base),
                                  split_frames(frames, held_rolls)[1])
    passes = result.better and (previous is None or result.learned.better_than(previous))
    file = work / "detector.onnx"
    onnx.save(result.model, str(file))
    figures = {"frames": result.tiles_from, "seconds": round(result.seconds, 1),
               "steps": settings.steps, "seed": settings.seed,
               "held_back": {"shipped": result.shipped.to_json(),
                             "previous": None if previous is None else previous.to_json(),
                             "learned": result.learned.to_json()}}
    return _DetectorRun(file, passes, worse_than(result.learned, result.shipped, previous),
                        figures)
