"""The real dice photos of the development set: photos, labels, splits and crops.

The photos live outside the repository (``../shared/data/real_dice_dev`` next to it, or
the folder named by ``DICECAM_REAL_DATA``); see its MANIFEST.md. Labels are YOLO boxes,
class k meaning a top face of k+1 pips. Six sources (``SOURCES``):

* ``byler``: phone photos; a label box covers the whole top face, so the crop is cut from
  the box as ``cut_crop`` does at run time.
* ``webcam``: webcam frames; a box surrounds only the pip pattern (one pip for a 1), so
  the die's face is estimated from the box (the pattern spans about 60% of the face),
  never below the smallest face in those frames. Detections are matched to such labels by
  centre, never by overlap (``dicecam.tools.matching``).
* ``pxl``: phone photos of dice in felt trays, stretched to 640x640; a box encloses the
  whole visible die, top face *and* the sides seen at an angle. The face is estimated as
  the box's centre with ``PXL_FACE_SHARE`` (0.7) of its width and height: on the photos
  the sides add about 40% to the face's size, and the shipped detector's face boxes on the
  pxl dice it finds have a median of 0.68 (width) and 0.70 (height) of the label box. The
  face's centre lies off the box centre (towards the side of the die away from the
  camera): the detector's centres sit a median 11% (99th percentile 29%) of the box from
  the label's, inside matching's tolerance of half the face (35% of the box). Such a box
  is not a face box (``box_is_face`` False), so the detector learns no size from it.
  Dice in a neighbouring tray at the edge of a photo are sometimes unlabelled: a detection
  there counts as false although it is a die.
* ``aws``: 212 photos (512x384) by many different people: carpets, stone counters, wood,
  felt, bowls and dice towers, tilted and close phone cameras (dice 20-300 px), casino,
  translucent and marbled dice; a box around the top face (sometimes the whole die), as
  byler's. Dice its labellers could not read are in ``aws/unclear/`` (boxes without a
  class): they are dice all the same, so a detection there is not false, and they are
  left out of every value figure (``LabelledDie.value`` None) and of the reader's crops.
* ``dicebot``: 176 webcam frames (320x240) of two still scenes, each filmed in three or
  four lights (a video each, every 5th frame kept): three translucent red dice with white
  pips on light wood and on paper; a box around the die.
* ``damiantab``: 80 phone photos (907x1209) of 1-5 cream dice with black pips on carpets,
  wood, a white table and a patterned cloth, published without labels
  (``../shared/data/real_unlabelled/damiantab``, or ``DICECAM_REAL_UNLABELLED``/damiantab).
  Their labels live in this repository (``real_labels/damiantab/``, beside this module; its
  README.md says how they were made): a box covers the top face, as byler's do.

Each photo is either *held out* (never trained on) or *tuning* (may be used to fine-tune),
fixed by its file name, so that near-duplicate shots never land on both sides:

* byler photos go in runs of ten consecutive shots (a run is one table, re-rolled),
  every fourth run held out;
* webcam frames by capture session (file prefix), the last 30% of each session's frames
  held out;
* pxl file names are capture times (``PXL_<date>_<hhmmssmmm>``); sorted by name, a new
  run starts where two consecutive shots are ``PXL_RUN_GAP_S`` (20) seconds or more apart
  (a run is one tray re-rolled every 2-9 s; runs are 20 s to 2 minutes apart: 12 runs of
  2-11 shots), and every third run is held out (the 3rd, 6th, 9th and 12th: 24 photos,
  313 dice, one dense pile of 33-39 dice among them);
* aws photos by family of file name (``Image_NNN``, ``IMG_<date>_<time>``, the rest),
  each in name order (shooting order where the name says it) in blocks of five: every
  fourth block held out (50 of the 211 photos with labels; one has none);
* dicebot frames by video (file prefix before ``-N.jpg``): the dark video of the first
  scene and the light video of the second are held out (2 of 8 videos, 43 frames);
* damiantab photos are numbered in shooting order (``dice01`` ... ``dice80``; a surface is
  shot 5-20 times in a row, the dice re-rolled): in blocks of five consecutive numbers,
  every fourth block is held out (dice16-20, 36-40, 56-60, 76-80: 20 photos, 60 dice; a
  carpet, a carpet with a single 6, wood, the cloth).

The shared labels are read as written, less what looking at the photos found wrong: lines
that mark no die (``LABEL_ERRATA``), values the top face contradicts (``LABEL_VALUE_FIXES``)
and dice the labels left out (``LABEL_ADDENDA``), each checked on an enlarged crop.

``select_photos`` picks photos by source, held-out part, and a source left out (the
leave-one-source-out figure: train without a source, read it).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dicecam.errors import InputError
from dicecam.vision.read.die_reader import cut_crop

REPO_ROOT = Path(__file__).resolve().parents[2]
ENV_VAR = "DICECAM_REAL_DATA"
#: Pip-pattern boxes of the webcam set span about this share of the face.
WEBCAM_PATTERN_SHARE = 0.6
#: The smallest webcam face, as a die's size for matching detections to labels ...
WEBCAM_MIN_FACE_PX = 60.0
#: ... and as the size a reader crop is cut at (a little margin more).
WEBCAM_MIN_CROP_FACE_PX = 70.0
_WEBCAM_PREFIXES = ("dice", "two", "three", "four", "five", "six")
#: A pxl box encloses the whole die; its top face is about this share of it each way.
PXL_FACE_SHARE = 0.7
#: Consecutive pxl shots this many seconds apart or more start a new run.
PXL_RUN_GAP_S = 20.0
#: damiantab photos go in blocks of this many consecutive numbers ...
DAMIANTAB_BLOCK = 5
#: ... and every this-many-th block is held out.
DAMIANTAB_HELD_OUT_EVERY = 4
#: Label lines of the shared sources that mark no die, found by looking at the photo:
#: (source, photo stem) -> the lines as written, dropped when the labels are read (for the
#: benches and the trainers alike). webcam's ``five_1``: a "1" on bare wood beside the
#: photo's one die, a 5 (seen 2026-11-27; every other die webcam's pipeline misses is there).
LABEL_ERRATA: dict[tuple[str, str], frozenset[str]] = {
    ("webcam", "five_1"): frozenset({"0 0.725000 0.434375 0.106250 0.131250"}),
}
#: Dice the shared sources' labels leave out, found by looking at the photo (every false
#: box ``bench real`` read surely, and every box away from all labels on byler and pxl,
#: enlarged with the labels drawn; pips counted on a 4x crop, 2026-11-27): (source, photo
#: stem) -> lines to add, written as that source writes its labels (byler: the top face;
#: pxl: the whole visible die, here the detector's face box over ``PXL_FACE_SHARE``). Dice
#: whose value the photo does not show (cut by its edge, blurred) are not added.
LABEL_ADDENDA: dict[tuple[str, str], tuple[str, ...]] = {
    ("byler", "IMG_20191208_111530"): ("5 0.176563 0.909375 0.054688 0.054688",),
    ("byler", "IMG_20191208_112342"): ("2 0.421875 0.232813 0.050000 0.050000",),
    ("byler", "IMG_20191208_112353"): ("2 0.492188 0.592188 0.051563 0.051563",),
    ("byler", "IMG_20191209_095533"): ("5 0.528125 0.565625 0.053125 0.053125",),
    ("pxl", "PXL_20240219_191143808"): ("4 0.523438 0.223438 0.082589 0.082589",),
    ("pxl", "PXL_20240219_192231792"): ("0 0.721875 0.476563 0.080357 0.080357",
                                        "0 0.703125 0.615625 0.107143 0.107143"),
    ("pxl", "PXL_20240219_192403811"): ("1 0.428125 0.479688 0.087054 0.087054",),
}
#: Label lines whose value the photo contradicts (the same way of looking): (source, photo
#: stem) -> {line as written: the value (pips) the top face shows}. byler's
#: ``IMG_20191209_095439``: a dark die labelled 5 shows four pips; ``IMG_20191209_100722``: a
#: white die labelled 6 shows five on its top face (the six is the side face beyond it).
#: Five byler dice labelled 2 show three pips in a diagonal row, each seen at 8x and again
#: in grey (2026-11-28: every die ``bench real`` read against its label, asked or sure):
#: a blue die with red pips, two red dice, a black die and a teal die with yellow pips.
LABEL_VALUE_FIXES: dict[tuple[str, str], dict[str, int]] = {
    ("byler", "IMG_20191209_095439"): {"4 0.519189 0.603801 0.046418 0.053363": 4},
    ("byler", "IMG_20191209_100722"): {"5 0.677083 0.684028 0.072003 0.074196": 5},
    ("byler", "IMG_20191208_111246"): {"1 0.216192 0.348684 0.061769 0.054094": 3},
    ("byler", "IMG_20191208_111919"): {"1 0.330227 0.475329 0.056652 0.052997": 3},
    ("byler", "IMG_20191208_112342"): {"1 0.494152 0.752741 0.061404 0.064693": 3},
    ("byler", "IMG_20191209_095421"): {"1 0.689145 0.493604 0.056652 0.052266": 3},
    ("byler", "IMG_20191209_095954"): {"1 0.374635 0.529057 0.062865 0.058845": 3},
}
#: The damiantab labels, made for this project (the photos stay outside the repository).
DAMIANTAB_LABELS = Path(__file__).resolve().parent / "real_labels" / "damiantab"
UNLABELLED_ENV_VAR = "DICECAM_REAL_UNLABELLED"
#: Every real source, in the order photos are listed.
SOURCES = ("byler", "webcam", "pxl", "aws", "dicebot", "damiantab")
#: The sources the shipped reader and detector learnt from (their tuning parts; the reader's
#: ``real_tuning_by_source`` metadata names them, a test holds the two together) ...
SHIPPED_SOURCES = ("byler", "webcam", "pxl")
#: ... and those no shipped model saw: on these the shipped models' figures are
#: leave-one-source-out figures as shipped.
UNSEEN_SOURCES = tuple(name for name in SOURCES if name not in SHIPPED_SOURCES)
#: aws photos go in blocks of this many in name order (per family of names) ...
AWS_BLOCK = 5
#: ... and every this-many-th block is held out.
AWS_HELD_OUT_EVERY = 4
#: The dicebot videos held out: one per scene, in another light than the other's.
DICEBOT_HELD_OUT_VIDEOS = frozenset({"512_dark_mp4", "643_light_mp4"})
_PXL_NAME = re.compile(r"^PXL_(\d{8})_(\d{2})(\d{2})(\d{2})(\d{3})$")


def real_data_dir() -> Path | None:
    """The development set's folder (``DICECAM_REAL_DATA`` or ../shared/data/...), or None
    where it is absent."""
    configured = os.environ.get(ENV_VAR)
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data" / \
        "real_dice_dev"
    return path if (path / "MANIFEST.md").is_file() else None


def real_unlabelled_dir(root: Path | None = None) -> Path | None:
    """The photos published without labels (``DICECAM_REAL_UNLABELLED``, or the folder
    ``real_unlabelled`` beside the development set ``root``), or None where absent. Only
    the sources labelled in this repository (damiantab) are read from it."""
    configured = os.environ.get(UNLABELLED_ENV_VAR)
    if configured:
        path = Path(configured)
    else:
        root = root if root is not None else real_data_dir()
        path = (root.parent if root is not None else REPO_ROOT.parent / "shared" / "data") \
            / "real_unlabelled"
    return path if path.is_dir() else None


def damiantab_held_out(stem: str) -> bool:
    """Whether a damiantab photo (``diceNN``) is held out: every fourth block of five
    consecutive numbers (16-20, 36-40, ...). A name without a number is tuning."""
    digits = "".join(c for c in stem if c.isdigit())
    if not digits:
        return False
    block = (int(digits) - 1) // DAMIANTAB_BLOCK
    return block % DAMIANTAB_HELD_OUT_EVERY == DAMIANTAB_HELD_OUT_EVERY - 1


BACKGROUNDS_ENV_VAR = "DICECAM_REAL_BACKGROUNDS"
_IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def real_backgrounds_dir() -> Path | None:
    """The real photos *without* dice (``DICECAM_REAL_BACKGROUNDS`` or
    ../shared/data/real_backgrounds; boards, cloths, tables), or None where absent."""
    configured = os.environ.get(BACKGROUNDS_ENV_VAR)
    path = Path(configured) if configured else REPO_ROOT.parent / "shared" / "data" / \
        "real_backgrounds"
    return path if (path / "MANIFEST.md").is_file() else None


#: Every this-many-th photo of each background folder (in name order) is held out: the
#: detector may train on the others as hard negatives, never on these.
BACKGROUND_HELD_OUT_EVERY = 3


def background_photos(root: Path | None = None, held_out: bool | None = None
                      ) -> list[tuple[str, Path]]:
    """(folder name, image) for every photo of the background set, in a fixed order: each
    sub-folder is one source of surfaces; none of its photos shows a die. ``held_out``
    True keeps the held-out third of each folder (the 3rd, 6th, ... photo), False the rest
    (what training may use), None all."""
    root = root if root is not None else real_backgrounds_dir()
    if root is None:
        return []
    photos = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        images = sorted(i for i in folder.iterdir() if i.suffix.lower() in _IMAGE_SUFFIXES)
        for index, image in enumerate(images):
            is_held_out = index % BACKGROUND_HELD_OUT_EVERY == BACKGROUND_HELD_OUT_EVERY - 1
            if held_out is None or held_out == is_held_out:
                photos.append((folder.name, image))
    return photos


@dataclass(frozen=True)
class LabelledDie:
    cx: float
    cy: float
    w: float
    h: float
    value: int | None  # None: a die whose top face its labellers could not read (aws)
    colour: str | None = None
    #: False where the label box is not the top face (webcam: the pip pattern only).
    box_is_face: bool = True


@dataclass(frozen=True)
class LabelledPhoto:
    source: str  # one of SOURCES
    image: Path
    labels: Path
    held_out: bool
    #: boxes (``cx cy w h``, no class) of dice whose value nobody could read (aws)
    unclear: Path | None = None

    def boxes(self, width: int, height: int) -> list[tuple[int, float, float, float, float]]:
        """(value, cx, cy, w, h) in pixels for each label line, as written (less the
        ``LABEL_ERRATA``, values as ``LABEL_VALUE_FIXES`` says), then the
        ``LABEL_ADDENDA``."""
        key = (self.source, self.image.stem)
        fixes = LABEL_VALUE_FIXES.get(key, {})
        lines = self.labels.read_text().splitlines()
        found = []
        for line in [lines[n] for n in self.die_lines()] + list(LABEL_ADDENDA.get(key, ())):
            parts = line.split()
            value = fixes.get(line.strip(), int(parts[0]) + 1)
            cx, cy, w, h = (float(v) for v in parts[1:])
            found.append((value, cx * width, cy * height, w * width, h * height))
        return found

    def die_lines(self) -> list[int]:
        """The numbers (from 0) of the label file's lines that are dice, in order: lines of
        five fields, less the ``LABEL_ERRATA`` (the colour labels name dice by line)."""
        errata = LABEL_ERRATA.get((self.source, self.image.stem), frozenset())
        return [n for n, line in enumerate(self.labels.read_text().splitlines())
                if len(line.split()) == 5 and line.strip() not in errata]

    def unclear_boxes(self, width: int, height: int) -> list[tuple[float, float, float, float]]:
        """(cx, cy, w, h) in pixels of the dice whose value nobody could read."""
        if self.unclear is None or not self.unclear.is_file():
            return []
        found = []
        for line in self.unclear.read_text().splitlines():
            parts = line.split()
            if len(parts) == 4:
                cx, cy, w, h = (float(v) for v in parts)
                found.append((cx * width, cy * height, w * width, h * height))
        return found

    def dice(self, width: int, height: int) -> list[LabelledDie]:
        """The labelled dice, each with its face's box (estimated for webcam and pxl
        labels), then the dice nobody could read (value None)."""
        found = [LabelledDie(cx, cy, w, h, None)
                 for cx, cy, w, h in self.unclear_boxes(width, height)]
        return self._valued_dice(width, height) + found

    def _valued_dice(self, width: int, height: int) -> list[LabelledDie]:
        found = []
        for value, cx, cy, w, h in self.boxes(width, height):
            if self.source == "webcam":
                face = max(max(w, h) / WEBCAM_PATTERN_SHARE, WEBCAM_MIN_FACE_PX)
                found.append(LabelledDie(cx, cy, face, face, value, None, False))
            elif self.source == "pxl":
                w, h = pxl_face(w, h)
                found.append(LabelledDie(cx, cy, w, h, value, None, False))
            else:
                found.append(LabelledDie(cx, cy, w, h, value))
        return found


def pxl_face(w: float, h: float) -> tuple[float, float]:
    """The top face's size estimated from a pxl box around the whole visible die."""
    return w * PXL_FACE_SHARE, h * PXL_FACE_SHARE


def pxl_runs(names: Iterable[str]) -> list[list[str]]:
    """pxl file stems grouped into runs of shots of one tray: sorted by name (capture
    time), a run ends where the next shot is ``PXL_RUN_GAP_S`` or more later (or on another
    day). A stem that is not a capture time makes a run of its own."""
    runs: list[list[str]] = []
    previous: tuple[str, float] | None = None
    for name in sorted(names):
        match = _PXL_NAME.match(name)
        if match is None:
            runs.append([name])
            previous = None
            continue
        day, hh, mm, ss, ms = match.groups()
        seconds = int(hh) * 3600 + int(mm) * 60 + int(ss) + int(ms) / 1000
        if previous is None or previous[0] != day or seconds - previous[1] >= PXL_RUN_GAP_S:
            runs.append([])
        runs[-1].append(name)
        previous = (day, seconds)
    return runs


def pxl_held_out(names: Iterable[str]) -> set[str]:
    """The pxl stems held out: every third run (the 3rd, 6th, ...)."""
    return {name for index, run in enumerate(pxl_runs(names)) if index % 3 == 2 for name in run}


def check_sources(names: Iterable[str] | None) -> tuple[str, ...] | None:
    """``names`` as a tuple, refusing any that is not a real source (None stays None)."""
    if names is None:
        return None
    names = tuple(names)
    unknown = [n for n in names if n not in SOURCES]
    if unknown:
        raise InputError(f"unknown real source {unknown[0]!r}: the sources are "
                         f"{', '.join(SOURCES)}")
    return names


def select_photos(
    photos: Iterable[LabelledPhoto], *, sources: Iterable[str] | None = None,
    leave_out: Iterable[str] | None = None, held_out: bool | None = None,
) -> list[LabelledPhoto]:
    """The photos of ``sources`` (None: all) except those of ``leave_out``, of the
    held-out part (``held_out`` True), the tuning part (False) or both (None)."""
    keep = check_sources(sources)
    drop = set(check_sources(leave_out) or ())
    return [p for p in photos
            if (keep is None or p.source in keep) and p.source not in drop
            and (held_out is None or p.held_out == held_out)]


def real_photos(root: Path | None = None) -> list[LabelledPhoto]:
    """Every labelled photo of the development set in a fixed order, with its split."""
    root = root if root is not None else real_data_dir()
    if root is None:
        raise InputError(f"the real dice photos were not found: put them in "
                         f"{REPO_ROOT.parent / 'shared' / 'data' / 'real_dice_dev'} or set "
                         f"{ENV_VAR}")
    photos: list[LabelledPhoto] = []
    images = sorted((root / "byler" / "images" / "train").glob("*.jpg"))
    for index, image in enumerate(images):
        labels = root / "byler" / "labels" / "train" / (image.stem + ".txt")
        photos.append(LabelledPhoto("byler", image, labels, (index // 10) % 4 == 3))
    folder = root / "webcam" / "Train"
    for prefix in _WEBCAM_PREFIXES:
        frames = sorted(folder.glob(f"{prefix}_*.jpg"), key=lambda p: int(p.stem.split("_")[1]))
        for index, image in enumerate(frames):
            held_out = index >= int(len(frames) * 0.7)
            photos.append(LabelledPhoto("webcam", image, image.with_suffix(".txt"), held_out))
    images = sorted((root / "pxl" / "images").glob("*.jpg"))
    held = pxl_held_out(image.stem for image in images)
    for image in images:
        labels = root / "pxl" / "labels" / (image.stem + ".txt")
        photos.append(LabelledPhoto("pxl", image, labels, image.stem in held))
    photos.extend(_aws_photos(root / "aws"))
    for image in sorted((root / "dicebot" / "images").glob("*.jpg")):
        labels = root / "dicebot" / "labels" / (image.stem + ".txt")
        photos.append(LabelledPhoto("dicebot", image, labels,
                                    dicebot_video(image.stem) in DICEBOT_HELD_OUT_VIDEOS))
    unlabelled = real_unlabelled_dir(root)
    if unlabelled is not None:
        for image in sorted((unlabelled / "damiantab").glob("*.jpg")):
            labels = DAMIANTAB_LABELS / (image.stem + ".txt")
            photos.append(LabelledPhoto("damiantab", image, labels,
                                        damiantab_held_out(image.stem)))
    return [p for p in photos if p.labels.is_file()]


def aws_family(stem: str) -> str:
    """The family of an aws file name: ``Image_NNN`` photos, ``IMG_<date>_<time>`` phone
    shots, or the rest (photos gathered one by one)."""
    if re.fullmatch(r"Image_\d+", stem):
        return "Image"
    if re.fullmatch(r"IMG_\d{8}_\d{6}", stem):
        return "IMG"
    return "other"


def _aws_order(stem: str) -> tuple[int, str]:
    digits = re.fullmatch(r"Image_(\d+)", stem)
    return (int(digits.group(1)) if digits else 0, stem)


def _aws_photos(folder: Path) -> list[LabelledPhoto]:
    images = [i for i in (folder / "images").glob("*") if i.suffix.lower() in _IMAGE_SUFFIXES]
    families: dict[str, list[Path]] = {}
    for image in images:
        families.setdefault(aws_family(image.stem), []).append(image)
    photos = []
    for family in sorted(families):
        ordered = sorted(families[family], key=lambda i: _aws_order(i.stem))
        for index, image in enumerate(ordered):
            held_out = (index // AWS_BLOCK) % AWS_HELD_OUT_EVERY == AWS_HELD_OUT_EVERY - 1
            photos.append(LabelledPhoto("aws", image, folder / "labels" / (image.stem + ".txt"),
                                        held_out, folder / "unclear" / (image.stem + ".txt")))
    return sorted(photos, key=lambda p: (aws_family(p.image.stem), _aws_order(p.image.stem)))


def dicebot_video(stem: str) -> str:
    """The video a dicebot frame was cut from (``512_dark_mp4-35`` -> ``512_dark_mp4``)."""
    return stem.rsplit("-", 1)[0]


def iter_photos(
    root: Path | None = None, *, held_out: bool | None = None, source: str | None = None,
    sources: Iterable[str] | None = None, leave_out: Iterable[str] | None = None,
) -> Iterator[LabelledPhoto]:
    """The photos selected by ``held_out``, ``source`` or ``sources`` and ``leave_out``
    (None: all)."""
    wanted = (source,) if source is not None else sources
    yield from select_photos(real_photos(root), sources=wanted, leave_out=leave_out,
                             held_out=held_out)


def photo_crops(photo: LabelledPhoto) -> list[tuple[np.ndarray, int]]:
    """(crop, value) for each labelled die of one photo, cut as the reader sees it."""
    frame = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
    if frame is None:
        raise InputError(f"could not read {photo.image}")
    height, width = frame.shape[:2]
    crops = []
    for value, cx, cy, w, h in photo.boxes(width, height):
        if photo.source == "webcam":
            face = max(max(w, h) / WEBCAM_PATTERN_SHARE, WEBCAM_MIN_CROP_FACE_PX)
            w = h = face
        elif photo.source == "pxl":
            w, h = pxl_face(w, h)
        crops.append((cut_crop(frame, cx, cy, w, h), value))
    return crops


def real_crops(held_out: bool | None = None, source: str | None = None,
               root: Path | None = None, *, leave_out: Iterable[str] | None = None,
               ) -> tuple[list[np.ndarray], np.ndarray, list[str]]:
    """(crops, values, source names) of the photos selected by ``held_out`` (None: all),
    ``source`` (None: every source) and ``leave_out`` (sources to skip)."""
    crops, values, sources = [], [], []
    for photo in iter_photos(root, held_out=held_out, source=source, leave_out=leave_out):
        try:
            cut = photo_crops(photo)
        except InputError as error:  # one broken file (aws holds an empty one) skips its photo
            print(f"skipped: {error}", file=sys.stderr)
            continue
        for crop, value in cut:
            crops.append(crop)
            values.append(value)
            sources.append(photo.source)
    return crops, np.array(values, np.int64), sources
