"""A shipped ONNX model as a trainable numpy network: forward, backward, new weights out.

A table learns its own dice on the players' computer, where there is no torch (the
``train`` extra pulls gigabytes) and no GPU. The shipped models are small plain CNNs
whose exports already fold every batch norm into its convolution, so their ONNX graphs
use a handful of operators: Conv (plain and depthwise), Relu, MaxPool, GlobalAveragePool,
Flatten, Gemm, nearest Resize, Add, and the input's Transpose / Cast / Mul / Sub.
``Graph`` runs such a graph up to a chosen tensor (the logits before the softmax, the raw
maps before the sigmoids) with numpy, keeps what the backward pass needs, and returns
the gradient of every Conv and Gemm weight and bias; ``with_weights`` writes trained
weights into a copy of the model, which onnxruntime then runs as it runs the shipped one.

Stride-1 convolutions are one matrix product a kernel tap on the channel-major padded
input (BLAS does the work), strided ones im2col + one matrix product, depthwise ones an
einsum over the windows; float32 (float64 to check the arithmetic). An operator outside
this list raises ``ValueError`` naming it, so a future architecture fails loudly rather
than learning wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
from numpy.lib.stride_tricks import sliding_window_view
from onnx import helper, numpy_helper

#: operators without weights that only prepare the input; run forward, never trained through
_INPUT_OPS = ("Transpose", "Cast")


@dataclass
class _Node:
    op: str
    inputs: list[str]
    output: str
    attrs: dict[str, Any] = field(default_factory=dict)


def _attrs(node: onnx.NodeProto) -> dict[str, Any]:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


class Graph:
    """The part of an ONNX model's graph that computes ``output`` from its one input."""

    def __init__(self, model: onnx.ModelProto, output: str, *,
                 dtype: type = np.float32) -> None:
        """``dtype`` float64 only for checking the arithmetic (tests)."""
        self.model = model
        self.dtype = dtype
        self.input_name = model.graph.input[0].name
        self.output = output
        inits = {i.name: numpy_helper.to_array(i).astype(dtype)
                 for i in model.graph.initializer}
        self.constants: dict[str, np.ndarray] = {}
        self.nodes: list[_Node] = []
        self.params: dict[str, np.ndarray] = {}
        for node in model.graph.node:
            attrs = _attrs(node)
            if node.op_type == "Constant":
                value = attrs.get("value")
                self.constants[node.output[0]] = numpy_helper.to_array(value).astype(
                    dtype) if value is not None else dtype(0)
                continue
            if node.op_type not in _FORWARD:
                raise ValueError(f"the model uses {node.op_type}, which a table cannot "
                                 "learn through here")
            if node.op_type == "Cast":
                attrs["dtype"] = dtype
            self.nodes.append(_Node(node.op_type, list(node.input), node.output[0], attrs))
            if node.op_type in ("Conv", "Gemm"):
                for name in node.input[1:]:
                    if name:
                        self.params[name] = inits[name].copy()
            if node.output[0] == output:
                break
        else:
            raise ValueError(f"the model computes no tensor named {output!r}")
        self.constants.update({k: v for k, v in inits.items() if k not in self.params})
        # tensors computed from a weight: the only ones whose gradient backward needs (the
        # first convolution's input is the image: its gradient is a third of that
        # layer's backward, for nothing)
        self._from_weights: set[str] = set()
        for node in self.nodes:
            if any(name in self.params or name in self._from_weights for name in node.inputs):
                self._from_weights.add(node.output)
        self._tape: list[tuple[_Node, Any]] = []

    @classmethod
    def load(cls, path: Any, output: str, *, dtype: type = np.float32) -> Graph:
        return cls(onnx.load(str(path)), output, dtype=dtype)

    # -- forward ---------------------------------------------------------------------------

    def forward(self, batch: np.ndarray, *, keep: bool = False) -> np.ndarray:
        """The ``output`` tensor for one input batch; ``keep`` remembers what ``backward``
        needs (one forward at a time)."""
        values: dict[str, np.ndarray] = {self.input_name: batch}
        self._tape = []
        for node in self.nodes:
            args = [self._value(values, name) for name in node.inputs]
            out, saved = _FORWARD[node.op](node, args)
            values[node.output] = out
            if keep:
                self._tape.append((node, saved))
        return values[self.output]

    def _value(self, values: Mapping[str, np.ndarray], name: str) -> np.ndarray | None:
        if not name:
            return None
        if name in values:
            return values[name]
        if name in self.params:
            return self.params[name]
        return self.constants[name]

    def needs_grad(self, name: str) -> bool:
        """Whether the gradient of tensor ``name`` reaches a weight."""
        return name in self._from_weights

    # -- backward --------------------------------------------------------------------------

    def backward(self, grad: np.ndarray) -> dict[str, np.ndarray]:
        """Gradients of every weight and bias, given d loss / d output of the last
        ``forward(keep=True)``."""
        grads: dict[str, np.ndarray] = {}
        upstream: dict[str, np.ndarray] = {self.output: grad.astype(self.dtype)}
        for node, saved in reversed(self._tape):
            g = upstream.pop(node.output, None)
            if g is None or node.op in _INPUT_OPS:
                continue
            for name, gi in _BACKWARD[node.op](node, saved, g, self):
                if gi is None:
                    continue
                if name in self.params:
                    grads[name] = grads.get(name, 0) + gi
                elif name in upstream:
                    upstream[name] = upstream[name] + gi
                elif name not in self.constants and name != self.input_name:
                    upstream[name] = gi
        return grads

    # -- weights out -------------------------------------------------------------------------

    def with_weights(self, params: Mapping[str, np.ndarray] | None = None) -> onnx.ModelProto:
        """A copy of the model with these weights (default: the graph's current ones)."""
        params = self.params if params is None else params
        model = onnx.ModelProto()
        model.CopyFrom(self.model)
        for init in model.graph.initializer:
            if init.name in params:
                init.CopyFrom(numpy_helper.from_array(
                    np.asarray(params[init.name], np.float32), init.name))
        return model


# -- operators ---------------------------------------------------------------------------------

def _pads(node: _Node) -> tuple[int, int, int, int]:
    top, left, bottom, right = (list(node.attrs.get("pads", [0, 0, 0, 0])) + [0] * 4)[:4]
    return top, left, bottom, right


def _windows(x: np.ndarray, kh: int, kw: int, stride: int,
             pads: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    top, left, bottom, right = pads
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right))) if any(pads) else x
    view = sliding_window_view(padded, (kh, kw), axis=(2, 3))[:, :, ::stride, ::stride]
    return padded, view  # view: N x C x Ho x Wo x kh x kw


def _conv_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    x, w, b = args[0], args[1], args[2] if len(args) > 2 else None
    stride = int(node.attrs.get("strides", [1, 1])[0])
    groups = int(node.attrs.get("group", 1))
    out_c, per_group, kh, kw = w.shape
    if groups == 1 and stride == 1:
        out, saved = _dense_forward(x, w, _pads(node))
    elif groups == 1:
        padded, view = _windows(x, kh, kw, stride, _pads(node))
        n, c, ho, wo = view.shape[:4]
        cols = view.transpose(0, 2, 3, 1, 4, 5).reshape(n * ho * wo, c * kh * kw)
        out = cols @ w.reshape(out_c, -1).T
        out = out.reshape(n, ho, wo, out_c).transpose(0, 3, 1, 2)
        saved = ("cols", x.shape, padded.shape, cols, w, stride)
    elif groups == x.shape[1] == out_c and per_group == 1:
        padded, view = _windows(x, kh, kw, stride, _pads(node))
        out = np.einsum("nchwij,cij->nchw", view, w[:, 0], optimize=True)
        saved = ("depthwise", x.shape, padded.shape, padded, w, stride)
    else:
        raise ValueError(f"Conv with {groups} groups of {per_group} channels is not supported")
    if b is not None:
        out = out + b.reshape(1, -1, 1, 1)
    return np.ascontiguousarray(out, x.dtype), saved


def _dense_forward(x: np.ndarray, w: np.ndarray,
                   pads: tuple[int, int, int, int]) -> tuple[np.ndarray, Any]:
    """A stride-1 convolution as one matrix product a kernel tap: the padded input laid out
    channel by channel (C x N*Hp*Wp), each tap's inputs a contiguous run of it shifted by
    that tap's offset. Positions that wrap across a row's end are computed and dropped.
    About twice as quick as im2col, whose N x Ho x Wo x C x 3 x 3 copy is a scattered read."""
    n, c, h, wd = x.shape
    out_c, _, kh, kw = w.shape
    top, left, bottom, right = pads
    hp, wp = h + top + bottom, wd + left + right
    flat = np.zeros((c, n, hp, wp), x.dtype)
    flat[:, :, top:top + h, left:left + wd] = x.transpose(1, 0, 2, 3)
    flat = flat.reshape(c, n * hp * wp)
    span = n * hp * wp - ((kh - 1) * wp + kw - 1)  # every output position's start fits
    full = np.zeros((out_c, n * hp * wp), x.dtype)
    for i in range(kh):
        for j in range(kw):
            offset = i * wp + j
            full[:, :span] += w[:, :, i, j] @ flat[:, offset:offset + span]
    ho, wo = hp - kh + 1, wp - kw + 1
    out = full.reshape(out_c, n, hp, wp)[:, :, :ho, :wo].transpose(1, 0, 2, 3)
    return out, ("dense", x.shape, (c, n, hp, wp), flat, w, 1)


def _dense_backward(node: _Node, saved: Any, g: np.ndarray,
                    needs_dx: bool) -> tuple[np.ndarray | None, np.ndarray]:
    _, x_shape, (c, n, hp, wp), flat, w, _ = saved
    out_c, _, kh, kw = w.shape
    top, left, _, _ = _pads(node)
    ho, wo = g.shape[2], g.shape[3]
    full = np.zeros((out_c, n, hp, wp), g.dtype)
    full[:, :, :ho, :wo] = g.transpose(1, 0, 2, 3)
    full = full.reshape(out_c, n * hp * wp)
    span = n * hp * wp - ((kh - 1) * wp + kw - 1)
    d_flat = np.zeros((c, n * hp * wp), g.dtype) if needs_dx else None
    dw = np.empty(w.shape, g.dtype)
    for i in range(kh):
        for j in range(kw):
            offset = i * wp + j
            dw[:, :, i, j] = full[:, :span] @ flat[:, offset:offset + span].T
            if d_flat is not None:
                d_flat[:, offset:offset + span] += w[:, :, i, j].T @ full[:, :span]
    if d_flat is None:
        return None, dw
    dx = d_flat.reshape(c, n, hp, wp)[:, :, top:top + x_shape[2], left:left + x_shape[3]]
    return dx.transpose(1, 0, 2, 3), dw


def _cols_backward(node: _Node, saved: Any, g: np.ndarray,
                   needs_dx: bool) -> tuple[np.ndarray | None, np.ndarray]:
    _, x_shape, padded_shape, cols, w, stride = saved
    out_c, _, kh, kw = w.shape
    n, _, ho, wo = g.shape
    g_flat = g.transpose(0, 2, 3, 1).reshape(n * ho * wo, out_c)
    dw = (g_flat.T @ cols).reshape(w.shape)
    if not needs_dx:
        return None, dw
    d_cols = (g_flat @ w.reshape(out_c, -1)).reshape(n, ho, wo, -1, kh, kw)
    d_padded = np.zeros(padded_shape, g.dtype)
    for i in range(kh):
        for j in range(kw):
            d_padded[:, :, i:i + stride * ho:stride, j:j + stride * wo:stride] += \
                d_cols[:, :, :, :, i, j].transpose(0, 3, 1, 2)
    top, left, _, _ = _pads(node)
    return d_padded[:, :, top:top + x_shape[2], left:left + x_shape[3]], dw


def _depthwise_backward(node: _Node, saved: Any, g: np.ndarray,
                        needs_dx: bool) -> tuple[np.ndarray | None, np.ndarray]:
    _, x_shape, padded_shape, padded, w, stride = saved
    _, _, kh, kw = w.shape
    _, _, ho, wo = g.shape
    view = sliding_window_view(padded, (kh, kw), axis=(2, 3))[:, :, ::stride, ::stride]
    dw = np.einsum("nchw,nchwij->cij", g, view, optimize=True)[:, None]
    if not needs_dx:
        return None, dw
    d_padded = np.zeros(padded_shape, g.dtype)
    for i in range(kh):
        for j in range(kw):
            d_padded[:, :, i:i + stride * ho:stride, j:j + stride * wo:stride] += \
                g * w[:, 0, i, j].reshape(1, -1, 1, 1)
    top, left, _, _ = _pads(node)
    return d_padded[:, :, top:top + x_shape[2], left:left + x_shape[3]], dw


_CONV_BACKWARD = {"dense": _dense_backward, "cols": _cols_backward,
                  "depthwise": _depthwise_backward}


def _conv_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    dx, dw = _CONV_BACKWARD[saved[0]](node, saved, g, graph.needs_grad(node.inputs[0]))
    grads = [(node.inputs[0], dx), (node.inputs[1], dw.astype(g.dtype))]
    if len(node.inputs) > 2 and node.inputs[2]:
        grads.append((node.inputs[2], g.sum(axis=(0, 2, 3))))
    return grads


def _relu_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    out = np.maximum(args[0], 0)
    return out, out > 0


def _relu_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    return [(node.inputs[0], g * saved)]


#: a 2x2 block's corners (row, column), in the order the max-pool keeps their masks
_CORNERS = ((0, 0), (0, 1), (1, 0), (1, 1))


def _maxpool_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    x = args[0]
    k = node.attrs.get("kernel_shape", [2, 2])
    s = node.attrs.get("strides", k)
    if list(k) != [2, 2] or list(s) != [2, 2] or any(_pads(node)):
        raise ValueError(f"MaxPool {k} stride {s} is not supported (2x2 stride 2 only)")
    n, c, h, w = x.shape
    ho, wo = h // 2, w // 2
    # the four corners of each 2x2 block as strided views: a reduction over two short,
    # scattered axes of a 6-d view was several times slower
    corners = [x[:, :, i:2 * ho:2, j:2 * wo:2] for i, j in _CORNERS]
    out = np.maximum(np.maximum(corners[0], corners[1]), np.maximum(corners[2], corners[3]))
    masks = [corner == out for corner in corners]
    return out, (x.shape, masks)


def _maxpool_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    shape, masks = saved
    _, _, ho, wo = g.shape
    # a tie sends the gradient to each maximum, as rare as it is harmless here
    dx = np.zeros(shape, g.dtype)
    for (i, j), mask in zip(_CORNERS, masks, strict=True):
        dx[:, :, i:2 * ho:2, j:2 * wo:2] = g * mask
    return [(node.inputs[0], dx)]


def _gap_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    x = args[0]
    return x.mean(axis=(2, 3), keepdims=True), x.shape


def _gap_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    shape = saved
    return [(node.inputs[0], np.broadcast_to(g / (shape[2] * shape[3]), shape).copy())]


def _flatten_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    x = args[0]
    return x.reshape(x.shape[0], -1), x.shape


def _flatten_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    return [(node.inputs[0], g.reshape(saved))]


def _gemm_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    x, w = args[0], args[1]
    b = args[2] if len(args) > 2 else None
    trans_b = int(node.attrs.get("transB", 0))
    weight = w.T if trans_b else w
    out = x @ weight
    if b is not None:
        out = out + b
    return out.astype(x.dtype), (x, w, trans_b)


def _gemm_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    x, w, trans_b = saved
    weight = w.T if trans_b else w
    dw = x.T @ g
    grads = [(node.inputs[0], g @ weight.T), (node.inputs[1], dw.T if trans_b else dw)]
    if len(node.inputs) > 2 and node.inputs[2]:
        grads.append((node.inputs[2], g.sum(axis=0)))
    return grads


def _resize_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    x, scales = args[0], args[2] if len(args) > 2 else None
    mode = node.attrs.get("mode", b"nearest")
    if scales is None or mode not in (b"nearest", "nearest") or \
            list(np.asarray(scales).ravel()) != [1, 1, 2, 2]:
        raise ValueError("only Resize by nearest x2 is supported")
    return x.repeat(2, axis=2).repeat(2, axis=3), x.shape


def _resize_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    n, c, h, w = saved
    return [(node.inputs[0], g.reshape(n, c, h, 2, w, 2).sum(axis=(3, 5)))]


def _add_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    return args[0] + args[1], None


def _add_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    return [(node.inputs[0], g), (node.inputs[1], g)]


def _constant_of(graph: Graph, name: str) -> np.ndarray | None:
    return graph.constants.get(name)


def _mul_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    return (args[0] * args[1]).astype(args[0].dtype), (args[0], args[1])


def _mul_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    a, b = saved
    grads = []
    if _constant_of(graph, node.inputs[0]) is None:
        grads.append((node.inputs[0], g * b))
    if _constant_of(graph, node.inputs[1]) is None:
        grads.append((node.inputs[1], g * a))
    return grads


def _sub_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    return (args[0] - args[1]).astype(args[0].dtype), None


def _sub_backward(node: _Node, saved: Any, g: np.ndarray, graph: Graph) -> list:
    grads = [(node.inputs[0], g)]
    if _constant_of(graph, node.inputs[1]) is None:
        grads.append((node.inputs[1], -g))
    return grads


def _transpose_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    return np.transpose(args[0], node.attrs["perm"]), None


def _cast_forward(node: _Node, args: list[Any]) -> tuple[np.ndarray, Any]:
    if int(node.attrs.get("to", 1)) != onnx.TensorProto.FLOAT:
        raise ValueError("only a Cast to float is supported")
    return args[0].astype(node.attrs["dtype"]), None


_FORWARD = {
    "Conv": _conv_forward, "Relu": _relu_forward, "MaxPool": _maxpool_forward,
    "GlobalAveragePool": _gap_forward, "Flatten": _flatten_forward, "Gemm": _gemm_forward,
    "Resize": _resize_forward, "Add": _add_forward, "Mul": _mul_forward, "Sub": _sub_forward,
    "Transpose": _transpose_forward, "Cast": _cast_forward,
}
_BACKWARD = {
    "Conv": _conv_backward, "Relu": _relu_backward, "MaxPool": _maxpool_backward,
    "GlobalAveragePool": _gap_backward, "Flatten": _flatten_backward, "Gemm": _gemm_backward,
    "Resize": _resize_backward, "Add": _add_backward, "Mul": _mul_backward,
    "Sub": _sub_backward,
}
