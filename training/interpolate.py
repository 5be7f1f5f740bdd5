"""Frame interpolator: a small flow + mask + residual network of our own design.

moved  = m * warp(frame0, flow_t->0) + (1 - m) * warp(frame1, flow_t->1) + residual
middle = g * moved + (1 - g) * cross-fade, clamped to [0,1]
A bilateral cost volume between the two frames (1/4 resolution, 121 displacements, +-20 px) makes motion
visible: it feeds a small U-Net, and the motion itself is a soft choice among those displacements
(logits = -sharpness * cost + a learned correction), plus per-pixel flow corrections, the blend mask m
and an RGB residual. The gate g (a per-pixel gate times a per-crop "does warping beat the cross-fade
here" gate, both with a dead zone) falls back to the exact cross-fade where nothing moves; untrained,
g = 0 everywhere. Training: photometric loss on the true middle frame + targets from a teacher that
matches the TRUE middle frame against both ends (flows, displacement classes, mask, pixel gate): the
long-range signal that the photometric loss of a warp (1 px reach) lacks; then the crop gate alone, on
the frozen network, by the PSNR warping gains per crop (crop_gate_loss).
Applied recursively at the midpoint 3 levels deep it gives the 7 intermediate frames t = 1/8 .. 7/8.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1), nn.GELU(), nn.Conv2d(cout, cout, 3, padding=1), nn.GELU()
    )


def backward_warp(image: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
    """Sample image at (x + flow_x, y + flow_y); flow in pixels, [B,2,H,W]. Borders replicate."""
    b, _, h, w = image.shape
    xs = (torch.arange(w, dtype=image.dtype) + 0.5) * (2.0 / w) - 1.0
    ys = (torch.arange(h, dtype=image.dtype) + 0.5) * (2.0 / h) - 1.0
    gx = xs.view(1, 1, w) + flow[:, 0] * (2.0 / w)
    gy = ys.view(1, h, 1) + flow[:, 1] * (2.0 / h)
    grid = torch.stack([gx, gy], dim=-1)
    return F.grid_sample(image, grid, mode="bilinear", padding_mode="border", align_corners=False)


GATE_START = -3.0  # motion gate logit at start (p = 0.05, in the dead zone): untrained = exactly a cross-fade
COST_SCALE = 4  # the cost volume is built at 1/4 resolution
COST_RADIUS = 5  # displacements -5..5 cells there: up to 20 px each way at full size (40 px end to end)
ZERO_BIAS = 0.002  # per cell of |v|: among equally good matches prefer the smallest motion
PIXEL_GATE_RAMP = (0.5, 0.8333)  # per-pixel motion gate: 0 below p = 0.5, 1 above 0.83
# per-crop gate: 0 below p = 0.7, 1 above 0.9 (val, 366 crops: 40.87 dB vs 40.84 at (0.5, 0.8), 40.78 at
# (0.9, 0.97); cross-fade 40.49)
CROP_GATE_RAMP = (0.7, 0.9)


def _ramp(p: torch.Tensor, low: float, high: float) -> torch.Tensor:
    return ((p - low) / (high - low)).clamp(0.0, 1.0)


def _shifted(padded: torch.Tensor, dy: int, dx: int, r: int) -> torch.Tensor:
    """From an image padded by r on every side, the unpadded-size view of x(p + (dy, dx)). Static
    slice bounds (negative ends), so the ONNX export stays valid for any H, W."""
    y_end, x_end = r - dy, r - dx
    return padded[:, :, r + dy : (-y_end if y_end > 0 else None), r + dx : (-x_end if x_end > 0 else None)]


def displacements(radius: int) -> list[tuple[int, int]]:
    return [(dy, dx) for dy in range(-radius, radius + 1) for dx in range(-radius, radius + 1)]


def bilateral_cost_volume(a: torch.Tensor, b: torch.Tensor, radius: int) -> torch.Tensor:
    """[B,C,h,w] x2 -> [B,(2r+1)^2,h,w]: for each displacement v=(dy,dx) the mean over channels of
    |a(p - v) - b(p + v)| averaged over a 3x3 window. Low where something at p - v in the first frame
    sits at p + v in the second, i.e. where the middle frame sees it at p moving by v per half step."""
    n, c, h, w = a.shape
    k = 2 * radius + 1
    # every displaced view at once: unfold gives x(p + (ky - r, kx - r)) in displacements() order, so
    # b(p + v) is b's view and a(p - v) is a's view in reverse order. One gather per frame in ONNX
    # instead of (2r+1)^2 slice chains, which made the graph slow to load (BENCHMARKS.md).
    ua = F.unfold(F.pad(a, (radius,) * 4, mode="replicate"), k).reshape(n, c, k * k, h * w).flip(2)
    ub = F.unfold(F.pad(b, (radius,) * 4, mode="replicate"), k).reshape(n, c, k * k, h * w)
    costs = (ua - ub).abs().mean(1).reshape(n, k * k, h, w)
    return F.avg_pool2d(costs, 3, stride=1, padding=1, count_include_pad=False)


def blend_with_crossfade(
    moved: torch.Tensor, frame0: torch.Tensor, frame1: torch.Tensor, gate: torch.Tensor
) -> torch.Tensor:
    return (gate * moved + (1.0 - gate) * (frame0 + frame1) * 0.5).clamp(0.0, 1.0)


class CropGate(nn.Module):
    """One logit per crop: does warping beat the cross-fade anywhere here? A small CNN with mean and max
    pooling: a linear layer on pooled trunk features let a quarter of the opacity crops warp (-10 dB each)."""

    def __init__(self, channels: int, width: int = 24) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, width, 3, padding=1),
            nn.GELU(),
            nn.Conv2d(width, 2 * width, 3, stride=2, padding=1),
            nn.GELU(),
            nn.Conv2d(2 * width, 2 * width, 3, stride=2, padding=1),
            nn.GELU(),
        )
        self.out = nn.Linear(4 * width, 1)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        h = self.body(features)
        return self.out(torch.cat([h.mean((2, 3)), h.amax((2, 3))], 1))


class Interpolator(nn.Module):
    """frame0, frame1 [B,3,H,W] in [0,1] (H, W multiples of 16) -> middle [B,3,H,W].

    Motion is made visible to the network: a bilateral cost volume between the two frames at 1/4
    resolution (121 displacements, +-20 px) enters the U-Net at that level and is the prior of the
    displacement choice."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        c = width
        n_disp = (2 * COST_RADIUS + 1) ** 2
        self.down1 = _block(9, c, 2)  # H/2
        self.down2 = _block(c, 2 * c, 2)  # H/4
        self.cost_in = nn.Sequential(
            nn.Conv2d(n_disp, 3 * c, 1), nn.GELU(), nn.Conv2d(3 * c, 2 * c, 3, padding=1), nn.GELU()
        )
        self.fuse2 = _block(4 * c, 2 * c, 1)  # H/4: image features + motion evidence
        self.down3 = _block(2 * c, 3 * c, 2)  # H/8
        self.down4 = _block(3 * c, 4 * c, 2)  # H/16: large moves
        self.up3 = _block(4 * c + 3 * c, 3 * c, 1)
        self.up2 = _block(3 * c + 2 * c, 2 * c, 1)
        self.up1 = _block(2 * c + c, c, 1)
        # motion as a choice among the cost volume's displacements (1/4 resolution): logits =
        # -sharpness * cost + a learned correction (occlusions, flat areas, colour changes: prefer still)
        self.choice_head = nn.Conv2d(2 * c, n_disp, 3, padding=1)
        self.cost_sharpness = nn.Parameter(torch.tensor(30.0))
        disp_px = torch.tensor([[dx * COST_SCALE, dy * COST_SCALE] for dy, dx in displacements(COST_RADIUS)])
        self.register_buffer("disp_px", disp_px.float().t().reshape(1, 2, n_disp, 1, 1), persistent=False)
        # does warping beat the cross-fade anywhere in this crop? (colour, opacity and theme changes must
        # come out as an exact cross-fade, and a per-pixel gate alone leaks at their edges)
        self.crop_gate = CropGate(2 * c + 9 + 2)
        # flow0 (2), flow1 (2) corrections, mask (1), residual (3), motion gate (1)
        self.head = nn.Conv2d(c, 9, 3, padding=1)
        # Small random heads, NOT zero: a zero last layer passes no gradient to the layers below, and the
        # head alone can only fit the average flow, which time reversal makes zero, so nothing ever
        # learned to move (the previous design). The gates' start inside their dead zones is what keeps
        # the untrained network an exact cross-fade.
        # He init for the body: PyTorch's default conv init shrinks GELU activations ~3x per layer, and
        # 8 layers down the gradients reaching the cost-volume path were ~1e-9 (below Adam's eps).
        for module in self.modules():
            if isinstance(module, nn.Conv2d) and module not in (self.head, self.choice_head):
                nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
                nn.init.zeros_(module.bias)
        nn.init.normal_(self.head.weight, std=3e-4)
        nn.init.zeros_(self.head.bias)
        nn.init.constant_(self.head.bias[8:9], GATE_START)
        nn.init.normal_(self.crop_gate.out.weight, std=1e-3)
        nn.init.constant_(self.crop_gate.out.bias, GATE_START)
        nn.init.normal_(self.choice_head.weight, std=1e-3)
        with torch.no_grad():  # prior: stay still unless the cost volume says otherwise
            lengths = torch.tensor([float(dy * dy + dx * dx) ** 0.5 for dy, dx in displacements(COST_RADIUS)])
            self.choice_head.bias.copy_(-0.5 * lengths)

    @staticmethod
    def _up(x: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
        return F.interpolate(x, size=like.shape[-2:], mode="bilinear", align_corners=False)

    def motion(self, frame0: torch.Tensor, frame1: torch.Tensor) -> dict:
        """Everything but the crop gate's decision: the warped-and-blended middle ("moved"), flows, blend
        mask, displacement logits, the per-pixel gate and the crop gate's input features."""
        x = torch.cat([frame0, frame1, frame1 - frame0], dim=1) * 2.0 - 1.0
        small0 = F.avg_pool2d(frame0, COST_SCALE)
        small1 = F.avg_pool2d(frame1, COST_SCALE)
        cost = bilateral_cost_volume(small0, small1, COST_RADIUS)
        d1 = self.down1(x)
        d2 = self.fuse2(torch.cat([self.down2(d1), self.cost_in(cost * 10.0)], 1))
        d3 = self.down3(d2)
        d4 = self.down4(d3)
        u3 = self.up3(torch.cat([self._up(d4, d3), d3], 1))
        u2 = self.up2(torch.cat([self._up(u3, d2), d2], 1))
        u1 = self.up1(torch.cat([self._up(u2, d1), d1], 1))
        logits = self.choice_head(u2) - self.cost_sharpness * cost
        prob = torch.softmax(logits, dim=1).unsqueeze(1)  # [B,1,D,h,w]
        motion = self._up((prob * self.disp_px).sum(2), frame0)  # half motion v, pixels
        out = self._up(self.head(u1), frame0)
        flow0 = out[:, 0:2] * 16.0 - motion  # corrections scaled so small weights reach large moves
        flow1 = out[:, 2:4] * 16.0 + motion
        mask = torch.sigmoid(out[:, 4:5])
        residual = 0.2 * torch.tanh(out[:, 5:8])
        warped0 = backward_warp(frame0, flow0)
        warped1 = backward_warp(frame1, flow1)
        # where nothing moves (colour, opacity, theme changes) the cross-fade is already right: the gate
        # (supervised: does warping explain the true middle better than the blend?) falls back to it
        gate_p = torch.sigmoid(out[:, 8:9])
        # the crop gate sees the 1/4-resolution features detached (it is fitted last, on the frozen
        # network), the frames there, and the cost volume's best and zero-motion costs
        zero = COST_RADIUS * (2 * COST_RADIUS + 1) + COST_RADIUS
        gate_in = torch.cat(
            [
                d2.detach(),
                F.avg_pool2d(x, COST_SCALE),
                10.0 * cost.amin(1, keepdim=True),
                10.0 * cost[:, zero : zero + 1],
            ],
            1,
        )
        moved = mask * warped0 + (1.0 - mask) * warped1 + residual
        return {
            "moved": moved,
            "flow0": flow0,
            "flow1": flow1,
            "mask": mask,
            "logits": logits,
            "gate_p": gate_p,
            "gate_in": gate_in,
        }

    def predict(self, frame0: torch.Tensor, frame1: torch.Tensor):
        """-> (middle, flow0, flow1, mask, choice_logits, gate_p, crop_p); flows in full-resolution pixels
        (backward: sample at p + flow), choice_logits [B,D,H/4,W/4] over displacements(COST_RADIUS) (half
        motion v),
        gate_p [B,1,H,W] the probability that warping beats the cross-fade here, crop_p [B,1,1,1] the
        probability that warping beats it anywhere in the crop."""
        m = self.motion(frame0, frame1)
        crop_p = torch.sigmoid(self.crop_gate(m["gate_in"])).view(-1, 1, 1, 1)
        # Both gates have a dead zone (PIXEL_GATE_RAMP, CROP_GATE_RAMP): at 57-60 dB a leak of a few
        # percent of a wrong warp costs 10 dB, so "no motion here" must mean exactly the cross-fade.
        gate = _ramp(m["gate_p"], *PIXEL_GATE_RAMP) * _ramp(crop_p, *CROP_GATE_RAMP)
        middle = blend_with_crossfade(m["moved"], frame0, frame1, gate)
        return middle, m["flow0"], m["flow1"], m["mask"], m["logits"], m["gate_p"], crop_p

    def forward(self, frame0: torch.Tensor, frame1: torch.Tensor) -> torch.Tensor:
        return self.predict(frame0, frame1)[0]


@torch.no_grad()
def interpolate_seven(model: Interpolator, before: torch.Tensor, after: torch.Tensor) -> torch.Tensor:
    """Recursive midpoints, 3 levels: before/after [B,3,H,W] -> [B,7,3,H,W] for t = 1/8 .. 7/8.
    Each level runs as one batch (the runtime does the same)."""
    frames: dict[int, torch.Tensor] = {0: before, 8: after}
    for step in (4, 2, 1):
        lefts = list(range(0, 8, 2 * step))
        mids = model(torch.cat([frames[i] for i in lefts]), torch.cat([frames[i + 2 * step] for i in lefts]))
        for j, i in enumerate(lefts):
            frames[i + step] = mids[j * before.shape[0] : (j + 1) * before.shape[0]]
    return torch.stack([frames[t] for t in range(1, 8)], dim=1)


def crossfade_seven(before: torch.Tensor, after: torch.Tensor) -> torch.Tensor:
    """The baseline: linear blend at t = j/8."""
    ts = torch.arange(1, 8, dtype=before.dtype).view(1, 7, 1, 1, 1) / 8.0
    return (1 - ts) * before.unsqueeze(1) + ts * after.unsqueeze(1)


# (left, middle, right) indices into the 9-frame sequence [before, f1..f7, after]: every midpoint triple
# the recursion produces, so training sees all three levels.
MIDPOINT_TRIPLES = [
    (0, 4, 8),
    (0, 2, 4),
    (4, 6, 8),
    (0, 1, 2),
    (2, 3, 4),
    (4, 5, 6),
    (6, 7, 8),
    (2, 4, 6),
    (1, 2, 3),
    (3, 4, 5),
    (5, 6, 7),
]


FLOW_LOSS_WEIGHT = 0.02  # per pixel of flow error, against the photometric loss (~0.01-0.05)
MASK_LOSS_RATIO = 1.0  # mask cross-entropy relative to one pixel of flow error
CHOICE_LOSS_RATIO = 2.0  # displacement-choice cross-entropy relative to one pixel of flow error
GATE_LOSS_RATIO = 2.0  # motion-gate cross-entropy relative to one pixel of flow error


@torch.no_grad()
def motion_targets(left: torch.Tensor, right: torch.Tensor, middle: torch.Tensor) -> dict:
    """Teacher targets for one (left, TRUE middle, right) triple: flows [B,4,H,W] (to left, to right),
    where to trust them, and which end to take (mask = 1: left). Where warping with the teacher flows
    does not explain the middle better than the cross-fade (colour, opacity, theme changes: the middle
    is a blend, and matching finds spurious motion), the target is zero flow and an even blend."""
    b = left.shape[0]
    flows, _ = teacher_flow(torch.cat([middle, middle]), torch.cat([left, right]))
    flow0, flow1 = flows[:b], flows[b:]
    warped0, warped1 = backward_warp(left, flow0), backward_warp(right, flow1)

    def local_err(x: torch.Tensor) -> torch.Tensor:
        return F.avg_pool2d((x - middle).abs().mean(1, keepdim=True), 5, stride=1, padding=2, count_include_pad=False)

    err_fade = local_err((left + right) / 2)
    err0, err1 = local_err(warped0), local_err(warped1)
    err_warp = torch.minimum(local_err((warped0 + warped1) / 2), torch.minimum(err0, err1))
    moved = ((flows[:b].abs().sum(1, keepdim=True) + flows[b:].abs().sum(1, keepdim=True)) > 0).to(left.dtype)
    use_motion = (err_warp < err_fade - 0.005).to(left.dtype) * moved
    flow = torch.cat([flow0, flow1], 1) * use_motion
    mask = (err0 < err1).to(left.dtype)
    mask_known = use_motion * ((err0 - err1).abs() > 0.01).to(left.dtype)
    mask = mask * mask_known + 0.5 * (1 - mask_known)
    return {"flow": flow, "motion": use_motion, "mask": mask, "mask_known": mask_known}


def _balanced_mean(err: torch.Tensor, where: torch.Tensor, elsewhere_weight: float) -> torch.Tensor:
    """Mean of err over `where` plus elsewhere_weight times its mean elsewhere: moving pixels are a few
    percent of a crop, and a plain mean would teach the flow to stay zero everywhere."""
    inside = (err * where).sum() / where.sum().clamp_min(1.0)
    outside = (err * (1 - where)).sum() / (1 - where).sum().clamp_min(1.0)
    return inside + elsewhere_weight * outside


def interpolator_loss(
    model: Interpolator,
    left: torch.Tensor,
    right: torch.Tensor,
    target: torch.Tensor,
    flow_weight: float = FLOW_LOSS_WEIGHT,
):
    """Photometric loss on the middle frame + a flow loss towards teacher flows matched against the TRUE
    middle frame. The photometric gradient of a warp is only local (1 px), useless for a button that
    jumps 20 px with a flat interior; the teacher says where each end's pixels went."""
    pred, flow0, flow1, mask, logits, gate, crop_p = model.predict(left, right)
    # most pixels of a UI change are static and already right in a cross-fade: weight the pixels where
    # the two ends differ, so the loss is about the moving part
    moving = ((left - right).abs().amax(1, keepdim=True) > 0.02).to(pred.dtype)
    weight = 1.0 + 10.0 * moving
    charbonnier = (torch.sqrt((pred - target) ** 2 + 1e-6) * weight).sum() / (weight.sum() * 3)
    stats = {"psnr": float(-10 * torch.log10(F.mse_loss(pred.detach(), target) + 1e-10))}
    if flow_weight <= 0:
        return charbonnier, stats
    targets = motion_targets(left, right, target)
    flow_err = (torch.cat([flow0, flow1], 1) - targets["flow"]).abs()
    flow_err = flow_err[:, 0:2].sum(1, keepdim=True) + flow_err[:, 2:4].sum(1, keepdim=True)
    flow_loss = _balanced_mean(flow_err, targets["motion"], 0.2)
    mask_bce = F.binary_cross_entropy(mask.clamp(1e-4, 1 - 1e-4), targets["mask"], reduction="none")
    mask_loss = _balanced_mean(mask_bce, targets["mask_known"], 0.1)
    # the displacement choice as a classification at 1/4 resolution: a direct signal for every candidate
    half = (targets["flow"][:, 2:4] - targets["flow"][:, 0:2]) / 2
    cell = torch.round(F.avg_pool2d(half, COST_SCALE) / COST_SCALE).clamp(-COST_RADIUS, COST_RADIUS)
    label = ((cell[:, 1] + COST_RADIUS) * (2 * COST_RADIUS + 1) + cell[:, 0] + COST_RADIUS).long()
    moving_cells = (F.avg_pool2d(targets["motion"], COST_SCALE) > 0.5).to(pred.dtype)[:, 0]
    choice_ce = _balanced_mean(F.cross_entropy(logits, label, reduction="none"), moving_cells, 0.3)
    # three groups weighted apart: moving pixels, pixels that changed without moving (colour, opacity: the
    # hard negatives, where a wrong warp costs most) and unchanged pixels (easy)
    gate_bce = F.binary_cross_entropy(gate.clamp(1e-4, 1 - 1e-4), targets["motion"], reduction="none")
    changed_still = moving * (1 - targets["motion"])
    gate_loss = (
        _balanced_mean(gate_bce, targets["motion"], 0.0)
        + 4.0 * _balanced_mean(gate_bce, changed_still, 0.0)
        + 0.5 * _balanced_mean(gate_bce, 1 - moving, 0.0)
    )
    crop_moves = (targets["motion"].flatten(1).mean(1) > 0.002).to(pred.dtype)
    crop_bce = F.binary_cross_entropy(crop_p.view(-1).clamp(1e-4, 1 - 1e-4), crop_moves)
    gate_loss = gate_loss + 2.0 * crop_bce
    stats["flow_err"] = float(flow_loss)
    stats["mask_bce"] = float(mask_loss)
    stats["choice_ce"] = float(choice_ce)
    stats["gate_bce"] = float(gate_loss)
    stats["crop_bce"] = float(crop_bce)
    return charbonnier + flow_weight * (
        flow_loss + MASK_LOSS_RATIO * mask_loss + CHOICE_LOSS_RATIO * choice_ce + GATE_LOSS_RATIO * gate_loss
    ), stats


GATE_FIT_MAX_DB = 15.0  # cap on one crop's weight in the crop gate's fit (dB at stake)


STILL_MIN_DB = 2.0  # least weight of a crop whose change kind never moves anything


def crop_gate_loss(
    model: Interpolator,
    left: torch.Tensor,
    right: torch.Tensor,
    target: torch.Tensor,
    still: torch.Tensor | None = None,
):
    """The crop gate's own fit, on the frozen motion network, by what warping actually gains: target 1
    where the middle with the crop gate open beats the cross-fade against the TRUE middle, each crop
    weighted by the PSNR at stake. The metric is a mean of per-frame PSNRs: a warp in a colour crop near
    60 dB costs 10 dB or more, a missed move about 1, and the teacher's "something moved" label knew
    neither. still [B] (optional) marks crops whose change kind moves nothing (colour, opacity, theme):
    there any gain of a warp on the true frames is chance, and the target is the cross-fade."""
    with torch.no_grad():
        m = model.motion(left, right)
        opened = blend_with_crossfade(m["moved"], left, right, _ramp(m["gate_p"], *PIXEL_GATE_RAMP))
        gain = psnr(opened, target) - psnr(((left + right) * 0.5).clamp(0.0, 1.0), target)
        label = (gain > 0).to(left.dtype)
        weight = gain.abs().clamp(0.05, GATE_FIT_MAX_DB)
        if still is not None:
            still = still.to(left.dtype)
            label = label * (1 - still)
            weight = torch.where(still > 0, weight.clamp_min(STILL_MIN_DB), weight)
    logit = model.crop_gate(m["gate_in"]).view(-1)
    loss = F.binary_cross_entropy_with_logits(logit, label, weight=weight, reduction="sum") / weight.sum()
    decided = (logit.detach() > 0).to(left.dtype)
    # dB lost per crop by the gate's hard decision, against always choosing the better of the two
    stats = {
        "gate_acc": float((decided == label).to(left.dtype).mean()),
        "db_lost": float((weight * (decided != label).to(left.dtype)).mean()),
        "share_moving": float(label.mean()),
    }
    return loss, stats


def psnr(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Per-image PSNR in dB over [...,3,H,W] images in [0,1]; identical images are capped at 60 dB."""
    mse = ((pred - target) ** 2).flatten(-3).mean(-1)
    return -10 * torch.log10(mse.clamp_min(1e-6))


TEACHER_RADIUS = 5  # coarse search at 1/4 resolution over +-5 cells (+-20 px), then refined at 1/2 and 1/1


def _window_cost(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.avg_pool2d((a - b).abs().mean(1, keepdim=True), 3, stride=1, padding=1, count_include_pad=False)


@torch.no_grad()
def teacher_flow(middle: torch.Tensor, end: torch.Tensor, radius: int = TEACHER_RADIUS):
    """Training-time flow target from the TRUE middle frame: for every pixel the displacement v that best
    explains middle(p) by end(p + v) over a 3x3 window, ties towards v = 0 (flat areas stay still).
    Coarse to fine: exhaustive at 1/4 resolution, then +-1 cell at 1/2 and at full resolution.
    -> (flow [B,2,H,W] in full-resolution pixels, gain [B,1,H,W]: how much better than v = 0 it matches)."""

    def bias(flow_px: torch.Tensor) -> torch.Tensor:
        return ZERO_BIAS / COST_SCALE * (flow_px**2).sum(1, keepdim=True).sqrt()

    m4, e4 = F.avg_pool2d(middle, 4), F.avg_pool2d(end, 4)
    padded = F.pad(e4, (radius,) * 4, mode="replicate")
    best = torch.full_like(m4[:, :1], float("inf"))
    flow = torch.zeros(m4.shape[0], 2, *m4.shape[-2:], dtype=m4.dtype)
    for dy, dx in displacements(radius):
        cost = _window_cost(m4, _shifted(padded, dy, dx, radius)) + ZERO_BIAS * (dy * dy + dx * dx) ** 0.5
        better = cost < best
        best = torch.where(better, cost, best)
        flow = torch.where(better, flow.new_tensor([4.0 * dx, 4.0 * dy]).view(1, 2, 1, 1), flow)
    for scale in (2, 1):
        m_s = F.avg_pool2d(middle, scale) if scale > 1 else middle
        e_s = F.avg_pool2d(end, scale) if scale > 1 else end
        base = F.interpolate(flow, size=m_s.shape[-2:], mode="nearest")
        best = torch.full_like(m_s[:, :1], float("inf"))
        flow = base.clone()
        for dy, dx in displacements(1):
            cand = base + base.new_tensor([float(dx * scale), float(dy * scale)]).view(1, 2, 1, 1)
            cost = _window_cost(m_s, backward_warp(e_s, cand / scale)) + bias(cand)
            better = cost < best
            best = torch.where(better, cost, best)
            flow = torch.where(better, cand, flow)
    gain = (_window_cost(middle, end) - best).clamp_min(0)
    return flow, gain
