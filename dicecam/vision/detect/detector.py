"""Die detection: find the top face of every die in a frame with a tiny ONNX CenterNet.

The frame is shrunk so its long side is ``input_long_side`` pixels (640 by default, so a
1080p frame is read at a third of its size), padded to a multiple of 16, and the network
(``dicecam/models/detector.onnx``, see its model card) returns, on a grid of 4x4-pixel
cells, a die-centre heat with peaks already kept, the centre's offset in its cell, the
top face's box size, and a hand/arm map. A peak above ``threshold`` is a die.

Photos with dice much smaller than the network expects (a phone photo of a whole table,
4000 px wide) are read again at a larger scale: ``auto_zoom`` re-runs the net when the
dice it found are under ``MIN_DIE_INPUT_PX`` input pixels across, unless it found more
than ``MAX_DICE_TO_ZOOM`` of them: no game's table holds that many, so they are specks of a
carpet or a cloth, and zooming into such a texture turns hundreds of specks into thousands
of boxes (a rendered speckled carpet: 383 -> 3,061).

Dice much larger than it expects (a camera close above a few dice) are read at smaller
scales: the coarse pass at a third of the main scale, and, where the frame is not a crowd,
the close pass at a quarter and the middle pass at a half; their large boxes replace the
main pass's boxes on a die's pips.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnx
import onnxruntime as ort

from dicecam.errors import InputError
from dicecam.vision.colour.pixel_medians import channel_medians
from dicecam.vision.detect.input_scale import fold_input_scale
from dicecam.vision.sessions import session_options

MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "detector.onnx"
#: Dice smaller than this at the network's input are hard to see; zoom in when found.
MIN_DIE_INPUT_PX = 9.0
#: What auto-zoom scales the median die to.
ZOOM_TARGET_DIE_PX = 22.0
#: The largest input auto-zoom builds (long side), to bound time and memory.
MAX_ZOOM_LONG_SIDE = 2560
#: More small "dice" than this (twice Dice Party's 60) is a texture: auto-zoom leaves it.
MAX_DICE_TO_ZOOM = 120
#: The coarse pass reads the frame again at this share of the main pass's scale: a die too
#: large for the main pass (a camera close above the table, dice 300-600 px wide at 1080p,
#: 100-200 px at the net's input) is 33-67 px there, the sizes the net learnt; at the main
#: scale the net sees such a die's pips as dice. A ninth of the main pass's pixels.
COARSE_SHARE = 1 / 3
#: Dice the coarse pass finds are kept only when at least this large at the main pass's
#: input (smaller ones the main pass reads better); they then take precedence over the
#: main pass's boxes on the same die (its pips).
LARGE_DIE_INPUT_PX = 56.0
#: A main-pass box at least this share of a large die's size, near its centre, is that die;
#: one of at least ``DIE_SIZE_SHARE`` surer than the large box is a die of its own, with
#: its neighbours or beside something large the coarse pass took for a die (halves of a
#: large die the main pass split, and its pips, are unsure)
SAME_SIZE_SHARE = 0.5
DIE_SIZE_SHARE = 0.2
#: A large box surer than every main-pass box near its centre, all of them under this
#: share of its size, is kept aside as ``Detections.wholes``: those boxes may be its halves
WHOLE_SIZE_SHARE = 0.7
#: The close pass reads the frame once more at this share of the main pass's scale (a
#: twelfth of a 1080p frame's side): a die 400-600 px wide at 1080p is 45-67 px at the
#: coarse pass's input, at the top of what the net learnt, and some such dice on a
#: carpet drew no box there; at this scale they are 33-50 px. Its boxes count only from
#: ``CLOSE_MIN_INPUT_PX`` at the main pass's input (smaller ones the other passes see
#: better) and join as the coarse pass's do, after them.
CLOSE_SHARE = 1 / 4
CLOSE_MIN_INPUT_PX = 120.0
#: The middle pass reads the frame at half the main pass's scale where the close pass
#: runs: a die 60-130 px wide at the main input, over the 64 px the net learnt and too
#: small for the coarse pass's sharp view (20-43 px there), is 30-65 px at this scale.
#: Its boxes join as the coarse pass's do (from ``COARSE_MIN_SCORE``, at least
#: ``LARGE_DIE_INPUT_PX`` at the main input), after the close pass's. damiantab's 2 on a
#: woven cloth, 150 px in a 907 x 1209 photo, drew no box over 0.35 at the other passes
#: and 0.59 here; webcam's 640 x 480 frames show dice of 60-113 px at the main input.
MIDDLE_SHARE = 1 / 2
#: A frame where the main pass found more boxes than this is a crowd of dice, not a camera
#: close above a few (eight dice of 400 px fill a 1080p frame; their pips, seen as dice,
#: are at most 48 boxes): it skips the coarse, close and middle passes. So does a frame
#: where the coarse pass's dice leave more boxes than this (the close pass's 0.5 ms)
CLOSE_MAX_BOXES = 48
#: A large die of the coarse pass counts from this score (the real ones on damiantab's
#: close-ups scored 0.53-0.91; blurred clusters and the edges of byler's tray 0.36-0.49)
COARSE_MIN_SCORE = 0.5
#: ...or from this score where the close pass sees the same die too, as sure (its centre
#: within ``SAME_DIE_SHARE`` of the box's side, its size within ``AGREED_SIZE`` of it); the
#: box then scores the better of the two. closeup:damiantab's last two missed dice, on a
#: loop-pile carpet, scored 0.39 and 0.39 here, 0.53 (too small to count alone) and 0.48
#: at the close pass; each pass's false boxes on boards and trays seldom meet the other's
AGREED_MIN_SCORE = 0.35
AGREED_SIZE = (0.7, 1.4)
#: A die under ``LARGE_DIE_INPUT_PX`` at the main input that the main pass scored under
#: its bar counts where two of the smaller passes (coarse, close, middle) find it, each
#: from this score (where the close pass runs). pxl's 640 x 640 phone photos: 148 of its
#: 1,419 dice missed, 28 of them so found (8 more false boxes on the photos without dice);
#: from 0.5, 46, but 20 more false boxes. Read as any die, 2 of the 28 (4 of the 46) read
#: wrong and sure: the table reader asks about them all (``Detections.doubtful``)
SMALL_AGREED_SCORE = 0.6
#: Two peaks closer than this share of the stronger box's size are one die.
SAME_DIE_SHARE = 0.5
#: Cells closer than this (CIE delta E) to the table's colour are never a hand.
TABLE_DELTA_E = 10.0
#: Share of the frame covered by the hand map before a hand counts as in view.
HAND_AREA_SHARE = 0.004


@dataclass(frozen=True)
class Detections:
    """The dice found in one frame.

    ``boxes`` is float32 (N, 4): centre x, centre y, width, height of each top face in
    pixels of the frame given; ``scores`` float32 (N,) in [0, 1], highest first.
    ``hand_share`` is the share of the frame a hand or arm covers. ``wholes``: the large
    boxes a smaller pass found surer than the main pass's boxes on the same die, which
    gave way to them (``_with_large_dice``); where the reader reads none of those smaller
    boxes as a die with a value, the table reader reads the whole box instead (the halves
    of a large die the main pass split: ``TablePipeline._whole_dice``). ``doubtful``
    (bool (N,), None: none): the boxes only the smaller passes found
    (``_with_small_agreed``),
    which the table reader asks about whatever it reads in them.
    """

    boxes: np.ndarray
    scores: np.ndarray
    hand_share: float = 0.0
    wholes: Detections | None = None
    doubtful: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.boxes.ndim != 2 or self.boxes.shape[1] != 4:
            raise ValueError(f"Detections.boxes must have shape (N, 4), got {self.boxes.shape}")
        if self.scores.shape != (self.boxes.shape[0],):
            raise ValueError(f"Detections.scores must have shape ({self.boxes.shape[0]},), "
                             f"got {self.scores.shape}")
        if self.doubtful is not None and self.doubtful.shape != self.scores.shape:
            raise ValueError(f"Detections.doubtful must have shape {self.scores.shape}, "
                             f"got {self.doubtful.shape}")

    @property
    def hand_in_view(self) -> bool:
        return self.hand_share >= HAND_AREA_SHARE

    def __len__(self) -> int:
        return int(self.boxes.shape[0])

    def keep(self, mask: np.ndarray) -> Detections:
        return Detections(self.boxes[mask], self.scores[mask], self.hand_share, self.wholes,
                          None if self.doubtful is None else self.doubtful[mask])


def empty_detections(hand_share: float = 0.0) -> Detections:
    return Detections(np.zeros((0, 4), np.float32), np.zeros((0,), np.float32), hand_share)


class DieDetector:
    """One ONNX session; ``detect(frame_bgr)`` (or calling the object) gives Detections."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        threshold: float = 0.35,
        input_long_side: int | None = None,
        auto_zoom: bool = False,
        coarse_pass: bool = True,
        coarse_model_path: str | Path | None = None,
        threads: int | None = None,
    ) -> None:
        """``coarse_pass``: read the frame at smaller scales too (the coarse and close
        passes) for dice larger than the net learnt. ``coarse_model_path``: the model of
        those passes (None: this one). A table's learnt detector runs them with the model it
        learnt from: it learnt the table's dice at the size its camera shows them, never at
        a third of that, where byler's table's detector drew a box three dice wide on one
        frame in eight."""
        path = Path(model_path) if model_path is not None else MODEL_PATH
        coarse_path = Path(coarse_model_path) if coarse_model_path is not None else path
        for model in (path, coarse_path):
            if not model.is_file():
                raise InputError(f"die detector model not found at {model}; train it with "
                                 f"'dicecam train detector' or reinstall dicecam")
        options = session_options(threads)
        model = _folded_model(path)
        self._session = _session(model, options)
        # the coarse pass has a session of its own: onnxruntime plans its memory for the
        # input shape it last saw, and one session alternating two shapes re-plans each
        # call (measured: the coarse pass cost 11 ms a frame instead of 1)
        coarse_model = (None if not coarse_pass
                        else model if coarse_path == path else _folded_model(coarse_path))
        self._coarse_session = None if coarse_model is None else _session(coarse_model,
                                                                          options)
        # the close pass's input has a shape of its own again, so a session of its own;
        # and the middle pass's
        self._close_session = None if coarse_model is None else _session(coarse_model,
                                                                         options)
        self._middle_session = None if coarse_model is None else _session(coarse_model,
                                                                          options)
        self._input = self._session.get_inputs()[0].name
        meta = self._session.get_modelmeta().custom_metadata_map
        self.stride = int(meta.get("stride", 4))
        self.input_long_side = int(input_long_side or meta.get("input_long_side", 640))
        self.threshold = threshold
        self.auto_zoom = auto_zoom
        self._shrunk: np.ndarray | None = None  # the main pass's copy of the last frame
        #: seconds the net itself has run, every pass, since this detector was made
        #: (``bench reader`` reads it: the share of a frame no work around the nets saves)
        self.network_seconds = 0.0

    def __call__(self, frame_bgr: np.ndarray) -> Detections:
        return self.detect(frame_bgr)

    def detect(self, frame_bgr: np.ndarray, *, threshold: float | None = None) -> Detections:
        """The frame's dice. ``threshold``: the main pass's peak bar for this call (None:
        the detector's own; a lower one finds the weaker peaks the table reader looks at
        when a game says dice are missing, ``vision/detect/counted_dice.py``)."""
        if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
            raise ValueError(f"frame must be HxWx3 uint8 BGR, got {frame_bgr.shape} "
                             f"{frame_bgr.dtype}")
        long_side = max(frame_bgr.shape[:2])
        scale = min(1.0, self.input_long_side / long_side)
        found = self._detect_at(frame_bgr, scale, threshold=threshold)
        if self.auto_zoom and 0 < len(found) <= MAX_DICE_TO_ZOOM and scale < 1.0:
            median_px = float(np.median(found.boxes[:, 2:4].max(axis=1))) * scale
            if median_px < MIN_DIE_INPUT_PX:
                zoom = min(ZOOM_TARGET_DIE_PX / median_px * scale, 1.0,
                           MAX_ZOOM_LONG_SIDE / long_side)
                if zoom > scale * 1.3:
                    found = self._detect_at(frame_bgr, zoom, threshold=threshold)
        # a crowd (more boxes than a few close dice's pips make) has no die too large for
        # the main pass: it skips the passes for such dice and their 2-3 ms
        if (self._coarse_session is not None and self._close_session is not None
                and len(found) <= CLOSE_MAX_BOXES):
            coarse_any = self._pass_at(frame_bgr, scale, COARSE_SHARE, self._coarse_session)
            coarse = _large(coarse_any, scale, LARGE_DIE_INPUT_PX)
            found = _with_large_dice(found, coarse.keep(coarse.scores >= COARSE_MIN_SCORE))
            if len(found) <= CLOSE_MAX_BOXES:
                close_any = self._pass_at(frame_bgr, scale, CLOSE_SHARE, self._close_session)
                close = _large(close_any, scale, LARGE_DIE_INPUT_PX)
                seen = _seen_by(coarse, close)
                agreed = (coarse.scores < COARSE_MIN_SCORE) & (seen > 0)
                found = _with_large_dice(found, Detections(
                    coarse.boxes[agreed], np.maximum(coarse.scores, seen)[agreed],
                    found.hand_share))
                close_min_px = CLOSE_MIN_INPUT_PX / scale
                found = _with_large_dice(found, close.keep(
                    (close.scores >= COARSE_MIN_SCORE)
                    & (close.boxes[:, 2:4].max(axis=1) >= close_min_px)))
                assert self._middle_session is not None
                middle_any = self._pass_at(frame_bgr, scale, MIDDLE_SHARE,
                                           self._middle_session)
                middle = _large(middle_any, scale, LARGE_DIE_INPUT_PX)
                found = _with_large_dice(found, middle.keep(middle.scores >= COARSE_MIN_SCORE))
                found = _with_small_agreed(found, scale, (coarse_any, close_any, middle_any))
        return found

    def _pass_at(self, frame_bgr: np.ndarray, scale: float, share: float,
                 session: ort.InferenceSession) -> Detections:
        """The dice a pass at ``share`` of the main pass's ``scale`` finds with at least
        ``AGREED_MIN_SCORE`` (it starts from the main pass's shrunk copy of the frame)."""
        found = self._detect_at(frame_bgr, scale * share, session=session,
                                shrunk=self._shrunk, hand=False)
        return found.keep(found.scores >= AGREED_MIN_SCORE)

    def _detect_at(self, frame_bgr: np.ndarray, scale: float, *,
                   session: ort.InferenceSession | None = None,
                   shrunk: np.ndarray | None = None, hand: bool = True,
                   threshold: float | None = None) -> Detections:
        """The dice the net finds in the frame shrunk by ``scale`` (shrunk from ``shrunk``,
        a smaller copy of the frame, where given: the coarse pass starts from the main
        pass's copy rather than from the whole frame). ``hand``: whether to measure the
        hand's share (the coarse pass does not: the main pass's share is the frame's, and
        measuring it again cost 0.6 ms a frame where the hand map lights up)."""
        h, w = frame_bgr.shape[:2]
        nw, nh = max(16, round(w * scale)), max(16, round(h * scale))
        # pixel averaging, though by 3 (1080p to 640 px) it costs 2.7 ms a frame: halving
        # and a linear step (0.9 ms) lost 4 of 1,387 dice on the synthetic benchmark
        start = frame_bgr if shrunk is None else shrunk
        small = start if start.shape[:2] == (nh, nw) else cv2.resize(
            start, (nw, nh), interpolation=cv2.INTER_AREA)
        if session is None:
            self._shrunk = small
        pw, ph = -nw % 16, -nh % 16
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        tensor = small.transpose(2, 0, 1)[None].astype(np.float32)
        started = time.perf_counter()
        maps = (session or self._session).run(None, {self._input: tensor})[0][0]
        self.network_seconds += time.perf_counter() - started
        gh, gw = -(-nh // self.stride), -(-nw // self.stride)
        peaks = maps[0, :gh, :gw]
        ys, xs = np.nonzero(peaks > (self.threshold if threshold is None else threshold))
        hand_share = _hand_share(maps[5, :gh, :gw], small[:nh, :nw]) if hand else 0.0
        if ys.size == 0:
            return empty_detections(hand_share)
        scores = peaks[ys, xs]
        order = np.argsort(-scores)
        ys, xs, scores = ys[order], xs[order], scores[order]
        sx, sy = w / nw, h / nh
        cx = (xs + maps[1, ys, xs]) * self.stride * sx
        cy = (ys + maps[2, ys, xs]) * self.stride * sy
        bw = np.exp(np.clip(maps[3, ys, xs], 0.0, 7.0)) * sx
        bh = np.exp(np.clip(maps[4, ys, xs], 0.0, 7.0)) * sy
        boxes = np.stack([cx, cy, bw, bh], axis=1).astype(np.float32)
        keep = _one_peak_per_die(boxes)
        return Detections(boxes[keep], scores[keep].astype(np.float32), hand_share)


def _folded_model(path: Path) -> bytes:
    """The model at ``path`` with its input scale folded into its first convolution
    (``fold_input_scale``: the same maps, 0.5 ms a frame less), serialised."""
    try:
        model = onnx.load(str(path))
    except Exception as error:  # onnx raises protobuf's own errors on a damaged file
        raise InputError(f"die detector model at {path} cannot be read: {error}") from error
    return fold_input_scale(model).SerializeToString()


def _session(model: bytes, options: ort.SessionOptions) -> ort.InferenceSession:
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _hand_share(hand_map: np.ndarray, image_bgr: np.ndarray) -> float:
    """The share of the frame a hand covers: cells the hand map calls hand, except those
    the colour of the table itself (the frame's median colour). The net sees a few dice
    wide, too little to tell a palm from a beech or beige table of the same colour; the
    table is what most of the frame shows, a hand is not."""

    lit = hand_map > 0.5
    if not lit.any():  # no hand anywhere: most frames
        return 0.0
    gh, gw = hand_map.shape
    cells = cv2.resize(image_bgr, (gw, gh), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cells, cv2.COLOR_BGR2LAB)
    table = channel_medians(lab.reshape(-1, 3)).astype(np.float32)
    # OpenCV's 8-bit Lab stores L* scaled by 255/100; a and b are offset, not scaled.
    # The distance a plane at a time, summed in the order a norm over the last axis sums
    # (the same bits, 0.46 -> 0.07 ms)
    planes = [(lab[:, :, c].astype(np.float32) - table[c]) * np.float32(s)
              for c, s in enumerate((100.0 / 255.0, 1.0, 1.0))]
    squared = planes[0] * planes[0]
    squared += planes[1] * planes[1]
    squared += planes[2] * planes[2]
    like_table = np.sqrt(squared) < TABLE_DELTA_E
    return float(np.mean(lit & ~like_table))


def _large(found: Detections, scale: float, min_input_px: float) -> Detections:
    """``found``'s boxes at least ``min_input_px`` across at the main pass's input."""
    return found.keep(found.boxes[:, 2:4].max(axis=1) * scale >= min_input_px)


def _with_small_agreed(found: Detections, scale: float,
                       passes: Sequence[Detections]) -> Detections:
    """``found`` and the smaller dice (under ``LARGE_DIE_INPUT_PX`` at the main input)
    that two of the smaller ``passes`` find on the same spot, each from
    ``SMALL_AGREED_SCORE``, where the main pass drew no box of the die's size: dice the
    main pass scored under its bar, or whose pips it took for dice. They score the better
    of the two and are ``doubtful``: asked."""
    small = []
    for one in passes:
        px = one.boxes[:, 2:4].max(axis=1) * scale
        small.append(one.keep((one.scores >= SMALL_AGREED_SCORE) & (px < LARGE_DIE_INPUT_PX)
                              & (px >= MIN_DIE_INPUT_PX)))
    boxes, scores = [], []
    for i, one in enumerate(small):
        seen = np.zeros(len(one), np.float32)
        for j, other in enumerate(small):
            if j != i:
                seen = np.maximum(seen, _seen_by(one, other))
        for box, score, other_score in zip(one.boxes, one.scores, seen, strict=True):
            if other_score <= 0 or _near_any(found.boxes, box):
                continue
            boxes.append(box)
            scores.append(max(float(score), float(other_score)))
    if not boxes:
        return found
    # each of the two passes found it: the surer box stands for the die
    new = _surest_per_die(np.array(boxes, np.float32), np.array(scores, np.float32))
    boxes_all = np.concatenate([found.boxes, new.boxes])
    scores_all = np.concatenate([found.scores, new.scores])
    doubtful = np.concatenate([np.zeros(len(found), bool) if found.doubtful is None
                               else found.doubtful, np.ones(len(new), bool)])
    order = np.argsort(-scores_all, kind="stable")
    return Detections(boxes_all[order], scores_all[order], found.hand_share, found.wholes,
                      doubtful[order])


def _near_any(boxes: np.ndarray, box: np.ndarray) -> bool:
    """Whether a box of ``boxes`` is the die of ``box``: its centre within
    ``SAME_DIE_SHARE`` of the larger of the two sides, its side at least
    ``SAME_SIZE_SHARE`` of ``box``'s (a smaller one is a pip the main pass took for a die:
    pxl's missed dice of 28-58 px drew boxes of 8-21 px, which the reader vetoes)."""
    if len(boxes) == 0:
        return False
    gap = np.hypot(boxes[:, 0] - box[0], boxes[:, 1] - box[1])
    sides = boxes[:, 2:4].max(axis=1)
    side = float(box[2:4].max())
    reach = SAME_DIE_SHARE * np.maximum(sides, side)
    return bool(((gap < reach) & (sides >= SAME_SIZE_SHARE * side)).any())


def _seen_by(large: Detections, other: Detections) -> np.ndarray:
    """For each of ``large``'s boxes, the best score of ``other``'s boxes on the same die
    (the centre within ``SAME_DIE_SHARE`` of the box's side, the side within
    ``AGREED_SIZE`` of it), 0 where none is."""
    if len(large) == 0 or len(other) == 0:
        return np.zeros(len(large), np.float32)
    sides = large.boxes[:, 2:4].max(axis=1)
    other_sides = other.boxes[:, 2:4].max(axis=1)
    gap = np.hypot(large.boxes[:, None, 0] - other.boxes[None, :, 0],
                   large.boxes[:, None, 1] - other.boxes[None, :, 1])
    ratio = other_sides[None, :] / sides[:, None]
    same = ((gap < SAME_DIE_SHARE * sides[:, None]) & (ratio >= AGREED_SIZE[0])
            & (ratio <= AGREED_SIZE[1]))
    return np.where(same, other.scores[None, :], 0.0).max(axis=1).astype(np.float32)


def _with_large_dice(found: Detections, large: Detections) -> Detections:
    """The main pass's dice and the coarse pass's large ones, one box a die. A large die
    the main pass also found (a box of at least ``SAME_SIZE_SHARE`` of its size near its
    centre) keeps the main pass's box, which is the better placed; where the main pass saw
    only smaller boxes there (the die's pips, its corners), the large box replaces them."""
    keep = np.ones(len(found), bool)
    extra = []
    gave_way = []
    for box, score in zip(large.boxes, large.scores, strict=True):
        side = float(box[2:4].max())
        near = np.hypot(found.boxes[:, 0] - box[0], found.boxes[:, 1] - box[1]) \
            < SAME_DIE_SHARE * side
        sides = found.boxes[near, 2:4].max(axis=1)
        surer = found.scores[near] >= score
        dice_like = sides >= DIE_SIZE_SHARE * side
        if (sides >= SAME_SIZE_SHARE * side).any() \
                or (dice_like & surer).any():
            # the die itself, or a cluster of smaller dice the coarse pass merged; kept
            # aside where the large box is the surer, should the reader find no die there
            if not surer.any() and (sides < WHOLE_SIZE_SHARE * side).all():
                gave_way.append((box, score))
            continue
        keep &= ~near
        extra.append((box, score))
    wholes = _joined(found.wholes, gave_way)
    if not extra:
        return Detections(found.boxes, found.scores, found.hand_share, wholes)
    boxes = np.concatenate([found.boxes[keep], np.array([b for b, _ in extra], np.float32)])
    scores = np.concatenate([found.scores[keep], np.array([s for _, s in extra], np.float32)])
    order = np.argsort(-scores, kind="stable")
    return Detections(boxes[order], scores[order], found.hand_share, wholes)


def _joined(wholes: Detections | None, more: list) -> Detections | None:
    """``wholes`` and the (box, score) pairs of ``more``, one box a die (the surest)."""
    if not more:
        return wholes
    boxes = np.array([b for b, _ in more], np.float32)
    scores = np.array([s for _, s in more], np.float32)
    if wholes is not None:
        boxes = np.concatenate([wholes.boxes, boxes])
        scores = np.concatenate([wholes.scores, scores])
    return _surest_per_die(boxes, scores)


def _surest_per_die(boxes: np.ndarray, scores: np.ndarray) -> Detections:
    """``boxes`` surest first, one box a die (``_one_peak_per_die``)."""
    order = np.argsort(-scores, kind="stable")
    boxes, scores = boxes[order], scores[order]
    keep = _one_peak_per_die(boxes)
    return Detections(boxes[keep], scores[keep])


def _one_peak_per_die(boxes: np.ndarray) -> np.ndarray:
    """Which boxes (sorted by score, highest first) to keep: a box whose centre lies within
    ``SAME_DIE_SHARE`` of a stronger box's size from that box's centre is a second peak on
    the same die (a large die, or its side face seen at an angle) and is dropped. Two real
    dice, even touching, have centres about a face apart."""
    keep = np.ones(len(boxes), bool)
    if len(boxes) < 2:
        return keep
    reach = SAME_DIE_SHARE * np.maximum(boxes[:, 2], boxes[:, 3])
    gap = np.hypot(boxes[:, None, 0] - boxes[None, :, 0], boxes[:, None, 1] - boxes[None, :, 1])
    # within[i, j]: box i lies within the reach of the stronger box j
    within = np.tril(gap < reach[None, :], k=-1)
    for i in np.flatnonzero(within.any(axis=1)):
        keep[i] = not (within[i] & keep).any()
    return keep
