"""The colour stage: die crops + a colour profile -> colour names with confidences.

The game colour is the body's for pip dice and the numeral's for numeral dice, so each crop
is first split into body and mark pixels (``die_parts``). The part that carries the colour
is then white-balanced and compared in CIE Lab with the profile's references, each a
Gaussian with its own spread; the confidence is the posterior probability of the winning
colour, lowered when the crop looks like none of the references.

A thin mark on a small or soft crop never shows its full colour: blur, the resize and a
JPEG's halved colour resolution blend it with the body around it. A numeral's colour is
therefore compared with each reference blended with the die's body by any amount the
crop's sharpness allows; a blurred black numeral that looks grey is then as likely black
as grey, and the confidence says so instead of guessing.

Which white is used, in order of preference:
1. the profile's anchor: a part of every die with a known colour (Charidice's light body)
   gives each crop its own white, which makes light and exposure drop out;
2. the white fitted at this table (``ColourProfile.white_bgr``);
3. otherwise the light is estimated from the batch: the table light, out of a grid of warm
   to cool lights, that makes the batch's dice look most like the profile's colours.
   The pipeline reads all dice of a frame in one batch, which is what makes this work.

Colours of one hue family (Dice Party's yellow, orange, red) are decided together and by
hue: readings whose hues contradict the colours' order are asked, and so is a die whose hue
lies in the middle of the gap between two neighbouring colours (``HUE_BAND``), where the
Gaussians' tight spreads would otherwise name the nearer colour with near certainty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from dicecam.calibration.colourspace import (
    candidate_whites,
    lab_to_linear,
    linear_to_lab,
    srgb_to_linear,
)
from dicecam.calibration.profile import AnchorPart, ColourProfile, Marks

#: The central disc of a crop (its diameter as a fraction of the crop's side) that is
#: sampled: crops carry a margin around the top face's box, and a turned die's box is wider
#: than the face; the face's rim shows side faces and the table.
CENTRE_FRACTION = 0.5
#: Marks are sought within this share of the disc's radius.
MARK_FRACTION = 0.75
#: Pixels at or above this 8-bit value in any channel are glare, not colour.
CLIPPED = 250
#: Mahalanobis distance (squared) beyond which a colour counts as unlike every reference.
TYPICAL_D2 = 16.0
#: Share of the mark pixels, farthest from the body, whose median is the mark's colour.
CORE_PERCENT = 20.0
#: The fewest pixels a part needs before its colour is trusted.
MIN_PIXELS = 6
#: Largest squared distance one die can add to the batch light estimate (an odd die, a
#: hand or a token must not drag the estimate).
_ROBUST_CAP = 25.0
#: Width of the closing (or opening) that wipes the marks off the face, as a share of the
#: crop's side: wider than a numeral's stroke or a blurred pip, narrower than the face.
#: What it takes away is the marks; glare, shadows and the face's own shading stay, so
#: they are not taken for marks.
WIPE_FRACTION = 0.25
#: A pixel is a mark when the wiped face differs from it by more than this many times the
#: crop's noise, and by at least ``MARK_CONTRAST`` 8-bit levels.
MARK_NOISE = 4.0
MARK_CONTRAST = 12.0
#: Glare adds white light and so raises a pixel's darkest channel: the body's colour is
#: the median of this share of its pixels with the lowest darkest channel.
GLARE_FREE_PERCENT = 50.0
#: The body/marks split is a close call when the body cluster's largest piece is less than
#: this many times the other cluster's (six big blurred pips can merge into two strips as
#: large as the body between them).
CLOSE_SPLIT = 1.5
#: Even then the larger piece is more often the body: the other cluster is taken for the
#: body at these odds against (as a cost in squared distance, -2 ln odds).
ALT_BODY_COST = -2.0 * float(np.log(1 / 3))
#: How far a numeral may have blended into its body, as a prior on the share of its own
#: colour left (1 = none lost): a Gaussian on 1 - share whose width grows with the blur
#: measured on the numeral's edges (edge spread / crop side), within ``BLEND_WIDTH``.
BLEND_PER_BLUR = 9.0
BLEND_WIDTH = (0.12, 0.35)
#: The least of its own colour a numeral is assumed to keep.
MIN_BLEND = 0.35
#: Crops larger than this (a close camera) are shrunk to it before their marks are sought:
#: a numeral's strokes are still several pixels wide there, and the search costs less.
MARK_SEARCH_PX = 64
#: The body/marks clustering works on the disc shrunk to at most this side: the body's
#: colour is a median over hundreds of pixels either way, and the clustering's cost grows
#: with the square of the side (a close camera's 200-px dice cost 70 times a 24-px disc).
CLUSTER_PX = 24
#: The most dice of one batch the batch light estimate looks at.
WHITE_SAMPLE = 12
#: Dice less colourful than this (Lab chroma) take no part in the hue order check.
ORDER_MIN_CHROMA = 20.0
#: How much redder (in hue degrees) a die read as the yellower colour must look than one
#: read as the redder colour before the two readings contradict each other.
ORDER_MARGIN_DEG = 8.0
#: Colours take part in the hue order when they are this colourful (Lab chroma) and all
#: lie within this many degrees of hue of each other (a family such as yellow-orange-red).
ORDER_REF_CHROMA = 30.0
ORDER_SPAN_DEG = 90.0
#: A die of such a family is read sure of its colour only when its hue lies in that colour's
#: own share of the hue gap to each neighbouring colour: the middle half of the gap
#: (``HUE_BAND`` of it on either side of the midpoint) is where an amber die, a translucent
#: red or a warm lamp's yellow sits, and the references' tight spreads would call it for
#: the nearer colour with near certainty. Such a die is asked (its two scores made even).
#: On the real labelled Dice Party dice this turned 9 of 11 silent errors into questions
#: and asked 19 more right dice of 472; rendered throws keep every figure (bench calibration).
HUE_BAND = 0.25
#: How far ahead the colour a die's hue is nearer is put when its two scores are made even.
HUE_LEAD = 1e-3
_LUMA_BGR = np.array([0.114, 0.587, 0.299])


@dataclass(frozen=True)
class DieParts:
    """Median linear-light B, G, R of a die's body and of its marks (None if none found).

    ``mark_blur`` is how soft the marks' edges are (edge spread over the crop's side; None
    without marks). ``alt_body`` is the other colour cluster when it was a close call which
    of the two is the body (None when it was clear).
    """

    body: np.ndarray
    marks: np.ndarray | None
    body_pixels: int
    mark_pixels: int
    mark_blur: float | None = None
    alt_body: np.ndarray | None = None


def die_parts(crop_bgr: np.ndarray, centre_fraction: float = CENTRE_FRACTION, *,
              dark_marks: bool | None = None, find_marks: bool = True) -> DieParts | None:
    """Split the centre of a crop into body and mark pixels; None for an unusable crop.

    The disc's pixels are split into two colour clusters. The body is the cluster with the
    larger connected piece: the body is one region around the marks, while pips are
    separate blobs, so this holds even when six big pips cover half the disc, or a numeral
    covers its middle. ``dark_marks`` says whether the marks are darker than the body
    (from the profile, see ``marks_polarity``); None: judged from the clusters. Without
    ``find_marks`` only the body is measured (pip dice whose marks say nothing).
    """
    return die_parts_batch([crop_bgr], centre_fraction, dark_marks=dark_marks,
                           find_marks=find_marks)[0]


def die_parts_batch(crops_bgr: Sequence[np.ndarray | None],
                    centre_fraction: float = CENTRE_FRACTION, *,
                    dark_marks: bool | None = None, find_marks: bool = True,
                    ) -> list[DieParts | None]:
    """``die_parts`` of many crops at once: the clustering and the medians run on all the
    crops' discs together (a frame's 60 dice cost a few milliseconds, not one each)."""
    parts = _parts_batch(crops_bgr, centre_fraction, dark_marks=dark_marks,
                         find_marks=find_marks)
    out: list[DieParts | None] = [None] * len(crops_bgr)
    for i in np.flatnonzero(parts.usable):
        blur = parts.mark_blur[i]
        out[i] = DieParts(
            body=parts.body[i],
            marks=None if np.isnan(parts.marks[i, 0]) else parts.marks[i],
            body_pixels=int(parts.body_pixels[i]),
            mark_pixels=int(parts.mark_pixels[i]),
            mark_blur=None if np.isnan(blur) else float(blur),
            alt_body=None if np.isnan(parts.alt_body[i, 0]) else parts.alt_body[i],
        )
    return out


@dataclass(frozen=True)
class _PartsBatch:
    """``DieParts`` of a batch of crops as arrays, a row a crop: nan where a crop has no such
    part (and every row of an unusable crop)."""

    usable: np.ndarray  # (n,) bool
    body: np.ndarray  # (n, 3)
    marks: np.ndarray  # (n, 3)
    body_pixels: np.ndarray  # (n,) int
    mark_pixels: np.ndarray  # (n,) int
    mark_blur: np.ndarray  # (n,)
    alt_body: np.ndarray  # (n, 3)


def _parts_batch(crops_bgr: Sequence[np.ndarray | None], centre_fraction: float, *,
                 dark_marks: bool | None, find_marks: bool) -> _PartsBatch:
    n = len(crops_bgr)
    parts = _PartsBatch(
        usable=np.zeros(n, bool), body=np.full((n, 3), np.nan),
        marks=np.full((n, 3), np.nan), body_pixels=np.zeros(n, np.int64),
        mark_pixels=np.zeros(n, np.int64), mark_blur=np.full(n, np.nan),
        alt_body=np.full((n, 3), np.nan))
    windows: list[np.ndarray] = []
    usable: list[int] = []
    for i, crop in enumerate(crops_bgr):
        window = _centre_window(crop, centre_fraction)
        if window is not None:
            windows.append(window)
            usable.append(i)
    if not windows:
        return parts
    rows = np.array(usable)
    raw = np.stack(windows)[:, _CLUSTER_DISC]  # (n, pixels, 3)
    # (n, 3, pixels): each channel's pixels in a row, as the medians sort them
    planes = np.ascontiguousarray(raw.transpose(0, 2, 1))
    labels = _two_clusters(raw.astype(np.float64))
    body_k, ratio = _body_cluster(labels, _CLUSTER_DISC)
    in_body = labels == body_k[:, None]
    small = in_body.sum(axis=1) < MIN_PIXELS
    in_body[small] = True  # too few body pixels: the whole disc is the body
    in_other = ~in_body
    body, typical = _body_colour(planes, in_body)
    has_alt = (ratio < CLOSE_SPLIT) & (in_other.sum(axis=1) >= MIN_PIXELS)
    if has_alt.any():
        parts.alt_body[rows[has_alt]] = srgb_to_linear(
            _body_colour(planes[has_alt], in_other[has_alt])[0])
    parts.usable[rows] = True
    parts.body[rows] = srgb_to_linear(body)
    parts.body_pixels[rows] = in_body.sum(axis=1)
    if not find_marks:
        return parts
    other_median = _masked_median(planes, in_other) if dark_marks is None else None
    for row, i in enumerate(usable):
        dark = dark_marks
        if dark is None:
            assert other_median is not None
            dark = not in_other[row].any() or float(
                (other_median[row] - body[row]) @ _LUMA_BGR) < 0
        marks, mark_pixels, blur = _marks(np.asarray(crops_bgr[i]), centre_fraction, dark,
                                          typical[row])
        parts.mark_pixels[i] = mark_pixels
        if marks is not None:
            parts.marks[i] = marks
        if blur is not None:
            parts.mark_blur[i] = blur
    return parts


def _centre_window(crop_bgr: np.ndarray | None, centre_fraction: float) -> np.ndarray | None:
    """The crop's central square, resized to CLUSTER_PX x CLUSTER_PX; None if unusable."""

    crop_bgr = None if crop_bgr is None else np.asarray(crop_bgr)
    if crop_bgr is None or crop_bgr.ndim != 3 or crop_bgr.shape[2] < 3:
        return None
    h, w = crop_bgr.shape[:2]
    side = int(round(min(h, w) * centre_fraction))
    if side < 3:
        return None
    y0, x0 = (h - side) // 2, (w - side) // 2
    window = crop_bgr[y0 : y0 + side, x0 : x0 + side, :3]
    if side == CLUSTER_PX:
        return window
    shrink = side > CLUSTER_PX
    return cv2.resize(window, (CLUSTER_PX, CLUSTER_PX),
                      interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _disc(side: int) -> np.ndarray:
    """A disc, not a square: a die turned by 45 degrees shows the table in a square's
    corners."""
    yy, xx = np.mgrid[0:side, 0:side]
    r = (side - 1) / 2.0
    return (yy - r) ** 2 + (xx - r) ** 2 <= (r + 0.5) ** 2


_CLUSTER_DISC = _disc(CLUSTER_PX)


def _squared_norm(diff: np.ndarray) -> np.ndarray:
    """Sum of squares over the last axis (as ``(diff * diff).sum(axis=-1)``, faster)."""
    return np.einsum("...c,...c->...", diff, diff)


def _planar_squared_distance(planes: np.ndarray, ref: np.ndarray, spread: np.ndarray,
                             ) -> np.ndarray:
    """``_squared_norm((lab - ref) / spread)`` of Lab colours given as three planes
    (L, a, b; any shape each): a channel at a time over whole planes, where numpy is slow
    on a last axis of three. Summed as numpy's einsum sums three terms here,
    ``(L + b) + a``, so the figures are the same to the last bit."""
    lightness = (planes[0] - ref[0]) / spread[0]
    a = (planes[1] - ref[1]) / spread[1]
    out = (planes[2] - ref[2]) / spread[2]
    out *= out
    out += lightness * lightness
    out += a * a
    return out


def _masked_median(planes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per-row median of ``planes`` (n, m), or of each channel of (n, c, m), over the
    ``mask`` (n, m) entries, as numpy's median takes it (the mean of the two middle
    values); nan for an empty row.

    8-bit values are sorted with the masked-out ones set to 255, the largest 8-bit value:
    a row's first ``count`` values are then its masked values in order, and numpy sorts
    8 bits in one radix pass, several times faster than floats."""
    squeeze = planes.ndim == 2
    v = planes[:, None, :] if squeeze else planes
    if v.dtype == np.uint8:
        # 255 where masked out, the value where not: ~mask as 0 or 255, or-ed in
        filled = v | np.negative((~mask).view(np.uint8))[:, None, :]
        filled.sort(axis=-1, kind="stable")
    elif np.issubdtype(v.dtype, np.integer):
        filled = np.where(mask[:, None, :], v.astype(np.int16), np.int16(32767))
        filled.sort(axis=-1, kind="stable")
    else:
        filled = np.sort(np.where(mask[:, None, :], v, np.inf), axis=-1)
    n, c, m = filled.shape
    count = mask.sum(axis=1)
    flat = filled.reshape(n * c, m)
    rows = np.arange(n * c)
    lo = np.repeat(np.clip((count - 1) // 2, 0, None), c)
    hi = np.repeat(np.clip(count // 2, 0, m - 1), c)
    median = ((flat[rows, lo].astype(np.float64) + flat[rows, hi]) / 2).reshape(n, c)
    median[count == 0] = np.nan
    return median[:, 0] if squeeze else median


def _body_colour(planes: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-bit colour of each body from its pixels (``planes`` (n, 3, m) where ``mask``
    (n, m)), without the glare on it, and the median of its unclipped pixels (glare and all,
    as the face looks around its marks)."""
    # Glare clips a coloured body to white; leave clipped pixels out unless the body itself
    # is that bright (a white die under a strong lamp).
    b, g, r = planes[:, 0], planes[:, 1], planes[:, 2]
    unclipped = mask & (np.maximum(np.maximum(b, g), r) < CLIPPED)
    enough = unclipped.sum(axis=1) >= np.maximum(MIN_PIXELS, mask.sum(axis=1) // 3)
    mask = np.where(enough[:, None], unclipped, mask)
    typical = _masked_median(planes, mask)
    # Unclipped glare still adds white to every channel; the pixels whose darkest channel
    # is lowest are free of it (a shadow only darkens, which the shading range allows).
    darkest = np.minimum(np.minimum(b, g), r)
    calm = mask & (darkest <= _masked_median(darkest, mask)[:, None])
    mask = np.where((calm.sum(axis=1) >= MIN_PIXELS)[:, None], calm, mask)
    return _masked_median(planes, mask), typical


def _marks(crop_bgr: np.ndarray, centre_fraction: float, dark: bool, typical: np.ndarray,
           ) -> tuple[np.ndarray | None, int, float | None]:
    """The marks' linear colour, their pixel count and their edge blur (see ``DieParts``).

    The marks are what a closing (dark marks) or an opening (light marks) wipes off the
    face: unlike a colour distance to one body colour, this leaves a glare spot, a shadow's
    edge and the table beyond the face alone. Their colour is that of the strokes' cores,
    the pixels that differ most from the wiped face: thin numerals blend into the body at
    their edges, the cores do not.
    """

    h, w = crop_bgr.shape[:2]
    n = min(h, w)
    y0, x0 = (h - n) // 2, (w - n) // 2
    img = np.ascontiguousarray(crop_bgr[y0 : y0 + n, x0 : x0 + n, :3], dtype=np.float32)
    if n > MARK_SEARCH_PX:
        n = MARK_SEARCH_PX
        img = cv2.resize(img, (n, n), interpolation=cv2.INTER_AREA)
    size = max(3, int(round(WIPE_FRACTION * n))) | 1
    # A square kernel: an ellipse wipes a little more evenly but costs ten times as much on
    # the large crops of a close camera.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    smooth = cv2.GaussianBlur(img, (0, 0), 0.7)  # so that noise is not wiped as marks
    wiped = cv2.morphologyEx(smooth, cv2.MORPH_CLOSE if dark else cv2.MORPH_OPEN, kernel,
                             borderType=cv2.BORDER_REPLICATE)
    delta = img - wiped
    yy, xx = np.mgrid[0:n, 0:n]
    c = (n - 1) / 2.0
    rr2 = (yy - c) ** 2 + (xx - c) ** 2
    radius = centre_fraction * n / 2.0
    disc = rr2 <= (radius + 0.5) ** 2
    # Marks are looked for away from the disc's rim, where a tilted or turned die can let
    # the table or a neighbour in; a numeral sits in the middle of its face.
    inner = rr2 <= (MARK_FRACTION * radius) ** 2
    luma = delta @ _LUMA_BGR
    noise = 1.4826 * float(np.median(np.abs(luma[disc])))
    contrast = np.linalg.norm(delta, axis=2)
    marks = inner & (contrast > max(MARK_CONTRAST, MARK_NOISE * noise))
    marks &= (luma < 0) if dark else (luma > 0)
    count = int(marks.sum())
    if count < MIN_PIXELS:
        return None, count, None
    strength = contrast[marks]
    cores = marks & (contrast >= np.percentile(strength, 100 - CORE_PERCENT))
    # A glare spot over the marks lightens them as much as the face around them (it adds
    # white light): take off what the face at the marks has above the body's usual colour
    # in every channel, so that a black numeral under glare does not pass for grey.
    glare = float((np.median(wiped[cores], axis=0) - typical).min())
    colour = srgb_to_linear(np.clip(np.median(img[cores], axis=0) - max(glare, 0.0), 0, 255))
    return colour, count, _edge_spread(contrast, marks, inner) / n


def _edge_spread(contrast: np.ndarray, marks: np.ndarray, region: np.ndarray) -> float:
    """The blur of the marks' edges in pixels: a blurred edge's steepest slope is its height
    over sqrt(2 pi) sigma. A thin stroke's is steeper for its (lowered) height, which is
    what the prior on blending needs: how much of the stroke's colour is left."""

    peak = float(np.percentile(contrast[marks], 95))
    gy, gx = np.gradient(cv2.GaussianBlur(contrast.astype(np.float32), (0, 0), 0.5))
    slope = np.hypot(gx, gy)
    near = (region & (contrast > 0.5 * peak)) | marks
    steepest = float(np.percentile(slope[near], 95))
    return peak / (np.sqrt(2 * np.pi) * max(steepest, 1e-6))


def _two_clusters(px: np.ndarray, iterations: int = 6) -> np.ndarray:
    """Deterministic 2-means of each row of ``px`` (n, m, 3), started from the extremes
    along the row's main colour axis; labels (n, m) of 0 and 1."""
    total = px.sum(axis=1)
    centred = px - (total / px.shape[1])[:, None, :]  # the mean, as px.mean(axis=1) gives it
    cov = centred.transpose(0, 2, 1) @ centred
    axis = np.linalg.eigh(cov)[1][:, :, -1:]  # (n, 3, 1)
    proj = (centred @ axis)[:, :, 0]
    rows = np.arange(len(px))
    c0, c1 = px[rows, proj.argmin(axis=1)], px[rows, proj.argmax(axis=1)]
    member = np.zeros(px.shape[:2], dtype=bool)
    for _ in range(iterations):
        # nearer to c1 than to c0 <=> x . (c1 - c0) > (|c1|^2 - |c0|^2) / 2
        towards = (px @ (c1 - c0)[:, :, None])[:, :, 0]
        member = towards > 0.5 * ((c1 * c1).sum(axis=1) - (c0 * c0).sum(axis=1))[:, None]
        n1 = member.sum(axis=1)
        sum1 = (member[:, None, :].astype(px.dtype) @ px)[:, 0]
        n0 = px.shape[1] - n1
        # an empty cluster keeps its centre
        c1 = np.where((n1 > 0)[:, None], sum1 / np.maximum(n1, 1)[:, None], c1)
        c0 = np.where((n0 > 0)[:, None], (total - sum1) / np.maximum(n0, 1)[:, None], c0)
    return member.astype(np.int64)


def _body_cluster(labels: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each row of ``labels`` (n, pixels of ``mask``): the cluster whose largest
    4-connected piece inside ``mask`` is larger, and how many times larger it is than the
    other's.

    All rows are laid side by side in one image, a column of background between two, so
    that one connected-components pass per cluster serves the whole batch."""

    n = len(labels)
    side = mask.shape[1]
    pitch = side + 1
    tiles = np.full((n, mask.shape[0], pitch), -1, dtype=np.int8)
    tiles[:, :, :side][:, mask] = labels
    image = tiles.transpose(1, 0, 2).reshape(mask.shape[0], n * pitch)
    largest = np.zeros((2, n), dtype=np.int64)
    for k in (0, 1):
        count, _lab, stats, _c = cv2.connectedComponentsWithStats(
            (image == k).astype(np.uint8), connectivity=4)
        if count > 1:
            row_of = stats[1:, cv2.CC_STAT_LEFT] // pitch
            np.maximum.at(largest[k], row_of, stats[1:, cv2.CC_STAT_AREA])
    best = (largest[1] > largest[0]).astype(np.int64)
    rows = np.arange(n)
    ratio = largest[best, rows] / np.maximum(largest[1 - best, rows], 1)
    return best, ratio


def _lightness_to_y(lightness: np.ndarray) -> np.ndarray:
    """CIE L* back to relative luminance Y (0..1)."""
    f = (np.asarray(lightness, dtype=np.float64) + 16.0) / 116.0
    return np.where(f > 6 / 29, f**3, 3 * (6 / 29) ** 2 * (f - 4 / 29))


#: Relative luminance Y of linear B, G, R (sRGB primaries, D65 white).
_Y_BGR = np.array([0.0721750, 0.7151522, 0.2126729])


def _encode(linear: np.ndarray) -> np.ndarray:
    """Linear light to a camera's gamma-encoded scale (a pure power, sign kept). Blur in a
    JPEG's colour planes and in resizing mixes encoded values, so blends are taken here."""
    return np.sign(linear) * np.abs(linear) ** (1 / 2.4)


def _decode(encoded: np.ndarray) -> np.ndarray:
    return np.sign(encoded) * np.abs(encoded) ** 2.4


def marks_polarity(profile: ColourProfile) -> bool | None:
    """Whether a set's marks are darker than its bodies (True) or lighter (False), as far as
    the profile's anchor tells; None when it does not."""
    anchor = profile.anchor
    if anchor is None:
        return None
    lightness = [ref.lab[0] for ref in profile.references]
    if profile.marks == Marks.NUMERALS and anchor.part == AnchorPart.BODY:
        marks, bodies = lightness, [anchor.lab[0]]
    elif profile.marks == Marks.PIPS and anchor.part == AnchorPart.MARKS:
        marks, bodies = [anchor.lab[0]], lightness
    else:
        return None
    if max(marks) < min(bodies):
        return True
    if min(marks) > max(bodies):
        return False
    return None


@dataclass(frozen=True)
class _Measured:
    """What the colour stage saw in a batch of crops, in Lab under each crop's white."""

    labs: np.ndarray  # (n, 3) the colour-carrying part
    ok: np.ndarray  # (n,) whether the crop could be read at all
    bodies: np.ndarray  # (n, 3) the body
    blurs: np.ndarray  # (n,) the marks' edge blur (nan: no marks)
    alts: np.ndarray  # (n, 3) the other cluster, when it may be the body (nan: not)


class ColourReader:
    """Reads the game colour of die crops with one profile (no state kept between calls)."""

    def __init__(self, profile: ColourProfile) -> None:
        self.profile = profile
        self._names = profile.colours
        self._means = np.array([ref.lab for ref in profile.references], dtype=np.float64)
        self._spreads = np.array([ref.spread for ref in profile.references], dtype=np.float64)
        self._log_norm = np.log(self._spreads).sum(axis=1)
        self._ref_linear = lab_to_linear(self._means)
        self._ref_y = np.maximum(_lightness_to_y(self._means[:, 0]), 1e-5)
        self._ref_lab = linear_to_lab(self._ref_linear)
        self._shading = profile.shading_range
        self._anchor_linear = (
            None if profile.anchor is None else lab_to_linear(np.array(profile.anchor.lab))
        )
        self._dark_marks = marks_polarity(profile)
        self._find_marks = profile.marks == Marks.NUMERALS or (
            profile.anchor is not None and profile.anchor.part == AnchorPart.MARKS)
        self.candidate_whites = candidate_whites()
        # A light far from neutral must explain the dice clearly better than neutral does:
        # a batch of only orange dice could otherwise pass for red dice under warm light.
        # The prior is mild (a fraction of one die's worth of distance).
        b, g, r = (self.candidate_whites[:, k] for k in range(3))
        self._white_prior = 2.0 * (np.abs(np.log(b / r)) + np.abs(np.log(g / np.sqrt(b * r))))
        self._hue_order = _hue_order(self._means) if profile.marks == Marks.PIPS else None
        self._ref_hue = _hue_degrees(self._means)
        self._hue_bands = None if self._hue_order is None else _hue_bands(self._ref_hue,
                                                                           self._hue_order)

    # -- public API -------------------------------------------------------------------

    def read(self, crops_bgr: Sequence[np.ndarray]) -> list[tuple[str | None, float]]:
        """One (colour name or None, confidence) per crop, in order."""
        return [(name, conf) for name, conf, _ in self.read_scores(crops_bgr)]

    def read_scores(self, crops_bgr: Sequence[np.ndarray]
                    ) -> list[tuple[str | None, float, tuple[tuple[str, float], ...]]]:
        """Per crop: (colour or None, confidence, the score of every colour of the set).

        The scores are the posterior of each colour times how much the crop looks like a
        die of this set at all (so they sum to at most 1); the game can weigh them against
        what it knows (``dicecam.scorer.colour_counts``)."""
        seen = self._measure(crops_bgr)
        out: list[tuple[str | None, float, tuple[tuple[str, float], ...]]] = [
            (None, 0.0, ())] * len(crops_bgr)
        if not seen.ok.any():
            return out
        idx = np.flatnonzero(seen.ok)
        if self.profile.marks == Marks.NUMERALS:
            d2 = self.distances(seen.labs[idx], bodies=seen.bodies[idx], blurs=seen.blurs[idx])
            d2 = d2[:, None, :]
        else:
            # Where it was a close call which cluster is the body, both readings stay in
            # play: the profile's colours decide, and a die that fits either way is asked.
            alts = seen.alts[idx]
            has_alt = ~np.isnan(alts[:, 0])
            d2 = np.full((len(idx), 2, len(self._names)), np.inf)
            d2[:, 0] = self.distances(seen.labs[idx])
            if has_alt.any():
                d2[has_alt, 1] = self.distances(alts[has_alt]) + ALT_BODY_COST
        names, conf, scores = self._classify(d2)
        if self._hue_order is not None:
            conf, scores = self._order_check(seen.labs[idx], names, conf, scores)
            names, conf, scores = self._hue_band_check(seen.labs[idx], names, conf, scores)
        for i, name, c, row in zip(idx.tolist(), names, conf.tolist(), scores.tolist(),
                                   strict=True):
            out[i] = (name, c, tuple(zip(self._names, [round(p, 4) for p in row], strict=True)))
        return out

    def features(self, crops_bgr: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Lab of each crop's colour-carrying part under the chosen white, and which crops
        could be read at all (shape (n, 3) and (n,))."""
        seen = self._measure(crops_bgr)
        return seen.labs, seen.ok

    def _measure(self, crops_bgr: Sequence[np.ndarray]) -> _Measured:
        n = len(crops_bgr)
        parts = _parts_batch(crops_bgr, CENTRE_FRACTION, dark_marks=self._dark_marks,
                             find_marks=self._find_marks)
        carrier = parts.marks if self.profile.marks == Marks.NUMERALS else parts.body
        ok = parts.usable & ~np.isnan(carrier[:, 0])
        colour_lin = np.where(ok[:, None], carrier, 0.0)
        body_lin = np.where(ok[:, None], parts.body, 1.0)
        alt_lin = np.where(ok[:, None], parts.alt_body, np.nan)
        blurs = np.where(ok, parts.mark_blur, np.nan)
        whites = np.ones((n, 3))
        batch_white = ok.copy()
        anchor = self.profile.anchor
        if anchor is not None and self._anchor_linear is not None:
            seen = parts.body if anchor.part == AnchorPart.BODY else parts.marks
            anchored = ok & ~np.isnan(seen[:, 0])
            whites[anchored] = (np.maximum(seen[anchored], 1e-4)
                                / np.maximum(self._anchor_linear, 1e-4))
            batch_white &= ~anchored
        if self.profile.white_bgr is not None:
            whites[batch_white] = self.profile.white_bgr
        elif batch_white.any():
            whites[batch_white] = self.estimate_white(colour_lin[batch_white])
        labs = np.zeros((n, 3))
        bodies = np.zeros((n, 3))
        alts = np.full((n, 3), np.nan)
        labs[ok] = linear_to_lab(colour_lin[ok], whites[ok])
        bodies[ok] = linear_to_lab(body_lin[ok], whites[ok])
        has_alt = ok & ~np.isnan(alt_lin[:, 0])
        alts[has_alt] = linear_to_lab(alt_lin[has_alt], whites[has_alt])
        return _Measured(labs, ok, bodies, blurs, alts)

    def estimate_white(self, colours_linear: np.ndarray) -> np.ndarray:
        """The table light that makes these dice look most like the profile's colours."""
        cands = self.candidate_whites
        if len(colours_linear) > WHITE_SAMPLE:
            # Every die under every one of the ~1,400 candidate lights is the colour stage's
            # largest cost; a spread of the dice names the light as well as all 60 do.
            pick = np.linspace(0, len(colours_linear) - 1, WHITE_SAMPLE).round().astype(int)
            colours_linear = colours_linear[pick]
        # every die seen under every candidate light: ``linear_to_lab``'s own division by
        # the light, laid out as (lights, dice x 3) rows (a last axis of three is slow in
        # numpy: 0.35 -> 0.07 ms), then L, a and b of each, (whites, dice)
        dice = len(colours_linear)
        seen = (np.asarray(colours_linear, np.float64).reshape(1, 3 * dice)
                / np.tile(np.maximum(cands, 1e-6), (1, dice))).reshape(len(cands), dice, 3)
        planes = linear_to_lab(seen).transpose(2, 0, 1)
        nearest = None
        for ref, spread in zip(self._ref_lab, self._spreads, strict=True):
            d2 = _planar_squared_distance(planes, ref, spread)
            nearest = d2 if nearest is None else np.minimum(nearest, d2, out=nearest)
        assert nearest is not None
        cost = np.minimum(nearest, _ROBUST_CAP).sum(axis=1)
        return cands[int(np.argmin(cost + self._white_prior))]

    def distances(self, labs: np.ndarray, *, shading: bool = True,
                  bodies: np.ndarray | None = None,
                  blurs: np.ndarray | None = None) -> np.ndarray:
        """Squared Mahalanobis distance of each Lab (m, 3) to each colour: (m, k).

        With ``shading`` each colour is first darkened or brightened (within the profile's
        shading range) to the die's own lightness, so a yellow die in a shadow is still
        compared with yellow, not with the darker orange. Estimating the table's white
        goes without: its brightness is the camera's exposure, which shading would hide.

        With ``bodies`` (each die's body in Lab, for marks that carry the colour) each
        colour is also blended with that body by the share that best explains the reading,
        at a cost that is low for a die whose marks look blurred (``blurs``, see
        ``DieParts.mark_blur``; nan: unknown) and high for a sharp one.
        """
        if not shading and bodies is None:
            # Unshaded references are the profile's own colours: no per-die Lab to compute
            # (estimating the light calls this for every die under every candidate light).
            diff = (labs[:, None, :] - self._ref_lab[None, :, :]) / self._spreads[None, :, :]
            return _squared_norm(diff)
        y = _lightness_to_y(labs[:, 0])
        lo, hi = self._shading if shading else (1.0, 1.0)
        refs = self._ref_linear[None, :, :]
        ref_y = self._ref_y[None, :]
        prior = 0.0
        if bodies is not None:
            refs, share = self._blended(labs, bodies)
            ref_y = np.maximum(refs @ _Y_BGR, 1e-5)
            blur = np.full(len(labs), np.nan) if blurs is None else np.asarray(blurs, float)
            width = np.where(np.isnan(blur), BLEND_WIDTH[1],
                             np.clip(BLEND_PER_BLUR * np.nan_to_num(blur), *BLEND_WIDTH))
            prior = ((1.0 - share) / width[:, None]) ** 2
        scale = np.clip(y[:, None] / ref_y, lo, hi)  # (m, k)
        shaded = linear_to_lab(scale[:, :, None] * refs)
        diff = (labs[:, None, :] - shaded) / self._spreads[None, :, :]
        return _squared_norm(diff) + prior

    # -- internals --------------------------------------------------------------------

    def _blended(self, labs: np.ndarray, bodies: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each colour blended with each die's body by the share of its own colour (at
        least ``MIN_BLEND``) that best explains the reading: linear B, G, R (m, k, 3) and
        the shares (m, k)."""
        body = _encode(lab_to_linear(bodies))[:, None, :]
        ref = _encode(self._ref_linear)[None, :, :]
        seen = _encode(lab_to_linear(labs))[:, None, :]
        span = ref - body
        share = ((seen - body) * span).sum(axis=2) / np.maximum((span * span).sum(axis=2), 1e-9)
        share = np.clip(share, MIN_BLEND, 1.0)
        return _decode(body + share[:, :, None] * span), share

    def _order_check(self, labs: np.ndarray, names: list[str], conf: np.ndarray,
                     scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Decide a batch's colours together: the dice of one frame share a light, so their
        hues keep the order of their colours' hues (yellow, orange, red under any lamp). A
        die read as the yellower of two colours whose hue is clearly redder than a die read
        as the redder one contradicts it; both are then asked, their scores for the two
        colours made even."""
        assert self._hue_order is not None
        index = np.array([self._names.index(n) for n in names])
        rank = np.array([-1 if r is None else r for r in self._hue_order])[index]
        hue = _hue_degrees(labs)
        ranked = (rank >= 0) & (np.hypot(labs[:, 1], labs[:, 2]) >= ORDER_MIN_CHROMA)
        # rank grows with hue angle: a die of the yellower colour that looks clearly redder
        clash = ((rank[:, None] > rank[None, :]) & (hue[:, None] < hue[None, :] - ORDER_MARGIN_DEG)
                 & ranked[:, None] & ranked[None, :])
        conf, scores = conf.copy(), scores.copy()
        for i, j in np.argwhere(clash):
            a, b = index[i], index[j]
            for die in (i, j):
                _make_even(scores, conf, die, a, b)
        return conf, scores

    def _hue_band_check(self, labs: np.ndarray, names: list[str], conf: np.ndarray,
                        scores: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Ask about a die of a hue family whose hue lies off its colour's own side of the
        gap to a neighbouring colour (``HUE_BAND``): its score and that neighbour's are made
        even, as the order check does for two dice that contradict each other. Where its
        hue is past the midpoint, the neighbour leads (by ``HUE_LEAD``): within a family the
        hue decides, since translucency, shade and glare move a die's lightness and chroma
        far more than its hue (a dark translucent red lies nearer a darkened orange in Lab)."""
        low, high, below, above = self._hue_bands
        index = np.array([self._names.index(n) for n in names])
        hue = _hue_degrees(labs)
        colourful = np.hypot(labs[:, 1], labs[:, 2]) >= ORDER_MIN_CHROMA
        neighbour = np.where(colourful & (hue < low[index]), below[index], -1)
        neighbour = np.where(colourful & (hue > high[index]), above[index], neighbour)
        names, conf, scores = list(names), conf.copy(), scores.copy()
        ref_hue = self._ref_hue
        for die in np.flatnonzero(neighbour >= 0):
            k, other = index[die], neighbour[die]
            _make_even(scores, conf, die, k, other)
            midpoint = (ref_hue[k] + ref_hue[other]) / 2
            if (hue[die] - midpoint) * (ref_hue[other] - ref_hue[k]) > 0:
                scores[die, other] += HUE_LEAD
                scores[die, k] -= HUE_LEAD
                names[die] = self._names[other]
        return names, conf, scores

    def _classify(self, d2: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Colour, confidence and every colour's score per die from squared distances
        (m, k), or (m, h, k) for h readings of each die that may each be the right one
        (inf: no such reading)."""
        if d2.ndim == 2:
            d2 = d2[:, None, :]
        loglik = -0.5 * d2 - self._log_norm[None, None, :]
        loglik -= loglik.max(axis=(1, 2), keepdims=True)
        post = np.exp(loglik).sum(axis=1)
        post /= post.sum(axis=1, keepdims=True)
        rows = np.arange(len(d2))
        best = post.argmax(axis=1)
        conf = post[rows, best]
        typical = np.ones(len(d2))
        if len(self._names) > 1:
            # Unlike every reference: say so through the confidence so the user is asked.
            d2_best = d2.min(axis=1)[rows, best]
            typical = np.exp(-np.maximum(d2_best - TYPICAL_D2, 0.0) / 8.0)
        conf = conf * typical
        return ([self._names[int(b)] for b in best], np.clip(conf, 0.0, 1.0),
                np.clip(post * typical[:, None], 0.0, 1.0))


def _hue_order(means_lab: np.ndarray) -> list[int | None] | None:
    """Each colour's rank by hue among the set's colourful colours (None: not ranked), or
    None when fewer than two colours form one hue family."""
    chroma = np.hypot(means_lab[:, 1], means_lab[:, 2])
    hue = _hue_degrees(means_lab)
    family = [k for k in range(len(means_lab)) if chroma[k] >= ORDER_REF_CHROMA]
    if len(family) < 2 or np.ptp(hue[family]) > ORDER_SPAN_DEG:
        return None
    order = sorted(family, key=lambda k: hue[k])
    ranks: list[int | None] = [None] * len(means_lab)
    for rank, k in enumerate(order):
        ranks[k] = rank
    return ranks


def _hue_degrees(labs: np.ndarray) -> np.ndarray:
    """The hue angle of each Lab colour (m, 3), in degrees."""
    return np.degrees(np.arctan2(labs[:, 2], labs[:, 1]))


def _make_even(scores: np.ndarray, conf: np.ndarray, die: int, a: int, b: int) -> None:
    """Give one die's colours ``a`` and ``b`` the mean of their two scores and cap its
    confidence there (in place): the die is asked, and either colour may be chosen."""
    even = (scores[die, a] + scores[die, b]) / 2
    scores[die, a] = scores[die, b] = even
    conf[die] = min(conf[die], even)


def _hue_bands(hue: np.ndarray, order: list[int | None]
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per colour (``hue``: each colour's hue in degrees): the lowest and highest hue a die
    read as it may have and stay sure (``HUE_BAND``), and the neighbouring colour below and
    above (-1: none; unranked colours get no bounds)."""
    k = len(hue)
    low, high = np.full(k, -np.inf), np.full(k, np.inf)
    below, above = np.full(k, -1), np.full(k, -1)
    ranked = sorted((r, c) for c, r in enumerate(order) if r is not None)
    for (_, a), (_, b) in zip(ranked[:-1], ranked[1:], strict=True):
        gap = hue[b] - hue[a]
        high[a], above[a] = hue[a] + HUE_BAND * gap, b
        low[b], below[b] = hue[b] - HUE_BAND * gap, a
    return low, high, below, above
