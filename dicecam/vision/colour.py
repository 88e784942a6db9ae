"""The colour stage: die crops + a colour profile -> colour names with confidences.

The game colour is the body's for pip dice and the numeral's for numeral dice, so each crop
is first split into body and mark pixels (``die_parts``). The part that carries the colour
is then white-balanced and compared in CIE Lab with the profile's references, each a
Gaussian with its own spread; the confidence is the posterior probability of the winning
colour, lowered when the crop looks like none of the references.

Which white is used, in order of preference:

1. the profile's anchor: a part of every die with a known colour (Charidice's light body)
   gives each crop its own white, which makes light and exposure drop out;
2. the white fitted at this table (``ColourProfile.white_bgr``);
3. otherwise the light is estimated from the batch: the table light, out of a grid of warm
   to cool lights, that makes the batch's dice look most like the profile's colours.
   The pipeline reads all dice of a frame in one batch, which is what makes this work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class DieParts:
    """Median linear-light B, G, R of a die's body and of its marks (None if none found)."""

    body: np.ndarray
    marks: np.ndarray | None
    body_pixels: int
    mark_pixels: int


def die_parts(crop_bgr: np.ndarray, centre_fraction: float = CENTRE_FRACTION) -> DieParts | None:
    """Split the centre of a crop into body and mark pixels; None for an unusable crop.

    The disc's pixels are split into two colour clusters. The body is the cluster with the
    larger connected piece: the body is one region around the marks, while pips are
    separate blobs, so this holds even when six big pips cover half the disc, or a numeral
    covers its middle.
    """
    if crop_bgr is None or crop_bgr.ndim != 3 or crop_bgr.shape[2] < 3:
        return None
    h, w = crop_bgr.shape[:2]
    side = int(round(min(h, w) * centre_fraction))
    if side < 3:
        return None
    y0, x0 = (h - side) // 2, (w - side) // 2
    # A disc, not a square: a die turned by 45 degrees shows the table in a square's corners.
    yy, xx = np.mgrid[0:side, 0:side]
    r = (side - 1) / 2.0
    rr2 = (yy - r) ** 2 + (xx - r) ** 2
    disc = rr2 <= (r + 0.5) ** 2
    window = crop_bgr[y0 : y0 + side, x0 : x0 + side, :3].astype(np.float64)
    px = window[disc]
    # Marks are looked for away from the disc's rim, where a tilted or turned die can let
    # the table or a neighbour in; a numeral sits in the middle of its face.
    inner = rr2[disc] <= (MARK_FRACTION * r) ** 2
    labels = _two_clusters(px)
    body_px = px[labels == _body_cluster(labels, disc)]
    if len(body_px) < MIN_PIXELS:
        body_px = px
    # Glare clips a coloured body to white; leave clipped pixels out unless the body itself
    # is that bright (a white die under a strong lamp).
    unclipped = body_px[(body_px < CLIPPED).all(axis=1)]
    if len(unclipped) >= max(MIN_PIXELS, len(body_px) // 3):
        body_px = unclipped
    body = np.median(body_px, axis=0)
    candidates = px[inner] if inner.sum() >= MIN_PIXELS else px
    dist = np.linalg.norm(candidates - body, axis=1)
    # Marks: pixels clearly away from the body; their colour is read from the cores of the
    # strokes (the farthest ones), since thin numerals blend into the body at their edges.
    far = np.percentile(dist, 99)
    threshold = max(40.0, 0.5 * far)
    mark_px = candidates[dist > threshold]
    marks = None
    if len(mark_px) >= MIN_PIXELS:
        mark_d = np.linalg.norm(mark_px - body, axis=1)
        cores = mark_px[mark_d >= np.percentile(mark_d, 100 - CORE_PERCENT)]
        marks = srgb_to_linear(np.median(cores, axis=0))
    return DieParts(
        body=srgb_to_linear(body),
        marks=marks,
        body_pixels=len(body_px),
        mark_pixels=len(mark_px),
    )


def _two_clusters(px: np.ndarray, iterations: int = 6) -> np.ndarray:
    """Deterministic 2-means, started from the extremes along the main colour axis."""
    centred = px - px.mean(axis=0)
    cov = centred.T @ centred
    axis = np.linalg.eigh(cov)[1][:, -1]
    proj = centred @ axis
    centres = np.array([px[np.argmin(proj)], px[np.argmax(proj)]])
    labels = np.zeros(len(px), dtype=np.int64)
    for _ in range(iterations):
        d = ((px[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        labels = d.argmin(axis=1)
        for k in (0, 1):
            if (labels == k).any():
                centres[k] = px[labels == k].mean(axis=0)
    return labels


def _body_cluster(labels: np.ndarray, mask: np.ndarray) -> int:
    """The cluster whose largest 4-connected piece inside ``mask`` is larger."""
    import cv2

    image = np.full(mask.shape, -1, dtype=np.int64)
    image[mask] = labels
    best, best_size = 0, -1
    for k in (0, 1):
        count, _lab, stats, _c = cv2.connectedComponentsWithStats(
            (image == k).astype(np.uint8), connectivity=4)
        size = int(stats[1:, cv2.CC_STAT_AREA].max()) if count > 1 else 0
        if size > best_size:
            best, best_size = k, size
    return best


def _lightness_to_y(lightness: np.ndarray) -> np.ndarray:
    """CIE L* back to relative luminance Y (0..1)."""
    f = (np.asarray(lightness, dtype=np.float64) + 16.0) / 116.0
    return np.where(f > 6 / 29, f**3, 3 * (6 / 29) ** 2 * (f - 4 / 29))


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
        self._shading = profile.shading_range
        self._anchor_linear = (
            None if profile.anchor is None else lab_to_linear(np.array(profile.anchor.lab))
        )
        self.candidate_whites = candidate_whites()

    # -- public API -------------------------------------------------------------------

    def read(self, crops_bgr: Sequence[np.ndarray]) -> list[tuple[str | None, float]]:
        """One (colour name or None, confidence) per crop, in order."""
        labs, ok = self.features(crops_bgr)
        out: list[tuple[str | None, float]] = [(None, 0.0)] * len(crops_bgr)
        if not ok.any():
            return out
        names, conf = self._classify(labs[ok])
        for i, name, c in zip(np.flatnonzero(ok), names, conf, strict=True):
            out[int(i)] = (name, float(c))
        return out

    def features(self, crops_bgr: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Lab of each crop's colour-carrying part under the chosen white, and which crops
        could be read at all (shape (n, 3) and (n,))."""
        n = len(crops_bgr)
        colour_lin = np.zeros((n, 3))
        whites = np.zeros((n, 3))
        ok = np.zeros(n, dtype=bool)
        need_batch_white = []
        for i, crop in enumerate(crops_bgr):
            parts = (
                die_parts(np.asarray(crop))
                if crop is not None
                else None
            )
            if parts is None:
                continue
            carrier = parts.marks if self.profile.marks == Marks.NUMERALS else parts.body
            if carrier is None:
                continue
            colour_lin[i] = carrier
            ok[i] = True
            anchor = self.profile.anchor
            if anchor is not None and self._anchor_linear is not None:
                seen = parts.body if anchor.part == AnchorPart.BODY else parts.marks
                if seen is not None:
                    whites[i] = np.maximum(seen, 1e-4) / np.maximum(self._anchor_linear, 1e-4)
                    continue
            if self.profile.white_bgr is not None:
                whites[i] = self.profile.white_bgr
            else:
                need_batch_white.append(i)
        if need_batch_white:
            idx = np.array(need_batch_white)
            whites[idx] = self.estimate_white(colour_lin[idx])
        labs = np.zeros((n, 3))
        labs[ok] = linear_to_lab(colour_lin[ok], whites[ok])
        return labs, ok

    def estimate_white(self, colours_linear: np.ndarray) -> np.ndarray:
        """The table light that makes these dice look most like the profile's colours."""
        cands = self.candidate_whites
        # (whites, dice, 3) Lab of every die under every candidate light
        labs = linear_to_lab(colours_linear[None, :, :], cands[:, None, :])
        d2 = self.distances(labs.reshape(-1, 3), shading=False).reshape(
            len(cands), len(colours_linear), -1)
        cost = np.minimum(d2.min(axis=2), _ROBUST_CAP).sum(axis=1)
        # A light far from neutral must explain the dice clearly better than neutral
        # does: a batch of only orange dice could otherwise pass for red dice under warm
        # light. The prior is mild (a fraction of one die's worth of distance).
        b, g, r = cands[:, 0], cands[:, 1], cands[:, 2]
        chroma = np.abs(np.log(b / r)) + np.abs(np.log(g / np.sqrt(b * r)))
        cost = cost + 2.0 * chroma
        return cands[int(np.argmin(cost))]

    def distances(self, labs: np.ndarray, *, shading: bool = True) -> np.ndarray:
        """Squared Mahalanobis distance of each Lab (m, 3) to each colour: (m, k).

        With ``shading`` each colour is first darkened or brightened (within the profile's
        shading range) to the die's own lightness, so a yellow die in a shadow is still
        compared with yellow, not with the darker orange. Estimating the table's white
        goes without: its brightness is the camera's exposure, which shading would hide.
        """
        y = _lightness_to_y(labs[:, 0])
        lo, hi = self._shading if shading else (1.0, 1.0)
        scale = np.clip(y[:, None] / self._ref_y[None, :], lo, hi)  # (m, k)
        shaded = linear_to_lab(scale[:, :, None] * self._ref_linear[None, :, :])
        diff = (labs[:, None, :] - shaded) / self._spreads[None, :, :]
        return (diff * diff).sum(axis=2)

    # -- internals --------------------------------------------------------------------

    def _classify(self, labs: np.ndarray) -> tuple[list[str], np.ndarray]:
        d2 = self.distances(labs)
        loglik = -0.5 * d2 - self._log_norm[None, :]
        loglik -= loglik.max(axis=1, keepdims=True)
        post = np.exp(loglik)
        post /= post.sum(axis=1, keepdims=True)
        best = post.argmax(axis=1)
        conf = post[np.arange(len(labs)), best]
        if len(self._names) > 1:
            # Unlike every reference: say so through the confidence so the user is asked.
            d2_best = d2[np.arange(len(labs)), best]
            conf = conf * np.exp(-np.maximum(d2_best - TYPICAL_D2, 0.0) / 8.0)
        return [self._names[int(b)] for b in best], np.clip(conf, 0.0, 1.0)
