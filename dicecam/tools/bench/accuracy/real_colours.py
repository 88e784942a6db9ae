"""The colour stage on real photos: dice whose body colour was labelled by eye.

For each dice set with several body colours (Dice Party: yellow, orange, red; Dicetopia:
purple, white, turquoise), every real photo's dice labelled with one of the set's colours
are cut as the pipeline cuts them (from their face boxes) and read in one batch per photo
with the set's built-in profile, as a table of only that set's dice would be read: the
batch shares one light. Dice of other colours in the photo are left out (they are not the
game's dice); so are dice labelled unsure. Counted per true colour: right, asked (the
confidence under ``LOW_CONFIDENCE``: the tablet asks) and silent errors (a wrong colour
read with confidence at or above it: scored without asking). Doubtful labels are counted
apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from dicecam.calibration.profile import ColourProfile, load_builtin_profile
from dicecam.errors import InputError
from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.scorer.colour_counts import fit_to_counts
from dicecam.tools.real_colour_labels import colour_label
from dicecam.tools.realdata import LabelledPhoto, pxl_runs, real_photos
from dicecam.vision.colour.fit import ColourSample, fit_profile
from dicecam.vision.colour.reader import ColourReader
from dicecam.vision.read.die_reader import cut_crop
from dicecam.webapp.session.profile_from_play import MIN_DICE_PER_COLOUR, shows_every_colour

#: the sets whose body colours the labels cover
SETS = ("diceparty", "dicetopia")

ReadScores = Callable[[Sequence[np.ndarray]],
                      list[tuple[str | None, float, tuple[tuple[str, float], ...]]]]


@dataclass
class ColourTally:
    """Counts per true colour: dice, right, asked, silent (wrong and sure), doubtful."""

    counts: dict[str, Counter] = field(default_factory=dict)
    confusions: Counter = field(default_factory=Counter)

    def add(self, truth: str, got: str | None, confidence: float, doubtful: bool) -> None:
        row = self.counts.setdefault(truth, Counter())
        row["dice"] += 1
        row["doubtful"] += doubtful
        asked = got is None or confidence < LOW_CONFIDENCE
        row["right"] += got == truth
        row["asked"] += asked
        if got != truth:
            self.confusions[(truth, got, "asked" if asked else "SILENT")] += 1
            if not asked:
                row["silent"] += 1

    def total(self) -> Counter:
        out: Counter = Counter()
        for row in self.counts.values():
            out.update(row)
        return out


def photo_batches(set_colours: Iterable[str], photos: Sequence[LabelledPhoto], *,
                  boxes: list | None = None,
                  ) -> Iterable[tuple[LabelledPhoto, list[np.ndarray], list[tuple[str, bool]]]]:
    """Per photo: the crops of its dice labelled with one of ``set_colours`` and their
    (colour, doubtful) labels (``boxes``, a list, gets each photo's face boxes and the
    photo itself as (image, boxes) beside them)."""
    wanted = set(set_colours)
    for photo in photos:
        # colour labels name a die by its label line; the dice are the lines that are dice
        found = [(at, label) for at, line in enumerate(photo.die_lines())
                 if (label := colour_label(photo.source, photo.image.name, line)) is not None
                 and label.colour in wanted]
        if not found:
            continue
        image = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
        if image is None:
            continue
        dice = photo.dice(image.shape[1], image.shape[0])
        crops, truth, faces = [], [], []
        for i, label in found:
            if i >= len(dice):
                continue
            d = dice[i]
            crops.append(cut_crop(image, d.cx, d.cy, d.w, d.h))
            truth.append((label.colour, label.doubtful))
            faces.append((d.cx, d.cy, d.w, d.h))
        if crops:
            if boxes is not None:
                boxes.append((image, faces))
            yield photo, crops, truth


def colour_check(set_name: str, photos: Sequence[LabelledPhoto] | None = None,
                 read: ReadScores | None = None, profile: ColourProfile | None = None,
                 *, with_counts: bool = False) -> ColourTally:
    """Read the real labelled dice of one set (built-in profile unless given).

    ``with_counts``: as the game would, knowing how many dice of each colour the throw
    holds (each photo's dice of the set taken as one throw of a known party) and deciding
    the colours together with ``fit_to_counts``."""
    profile = profile or load_builtin_profile(set_name)
    read = read or ColourReader(profile).read_scores
    tally = ColourTally()
    for _, crops, truth in photo_batches(profile.colours, photos or real_photos()):
        dice = [DieReading(1.0, 1.0, 1.0, 1.0, None, got, conf, colour_confidence=conf,
                           colour_scores=scores) for got, conf, scores in read(crops)]
        if with_counts:
            counts = dict.fromkeys(profile.colours, 0) | Counter(c for c, _ in truth)
            dice = list(fit_to_counts(dice, counts) or dice)
        for (colour, doubtful), d in zip(truth, dice, strict=True):
            tally.add(colour, d.colour, d.colour_confidence, doubtful)
    return tally


def table_runs(photos: Sequence[LabelledPhoto]) -> list[list[LabelledPhoto]]:
    """The photos grouped by table: a byler run of ten shots, a pxl run of one tray
    (the webcam dice are all white, so no set's colours are labelled there)."""
    byler = [p for p in photos if p.source == "byler"]
    runs = [byler[i:i + 10] for i in range(0, len(byler), 10)]
    pxl = {p.image.stem: p for p in photos if p.source == "pxl"}
    runs += [[pxl[name] for name in run] for run in pxl_runs(sorted(pxl))]
    return [run for run in runs if run]


def fitted_from_play_check(set_name: str, photos: Sequence[LabelledPhoto] | None = None,
                           min_per_colour: int = MIN_DICE_PER_COLOUR,
                           ) -> tuple[ColourTally, ColourTally, int]:
    """What fitting from the first confirmed roll does at a table (``webapp``'s
    ``ProfileFromPlay``): in each table run, the first photo whose dice of the set show
    every colour (``min_per_colour`` dice of each at least) is taken as that roll (its
    labelled colours as the players confirmed them) and fitted; the run's *other* photos
    are then read with the built-in profile and with the fitted one. Returns (built-in,
    fitted, tables fitted); runs where no photo shows every colour, or the fit is
    refused, are left out of both."""
    base = load_builtin_profile(set_name)
    plain, fitted, tables = ColourTally(), ColourTally(), 0
    plain_read = ColourReader(base).read_scores
    for run in table_runs(photos or real_photos()):
        boxes: list = []
        batches = list(photo_batches(base.colours, run, boxes=boxes))
        first = next((k for k, (_, _, truth) in enumerate(batches)
                      if shows_every_colour([c for c, _ in truth], base.colours,
                                            min_per_colour)), None)
        if first is None:
            continue
        image, faces = boxes[first]
        samples = [ColourSample(box, colour)
                   for box, (colour, _) in zip(faces, batches[first][2], strict=True)]
        try:
            profile = fit_profile(image, samples, base, crops=batches[first][1])
        except InputError:
            continue
        tables += 1
        fitted_read = ColourReader(profile).read_scores
        for k, (_, crops, truth) in enumerate(batches):
            if k == first:
                continue
            for tally, read in ((plain, plain_read), (fitted, fitted_read)):
                for (colour, doubtful), (got, conf, _) in zip(truth, read(crops),
                                                              strict=True):
                    tally.add(colour, got, conf, doubtful)
    return plain, fitted, tables


#: the sets whose throws the game knows the colour counts of
COUNTED_SETS = ("diceparty",)


def print_colour_check(sets: Sequence[str] = SETS) -> dict[str, ColourTally]:
    """The real-photo colour table (what ``dicecam bench calibration`` prints)."""
    print("colour on real photos (body colours labelled by eye, built-in profile, no "
          "calibration; one batch per photo of that set's dice; 'counted': with the game's "
          "colour counts)")
    print(f"{'set':18s} {'colour':10s} {'dice':>5s} {'right':>8s} {'asked':>8s} "
          f"{'silent':>7s} {'doubtful labels':>16s}")
    out = {}
    runs = [(s, False) for s in sets] + [(s, True) for s in sets if s in COUNTED_SETS]
    for set_name, counted in runs:
        tally = colour_check(set_name, with_counts=counted)
        label = f"{set_name} counted" if counted else set_name
        out[label] = tally
        set_name = label
        for colour, row in sorted(tally.counts.items()):
            print(f"{set_name:18s} {colour:10s} {row['dice']:5d} "
                  f"{_pct(row['right'], row['dice']):>8s} {_pct(row['asked'], row['dice']):>8s} "
                  f"{row['silent']:7d} {row['doubtful']:16d}")
        total = tally.total()
        print(f"{set_name:18s} {'all':10s} {total['dice']:5d} "
              f"{_pct(total['right'], total['dice']):>8s} "
              f"{_pct(total['asked'], total['dice']):>8s} {total['silent']:7d}")
        worst = ", ".join(f"{t}->{g} {kind} {n}" for (t, g, kind), n in
                          tally.confusions.most_common(5)) or "-"
        print(f"{'':18s} mistakes: {worst}")
    print("fitted from play: per table (a run of shots), the first photo showing every "
          "colour fitted as a confirmed roll; the run's other photos read")
    print(f"(the live view fits from a roll with {MIN_DICE_PER_COLOUR} dice of each colour "
          "or more; the real photos rarely show that many, so fewer are tried here too)")
    for set_name in sets:
        for least in range(1, MIN_DICE_PER_COLOUR + 1):
            plain, fitted, tables = fitted_from_play_check(set_name, min_per_colour=least)
            for label, tally in (("built-in", plain), ("fitted", fitted)):
                total = tally.total()
                print(f"{set_name:12s} {least} a colour {label:9s} {tables:3d} tables "
                      f"{total['dice']:5d} dice  right "
                      f"{_pct(total['right'], total['dice']):>7s}  asked "
                      f"{_pct(total['asked'], total['dice']):>7s}  silent {total['silent']}")
                out[f"{set_name} from play ({least} a colour) {label}"] = tally
    return out


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f}%" if d else "-"
