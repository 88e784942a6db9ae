"""Colour profiles: the names of a dice set's colours and what they look like at a table.

A profile is a small, readable JSON file (format in ``docs/calibration.md``). Built-in
profiles for the four games' dice sets ship with the package and work passably under any
light; a profile fitted from a frame at the user's own table (``dicecam calibrate
colours``, or the tablet) is saved under the profiles folder and is preferred next time.

Every colour is stored as a CIE Lab reference under the profile's white (see
``colourspace``) with a spread per axis. ``white_bgr`` is the linear-light colour of white
at the table when the profile was fitted; None means "unknown: estimate it from each
frame". ``anchor`` names a part of every die whose colour is the same across the set (the
light body of Charidice's numeral dice): the colour stage white-balances each crop by it,
which makes the profile independent of the light.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

from dicecam.errors import InputError
from dicecam.jsoncheck import (
    parse_json,
    reject_unknown_keys,
    require_choice,
    require_int,
    require_list,
    require_number,
    require_object,
    require_str,
)
from dicecam.paths import looks_like_path, profiles_dir, saved_names

FORMAT = "dicecam-colour-profile"
VERSION = 1
BUILTIN_PACKAGE = "dicecam.calibration.builtin"
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


class Marks(StrEnum):
    """What is printed on a die's faces; it decides which part carries the game colour."""

    PIPS = "pips"  # the colour is the body's
    NUMERALS = "numerals"  # the colour is the numeral's


#: How much darker or brighter than its reference a die may look and still be that colour
#: (a factor on linear light). Pip dice lie in shadows and in lamp light; numeral dice are
#: balanced by their own body, so only what the body does not share is left, and black and
#: grey numerals differ by lightness alone. A set with colours that differ only in
#: lightness (black and grey pip dice) needs a narrow range in its profile.
DEFAULT_SHADING = {Marks.PIPS: (0.45, 1.35), Marks.NUMERALS: (0.8, 1.25)}


class AnchorPart(StrEnum):
    BODY = "body"
    MARKS = "marks"


@dataclass(frozen=True)
class ColourRef:
    """One colour of the set: mean Lab and spread (one standard deviation per axis)."""

    name: str
    lab: tuple[float, float, float]
    spread: tuple[float, float, float]
    samples: int = 0  # how many dice the fit saw; 0 for a built-in reference

    def __post_init__(self) -> None:
        if any(s <= 0 for s in self.spread):
            raise ValueError(f"ColourRef {self.name}: spread must be positive, got {self.spread}")


@dataclass(frozen=True)
class Anchor:
    """A part of every die of the set whose colour is known (Lab under daylight)."""

    part: AnchorPart
    lab: tuple[float, float, float]


@dataclass(frozen=True)
class ColourProfile:
    name: str
    marks: Marks
    references: tuple[ColourRef, ...]
    dice_set: str = ""
    description: str = ""
    white_bgr: tuple[float, float, float] | None = None
    anchor: Anchor | None = None
    fitted_at: str | None = None  # ISO time of the fit; None for a built-in profile
    fitted_from: str = ""  # where the calibration frame came from
    shading: tuple[float, float] | None = None  # None: DEFAULT_SHADING[marks]

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(ref.name for ref in self.references)

    @property
    def shading_range(self) -> tuple[float, float]:
        return self.shading if self.shading is not None else DEFAULT_SHADING[self.marks]

    @property
    def fitted(self) -> bool:
        return self.fitted_at is not None

    def reference(self, colour: str) -> ColourRef:
        for ref in self.references:
            if ref.name == colour:
                return ref
        raise InputError(
            f"profile {self.name} has no colour {colour!r}; its colours are "
            f"{', '.join(self.colours)}"
        )

    def with_name(self, name: str) -> ColourProfile:
        check_name(name, "profile name")
        return replace(self, name=name)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "dice_set": self.dice_set or self.name,
            "marks": str(self.marks),
            "description": self.description,
            "white_bgr": None if self.white_bgr is None else [round(v, 5) for v in self.white_bgr],
            "anchor": None
            if self.anchor is None
            else {"part": str(self.anchor.part), "lab": [round(v, 2) for v in self.anchor.lab]},
            "colours": [
                {
                    "name": ref.name,
                    "lab": [round(v, 2) for v in ref.lab],
                    "spread": [round(v, 2) for v in ref.spread],
                    "samples": ref.samples,
                }
                for ref in self.references
            ],
            "fitted_at": self.fitted_at,
            "fitted_from": self.fitted_from,
        }
        if self.shading is not None:
            data["shading"] = [round(v, 3) for v in self.shading]
        return data


def check_name(name: str, what: str) -> str:
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise InputError(
            f"{what} must be 1-64 lowercase letters, digits, '-' or '_' (starting with a "
            f"letter or digit), got {name!r}"
        )
    return name


#: Spread of a colour nobody has measured yet: wide enough that a new profile claims
#: nothing about its colours until it is fitted.
UNMEASURED_SPREAD = (40.0, 60.0, 60.0)


def new_profile(
    name: str, marks: Marks | str, colours: tuple[str, ...] | list[str], description: str = ""
) -> ColourProfile:
    """A profile for a dice set dicecam has never seen: names only, to be fitted.

    Its references sit at mid grey with a very wide spread, so fitting it (which needs a
    base to estimate the table's white against) balances the frame by its dice as a whole,
    like a grey-world white balance, and then measures every colour.
    """
    check_name(name, "profile name")
    marks = Marks(marks)
    if len(colours) < 1 or len(set(colours)) != len(colours):
        raise InputError("a new profile needs one or more colour names, each named once")
    refs = tuple(ColourRef(c, (50.0, 0.0, 0.0), UNMEASURED_SPREAD) for c in colours)
    return ColourProfile(name=name, marks=marks, references=refs, dice_set=name,
                         description=description)


def profile_from_json(data: Any, where: str = "profile") -> ColourProfile:
    """Validate a parsed profile file, naming the bad field in the error."""
    obj = require_object(data, where)
    reject_unknown_keys(
        obj,
        where,
        ("format", "version", "name", "dice_set", "marks", "description", "white_bgr",
         "anchor", "colours", "fitted_at", "fitted_from", "shading"),
    )
    if obj.get("format") != FORMAT:
        raise InputError(f"{where}.format must be {FORMAT!r}; is this a dicecam colour profile?")
    version = require_int(obj.get("version"), f"{where}.version", 1)
    if version > VERSION:
        raise InputError(
            f"{where} has format version {version}, newer than this dicecam ({VERSION}); "
            "update dicecam or fit the profile again"
        )
    name = check_name(require_str(obj.get("name"), f"{where}.name"), f"{where}.name")
    dice_set = require_str(obj.get("dice_set", name), f"{where}.dice_set")
    marks = Marks(require_choice(obj.get("marks"), f"{where}.marks", [m.value for m in Marks]))
    description = require_str(obj.get("description", ""), f"{where}.description", max_len=2000)
    white = obj.get("white_bgr")
    white_bgr = None
    if white is not None:
        items = require_list(white, f"{where}.white_bgr", min_len=3, max_len=3)
        white_bgr = tuple(
            require_number(v, f"{where}.white_bgr[{i}]", 1e-4, 10.0) for i, v in enumerate(items)
        )
    anchor = None
    if obj.get("anchor") is not None:
        a = require_object(obj["anchor"], f"{where}.anchor")
        reject_unknown_keys(a, f"{where}.anchor", ("part", "lab"))
        part = AnchorPart(require_choice(a.get("part"), f"{where}.anchor.part",
                                         [p.value for p in AnchorPart]))
        anchor = Anchor(part, _lab(a.get("lab"), f"{where}.anchor.lab"))
        if (marks, part) not in ((Marks.NUMERALS, AnchorPart.BODY), (Marks.PIPS, AnchorPart.MARKS)):
            raise InputError(
                f"{where}.anchor.part must be the part that does not carry the colour: "
                f"'body' for numeral dice, 'marks' for pip dice"
            )
    colours = require_list(obj.get("colours"), f"{where}.colours", min_len=1, max_len=32)
    refs = []
    seen: set[str] = set()
    for i, item in enumerate(colours):
        w = f"{where}.colours[{i}]"
        c = require_object(item, w)
        reject_unknown_keys(c, w, ("name", "lab", "spread", "samples"))
        cname = require_str(c.get("name"), f"{w}.name", max_len=40)
        if not cname.strip():
            raise InputError(f"{w}.name must not be empty")
        if cname in seen:
            raise InputError(f"{w}.name {cname!r} appears twice; colour names must be unique")
        seen.add(cname)
        spread = require_list(c.get("spread"), f"{w}.spread", min_len=3, max_len=3)
        refs.append(
            ColourRef(
                name=cname,
                lab=_lab(c.get("lab"), f"{w}.lab"),
                spread=tuple(
                    require_number(v, f"{w}.spread[{k}]", 0.1, 100.0) for k, v in enumerate(spread)
                ),
                samples=require_int(c.get("samples", 0), f"{w}.samples", 0),
            )
        )
    shading = None
    if obj.get("shading") is not None:
        items = require_list(obj["shading"], f"{where}.shading", min_len=2, max_len=2)
        lo = require_number(items[0], f"{where}.shading[0]", 0.05, 1.0)
        hi = require_number(items[1], f"{where}.shading[1]", 1.0, 20.0)
        shading = (lo, hi)
    fitted_at = obj.get("fitted_at")
    if fitted_at is not None:
        fitted_at = require_str(fitted_at, f"{where}.fitted_at", max_len=40)
    return ColourProfile(
        name=name,
        marks=marks,
        references=tuple(refs),
        dice_set=dice_set,
        description=description,
        white_bgr=white_bgr,  # type: ignore[arg-type]
        anchor=anchor,
        fitted_at=fitted_at,
        fitted_from=require_str(obj.get("fitted_from", ""), f"{where}.fitted_from", max_len=500),
        shading=shading,
    )


def _lab(value: Any, where: str) -> tuple[float, float, float]:
    items = require_list(value, where, min_len=3, max_len=3)
    return (
        require_number(items[0], f"{where}[0] (L)", 0.0, 100.0),
        require_number(items[1], f"{where}[1] (a)", -128.0, 128.0),
        require_number(items[2], f"{where}[2] (b)", -128.0, 128.0),
    )


def builtin_profile_names() -> tuple[str, ...]:
    folder = resources.files(BUILTIN_PACKAGE)
    return tuple(
        sorted(p.name[: -len(".json")] for p in folder.iterdir() if p.name.endswith(".json"))
    )


def load_builtin_profile(name: str) -> ColourProfile:
    if name not in builtin_profile_names():
        raise InputError(
            f"there is no built-in colour profile {name!r}; built-ins are "
            f"{', '.join(builtin_profile_names())}"
        )
    text = resources.files(BUILTIN_PACKAGE).joinpath(f"{name}.json").read_text("utf-8")
    return profile_from_json(parse_json(text, f"built-in profile {name}"), f"profile {name}")


def saved_profile_names() -> tuple[str, ...]:
    return saved_names(profiles_dir())


def load_profile_file(path: str | os.PathLike[str]) -> ColourProfile:
    p = Path(path).expanduser()
    try:
        text = p.read_text("utf-8")
    except FileNotFoundError:
        raise InputError(f"colour profile file {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read colour profile file {p}: {exc}") from None
    return profile_from_json(parse_json(text, f"colour profile {p}"), f"profile {p.name}")


def load_profile(name_or_path: str | os.PathLike[str]) -> ColourProfile:
    """A profile by file path, or by name: a saved (fitted) one first, else the built-in."""
    if looks_like_path(name_or_path):
        return load_profile_file(name_or_path)
    name = str(name_or_path)
    saved = profiles_dir() / f"{name}.json"
    if _NAME_RE.match(name) and saved.is_file():
        return load_profile_file(saved)
    if name in builtin_profile_names():
        return load_builtin_profile(name)
    known = sorted(set(builtin_profile_names()) | set(saved_profile_names()))
    raise InputError(
        f"there is no colour profile named {name!r}; known profiles are {', '.join(known)} "
        "(or give the path of a profile .json file)"
    )


def save_profile(profile: ColourProfile, path: str | os.PathLike[str] | None = None) -> Path:
    """Write the profile as JSON (to the profiles folder under its name unless ``path``)."""
    if path is None:
        target = profiles_dir() / f"{profile.name}.json"
    else:
        target = Path(path).expanduser()
    # Round-trip through the validator so nothing unreadable is ever written.
    data = profile.to_json()
    profile_from_json(json.loads(json.dumps(data)), f"profile {profile.name}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        raise InputError(f"cannot save colour profile to {target}: {exc}") from None
    return target
