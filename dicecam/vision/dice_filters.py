"""Rules over one frame's dice (``DieReading`` lists and ``Detections``), each a plain
function the table reader (``pipeline.TablePipeline``) applies in turn: dice do not overlap
(``one_box_per_die``, ``without_parts_of_larger_dice``), one table's dice are one size
under one camera (``split_specks``, ``without_too_small_to_read``), a texture's hundreds
of boxes are no dice (``split_specks``, ``asked_on_a_texture``), a die's pips seen without
the die are read again as that die (``dice_boxes_from_specks``), and a box the detector
was less sure of is asked, not guessed (``asked_where_doubtful``).

Each rule's line was measured on every real source and the rendered tables; the figures
are in docs/experiments/2026-12-08-table-reader-lines.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from dicecam.reading import LOW_CONFIDENCE, DieReading
from dicecam.vision.detect.detector import SAME_DIE_SHARE, Detections
from dicecam.vision.detect.side_faces import ASKED

#: A box the detector scored under this is dropped where the reader too finds no die in
#: it (two independent models agreeing); above it an unreadable box stays, to be tapped.
VETO_BELOW_SCORE = 0.8
#: A die whose box side is under this share of another's, its centre inside that box, is a
#: pip or side face of that die: dice do not lie on top of each other. Only a die read at
#: least as surely swallows one (a large unsure box over a cluster swallows none).
PART_OF_DIE_SHARE = 0.6
#: A box read unsure whose side is under this share of the median side of the dice read
#: surely beside it is no die (a key, a token, a knot, a dark die's pip): one table's dice
#: are one size under one camera, a tilted camera's far dice still over half its near ones'.
SMALL_BOX_SHARE = 0.3
#: ...counted where at least this many dice of the frame are read surely: a die read surely
#: is a die of the table's size.
SIZE_REFERENCE_DICE = 1
#: The smallest die the table reader reads, a share of the frame's long side: 12 px at
#: 1080p. A box under it read unsure is dropped, not asked; one read sure is kept.
MIN_DIE_SHARE = 12 / 1920
#: More unsure boxes than this (the largest party, Dice Party's 60, and half as many false
#: boxes again) with few read surely are a texture, every one of them a speck.
TEXTURE_BOXES = 90
#: ...where the dice read surely are fewer than this share of those boxes: a carpet's flecks
#: stay a texture beside the few of them read sure; a real party read surely is not.
TEXTURE_SURE_SHARE = 0.1
#: More than this many boxes under twice the smallest die, read unsure, make a texture of
#: tiny flecks (a table of 20 dice that small, all unsure, is unreadable from where the
#: camera is); the same bar for boxes of any size would cost real dice in small photos.
TINY_TEXTURE_BOXES = 20
#: A frame with more boxes than this (three times the largest party) shows a texture: there
#: a die read surely in a box the detector scored under ``VETO_BELOW_SCORE`` is asked.
TEXTURE_DETECTIONS = 180
#: Specks all within this share of the sure dice's side of each other may be one die's
#: pips: a pip pattern is symmetric about its face's centre (a six's corner pips lie 0.76
#: of the face apart), so a die-sized box at their centre is read as a die.
SPECK_REACH = 0.8
#: ...unless a die already found lies closer than this share of the side: dice do not
#: overlap, so the centres of two dice of one size lie a side apart at least
FOUND_DIE_REACH = 0.8
#: Two boxes on one die that read different values: the surer stands, asked where the other
#: was read at least this surely (twice the chance of one class in seven).
DISSENT = 0.3


def parts_of_wholes(boxes: np.ndarray, wholes: Detections | None) -> np.ndarray:
    """bool (N,): which of ``boxes`` lie within ``SAME_DIE_SHARE`` of a whole die's side
    of its centre (the parts ``TablePipeline._whole_dice`` reads the whole for)."""
    if wholes is None or not len(wholes) or not len(boxes):
        return np.zeros(len(boxes), bool)
    return np.array([any(within_whole(float(b[0]), float(b[1]), whole)
                         for whole in wholes.boxes) for b in boxes], bool)


def within_whole(x: float, y: float, whole: np.ndarray) -> bool:
    """Whether a box centred at (x, y) is a part of the ``whole`` box (cx, cy, w, h): its
    centre within ``SAME_DIE_SHARE`` of the whole's side of the whole's centre."""
    return bool(np.hypot(x - whole[0], y - whole[1]) < SAME_DIE_SHARE * float(whole[2:4].max()))


def asked_where_doubtful(dice: list[DieReading], found: Detections) -> list[DieReading]:
    """``dice``, those read in ``found``'s doubtful boxes (found only by the detector's
    smaller passes) asked however surely they were read: a box the main pass scored under
    its bar is less well placed, and 2 of pxl's 28 such dice read wrong and sure."""
    if found.doubtful is None or not found.doubtful.any():
        return dice
    return _asked_in(dice, found.boxes[found.doubtful])


def _asked_in(dice: list[DieReading], boxes: np.ndarray) -> list[DieReading]:
    """``dice``, those read in one of ``boxes`` (by its centre) asked however surely they
    were read; a die a player corrected stays as it is."""
    centres = {(float(b[0]), float(b[1])) for b in boxes}
    return [_asked(d) if (d.x, d.y) in centres and not d.corrected else d for d in dice]


def _asked(die: DieReading) -> DieReading:
    """``die`` read however surely, now under the tablet's bar (``ASKED``)."""
    return replace(die, confidence=min(die.confidence, ASKED),
                   value_confidence=min(die.value_confidence, ASKED))


def asked_on_a_texture(dice: list[DieReading], found: Detections) -> list[DieReading]:
    """``dice``, those in ``found``'s boxes the detector scored under
    ``VETO_BELOW_SCORE`` asked however surely they were read, where ``found`` holds more
    boxes than ``TEXTURE_DETECTIONS``: on a texture the reader alone does not make a sure
    die."""
    if len(found) <= TEXTURE_DETECTIONS:
        return dice
    return _asked_in(dice, found.boxes[found.scores < VETO_BELOW_SCORE])


def one_box_per_die(dice: list[DieReading]) -> list[DieReading]:
    """``dice`` with one box a die: of two boxes whose centres lie closer than
    ``SAME_DIE_SHARE`` of the larger box's side (dice do not overlap) the surer reading
    stands for the die, asked where the other read another value at ``DISSENT`` or more.
    A die a player corrected is kept, and wins over a box it shares with one not corrected.

    The detector keeps one peak a die by the stronger box's size; a weak large box around
    a strong small one, or a box the later stages add (the second look, the rescaled look,
    a whole die), can still be a second box on a die."""
    if len(dice) < 2:
        return dice
    centres = np.array([(d.x, d.y) for d in dice])
    sides = np.array([max(d.w, d.h) for d in dice])
    gap = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    same = gap < SAME_DIE_SHARE * np.maximum(sides[:, None], sides[None, :])
    np.fill_diagonal(same, False)
    if not same.any():
        return dice
    # the surest first (a corrected die before any other); each box the surer of its die's
    # boxes takes the others with it
    order = sorted(range(len(dice)), key=lambda i: (not dice[i].corrected, -dice[i].confidence))
    kept: dict[int, DieReading] = {}
    gone: set[int] = set()
    for i in order:
        if i in gone:
            continue
        die = dice[i]
        for j in np.flatnonzero(same[i]):
            other = dice[j]
            if j in gone or j in kept or (other.corrected and die.corrected):
                continue
            gone.add(int(j))
            if (other.value != die.value and other.value is not None
                    and other.value_confidence >= DISSENT and not die.corrected):
                die = _asked(die)
        kept[i] = die
    return [kept[i] for i in range(len(dice)) if i in kept]


def without_too_small_to_read(dice: list[DieReading], long_side: int) -> list[DieReading]:
    """``dice`` less the boxes read unsure that are smaller than the smallest die the
    table reader reads (``MIN_DIE_SHARE`` of the frame's long side); a die a player
    corrected stays."""
    smallest = MIN_DIE_SHARE * long_side
    return [d for d in dice if d.corrected or max(d.w, d.h) >= smallest
            or (d.value is not None and d.confidence >= LOW_CONFIDENCE)]


def without_parts_of_larger_dice(dice: list[DieReading]) -> list[DieReading]:
    """``dice`` less those that are a part of a larger die read at least as surely
    (``PART_OF_DIE_SHARE``)."""
    if len(dice) < 2:
        return dice
    centres = np.array([(d.x, d.y) for d in dice])
    halves = np.array([(d.w / 2, d.h / 2) for d in dice])
    sides = np.array([max(d.w, d.h) for d in dice])
    sure = np.array([d.confidence for d in dice])
    # inside[i, j]: die i's centre lies in die j's box, i is much the smaller and j is read
    # at least as surely (a large unsure box over a cluster of dice swallows none of them)
    inside = ((np.abs(centres[:, None, :] - centres[None, :, :]) < halves[None, :, :]).all(axis=2)
              & (sides[:, None] < PART_OF_DIE_SHARE * sides[None, :])
              & (sure[None, :] >= sure[:, None]))
    return [d for d, part in zip(dice, inside.any(axis=1), strict=True) if not part]


def split_specks(dice: list[DieReading], long_side: float = 0.0
                 ) -> tuple[list[DieReading], list[DieReading], float | None]:
    """(``dice`` less the specks, the specks, the sure dice's median side): specks are dice
    read unsure and far smaller than the dice read surely beside them
    (``SMALL_BOX_SHARE``), or every die read unsure where the boxes are a texture
    (``TEXTURE_BOXES``), or every tiny one where the tiny ones are (``TINY_TEXTURE_BOXES``,
    tiny by the frame's ``long_side``); a die a player corrected is never one. The side is
    None where no die is read surely, or the boxes are a texture (no speck is then read
    again as a die)."""
    sure = [max(d.w, d.h) for d in dice
            if d.value is not None and d.value_confidence >= LOW_CONFIDENCE]
    side = float(np.median(sure)) if len(sure) >= SIZE_REFERENCE_DICE else None
    unsure = len(dice) - len(sure)
    tiny = 2 * MIN_DIE_SHARE * long_side
    tiny_unsure = sum(1 for d in dice if max(d.w, d.h) < tiny and not d.corrected
                      and (d.value is None or d.value_confidence < LOW_CONFIDENCE))
    if unsure > TEXTURE_BOXES and len(sure) < TEXTURE_SURE_SHARE * unsure:
        side, smallest = None, np.inf  # a texture: no speck is read again as a die
    elif tiny_unsure > TINY_TEXTURE_BOXES and len(sure) < TEXTURE_SURE_SHARE * tiny_unsure:
        # a texture of tiny flecks, none read again as a die; the size rule still holds
        smallest = tiny if side is None else max(tiny, SMALL_BOX_SHARE * side)
        side = None
    elif side is None:
        return dice, [], None
    else:
        smallest = SMALL_BOX_SHARE * side
    kept, specks = [], []
    for d in dice:
        speck = (not d.corrected and max(d.w, d.h) < smallest
                 and (d.value is None or d.value_confidence < LOW_CONFIDENCE))
        (specks if speck else kept).append(d)
    return kept, specks, side


def dice_boxes_from_specks(specks: Sequence[DieReading], side: float,
                           dice: Sequence[DieReading],
                           vetoed: Sequence[DieReading] = ()) -> Detections:
    """Die-sized boxes (``side`` square), one at the centre of each group of specks within
    ``SPECK_REACH`` of each other, where no die of ``dice`` already lies
    (``FOUND_DIE_REACH``), scored 0 (the detector never saw them whole). ``vetoed``: small
    boxes the reader surely found no die in, which join the groups as pips; a box whose
    group needs one is doubtful (``Detections.doubtful``: asked however surely read)."""
    groups: list[list[tuple[DieReading, bool]]] = []
    reach = SPECK_REACH * side
    ordered = [(d, False) for d in sorted(specks, key=lambda d: -d.confidence)]
    for speck, was_vetoed in [*ordered, *((d, True) for d in vetoed)]:
        for group in groups:
            if all(np.hypot(speck.x - o.x, speck.y - o.y) <= reach for o, _ in group):
                group.append((speck, was_vetoed))
                break
        else:
            groups.append([(speck, was_vetoed)])
    boxes, doubtful = [], []
    for group in groups:
        cx = float(np.mean([d.x for d, _ in group]))
        cy = float(np.mean([d.y for d, _ in group]))
        if not any(np.hypot(cx - d.x, cy - d.y) < FOUND_DIE_REACH * side for d in dice):
            boxes.append((cx, cy, side, side))
            doubtful.append(any(v for _, v in group))
    return Detections(np.array(boxes, np.float32).reshape(-1, 4),
                      np.zeros(len(boxes), np.float32), doubtful=np.array(doubtful, bool))

