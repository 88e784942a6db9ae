"""Teaching a table from labelled photos, as if its players had confirmed those dice there.

A folder ``DIR/images/*.jpg`` (or .png) with ``DIR/labels/STEM.txt`` in YOLO form: one die a
line, ``class cx cy w h`` normalised to the image, class k = k + 1 pips. Each photo is read
by the table reader as it would be at the table; then, as players would at the tablet:

* a found die that matches a label is confirmed (or corrected) with the label's value, and
  kept with the box the detector gave it: the crop the table reader will cut from now on
  (a box much smaller than its label is a pip or a side face, not the die: see below);
* a label no found die matches is a die the camera missed, added where the label is;
* a found die that matches no label is "not a die".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2

from dicecam.errors import InputError
from dicecam.teach.learn.reader import cut_stored_crop
from dicecam.teach.store import TableStore
from dicecam.vision.matching import match_centres
from dicecam.vision.sources.frame_sources import IMAGE_SUFFIXES

#: a found die's centre within this share of the label's size matches it
MATCH_TOLERANCE = 0.5
#: a found box under this share of its label's longer side is part of the die, not the
#: die: a player would add the die and call that box "not a die" (pxl: boxes on one pip
#: confirmed with the die's value taught the reader that pips are dice)
PART_SHARE = 0.5


def _part_of(die, box: LabelledBox) -> bool:
    return max(die.w, die.h) < PART_SHARE * max(box.w, box.h)


@dataclass(frozen=True)
class LabelledBox:
    value: int
    cx: float
    cy: float
    w: float
    h: float


@dataclass
class TaughtFromPhotos:
    photos: int = 0
    confirmed: int = 0
    corrected: int = 0
    added: int = 0
    not_a_die: int = 0

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


def labelled_photos(folder: Path) -> list[tuple[Path, Path]]:
    """(image, label file) pairs of a labelled folder, in name order."""
    images, labels = folder / "images", folder / "labels"
    if not images.is_dir() or not labels.is_dir():
        raise InputError(f"{folder} needs images/ and labels/ folders (YOLO labels: "
                         "class cx cy w h, normalised; class k = k+1 pips)")
    pairs = [(image, labels / f"{image.stem}.txt") for image in sorted(images.iterdir())
             if image.suffix.lower() in IMAGE_SUFFIXES]
    pairs = [(image, label) for image, label in pairs if label.is_file()]
    if not pairs:
        raise InputError(f"{folder}/images has no picture with a label file in labels/")
    return pairs


def read_labels(path: Path, width: int, height: int) -> list[LabelledBox]:
    boxes = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(v) for v in parts[1:5])
        except (ValueError, IndexError):
            raise InputError(f"{path}:{number}: expected 'class cx cy w h'") from None
        if not 0 <= cls <= 5 or len(parts) != 5:
            raise InputError(f"{path}:{number}: class must be 0-5 (1-6 pips)")
        boxes.append(LabelledBox(cls + 1, cx * width, cy * height, w * width, h * height))
    return boxes


def teach_photo(store: TableStore, frame, labels: Sequence[LabelledBox],
                read_frame: Callable, tally: TaughtFromPhotos, roll: str | None = None) -> None:
    """Read one labelled frame and keep its dice as the players would confirm them
    (``roll`` names the photo: its dice are held back together)."""
    height, width = frame.shape[:2]
    in_use = store.reader_in_use()
    version = in_use.stem if in_use is not None else None
    dice = read_frame(frame).dice
    pairs = match_centres([(b.cx, b.cy, max(b.w, b.h)) for b in labels],
                          [(d.x, d.y) for d in dice], MATCH_TOLERANCE)
    used = set()
    dice_boxes, values, not_dice = [], [], []
    for box, j in zip(labels, pairs, strict=True):
        if j is not None and _part_of(dice[j], box):
            j = None  # a box on a pip or a side face: the die itself was missed
        if j is None:
            dice_boxes.append((box.cx, box.cy, box.w, box.h))
            values.append(box.value)
            store.add(cut_stored_crop(frame, box.cx, box.cy, box.w, box.h),
                      (box.cx, box.cy, box.w, box.h), (width, height), box.value, "added",
                      roll=roll)
            tally.added += 1
            continue
        used.add(j)
        die = dice[j]
        dice_boxes.append((die.x, die.y, die.w, die.h))
        values.append(box.value)
        how = "confirmed" if die.value == box.value else "corrected"
        store.add(cut_stored_crop(frame, die.x, die.y, die.w, die.h),
                  (die.x, die.y, die.w, die.h), (width, height), box.value, how,
                  colour=die.colour, reader_value=die.value,
                  reader_confidence=die.value_confidence, reader_version=version, roll=roll)
        setattr(tally, how, getattr(tally, how) + 1)
    for j, die in enumerate(dice):
        if j not in used:
            not_dice.append((die.x, die.y, die.w, die.h))
            store.add(cut_stored_crop(frame, die.x, die.y, die.w, die.h),
                      (die.x, die.y, die.w, die.h), (width, height), 0, "not_a_die",
                      reader_value=die.value, reader_confidence=die.value_confidence,
                      reader_version=version, roll=roll)
            tally.not_a_die += 1
    # every die of a labelled photo is known: the detector may learn the whole frame
    store.add_frame(frame, dice_boxes, not_dice, complete=True, values=values, roll=roll)
    tally.photos += 1


def teach_from_folder(store: TableStore, folder: Path, read_frame: Callable,
                      photos: Sequence[tuple[Path, Path]] | None = None) -> TaughtFromPhotos:
    """Teach ``store``'s table every labelled photo of ``folder`` (or the given pairs)."""
    tally = TaughtFromPhotos()
    for image, label in photos if photos is not None else labelled_photos(folder):
        frame = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if frame is None:
            raise InputError(f"{image} is not a readable picture")
        height, width = frame.shape[:2]
        teach_photo(store, frame, read_labels(label, width, height), read_frame, tally,
                    roll=image.name)
    return tally
