"""A learning checked end to end: the taught table's whole pipeline on its held-back frames.

Each model's own check (``ReaderCheck`` on held-back crops, ``DetectorCheck`` on the boxes
of held-back frames) cannot see what the two do together: a detector that finds more of
a table's dice hands the reader the hard ones, and a reader that is better on the crops
the players confirmed meets boxes it never saw. ``bench teach`` on aws (2026-12-07): the
learnt detector passed its check (37 of 39 held-back dice found, 4 false boxes, against
35 and 8), and the table then read values 91.4 -> 91.05% with silent errors 2.9 -> 3.4%.

So before a learning's models are used, the table's pipeline (``teach.table.table_config``:
its zoom, looks, empty table and side faces) reads the held-back frames whose every die
and value is known (frames of the rolls both learners held back) with each choice of
models, and a choice is used only where it is worse than the shipped models, and than the
models in use, on none of recall, precision, value, silent and asked (counted as ``bench
real`` counts them: ``vision.tally``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from dicecam.teach.store import StoredFrame
from dicecam.vision.config import PipelineConfig
from dicecam.vision.factory import pipeline_from
from dicecam.vision.tally import RealTally

#: fewer held-back dice than this in whole known frames judge nothing end to end: each
#: model's own check decides alone
MIN_CHECKED_DICE = 10

#: the figures compared, in the order the tablet names them
FIGURES = ("recall", "precision", "value", "silent", "asked")


class KnownDie(NamedTuple):
    """A held-back frame's die as ``RealTally`` takes a label."""

    cx: float
    cy: float
    w: float
    h: float
    value: int


@dataclass(frozen=True)
class TableCheck:
    """How one choice of models read the held-back frames (shares of the known dice)."""

    frames: int
    dice: int
    recall: float
    precision: float
    value: float
    silent: float
    asked: float

    def worse_on(self, other: TableCheck) -> tuple[str, ...]:
        """The figures this choice read worse than ``other`` on the same frames."""
        higher_is_better = {"recall": True, "precision": True, "value": True,
                            "silent": False, "asked": False}
        worse = []
        for name in FIGURES:
            mine, theirs = getattr(self, name), getattr(other, name)
            if (mine < theirs) if higher_is_better[name] else (mine > theirs):
                worse.append(name)
        return tuple(worse)

    def to_json(self) -> dict[str, Any]:
        return {"frames": self.frames, "dice": self.dice,
                **{name: round(getattr(self, name), 4) for name in FIGURES}}


def held_back_frames(frames: Sequence[StoredFrame], held_rolls: set[str]) -> list[StoredFrame]:
    """The frames of ``held_rolls`` whose every die and value is known."""
    return [f for f in frames
            if f.complete and f.values is not None and f.roll is not None
            and f.roll in held_rolls]


def check_table(config: PipelineConfig, frames: Sequence[StoredFrame]) -> TableCheck:
    """Read ``frames`` with the pipeline ``config`` describes and count against their dice."""
    pipeline = pipeline_from(config)
    tally = RealTally()
    for frame in frames:
        image = frame.read()
        if image is None or frame.values is None:
            continue
        known = [KnownDie(*box, value) for box, value in zip(frame.dice, frame.values,
                                                             strict=True)]
        tally.add(known, pipeline.read_frame(image).dice, colour_read=False)

    def share(part: int, whole: int, empty: float) -> float:
        return part / whole if whole else empty

    return TableCheck(tally.photos, tally.dice,
                      recall=share(tally.matched, tally.dice, 1.0),
                      precision=share(tally.matched, tally.found, 1.0),
                      value=share(tally.value_right, tally.valued, 1.0),
                      silent=share(tally.silent, tally.valued, 0.0),
                      asked=share(tally.asked, tally.valued, 0.0))


class Models(NamedTuple):
    """One choice of a table's models (the files)."""

    reader: Path
    detector: Path


@dataclass(frozen=True)
class ModelChoice:
    """What the end-to-end check chose: the models to read with, every choice's figures,
    and what the first choice (each model as its own check chose) read worse."""

    models: Models
    checks: dict[str, TableCheck]
    worse_on: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {name: check.to_json() for name, check in self.checks.items()} | {
            "worse_on": list(self.worse_on)}


def choose_models(config: PipelineConfig, frames: Sequence[StoredFrame],
                  baselines: dict[str, Models], candidates: dict[str, Models]
                  ) -> ModelChoice | None:
    """The first of ``candidates`` (named, in order of preference) that the table reads
    worse with than with none of ``baselines`` ("shipped": the models the table learnt
    from, "in_use": the ones it reads with now), or the models in use where every
    candidate is worse on some figure. None where the frames hold too few dice to judge
    (the candidates' own checks decide). A reader other than the shipped one is read as a
    table reads it: where the shipped one is unsure (``vision.unsure_reread``)."""
    if sum(len(f.dice) for f in frames if f.values is not None) < MIN_CHECKED_DICE:
        return None

    shipped_reader = baselines["shipped"].reader

    def check(models: Models) -> TableCheck:
        taught = None if models.reader == shipped_reader else models.reader
        return check_table(replace(config, reader_path=shipped_reader,
                                   taught_reader_path=taught,
                                   detector_path=models.detector), frames)

    checks: dict[str, TableCheck] = {}
    seen: dict[Models, TableCheck] = {}
    for name, models in {**baselines, **candidates}.items():
        if models not in seen:
            seen[models] = check(models)
        checks[name] = seen[models]
    first_worse: tuple[str, ...] = ()
    for index, (name, models) in enumerate(candidates.items()):
        worse = tuple(dict.fromkeys(w for base in baselines
                                    for w in checks[name].worse_on(checks[base])))
        if index == 0:
            first_worse = worse
        if not worse:
            return ModelChoice(models, checks, first_worse)
    return ModelChoice(baselines["in_use"], checks, first_worse)
