"""Read the value on top of each die from its crop, with the shipped ONNX model.

The model sees a square crop centred on the die's top face (cut by ``cut_crop``, the same
way the training crops are cut), shrunk to its input size, and answers one of seven
classes: "not a readable die" or a value 1-6, with a softmax confidence. Colour is not its
job: ``dicecam.vision.colour.reader.ColourReader`` reads that from the same crop.

One ``onnxruntime.InferenceSession`` per reader; every call classifies its crops as one
batch and keeps nothing between calls, so one reader can serve one pipeline thread.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from dicecam.errors import InputError
from dicecam.vision.sessions import session_options

_MODELS = Path(__file__).resolve().parents[2] / "models"
#: The trained reader in floating point: what training writes and fine-tunes start from.
TRAINED_MODEL = _MODELS / "die_reader.onnx"
#: Its 8-bit copy (``dicecam train quantize``): on a CPU with 8-bit dot-product
#: instructions about 2.6x faster a thread; without them slower than the float model.
QUANTIZED_MODEL = _MODELS / "die_reader.int8.onnx"
#: CPU feature flags (as Linux's /proc/cpuinfo names them) of 8-bit dot products: x86's
#: VNNI (AVX-512 or AVX), Arm's dot-product extension.
DOT_PRODUCT_FLAGS = frozenset({"avx512_vnni", "avx_vnni", "asimddp"})


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The CPU's feature flags (empty where the system does not list them)."""
    try:
        text = cpuinfo.read_text(errors="replace")
    except OSError:
        return frozenset()
    flags: set[str] = set()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip().lower() in ("flags", "features"):
            flags.update(value.split())
    return frozenset(flags)


def model_for_cpu(flags: frozenset[str]) -> Path:
    """The reader to run on a CPU with these flags: the 8-bit copy where the CPU has 8-bit
    dot products (measured: 60 crops 8.7 -> 3.4 ms on one thread), the float model where it
    has not (an AVX2-only AMD EPYC: 25 ms float, 29 ms in 8 bits). Both read the same class
    for 99.60% of 2,000 rendered crops
    (``docs/experiments/2026-12-07-die-reader-notebook.md``)."""
    return QUANTIZED_MODEL if flags & DOT_PRODUCT_FLAGS else TRAINED_MODEL


#: The model a CPU's flags suggest (``dicecam doctor`` checks it; the table reader times
#: both, ``faster_model``).
DEFAULT_MODEL = model_for_cpu(cpu_flags())
#: ``faster_model``'s choice per thread count, made once a process
_timed_choice: dict[int, Path] = {}
#: crops in the timing batch (a Dice Party roll) and alternating rounds per model
TIMING_BATCH = 60
TIMING_ROUNDS = 4


def faster_model(threads: int = 1) -> Path:
    """Of the float reader and its 8-bit copy, the one that reads a batch of 60 crops faster
    on this machine now (each timed in alternating rounds, the best round of each: load on
    the machine slows both alike). Flags mislead: measured under load on an AVX2-only CPU
    the 8-bit copy took 24 ms and the float one 50 ms, where the flag rule picks float.
    Both read the same class for 100% of 2,000 rendered crops. A machine with one of the
    files missing gets the other; the choice is kept for the process."""
    if threads in _timed_choice:
        return _timed_choice[threads]
    present = [path for path in (QUANTIZED_MODEL, TRAINED_MODEL) if path.is_file()]
    if len(present) < 2:
        return present[0] if present else DEFAULT_MODEL
    batch = np.random.default_rng(0).integers(0, 256, (TIMING_BATCH, 32, 32, 3), np.uint8)
    sessions = {path: _session(path, threads) for path in present}
    best = dict.fromkeys(present, float("inf"))
    for round_index in range(TIMING_ROUNDS + 1):
        for path, session in sessions.items():
            started = time.perf_counter()
            session.run(None, {session.get_inputs()[0].name: batch})
            if round_index:  # the first round warms the sessions up
                best[path] = min(best[path], time.perf_counter() - started)
    _timed_choice[threads] = min(present, key=best.__getitem__)
    return _timed_choice[threads]
#: Crop side = CROP_MARGIN x the longer side of the top face's box (as in training).
CROP_MARGIN = 1.4
#: Model class index -> value (None: not a readable die).
CLASS_VALUES: tuple[int | None, ...] = (None, 1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class ValueReading:
    """The value on top of one die (None: not a readable die) and the model's confidence
    in that answer, in [0, 1]."""

    value: int | None
    confidence: float


def cut_crop(frame_bgr: np.ndarray, cx: float, cy: float, w: float, h: float) -> np.ndarray:
    """A square crop centred on (cx, cy), ``CROP_MARGIN`` times the longer side of the
    box ``w`` x ``h``, at the frame's resolution. Parts outside the frame repeat its edge.
    """
    if not isinstance(frame_bgr, np.ndarray) or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        shape = getattr(frame_bgr, "shape", None)
        raise InputError(f"cut_crop needs an HxWx3 BGR frame, got shape {shape}")
    if not (w > 0 and h > 0):
        raise InputError(f"cut_crop needs a box of positive size, got w={w} h={h}")
    side = max(4, int(round(max(w, h) * CROP_MARGIN)))
    x0 = int(round(cx - side / 2))
    y0 = int(round(cy - side / 2))
    fh, fw = frame_bgr.shape[:2]
    if x0 >= 0 and y0 >= 0 and x0 + side <= fw and y0 + side <= fh:
        return frame_bgr[y0:y0 + side, x0:x0 + side].copy()
    left, top = max(0, -x0), max(0, -y0)
    right, bottom = max(0, x0 + side - fw), max(0, y0 + side - fh)
    # a stop before the frame's first row or column is an empty span, not one counted
    # from the far edge (a box wholly above the frame was cut from the rows below)
    inside = frame_bgr[max(y0, 0):max(0, min(y0 + side, fh)),
                       max(x0, 0):max(0, min(x0 + side, fw))]
    if inside.size == 0:
        raise InputError(f"the box centred at ({cx:.0f}, {cy:.0f}) lies outside the "
                         f"{fw}x{fh} frame")
    return cv2.copyMakeBorder(inside, top, bottom, left, right, cv2.BORDER_REPLICATE)


def resize_crop(crop: np.ndarray, size: int) -> np.ndarray:
    """Shrink (or grow) a crop to the model's size x size, averaging pixels when shrinking.

    Large crops first go to 2 x size bilinearly: area averaging by an exact factor 2 is
    several times faster than by an odd factor and looks the same to the model.
    """
    h, w = crop.shape[:2]
    if h > 2 * size and w > 2 * size:
        crop = cv2.resize(crop, (2 * size, 2 * size), interpolation=cv2.INTER_LINEAR)
        h = w = 2 * size
    interpolation = cv2.INTER_AREA if max(h, w) > size else cv2.INTER_LINEAR
    return cv2.resize(crop, (size, size), interpolation=interpolation)


def _session(path: Path, threads: int) -> ort.InferenceSession:
    if not path.is_file():
        raise InputError(f"die reader model not found at {path}: reinstall dicecam, or "
                         f"train one with `dicecam train reader --out {path}`")
    try:
        return ort.InferenceSession(str(path), session_options(threads),
                                    providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own types for unreadable files
        raise InputError(f"die reader model {path} could not be loaded ({exc}); it may be "
                         f"corrupt: reinstall dicecam or train a new one") from exc


#: A crop read with a top probability under this is read again in three quarter turns and
#: the four readings averaged. 0.95, above the 0.90 under which the tablet asks: a reading
#: of 0.90-0.95 the turns do not confirm is asked, not scored (on the real held-out photos
#: 0.90 -> 0.95 took the wrong readings scored without asking, values and false dice, from
#: 21 to 9, and the share of dice asked up by 0.8-4.3 points).
TURNS_BELOW = 0.95


def _turns_below(session: ort.InferenceSession, path: Path) -> float:
    """The ``turns_below`` a model's metadata gives (``TURNS_BELOW`` where it gives none)."""
    written = session.get_modelmeta().custom_metadata_map.get("turns_below")
    if written is None:
        return TURNS_BELOW
    try:
        line = float(written)
    except ValueError:
        line = float("nan")
    if not 0 <= line <= 1:
        raise InputError(f"{path}: its turns_below {written!r} is no probability")
    return line


class DieReader:
    """Reads die values from crops with an ONNX model (default: the shipped one)."""

    def __init__(self, model_path: str | Path | None = None, *, threads: int = 1) -> None:
        self.model_path = (Path(model_path) if model_path is not None
                           else faster_model(threads))
        self._session = _session(self.model_path, threads)
        inputs = self._session.get_inputs()
        outputs = self._session.get_outputs()
        shape = list(inputs[0].shape) if len(inputs) == 1 else []
        # the shipped model takes N x S x S x 3 uint8 BGR; N x 3 x S x S float in 0..1 is
        # also understood (plain exports of the torch network)
        self._uint8 = bool(inputs) and inputs[0].type == "tensor(uint8)"
        size = shape[1] if self._uint8 and len(shape) == 4 else shape[2] if len(shape) == 4 \
            else None
        channels = shape[3] if self._uint8 and len(shape) == 4 else shape[1] if shape else None
        if (len(outputs) != 1 or not isinstance(size, int) or channels != 3
                or shape[2 if self._uint8 else 3] != size
                or outputs[0].shape[-1] != len(CLASS_VALUES)):
            raise InputError(f"{self.model_path} is not a die reader model: expected one "
                             f"input of N x S x S x 3 crops and one output "
                             f"N x {len(CLASS_VALUES)}")
        self._input = inputs[0].name
        self.input_px = int(size)
        #: crops read less sure than this are read turned as well (1.0: every crop, 0: none):
        #: the model's own line where it has one (a reader that learnt its teacher's turned
        #: readings needs fewer turns or none, ``train reader --turns-teacher``)
        self.turns_below = _turns_below(self._session, self.model_path)
        #: seconds the net itself has run, turns included, since this reader was made
        #: (``bench reader`` reads it: the share of a frame no work around the nets saves)
        self.network_seconds = 0.0

    def _run(self, batch: np.ndarray) -> np.ndarray:
        """The net's probabilities for one input batch, its time added to
        ``network_seconds``."""
        started = time.perf_counter()
        (probs,) = self._session.run(None, {self._input: batch})
        self.network_seconds += time.perf_counter() - started
        return probs

    def preprocess(self, crops_bgr: Sequence[np.ndarray]) -> np.ndarray:
        """Crops -> the model's input batch."""
        size = self.input_px
        batch = np.empty((len(crops_bgr), size, size, 3), np.uint8)
        for i, crop in enumerate(crops_bgr):
            if not isinstance(crop, np.ndarray) or crop.dtype != np.uint8:
                kind = crop.dtype if isinstance(crop, np.ndarray) else type(crop).__name__
                raise InputError(f"crop {i} must be a uint8 BGR image, got {kind}")
            if crop.ndim != 3 or crop.shape[2] != 3 or min(crop.shape[:2]) < 4:
                raise InputError(f"crop {i} must be an HxWx3 BGR image at least 4 px wide, "
                                 f"got shape {crop.shape}")
            batch[i] = resize_crop(crop, size)
        if self._uint8:
            return batch
        return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0

    def probabilities(self, crops_bgr: Sequence[np.ndarray]) -> np.ndarray:
        """N x 7 class probabilities (class 0: not a readable die, k: value k). A crop read
        with less than ``TURNS_BELOW`` is read again turned by a quarter, a half and three
        quarters (a face's value does not turn with it) and its probabilities averaged."""
        if len(crops_bgr) == 0:
            return np.zeros((0, len(CLASS_VALUES)), np.float32)
        batch = self.preprocess(crops_bgr)
        probs = self._run(batch)
        unsure = np.flatnonzero(probs.max(axis=1) < self.turns_below)
        if len(unsure):
            axes = (1, 2) if self._uint8 else (2, 3)
            turned = np.ascontiguousarray(np.concatenate(
                [np.rot90(batch[unsure], k, axes=axes) for k in (1, 2, 3)]))
            more = self._run(turned)
            probs = probs.copy()
            probs[unsure] = (probs[unsure] + more.reshape(3, len(unsure), -1).sum(0)) / 4
        return probs

    def read(self, crops_bgr: Sequence[np.ndarray]) -> list[ValueReading]:
        """One ``ValueReading`` per crop, in order; an empty batch gives an empty list."""
        probs = self.probabilities(crops_bgr)
        best = probs.argmax(axis=1)
        return [ValueReading(CLASS_VALUES[k], float(min(1.0, max(0.0, probs[i, k]))))
                for i, k in enumerate(best)]
