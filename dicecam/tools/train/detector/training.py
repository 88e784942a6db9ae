"""Train the die detector on synthetic tables (plus the tuning part of the real photos).

``train_detector(out_path, minutes=...)`` renders a pool of small synthetic table tiles
(dice 5-64 px of every built-in set and of random looks, loose and in touching clusters,
cards, tokens, plain cubes, board print, hands), adds the *tuning* photos of the real
development set when present (the held-out photos are never used), trains
``DetectorNet`` with CenterNet's focal loss for a fixed wall-clock budget on the CPU and
exports ONNX. Deterministic in data (seeded); timing decides the number of steps.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from dicecam.synth.camera import turned_table_corners
from dicecam.synth.scene import SceneSpec, render_scene
from dicecam.teach.learn.detector_targets import STRIDE, Sample, targets
from dicecam.tools.realdata import (
    SOURCES,
    background_photos,
    real_data_dir,
    real_photos,
    select_photos,
)
from dicecam.tools.train.detector.copy_paste import copy_paste_pool, table_crop
from dicecam.tools.train.from_onnx import freeze_batch_norms, load_folded_onnx
from dicecam.tools.train.reader.crowd_crops import crowd_tiles
from dicecam.tools.train.reader.rendered import read_labels

TILE = 256
#: Training crops are cut from tiles: small crops keep a step cheap on a shared CPU.
CROP = 160
#: The long side frames are scaled to before detection; real photos are scaled the same way.
INPUT_LONG_SIDE = 640


#: The crowded throws' tiles at these scales of a frame's (the demo's dice are 30 px at the
#: net's input; a 1080p frame's Dice Party dice 13-19 px). At the frame's own scale only,
#: a fine-tune missed 1.1% more of ``bench reader``'s 1080p dice; 0.4-1.2 read 0.3% more.
CROWD_SCALES = (0.4, 1.2)

#: Bumped whenever a tile's drawing changes, so a --cache folder never mixes versions.
TILE_VERSION = 1


def synthetic_tile(seed: int, table: np.ndarray | None = None) -> Sample:
    """One rendered tile (``table``: a real picture to draw the dice on)."""
    rng = np.random.default_rng(seed)
    size = math.exp(rng.uniform(math.log(5.0), math.log(64.0)))
    density = rng.uniform(0.03, 0.3)
    n = int(min(90, max(1, density * TILE * TILE / (size * size))))
    dice_set = [None, None, "diceparty", "dicetopia", "charidice", "v6"][int(rng.integers(6))]
    spec = SceneSpec(
        width=TILE, height=TILE, n_dice=n, die_px=(size * 0.9, size * 1.1), dice_set=dice_set,
        # Some tiles lean the dice far enough to show side faces (a webcam at an angle):
        # their pips must not count as another die.
        cluster_share=rng.uniform(0.2, 0.95),
        max_tilt=rng.uniform(0, 15) if rng.random() < 0.6 else rng.uniform(20, 35),
        distractors=int(rng.integers(0, 4 + int(TILE * TILE / (size * 6) ** 2))),
        hand_probability=0.25,
        # 0.12 was tried (3,000 tiles, 100 minutes): webcam precision +1 point, recall
        # -0.3 and real value accuracy -1.1 points; not shipped (see
        # 2026-12-07-detector-notebook.md).
        keyboard_probability=0.0,
    )
    if rng.random() < 0.04:  # an empty table now and then
        spec = SceneSpec(width=TILE, height=TILE, n_dice=0, die_px=(size, size),
                         distractors=spec.distractors + 3, hand_probability=0.5)
    scene = render_scene(rng, spec, table)
    boxes = np.array([(d.cx, d.cy, d.w, d.h) for d in scene.visible_dice], np.float32)
    return Sample(scene.image_bgr, boxes.reshape(-1, 4), np.ones(len(boxes), bool),
                  scene.hand_mask)


def synthetic_pool(count: int, seed: int = 1, workers: int = 2,
                   cache: Path | None = None) -> list[Sample]:
    """``count`` rendered tiles; with ``cache`` (a folder) tiles rendered before are reused."""
    seeds = [seed * 1_000_003 + i for i in range(count)]
    if cache is None:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(synthetic_tile, seeds, chunksize=16))
    cache.mkdir(parents=True, exist_ok=True)

    def tile_file(s: int) -> Path:
        return cache / f"tile_v{TILE_VERSION}_{s}.npz"

    missing = [s for s in seeds if not tile_file(s).is_file()]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for s, sample in zip(missing, pool.map(synthetic_tile, missing, chunksize=8),
                             strict=True):
            np.savez(tile_file(s), image=sample.image, boxes=sample.boxes,
                     known=sample.size_known, hand=sample.hand)
    samples = []
    for s in seeds:
        data = np.load(tile_file(s))
        samples.append(Sample(data["image"], data["boxes"], data["known"], data["hand"]))
    return samples


#: Sources whose estimated face is good enough to learn a die's size from
#: (``estimated_sizes``): pxl's face, 0.7 of the box around the whole die, matches the
#: shipped detector's own boxes on those dice (median 0.68-0.70); the webcam's face is the
#: pip pattern's box over 0.6, floored at 60 px: a guess, not a measurement.
SIZE_ESTIMATED_SOURCES = ("pxl",)


def real_pool(sources=None, leave_out=(), estimated_sizes: bool = False
              ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, str]]:
    """(image scaled to INPUT_LONG_SIDE, boxes, size_known, source) of the real *tuning* photos of
    ``sources`` (None: all) except those of ``leave_out``. With ``estimated_sizes`` the
    estimated faces of ``SIZE_ESTIMATED_SOURCES`` count as known sizes."""

    root = real_data_dir()
    if root is None:
        return []
    out = []
    for photo in select_photos(real_photos(root), sources=sources, leave_out=leave_out,
                               held_out=False):
        image = cv2.imread(str(photo.image))
        if image is None:
            continue
        h, w = image.shape[:2]
        dice = photo.dice(w, h)
        k = INPUT_LONG_SIDE / max(h, w)
        image = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
        boxes = np.array([(d.cx * k, d.cy * k, d.w * k, d.h * k) for d in dice], np.float32)
        learn = estimated_sizes and photo.source in SIZE_ESTIMATED_SOURCES
        known = np.array([d.box_is_face or learn for d in dice], bool)
        out.append((image, boxes.reshape(-1, 4), known, photo.source))
    return out


def pasted_pool(count: int, seed: int, negatives: list, workers: int = 2) -> list[Sample]:
    """``count`` rendered tiles whose table is a crop of a real photo without dice (at a
    random scale): dice lying on a chess board or a carpet, so that learning what is not a
    die from those photos never teaches that a board holds no dice."""
    if not negatives or count <= 0:
        return []
    rng = np.random.default_rng(seed + 7_919)
    seeds = [seed * 2_000_003 + i for i in range(count)]
    tables = [table_crop(rng, negatives[int(rng.integers(len(negatives)))][0], TILE)
              for _ in seeds]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(synthetic_tile, seeds, tables, chunksize=8))


def background_pool(renders: tuple[Path, ...] = (), photos: bool = True
                    ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The real photos *without* dice that training may use (boards, pieces, dominoes,
    carpets; never the held-out third of each folder), and the rendered tables without a
    d6 in ``renders`` (``dicecam train render --tables``), scaled like the real photos, as
    items of ``real_pool``'s shape with no boxes: every peak the detector puts there is
    wrong."""
    out = []
    paths = [path for _folder, path in background_photos(held_out=False)] if photos else []
    for folder in renders:
        paths += [folder / record["file"] for record in read_labels(folder)]
    for path in paths:
        image = cv2.imread(str(path))
        if image is None:
            continue
        h, w = image.shape[:2]
        k = INPUT_LONG_SIDE / max(h, w)
        image = cv2.resize(image, (round(w * k), round(h * k)),
                           interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
        out.append((image, np.zeros((0, 4), np.float32), np.zeros(0, bool)))
    return out


def real_tile(rng: np.random.Generator, item: tuple) -> Sample:
    """A TILE square of a ``real_pool`` or ``background_pool`` photo at a random scale."""
    image, boxes, known = item[:3]
    scale = math.exp(rng.uniform(math.log(0.5), math.log(1.6)))
    h, w = image.shape[:2]
    scaled = cv2.resize(image, (max(TILE, round(w * scale)), max(TILE, round(h * scale))),
                        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sx, sy = scaled.shape[1] / w, scaled.shape[0] / h
    x0 = int(rng.integers(0, scaled.shape[1] - TILE + 1))
    y0 = int(rng.integers(0, scaled.shape[0] - TILE + 1))
    tile = scaled[y0:y0 + TILE, x0:x0 + TILE].copy()
    b = boxes.copy()
    b[:, 0] = b[:, 0] * sx - x0
    b[:, 1] = b[:, 1] * sy - y0
    b[:, 2] *= sx
    b[:, 3] *= sy
    inside = (b[:, 0] >= 0) & (b[:, 0] < TILE) & (b[:, 1] >= 0) & (b[:, 1] < TILE)
    return Sample(tile, b[inside], known[inside], np.zeros((TILE, TILE), np.uint8))


#: The most a squashed tile is squeezed along one axis (phone photos saved as squares,
#: like pxl's, show dice up to about 1.4 times as wide as tall).
MAX_SQUASH = 1.4


def squash(rng: np.random.Generator, s: Sample, size: int = CROP) -> Sample:
    """The tile squeezed along one axis by up to ``MAX_SQUASH`` (never below ``size``):
    the detector otherwise only ever sees square dice and under-reads stretched photos."""
    h, w = s.image.shape[:2]
    factor = math.exp(rng.uniform(0.0, math.log(MAX_SQUASH)))
    sx, sy = (1.0 / factor, 1.0) if rng.random() < 0.5 else (1.0, 1.0 / factor)
    nw, nh = max(size, round(w * sx)), max(size, round(h * sy))
    sx, sy = nw / w, nh / h
    image = cv2.resize(s.image, (nw, nh), interpolation=cv2.INTER_AREA)
    hand = cv2.resize(s.hand, (nw, nh), interpolation=cv2.INTER_AREA)
    boxes = s.boxes * np.array([sx, sy, sx, sy], np.float32)
    return Sample(image, boxes, s.size_known, hand)


#: A tilted tile's table turns this far from facing the camera (``tilt``): a camera
#: clipped to a tablet stand looks 30-50 degrees off vertical.
TILT_DEGREES = (20.0, 55.0)


def tilt(rng: np.random.Generator, s: Sample) -> Sample:
    """The tile as a camera 20-55 degrees off vertical sees its table (``TILT_DEGREES``):
    the table plane turned about a horizontal axis through the tile's centre, seen by a
    pinhole camera (focal length 1-4 tile diagonals, as a tile is part of a frame), then
    scaled so the turned table fills the tile again. A die's box becomes the box around its
    turned corners, as ``bench real``'s tilted views turn their labels: the detector learns
    the whole stretched face, where it had drawn a box round half of it."""
    h, w = s.image.shape[:2]
    angle = math.radians(rng.uniform(*TILT_DEGREES))
    focal = math.hypot(w, h) * rng.uniform(1.0, 4.0)
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    moved = turned_table_corners(w, h, angle, focal)
    # the largest centred box inside the turned table, blown up to the whole tile (no
    # smeared edge pixels, no mirrored dice nobody labelled)
    half_w = min(w / 2 - moved[0, 0], moved[1, 0] - w / 2, w / 2 - moved[3, 0],
                 moved[2, 0] - w / 2)
    half_h = min(h / 2 - moved[0, 1], moved[3, 1] - h / 2)
    grow = max(w / 2 / half_w, h / 2 / half_h)
    moved = (moved - [w / 2, h / 2]) * grow + [w / 2, h / 2]
    homography = cv2.getPerspectiveTransform(corners, np.float32(moved))
    image = cv2.warpPerspective(s.image, homography, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    hand = cv2.warpPerspective(s.hand, homography, (w, h), flags=cv2.INTER_NEAREST)
    if len(s.boxes):
        cx, cy, bw, bh = s.boxes.T
        quads = np.stack([np.stack([cx - bw / 2, cy - bh / 2], 1),
                          np.stack([cx + bw / 2, cy - bh / 2], 1),
                          np.stack([cx + bw / 2, cy + bh / 2], 1),
                          np.stack([cx - bw / 2, cy + bh / 2], 1)], 1)
        points = cv2.perspectiveTransform(quads.reshape(-1, 1, 2).astype(np.float32),
                                          homography).reshape(-1, 4, 2)
        low, high = points.min(axis=1), points.max(axis=1)
        boxes = np.concatenate([(low + high) / 2, high - low], axis=1).astype(np.float32)
    else:
        boxes = s.boxes
    return Sample(image, boxes, s.size_known, hand)


def augment(rng: np.random.Generator, s: Sample, size: int = CROP,
            squash_share: float = 0.0, tilt_share: float = 0.0) -> Sample:
    """A random ``size`` crop of a tile, flipped, transposed and re-lit at random; a
    ``squash_share`` of tiles squeezed first and a ``tilt_share`` tilted (``tilt``; no
    draw at 0, so older recipes reproduce)."""
    if squash_share > 0 and rng.random() < squash_share:
        s = squash(rng, s, size)
    if tilt_share > 0 and rng.random() < tilt_share:
        s = tilt(rng, s)
    h, w = s.image.shape[:2]
    x0 = int(rng.integers(0, w - size + 1))
    y0 = int(rng.integers(0, h - size + 1))
    img = s.image[y0:y0 + size, x0:x0 + size]
    hand = s.hand[y0:y0 + size, x0:x0 + size]
    boxes = s.boxes.copy()
    boxes[:, 0] -= x0
    boxes[:, 1] -= y0
    inside = ((boxes[:, 0] >= 0) & (boxes[:, 0] < size) & (boxes[:, 1] >= 0)
              & (boxes[:, 1] < size))
    boxes, known = boxes[inside], s.size_known[inside]
    if rng.random() < 0.5:
        img, hand = img[:, ::-1], hand[:, ::-1]
        boxes[:, 0] = size - boxes[:, 0]
    if rng.random() < 0.5:
        img, hand = img[::-1], hand[::-1]
        boxes[:, 1] = size - boxes[:, 1]
    if rng.random() < 0.5:
        img, hand = img.transpose(1, 0, 2), hand.T
        boxes = boxes[:, [1, 0, 3, 2]]
    img = img.astype(np.float32)
    if rng.random() < 0.3:
        img = img[..., rng.permutation(3)]
    img = img * rng.uniform(0.75, 1.25) + rng.uniform(-20, 20)
    return Sample(np.clip(img, 0, 255), boxes, known, np.ascontiguousarray(hand))


def train_detector(out_path: Path, *, minutes: float = 18.0, pool_size: int = 1200,
                   seed: int = 1, threads: int = 1, cache: Path | None = None,
                   steps: int | None = None, init: Path | None = None,
                   weights_out: Path | None = None, real_sources=None, leave_out=(),
                   init_onnx: Path | None = None, backgrounds: float = 0.0,
                   pasted: int = 0, lr: float = 3e-3, squash_share: float = 0.0,
                   copy_paste: int = 0, crowd_throws: int = 0,
                   crowd_scales: tuple[float, float] = CROWD_SCALES, estimated_sizes: bool = False,
                   negative_renders: tuple[Path, ...] = (), negative_render_share: float = 0.5,
                   tilt_share: float = 0.0, log=print) -> dict:
    """Render (or load from ``cache``) the synthetic tiles, then train for what is left of
    ``minutes`` (or exactly ``steps`` steps, which reproduces a model whatever the machine's
    speed) and export. One torch thread by default: on a CPU shared with other jobs, more
    threads wait on each other far more than they compute. The real tuning photos come
    from ``real_sources`` (None: every source) less ``leave_out``; ``backgrounds`` is the
    share of each batch cut from the real photos without dice (hard negatives), and
    ``pasted`` more synthetic tiles are drawn on those photos (dice on real boards);
    ``squash_share`` of the tiles are squeezed along one axis (``squash``) and
    ``tilt_share`` seen from a tilted camera (``tilt``);
    ``copy_paste`` more tiles paste the real tuning dice onto those photos without dice
    (``copy_paste.py``); ``crowd_throws`` crowded Dice Party throws give two tiles each
    (``crowd_crops.crowd_tiles``, at ``crowd_scales``); ``estimated_sizes`` learns the
    size of pxl's estimated faces. ``init_onnx`` fine-tunes a shipped ONNX model (its
    batch norms frozen)."""
    started = time.monotonic()
    log(f"rendering {pool_size} synthetic tiles...")
    synth = synthetic_pool(pool_size, seed, cache=cache)
    leave_out = tuple(leave_out)
    real = real_pool(real_sources, leave_out, estimated_sizes)
    negatives = background_pool() if backgrounds > 0 or pasted > 0 or copy_paste > 0 else []
    if pasted > 0:
        log(f"rendering {pasted} tiles of dice on the real photos without dice...")
        synth = synth + pasted_pool(pasted, seed, negatives)
    if copy_paste > 0:
        pasted_real = copy_paste_pool(copy_paste, seed, real, negatives, TILE)
        log(f"pasted the real tuning dice onto {len(pasted_real)} tiles of the photos "
            f"without dice")
        synth = synth + pasted_real
    if crowd_throws > 0:
        crowded = [Sample(image, boxes, np.ones(len(boxes), bool),
                          np.zeros(image.shape[:2], np.uint8))
                   for image, boxes in crowd_tiles(crowd_throws, seed, TILE, INPUT_LONG_SIDE,
                                                   scales=crowd_scales)]
        log(f"cut {len(crowded)} tiles from {crowd_throws} crowded Dice Party throws")
        synth = synth + crowded
    if backgrounds <= 0:
        negatives = []
    elif negative_renders:  # hard negatives only, never pasted on; after the photos, so
        # that a recipe without them draws the same tiles as before. The photos repeated so
        # that about ``negative_render_share`` of the draws are renders: 316 renders beside
        # 57 photos otherwise crowd the real boards out (a first try doubled the false dice
        # on the real dominoes)
        rendered = background_pool(negative_renders, photos=False)
        repeat = max(1, round(len(rendered) * (1 - negative_render_share)
                              / (negative_render_share * max(1, len(negatives)))))
        negatives = negatives * repeat + rendered
    left = f" (left out: {', '.join(leave_out)})" if leave_out else ""
    log(f"pool ready in {time.monotonic() - started:.0f} s: {len(synth)} synthetic tiles, "
        f"{len(real)} real tuning photos{left}, {len(negatives)} real photos without dice")
    seconds = math.inf if steps is not None else minutes * 60 - (time.monotonic() - started)

    used = [name for name in (real_sources or SOURCES) if name not in leave_out]
    metadata = {"left_out": ",".join(leave_out), "real_sources": ",".join(used),
                "background_share": str(backgrounds), "pasted_tiles": str(pasted),
                "fine_tuned_from": Path(init_onnx).name if init_onnx else "",
                "squash_share": str(squash_share), "copy_paste_tiles": str(copy_paste),
                **({"crowd_throws": str(crowd_throws),
                    "crowd_scales": " ".join(f"{k:g}" for k in crowd_scales)}
                   if crowd_throws else {}),
                "estimated_sizes": ",".join(SIZE_ESTIMATED_SOURCES) if estimated_sizes else "",
                "negative_renders": ",".join(f"{Path(f).name}:{len(read_labels(Path(f)))}"
                                             for f in negative_renders),
                "negative_render_share": str(negative_render_share) if negative_renders else "",
                **({"tilt_share": str(tilt_share)} if tilt_share else {})}
    summary = train_on(synth, real, out_path, seconds=seconds, seed=seed, threads=threads,
                       steps=steps, init=init, weights_out=weights_out, metadata=metadata,
                       negatives=negatives, negative_share=backgrounds, init_onnx=init_onnx,
                       lr=lr, squash_share=squash_share, tilt_share=tilt_share, log=log)
    summary["seconds"] = round(time.monotonic() - started)
    summary["left_out"] = list(leave_out)
    summary["real_sources"] = used
    summary["background_photos"] = len(negatives)
    return summary


def train_on(synth: list[Sample], real: list, out_path: Path, *, seconds: float,
             seed: int = 1, threads: int = 1, batch: int = 16, real_share: float = 0.3,
             steps: int | None = None, init: Path | None = None,
             weights_out: Path | None = None, metadata: dict[str, str] | None = None,
             negatives: list | None = None, negative_share: float = 0.0,
             init_onnx: Path | None = None, lr: float = 3e-3, squash_share: float = 0.0,
             tilt_share: float = 0.0, log=print) -> dict:
    """Train for ``seconds`` of wall clock, or for exactly ``steps`` steps when given (the
    learning-rate schedule then follows the step count instead of the clock).

    ``init`` starts from saved torch weights (fine-tuning) instead of from scratch;
    ``weights_out`` keeps the torch weights beside each export, since the ONNX file has
    its batch norms folded into the convolutions and cannot be trained on."""
    import torch

    from dicecam.tools.train.detector.net import DetectorNet, ExportedDetector

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    net = DetectorNet()
    if init is not None:
        net.load_state_dict(torch.load(init, map_location="cpu", weights_only=True))
    frozen_norms = init_onnx is not None
    if frozen_norms:
        load_folded_onnx(net, init_onnx)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    budget = max(10.0, seconds - 20)
    train_start = time.monotonic()
    step = 0
    losses: list[float] = []
    while True:
        elapsed = time.monotonic() - train_start
        # steps=0 exports the starting weights as they are (an --init model to ONNX)
        progress = (step / steps if steps else 1.0) if steps is not None else elapsed / budget
        if progress >= 1.0:
            break
        warm = min(1.0, (step + 1) / 50)
        for group in opt.param_groups:
            group["lr"] = lr * warm * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
        samples = []
        for _ in range(batch):
            draw = rng.random()
            if real and draw < real_share:
                s = real_tile(rng, real[int(rng.integers(len(real)))])
            elif negatives and draw < real_share + negative_share:
                s = real_tile(rng, negatives[int(rng.integers(len(negatives)))])
            else:
                s = synth[int(rng.integers(len(synth)))]
            samples.append(augment(rng, s, squash_share=squash_share, tilt_share=tilt_share))
        parts = [targets(s) for s in samples]
        x = torch.from_numpy(np.stack([s.image.transpose(2, 0, 1) for s in samples]))
        heat_t, reg_t, mask_t, hand_t = (torch.from_numpy(np.stack([p[k] for p in parts]))
                                         for k in range(4))
        net.train()
        if frozen_norms:
            freeze_batch_norms(net)
        loss = _loss(net(x.float()), heat_t, reg_t, mask_t, hand_t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
        step += 1
        if step % 50 == 0:
            log(f"step {step}  loss {np.mean(losses[-50:]):.3f}  "
                f"{time.monotonic() - train_start:.0f} s")
        if step % 500 == 0:
            net.eval()
            export(ExportedDetector(net), out_path, metadata)
            _save_weights(net, weights_out)
    net.eval()
    export(ExportedDetector(net), out_path, metadata)
    _save_weights(net, weights_out)
    return {"steps": step, "final_loss": float(np.mean(losses[-100:])) if losses else None,
            "synthetic_tiles": len(synth), "real_photos": len(real)}


def _save_weights(net, path: Path | None) -> None:
    if path is not None:
        import torch

        Path(path).parent.mkdir(parents=True, exist_ok=True)
        torch.save(net.state_dict(), path)


def _loss(out, heat_t, reg_t, mask_t, hand_t):
    import torch
    from torch.nn import functional

    pred = torch.sigmoid(out[:, 0:1]).clamp(1e-4, 1 - 1e-4)
    pos = heat_t.eq(1.0).float()
    neg = 1.0 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred ** 2 * (1 - heat_t) ** 4 * neg
    n_pos = pos.sum().clamp(min=1.0)
    focal = -(pos_loss.sum() + neg_loss.sum()) / n_pos
    off_mask, size_mask = mask_t[:, 0:1], mask_t[:, 1:2]
    off = (functional.l1_loss(out[:, 1:3], reg_t[:, 0:2], reduction="none") * off_mask).sum()
    size = (functional.l1_loss(out[:, 3:5], reg_t[:, 2:4], reduction="none") * size_mask).sum()
    reg = off / n_pos + size / size_mask.sum().clamp(min=1.0)
    hand = functional.binary_cross_entropy_with_logits(out[:, 5:6], hand_t)
    return focal + reg + 2.0 * hand


def export(model, out_path: Path, metadata: dict[str, str] | None = None) -> None:
    import torch

    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, 368, 640)
    torch.onnx.export(model, dummy, str(out_path), input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"},
                                    "maps": {0: "n", 2: "gh", 3: "gw"}},
                      opset_version=17, dynamo=False)
    import onnx

    model_proto = onnx.load(str(out_path))
    for key, value in (("input_long_side", str(INPUT_LONG_SIDE)), ("stride", str(STRIDE)),
                       ("channels", "peak,dx,dy,logw,logh,hand"),
                       *(metadata or {}).items()):
        entry = model_proto.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model_proto, str(out_path))
