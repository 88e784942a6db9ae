"""The 8-bit die reader: the runtime's model, kept in step with the trained one."""

from __future__ import annotations

import hashlib
import time

import numpy as np
import onnxruntime as ort
import pytest

from dicecam.tools.train.reader.quantize import rendered_inputs
from dicecam.vision.read.die_reader import (
    DEFAULT_MODEL,
    QUANTIZED_MODEL,
    TRAINED_MODEL,
    DieReader,
    cpu_flags,
    model_for_cpu,
)

INPUT_PX = DieReader(TRAINED_MODEL).input_px


def _metadata(path) -> dict[str, str]:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]
                                ).get_modelmeta().custom_metadata_map


def test_the_table_reader_runs_the_model_that_reads_faster_here(monkeypatch):
    from dicecam.vision.read import die_reader

    monkeypatch.setattr(die_reader, "_timed_choice", {})
    chosen = die_reader.faster_model(1)
    assert chosen in (QUANTIZED_MODEL, TRAINED_MODEL)
    assert DieReader().model_path == chosen  # timed once a process, then kept
    assert die_reader.faster_model(1) is chosen
    # whichever runs slower is not chosen: make the float model's session slow
    slow = die_reader._session

    class Slowed:
        def __init__(self, session):
            self.session = session

        def get_inputs(self):
            return self.session.get_inputs()

        def run(self, *args):
            time.sleep(0.05)
            return self.session.run(*args)

    for slowed, expected in ((TRAINED_MODEL, QUANTIZED_MODEL), (QUANTIZED_MODEL, TRAINED_MODEL)):
        def session(path, threads, slowed=slowed):
            made = slow(path, threads)
            return Slowed(made) if path == slowed else made

        monkeypatch.setattr(die_reader, "_session", session)
        monkeypatch.setattr(die_reader, "_timed_choice", {})
        assert die_reader.faster_model(1) == expected


def test_the_cpu_flags_suggest_the_quantized_model_where_the_cpu_has_8_bit_dot_products(
        tmp_path):
    assert model_for_cpu(frozenset({"sse2", "avx2", "avx512_vnni"})) == QUANTIZED_MODEL
    assert model_for_cpu(frozenset({"avx2", "avx_vnni"})) == QUANTIZED_MODEL
    assert model_for_cpu(frozenset({"fp", "asimd", "asimddp"})) == QUANTIZED_MODEL
    assert model_for_cpu(frozenset({"sse2", "avx2", "fma"})) == TRAINED_MODEL
    assert model_for_cpu(frozenset()) == TRAINED_MODEL
    assert DEFAULT_MODEL == model_for_cpu(cpu_flags())
    # /proc/cpuinfo as x86 and Arm Linux write it; a system without one lists no flags
    x86 = tmp_path / "x86"
    x86.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512_vnni\n\n"
                   "processor\t: 1\nflags\t\t: fpu sse2 avx2 avx512_vnni\n")
    arm = tmp_path / "arm"
    arm.write_text("processor\t: 0\nFeatures\t: fp asimd asimddp\n")
    assert {"avx2", "avx512_vnni"} <= cpu_flags(x86)
    assert "asimddp" in cpu_flags(arm)
    assert cpu_flags(tmp_path / "absent") == frozenset()


def test_the_shipped_quantized_model_is_made_from_the_shipped_trained_one():
    # retraining the reader without quantizing it again would leave the runtime on the old
    # model: `dicecam train reader` quantizes what it writes, `dicecam train quantize` too
    meta = _metadata(QUANTIZED_MODEL)
    assert meta["quantized_from"] == hashlib.sha256(TRAINED_MODEL.read_bytes()).hexdigest()
    assert meta["classes"] == _metadata(TRAINED_MODEL)["classes"]
    assert QUANTIZED_MODEL.stat().st_size < TRAINED_MODEL.stat().st_size / 2


def test_both_models_read_rendered_crops_alike():
    crops = list(rendered_inputs(300, seed=20261125, size=INPUT_PX))
    plain, small = DieReader(TRAINED_MODEL), DieReader(QUANTIZED_MODEL)
    plain.turns_below = small.turns_below = 0.0
    a, b = plain.probabilities(crops), small.probabilities(crops)
    assert (a.argmax(1) == b.argmax(1)).mean() >= 0.98
    assert float(np.abs(a - b).mean()) < 0.01


def test_quantizing_writes_a_model_the_reader_loads_and_nothing_beside_it(tmp_path,
                                                                          monkeypatch):
    pytest.importorskip("onnx", reason="onnx is not installed (the test extra)")
    from dicecam.tools.train.reader.quantize import quantize_reader

    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)  # onnxruntime's shape inference once left files in the cwd
    out = tmp_path / "reader.int8.onnx"
    quantize_reader(TRAINED_MODEL, out, rendered_inputs(100, seed=3, size=INPUT_PX))
    assert list(work.iterdir()) == []
    meta = _metadata(out)
    assert meta["quantized_from"] == hashlib.sha256(TRAINED_MODEL.read_bytes()).hexdigest()
    readings = DieReader(out).read(list(rendered_inputs(20, seed=4, size=INPUT_PX)))
    assert len(readings) == 20
    assert all(0.0 <= r.confidence <= 1.0 for r in readings)


def test_quantizing_a_missing_model_says_so(tmp_path):
    pytest.importorskip("onnx", reason="onnx is not installed (the test extra)")
    from dicecam.errors import InputError
    from dicecam.tools.train.reader.quantize import quantize_reader

    with pytest.raises(InputError, match="no model"):
        quantize_reader(tmp_path / "absent.onnx", tmp_path / "out.onnx",
                        rendered_inputs(100, seed=3, size=INPUT_PX))
