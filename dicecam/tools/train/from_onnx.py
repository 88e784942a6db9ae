"""Torch weights back from a shipped ONNX file, so a model can be fine-tuned from it.

The shipped models kept no torch weights, and their exports have every batch norm folded
into the convolution before it. Their graphs list the convolutions (and the reader's one
linear layer) in the same order as the torch modules are declared, so the weights go back
one to one: each folded convolution's weight into the torch convolution, its bias into the
batch norm after it, whose statistics are set to the identity (mean 0, variance 1 - eps).
The batch norms must then stay frozen while fine-tuning (``freeze_batch_norms``): their
batch statistics would otherwise replace the folded ones at the first step.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _onnx_layers(path: Path) -> list[tuple[str, np.ndarray, np.ndarray | None]]:
    """(op, weight, bias) of every Conv and Gemm node of the graph, in graph order."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    layers = []
    for node in model.graph.node:
        if node.op_type not in ("Conv", "Gemm"):
            continue
        weight = inits[node.input[1]]
        bias = inits[node.input[2]] if len(node.input) > 2 else None
        if node.op_type == "Gemm":
            trans_b = next((a.i for a in node.attribute if a.name == "transB"), 0)
            weight = weight if trans_b else weight.T
        layers.append((node.op_type, weight, bias))
    return layers


def conv_widths(path: Path) -> list[int]:
    """The output channels of every convolution of the ONNX file at ``path``, in order."""
    return [int(weight.shape[0]) for op, weight, _bias in _onnx_layers(path) if op == "Conv"]


def load_folded_onnx(net, path: Path) -> None:
    """Put the weights of the ONNX file at ``path`` into ``net`` (a torch module of the
    architecture it was exported from); raises ValueError where the two do not match."""
    import torch
    from torch import nn

    modules = [m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.Linear, nn.BatchNorm2d))]
    layers = _onnx_layers(path)
    targets = []  # (conv or linear, the batch norm right after it or None)
    for i, module in enumerate(modules):
        if isinstance(module, (nn.Conv2d, nn.Linear)):
            after = modules[i + 1] if i + 1 < len(modules) else None
            targets.append((module, after if isinstance(after, nn.BatchNorm2d) else None))
    if len(targets) != len(layers):
        raise ValueError(f"{path}: {len(layers)} layers in the file, {len(targets)} in the net")
    with torch.no_grad():
        for (module, norm), (_op, weight, bias) in zip(targets, layers, strict=True):
            if tuple(module.weight.shape) != weight.shape:
                raise ValueError(f"{path}: a layer of shape {weight.shape} where the net has "
                                 f"{tuple(module.weight.shape)}")
            module.weight.copy_(torch.from_numpy(np.array(weight, np.float32)))
            bias_t = torch.from_numpy(np.array(bias, np.float32)) if bias is not None else None
            if norm is not None:
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias_t if bias_t is not None else torch.zeros_like(norm.bias))
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
            elif module.bias is not None:
                module.bias.copy_(bias_t if bias_t is not None
                                  else torch.zeros_like(module.bias))


def freeze_batch_norms(net) -> None:
    """Keep every batch norm of ``net`` in eval mode (fixed statistics); call after each
    ``net.train()``."""
    from torch import nn

    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
