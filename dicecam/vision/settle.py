"""Settle detection: turn a stream of frame readings into one published roll per real roll.

While dice move, the layout changes, or a hand is in view, the table is "rolling" and
nothing is published. Once the same layout has been still for ``still_seconds`` (and at
least ``min_still_frames`` frames), the roll is published once: each die's value and colour
are voted over the still frames. The detector then waits for the next movement before it
can publish again, so a roll that stays on the table is never published twice.

``MotionMeter`` measures movement between consecutive frames from pixels alone, so a die
still spinning in place or a hand hovering without covering a die also counts as motion.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import cv2
import numpy as np

from dicecam.reading import DieReading, FrameReading, SettledRoll


@dataclass(frozen=True)
class SettleConfig:
    """How still is still. Defaults suit a 15-30 fps webcam looking down at a table."""

    #: The layout must be still this long before a roll is published.
    still_seconds: float = 0.5
    #: ...and hold for at least this many frames (guards against very low frame rates).
    min_still_frames: int = 3
    #: A die moved if its centre shifted by more than this fraction of its box size.
    move_tolerance: float = 0.25
    #: Publish rolls with no dice at all (a cleared table)? Off: an empty table is no roll.
    publish_empty: bool = False

    def __post_init__(self) -> None:
        if self.still_seconds < 0 or self.min_still_frames < 1:
            raise ValueError("still_seconds must be >= 0 and min_still_frames >= 1")
        if not 0 < self.move_tolerance <= 2:
            raise ValueError(f"move_tolerance must be in (0, 2], got {self.move_tolerance}")


class MotionMeter:
    """Fraction-of-pixels-changed between consecutive frames, on a small blurred grey copy.

    ``update(frame)`` returns True when the frame differs from the previous one by more than
    sensor noise: more than ``min_changed`` of the small image's pixels changed by more than
    ``level`` grey levels.
    """

    def __init__(self, *, width: int = 192, level: int = 18, min_changed: float = 0.0004) -> None:
        self.width = width
        self.level = level
        self.min_changed = min_changed
        self._previous: np.ndarray | None = None
        self.last_changed = 0.0

    def reset(self) -> None:
        self._previous = None

    def update(self, frame_bgr: np.ndarray) -> bool:
        height = max(1, round(frame_bgr.shape[0] * self.width / frame_bgr.shape[1]))
        small = cv2.resize(frame_bgr, (self.width, height), interpolation=cv2.INTER_AREA)
        grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
        previous, self._previous = self._previous, grey
        if previous is None or previous.shape != grey.shape:
            self.last_changed = 0.0
            return False
        changed = cv2.absdiff(grey, previous) > self.level
        self.last_changed = float(np.count_nonzero(changed)) / changed.size
        # At least two pixels, so one flickering pixel on a tiny image is not a roll.
        # bool(): numpy 2 answers count_nonzero with a numpy integer, and a numpy bool
        # would reach the JSON that `dicecam read` prints.
        return bool(self.last_changed > self.min_changed and np.count_nonzero(changed) >= 2)


class SettleDetector:
    """Feed it every FrameReading in order; it returns a SettledRoll once per still roll."""

    def __init__(self, config: SettleConfig | None = None) -> None:
        self.config = config or SettleConfig()
        self._still: list[FrameReading] = []
        self._armed = True  # may publish: the table moved since the last published roll
        self._roll_id = 0

    @property
    def waiting(self) -> bool:
        """True while a roll on the table may still be published (it moved since the last
        one, and there are dice, or an empty table is published too)."""
        last = self._still[-1] if self._still else None
        return self._armed and (self.config.publish_empty or last is None or bool(last.dice))

    def reset(self) -> None:
        self._still.clear()
        self._armed = True

    def is_moving(self, reading: FrameReading) -> bool:
        """Whether this frame breaks stillness (motion, a hand, or a changed layout)."""
        if reading.moving or reading.hand_in_view:
            return True
        return bool(self._still) and not same_layout(
            self._still[-1].dice, reading.dice, self.config.move_tolerance
        )

    def update(self, reading: FrameReading) -> SettledRoll | None:
        if self.is_moving(reading):
            self._still = [] if (reading.moving or reading.hand_in_view) else [reading]
            self._armed = True
            return None
        self._still.append(reading)
        if not self._armed:
            # Keep the buffer short while waiting for the next movement.
            del self._still[:-1]
            return None
        first, last = self._still[0], self._still[-1]
        if len(self._still) < self.config.min_still_frames:
            return None
        if last.timestamp - first.timestamp < self.config.still_seconds:
            return None
        if not last.dice and not self.config.publish_empty:
            return None
        self._armed = False
        self._roll_id += 1
        return SettledRoll(
            roll_id=self._roll_id,
            width=last.width,
            height=last.height,
            dice=vote(self._still),
            frame_index=last.frame_index,
            timestamp=last.timestamp,
        )


def same_layout(
    before: tuple[DieReading, ...], after: tuple[DieReading, ...], tolerance: float
) -> bool:
    """True when every die of ``after`` sits where one of ``before`` sat (one to one)."""
    if len(before) != len(after):
        return False
    return all(match is not None for match in match_dice(before, after, tolerance))


def match_dice(
    reference: tuple[DieReading, ...], others: tuple[DieReading, ...], tolerance: float
) -> list[int | None]:
    """For each die of ``reference``, the index of the die of ``others`` at the same place.

    Greedy nearest-centre matching, closest pairs first; a pair only matches when the
    centres are within ``tolerance`` times the reference die's size.
    """
    if not reference:
        return []
    if not others:
        return [None] * len(reference)
    ref = np.array([(d.x, d.y, max(d.w, d.h)) for d in reference], dtype=np.float64)
    oth = np.array([(d.x, d.y) for d in others], dtype=np.float64)
    dist = np.hypot(ref[:, None, 0] - oth[None, :, 0], ref[:, None, 1] - oth[None, :, 1])
    limit = tolerance * ref[:, 2:3]
    result: list[int | None] = [None] * len(reference)
    taken = np.zeros(len(others), dtype=bool)
    for flat in np.argsort(dist, axis=None):
        i, j = divmod(int(flat), len(others))
        if dist[i, j] > limit[i, 0]:
            continue
        if result[i] is None and not taken[j]:
            result[i] = j
            taken[j] = True
    return result


def vote(still: list[FrameReading]) -> tuple[DieReading, ...]:
    """Each die of the last still frame, its value and colour voted over all still frames.

    A die's confidence becomes the share of frames that agree with the winning value times
    the mean confidence of those frames, so a flickering reading is flagged for a check.
    """
    last = still[-1]
    tolerance = 0.5
    columns: list[list[DieReading]] = [[die] for die in last.dice]
    for reading in still[:-1]:
        for i, j in enumerate(match_dice(last.dice, reading.dice, tolerance)):
            if j is not None:
                columns[i].append(reading.dice[j])
    voted = []
    for die, seen in zip(last.dice, columns, strict=True):
        value, value_conf = _winner([(d.value, d.value_confidence) for d in seen], len(still))
        colour, colour_conf = _winner([(d.colour, d.colour_confidence) for d in seen], len(still))
        voted.append(
            replace(
                die,
                value=value,
                colour=colour,
                value_confidence=value_conf,
                colour_confidence=colour_conf,
                confidence=min(value_conf, colour_conf),
                colour_scores=_mean_scores([d.colour_scores for d in seen]),
            )
        )
    return tuple(voted)


def _mean_scores(seen: list[tuple[tuple[str, float], ...]]) -> tuple[tuple[str, float], ...]:
    """Each colour's score averaged over the still frames that scored the die."""
    scored = [dict(s) for s in seen if s]
    if not scored:
        return ()
    return tuple((name, round(float(np.mean([s.get(name, 0.0) for s in scored])), 4))
                 for name in scored[0])


def _winner(votes: list[tuple[object, float]], frames: int) -> tuple:
    counts = Counter(label for label, _ in votes)
    label, count = max(counts.items(), key=lambda item: (item[0] is not None, item[1]))
    if label is None:
        return None, float(np.mean([c for _, c in votes]))
    agreeing = [c for lab, c in votes if lab == label]
    share = count / max(frames, 1)
    return label, float(min(1.0, max(0.0, share * float(np.mean(agreeing)))))
