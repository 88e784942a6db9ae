"""The die detector's network (torch; training only, the runtime uses the ONNX export).

A tiny CenterNet-like fully convolutional net: a stride-16 encoder of 3x3 convolutions and
depthwise-separable blocks (16-24-32-48 channels), a two-step top-down path back to
stride 4, and a head with six maps at a quarter of the input size:

0. die-centre heat (sigmoid), 1-2. sub-cell offset of the centre (x, y, in cells),
3-4. log of the top face's box width and height (input pixels), 5. hand/arm (sigmoid).

The exported graph takes a uint8-valued float BGR image (N x 3 x H x W, H and W multiples
of 16) and already applies the sigmoids and a 3x3 max-pool peak test, so the runtime only
thresholds. About 38k parameters and 0.1 G multiply-adds at 640 x 368.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional

STRIDE = 4
CHANNELS = 6


def _cbr(cin: int, cout: int, stride: int = 1, kernel: int = 3) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def _separable(c: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False), nn.BatchNorm2d(c),
                         nn.ReLU(inplace=True), _cbr(c, c, 1, 1))


class DetectorNet(nn.Module):
    """BGR image (0..255) -> raw maps (N x 6 x H/4 x W/4)."""

    def __init__(self, widths: tuple[int, int, int, int] = (16, 24, 32, 48)) -> None:
        super().__init__()
        w = widths
        self.stem = _cbr(3, w[0], 2)
        self.down4 = nn.Sequential(_cbr(w[0], w[1], 2), _separable(w[1]))
        self.down8 = nn.Sequential(_cbr(w[1], w[2], 2), _separable(w[2]), _separable(w[2]))
        self.down16 = nn.Sequential(_cbr(w[2], w[3], 2), _separable(w[3]), _separable(w[3]))
        self.lateral8 = nn.Conv2d(w[3], w[2], 1)
        self.lateral4 = nn.Conv2d(w[2], w[1], 1)
        self.head = nn.Sequential(_separable(w[1]), nn.Conv2d(w[1], CHANNELS, 1))
        with torch.no_grad():  # CenterNet's prior: few cells hold a centre
            self.head[-1].bias[0] = -2.2
            self.head[-1].bias[5] = -2.2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * (1.0 / 255.0)
        f4 = self.down4(self.stem(x))
        f8 = self.down8(f4)
        f16 = self.down16(f8)
        f8 = f8 + functional.interpolate(self.lateral8(f16), scale_factor=2.0, mode="nearest")
        f4 = f4 + functional.interpolate(self.lateral4(f8), scale_factor=2.0, mode="nearest")
        return self.head(f4)


class ExportedDetector(nn.Module):
    """What is exported: sigmoids applied, heat peaks kept (others zeroed)."""

    def __init__(self, net: DetectorNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raw = self.net(x)
        heat = torch.sigmoid(raw[:, 0:1])
        peaks = heat * (functional.max_pool2d(heat, 3, 1, 1) == heat).float()
        hand = torch.sigmoid(raw[:, 5:6])
        return torch.cat([peaks, raw[:, 1:5], hand], dim=1)
