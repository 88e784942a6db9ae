"""Photos of dice the shipped reader never learnt: marbled red bodies with yellow pips (Dice
Party's own kind of die) on a plain cloth, drawn with their labels, for the teaching tests."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dicecam.synth.dicesets import DieLook
from dicecam.synth.die import render_die
from dicecam.teach.learn.reader import Example

MARBLED_RED = DieLook((40, 40, 200), (0, 200, 255), "pips", "red", marbled=True,
                      marble_bgr=(80, 80, 240))
CLOTH = (60, 110, 60)


def drawn_examples(count: int, seed: int, look: DieLook = MARBLED_RED) -> list[Example]:
    """``count`` stored crops (2 x the face) of dice of ``look``, values 1-6 in turn."""
    rng = np.random.default_rng(seed)
    examples = []
    for i in range(count):
        value = i % 6 + 1
        face = int(rng.integers(26, 40))
        die = render_die(value, look, face, rng, rotation_deg=rng.uniform(0, 360), tilt=5.0,
                         corner_radius=0.2)
        image = die.image_bgra
        h, w = image.shape[:2]
        side = 2 * face
        canvas = np.full((side + h, side + w, 3), CLOTH, np.float32)
        canvas += rng.normal(0, 4, canvas.shape)
        top, left = (canvas.shape[0] - h) // 2, (canvas.shape[1] - w) // 2
        alpha = image[..., 3:4] / 255.0
        roi = canvas[top:top + h, left:left + w]
        roi += (image[..., :3] - roi) * alpha
        cx, cy = die.top_box[0] + left, die.top_box[1] + top
        y0, x0 = int(cy - side / 2), int(cx - side / 2)
        crop = canvas[y0:y0 + side, x0:x0 + side]
        examples.append(Example(np.clip(crop, 0, 255).astype(np.uint8), value))
    return examples


def drawn_photo(rng: np.random.Generator, look: DieLook = MARBLED_RED, dice: int = 6,
                size: tuple[int, int] = (640, 480)) -> tuple[np.ndarray, list[tuple]]:
    """A photo of ``dice`` dice apart on the cloth and its labels (value, cx, cy, w, h)."""
    width, height = size
    frame = np.full((height, width, 3), CLOTH, np.float32)
    frame += rng.normal(0, 4, frame.shape)
    labels = []
    columns = 3
    for k in range(dice):
        value = int(rng.integers(1, 7))
        face = int(rng.integers(44, 56))
        die = render_die(value, look, face, rng, rotation_deg=rng.uniform(0, 360), tilt=4.0,
                         corner_radius=0.2)
        image = die.image_bgra
        h, w = image.shape[:2]
        cell_w, cell_h = width // columns, height // ((dice + columns - 1) // columns)
        left = (k % columns) * cell_w + (cell_w - w) // 2
        top = (k // columns) * cell_h + (cell_h - h) // 2
        alpha = image[..., 3:4] / 255.0
        roi = frame[top:top + h, left:left + w]
        roi += (image[..., :3] - roi) * alpha
        cx, cy, bw, bh = die.top_box
        labels.append((value, cx + left, cy + top, bw, bh))
    return np.clip(frame, 0, 255).astype(np.uint8), labels


def write_labelled_folder(folder: Path, photos: int, seed: int,
                          look: DieLook = MARBLED_RED) -> Path:
    """DIR/images/*.png with DIR/labels/*.txt (YOLO, class k = k+1 pips)."""
    rng = np.random.default_rng(seed)
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    for n in range(photos):
        frame, labels = drawn_photo(rng, look)
        height, width = frame.shape[:2]
        cv2.imwrite(str(folder / "images" / f"photo{n:02d}.png"), frame)
        lines = [f"{v - 1} {cx / width:.5f} {cy / height:.5f} {w / width:.5f} {h / height:.5f}"
                 for v, cx, cy, w, h in labels]
        (folder / "labels" / f"photo{n:02d}.txt").write_text("\n".join(lines) + "\n")
    return folder
