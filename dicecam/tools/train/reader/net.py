"""The die reader's network (torch; training only, the runtime uses the ONNX export).

A small plain CNN for 32x32 crops: six 3x3 conv + batch-norm + ReLU blocks (16-32-32-64-64-128
channels; one stride-2 and two max-pools: two blocks at 16x16 and two at 8x8, where the pips
are told apart), global average pooling, one linear layer to the seven classes, softmax.
About 145k parameters and 8.4 M multiply-adds per crop: 60 crops in under 10 ms on one CPU
thread. (A four-block version at a third of the cost stopped near 90% on synthetic crops.)
"""

from __future__ import annotations

import torch
from torch import nn

INPUT_PX = 32
CLASSES = 7  # 0: not a readable die, 1-6: the value
#: the shipped reader's channel widths (blocks 16-32-32-64-64-128)
WIDTHS = (16, 32, 64, 128)


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class ReaderNet(nn.Module):
    """BGR crops in 0..1 (N x 3 x 32 x 32) -> class logits (N x 7)."""

    def __init__(self, widths: tuple[int, ...] = WIDTHS) -> None:
        super().__init__()
        w = widths
        self.features = nn.Sequential(
            _block(3, w[0], 2),      # 16 x 16
            _block(w[0], w[1]),
            _block(w[1], w[1]),
            nn.MaxPool2d(2),         # 8 x 8
            _block(w[1], w[2]),
            _block(w[2], w[2]),
            nn.MaxPool2d(2),         # 4 x 4
            _block(w[2], w[3]),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(w[3], CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.dropout(self.features(x * 2.0 - 1.0)))


def widths_of(conv_out_channels: list[int]) -> tuple[int, int, int, int]:
    """The ``widths`` of a ReaderNet whose six convolutions have these output channels
    (e.g. read from an exported file), so a wider reader fine-tunes as what it is."""
    if len(conv_out_channels) != 6:
        raise ValueError(f"a die reader has 6 convolutions, this one {len(conv_out_channels)}")
    c = conv_out_channels
    return (c[0], c[1], c[3], c[5])


class Exported(nn.Module):
    """What is exported: uint8 BGR crops N x 32 x 32 x 3 in, probabilities out, so the
    runtime hands over its resized crops as they are (no transpose or scaling in Python)."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.permute(0, 3, 1, 2).to(torch.float32) * (1.0 / 255.0)
        return torch.softmax(self.net(x), dim=1)
