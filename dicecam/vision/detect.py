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
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from dicecam.errors import InputError

MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "detector.onnx"
#: Dice smaller than this at the network's input are hard to see; zoom in when found.
MIN_DIE_INPUT_PX = 9.0
#: What auto-zoom scales the median die to.
ZOOM_TARGET_DIE_PX = 22.0
#: The largest input auto-zoom builds (long side), to bound time and memory.
MAX_ZOOM_LONG_SIDE = 2560
#: More small "dice" than this (twice Dice Party's 60) is a texture: auto-zoom leaves it.
MAX_DICE_TO_ZOOM = 120
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
    ``hand_share`` is the share of the frame a hand or arm covers.
    """

    boxes: np.ndarray
    scores: np.ndarray
    hand_share: float = 0.0

    def __post_init__(self) -> None:
        if self.boxes.ndim != 2 or self.boxes.shape[1] != 4:
            raise ValueError(f"Detections.boxes must have shape (N, 4), got {self.boxes.shape}")
        if self.scores.shape != (self.boxes.shape[0],):
            raise ValueError(f"Detections.scores must have shape ({self.boxes.shape[0]},), "
                             f"got {self.scores.shape}")

    @property
    def hand_in_view(self) -> bool:
        return self.hand_share >= HAND_AREA_SHARE

    def __len__(self) -> int:
        return int(self.boxes.shape[0])

    def keep(self, mask: np.ndarray) -> Detections:
        return Detections(self.boxes[mask], self.scores[mask], self.hand_share)


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
        threads: int | None = None,
    ) -> None:
        path = Path(model_path) if model_path is not None else MODEL_PATH
        if not path.is_file():
            raise InputError(f"die detector model not found at {path}; train it with "
                             f"'dicecam train detector' or reinstall dicecam")
        options = ort.SessionOptions()
        if threads is not None:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(path), options,
                                             providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        meta = self._session.get_modelmeta().custom_metadata_map
        self.stride = int(meta.get("stride", 4))
        self.input_long_side = int(input_long_side or meta.get("input_long_side", 640))
        self.threshold = threshold
        self.auto_zoom = auto_zoom

    def __call__(self, frame_bgr: np.ndarray) -> Detections:
        return self.detect(frame_bgr)

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        if frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or frame_bgr.dtype != np.uint8:
            raise ValueError(f"frame must be HxWx3 uint8 BGR, got {frame_bgr.shape} "
                             f"{frame_bgr.dtype}")
        long_side = max(frame_bgr.shape[:2])
        scale = min(1.0, self.input_long_side / long_side)
        found = self._detect_at(frame_bgr, scale)
        if self.auto_zoom and 0 < len(found) <= MAX_DICE_TO_ZOOM and scale < 1.0:
            median_px = float(np.median(found.boxes[:, 2:4].max(axis=1))) * scale
            if median_px < MIN_DIE_INPUT_PX:
                zoom = min(ZOOM_TARGET_DIE_PX / median_px * scale, 1.0,
                           MAX_ZOOM_LONG_SIDE / long_side)
                if zoom > scale * 1.3:
                    found = self._detect_at(frame_bgr, zoom)
        return found

    def _detect_at(self, frame_bgr: np.ndarray, scale: float) -> Detections:
        h, w = frame_bgr.shape[:2]
        nw, nh = max(16, round(w * scale)), max(16, round(h * scale))
        # pixel averaging, though by 3 (1080p to 640 px) it costs 2.7 ms a frame: halving
        # and a linear step (0.9 ms) lost 4 of 1,387 dice on the synthetic benchmark
        small = frame_bgr if (nw, nh) == (w, h) else cv2.resize(
            frame_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
        pw, ph = -nw % 16, -nh % 16
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        tensor = small.transpose(2, 0, 1)[None].astype(np.float32)
        maps = self._session.run(None, {self._input: tensor})[0][0]
        gh, gw = -(-nh // self.stride), -(-nw // self.stride)
        peaks = maps[0, :gh, :gw]
        ys, xs = np.nonzero(peaks > self.threshold)
        hand_share = _hand_share(maps[5, :gh, :gw], small[:nh, :nw])
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
    lab = cv2.cvtColor(cells, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab.reshape(-1, 3), axis=0)
    # OpenCV's 8-bit Lab stores L* scaled by 255/100; a and b are offset, not scaled
    scale = np.array([100.0 / 255.0, 1.0, 1.0], np.float32)
    like_table = np.linalg.norm((lab - table) * scale, axis=2) < TABLE_DELTA_E
    return float(np.mean(lit & ~like_table))


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
