"""Body colours of the real development photos' dice, labelled by eye.

``real_colour_labels.json`` (beside this module; the photos themselves stay out of the
repository) holds one entry per labelled die of the byler and pxl sources, keyed by source,
image file name and the die's line in its label file; every webcam die is white with black
pips. Fields: ``colour`` (yellow, lime, orange, red, pink, purple, blue, turquoise, green,
white, black, grey, brown, marbled, clear or unsure), ``translucent``, ``pips``, and where
they apply ``hue`` (a marbled die's main hue), ``shade``, ``conf: "low"`` (a doubtful
label), ``cand`` (the candidates of an unsure one) and ``appears`` (the colour a strong
cast gives the die in that photo; ``colour`` stays the die's own). The file's ``note``
says how the labels were made.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

LABELS = Path(__file__).with_name("real_colour_labels.json")


@dataclass(frozen=True)
class ColourLabel:
    colour: str
    translucent: bool
    pips: str | None = None
    #: a best guess the labeller doubted (tiny, blurred, strong colour cast, dense pile)
    doubtful: bool = False
    #: what a strong colour cast makes the die look like in this photo, if it does
    appears: str | None = None


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[tuple[str, str, int], ColourLabel], dict[str, ColourLabel]]:
    data = json.loads(LABELS.read_text(encoding="utf-8"))
    dice = {
        (d["source"], d["image"], int(d["index"])): ColourLabel(
            d["colour"], bool(d.get("translucent", False)), d.get("pips"),
            d.get("conf") == "low", d.get("appears"))
        for d in data["dice"]
    }
    whole = {source: ColourLabel(v["colour"], bool(v.get("translucent", False)), v.get("pips"))
             for source, v in data.get("whole_sources", {}).items()}
    return dice, whole


def colour_label(source: str, image: str, index: int) -> ColourLabel | None:
    """The label of the ``index``-th die (its line in the label file) of a photo, if any."""
    dice, whole = _table()
    return dice.get((source, image, index)) or whole.get(source)
