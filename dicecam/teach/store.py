"""What a table keeps of its players' confirmations, and the models it learnt from them.

In the table's folder (``calibration.tables.table_dir``):

* ``dice.jsonl``: one line per example, appended and flushed before anything learns from
  it: ``{"crop", "box": [cx, cy, w, h], "frame": [width, height], "value", "colour",
  "how", "reader_value", "reader_confidence", "reader_version", "roll", "time"}``. ``value`` 1-6
  is a die the players confirmed, corrected, added where the camera missed it, or
  labelled from photos (``how``: confirmed, corrected, added, labelled); 0 is a box they
  said is no die (``not_a_die``). ``reader_value`` is what the reader had read (None:
  nothing read), ``reader_version`` which reader that was (None: the shipped one);
  ``roll`` names the roll or photo it was taught in (its dice are held back together).
* ``dice/NNNNNN.png``: each example's crop, ``learn.reader.STORED_MARGIN`` x its box.
* ``frames.jsonl`` and ``frames/NNNNNN.jpg``: the frames those dice were taught in, with
  every taught box of the frame (``dice``, ``not_dice``: [cx, cy, w, h] in its pixels),
  whether every die in it is known (``complete``: a roll the players accepted, a labelled
  photo), which the detector learns from, and where known the dice's ``values`` and the
  ``roll`` (frames kept before 2026-12-07 have neither): a whole held-back frame is read
  by the taught table's pipeline to check a learning end to end (``teach.table_check``).
* ``reads.json``: how many dice the table read in settled rolls and how many of them it
  asked about, per reader version (``"shipped"``, ``"reader-v3"``): what the tablet says
  the table asks, over every die it read, not only the dice the players looked at.
* ``models/reader-vN.onnx``, ``detector-vN.onnx`` and their ``.json`` cards (check
  figures, how much they learnt from, the seconds): every version is kept.
* ``models/in_use.json``: which versions the table reads with, e.g. ``{"reader":
  "reader-v3", "detector": "detector-v2"}``; absent or null, the shipped model. Written
  by replacing the file whole, so a learner killed mid-write leaves the last good choice.

Nothing here learns: ``teach.learner`` does, and only from what is stored here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from dicecam.calibration.tables import table_dir
from dicecam.errors import InputError
from dicecam.teach.learn.reader import SURE, Example
from dicecam.vision.detect.side_faces import SideFaceZone

HOWS = ("confirmed", "corrected", "added", "labelled", "not_a_die")
#: the models a table learns, each kept as KIND-vN.onnx
KINDS = ("reader", "detector")
_VERSION = re.compile(r"^(reader|detector)-v(\d+)$")


@dataclass(frozen=True)
class StoredFrame:
    """One taught frame (its picture is read on demand)."""

    file: Path
    dice: tuple[tuple[float, float, float, float], ...]
    not_dice: tuple[tuple[float, float, float, float], ...]
    complete: bool
    #: the value of each of ``dice``, where kept
    values: tuple[int, ...] | None = None
    roll: str | None = None

    def read(self) -> np.ndarray | None:
        return cv2.imread(str(self.file), cv2.IMREAD_COLOR)


@dataclass(frozen=True)
class StoredDie:
    """One example as stored (its crop is read on demand)."""

    crop_file: Path
    box: tuple[float, float, float, float]
    value: int
    how: str
    colour: str | None = None
    reader_value: int | None = None
    reader_confidence: float | None = None
    reader_version: str | None = None
    roll: str | None = None

    @property
    def reader_was_right(self) -> bool | None:
        if self.how in ("added", "labelled"):
            return None
        return self.reader_value == (self.value or None)


def _append_line(path: Path, line: str) -> None:
    """One JSON line, flushed to disk; a line torn by a kill stays torn (and is skipped
    by ``_read_lines``) but never swallows the next one."""
    torn = False
    if path.is_file() and path.stat().st_size:
        with open(path, "rb") as handle:
            handle.seek(-1, os.SEEK_END)
            torn = handle.read(1) != b"\n"
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(("\n" if torn else "") + line + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def _read_lines(path: Path) -> Iterator[dict[str, Any]]:
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            yield data


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


#: the key of the shipped reader's figures in ``reads.json``
SHIPPED_READS = "shipped"


class TableStore:
    """The examples and learnt models of one table."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.folder = table_dir(name)
        self._next: dict[Path, int] = {}  # folder -> the next free file number

    # -- examples ----------------------------------------------------------------------------

    @property
    def _log(self) -> Path:
        return self.folder / "dice.jsonl"

    def add(self, crop: np.ndarray, box: tuple[float, float, float, float],
            frame_size: tuple[int, int], value: int, how: str, *, colour: str | None = None,
            reader_value: int | None = None, reader_confidence: float | None = None,
            reader_version: str | None = None, roll: str | None = None) -> None:
        """Keep one confirmed die (value 1-6) or one box that is no die (value 0)."""
        if how not in HOWS:
            raise InputError(f"how a die was taught must be one of {', '.join(HOWS)}")
        if not 0 <= int(value) <= 6 or (value == 0) != (how == "not_a_die"):
            raise InputError(f"a taught die needs a value 1-6 (0 only for not_a_die), "
                             f"got {value}")
        dice = self.folder / "dice"
        dice.mkdir(parents=True, exist_ok=True)
        crop_file = self._new_file(dice, ".png")
        if not cv2.imwrite(str(crop_file), crop):
            raise InputError(f"cannot write {crop_file}")
        record = {"crop": f"dice/{crop_file.name}", "box": [round(float(v), 2) for v in box],
                  "frame": list(frame_size), "value": int(value), "colour": colour,
                  "how": how, "reader_value": reader_value,
                  "reader_confidence": None if reader_confidence is None
                  else round(float(reader_confidence), 4), "reader_version": reader_version,
                  "roll": roll, "time": round(time.time(), 3)}
        _append_line(self._log, json.dumps(record))

    def _new_file(self, folder: Path, suffix: str) -> Path:
        """The next unused NNNNNN file name in ``folder`` (counted once per store)."""
        number = self._next.get(folder) or sum(1 for _ in folder.glob(f"*{suffix}")) + 1
        while (folder / f"{number:06d}{suffix}").exists():
            number += 1
        self._next[folder] = number + 1
        return folder / f"{number:06d}{suffix}"

    def dice(self) -> list[StoredDie]:
        """Every stored example in the order taught (a torn last line is skipped: a
        learner or server killed mid-write loses at most that one die). A die taught again
        in the same roll (confirmed, then corrected; or struck, then given a value) counts
        once, as the players said last: the log keeps both, the learning sees the last."""
        found: dict[Any, StoredDie] = {}
        for index, data in enumerate(_read_lines(self._log)):
            try:
                die = StoredDie(self.folder / data["crop"], tuple(data["box"]),
                                int(data["value"]), data["how"], data.get("colour"),
                                data.get("reader_value"), data.get("reader_confidence"),
                                data.get("reader_version"), data.get("roll"))
                key = (index if die.roll is None
                       else (die.roll, round(float(die.box[0])), round(float(die.box[1]))))
            except (ValueError, KeyError, TypeError, IndexError):
                continue
            found.pop(key, None)  # the later word goes where it was said, in order
            found[key] = die
        return list(found.values())

    def add_frame(self, frame: np.ndarray, dice: list[tuple[float, float, float, float]],
                  not_dice: list[tuple[float, float, float, float]], *, complete: bool,
                  values: list[int] | None = None, roll: str | None = None) -> None:
        """Keep a frame in which dice were taught, with all of its taught boxes (and each
        die's value and the roll's name, where given)."""
        if values is not None and len(values) != len(dice):
            raise ValueError(f"{len(values)} values for {len(dice)} dice")
        folder = self.folder / "frames"
        folder.mkdir(parents=True, exist_ok=True)
        path = self._new_file(folder, ".jpg")
        if not cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 92]):
            raise InputError(f"cannot write {path}")
        record = {"frame": f"frames/{path.name}", "complete": bool(complete),
                  "dice": [[round(float(v), 2) for v in box] for box in dice],
                  "not_dice": [[round(float(v), 2) for v in box] for box in not_dice],
                  "time": round(time.time(), 3)}
        if values is not None:
            record["values"] = [int(v) for v in values]
        if roll is not None:
            record["roll"] = roll
        _append_line(self.folder / "frames.jsonl", json.dumps(record))

    def frames(self) -> list[StoredFrame]:
        found = []
        for data in _read_lines(self.folder / "frames.jsonl"):
            try:
                values = data.get("values")
                dice = tuple(tuple(b) for b in data["dice"])
                if values is not None and len(values) != len(dice):
                    values = None  # a hand-edited line: the frame without its values
                found.append(StoredFrame(self.folder / data["frame"], dice,
                                         tuple(tuple(b) for b in data["not_dice"]),
                                         bool(data["complete"]),
                                         None if values is None else tuple(map(int, values)),
                                         data.get("roll")))
            except (KeyError, TypeError, ValueError):
                continue
        return found

    def examples(self) -> Iterator[Example]:
        for die in self.dice():
            crop = cv2.imread(str(die.crop_file), cv2.IMREAD_COLOR)
            if crop is not None:
                yield Example(crop, die.value, die.roll)

    def counts(self) -> dict[str, int]:
        dice = self.dice()
        return {"dice": sum(1 for d in dice if d.value), "not_a_die": sum(
            1 for d in dice if not d.value)}

    def status(self) -> dict[str, Any]:
        """What the tablet says of the table's learning: dice taught, the reader in use,
        and the share of confirmed dice it had asked about, with the shipped reader and
        with the version in use (None where no die was read by it yet)."""
        dice = self.dice()
        in_use = self.reader_in_use()
        version = in_use.stem if in_use is not None else None

        def asked(by: str | None) -> float | None:
            read = [d for d in dice if d.how in ("confirmed", "corrected")
                    and d.reader_version == by and d.reader_confidence is not None]
            if not read:
                return None
            return round(sum(d.reader_confidence < SURE for d in read) / len(read), 4)

        reads = self.reads()
        return {"table": self.name, "taught": sum(1 for d in dice if d.value),
                "version": version, "asked_shipped": asked(None),
                "asked_now": asked(version) if version is not None else None,
                # over every die read in a settled roll: (dice read, dice asked)
                "read_shipped": reads.get(SHIPPED_READS),
                "read_now": reads.get(version) if version is not None else None}

    def count_read(self, version: str | None, read: int, asked: int) -> None:
        """A settled roll of ``read`` dice, ``asked`` of them asked about, read by reader
        ``version`` (None: the shipped one)."""
        if read <= 0:
            return
        reads = self.reads()
        key = SHIPPED_READS if version is None else version
        before = reads.get(key, [0, 0])
        reads[key] = [before[0] + read, before[1] + asked]
        self.folder.mkdir(parents=True, exist_ok=True)
        _write_atomically(self.folder / "reads.json", json.dumps(reads) + "\n")

    def reads(self) -> dict[str, list[int]]:
        """Per reader version: [dice read in settled rolls, dice asked about]."""
        try:
            data = json.loads((self.folder / "reads.json").read_text())
        except (OSError, ValueError):
            return {}
        return {k: [int(v[0]), int(v[1])] for k, v in data.items()
                if isinstance(v, list) and len(v) == 2} if isinstance(data, dict) else {}

    # -- models ------------------------------------------------------------------------------

    @property
    def models(self) -> Path:
        return self.folder / "models"

    def versions(self, kind: str = "reader") -> list[str]:
        """The kept versions of one model (``KINDS``), oldest first."""
        if not self.models.is_dir():
            return []
        found = [(int(m.group(2)), p.stem) for p in self.models.glob(f"{kind}-v*.onnx")
                 if (m := _VERSION.match(p.stem)) and m.group(1) == kind]
        return [name for _, name in sorted(found)]

    def save_model(self, kind: str, model_bytes: bytes, card: dict[str, Any], *,
                   use: bool) -> str:
        """Keep a new version of one model with its card; make it the one in use if
        ``use``. The file is complete before it has a name a reader would look for."""
        if kind not in KINDS:
            raise InputError(f"a table learns {' and '.join(KINDS)}, not {kind}")
        number = len(self.versions(kind)) + 1
        while (self.models / f"{kind}-v{number}.onnx").exists():  # one removed by hand
            number += 1
        name = f"{kind}-v{number}"
        self.models.mkdir(parents=True, exist_ok=True)
        temporary = self.models / f".{name}.onnx.tmp"
        temporary.write_bytes(model_bytes)
        os.replace(temporary, self.models / f"{name}.onnx")
        _write_atomically(self.models / f"{name}.json", json.dumps(card, indent=1) + "\n")
        if use:
            self.use(kind, name)
        return name

    def _choices(self) -> dict[str, Any]:
        try:
            data = json.loads((self.models / "in_use.json").read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def use(self, kind: str, name: str | None) -> None:
        """Read with version ``name`` of one model from now on (None: the shipped one)."""
        if name is not None and name not in self.versions(kind):
            raise InputError(f"table {self.name} has no {kind} {name}")
        choices = {k: v for k, v in self._choices().items() if k in KINDS}
        choices[kind] = name
        _write_atomically(self.models / "in_use.json", json.dumps(choices) + "\n")

    def in_use(self, kind: str = "reader") -> Path | None:
        """The learnt model of this kind the table reads with (None: the shipped one)."""
        name = self._choices().get(kind)
        path = self.models / f"{name}.onnx" if isinstance(name, str) else None
        return path if path is not None and path.is_file() else None

    def card(self, name: str) -> dict[str, Any]:
        try:
            return json.loads((self.models / f"{name}.json").read_text())
        except (OSError, ValueError):
            return {}

    def save_side_faces(self, zone: SideFaceZone | None, figures: dict[str, Any]) -> None:
        """Keep where the last learning found the table's side faces (None: nowhere)."""
        self.models.mkdir(parents=True, exist_ok=True)
        _write_atomically(self.models / "side_faces.json", json.dumps(
            {"zone": None if zone is None else zone.to_json(), "figures": figures},
            indent=1) + "\n")

    def side_faces(self) -> SideFaceZone | None:
        """Where the table's side faces lie, as its last learning found (None: nowhere,
        or not learnt)."""
        try:
            data = json.loads((self.models / "side_faces.json").read_text())
        except (OSError, ValueError):
            return None
        zone = data.get("zone") if isinstance(data, dict) else None
        return None if zone is None else SideFaceZone.from_json(zone)

    # the reader's, by name (the reader was the first model a table learnt)
    def reader_versions(self) -> list[str]:
        return self.versions("reader")

    def save_reader(self, model_bytes: bytes, card: dict[str, Any], *, use: bool) -> str:
        return self.save_model("reader", model_bytes, card, use=use)

    def use_reader(self, name: str | None) -> None:
        self.use("reader", name)

    def reader_in_use(self) -> Path | None:
        return self.in_use("reader")

    def reader_card(self, name: str) -> dict[str, Any]:
        return self.card(name)

    def forget(self) -> None:
        """Go back to the shipped models and drop what was taught (the empty-table
        picture stays)."""
        for part in ("models", "dice", "frames"):
            shutil.rmtree(self.folder / part, ignore_errors=True)
        self._log.unlink(missing_ok=True)
        (self.folder / "frames.jsonl").unlink(missing_ok=True)
        (self.folder / "reads.json").unlink(missing_ok=True)
        self._next.clear()
