"""Learning a table: what it kept -> a new reader and detector, each used only where better.

``learn_table`` fine-tunes the shipped reader on every example the table ever kept (a
second evening at the same table starts from all of the first one's dice: later learning
adds to earlier by adding examples, always from the shipped weights, so no version drifts
from a drift), plus pieces of its empty-table picture as "not a die". The new version is
checked on the held-back share against the shipped reader and against the version in use;
it is kept in any case (with its figures), and used only where it beats both there. The
detector learns the same way from the table's whole frames and its dice pasted on its
empty picture (``detector_learning``), checked on held-back frames.

The learning is numpy on the CPU; ``OPENBLAS_NUM_THREADS`` (or the caller's process) decides
how many cores it takes: the live view runs it in a child process at low priority on one.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import onnx

from dicecam.calibration.tables import load_table_picture, saved_table_names
from dicecam.teach.detector_learning import (
    DetectorSettings,
    TableFrame,
    check_detector,
    learn_detector,
)
from dicecam.teach.detector_learning import split_held_back as split_frames
from dicecam.teach.reader_learning import (
    Example,
    LearnSettings,
    ReaderCheck,
    background_examples,
    check_reader,
    learn_reader,
    split_held_back,
)
from dicecam.teach.store import TableStore
from dicecam.vision.detect import MODEL_PATH as DETECTOR_MODEL
from dicecam.vision.detect import DieDetector
from dicecam.vision.die_reader import TRAINED_MODEL, DieReader

#: fewer confirmed dice than this teach nothing yet (too few to hold any back)
MIN_DICE = 10
#: pieces of the empty table per confirmed die, as "not a die"
BACKGROUND_PER_DIE = 0.25


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

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "used": self.used, "dice": self.dice,
                "shipped": self.shipped.to_json(),
                "previous": None if self.previous is None else self.previous.to_json(),
                "learned": self.learned.to_json(), "seconds": round(self.seconds, 1),
                "detector": self.detector}


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


def learn_table(store: TableStore, *, settings: LearnSettings | None = None,
                detector_settings: DetectorSettings | None = None,
                log: Callable[[str], None] = lambda _: None,
                base_reader: Path = TRAINED_MODEL,
                base_detector: Path = DETECTOR_MODEL) -> TableLearning:
    """Learn a new reader and detector for ``store``'s table from everything it kept
    (ValueError when it kept too few dice), fine-tuned from ``base_reader`` and
    ``base_detector`` (the shipped models; a bench gives a source's leave-one-out models
    to see what a table none of them saw gets)."""
    settings = settings or LearnSettings()
    examples = list(store.examples())
    dice = sum(1 for e in examples if e.value)
    if dice < MIN_DICE:
        raise ValueError(f"table {store.name} has {dice} confirmed dice; it learns from "
                         f"{MIN_DICE} on")
    examples = _with_background(store, examples, settings.seed)
    with tempfile.TemporaryDirectory() as work:
        result = learn_reader(examples, base_model=base_reader, settings=settings,
                              work_dir=Path(work), log=log)
    previous_path = store.reader_in_use()
    previous = None
    if previous_path is not None:
        previous = check_reader(DieReader(previous_path), split_held_back(examples)[1])
    used = result.better and (previous is None or result.learned.better_than(previous))
    buffer = io.BytesIO()
    onnx.save(result.model, buffer)
    card = {"trained_on": result.trained_on, "temperature": round(result.temperature, 4),
            "seconds": round(result.seconds, 1), "steps": settings.steps,
            "label_smoothing": settings.label_smoothing,
            "seed": settings.seed, "base": base_reader.name,
            "held_back": {"shipped": result.shipped.to_json(),
                          "previous": None if previous is None else previous.to_json(),
                          "learned": result.learned.to_json()},
            "used": used}
    version = store.save_reader(buffer.getvalue(), card, use=used)
    detector = _learn_detector(store, detector_settings or DetectorSettings(), log,
                               base_detector)
    return TableLearning(version, used, dice, result.shipped, previous, result.learned,
                         result.seconds, detector)


def _learn_detector(store: TableStore, settings: DetectorSettings,
                    log: Callable[[str], None], base: Path = DETECTOR_MODEL
                    ) -> dict[str, Any] | None:
    frames = []
    for stored in store.frames():
        image = stored.read()
        if image is not None:
            frames.append(TableFrame(image, np.array(stored.dice, np.float32).reshape(-1, 4),
                                     stored.complete))
    empty = load_table_picture(store.name) if store.name in saved_table_names() else None
    dice = []
    for die in store.dice():
        crop = cv2.imread(str(die.crop_file), cv2.IMREAD_COLOR) if die.value else None
        if crop is not None:
            dice.append((crop, float(max(die.box[2], die.box[3]))))
    if not any(f.complete for f in frames) and (empty is None or not dice):
        return None
    with tempfile.TemporaryDirectory() as work:
        result = learn_detector(frames, dice, empty, work_dir=Path(work), settings=settings,
                                log=log, base_model=base)
    previous_path = store.in_use("detector")
    previous = None
    if previous_path is not None:
        previous = check_detector(DieDetector(previous_path, auto_zoom=True),
                                  split_frames(frames)[1])
    used = result.better and (previous is None or result.learned.better_than(previous))
    buffer = io.BytesIO()
    onnx.save(result.model, buffer)
    figures = {"frames": result.tiles_from, "seconds": round(result.seconds, 1),
               "steps": settings.steps, "seed": settings.seed,
               "held_back": {"shipped": result.shipped.to_json(),
                             "previous": None if previous is None else previous.to_json(),
                             "learned": result.learned.to_json()}, "used": used}
    version = store.save_model("detector", buffer.getvalue(), figures, use=used)
    return {"version": version, **figures}
