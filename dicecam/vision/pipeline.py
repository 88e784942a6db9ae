"""The table reader: frame -> detect -> crop -> value + colour (one batch each) -> zone -> settle.

Every stage is a plain callable handed to ``TablePipeline``, so tests and tools can swap
any of them (a fake value reader in a test, a different detector in a benchmark):

- ``detect(frame_bgr) -> Detections`` (``dicecam.vision.detect.detector.DieDetector``);
- ``read_values(crops) -> [ValueReading(value, confidence)]`` (``DieReader.read``);
- ``read_colours(crops) -> [(colour or None, confidence[, scores])]``
  (``ColourReader.read_scores``; ``ColourReader.read`` without the scores), optional;
- ``zone_of(x, y) -> str | None`` (``ZoneMap.zone_of``), optional: without zones the whole
  frame is one zone and ``zone`` stays None;
- ``crop(frame, cx, cy, w, h) -> crop`` (``die_reader.cut_crop``).

A large box the detector's smaller passes found surer than the main pass's boxes on the
same die, which gave way to them (``Detections.wholes``), is read where none of those boxes
reads as a die with a value: a die the main pass split in halves (``_whole_dice``). A die
read in a box only the smaller passes found (``Detections.doubtful``) is asked
(``asked_where_doubtful``), as is one read surely in a box the detector was unsure of on a
frame it found a texture's hundreds of boxes on (``asked_on_a_texture``).

Where a game says how many dice it waits to see thrown (``expected_dice``, or
``read_frame(expected=N)``), a settled roll is fitted to that count (``fit_count``,
``counted_dice.py``). The rules over one frame's dice it applies in turn are in
``dice_filters.py``; how a reader is built, with the product's defaults, is
``config.PipelineConfig``, built by ``factory.pipeline_from``. ``iter_outputs(source,
pipeline)`` runs an opened source through it, its frames checked once (``frames.py``), and
yields a ``PipelineOutput`` per frame for the web app.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

import cv2
import numpy as np

from dicecam.reading import DieReading, FrameReading, SettledRoll
from dicecam.vision.change import FULL_READ_SECONDS, ChangeMap
from dicecam.vision.colour.reader import WHITE_SAMPLE
from dicecam.vision.config import PipelineConfig
from dicecam.vision.detect.counted_dice import FLOOR as MISSING_FLOOR
from dicecam.vision.detect.counted_dice import away_from_dice, surest_dice, without_surplus
from dicecam.vision.detect.detector import Detections
from dicecam.vision.detect.empty_table import EmptyTable
from dicecam.vision.detect.side_faces import SideFaceZone, ask_faces_below
from dicecam.vision.dice_filters import (
    SMALL_BOX_SHARE,
    VETO_BELOW_SCORE,
    asked_on_a_texture,
    asked_where_doubtful,
    dice_boxes_from_specks,
    one_box_per_die,
    parts_of_wholes,
    split_specks,
    within_whole,
    without_parts_of_larger_dice,
    without_too_small_to_read,
)
from dicecam.vision.read.die_reader import ValueReading, cut_crop
from dicecam.vision.read.rescaled_look import look_rescaled
from dicecam.vision.read.second_look import (
    CROWD_BOXES,
    CROWD_SECOND_LOOK_SCORE,
    SECOND_LOOK_SCORE,
    look_again,
)
from dicecam.vision.read.wider_look import look_wider
from dicecam.vision.settle import MotionMeter, SettleConfig, SettleDetector
from dicecam.vision.sources.frames import CheckedFrames

log = logging.getLogger(__name__)

#: ...and the reader says "not a die" with at least this probability, for a box the
#: detector scored under ``VETO_BELOW_SCORE`` to be dropped. Low, because the reader is
#: tempered (softmax(logits / 1.5)) and calls a new source's odd dice "not a die" unsurely.
VETO_SURE = 0.5
#: A large box that gave way to smaller boxes none of which reads as a die with a value
#: (``Detections.wholes``) is taken when its own read is at least this sure (a die split in
#: halves reads whole at 0.6-0.98; a go board's stones 0.35).
WHOLE_MIN_CONFIDENCE = 0.5
#: A detection is the same die as one of the last reading when their centres are within
#: this share of the die's size (and nothing changed there).
SAME_PLACE = 0.25
#: How often a still table is looked at (frames per second) until its picture changes.
STILL_FPS = 4.0
#: How many dice the colour stage sees when only some dice are read again: the others'
#: crops join the batch so the table light it estimates is the whole table's.
WHITE_COMPANY = WHITE_SAMPLE



class ValueReadingLike(Protocol):
    value: int | None
    confidence: float


DetectFn = Callable[[np.ndarray], Detections]
ValueFn = Callable[[Sequence[np.ndarray]], Sequence[ValueReadingLike]]
#: crops -> (colour, confidence) or (colour, confidence, scores) per crop
ColourFn = Callable[[Sequence[np.ndarray]], Sequence[tuple[Any, ...]]]
ZoneFn = Callable[[float, float], str | None]
CropFn = Callable[[np.ndarray, float, float, float, float], np.ndarray]


@dataclass(frozen=True)
class PipelineOutput:
    """One frame through the pipeline: the frame itself, its reading, and the settled roll
    published on this frame (None on all other frames). ``changed`` is False when the
    picture did not change since the dice were last read (the reading was kept)."""

    frame_bgr: np.ndarray
    reading: FrameReading
    settled: SettledRoll | None = None
    changed: bool = True


def square_crop(frame: np.ndarray, cx: float, cy: float, w: float, h: float) -> np.ndarray:
    """A square crop around a box with a 25% margin, edge pixels repeated past the border.

    For stages under test with a stand-in reader; the real die reader must be fed crops cut
    the way it was trained on (``cut_crop``, the default).
    """
    side = max(4, int(round(max(w, h) * 1.25)))
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    fh, fw = frame.shape[:2]
    pad = max(0, -x0, -y0, x0 + side - fw, y0 + side - fh)
    if pad:
        frame = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        x0, y0 = x0 + pad, y0 + pad
    return frame[y0:y0 + side, x0:x0 + side]


class TablePipeline:
    """Reads frames; holds the motion and settle state of one camera (one per source)."""

    def __init__(
        self,
        detect: DetectFn,
        read_values: ValueFn,
        read_colours: ColourFn | None = None,
        zone_of: ZoneFn | None = None,
        *,
        crop: CropFn | None = None,
        settle: SettleConfig | None = None,
        motion: MotionMeter | None = None,
        veto_below_score: float = VETO_BELOW_SCORE,
        empty_table: EmptyTable | None = None,
        second_look: bool = False,
        wider_look: bool = False,
        rescaled_look: bool = False,
        side_faces: SideFaceZone | None = None,
    ) -> None:
        self.detect = detect
        #: the table without dice (``calibrate table``): a box that still looks like it is
        #: dropped before it is read
        self.empty_table = empty_table
        self._warned_table_size = False
        self.read_values = read_values
        self.read_colours = read_colours
        self.zone_of = zone_of
        self.crop = crop or cut_crop
        self.settle = SettleDetector(settle)
        self.motion = motion or MotionMeter()
        self.veto_below_score = veto_below_score
        #: read a die read unsure in a crowd again from crops without the dice beside it
        #: (``second_look.py``: it confirms a value, or reads one where the first look
        #: found none)
        self.second_look = second_look
        #: read a large die read unsure again from wider crops (``wider_look.py``: the
        #: detector's box on a die larger than it learnt is often part of the die)
        self.wider_look = wider_look
        #: read a die still unsure again from a tighter and a looser box, for a better
        #: value to propose (``rescaled_look.py``: it never makes a die sure)
        self.rescaled_look = rescaled_look
        #: where this table's camera shows dice's side faces (``side_faces.py``, learnt by
        #: a taught table): boxes read unsure there beside a sure die are dropped
        self.side_faces = side_faces
        #: how ``pipeline_from`` built it (None: put together by hand, as tests do)
        self.config: PipelineConfig | None = None
        #: how many dice the game now waits to see thrown (None: it does not say); a
        #: settled roll is fitted to it (``fit_count``)
        self.expected_dice: Callable[[], int | None] | None = None
        self.changes = ChangeMap()
        #: how frames were read: "full", "changed" (only where the picture changed), "kept"
        #: (nothing changed: the last reading kept), and "dice_read" (crops read)
        self.counts: Counter[str] = Counter()
        #: seconds spent in each stage since the last reset of this counter ("detect",
        #: "crops", "values", "colours", "rest"): ``dicecam bench reader`` prints them
        self.stage_seconds: Counter[str] = Counter()
        self._last: FrameReading | None = None
        self._last_full = 0.0
        self._frame_index = 0

    def read_frame(
        self, frame_bgr: np.ndarray, *, frame_index: int = 0, timestamp: float = 0.0,
        moving: bool = False, expected: int | None = None,
    ) -> FrameReading:
        """One frame's reading, without motion or settle state (what ``dicecam read`` uses).
        ``expected``: how many dice the frame shows, where a game knows (``fit_count``)."""
        started = time.perf_counter()
        found = self._detect(frame_bgr)
        self.stage_seconds["detect"] += time.perf_counter() - started
        dice = self._read_dice(frame_bgr, found.boxes, found.scores, [None] * len(found),
                               wholes=found.wholes)
        dice = self._as_detected(frame_bgr, dice, found)
        if expected is not None:
            dice = list(self.fit_count(frame_bgr, dice, expected))
        return self._frame_reading(frame_bgr, dice, found.hand_in_view, frame_index,
                                   timestamp, moving)

    def fit_count(self, frame_bgr: np.ndarray, dice: Sequence[DieReading],
                  expected: int) -> tuple[DieReading, ...]:
        """``dice`` fitted to the ``expected`` count a game gives (``counted_dice.py``):
        fewer, the missing ones looked for (``find_missing``); exactly as many read sure,
        the boxes read unsure dropped (``without_surplus``)."""
        if len(dice) < expected:
            return self.find_missing(frame_bgr, dice, expected)
        return tuple(without_surplus(dice, expected))

    def find_missing(self, frame_bgr: np.ndarray, dice: Sequence[DieReading],
                     expected: int) -> tuple[DieReading, ...]:
        """``dice`` and, where they are fewer than ``expected``, as many more as are
        missing from the detector's weaker peaks (``counted_dice.py``): those away from
        every die of ``dice`` read as a die, surest first. Only a detector that takes a
        bar per call (``DieDetector.detect``) has weaker peaks to give."""
        missing = expected - len(dice)
        if missing <= 0 or not hasattr(self.detect, "detect"):
            return tuple(dice)
        candidates = away_from_dice(self._detect(frame_bgr, MISSING_FLOOR), dice)
        if not len(candidates):
            return tuple(dice)
        # the dice already read are the candidates' neighbours (the second look paints
        # them out), read as they were; their boxes count as sure ones
        boxes = np.concatenate([np.array([(d.x, d.y, d.w, d.h) for d in dice], np.float32)
                                .reshape(-1, 4), candidates.boxes])
        scores = np.concatenate([np.ones(len(dice), np.float32), candidates.scores])
        known: list[DieReading | None] = [*dice, *([None] * len(candidates))]
        read = asked_where_doubtful(self._read_dice(frame_bgr, boxes, scores, known,
                                                    regrow=False), candidates)
        at = {(float(b[0]), float(b[1])) for b in candidates.boxes}
        return (*dice, *surest_dice([d for d in read if (d.x, d.y) in at], missing))

    def _detect(self, frame_bgr: np.ndarray, threshold: float | None = None) -> Detections:
        """The detector's boxes, less those where the frame still shows the empty table
        (``threshold``: a peak bar for this call, for a detector that takes one)."""
        found = self.detect(frame_bgr) if threshold is None \
            else self.detect.detect(frame_bgr, threshold=threshold)  # type: ignore[attr-defined]
        if self.empty_table is None or len(found) == 0:
            return found
        if not self.empty_table.fits(frame_bgr):
            if not self._warned_table_size:  # say it once, not every frame
                self._warned_table_size = True
                log.warning("the empty table's picture is %dx%d, the frames %dx%d: it is not "
                            "used (take it again with dicecam calibrate table)",
                            self.empty_table.width, self.empty_table.height,
                            frame_bgr.shape[1], frame_bgr.shape[0])
            return found
        kept = found.keep(~self.empty_table.matches(frame_bgr, found.boxes))
        wholes = found.wholes
        if wholes is None or len(wholes) == 0:
            return kept
        return replace(kept, wholes=wholes.keep(~self.empty_table.matches(frame_bgr,
                                                                           wholes.boxes)))

    def _as_detected(self, frame_bgr: np.ndarray, dice: list[DieReading],
                     found: Detections) -> list[DieReading]:
        """The dice read in ``found``'s boxes, with what the detector said of them beside
        the boxes: its whole dice read where their parts read no value, its doubtful boxes
        asked, and on a texture those it was unsure of."""
        dice = self._whole_dice(frame_bgr, dice, found.wholes)
        if self.rescaled_look:
            dice = self._parts_rescaled(frame_bgr, dice, found)
        dice = one_box_per_die(dice)
        dice = asked_where_doubtful(dice, found)
        return asked_on_a_texture(dice, found)

    def _parts_rescaled(self, frame_bgr: np.ndarray, dice: list[DieReading],
                        found: Detections) -> list[DieReading]:
        """``dice``, the parts of the detector's whole dice still unsure after
        ``_whole_dice`` (their whole read no surer) given the rescaled look the frame's
        other dice got in ``_read_dice`` (``rescaled_look.py``)."""
        if found.wholes is None or not len(found.wholes) or not dice:
            return dice
        boxes = np.array([(d.x, d.y, d.w, d.h) for d in dice], np.float32)
        parts = parts_of_wholes(boxes, found.wholes)
        first = {n: ValueReading(d.value, d.value_confidence)
                 for n, d in enumerate(dice) if parts[n] and not d.corrected}
        better = look_rescaled(frame_bgr, boxes, first, self.read_values, self.crop,
                               frame_boxes=len(found))
        dice = list(dice)
        for n, reading in better.items():
            d = dice[n]
            confidence = (min(reading.confidence, d.colour_confidence)
                          if self.read_colours is not None else reading.confidence)
            dice[n] = replace(d, value=reading.value, value_confidence=reading.confidence,
                              confidence=confidence)
        return dice

    def _whole_dice(self, frame_bgr: np.ndarray, dice: list[DieReading],
                    wholes: Detections | None) -> list[DieReading]:
        """``dice`` with each of the detector's ``wholes`` (a large box that gave way to
        smaller, less sure boxes) read where no die near its centre was read with a value:
        a die the main pass split in halves, each vetoed or unreadable. Read with a value
        at least ``WHOLE_MIN_CONFIDENCE`` sure, it replaces the boxes read there; otherwise
        nothing changes."""
        if wholes is None or len(wholes) == 0:
            return dice
        for box, score in zip(wholes.boxes, wholes.scores, strict=True):
            parts = [d for d in dice if within_whole(d.x, d.y, box)]
            if any(d.value is not None for d in parts):
                continue
            whole = self._read_dice(frame_bgr, box[None], score[None], [None], regrow=False)
            if whole and whole[0].value is not None \
                    and whole[0].confidence >= WHOLE_MIN_CONFIDENCE:
                dice = [d for d in dice if not any(d is p for p in parts)] + whole
        return dice

    def _frame_reading(self, frame_bgr: np.ndarray, dice: list[DieReading], hand: bool,
                       frame_index: int, timestamp: float, moving: bool) -> FrameReading:
        height, width = frame_bgr.shape[:2]
        dice.sort(key=lambda d: (d.y, d.x))
        return FrameReading(
            width=width, height=height, dice=tuple(dice), moving=moving or hand,
            hand_in_view=hand, frame_index=frame_index, timestamp=timestamp,
        )

    def _read_dice(self, frame_bgr: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                   known: Sequence[DieReading | None], *,
                   regrow: bool = True, wholes: Detections | None = None
                   ) -> list[DieReading]:
        """Each detected die read from its crop, except those ``known`` gives (a die that
        did not move keeps its reading). The colour batch also holds a sample of the known
        dice, so that the table light it estimates stays the light of the whole table.
        Boxes far smaller than the dice read surely are dropped; where a few of them lie
        together they are read again as one die (``regrow``: not for the dice so found, nor
        for a whole die or a missing one, which are kept only where read with a value; nor
        do such dice get the rescaled look, nor the parts of ``wholes``: where they read
        no value the whole die is read, ``_whole_dice``)."""
        todo = [i for i, k in enumerate(known) if k is None]
        dice: list[DieReading | None] = list(known)
        if not todo:
            return [d for d in dice if d is not None]
        clock = time.perf_counter()
        crops = {i: self.crop(frame_bgr, *(float(t) for t in boxes[i])) for i in todo}
        clock = self._lap("crops", clock)
        values = list(self.read_values([crops[i] for i in todo]))
        clock = self._lap("values", clock)
        if len(values) != len(todo):
            raise ValueError(f"value reader returned {len(values)} readings for "
                             f"{len(todo)} crops")
        value_of = dict(zip(todo, values, strict=True))
        kept = [i for i in todo
                if not (value_of[i].value is None and float(scores[i]) < self.veto_below_score
                        and value_of[i].confidence >= VETO_SURE)]
        if self.second_look and kept:
            self._look_again(frame_bgr, boxes, scores, todo, kept, value_of)
            clock = self._lap("values", clock)
        if self.wider_look and kept:
            value_of.update(look_wider(frame_bgr, boxes, {i: value_of[i] for i in kept},
                                       self.read_values))
            clock = self._lap("values", clock)
        if self.rescaled_look and kept and regrow:
            # only the frame's own boxes: where a die is kept only if read with a value (a
            # group of specks, a whole die, a missing one) the first look decides
            parts = parts_of_wholes(boxes, wholes)
            value_of.update(look_rescaled(frame_bgr, boxes,
                                          {i: value_of[i] for i in kept if not parts[i]},
                                          self.read_values, self.crop,
                                          frame_boxes=len(boxes)))
            clock = self._lap("values", clock)
        colours: Sequence[tuple[Any, ...]]
        if self.read_colours is not None and kept:
            company = _light_company(known, len(kept))
            for i in company:
                b = boxes[i]
                crops[i] = self.crop(frame_bgr, float(b[0]), float(b[1]), float(b[2]),
                                     float(b[3]))
            colours = list(self.read_colours([crops[i] for i in kept + company]))[:len(kept)]
        else:
            colours = [(None, 1.0)] * len(kept)
        clock = self._lap("colours", clock)
        for i in todo:
            dice[i] = None
        for i, (colour, colour_conf, *scores_of) in zip(kept, colours, strict=True):
            cx, cy, w, h = (float(t) for t in boxes[i])
            value_conf = _unit(value_of[i].confidence)
            colour_conf = _unit(colour_conf)
            confidence = min(value_conf, colour_conf) if self.read_colours else value_conf
            dice[i] = DieReading(
                x=cx, y=cy, w=max(w, 1e-3), h=max(h, 1e-3),
                value=value_of[i].value, colour=colour, confidence=confidence,
                zone=self.zone_of(cx, cy) if self.zone_of is not None else None,
                value_confidence=value_conf, colour_confidence=colour_conf,
                colour_scores=tuple(scores_of[0]) if scores_of else (),
            )
        read = without_too_small_to_read([d for d in dice if d is not None],
                                         max(frame_bgr.shape[:2]))
        read = without_parts_of_larger_dice(read)
        if self.side_faces is not None:
            read = self.side_faces.drop(read)
        read = ask_faces_below(read)
        found, specks, side = split_specks(read, max(frame_bgr.shape[:2]))
        self._lap("rest", clock)
        if regrow and side is not None:
            vetoed = [DieReading(x=float(b[0]), y=float(b[1]), w=float(b[2]), h=float(b[3]),
                                 value=None, colour=None, confidence=0.0)
                      for b in boxes[sorted(set(todo) - set(kept))]
                      if max(float(b[2]), float(b[3])) < SMALL_BOX_SHARE * side]
            grown = dice_boxes_from_specks(specks, side, found, vetoed)
            if len(grown):
                # read with no detector score: the detector never saw these dice whole
                regrown = self._read_dice(frame_bgr, grown.boxes, grown.scores,
                                          [None] * len(grown), regrow=False)
                found += asked_where_doubtful([d for d in regrown if d.value is not None],
                                              grown)
        return found

    def _look_again(self, frame_bgr: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                    todo: list[int], kept: list[int], value_of: dict[int, Any]) -> None:
        """The second look's readings of the dice of ``kept`` read unsure in boxes the
        detector is fairly sure of; the dice beside them are every box but those vetoed."""
        vetoed = set(todo) - set(kept)
        dice = [i for i in range(len(boxes)) if i not in vetoed]
        at = {i: n for n, i in enumerate(dice)}
        bar = CROWD_SECOND_LOOK_SCORE if len(boxes) > CROWD_BOXES else SECOND_LOOK_SCORE
        first = {at[i]: value_of[i] for i in kept if float(scores[i]) >= bar}
        for n, reading in look_again(frame_bgr, boxes[dice], first,
                                     self.read_values).items():
            value_of[dice[n]] = reading

    def _lap(self, stage: str, since: float) -> float:
        now = time.perf_counter()
        self.stage_seconds[stage] += now - since
        return now

    def process(self, frame_bgr: np.ndarray, timestamp: float | None = None) -> PipelineOutput:
        """Read one frame of a sequence and update the settle state.

        Only what changed is read again (``dicecam.vision.change``): a frame that matches
        the last read one keeps its reading; where the picture changed, the dice are
        detected again and those that lie where nothing changed keep their readings.
        """
        index = self._frame_index
        self._frame_index += 1
        stamp = time.monotonic() if timestamp is None else timestamp
        moving = self.motion.update(frame_bgr)
        grey = self.changes.small(frame_bgr)
        changed = self.changes.compare(grey)
        last = self._last
        fresh = last is None or changed is None or stamp - self._last_full >= FULL_READ_SECONDS \
            or stamp < self._last_full
        if not fresh and not changed:
            assert last is not None
            reading = replace(last, frame_index=index, timestamp=stamp,
                              moving=moving or last.hand_in_view)
            self.counts["kept"] += 1
        else:
            found = self._detect(frame_bgr)
            known: list[DieReading | None] = [None] * len(found)
            if not fresh and last is not None:
                known = self._unmoved(frame_bgr, found.boxes, last)
            self.counts["full" if fresh else "changed"] += 1
            self.counts["dice_read"] += sum(k is None for k in known)
            dice = self._read_dice(frame_bgr, found.boxes, found.scores, known,
                                   wholes=found.wholes)
            dice = self._as_detected(frame_bgr, dice, found)
            reading = self._frame_reading(frame_bgr, dice, found.hand_in_view, index, stamp,
                                          moving)
            self.changes.mark_read(grey)
            if fresh:
                self._last_full = stamp
        self._last = reading
        settled = self.settle.update(reading)
        if settled is not None and self.expected_dice is not None:
            # the roll settles on this frame: fitted to the game's count on it
            expected = self._dice_expected()
            if expected is not None:
                settled = replace(settled, dice=self.fit_count(frame_bgr, settled.dice,
                                                               expected))
        return PipelineOutput(frame_bgr, reading, settled, changed=fresh or bool(changed))

    def _dice_expected(self) -> int | None:
        """What ``expected_dice`` answers; None when it fails (the game's count is a help
        to the reading, never a reason to stop it)."""
        try:
            return None if self.expected_dice is None else self.expected_dice()
        except Exception:
            log.exception("the count of dice expected could not be had; reading without it")
            return None

    def _unmoved(self, frame_bgr: np.ndarray, boxes: np.ndarray, last: FrameReading
                 ) -> list[DieReading | None]:
        """For each detected box, the last reading of the die there if neither the die
        nor the picture around it changed; None where it must be read."""
        height, width = frame_bgr.shape[:2]
        out: list[DieReading | None] = []
        for b in boxes:
            cx, cy, w, h = (float(t) for t in b)
            if self.changes.changed_at(cx, cy, width, height):
                out.append(None)
                continue
            size = max(w, h)
            same = [d for d in last.dice
                    if abs(d.x - cx) <= SAME_PLACE * size and abs(d.y - cy) <= SAME_PLACE * size]
            out.append(same[0] if len(same) == 1 else None)
        return out

    def reset(self) -> None:
        """Forget motion, change and settle state (a new source, a new game)."""
        self.motion.reset()
        self.settle.reset()
        self.changes.reset()
        self._last = None
        self._frame_index = 0

def _light_company(known: Sequence[DieReading | None], reading: int) -> list[int]:
    """Indices of known dice to read the colour of beside the dice being read, so the
    batch that estimates the table's light holds a spread of the table's dice."""
    have = [i for i, k in enumerate(known) if k is not None]
    want = max(0, WHITE_COMPANY - reading)
    if not have or not want:
        return []
    pick = np.linspace(0, len(have) - 1, min(want, len(have))).round().astype(int)
    return [have[int(p)] for p in dict.fromkeys(pick.tolist())]


def _unit(value: Any) -> float:
    number = float(value)
    return 0.0 if not np.isfinite(number) else min(1.0, max(0.0, number))



def iter_outputs(
    source: Iterable[Any],
    pipeline: TablePipeline,
    *,
    realtime: bool = False,
    max_frames: int | None = None,
    on_bad_frame: Callable[[str], None] | None = None,
) -> Iterator[PipelineOutput]:
    """Run an opened source through the pipeline, one PipelineOutput per usable frame.

    ``source`` is an open FrameSource (``source_spec.open_source``) or any iterable of
    frames; its caller opens and closes it. Each frame is checked here, once
    (``frames.CheckedFrames``: grey and BGRA converted, unusable ones dropped and named to
    ``on_bad_frame``, ``CameraFault`` after a run of them). Timestamps come from the wall
    clock for live sources and from the source's nominal frame rate otherwise, so a video
    file settles the same way however fast it is read. ``realtime`` paces recorded sources
    at their frame rate (the demo in the web app); then, and for live sources, a still
    table is looked at only ``STILL_FPS`` times a second (the frames between are passed
    over) until its picture changes: a table that stays still for hours costs almost
    nothing.
    """
    fps = float(getattr(source, "fps", 30.0) or 30.0)
    live = bool(getattr(source, "live", False))
    frames = CheckedFrames(source, on_bad=on_bad_frame)
    started = time.monotonic()
    still_since: float | None = None  # when the table was last looked at while still
    for index, frame in enumerate(frames):
        if max_frames is not None and index >= max_frames:
            break
        stamp = time.monotonic() - started if live else index / fps
        if realtime and not live:
            delay = started + index / fps - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        if (realtime or live) and still_since is not None \
                and stamp - still_since < 1.0 / STILL_FPS:
            continue  # the table is still: this frame is passed over
        output = pipeline.process(frame, timestamp=stamp)
        # looked at less often only once the roll on it was published: a settle is
        # never later than with every frame read
        still = not output.changed and not pipeline.settle.waiting
        still_since = stamp if still else None
        yield output
