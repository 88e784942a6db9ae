"""The YOLOv8n-class yardstick of ``dicecam bench reader --yolo``."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest


def test_the_yardstick_has_yolov8n_size_and_outputs(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed")
    from dicecam.tools.bench.speed import yolo_class

    params = yolo_class.export(tmp_path / "y.onnx", 96, 160)
    assert 2.9e6 < params < 3.1e6  # YOLOv8n for one class: 3.01 M
    session = ort.InferenceSession(str(tmp_path / "y.onnx"), providers=["CPUExecutionProvider"])
    (raw,) = session.run(None, {"image": np.zeros((1, 3, 96, 160), np.float32)})
    # 4 x 16 box bins + 1 class, at strides 8, 16 and 32
    assert raw.shape == (1, 65, 12 * 20 + 6 * 10 + 3 * 5)


def test_the_yardstick_is_timed_on_each_frame_in_turn_with_the_reader() -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed")
    from dicecam.tools.bench.speed.reader import _YoloPasses

    passes = _YoloPasses(1080, 1920)
    frame = np.random.default_rng(0).integers(0, 256, (1080, 1920, 3), np.uint8)
    for index in range(3):
        passes.time(frame, warm=index == 0)
    assert len(passes.square_ms) == len(passes.fitted_ms) == 3  # one a frame, warm-up apart
    figures = passes.figures(reader_median_ms=10.0, network_median_ms=4.0)
    assert figures["yolo_class_fitted_input"] == "640x384"
    assert figures["reader_vs_yolo_class"] == pytest.approx(
        figures["yolo_class_forward_ms_median"] / 10.0, abs=0.01)
    assert figures["networks_vs_yolo_class"] == pytest.approx(
        figures["yolo_class_forward_ms_median"] / 4.0, abs=0.01)
    assert 2.9e6 < figures["yolo_class_params"] < 3.1e6


def test_the_networks_own_runs_are_counted_within_the_read() -> None:
    import time

    from dicecam.tools.bench.speed.reader import _network_seconds, synthetic_frames
    from dicecam.vision.factory import build_pipeline
    from dicecam.vision.pipeline import TablePipeline

    pipeline = build_pipeline("diceparty", threads=1)
    frame, _scene = next(iter(synthetic_frames(1)))
    assert _network_seconds(pipeline) == 0.0
    started = time.perf_counter()
    pipeline.read_frame(frame)
    whole = time.perf_counter() - started
    detector, reader = pipeline.detect, pipeline.read_values.__self__
    assert detector.network_seconds > 0.0 and reader.network_seconds > 0.0
    assert _network_seconds(pipeline) == detector.network_seconds + reader.network_seconds
    assert _network_seconds(pipeline) < whole  # the nets run inside the read
    # a pipeline of stand-ins without counters counts nothing
    bare = TablePipeline(lambda frame: pipeline.detect(frame), lambda crops: [], None)
    assert _network_seconds(bare) == 0.0
