"""The numpy network a table learns with computes what onnxruntime computes, and its
gradients are the derivatives of what it computes."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from dicecam.teach.learn.graph import Graph
from dicecam.teach.learn.reader import LOGITS
from dicecam.vision.detect.detector import MODEL_PATH as DETECTOR
from dicecam.vision.read.die_reader import TRAINED_MODEL

DETECTOR_RAW = "/net/head/head.1/Conv_output_0"


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_the_reader_reads_as_onnxruntime_reads_it() -> None:
    crops = np.random.default_rng(0).integers(0, 256, (8, 32, 32, 3), dtype=np.uint8)
    graph = Graph.load(TRAINED_MODEL, LOGITS)
    (probs,) = ort.InferenceSession(str(TRAINED_MODEL)).run(None, {"crops": crops})
    assert np.abs(_softmax(graph.forward(crops)) - probs).max() < 1e-4


def test_the_detector_maps_match_onnxruntime() -> None:
    image = np.random.default_rng(1).integers(0, 256, (1, 3, 64, 96)).astype(np.float32)
    raw = Graph.load(DETECTOR, DETECTOR_RAW).forward(image)
    (maps,) = ort.InferenceSession(str(DETECTOR)).run(None, {"image": image})
    # channels 1-4 (offsets and sizes) leave the network untouched by the export's sigmoid
    assert np.abs(maps[:, 1:5] - raw[:, 1:5]).max() < 1e-3


@pytest.mark.parametrize("path,output,shape", [
    (TRAINED_MODEL, LOGITS, (3, 32, 32, 3)),
    (DETECTOR, DETECTOR_RAW, (1, 3, 32, 48)),
])
def test_gradients_are_the_derivatives(path, output, shape) -> None:
    rng = np.random.default_rng(2)
    graph = Graph.load(path, output, dtype=np.float64)  # exact enough to compare
    batch = rng.integers(0, 256, shape).astype(np.uint8 if shape[-1] == 3 else np.float64)
    upstream = rng.standard_normal(graph.forward(batch).shape)
    graph.forward(batch, keep=True)
    grads = graph.backward(upstream)
    names = list(graph.params)
    checked = 0
    for name in (names[0], names[1], names[len(names) // 2], names[-2], names[-1]):
        weight = graph.params[name]
        index = tuple(int(rng.integers(0, n)) for n in weight.shape)
        old = weight[index].copy()
        step = 1e-6
        weight[index] = old + step
        plus = float((graph.forward(batch) * upstream).sum())
        weight[index] = old - step
        minus = float((graph.forward(batch) * upstream).sum())
        weight[index] = old
        numeric = (plus - minus) / (2 * step)
        assert grads[name][index] == pytest.approx(numeric, rel=1e-4, abs=1e-6), name
        checked += 1
    assert checked == 5


def test_new_weights_reach_onnxruntime(tmp_path) -> None:
    graph = Graph.load(TRAINED_MODEL, LOGITS)
    for name in graph.params:
        graph.params[name] = graph.params[name] * 0.9
    path = tmp_path / "reader.onnx"
    onnx.save(graph.with_weights(), str(path))
    crops = np.random.default_rng(3).integers(0, 256, (4, 32, 32, 3), dtype=np.uint8)
    (changed,) = ort.InferenceSession(str(path)).run(None, {"crops": crops})
    (shipped,) = ort.InferenceSession(str(TRAINED_MODEL)).run(None, {"crops": crops})
    assert np.abs(changed - _softmax(graph.forward(crops))).max() < 1e-4
    assert np.abs(changed - shipped).max() > 1e-3


def test_an_operator_it_cannot_learn_through_is_named() -> None:
    node = onnx.helper.make_node("Tanh", ["x"], ["y"])
    graph = onnx.helper.make_graph(
        [node], "g", [onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])],
        [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])])
    with pytest.raises(ValueError, match="Tanh"):
        Graph(onnx.helper.make_model(graph), "y")
