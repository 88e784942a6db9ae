"""The YOLOv8n-class yardstick of ``dicecam bench reader --yolo``."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest


def test_the_yardstick_has_yolov8n_size_and_outputs(tmp_path) -> None:
    pytest.importorskip("torch", reason="torch is not installed (the optional train extra)")
    pytest.importorskip("onnx", reason="onnx is not installed")
    from dicecam.tools.bench import yolo_class

    params = yolo_class.export(tmp_path / "y.onnx", 96, 160)
    assert 2.9e6 < params < 3.1e6  # YOLOv8n for one class: 3.01 M
    session = ort.InferenceSession(str(tmp_path / "y.onnx"), providers=["CPUExecutionProvider"])
    (raw,) = session.run(None, {"image": np.zeros((1, 3, 96, 160), np.float32)})
    # 4 x 16 box bins + 1 class, at strides 8, 16 and 32
    assert raw.shape == (1, 65, 12 * 20 + 6 * 10 + 3 * 5)
