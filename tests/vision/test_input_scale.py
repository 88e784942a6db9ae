"""The detector's input scale folded into its first convolution: the same maps, one pass less."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from dicecam.vision.detect.detector import MODEL_PATH
from dicecam.vision.detect.input_scale import fold_input_scale


def _graph(second_reader: bool = False) -> onnx.ModelProto:
    rng = np.random.default_rng(0)
    weight = numpy_helper.from_array(rng.normal(size=(4, 3, 3, 3)).astype(np.float32), "w")
    bias = numpy_helper.from_array(rng.normal(size=(4,)).astype(np.float32), "b")
    nodes = [
        helper.make_node("Constant", [], ["scale"],
                         value=numpy_helper.from_array(np.array(1 / 255, np.float32))),
        helper.make_node("Mul", ["image", "scale"], ["scaled"], name="mul"),
        helper.make_node("Conv", ["scaled", "w", "b"], ["conv"], name="conv", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv"], ["out"], name="relu"),
    ]
    outputs = [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)]
    if second_reader:  # the scaled image also leaves the graph: nothing may be folded
        outputs.append(helper.make_tensor_value_info("scaled", TensorProto.FLOAT, None))
        nodes.append(helper.make_node("Identity", ["scaled"], ["scaled_copy"], name="copy"))
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])],
        outputs, [weight, bias])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _run(model: onnx.ModelProto, image: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(["out"], {"image": image})[0]


def test_a_leading_scale_is_folded_and_the_outputs_stay_the_same():
    model = _graph()
    folded = fold_input_scale(model)
    assert [n.op_type for n in folded.graph.node] == ["Conv", "Relu"]
    assert [n.op_type for n in model.graph.node] == ["Constant", "Mul", "Conv", "Relu"]
    image = np.random.default_rng(1).integers(0, 256, (1, 3, 8, 8)).astype(np.float32)
    np.testing.assert_allclose(_run(folded, image), _run(model, image), rtol=1e-5, atol=1e-5)


def test_a_scale_read_by_anything_else_is_left_alone():
    model = _graph(second_reader=True)
    assert fold_input_scale(model) is model


def test_the_shipped_detector_loses_its_input_multiply_and_keeps_its_maps():
    model = onnx.load(str(MODEL_PATH))
    folded = fold_input_scale(model)
    assert sum(n.op_type == "Mul" for n in folded.graph.node) \
        == sum(n.op_type == "Mul" for n in model.graph.node) - 1
    image = np.random.default_rng(2).integers(0, 256, (1, 3, 64, 96)).astype(np.float32)
    sessions = [ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
                for m in (model, folded)]
    maps = [s.run(None, {s.get_inputs()[0].name: image})[0] for s in sessions]
    np.testing.assert_allclose(maps[1], maps[0], rtol=1e-4, atol=1e-4)
