"""Fit a colour profile from one frame in which the user shows dice of known colours.

The colour stage run backwards, so it lives beside it in ``vision``; the profile it makes
is calibration's data (``dicecam.calibration.profile``).

The flow (command line and tablet alike): show the user ``instructions(profile)``, take a
frame, find the dice (the detector's boxes, or boxes the user tapped), say which colour
each box is (``samples_by_columns`` when the user laid the dice out as told), then
``fit_profile``. The result keeps the base profile's colour names and replaces what they
look like: the table's white and each colour's Lab mean and spread.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import numpy as np

from dicecam.calibration.colourspace import linear_to_lab
from dicecam.calibration.profile import ColourProfile, ColourRef, Marks
from dicecam.errors import InputError
from dicecam.vision.colour.reader import ColourReader, die_parts, marks_polarity
from dicecam.vision.read.die_reader import cut_crop

#: How many dice of each colour the user is asked for (Charidice has six dice in all, so
#: one of each numeral colour).
DICE_PER_COLOUR = {Marks.PIPS: 3, Marks.NUMERALS: 1}
#: Smallest spread a fitted colour gets (Lab units: L, a, b). A few dice cannot show the
#: whole variation of light across a table; these floors are roughly what a die's own
#: shading, glare and camera noise add.
MIN_SPREAD = (4.0, 3.0, 3.0)
#: Extra allowance on top of the measured spread: the dice read later lie elsewhere on the
#: table, where light differs a little from where the calibration dice lay.
SPREAD_SCALE = 1.5
#: Share of the base profile's spread a fitted colour keeps (see ``fit_profile``).
BASE_SPREAD_SHARE = 0.6
#: The most of a base spread that share is taken of (a built-in profile's allowance).
MAX_BASE_SPREAD = (12.0, 10.0, 12.0)
#: Fitted colours closer than this (in spreads) cannot be told apart: refuse the fit.
MIN_SEPARATION = 2.5

_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

Box = tuple[float, float, float, float]  # cx, cy, w, h in frame pixels


@dataclass(frozen=True)
class ColourSample:
    """One die in the calibration frame: its top-face box and the colour it must be."""

    box: Box
    colour: str


def instructions(profile: ColourProfile, per_colour: int | None = None) -> str:
    """The sentence the user reads before the calibration frame is taken."""
    n = per_colour or DICE_PER_COLOUR[profile.marks]
    count = _NUMBER_WORDS.get(n, str(n))
    names = list(profile.colours)
    if profile.marks == Marks.NUMERALS:
        order = _join(names)
        return (
            f"Turn {count if n > 1 else 'one'} die for each colour so that its top numeral "
            f"shows that colour ({order}), and lay them in one row from left to right in "
            f"this order, {names[0]} on the left. Keep the dice apart and in the same light "
            "as when you play."
        )
    listing = _join([f"{count} {name}" for name in names])
    return (
        f"Place {listing} dice in columns from left to right: {names[0]} on the left, "
        f"{names[-1]} on the right. Keep the dice apart and in the same light as when you play."
    )


def _join(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def samples_by_columns(boxes: Sequence[Box], colours: Sequence[str]) -> list[ColourSample]:
    """Label dice laid out in colour columns from left to right, as ``instructions`` asks.

    The boxes are sorted by x and split into equal groups, one per colour in order.
    """
    if not colours:
        raise InputError("the profile names no colours to calibrate")
    if len(boxes) < len(colours) or len(boxes) % len(colours):
        raise InputError(
            f"found {len(boxes)} dice, but {len(colours)} colours need the same number of "
            f"dice each ({_join(list(colours))}); lay them out as the instructions say and "
            "try again"
        )
    per = len(boxes) // len(colours)
    ordered = sorted(boxes, key=lambda b: b[0])
    samples = []
    for k, colour in enumerate(colours):
        group = ordered[k * per : (k + 1) * per]
        samples.extend(ColourSample(tuple(map(float, box)), colour) for box in group)
    return samples


def fit_profile(
    frame_bgr: np.ndarray,
    samples: Sequence[ColourSample],
    base: ColourProfile,
    *,
    name: str | None = None,
    source: str = "",
    crops: Sequence[np.ndarray] | None = None,
) -> ColourProfile:
    """A profile for this table from dice of known colours in ``frame_bgr``.

    ``base`` gives the colour names (and, for sets without an anchor, the colours the
    table's white is estimated against). ``crops`` may pass the crops already cut by the
    pipeline for the same boxes, so that fitting and reading see identical pixels.
    """
    if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise InputError("the calibration frame must be a colour image")
    if not samples:
        raise InputError("no dice were given to calibrate from; " + instructions(base))
    known = set(base.colours)
    for s in samples:
        if s.colour not in known:
            raise InputError(
                f"colour {s.colour!r} is not in profile {base.name} "
                f"({_join(list(base.colours))})"
            )
    missing = [c for c in base.colours if all(s.colour != c for s in samples)]
    if missing:
        raise InputError(
            f"no {_join(missing)} die was shown; every colour needs at least one. "
            + instructions(base)
        )
    if crops is None:
        crops = [cut_crop(frame_bgr, *s.box) for s in samples]
    if len(crops) != len(samples):
        raise InputError(f"got {len(crops)} crops for {len(samples)} dice")

    reader = ColourReader(replace(base, white_bgr=None))
    colour_lin = []
    for s, crop in zip(samples, crops, strict=True):
        parts = die_parts(crop, dark_marks=marks_polarity(base))
        part = None if parts is None else (
            parts.marks if base.marks == Marks.NUMERALS else parts.body)
        if part is None:
            raise InputError(
                f"the {s.colour} die at x={s.box[0]:.0f}, y={s.box[1]:.0f} shows no "
                + ("numeral" if base.marks == Marks.NUMERALS else "body colour")
                + "; check that the box is on a die with its top face up"
            )
        colour_lin.append(part)
    colour_lin_arr = np.array(colour_lin)

    white = None
    if base.anchor is None:
        # The table's white: the light under which the labelled dice best match the base
        # profile's colours. It is stored, and reading uses it instead of guessing.
        white = _labelled_white(reader, colour_lin_arr, [s.colour for s in samples])
        labs = linear_to_lab(colour_lin_arr, white)
    else:
        labs, _ok = reader.features(list(crops))

    refs = []
    for ref in base.references:
        mine = labs[[i for i, s in enumerate(samples) if s.colour == ref.name]]
        # a new set's unmeasured references claim no spread; allow what a built-in does
        base_spread = np.minimum(ref.spread, MAX_BASE_SPREAD)
        mean, std = _robust_centre(mine)
        # A few dice show where a colour sits at this table far better than how much it
        # varies, so the spread keeps part of the base profile's allowance.
        spread = np.maximum(
            np.sqrt((std * SPREAD_SCALE) ** 2 + (BASE_SPREAD_SHARE * base_spread) ** 2),
            MIN_SPREAD,
        )
        refs.append(
            ColourRef(
                ref.name,
                tuple(float(v) for v in np.clip(mean, [0, -128, -128], [100, 128, 128])),
                tuple(float(v) for v in spread),
                samples=len(mine),
            )
        )
    _check_separation(refs)
    return replace(
        base,
        name=name or base.name,
        dice_set=base.dice_set or base.name,
        references=tuple(refs),
        white_bgr=None if white is None else tuple(float(v) for v in white),
        fitted_at=datetime.now(UTC).isoformat(timespec="seconds"),
        fitted_from=source,
    )


def _robust_centre(labs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Median and a robust standard deviation (from the median absolute deviation).

    One die of a column caught in glare or shadow, or lying in the wrong column, must not
    stretch its colour over its neighbours'.
    """
    if len(labs) >= 3:
        centre = np.median(labs, axis=0)
        return centre, 1.4826 * np.median(np.abs(labs - centre), axis=0)
    if len(labs) == 2:
        return labs.mean(axis=0), np.abs(labs[0] - labs[1]) / 2
    return labs[0], np.zeros(3)


def _labelled_white(reader, colours_linear: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """The candidate light under which each die looks most like its own colour."""
    cands = reader.candidate_whites
    labs = linear_to_lab(colours_linear[None, :, :], cands[:, None, :])
    d2 = reader.distances(labs.reshape(-1, 3), shading=False).reshape(
        len(cands), len(colours_linear), -1)
    index = [reader.profile.colours.index(c) for c in labels]
    own = d2[:, np.arange(len(labels)), index]
    return cands[int(np.argmin(own.sum(axis=1)))]


def _check_separation(refs: Sequence[ColourRef]) -> None:
    for i, a in enumerate(refs):
        for b in refs[i + 1 :]:
            spread = np.sqrt((np.square(a.spread) + np.square(b.spread)) / 2)
            gap = float(np.linalg.norm((np.array(a.lab) - np.array(b.lab)) / spread))
            if gap < MIN_SEPARATION:
                raise InputError(
                    f"{a.name} and {b.name} look almost the same in this frame; check that "
                    "the dice lie in the right columns and that the light is not too dim, "
                    "then calibrate again"
                )
