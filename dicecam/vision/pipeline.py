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
``counted_dice.py``). ``PipelineConfig`` is how a reader is built, its defaults the
product's (small dice zoomed, every look on), and ``pipeline_from(config)`` the one factory
``dicecam serve``, ``dicecam read``, the benches and teaching use (``build_pipeline(dice_set,
**settings)`` for short; a taught table's configuration is ``teach.table.table_config``);
``iter_outputs(source, pipeline)`` runs an opened source through it, its frames checked
once (``frames.py``), and yields a ``PipelineOutput`` per frame for the web app.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from dicecam.calibration.profile import load_profile
from dicecam.calibration.tables import load_table_picture
from dicecam.calibration.zones import load_zone_map
from dicecam.reading import LOW_CONFIDENCE, DieReading, FrameReading, SettledRoll
from dicecam.vision.change import FULL_READ_SECONDS, ChangeMap
from dicecam.vision.colour.reader import WHITE_SAMPLE, ColourReader
from dicecam.vision.detect.counted_dice import FLOOR as MISSING_FLOOR
from dicecam.vision.detect.counted_dice import away_from_dice, surest_dice, without_surplus
from dicecam.vision.detect.detector import SAME_DIE_SHARE, Detections, DieDetector
from dicecam.vision.detect.empty_table import EmptyTable
from dicecam.vision.detect.side_faces import ASKED, SideFaceZone, ask_faces_below
from dicecam.vision.read.die_reader import DieReader, ValueReading, cut_crop
from dicecam.vision.read.rescaled_look import look_rescaled
from dicecam.vision.read.second_look import (
    CROWD_BOXES,
    CROWD_SECOND_LOOK_SCORE,
    SECOND_LOOK_SCORE,
    look_again,
)
from dicecam.vision.read.unsure_reread import UnsureReread
from dicecam.vision.read.wider_look import look_wider
from dicecam.vision.settle import MotionMeter, SettleConfig, SettleDetector
from dicecam.vision.sources.frames import CheckedFrames

log = logging.getLogger(__name__)

#: A box the detector is unsure of (score below this) is dropped when the value reader
#: also finds no readable die in it: two independent models agreeing it is not a die.
#: Above it the box stays even when unreadable: a cocked die the detector is sure of is
#: shown for a tap, not hidden. (0.8: on rendered tables with tokens, cards and cubes it
#: halved the false dice of 0.6 and lost no real one.)
VETO_BELOW_SCORE = 0.8
#: ...and the reader says "not a die" with at least this probability. A reader that has
#: learnt real boards and carpets as "not a die" also calls a new source's odd dice so,
#: unsurely. The stage-3 reader (trained with ``--warp``) with pxl left out, read on all of
#: pxl: 0.7 kept 81.8% of the dice (precision 86.6%), 0.6 79.0% (91.0%), 0.5 76.8%
#: (93.2%); dice found and read right 58.5% at each, dice read wrong unasked 0.7-0.8%. 0.6
#: keeps the recall the stage-2 reader had on pxl unseen at 0.7 (79.1%) and halves the false
#: dice on the held-out photos without dice of the shipped models (31 -> 19;
#: 2026-12-07-die-reader-notebook.md).
#: 0.5 since stage 5, which is tempered (softmax(logits / 1.5)): its "not a die" reads less
#: sure than stage 4's, and at 0.6 it vetoed fewer false boxes (damiantab, unseen: precision
#: 78.3 -> 72.6%); at 0.5 79.6%, pxl's precision 86.0 -> 87.3% and its recall 90.7 -> 90.1%.
VETO_SURE = 0.5
#: A large box that gave way to smaller boxes none of which reads as a die with a value
#: (``Detections.wholes``) is taken when its own read is at least this sure: damiantab's
#: 6 split in halves on a white table read 0.87 whole, two of its 3s 0.98 and two of pxl's
#: 5s 0.61-0.90; a go board's stones 0.35-0.37 (a price tag on webcam's desk 0.81: asked)
WHOLE_MIN_CONFIDENCE = 0.5
#: A die whose box side is under this share of another die's, with its centre inside that
#: die's box, is a pip or side face of that die (the detector's second box on an unseen
#: die), not a die: dice on a table do not lie on top of each other. Only a die read at
#: least as surely swallows it: a large unsure box over a synthetic cluster swallowed 3
#: real dice. On all of pxl it removed 18 of 338 false dice and no found die (held-out
#: precision 70.3 -> 72.2%); byler, webcam, the photos without dice and the synthetic
#: tables were unchanged (0.8 and 1.0 also cost pxl dice).
PART_OF_DIE_SHARE = 0.6
#: A box read unsure whose side is under this share of the median side of the dice read
#: surely in the same frame is no die: one table's dice are one size under one camera (a
#: tilted camera's far dice are still over half its near ones'), and such boxes are keys,
#: a laptop's keys and ports, a board's tokens, a knot in the wood, or the pips of a dark
#: die the detector took for dice (those are read again as one die: ``SPECK_REACH``).
#: Measured with the shipped models on every real source (unsure boxes under the share
#: dropped, false / found dice): 0.3 dropped 64 / 0 on webcam (precision 78.2 -> 82.6%),
#: 48 / 0 on damiantab (79.6 -> 94.8%), 24 / 16 on pxl (87.3 -> 88.6%; the 16 found dice
#: were pip boxes of dark dice, all asked), none on byler; 0.4 dropped 7 more false boxes
#: and 14 more of pxl's pip boxes.
SMALL_BOX_SHARE = 0.3
#: ...counted where at least this many dice of the frame are read surely: one is enough, a
#: die read surely is a die of the table's size. With 3 (until 2026-11-27), the webcam
#: captures' two or three dice beside a laptop left its keys' icons and a cable's tag to be
#: asked; at 1, ``bench real``: webcam false dice 188 -> 163 (precision 83.39 -> 85.28%),
#: pxl 149 -> 128, tilt:damiantab 5 -> 1, damiantab 2 -> 1, values up on pxl (85.44 ->
#: 85.66%); lost, one pxl die whose only box was one of its pips (11 px, read without a
#: value); every other row, ``bench crowd`` and ``bench teach`` the same.
SIZE_REFERENCE_DICE = 1
#: The smallest die the table reader reads: 12 px at 1080p (issue 33), a 160th of the
#: frame's long side. A box under it read unsure is dropped, not asked: the rendered
#: speckled carpets drew 6-7 px "dice" on 720p frames (19 -> 9 false dice on 10 frames);
#: on the real photos, ``bench reader``'s 13-19 px Dice Party dice and the crowds, no
#: figure moved (2026-11-27). One read sure is kept: the reader saw a die there.
MIN_DIE_SHARE = 12 / 1920
#: Where fewer are, more unsure boxes than this (the largest party, Dice Party's 60, and
#: half as many false boxes again) are a texture, all of them specks: a speckled carpet
#: drew 386 boxes on one rendered frame, none read surely. At 120 (twice the largest party,
#: the line the detector's auto-zoom draws, ``detect.py``) ``bench real``'s rendered
#: speckled carpets kept 112 false dice on 10 frames; at 90, 19, every other figure of
#: ``bench real``, ``bench reader`` and ``bench crowd`` the same (2026-11-27). A party
#: of 60 read with fewer than 3 dice sure is unreadable either way.
TEXTURE_BOXES = 90
#: ...where the dice read surely are fewer than this share of those boxes: a carpet's
#: flecks stay a texture beside the few of them read sure (one rendered speckled carpet drew
#: 398 boxes of 13 px, 3 of them read sure: until 2026-11-27 only a frame with fewer than 3
#: sure dice could be a texture, and all 398 were kept); a real party read surely is not
TEXTURE_SURE_SHARE = 0.1
#: Boxes under twice the smallest die read (``MIN_DIE_SHARE``) make a texture at fewer:
#: more than this many of them read unsure, with fewer dice read surely than the share
#: above, are a carpet's flecks (only they are dropped). Two rendered speckled carpets drew
#: 83 and 25 such boxes of 8-9 px on 720p frames, none read surely: ``bench real``'s
#: carpets 113 -> 5 false dice, every other row, ``bench crowd`` and ``bench reader`` the
#: same (2026-11-27). A table of 20 dice that small, all unsure, is unreadable from where
#: the camera is. The same bar for boxes of any size cost pxl 10 of its dice (25-60 px on
#: 640 px photos, a photo of many read unsure).
TINY_TEXTURE_BOXES = 20
#: A frame where the detector finds more boxes than this (three times the largest party,
#: Dice Party's 60) shows a texture: the speckled carpets and patterned cloths of ``bench
#: real``'s rendered tables drew 224-2,223 on 6 of 20 frames, while the real photos drew
#: 52 at most and ``bench reader``'s 60-die frames 65. There a die read surely in a box the
#: detector scored under ``VETO_BELOW_SCORE`` is asked: three pairs of white flecks on a
#: purple carpet were read "2" at 0.90-0.96 in boxes scored 0.39-0.47, among 489 boxes.
TEXTURE_DETECTIONS = 180
#: Small boxes (specks) all within this share of the sure dice's side of each other may be
#: the pips of one die the detector did not see whole: a pip pattern is symmetric about its
#: face's centre, so a die-sized box at their centre is read as a die (kept where the
#: reader finds a value there). A six's corner pips lie 0.76 of the face apart.
SPECK_REACH = 0.8
#: ...unless a die already found lies closer than this share of the side: dice do not
#: overlap, so the centres of two dice of one size lie a side apart at least
FOUND_DIE_REACH = 0.8
#: Two boxes on one die (``one_box_per_die``) that read different values: the surer one
#: stands, asked where the other's value was read at least this surely (twice the chance
#: of one class in seven). On pxl a 6 read at 0.98 beside a 2 read at 0.32 on a die
#: showing 2: from 0.5 it stayed sure (``bench real``'s sure mistakes 22, from 0.3 21).
DISSENT = 0.3
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
            parts = [d for d in dice if _within_whole(d.x, d.y, box)]
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


def parts_of_wholes(boxes: np.ndarray, wholes: Detections | None) -> np.ndarray:
    """bool (N,): which of ``boxes`` lie within ``SAME_DIE_SHARE`` of a whole die's side
    of its centre (the parts ``TablePipeline._whole_dice`` reads the whole for)."""
    if wholes is None or not len(wholes) or not len(boxes):
        return np.zeros(len(boxes), bool)
    return np.array([any(_within_whole(float(b[0]), float(b[1]), whole)
                         for whole in wholes.boxes) for b in boxes], bool)


def _within_whole(x: float, y: float, whole: np.ndarray) -> bool:
    """Whether a box centred at (x, y) is a part of the ``whole`` box (cx, cy, w, h): its
    centre within ``SAME_DIE_SHARE`` of the whole's side of the whole's centre."""
    return bool(np.hypot(x - whole[0], y - whole[1]) < SAME_DIE_SHARE * float(whole[2:4].max()))


def asked_where_doubtful(dice: list[DieReading], found: Detections) -> list[DieReading]:
    """``dice``, those read in ``found``'s doubtful boxes (found only by the detector's
    smaller passes) asked however surely they were read: a box the main pass scored under
    its bar is less well placed, and 2 of pxl's 28 such dice read wrong and sure."""
    if found.doubtful is None or not found.doubtful.any():
        return dice
    return _asked_in(dice, found.boxes[found.doubtful])


def _asked_in(dice: list[DieReading], boxes: np.ndarray) -> list[DieReading]:
    """``dice``, those read in one of ``boxes`` (by its centre) asked however surely they
    were read; a die a player corrected stays as it is."""
    centres = {(float(b[0]), float(b[1])) for b in boxes}
    return [_asked(d) if (d.x, d.y) in centres and not d.corrected else d for d in dice]


def _asked(die: DieReading) -> DieReading:
    """``die`` read however surely, now under the tablet's bar (``ASKED``)."""
    return replace(die, confidence=min(die.confidence, ASKED),
                   value_confidence=min(die.value_confidence, ASKED))


def asked_on_a_texture(dice: list[DieReading], found: Detections) -> list[DieReading]:
    """``dice``, those in ``found``'s boxes the detector scored under
    ``VETO_BELOW_SCORE`` asked however surely they were read, where ``found`` holds more
    boxes than ``TEXTURE_DETECTIONS``: on a texture the reader alone does not make a sure
    die."""
    if len(found) <= TEXTURE_DETECTIONS:
        return dice
    return _asked_in(dice, found.boxes[found.scores < VETO_BELOW_SCORE])


def one_box_per_die(dice: list[DieReading]) -> list[DieReading]:
    """``dice`` with one box a die: of two boxes whose centres lie closer than
    ``SAME_DIE_SHARE`` of the larger box's side (dice do not overlap) the surer reading
    stands for the die, asked where the other read another value at ``DISSENT`` or more.
    A die a player corrected is kept, and wins over a box it shares with one not corrected.

    The detector keeps one peak a die by the stronger box's size; a weak large box around
    a strong small one, or a box the later stages add (the second look, the rescaled look,
    a whole die), can still be a second box on a die. On pxl's photos 12 such pairs were
    all on one die (the boxes' nearest label the same), two of them read surely twice;
    every pair of two labelled dice lay at least half a side apart (2026-11-27; ``bench
    real``: pxl's false boxes 128 -> 117, sure mistakes 23 -> 21, webcam's false 165 ->
    164, every recall the same)."""
    if len(dice) < 2:
        return dice
    centres = np.array([(d.x, d.y) for d in dice])
    sides = np.array([max(d.w, d.h) for d in dice])
    gap = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    same = gap < SAME_DIE_SHARE * np.maximum(sides[:, None], sides[None, :])
    np.fill_diagonal(same, False)
    if not same.any():
        return dice
    # the surest first (a corrected die before any other); each box the surer of its die's
    # boxes takes the others with it
    order = sorted(range(len(dice)), key=lambda i: (not dice[i].corrected, -dice[i].confidence))
    kept: dict[int, DieReading] = {}
    gone: set[int] = set()
    for i in order:
        if i in gone:
            continue
        die = dice[i]
        for j in np.flatnonzero(same[i]):
            other = dice[j]
            if j in gone or j in kept or (other.corrected and die.corrected):
                continue
            gone.add(int(j))
            if (other.value != die.value and other.value is not None
                    and other.value_confidence >= DISSENT and not die.corrected):
                die = _asked(die)
        kept[i] = die
    return [kept[i] for i in range(len(dice)) if i in kept]


def without_too_small_to_read(dice: list[DieReading], long_side: int) -> list[DieReading]:
    """``dice`` less the boxes read unsure that are smaller than the smallest die the
    table reader reads (``MIN_DIE_SHARE`` of the frame's long side); a die a player
    corrected stays."""
    smallest = MIN_DIE_SHARE * long_side
    return [d for d in dice if d.corrected or max(d.w, d.h) >= smallest
            or (d.value is not None and d.confidence >= LOW_CONFIDENCE)]


def without_parts_of_larger_dice(dice: list[DieReading]) -> list[DieReading]:
    """``dice`` less those that are a part of a larger die read at least as surely
    (``PART_OF_DIE_SHARE``)."""
    if len(dice) < 2:
        return dice
    centres = np.array([(d.x, d.y) for d in dice])
    halves = np.array([(d.w / 2, d.h / 2) for d in dice])
    sides = np.array([max(d.w, d.h) for d in dice])
    sure = np.array([d.confidence for d in dice])
    # inside[i, j]: die i's centre lies in die j's box, i is much the smaller and j is read
    # at least as surely (a large unsure box over a cluster of dice swallows none of them)
    inside = ((np.abs(centres[:, None, :] - centres[None, :, :]) < halves[None, :, :]).all(axis=2)
              & (sides[:, None] < PART_OF_DIE_SHARE * sides[None, :])
              & (sure[None, :] >= sure[:, None]))
    return [d for d, part in zip(dice, inside.any(axis=1), strict=True) if not part]


def split_specks(dice: list[DieReading], long_side: float = 0.0
                 ) -> tuple[list[DieReading], list[DieReading], float | None]:
    """(``dice`` less the specks, the specks, the sure dice's median side): specks are dice
    read unsure and far smaller than the dice read surely beside them
    (``SMALL_BOX_SHARE``), or every die read unsure where the boxes are a texture
    (``TEXTURE_BOXES``), or every tiny one where the tiny ones are (``TINY_TEXTURE_BOXES``,
    tiny by the frame's ``long_side``); a die a player corrected is never one. The side is
    None where no die is read surely, or the boxes are a texture (no speck is then read
    again as a die)."""
    sure = [max(d.w, d.h) for d in dice
            if d.value is not None and d.value_confidence >= LOW_CONFIDENCE]
    side = float(np.median(sure)) if len(sure) >= SIZE_REFERENCE_DICE else None
    unsure = len(dice) - len(sure)
    tiny = 2 * MIN_DIE_SHARE * long_side
    tiny_unsure = sum(1 for d in dice if max(d.w, d.h) < tiny and not d.corrected
                      and (d.value is None or d.value_confidence < LOW_CONFIDENCE))
    if unsure > TEXTURE_BOXES and len(sure) < TEXTURE_SURE_SHARE * unsure:
        side, smallest = None, np.inf  # a texture: no speck is read again as a die
    elif tiny_unsure > TINY_TEXTURE_BOXES and len(sure) < TEXTURE_SURE_SHARE * tiny_unsure:
        # a texture of tiny flecks, none read again as a die; the size rule still holds
        smallest = tiny if side is None else max(tiny, SMALL_BOX_SHARE * side)
        side = None
    elif side is None:
        return dice, [], None
    else:
        smallest = SMALL_BOX_SHARE * side
    kept, specks = [], []
    for d in dice:
        speck = (not d.corrected and max(d.w, d.h) < smallest
                 and (d.value is None or d.value_confidence < LOW_CONFIDENCE))
        (specks if speck else kept).append(d)
    return kept, specks, side


def dice_boxes_from_specks(specks: Sequence[DieReading], side: float,
                           dice: Sequence[DieReading],
                           vetoed: Sequence[DieReading] = ()) -> Detections:
    """Die-sized boxes (``side`` square), one at the centre of each group of specks within
    ``SPECK_REACH`` of each other, where no die of ``dice`` already lies
    (``FOUND_DIE_REACH``), scored 0 (the detector never saw them whole). ``vetoed``: small
    boxes the reader surely found no die in, which join the groups as pips; a box whose
    group needs one is doubtful (``Detections.doubtful``: asked however surely read)."""
    groups: list[list[tuple[DieReading, bool]]] = []
    reach = SPECK_REACH * side
    ordered = [(d, False) for d in sorted(specks, key=lambda d: -d.confidence)]
    for speck, was_vetoed in [*ordered, *((d, True) for d in vetoed)]:
        for group in groups:
            if all(np.hypot(speck.x - o.x, speck.y - o.y) <= reach for o, _ in group):
                group.append((speck, was_vetoed))
                break
        else:
            groups.append([(speck, was_vetoed)])
    boxes, doubtful = [], []
    for group in groups:
        cx = float(np.mean([d.x for d, _ in group]))
        cy = float(np.mean([d.y for d, _ in group]))
        if not any(np.hypot(cx - d.x, cy - d.y) < FOUND_DIE_REACH * side for d in dice):
            boxes.append((cx, cy, side, side))
            doubtful.append(any(v for _, v in group))
    return Detections(np.array(boxes, np.float32).reshape(-1, 4),
                      np.zeros(len(boxes), np.float32), doubtful=np.array(doubtful, bool))


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


@dataclass(frozen=True)
class PipelineConfig:
    """How a table reader is built. The defaults are the product's: ``dicecam serve``,
    ``dicecam read``, the benches and teaching all build from one of these
    (``pipeline_from``), so the live view reads a table as the benches measure it.

    ``dice_set``: its colour profile (None: no colours); ``zones``: a built-in zone map or a
    JSON file (None: one zone); ``empty_table``: a picture of the table without dice
    (``calibrate table``); ``detector_path``/``reader_path``: other models (None: the
    shipped ones); ``taught_reader_path``: a taught table's own reader, which reads again
    the crops the reader is unsure of (``unsure_reread``); ``coarse_detector_path``: the
    detector of the coarse pass (None: the detector's own); ``side_faces``: where a taught
    table's camera shows side faces."""

    dice_set: str | None = None
    zones: str | Path | None = None
    detector_path: str | Path | None = None
    reader_path: str | Path | None = None
    taught_reader_path: str | Path | None = None
    coarse_detector_path: str | Path | None = None
    threads: int | None = None
    settle: SettleConfig | None = None
    #: small dice (a phone photo of a whole table) read again at a larger scale
    auto_zoom: bool = True
    empty_table: str | Path | None = None
    side_faces: SideFaceZone | None = None
    second_look: bool = True
    wider_look: bool = True
    rescaled_look: bool = True


def make_detector(config: PipelineConfig) -> DieDetector:
    """The detector ``config`` names (also what a running pipeline swaps in)."""
    return DieDetector(config.detector_path, threads=config.threads,
                       auto_zoom=config.auto_zoom,
                       coarse_model_path=config.coarse_detector_path)


def make_reader(config: PipelineConfig) -> DieReader | UnsureReread:
    """The die reader ``config`` names (at a taught table, the shipped one and the table's
    where the shipped one is unsure)."""
    reader = _make_reader(DieReader, config.reader_path, config.threads)
    if config.taught_reader_path is None:
        return reader
    return UnsureReread(reader, _make_reader(DieReader, config.taught_reader_path,
                                             config.threads))


def pipeline_from(config: PipelineConfig) -> TablePipeline:
    """The table reader ``config`` describes; the pipeline keeps it (``.config``)."""
    read_colours = None
    if config.dice_set is not None:
        read_colours = ColourReader(load_profile(config.dice_set)).read_scores
    zone_of = None
    if config.zones is not None:
        zone_of = load_zone_map(config.zones).zone_of
    table = None
    if config.empty_table is not None:
        table = EmptyTable.from_frame(load_table_picture(config.empty_table))
    pipeline = TablePipeline(make_detector(config), make_reader(config).read, read_colours,
                             zone_of, crop=cut_crop, settle=config.settle, empty_table=table,
                             second_look=config.second_look, wider_look=config.wider_look,
                             rescaled_look=config.rescaled_look,
                             side_faces=config.side_faces)
    pipeline.config = config
    return pipeline


def build_pipeline(dice_set: str | None, **settings: Any) -> TablePipeline:
    """The pipeline with the product's settings for ``dice_set``, ``settings`` (the fields
    of ``PipelineConfig``) overriding them."""
    return pipeline_from(PipelineConfig(dice_set, **settings))


def _make_reader(reader_cls: Any, path: str | Path | None, threads: int | None) -> Any:
    return reader_cls(path) if threads is None else reader_cls(path, threads=threads)


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
