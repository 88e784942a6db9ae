"""Train the die reader from synthetic crops (plus, optionally, the real tuning photos) and
export it to ONNX.

Reproducible from the seed: the crops come from ``train.reader.crops`` with that seed, torch is
seeded and runs on one thread (the same seed gives the same weights on the same torch
build). Progress goes to stderr. Needs the ``train`` extra (torch, onnx).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from dicecam.errors import InputError
from dicecam.tools.realdata import SOURCES, real_crops, real_data_dir
from dicecam.tools.train.from_onnx import conv_widths, freeze_batch_norms, load_folded_onnx
from dicecam.tools.train.reader.crops import CropOptions, generate_crops
from dicecam.tools.train.reader.crowd_crops import crowd_crops
from dicecam.tools.train.reader.detector_crops import detector_crops
from dicecam.tools.train.reader.hard_negatives import background_crops, rendered_table_crops
from dicecam.tools.train.reader.rendered import rendered_crops
from dicecam.vision.read.die_reader import CLASS_VALUES, TRAINED_MODEL, TURNS_BELOW, resize_crop

#: Synthetic crops never trained on, for the model card and the bench (not the seed + 1
#: validation set used while training).
TEST_SEED = 20261121
DATA_VERSION = 6  # bump when the generator changes, so cached crops are not reused


@dataclass(frozen=True)
class TrainConfig:
    seed: int = 0
    samples: int = 200_000
    val_samples: int = 3_000
    epochs: int = 20
    batch: int = 128
    lr: float = 4e-3
    workers: int = 2
    threads: int = 1
    use_real: bool = True          # fine-tune on the real photos' tuning part where present
    real_share: float = 0.1        # share of each epoch that is real tuning crops
    #: real sources to tune on (None: all) and sources left out (their photos never used,
    #: so a bench of them is leave-one-source-out)
    real_sources: tuple[str, ...] | None = None
    leave_out: tuple[str, ...] = ()
    out: Path = TRAINED_MODEL
    cache_dir: Path | None = None
    #: fine-tune this exported model (batch norms frozen) instead of training from scratch
    init_onnx: Path | None = None
    #: at most this many of the detector's boxes on the real photos without dice, as
    #: class-0 crops (0: none; a seeded random choice when there are more)
    hard_negatives: int = 0
    #: share of training crops squashed, scaled, shifted and slightly turned on the fly
    #: (``_warp``); 0: none
    warp: float = 0.0
    #: also cut each real tuning die the detector finds around the detector's box, as the
    #: runtime cuts it (``detector_crops``); the detector model (None: the shipped one)
    detector_crops: bool = False
    crop_detector: Path | None = None
    #: folders of Blender renders (``dicecam train render``) and the share of each epoch
    #: drawn from their crops
    rendered: tuple[Path, ...] = ()
    rendered_share: float = 0.0
    rendered_limit: int | None = None  # only renders of index under this
    #: crowded Dice Party throws drawn by the demo (``crowd_crops``) and the share of each
    #: epoch drawn from their dice
    crowd_throws: int = 0
    crowd_share: float = 0.0
    crowd_negatives: int = 0  # "not a die" crops a crowded throw
    #: rendered tables without a d6 whose detector boxes join the hard negatives
    negatives: tuple[Path, ...] = ()
    #: the crops' side in pixels (the network is convolutional with global pooling: a
    #: 32 px model fine-tunes at 48 px from the same weights)
    input_px: int = 32
    #: the network's channel widths (``ReaderNet``); None: the shipped reader's, or those
    #: of ``init_onnx``
    widths: tuple[int, int, int, int] | None = None
    #: the cross-entropy's label smoothing: 0.05 keeps the top probability under ~0.96,
    #: so a sure crop and one just over the turns' line look alike (issue 28)
    label_smoothing: float = 0.05
    #: the softmax's temperature folded into the head at export (softmax(logits / T)):
    #: a reader trained without label smoothing is too sure of itself at 1
    temperature: float = 1.0
    #: share of the random-look dice drawn clear, their far faces' marks showing through
    #: (``crops.see_through_look``)
    see_through: float = 0.0
    #: share of training crops recoloured on the fly (``_recolour``: hue turned, saturation
    #: scaled, or grey) and share softened (``_soften``: shrunk and blown up again, the
    #: detail a smaller or blurrier die keeps); 0: none
    recolour: float = 0.0
    soften: float = 0.0
    #: where torch trains ("cpu", or "cuda" where a GPU is): on a GPU the augmentation
    #: draws from a generator of its own there, so a GPU run does not reproduce a CPU one
    device: str = "cpu"
    #: learn what the table reader makes of each crop with this reader (``turned_reading``:
    #: its first reading, or the mean of four quarter turns where that is under
    #: ``TURNS_BELOW``) instead of the crop's label: the written model reads in one pass
    #: what this one read in up to four (issue 28). None: learn the labels
    turns_teacher: Path | None = None
    #: written into the model's metadata: the table reader turns crops read under this
    #: (None: its own ``TURNS_BELOW``; 0: never)
    turns_below: float | None = None


@dataclass
class TrainReport:
    seed: int
    samples: int
    epochs: int
    val_accuracy: float = 0.0
    real_tuning: int = 0
    #: real tuning crops per source, and the sources left out
    real_tuning_by_source: dict[str, int] = field(default_factory=dict)
    left_out: tuple[str, ...] = ()
    hard_negatives: int = 0
    rendered_crops: int = 0
    crowd_crops: int = 0
    history: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def _need_torch():  # -> the torch module
    try:
        import torch
    except ImportError as exc:
        raise InputError("training needs torch: install the training extra with "
                         "`.venv/bin/pip install -e '.[train]'`") from exc
    return torch


def to_input(crops: list[np.ndarray] | np.ndarray, size: int) -> np.ndarray:
    """Crops -> N x size x size x 3 uint8, resized as the runtime reader resizes them."""
    out = np.empty((len(crops), size, size, 3), np.uint8)
    for i, crop in enumerate(crops):
        out[i] = resize_crop(crop, size)
    return out


def synthetic_set(count: int, seed: int, options: CropOptions, workers: int,
                  cache_dir: Path | None, log: Callable[[str], None],
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Generated crops, read from ``cache_dir`` when an identical set was made before."""
    key = hashlib.sha1(json.dumps([DATA_VERSION, count, seed, asdict(options)],
                                  sort_keys=True).encode()).hexdigest()[:12]
    path = cache_dir / f"crops-{key}.npz" if cache_dir is not None else None
    if path is not None and path.is_file():
        log(f"reusing {count} cached crops from {path}")
        data = np.load(path)
        return data["images"], data["labels"]
    images, labels, _ = generate_crops(count, seed, options, workers=workers, progress=log)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, images=images, labels=labels)
    return images, labels


def _augment(torch, x, generator):  # x: N x 3 x S x S float in 0..1
    """Cheap label-keeping changes: quarter turns, channel order (pip colour is not the
    value), colour inversion, brightness and contrast."""
    n, device = x.shape[0], x.device
    k = torch.randint(0, 4, (n,), generator=generator, device=device)
    turned = x.clone()
    for quarter in (1, 2, 3):
        pick = k == quarter
        if pick.any():
            turned[pick] = torch.rot90(x[pick], quarter, dims=(2, 3))
    x = turned
    perms = torch.tensor([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                         device=device)
    perm = perms[torch.randint(0, 6, (n,), generator=generator, device=device)]
    x = torch.gather(x, 1, perm[:, :, None, None].expand(-1, -1, x.shape[2], x.shape[3]))
    invert = torch.rand(n, generator=generator, device=device) < 0.15
    x = torch.where(invert[:, None, None, None], 1.0 - x, x)
    gain = 0.7 + 0.6 * torch.rand(n, 1, 1, 1, generator=generator, device=device)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = 0.7 + 0.6 * torch.rand(n, 1, 1, 1, generator=generator, device=device)
    return ((x - mean) * contrast + mean * gain).clamp(0.0, 1.0)


#: ``_recolour``'s ranges: the hue turn (radians, either way), the saturation's scale, and
#: the share of the recoloured crops made grey
RECOLOUR_TURN = math.pi
RECOLOUR_SATURATION = (0.3, 1.6)
RECOLOUR_GREY = 0.2
#: ``_soften``'s range: the side a crop is shrunk to, as a share of its own
SOFTEN_SCALE = (0.4, 0.85)


def _recolour(torch, x, generator, share: float):  # x: N x 3 x S x S BGR float in 0..1
    """Turn the hue and scale the saturation of a ``share`` of the crops (some made grey),
    keeping each pixel's brightness: the value is in the pips' pattern, not their colours,
    and the channel orders of ``_augment`` give only six colourings of each die."""
    n, device = x.shape[0], x.device
    pick = torch.rand(n, generator=generator, device=device) < share
    if not pick.any():
        return x
    m = int(pick.sum())
    b, g, r = x[pick, 0], x[pick, 1], x[pick, 2]
    luma = 0.114 * b + 0.587 * g + 0.299 * r
    cb, cr = b - luma, r - luma
    turn = (torch.rand(m, 1, 1, generator=generator, device=device) * 2 - 1) * RECOLOUR_TURN
    low, high = RECOLOUR_SATURATION
    scale = low + (high - low) * torch.rand(m, 1, 1, generator=generator, device=device)
    scale = torch.where(torch.rand(m, 1, 1, generator=generator, device=device)
                        < RECOLOUR_GREY, torch.zeros_like(scale), scale)
    cos, sin = torch.cos(turn) * scale, torch.sin(turn) * scale
    cb, cr = cos * cb - sin * cr, sin * cb + cos * cr
    b, r = luma + cb, luma + cr
    g = (luma - 0.114 * b - 0.299 * r) / 0.587
    out = x.clone()
    out[pick] = torch.stack([b, g, r], 1).clamp(0.0, 1.0)
    return out


def _soften(torch, x, generator, share: float):  # x: N x 3 x S x S float in 0..1
    """Shrink a ``share`` of the crops (area) and blow them up again (bilinear): a die
    seen at fewer pixels, as the small dice of a phone photo saved at 640 px."""
    n, size, device = x.shape[0], x.shape[2], x.device
    pick = torch.rand(n, generator=generator, device=device) < share
    if not pick.any():
        return x
    low, high = SOFTEN_SCALE
    small = int(round(size * (low + (high - low) * float(
        torch.rand(1, generator=generator, device=device)))))
    out = x.clone()
    shrunk = torch.nn.functional.interpolate(x[pick], size=(small, small), mode="area")
    out[pick] = torch.nn.functional.interpolate(shrunk, size=(size, size), mode="bilinear",
                                                align_corners=False)
    return out


#: ``_warp``'s ranges: aspect (photos stretched to a square), scale and shift (a detector's
#: box is larger or smaller, off centre), turn in radians (real crops arrive in quarter turns)
WARP_ASPECT = 1.4
WARP_SCALE = (0.85, 1.2)
WARP_SHIFT = 0.08
WARP_TURN = math.pi / 12


def _warp(torch, x, generator, share: float):  # x: N x 3 x S x S float in 0..1
    """Squash, scale, shift and turn a ``share`` of the crops (a label-keeping change).

    Real photos stretch dice (a phone photo saved as a square), detectors cut looser or
    tighter boxes than the renderer's and the real crops come in few orientations: the
    synthetic crops and the ~3,000 real ones seen hundreds of times need the variety.
    """
    n, device = x.shape[0], x.device
    pick = torch.rand(n, generator=generator, device=device) < share
    if not pick.any():
        return x
    m = int(pick.sum())

    def uniform(low: float, high: float, *shape):
        return low + (high - low) * torch.rand(m, *shape, generator=generator, device=device)

    aspect = torch.exp(uniform(-math.log(WARP_ASPECT), math.log(WARP_ASPECT)))
    scale = uniform(*WARP_SCALE)
    turn = uniform(-WARP_TURN, WARP_TURN)
    sx, sy = scale * aspect.sqrt(), scale / aspect.sqrt()  # sample spacing: > 1 zooms out
    cos, sin = torch.cos(turn), torch.sin(turn)
    shift = uniform(-WARP_SHIFT, WARP_SHIFT, 2) * 2  # affine_grid spans -1..1
    theta = torch.stack([torch.stack([sx * cos, -sx * sin, shift[:, 0]], 1),
                         torch.stack([sy * sin, sy * cos, shift[:, 1]], 1)], 1)
    grid = torch.nn.functional.affine_grid(theta, (m, *x.shape[1:]), align_corners=False)
    out = x.clone()
    out[pick] = torch.nn.functional.grid_sample(x[pick], grid, mode="bilinear",
                                                padding_mode="reflection",
                                                align_corners=False)
    return out


def turned_reading(torch, teacher, x, turns_below: float = TURNS_BELOW):
    """What the table reader makes of crops ``x`` (N x 3 x S x S) with ``teacher``: its
    probabilities, or, where the top one is under ``turns_below``, their mean over the crop
    and its three quarter turns (``DieReader.probabilities``)."""
    with torch.no_grad():
        views = torch.cat([x] + [torch.rot90(x, k, dims=(2, 3)) for k in (1, 2, 3)])
        probs = torch.softmax(teacher(views), dim=1).reshape(4, len(x), -1)
        first = probs[0]
        sure = first.max(dim=1).values >= turns_below
        return torch.where(sure[:, None], first, probs.mean(dim=0))


def _accuracy(torch, net, images: np.ndarray, labels: np.ndarray) -> tuple[float, np.ndarray]:
    net.eval()
    device = next(net.parameters()).device
    preds = []
    with torch.no_grad():
        for start in range(0, len(images), 512):
            x = torch.from_numpy(images[start:start + 512]).to(device)
            x = x.permute(0, 3, 1, 2).float() / 255.0
            preds.append(net(x).argmax(dim=1).cpu().numpy())
    pred = np.concatenate(preds) if preds else np.zeros(0, np.int64)
    return float((pred == labels).mean()) if len(labels) else float("nan"), pred


def train_reader(config: TrainConfig, log: Callable[[str], None]) -> TrainReport:
    """Train, export to ``config.out`` and return the figures measured along the way."""
    torch = _need_torch()
    from dicecam.tools.train.reader.net import WIDTHS, ReaderNet, widths_of

    INPUT_PX = config.input_px  # noqa: N806 (the module constant's name, per run)
    started = time.monotonic()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    cv2.setNumThreads(1)
    options = CropOptions(out_px=INPUT_PX, see_through_share=config.see_through)
    log(f"rendering {config.samples} training crops (seed {config.seed})")
    images, labels = synthetic_set(config.samples, config.seed, options, config.workers,
                                   config.cache_dir, log)
    log(f"rendering {config.val_samples} validation crops (seed {config.seed + 1})")
    val_images, val_labels = synthetic_set(config.val_samples, config.seed + 1, options,
                                           config.workers, config.cache_dir, log)
    report = TrainReport(config.seed, config.samples, config.epochs)
    real_images = np.zeros((0, INPUT_PX, INPUT_PX, 3), np.uint8)
    real_labels = np.zeros(0, np.int64)
    if config.use_real:

        if real_data_dir() is None:
            log("real photos not found: training on synthetic crops only")
        else:
            wanted = [name for name in (config.real_sources or SOURCES)
                      if name not in config.leave_out]
            crops, values, sources = [], [], []
            for name in wanted:
                more, more_values, more_sources = real_crops(held_out=False, source=name)
                crops += more
                values += list(more_values)
                sources += more_sources
                report.real_tuning_by_source[name] = len(more_values)
                if config.detector_crops:
                    cut, cut_values = detector_crops(name, detector_path=config.crop_detector,
                                                     log=log)
                    crops += cut
                    values += cut_values
                    sources += [name] * len(cut_values)
                    report.real_tuning_by_source[f"{name}_detector_cut"] = len(cut_values)
            real_images = to_input(crops, INPUT_PX)
            real_labels = np.array(values, np.int64)
            report.real_tuning = len(values)
            left = f"; left out: {', '.join(config.leave_out)}" if config.leave_out else ""
            log(f"fine-tuning on {len(values)} real crops ({report.real_tuning_by_source}; "
                f"tuning part; held-out part unused{left})")
    report.left_out = tuple(config.leave_out)
    if config.hard_negatives:
        negatives = background_crops(INPUT_PX, log=log)
        if config.negatives:
            negatives = np.concatenate([negatives,
                                        rendered_table_crops(config.negatives, INPUT_PX,
                                                             log=log)])
        if len(negatives) > config.hard_negatives:
            pick = np.random.default_rng(config.seed).choice(
                len(negatives), config.hard_negatives, replace=False)
            negatives = negatives[np.sort(pick)]
            log(f"kept {len(negatives)} of them")
        real_images = np.concatenate([real_images, negatives])
        real_labels = np.concatenate([real_labels, np.zeros(len(negatives), np.int64)])
        report.hard_negatives = len(negatives)

    rendered_images = np.zeros((0, INPUT_PX, INPUT_PX, 3), np.uint8)
    rendered_labels = np.zeros(0, np.int64)
    if config.rendered:
        rendered_images, rendered_labels = rendered_crops(config.rendered, INPUT_PX,
                                                          config.seed,
                                                          limit=config.rendered_limit, log=log)
        report.rendered_crops = len(rendered_labels)
        log(f"{len(rendered_labels)} crops cut from the renders")

    crowd_images = np.zeros((0, INPUT_PX, INPUT_PX, 3), np.uint8)
    crowd_labels = np.zeros(0, np.int64)
    if config.crowd_throws:
        crowd_images, crowd_labels = crowd_crops(config.crowd_throws, INPUT_PX, config.seed,
                                                 config.crowd_negatives, log)
        report.crowd_crops = len(crowd_labels)
        log(f"{len(crowd_labels)} crops of dice in {config.crowd_throws} crowded throws")

    widths = config.widths or WIDTHS
    if config.init_onnx is not None:
        widths = widths_of(conv_widths(config.init_onnx))
        if config.widths is not None and tuple(config.widths) != widths:
            raise ValueError(f"--widths {config.widths}: {config.init_onnx} has {widths}")
    net = ReaderNet(widths)
    log(f"network widths {widths}: "
        f"{sum(p.numel() for p in net.parameters()) / 1000:.0f}k parameters")
    if config.init_onnx is not None:
        load_folded_onnx(net, config.init_onnx)
    device = torch.device(config.device)
    net.to(device)
    # the batches' order is drawn on the CPU; the augmentation where the batch is (on the
    # CPU from the same generator, so CPU recipes reproduce as before)
    generator = torch.Generator().manual_seed(config.seed)
    augment_generator = (generator if device.type == "cpu"
                         else torch.Generator(device=device).manual_seed(config.seed))
    real_per_epoch = int(round(config.samples * config.real_share)) if len(real_labels) else 0
    rendered_per_epoch = (int(round(config.samples * config.rendered_share))
                          if len(rendered_labels) else 0)
    crowd_per_epoch = (int(round(config.samples * config.crowd_share))
                       if len(crowd_labels) else 0)
    steps_per_epoch = math.ceil((config.samples + real_per_epoch + rendered_per_epoch
                                 + crowd_per_epoch) / config.batch)
    optimiser = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=5e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=config.lr, total_steps=steps_per_epoch * config.epochs,
        pct_start=0.15)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=config.label_smoothing)
    teacher = None
    if config.turns_teacher is not None:
        teacher = ReaderNet(widths_of(conv_widths(config.turns_teacher)))
        load_folded_onnx(teacher, config.turns_teacher)
        teacher.to(device).eval()
        log(f"learning {config.turns_teacher.name}'s turned readings, not the labels")
    all_images = torch.from_numpy(np.concatenate([images, real_images, rendered_images,
                                                  crowd_images]))
    all_labels = torch.from_numpy(np.concatenate([labels, real_labels, rendered_labels,
                                                  crowd_labels]).astype(np.int64))
    if device.type != "cpu":  # the whole set on the GPU: no copy a batch (about 1 GB)
        all_images, all_labels = all_images.to(device), all_labels.to(device)
    n_synth, n_real = len(labels), len(real_labels)
    for epoch in range(config.epochs):
        net.train()
        if config.init_onnx is not None:
            freeze_batch_norms(net)  # the folded statistics are the model's own
        order = torch.randperm(n_synth, generator=generator)
        if real_per_epoch:
            real_pick = n_synth + torch.randint(0, n_real, (real_per_epoch,),
                                                generator=generator)
            order = torch.cat([order, real_pick])[torch.randperm(len(order) + real_per_epoch,
                                                                 generator=generator)]
        if rendered_per_epoch:  # drawn only when used: older recipes reproduce
            rendered_pick = n_synth + n_real + torch.randint(
                0, len(rendered_labels), (rendered_per_epoch,), generator=generator)
            order = torch.cat([order, rendered_pick])[
                torch.randperm(len(order) + rendered_per_epoch, generator=generator)]
        if crowd_per_epoch:  # drawn only when used, as the renders
            crowd_pick = n_synth + n_real + len(rendered_labels) + torch.randint(
                0, len(crowd_labels), (crowd_per_epoch,), generator=generator)
            order = torch.cat([order, crowd_pick])[
                torch.randperm(len(order) + crowd_per_epoch, generator=generator)]
        seen, loss_sum, tick = 0, torch.zeros((), device=device), time.monotonic()
        order = order.to(device)
        for step in range(steps_per_epoch):
            index = order[step * config.batch:(step + 1) * config.batch]
            if len(index) == 0:
                break
            x = all_images[index].permute(0, 3, 1, 2).float() / 255.0
            if config.warp:  # no draw from the generator when off: older recipes reproduce
                x = _warp(torch, x, augment_generator, config.warp)
            if config.recolour:
                x = _recolour(torch, x, augment_generator, config.recolour)
            if config.soften:
                x = _soften(torch, x, augment_generator, config.soften)
            x = _augment(torch, x, augment_generator)
            if teacher is None:
                loss = loss_fn(net(x), all_labels[index])
            else:
                target = turned_reading(torch, teacher, x)
                loss = -(target * torch.log_softmax(net(x), dim=1)).sum(dim=1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            seen += len(index)
            # summed where the loss is: on a GPU, reading it back each step would wait
            loss_sum += loss.detach() * len(index)
            if step % 100 == 0 and step:
                rate = seen / (time.monotonic() - tick)
                left = (steps_per_epoch - step) * config.batch / rate
                log(f"epoch {epoch + 1}/{config.epochs} step {step}/{steps_per_epoch} "
                    f"loss {float(loss_sum) / seen:.4f} ({rate:.0f} crops/s, "
                    f"epoch ends in {left:.0f} s)")
        val_acc, _ = _accuracy(torch, net, val_images, val_labels)
        entry = {"epoch": epoch + 1, "loss": round(float(loss_sum) / max(seen, 1), 4),
                 "val_accuracy": round(val_acc, 4)}
        if n_real:
            real_acc, _ = _accuracy(torch, net, real_images, real_labels)
            entry["real_tuning_accuracy"] = round(real_acc, 4)
        if len(rendered_labels):
            rendered_acc, _ = _accuracy(torch, net, rendered_images, rendered_labels)
            entry["rendered_accuracy"] = round(rendered_acc, 4)
        if len(crowd_labels):
            crowd_acc, _ = _accuracy(torch, net, crowd_images, crowd_labels)
            entry["crowd_accuracy"] = round(crowd_acc, 4)
        report.history.append(entry)
        log(f"epoch {epoch + 1}: {entry}")
    report.val_accuracy = report.history[-1]["val_accuracy"] if report.history else 0.0
    net.cpu()
    if config.temperature != 1.0:
        with torch.no_grad():
            net.head.weight /= config.temperature
            net.head.bias /= config.temperature
    export_onnx(torch, net, config.out, {"seed": str(config.seed),
                                         "input_px": str(INPUT_PX),
                                         "widths": ",".join(map(str, widths)),
                                         "samples": str(config.samples),
                                         "epochs": str(config.epochs),
                                         "real_tuning_crops": str(report.real_tuning),
                                         "real_tuning_by_source":
                                             json.dumps(report.real_tuning_by_source),
                                         "left_out": ",".join(report.left_out),
                                         "hard_negatives": str(report.hard_negatives),
                                         "warp": str(config.warp),
                                         "label_smoothing": str(config.label_smoothing),
                                         "temperature": str(config.temperature),
                                         "see_through": str(config.see_through),
                                         "detector_crops": str(config.detector_crops),
                                         "rendered_crops": str(report.rendered_crops),
                                         "rendered_share": str(config.rendered_share),
                                         "crowd_crops": str(report.crowd_crops),
                                         "crowd_share": str(config.crowd_share),
                                         "crowd_negatives": str(config.crowd_negatives),
                                         "negatives": ",".join(p.name for p in
                                                               config.negatives),
                                         "fine_tuned_from": config.init_onnx.name
                                         if config.init_onnx else "",
                                         "turns_teacher": config.turns_teacher.name
                                         if config.turns_teacher else "",
                                         **({} if config.turns_below is None else
                                            {"turns_below": str(config.turns_below)})})
    report.seconds = time.monotonic() - started
    log(f"wrote {config.out} ({config.out.stat().st_size / 1024:.0f} KiB) in "
        f"{report.seconds:.0f} s")
    return report


def export_onnx(torch, net, path: Path, metadata: dict[str, str]) -> None:
    """Write ``net`` (with a softmax) as an ONNX file with a dynamic batch size, for crops
    of ``metadata["input_px"]`` pixels (default 32)."""
    import onnx

    from dicecam.tools.train.reader.net import INPUT_PX as DEFAULT_PX
    from dicecam.tools.train.reader.net import Exported

    INPUT_PX = int(metadata.get("input_px", DEFAULT_PX))  # noqa: N806

    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.onnx")
    example = torch.zeros(1, INPUT_PX, INPUT_PX, 3, dtype=torch.uint8)
    torch.onnx.export(Exported(net), example, str(tmp),
                      opset_version=17, input_names=["crops"], output_names=["probs"],
                      dynamic_axes={"crops": {0: "batch"}, "probs": {0: "batch"}},
                      dynamo=False)
    model = onnx.load(str(tmp))
    meta = {"classes": ",".join("unreadable" if v is None else str(v) for v in CLASS_VALUES),
            "input": f"BGR crops, uint8, N x {INPUT_PX} x {INPUT_PX} x 3", **metadata}
    for key, value in meta.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.save(model, str(tmp))
    tmp.replace(path)
