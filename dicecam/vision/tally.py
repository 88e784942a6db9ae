"""Readings of a table against its known dice: recall, precision, value, silent, asked.

``RealTally`` counts what became of each known die and each detection of a frame, as
``dicecam bench real`` reports it and as a taught table's learning is checked on its
held-back frames (``teach.table_check``): the same words mean the same counts.

- **recall**: known dice found (matched by box centre within ``tolerance`` of the die's
  size); **precision**: detections that are dice;
- **value**: found dice read with their value; **silent**: found dice read wrong without
  asking (a value, or a colour where the truth has one); **asked**: found dice the tablet
  asks about (the value unreadable or under 0.90 sure, or ``needs_check`` where colours are
  read); **false dice**, and how many of them are silent (the tablet would score a die that
  is not there);
- **calibration**: whether a confidence means what it says: of the found dice read with a
  value at a confidence in each of ``CALIBRATION_BINS``, how many and the share right
  (``right_at_95``: the share right of those read at 0.95 or more, which should be 0.95 or
  more).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.vision.matching import match_centres

#: the confidence bins of the calibration figure, (low, high): low <= confidence < high
CALIBRATION_BINS = ((0.0, 0.5), (0.5, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01))


def is_asked(die: DieReading, colour_read: bool) -> bool:
    """Whether the tablet asks about this die. Without a colour stage no colour is read,
    so only the value decides (``needs_check`` would ask about every die)."""
    if colour_read:
        return die.needs_check
    return die.value is None or die.value_confidence < LOW_CONFIDENCE


@dataclass
class Outcome:
    """What became of one label or one detection on one photo (for annotation)."""

    # "right", "right_asked", "wrong_asked", "silent", "missed", "false", "false_silent",
    # "unclear" (found on a die whose value nobody could read)
    kind: str
    x: float
    y: float
    w: float
    h: float
    read: int | None = None
    truth: int | None = None


@dataclass
class RealTally:
    """Counts for one group of photos (a source, its held-out part, a background folder)."""

    photos: int = 0
    dice: int = 0
    found: int = 0  # detections kept by the pipeline
    matched: int = 0
    valued: int = 0  # matched dice whose value is labelled (not aws's unclear ones)
    value_right: int = 0
    silent: int = 0  # matched valued dice read wrong, not asked
    asked: int = 0  # matched valued dice asked
    false_dice: int = 0
    false_silent: int = 0
    colour_total: int = 0
    colour_right: int = 0
    wrong_values: dict[str, int] = field(default_factory=dict)  # "truth->read": count
    #: per ``CALIBRATION_BINS`` bin: [dice read with a value at that confidence, right]
    by_confidence: list[list[int]] = field(
        default_factory=lambda: [[0, 0] for _ in CALIBRATION_BINS])

    def add(self, truth: Sequence, dice: Sequence[DieReading], *, colour_read: bool,
            tolerance: float = 0.5) -> list[Outcome]:
        """Count one photo: ``truth`` LabelledDie-likes, ``dice`` the pipeline's readings."""

        pairs = match_centres([(d.cx, d.cy, max(d.w, d.h)) for d in truth],
                              [(d.x, d.y) for d in dice], tolerance)
        self.photos += 1
        self.dice += len(truth)
        self.found += len(dice)
        outcomes: list[Outcome] = []
        used = set()
        for label, j in zip(truth, pairs, strict=True):
            if j is None:
                outcomes.append(Outcome("missed", label.cx, label.cy, label.w, label.h,
                                        truth=label.value))
                continue
            used.add(j)
            got = dice[j]
            self.matched += 1
            if label.value is None:  # a die nobody could read: found, and no value to judge
                outcomes.append(Outcome("unclear", got.x, got.y, got.w, got.h, got.value))
                continue
            self.valued += 1
            asked = is_asked(got, colour_read)
            self.asked += asked
            right = got.value == label.value
            self.value_right += right
            if got.value is not None:
                self._count_confidence(got.value_confidence, right)
            if not right:
                key = f"{label.value}->{got.value if got.value is not None else '-'}"
                self.wrong_values[key] = self.wrong_values.get(key, 0) + 1
            colour_wrong = False
            if getattr(label, "colour", None) is not None:
                self.colour_total += 1
                colour_wrong = got.colour != label.colour
                self.colour_right += not colour_wrong
            if right and not colour_wrong:
                kind = "right_asked" if asked else "right"
            elif asked:
                kind = "wrong_asked"
            else:
                kind = "silent"
                self.silent += 1
            outcomes.append(Outcome(kind, got.x, got.y, got.w, got.h, got.value, label.value))
        for j, got in enumerate(dice):
            if j in used:
                continue
            self.false_dice += 1
            silent = not is_asked(got, colour_read)
            self.false_silent += silent
            outcomes.append(Outcome("false_silent" if silent else "false", got.x, got.y,
                                    got.w, got.h, got.value))
        return outcomes

    def _count_confidence(self, confidence: float, right: bool) -> None:
        for counts, (low, high) in zip(self.by_confidence, CALIBRATION_BINS, strict=True):
            if low <= confidence < high:
                counts[0] += 1
                counts[1] += right
                return

    def calibration(self) -> dict:
        """{bin "low-high": {"dice", "right"} share} and ``right_at_95``."""
        bins = {f"{low:g}-{min(high, 1.0):g}": {
                    "dice": n, "right": round(r / n, 4) if n else None}
                for (low, high), (n, r) in zip(CALIBRATION_BINS, self.by_confidence,
                                               strict=True)}
        sure = [(n, r) for (low, _), (n, r) in zip(CALIBRATION_BINS, self.by_confidence,
                                                   strict=True) if low >= 0.95]
        dice, right = sum(n for n, _ in sure), sum(r for _, r in sure)
        return {"bins": bins, "right_at_95": round(right / dice, 4) if dice else None,
                "read_at_95": dice}

    def as_dict(self) -> dict:
        def share(part: int, whole: int) -> float | None:
            return round(part / whole, 4) if whole else None

        return {
            "photos": self.photos, "dice": self.dice, "found": self.found,
            "matched": self.matched, "valued": self.valued,
            "recall": share(self.matched, self.dice),
            "precision": share(self.matched, self.found),
            "value_accuracy": share(self.value_right, self.valued),
            "silent_errors": self.silent, "silent_share": share(self.silent, self.valued),
            "asked": self.asked, "asked_share": share(self.asked, self.valued),
            "false_dice": self.false_dice, "false_silent": self.false_silent,
            "false_per_photo": share(self.false_dice, self.photos),
            "colour_accuracy": share(self.colour_right, self.colour_total),
            "wrong_values": dict(sorted(self.wrong_values.items(), key=lambda kv: -kv[1])),
            "calibration": self.calibration(),
        }
