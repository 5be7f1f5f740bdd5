"""Frame interpolator: a small flow + mask + residual network of our own design.

middle = m * warp(frame0, flow_t->0) + (1 - m) * warp(frame1, flow_t->1) + residual, clamped to [0,1].
A small U-Net sees both frames and predicts, at half resolution, the two backward flows (pixels), the
blend mask and an RGB residual. The last layer starts at zero, so an untrained network is exactly a
cross-fade; training can only move it towards the true midpoints. Applied recursively at the midpoint
3 levels deep it gives the 7 intermediate frames t = 1/8 .. 7/8.
"""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=stride, padding=1), nn.GELU(),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.GELU())


def backward_warp(image: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    """Sample image at (x + flow_x, y + flow_y); flow in pixels, [B,2,H,W]. Borders replicate."""
    b, _, h, w = image.shape
    xs = (torch.arange(w, dtype=image.dtype) + 0.5) * (2.0 / w) - 1.0
    ys = (torch.arange(h, dtype=image.dtype) + 0.5) * (2.0 / h) - 1.0
    gx = xs.view(1, 1, w) + flow[:, 0] * (2.0 / w)
    gy = ys.view(1, h, 1) + flow[:, 1] * (2.0 / h)
    grid = torch.stack([gx, gy], dim=-1)
    return F.grid_sample(image, grid, mode="bilinear", padding_mode="border", align_corners=False)


class Interpolator(nn.Module):
    """frame0, frame1 [B,3,H,W] in [0,1] (H, W multiples of 16) -> middle [B,3,H,W]."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        c = width
        self.down1 = _block(9, c, 2)           # H/2
        self.down2 = _block(c, 2 * c, 2)       # H/4
        self.down3 = _block(2 * c, 3 * c, 2)   # H/8
        self.down4 = _block(3 * c, 4 * c, 2)   # H/16: large moves
        self.up3 = _block(4 * c + 3 * c, 3 * c, 1)
        self.up2 = _block(3 * c + 2 * c, 2 * c, 1)
        self.up1 = _block(2 * c + c, c, 1)
        self.head = nn.Conv2d(c, 8, 3, padding=1)   # flow0 (2), flow1 (2), mask (1), residual (3)
        nn.init.zeros_(self.head.weight)
        nn.init.zeros_(self.head.bias)

    @staticmethod
    def _up(x: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, size=like.shape[-2:], mode="bilinear", align_corners=False)

    def forward(self, frame0: torch.Tensor, frame1: torch.Tensor) -> torch.Tensor:
        x = torch.cat([frame0, frame1, frame1 - frame0], dim=1) * 2.0 - 1.0
        d1 = self.down1(x)
        d2 = self.down2(d1)
        d3 = self.down3(d2)
        d4 = self.down4(d3)
        u3 = self.up3(torch.cat([self._up(d4, d3), d3], 1))
        u2 = self.up2(torch.cat([self._up(u3, d2), d2], 1))
        u1 = self.up1(torch.cat([self._up(u2, d1), d1], 1))
        out = self._up(self.head(u1), frame0)
        flow0, flow1 = out[:, 0:2] * 16.0, out[:, 2:4] * 16.0   # scaled so small weights reach large moves
        mask = torch.sigmoid(out[:, 4:5])
        residual = 0.2 * torch.tanh(out[:, 5:8])
        warped0 = backward_warp(frame0, flow0)
        warped1 = backward_warp(frame1, flow1)
        middle = mask * warped0 + (1.0 - mask) * warped1 + residual
        return middle.clamp(0.0, 1.0)


@torch.no_grad()
def interpolate_seven(model: Interpolator, before: torch.Tensor, after: torch.Tensor) -> torch.Tensor:
    """Recursive midpoints, 3 levels: before/after [B,3,H,W] -> [B,7,3,H,W] for t = 1/8 .. 7/8.
    Each level runs as one batch (the runtime does the same)."""
    frames: dict[int, torch.Tensor] = {0: before, 8: after}
    for step in (4, 2, 1):
        lefts = list(range(0, 8, 2 * step))
        mids = model(torch.cat([frames[i] for i in lefts]), torch.cat([frames[i + 2 * step] for i in lefts]))
        for j, i in enumerate(lefts):
            frames[i + step] = mids[j * before.shape[0]:(j + 1) * before.shape[0]]
    return torch.stack([frames[t] for t in range(1, 8)], dim=1)


def crossfade_seven(before: torch.Tensor, after: torch.Tensor) -> torch.Tensor:
    """The baseline: linear blend at t = j/8."""
    ts = torch.arange(1, 8, dtype=before.dtype).view(1, 7, 1, 1, 1) / 8.0
    return (1 - ts) * before.unsqueeze(1) + ts * after.unsqueeze(1)


# (left, middle, right) indices into the 9-frame sequence [before, f1..f7, after]: every midpoint triple
# the recursion produces, so training sees all three levels.
MIDPOINT_TRIPLES = [(0, 4, 8), (0, 2, 4), (4, 6, 8), (0, 1, 2), (2, 3, 4), (4, 5, 6), (6, 7, 8), (2, 4, 6),
                    (1, 2, 3), (3, 4, 5), (5, 6, 7)]


def interpolator_loss(model: Interpolator, left: torch.Tensor, right: torch.Tensor, target: torch.Tensor):
    pred = model(left, right)
    # most pixels of a UI change are static and already right in a cross-fade: weight the pixels where
    # the two ends differ, so the loss is about the moving part
    moving = ((left - right).abs().amax(1, keepdim=True) > 0.02).to(pred.dtype)
    weight = 1.0 + 10.0 * moving
    charbonnier = (torch.sqrt((pred - target) ** 2 + 1e-6) * weight).sum() / (weight.sum() * 3)
    mse = F.mse_loss(pred, target)
    return charbonnier, {"psnr": float(-10 * torch.log10(mse.detach() + 1e-10))}


def psnr(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Per-image PSNR in dB over [...,3,H,W] images in [0,1]; identical images are capped at 60 dB."""
    mse = ((pred - target) ** 2).flatten(-3).mean(-1)
    return (-10 * torch.log10(mse.clamp_min(1e-6)))
