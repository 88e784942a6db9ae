"""A YOLOv8n-class detector with random weights: the yardstick ``dicecam bench reader
--yolo`` times beside the table reader.

The network follows YOLOv8n's published layout (width 0.25, depth 0.33: a CSP backbone of
C2f blocks and SPPF, a PAN neck, a decoupled anchor-free head with 16-bin box
distributions) for one class; about 3.0 M parameters and 8 G multiply-adds at 640 x 640.
Only its speed matters, so its weights are random and it is written here (torch, the
``train`` extra) rather than installed: a forward pass costs the same whatever it learned.
"""

from __future__ import annotations

from pathlib import Path

#: YOLOv8n's channels per stage (64, 128, 256, 512, 1024 scaled by 0.25) and C2f depths.
CHANNELS = (16, 32, 64, 128, 256)
DEPTHS = (1, 2, 2, 1)
BOX_BINS = 16


def build(classes: int = 1):  # -> torch.nn.Module
    import torch
    from torch import nn

    class Conv(nn.Module):
        def __init__(self, c1: int, c2: int, k: int = 1, s: int = 1) -> None:
            super().__init__()
            self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
            self.bn = nn.BatchNorm2d(c2)
            self.act = nn.SiLU()

        def forward(self, x):
            return self.act(self.bn(self.conv(x)))

    class Bottleneck(nn.Module):
        def __init__(self, c: int, shortcut: bool) -> None:
            super().__init__()
            self.cv1, self.cv2 = Conv(c, c, 3), Conv(c, c, 3)
            self.add = shortcut

        def forward(self, x):
            y = self.cv2(self.cv1(x))
            return x + y if self.add else y

    class C2f(nn.Module):
        def __init__(self, c1: int, c2: int, n: int, shortcut: bool) -> None:
            super().__init__()
            self.c = c2 // 2
            self.cv1 = Conv(c1, 2 * self.c)
            self.cv2 = Conv((2 + n) * self.c, c2)
            self.m = nn.ModuleList(Bottleneck(self.c, shortcut) for _ in range(n))

        def forward(self, x):
            y = list(self.cv1(x).chunk(2, 1))
            for block in self.m:
                y.append(block(y[-1]))
            return self.cv2(torch.cat(y, 1))

    class SPPF(nn.Module):
        def __init__(self, c1: int, c2: int) -> None:
            super().__init__()
            hidden = c1 // 2
            self.cv1, self.cv2 = Conv(c1, hidden), Conv(hidden * 4, c2)
            self.pool = nn.MaxPool2d(5, 1, 2)

        def forward(self, x):
            y = [self.cv1(x)]
            for _ in range(3):
                y.append(self.pool(y[-1]))
            return self.cv2(torch.cat(y, 1))

    class YoloV8nClass(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            c0, c1, c2, c3, c4 = CHANNELS
            d1, d2, d3, d4 = DEPTHS
            self.stem = nn.Sequential(Conv(3, c0, 3, 2), Conv(c0, c1, 3, 2), C2f(c1, c1, d1, True))
            self.p3 = nn.Sequential(Conv(c1, c2, 3, 2), C2f(c2, c2, d2, True))
            self.p4 = nn.Sequential(Conv(c2, c3, 3, 2), C2f(c3, c3, d3, True))
            self.p5 = nn.Sequential(Conv(c3, c4, 3, 2), C2f(c4, c4, d4, True), SPPF(c4, c4))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.top4 = C2f(c4 + c3, c3, 1, False)
            self.top3 = C2f(c3 + c2, c2, 1, False)
            self.down3 = Conv(c2, c2, 3, 2)
            self.bottom4 = C2f(c2 + c3, c3, 1, False)
            self.down4 = Conv(c3, c3, 3, 2)
            self.bottom5 = C2f(c3 + c4, c4, 1, False)
            box_c, cls_c = max(16, c2 // 4, BOX_BINS * 4), max(c2, min(classes, 100))
            self.box = nn.ModuleList(nn.Sequential(Conv(c, box_c, 3), Conv(box_c, box_c, 3),
                                                   nn.Conv2d(box_c, 4 * BOX_BINS, 1))
                                     for c in (c2, c3, c4))
            self.cls = nn.ModuleList(nn.Sequential(Conv(c, cls_c, 3), Conv(cls_c, cls_c, 3),
                                                   nn.Conv2d(cls_c, classes, 1))
                                     for c in (c2, c3, c4))

        def forward(self, x):
            p3 = self.p3(self.stem(x))
            p4 = self.p4(p3)
            p5 = self.p5(p4)
            t4 = self.top4(torch.cat([self.up(p5), p4], 1))
            n3 = self.top3(torch.cat([self.up(t4), p3], 1))
            n4 = self.bottom4(torch.cat([self.down3(n3), t4], 1))
            n5 = self.bottom5(torch.cat([self.down4(n4), p5], 1))
            outs = [torch.cat([box(f), cls(f)], 1).flatten(2)
                    for f, box, cls in zip((n3, n4, n5), self.box, self.cls, strict=True)]
            return torch.cat(outs, 2)

    torch.manual_seed(0)
    return YoloV8nClass().eval()


def export(path: Path, height: int, width: int) -> int:
    """Write the network as ONNX for one ``height`` x ``width`` BGR frame; its parameter
    count."""
    import torch

    net = build()
    with torch.no_grad():
        torch.onnx.export(net, torch.zeros(1, 3, height, width), str(path), opset_version=17,
                          input_names=["image"], output_names=["raw"], dynamo=False)
    return sum(p.numel() for p in net.parameters())
