"""A table's die reader: the shipped reader fine-tuned on the dice the players confirmed.

What it learns from: every confirmed die of the table (its crop, cut wider than the runtime
cuts it so that the crop can be re-cut a little larger, smaller and off-centre), the
table's "not a die" boxes, and pieces of the table's own empty picture (class 0: the cloth,
the board, the carpet this camera sees all evening). Each step mixes them with dice drawn by
``dicecam.synth`` that the shipped reader is asked about: the new reader is pulled towards
the shipped one's answers there (distillation), and its weights towards the shipped weights
(L2-SP), so it keeps reading the dice it could read and does not forget the rest of the
world while it learns this table. Augmented as a table varies over an evening: quarter
turns and mirror images (a face's pip count does not change), light, colour cast, blur,
crop scale and centre.

A share of the examples (every ``HOLD_BACK``-th of each value, at least one where a value
has two) is held back: the temperature of the new reader's softmax is fitted there (so
its confidence stays calibrated: a tablet asks below 0.90), then both readers read the
held-back dice the way the table reader does (``DieReader``, turns included) and the
new one is used only where it reads them better and worse on no figure: no fewer right,
no more silent errors, no more asked (``ReaderCheck.better_than``). All
numpy on one input of crops; ``graph.Graph`` does the network's arithmetic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnx

from dicecam.synth.dicesets import random_look
from dicecam.synth.die import render_die
from dicecam.teach.learn.graph import Graph
from dicecam.teach.learn.optimiser import Adam
from dicecam.vision.read.die_reader import CLASS_VALUES, TRAINED_MODEL, DieReader, resize_crop
from dicecam.vision.read.unsure_reread import UnsureReread

#: the stored crop's side, as a multiple of the box's longer side; the runtime cuts
#: ``CROP_MARGIN`` (1.4) of it, so a stored crop holds every re-cut the learning tries
STORED_MARGIN = 2.0
#: the reader's logits: the tensor before its softmax
LOGITS = "/net/head/Gemm_output_0"
#: one example in this many (of each value) is held back to check and calibrate
HOLD_BACK = 4
#: fewer held-back dice than this judge nothing: the new reader is kept, not used
#: (webcam, taught 13 dice: a reader used on 3 held-back dice read the rest 95.8% right,
#: the shipped one 99.5%)
MIN_HELD_BACK = 10
#: augmented views of each held-back die the softmax temperature is fitted on
CALIBRATION_VIEWS = 7
#: a reading at least this sure is scored without asking (the tablet's threshold)
SURE = 0.90


@dataclass(frozen=True)
class Example:
    """One die the players confirmed (value 1-6) or a box they said is no die (0): its crop
    cut ``STORED_MARGIN`` times the box's longer side around the box's centre."""

    crop: np.ndarray
    value: int
    #: the roll or photo it was taught in (None: unknown, held back on its own)
    roll: str | None = None


@dataclass(frozen=True)
class ReaderCheck:
    """How a reader read the held-back dice (``dice``: how many; the rest are shares)."""

    dice: int
    right: float
    silent: float  # read wrong with at least ``SURE``: scored without asking
    asked: float  # read with less than ``SURE``: the tablet asks

    def worse_on(self, other: ReaderCheck) -> tuple[str, ...]:
        """What this reader read worse than ``other`` on the same held-back dice: "value"
        (fewer read right and sure), "silent" (more read wrong and sure: a false box kept
        as a die and a die thrown out as "not a die" are among them) and "asked"."""
        return tuple(name for name, worse in (("value", self.right < other.right),
                                              ("silent", self.silent > other.silent),
                                              ("asked", self.asked > other.asked)) if worse)

    def better_than(self, other: ReaderCheck) -> bool:
        """Never worse than ``other`` on any figure and better on one: a reader that reads
        more dice right but asks more, or reads one more wrong without asking, is not used
        (a taught table is never less trustworthy than an untaught one)."""
        return not self.worse_on(other) and (self.right > other.right
                                             or self.silent < other.silent
                                             or self.asked < other.asked)

    def to_json(self) -> dict[str, float]:
        return {"dice": self.dice, "right": round(self.right, 4),
                "silent": round(self.silent, 4), "asked": round(self.asked, 4)}


@dataclass(frozen=True)
class LearnedReader:
    model: onnx.ModelProto
    temperature: float
    shipped: ReaderCheck
    learned: ReaderCheck
    trained_on: int
    seconds: float

    @property
    def better(self) -> bool:
        return self.learned.dice >= MIN_HELD_BACK and self.learned.better_than(self.shipped)


@dataclass(frozen=True)
class LearnSettings:
    steps: int = 240
    batch: int = 48
    replay: int = 16  # drawn dice per step, read as the shipped reader reads them
    learning_rate: float = 1e-3
    anchor: float = 1e-3  # L2-SP: pull towards the shipped weights
    #: the targets' label smoothing: a little keeps a table's reader from growing sure of
    #: false boxes; more made it ask many more dice
    label_smoothing: float = 0.01
    seed: int = 0


def cut_stored_crop(frame: np.ndarray, cx: float, cy: float, w: float, h: float) -> np.ndarray:
    """The crop a table keeps of one die: ``STORED_MARGIN`` x its box, edges repeated."""
    side = max(8, int(round(max(w, h) * STORED_MARGIN)))
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    fh, fw = frame.shape[:2]
    pad = side
    padded = cv2.copyMakeBorder(frame, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    x0, y0 = min(max(x0 + pad, 0), fw + pad), min(max(y0 + pad, 0), fh + pad)
    return padded[y0:y0 + side, x0:x0 + side].copy()


def runtime_crop(stored: np.ndarray) -> np.ndarray:
    """The part of a stored crop the table reader would cut (its centre, 1.4 of 2.0)."""
    side = stored.shape[0]
    keep = int(round(side * 1.4 / STORED_MARGIN))
    start = (side - keep) // 2
    return stored[start:start + keep, start:start + keep]


def _augment(stored: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
    side = stored.shape[0]
    keep = side * 1.4 / STORED_MARGIN * rng.uniform(0.85, 1.15)
    keep = min(keep, side)
    room = (side - keep) / 2
    shift = rng.uniform(-1, 1, 2) * min(room, 0.08 * keep)
    x0 = int(round(room + shift[0]))
    y0 = int(round(room + shift[1]))
    k = max(4, int(round(keep)))
    crop = resize_crop(stored[y0:y0 + k, x0:x0 + k], size).astype(np.float32)
    crop = np.rot90(crop, int(rng.integers(4)))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    if rng.random() < 0.3:
        crop = cv2.GaussianBlur(np.ascontiguousarray(crop), (0, 0), rng.uniform(0.3, 1.0))
    gain = rng.uniform(0.75, 1.25) * rng.uniform(0.92, 1.08, 3)  # light and colour cast
    crop = (crop - 128.0) * rng.uniform(0.8, 1.2) + 128.0  # contrast
    crop = crop * gain + rng.uniform(-15, 15)
    return np.clip(crop, 0, 255).astype(np.uint8)


def _drawn_die(rng: np.random.Generator, size: int) -> np.ndarray:
    """A die of any look drawn on a plain, noisy surface, cut as the runtime cuts one."""
    face = int(rng.integers(18, 60))
    die = render_die(int(rng.integers(1, 7)), random_look(rng), face, rng,
                     rotation_deg=rng.uniform(0, 360), tilt=float(25 * rng.random() ** 2),
                     corner_radius=rng.uniform(0.08, 0.3))
    image = die.image_bgra
    h, w = image.shape[:2]
    side = max(h, w, int(face * 1.4)) + 2
    canvas = np.empty((side, side, 3), np.float32)
    canvas[:] = rng.uniform(20, 235, 3)
    canvas += rng.normal(0, rng.uniform(1, 12), canvas.shape)
    top, left = (side - h) // 2, (side - w) // 2
    alpha = image[..., 3:4].astype(np.float32) / 255.0
    roi = canvas[top:top + h, left:left + w]
    roi += (image[..., :3] - roi) * alpha
    cx, cy = die.top_box[0] + left, die.top_box[1] + top
    half = max(die.top_box[2], die.top_box[3]) * 0.7
    crop = canvas[max(0, int(cy - half)):int(cy + half), max(0, int(cx - half)):int(cx + half)]
    if min(crop.shape[:2]) < 4:
        crop = canvas
    return resize_crop(np.clip(crop, 0, 255).astype(np.uint8), size)


def background_examples(empty_table: np.ndarray, box_px: float, count: int,
                        rng: np.random.Generator) -> list[Example]:
    """Pieces of the empty table, each the size of a die's stored crop: class 0."""
    side = max(8, int(round(box_px * STORED_MARGIN)))
    fh, fw = empty_table.shape[:2]
    if fh <= side or fw <= side:
        return []
    found = []
    for _ in range(count):
        y, x = int(rng.integers(0, fh - side)), int(rng.integers(0, fw - side))
        found.append(Example(empty_table[y:y + side, x:x + side].copy(), 0))
    return found


def split_held_back(examples: Sequence[Example]) -> tuple[list[Example], list[Example]]:
    """(to learn from, held back): every ``HOLD_BACK``-th roll's dice, in order (a die
    without a roll counts as a roll of its own). Whole rolls: dice of one roll share the
    light, the pose and often the very die, so a die held back from a roll the reader
    learnt from says little of the next roll (byler: a reader used on such a check read
    the table's other photos worse)."""
    learn, held = [], []
    rolls: dict[str, int] = {}
    for index, example in enumerate(examples):
        key = example.roll if example.roll is not None else f"#{index}"
        number = rolls.setdefault(key, len(rolls))
        (held if number % HOLD_BACK == HOLD_BACK - 1 else learn).append(example)
    return learn, held


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


#: the least temperature ``fit_temperature`` may choose (its docstring says why), and the
#: least once at least ``TRUSTED_HELD_BACK`` examples are held back to fit it on: a fit on
#: a few dozen is trusted that far (with fewer, a sharper "not a die" veto lost a die)
MIN_TEMPERATURE = 1.0
TRUSTED_MIN_TEMPERATURE = 0.8
TRUSTED_HELD_BACK = 30


def fit_temperature(logits: np.ndarray, labels: np.ndarray,
                    floor: float = MIN_TEMPERATURE) -> float:
    """The softmax temperature that makes these readings' confidence honest (least
    negative log-likelihood on a grid; 1.0 when there is nothing to fit on).

    Never below ``floor`` (1 unless many dice are held back): a reader fine-tuned on a
    table's few dozen dice reads its held-back dice nearly all right, which asks for an
    ever sharper softmax, and the odd die later is then read wrong but sure. Measured with
    ``bench teach`` (webcam): a temperature down to 0.25 asked 1.3% of dice and read 0.6%
    wrong and sure (39 false boxes sure); at least 1, 3.8% asked and 0.1% wrong and sure
    (11 false boxes sure, 12 shipped)."""
    if len(labels) == 0:
        return 1.0
    best, best_nll = 1.0, np.inf
    for t in np.exp(np.linspace(np.log(floor), np.log(4.0), 29)):
        p = _softmax(logits / t)
        nll = -np.log(np.maximum(p[np.arange(len(labels)), labels], 1e-9)).mean()
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def check_reader(reader: DieReader | UnsureReread, held: Sequence[Example]) -> ReaderCheck:
    """Read the held-back crops as the table reader reads them (turns included)."""
    if not held:
        return ReaderCheck(0, 0.0, 0.0, 0.0)
    readings = reader.read([runtime_crop(e.crop) for e in held])
    right = silent = asked = 0
    for example, reading in zip(held, readings, strict=True):
        value = reading.value or 0
        if reading.confidence < SURE:
            asked += 1
        elif value != example.value:
            silent += 1
        right += int(value == example.value and reading.confidence >= SURE)
    n = len(held)
    return ReaderCheck(n, right / n, silent / n, asked / n)


def learn_reader(examples: Sequence[Example], *, base_model: Path = TRAINED_MODEL,
                 settings: LearnSettings | None = None, work_dir: Path,
                 log: Callable[[str], None] = lambda _: None) -> LearnedReader:
    """Fine-tune the reader at ``base_model`` on ``examples``; check it against the base on
    the held-back share. ``work_dir`` receives the candidate file for the check."""
    settings = settings or LearnSettings()
    started = time.monotonic()
    rng = np.random.default_rng(settings.seed)
    learn, held = split_held_back(examples)
    if not learn:
        raise ValueError("no examples to learn from")
    graph = Graph.load(base_model, LOGITS)
    size = int(graph.model.graph.input[0].type.tensor_type.shape.dim[1].dim_value or 32)
    anchor = {k: v.copy() for k, v in graph.params.items()}
    adam = Adam(graph.params, settings.learning_rate)
    shipped_reader = DieReader(base_model)
    shipped_reader.turns_below = 0.0  # the teacher's one look, as the learner's

    def shipped_probs(crops: np.ndarray) -> np.ndarray:
        return shipped_reader.probabilities(list(crops))
    labels = np.array([e.value for e in learn])
    classes = np.unique(labels)
    for step in range(settings.steps):
        # every value as often as the others: a table confirms far more 1s than "not a die"
        pick_class = rng.choice(classes, settings.batch)
        picks = [int(rng.choice(np.flatnonzero(labels == c))) for c in pick_class]
        batch = [_augment(learn[i].crop, rng, size) for i in picks]
        replay = [_drawn_die(rng, size) for _ in range(settings.replay)]
        inputs = np.stack(batch + replay)
        if settings.replay:
            teacher = shipped_probs(inputs[len(batch):])
        logits = graph.forward(inputs, keep=True)
        probs = _softmax(logits)
        grad = np.zeros_like(probs)
        target = np.zeros((len(batch), probs.shape[1]), np.float32)
        target[np.arange(len(batch)), labels[picks]] = 1.0
        smoothing = settings.label_smoothing
        target = target * (1 - smoothing) + smoothing / probs.shape[1]
        grad[:len(batch)] = (probs[:len(batch)] - target) / len(batch)
        if settings.replay:
            grad[len(batch):] = (probs[len(batch):] - teacher) / len(batch)
        grads = graph.backward(grad)
        for k in grads:
            grads[k] = grads[k] + settings.anchor * (graph.params[k] - anchor[k])
        rate = settings.learning_rate * 0.5 * (1 + np.cos(np.pi * step / settings.steps))
        adam.step(graph.params, grads, rate)
        if step % 40 == 0:
            loss = -np.log(np.maximum((probs[:len(batch)] * target).sum(1), 1e-9)).mean()
            log(f"step {step}/{settings.steps}: loss {loss:.3f}")
    temperature = 1.0
    if held:
        # the held-back dice as seen, and as the evening may yet show them (turned, other
        # light, blur): a handful of dice all read right would otherwise ask for an ever
        # sharper softmax, and a sure reading of the next odd die would be wrong
        held_inputs = np.stack([resize_crop(runtime_crop(e.crop), size) for e in held]
                               + [_augment(e.crop, rng, size) for e in held
                                  for _ in range(CALIBRATION_VIEWS)])
        held_labels = np.array([e.value for e in held] * (1 + CALIBRATION_VIEWS))
        held_labels[len(held):] = np.repeat([e.value for e in held], CALIBRATION_VIEWS)
        floor = TRUSTED_MIN_TEMPERATURE if len(held) >= TRUSTED_HELD_BACK \
            else MIN_TEMPERATURE
        temperature = fit_temperature(graph.forward(held_inputs), held_labels, floor)
    params = dict(graph.params)
    gemm = [n for n in graph.nodes if n.op == "Gemm"][-1]
    for name in gemm.inputs[1:]:  # softmax(logits / T): fold T into the last layer
        params[name] = params[name] / temperature
    model = graph.with_weights(params)
    work_dir.mkdir(parents=True, exist_ok=True)
    candidate = work_dir / "die_reader.candidate.onnx"
    onnx.save(model, str(candidate))
    shipped = check_reader(DieReader(base_model), held)
    # as the table will read with it: the shipped reader first, this one where it is unsure
    learned = check_reader(UnsureReread(DieReader(base_model), DieReader(candidate)), held)
    candidate.unlink()
    return LearnedReader(model, temperature, shipped, learned, len(learn),
                         time.monotonic() - started)


def value_class(value: int | None) -> int:
    """A die's value as the reader's class (0: not a readable die)."""
    return CLASS_VALUES.index(value)
