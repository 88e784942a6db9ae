"""What a table keeps of its players' confirmations, and the models it learnt from them.

In the table's folder (``calibration.tables.table_dir``):

* ``dice.jsonl``: one line per example, appended and flushed before anything learns from
  it: ``{"crop", "box": [cx, cy, w, h], "frame": [width, height], "value", "colour",
  "how", "reader_value", "reader_confidence", "reader_version", "time"}``. ``value`` 1-6
  is a die the players confirmed, corrected, added where the camera missed it, or
  labelled from photos (``how``: confirmed, corrected, added, labelled); 0 is a box they
  said is no die (``not_a_die``). ``reader_value`` is what the reader had read (None:
  nothing read), ``reader_version`` which reader that was (None: the shipped one).
* ``dice/NNNNNN.png``: each example's crop, ``reader_learning.STORED_MARGIN`` x its box.
* ``models/reader-vN.onnx`` and ``reader-vN.json`` (its check figures, how many dice it
  learnt from, the seconds): every version is kept.
* ``models/in_use.json``: ``{"reader": "reader-vN"}``, the version the table reads with;
  absent or null, the shipped models. Written by replacing the file whole, so a learner
  killed mid-write leaves the last good choice.

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
from dicecam.teach.reader_learning import SURE, Example

HOWS = ("confirmed", "corrected", "added", "labelled", "not_a_die")
_VERSION = re.compile(r"^reader-v(\d+)$")


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

    @property
    def reader_was_right(self) -> bool | None:
        if self.how in ("added", "labelled"):
            return None
        return self.reader_value == (self.value or None)


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


class TableStore:
    """The examples and learnt models of one table."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.folder = table_dir(name)
        self._next_crop: int | None = None

    # -- examples ----------------------------------------------------------------------------

    @property
    def _log(self) -> Path:
        return self.folder / "dice.jsonl"

    def add(self, crop: np.ndarray, box: tuple[float, float, float, float],
            frame_size: tuple[int, int], value: int, how: str, *, colour: str | None = None,
            reader_value: int | None = None, reader_confidence: float | None = None,
            reader_version: str | None = None) -> None:
        """Keep one confirmed die (value 1-6) or one box that is no die (value 0)."""
        if how not in HOWS:
            raise InputError(f"how a die was taught must be one of {', '.join(HOWS)}")
        if not 0 <= int(value) <= 6 or (value == 0) != (how == "not_a_die"):
            raise InputError(f"a taught die needs a value 1-6 (0 only for not_a_die), "
                             f"got {value}")
        dice = self.folder / "dice"
        dice.mkdir(parents=True, exist_ok=True)
        if self._next_crop is None:
            self._next_crop = sum(1 for _ in dice.glob("*.png")) + 1
        number = self._next_crop
        while (dice / f"{number:06d}.png").exists():
            number += 1
        self._next_crop = number + 1
        crop_file = dice / f"{number:06d}.png"
        if not cv2.imwrite(str(crop_file), crop):
            raise InputError(f"cannot write {crop_file}")
        record = {"crop": f"dice/{crop_file.name}", "box": [round(float(v), 2) for v in box],
                  "frame": list(frame_size), "value": int(value), "colour": colour,
                  "how": how, "reader_value": reader_value,
                  "reader_confidence": None if reader_confidence is None
                  else round(float(reader_confidence), 4), "reader_version": reader_version,
                  "time": round(time.time(), 3)}
        torn = False
        if self._log.is_file() and self._log.stat().st_size:
            with open(self._log, "rb") as handle:
                handle.seek(-1, os.SEEK_END)
                torn = handle.read(1) != b"\n"
        with open(self._log, "a", encoding="utf-8") as handle:
            # a line torn by a kill stays torn (skipped) and never swallows this one
            handle.write(("\n" if torn else "") + json.dumps(record) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def dice(self) -> list[StoredDie]:
        """Every stored example in the order taught (a torn last line is skipped: a
        learner or server killed mid-write loses at most that one die)."""
        if not self._log.is_file():
            return []
        found = []
        for line in self._log.read_text(encoding="utf-8").splitlines():
            try:
                data = json.loads(line)
                found.append(StoredDie(self.folder / data["crop"], tuple(data["box"]),
                                       int(data["value"]), data["how"], data.get("colour"),
                                       data.get("reader_value"),
                                       data.get("reader_confidence"),
                                       data.get("reader_version")))
            except (ValueError, KeyError, TypeError):
                continue
        return found

    def examples(self) -> Iterator[Example]:
        for die in self.dice():
            crop = cv2.imread(str(die.crop_file), cv2.IMREAD_COLOR)
            if crop is not None:
                yield Example(crop, die.value)

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

        return {"table": self.name, "taught": sum(1 for d in dice if d.value),
                "version": version, "asked_shipped": asked(None),
                "asked_now": asked(version) if version is not None else None}

    # -- models ------------------------------------------------------------------------------

    @property
    def models(self) -> Path:
        return self.folder / "models"

    def reader_versions(self) -> list[str]:
        if not self.models.is_dir():
            return []
        found = [(int(m.group(1)), p.stem) for p in self.models.glob("reader-v*.onnx")
                 if (m := _VERSION.match(p.stem))]
        return [name for _, name in sorted(found)]

    def save_reader(self, model_bytes: bytes, card: dict[str, Any], *, use: bool) -> str:
        """Keep a new reader version with its card; make it the one in use if ``use``."""
        name = f"reader-v{len(self.reader_versions()) + 1}"
        while (self.models / f"{name}.onnx").exists():  # a version removed by hand
            name = f"reader-v{int(name.removeprefix('reader-v')) + 1}"
        self.models.mkdir(parents=True, exist_ok=True)
        temporary = self.models / f".{name}.onnx.tmp"
        temporary.write_bytes(model_bytes)
        os.replace(temporary, self.models / f"{name}.onnx")
        _write_atomically(self.models / f"{name}.json", json.dumps(card, indent=1) + "\n")
        if use:
            self.use_reader(name)
        return name

    def use_reader(self, name: str | None) -> None:
        if name is not None and name not in self.reader_versions():
            raise InputError(f"table {self.name} has no reader {name}")
        _write_atomically(self.models / "in_use.json", json.dumps({"reader": name}) + "\n")

    def reader_in_use(self) -> Path | None:
        """The learnt reader this table reads with (None: the shipped one)."""
        try:
            name = json.loads((self.models / "in_use.json").read_text())["reader"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        path = self.models / f"{name}.onnx" if isinstance(name, str) else None
        return path if path is not None and path.is_file() else None

    def reader_card(self, name: str) -> dict[str, Any]:
        try:
            return json.loads((self.models / f"{name}.json").read_text())
        except (OSError, ValueError):
            return {}

    def forget(self) -> None:
        """Go back to the shipped models and drop what was taught (the empty-table
        picture stays)."""
        for part in ("models", "dice"):
            shutil.rmtree(self.folder / part, ignore_errors=True)
        self._log.unlink(missing_ok=True)
