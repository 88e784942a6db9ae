"""Test doubles shared by the pipeline tests: painted dice, a fixed detector, a reader of
the painted value (a square's green level)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicecam.reading import DieReading
from dicecam.vision.detect.detector import Detections

SQUARES = [(100, 120, 3), (141, 120, 5), (400, 300, 6)]  # touching pair + a loose die


@dataclass(frozen=True)
class Value:
    value: int | None
    confidence: float


def painted_frame(squares=SQUARES) -> np.ndarray:
    frame = np.full((480, 640, 3), 15, np.uint8)
    for x, y, value in squares:
        frame[y - 20:y + 20, x - 20:x + 20] = (0, value * 40, 0)
    return frame


class FakeDetector:
    def __init__(self, boxes, scores=None, hand_share=0.0, wholes=None) -> None:
        self.boxes = np.array(boxes, np.float32).reshape(-1, 4)
        self.scores = np.array(scores if scores is not None else [0.9] * len(self.boxes),
                               np.float32)
        self.hand_share = hand_share
        #: (box, score) pairs: large boxes that gave way to smaller ones (Detections.wholes)
        self.wholes = None if wholes is None else Detections(
            np.array([b for b, _ in wholes], np.float32).reshape(-1, 4),
            np.array([s for _, s in wholes], np.float32))
        self.calls = 0

    def __call__(self, frame):
        self.calls += 1
        return Detections(self.boxes, self.scores, self.hand_share, self.wholes)


class PaintedValueReader:
    """Reads the value painted as green level in the middle of each crop; counts batches."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def __call__(self, crops):
        self.batches.append(len(crops))
        out = []
        for crop in crops:
            h, w = crop.shape[:2]
            green = float(crop[h // 2 - 2:h // 2 + 2, w // 2 - 2:w // 2 + 2, 1].mean())
            value = round(green / 40)
            out.append(Value(value if 1 <= value <= 6 else None, 0.97 if value else 0.2))
        return out




def scored_die(scores: dict[str, float], *, value: int = 4, zone: str | None = None,
               corrected: bool = False, colour: str | None = None) -> DieReading:
    """A die the colour stage scored so (its colour the best score unless ``colour`` is
    given; a corrected one is sure), for the colour decisions' tests."""
    best = colour or max(scores, key=scores.__getitem__)
    conf = 1.0 if corrected else scores[best]
    return DieReading(10.0, 10.0, 20.0, 20.0, value, best, conf, zone, colour_confidence=conf,
                      colour_scores=tuple(scores.items()), corrected=corrected)
