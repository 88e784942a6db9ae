"""Scoring detections against labels: match by box centre, count recall and precision.

The real development photos (see ``../shared/data/real_dice_dev/MANIFEST.md``) label each
die with a YOLO box; the webcam set's boxes surround only the pip pattern, so detections
are matched to labels by centre distance, never by overlap. A detection matches a label
when its centre lies within ``tolerance`` times the label's die size of the label's centre
(each label and each detection used once, closest pairs first).

Real photos, their labels and their split: ``dicecam.tools.realdata``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dicecam.tools.realdata import LabelledDie
from dicecam.vision.matching import match_centres

__all__ = ["Tally", "match_centres"]


@dataclass
class Tally:
    """Running counts for recall, precision, value and colour accuracy."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    valued: int = 0  # matched dice with a labelled value
    value_right: int = 0
    colour_total: int = 0
    colour_right: int = 0

    def add(self, truth: Sequence[LabelledDie], found: Sequence, tolerance: float = 0.5) -> None:
        """``found`` items need ``x, y`` and may have ``value`` and ``colour`` (DieReading)."""
        pairs = match_centres([(d.cx, d.cy, max(d.w, d.h)) for d in truth],
                              [(f.x, f.y) for f in found], tolerance)
        self.truth += len(truth)
        self.found += len(found)
        for die, j in zip(truth, pairs, strict=True):
            if j is None:
                continue
            self.matched += 1
            got = found[j]
            if die.value is None:  # a die nobody could read: found, no value to judge
                continue
            self.valued += 1
            if getattr(got, "value", None) == die.value:
                self.value_right += 1
            if die.colour is not None:
                self.colour_total += 1
                if getattr(got, "colour", None) == die.colour:
                    self.colour_right += 1

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 1.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def value_accuracy(self) -> float:
        """Right values among matched dice with a labelled value (detection misses are
        counted by recall)."""
        return self.value_right / self.valued if self.valued else 0.0

    @property
    def colour_accuracy(self) -> float | None:
        return self.colour_right / self.colour_total if self.colour_total else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {
            "dice": self.truth,
            "recall": round(self.recall, 4),
            "precision": round(self.precision, 4),
            "value_accuracy": round(self.value_accuracy, 4),
            "colour_accuracy": None if self.colour_accuracy is None
            else round(self.colour_accuracy, 4),
        }
