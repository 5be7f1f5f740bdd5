"""Layout kind prior: change-kind log-probabilities from a sample's layout context, fused with the kind head.

  /usr/bin/python3 -m training.context --data CORPUS [--extra-train DIR ...] --ckpt CKPT [--seed 1234]
      [--members CKPT ...]

The procedure encoder sees a 96x96 crop: a region's size and place on the screen, how the extent and
centre of its content changed at full resolution, and what else changed in the pair (a reflow has a
cause above it, a reorder a partner beside it) are lost or blurred there. src/core/context.ts computes
those 55 numbers (contract `context_features`); `npm run context` writes them for a crops file
(crops.context.npy). This module trains a small MLP on them (train split, every shard), picks the
fusion weight w on the validation split with CKPT's k2 kind head (fused logits = kind_logits +
w * log p_prior), and writes CKPT/kind_prior.pt. training/export.py exports it as kind_prior.onnx, whose
output kind_bias = w * log p_prior is what the runtime adds to kind_logits.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from . import config as C
from .checkpoint import load_trained
from .committee import committee_logits, load_members
from .data import CropSet, DataError, read_jsonl, to_tensor
from .encode import context_stats

CONTEXT_FEATURES: list[str] = C.CONTRACT["context_features"]
FUSION_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0)  # the grid searched on val
HIDDEN = 128
STEPS = 1500
LR = 3e-3


class KindPrior(nn.Module):
    """context [B,55] raw features -> kind_bias [B,14] = weight * log_softmax(MLP((context - mean) / std))."""

    def __init__(self, mean: torch.Tensor | None = None, std: torch.Tensor | None = None, weight: float = 1.0) -> None:
        super().__init__()
        n = len(CONTEXT_FEATURES)
        self.register_buffer("mean", torch.zeros(n) if mean is None else mean.float())
        self.register_buffer("std", torch.ones(n) if std is None else std.float())
        self.register_buffer("weight", torch.tensor(float(weight)))
        self.mlp = nn.Sequential(
            nn.Linear(n, HIDDEN),
            nn.GELU(),
            nn.Dropout(0.2),
            nn.Linear(HIDDEN, HIDDEN),
            nn.GELU(),
            nn.Linear(HIDDEN, len(C.KINDS)),
        )

    def log_probs(self, context: torch.Tensor) -> torch.Tensor:
        return F.log_softmax(self.mlp((context - self.mean) / self.std), dim=-1)

    def forward(self, context: torch.Tensor) -> torch.Tensor:
        return self.weight * self.log_probs(context)


def load_kind_prior(path: Path) -> KindPrior:
    """A fitted prior (kind_prior.pt written by fit_kind_prior), in eval mode. One fitted before features
    were appended to the contract (v4: 49) reads the new ones with zero input weights (mean 0, std 1), so
    it gives what it gave."""
    saved = torch.load(path)
    state = dict(saved["state"])
    known = int(state["mlp.0.weight"].shape[1])
    extra = len(CONTEXT_FEATURES) - known
    if extra > 0:
        state["mlp.0.weight"] = torch.cat([state["mlp.0.weight"], state["mlp.0.weight"].new_zeros(HIDDEN, extra)], 1)
        state["mean"] = torch.cat([state["mean"], torch.zeros(extra)])
        state["std"] = torch.cat([state["std"], torch.ones(extra)])
    prior = KindPrior()
    prior.load_state_dict(state)
    return prior.eval()


def model_rows(rows: list[dict]) -> list[int]:
    """The rows the runtime feeds to the model (not noise, not the fallback of pairs with nothing found)."""
    return [i for i, r in enumerate(rows) if r.get("source", "region") not in ("noise", "fallback")]


def load_context(split_dir: Path) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """-> (features [n,55] of the model rows, their kind ids, their row indices in crops.jsonl)."""
    path = split_dir / "crops.context.npy"
    if not path.is_file():
        raise DataError(f"{path} missing: run `npm run --silent context -- --crops {split_dir / 'crops.jsonl'}`")
    rows = read_jsonl(split_dir / "crops.jsonl")
    feats = np.load(path)
    if feats.shape != (len(rows), len(CONTEXT_FEATURES)):
        raise DataError(
            f"{path}: shape {feats.shape}, expected ({len(rows)}, {len(CONTEXT_FEATURES)}): "
            f"made for another crops file or another feature list; run npm run context again with --force"
        )
    keep = model_rows(rows)
    kinds = np.array([C.KINDS.index(rows[i]["kind"]) for i in keep], dtype=np.int64)
    return feats[keep].astype(np.float32), kinds, keep


def train_prior(x: np.ndarray, y: np.ndarray, seed: int, steps: int = STEPS) -> KindPrior:
    """Full-batch AdamW on the standardised features (a few tens of thousands of rows: seconds per step)."""
    torch.manual_seed(seed)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    model = KindPrior(*context_stats(xt))
    opt = torch.optim.AdamW(model.mlp.parameters(), lr=LR, weight_decay=1e-3)
    model.train()
    for step in range(steps):
        for g in opt.param_groups:
            g["lr"] = LR * 0.5 * (1 + np.cos(np.pi * step / steps))
        loss = F.cross_entropy(model.mlp((xt - model.mean) / model.std), yt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    return model


@torch.no_grad()
def head_logits(ckpt: Path, split_dir: Path, rows_idx: list[int], members: list[Path] | None = None) -> torch.Tensor:
    """The k2 procedure encoder's kind_logits for the given crops.jsonl rows of a split (with their layout
    context); with kind committee members (training/committee.py), the committee's logits, as the runtime has."""
    ds = CropSet(split_dir)
    rows = read_jsonl(split_dir / "crops.jsonl")
    _, tok, _, enc, _ = load_trained(ckpt, "k2", partial=True)
    voters = load_members(ckpt, members) if members else []
    context = torch.from_numpy(np.load(split_dir / "crops.context.npy")[rows_idx]).float()
    out = []
    for lo in range(0, len(rows_idx), 128):
        px = torch.stack([to_tensor(ds.pairs[rows[i]["index"]]) for i in rows_idx[lo : lo + 128]])
        n = px.shape[0]
        f, _ = tok.encode(px.reshape(n * 2, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
        f = f.reshape(n, 2, C.N_I, C.FEAT_DIM)
        own = enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], None, context=context[lo : lo + 128])[2]
        if voters:
            votes = [
                m.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], None, context=context[lo : lo + 128])[2] for m in voters
            ]
            own = committee_logits(own, votes)
        out.append(own)
    return torch.cat(out)


def fit_kind_prior(
    data: Path, extra_train: list[Path], ckpt: Path, seed: int, steps: int = STEPS, members: list[Path] | None = None
) -> dict:
    """Trains the prior (an MLP) on every training shard, picks the fusion weight on val with CKPT's kind head
    (or its committee with `members`), saves CKPT/kind_prior.pt; returns its summary. Raises DataError when
    context features are missing."""
    t0 = time.time()
    parts = [load_context(d) for d in [data / "train", *extra_train]]
    xv, yv, val_rows = load_context(data / "val")
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    model = train_prior(x, y, seed, steps)
    with torch.no_grad():
        prior_train = float((model.log_probs(torch.from_numpy(x)).argmax(1).numpy() == y).mean())
        prior_val_lp = model.log_probs(torch.from_numpy(xv))
    head = head_logits(ckpt, data / "val", val_rows, members)
    yv_t = torch.from_numpy(yv)
    grid = {w: float(((head + w * prior_val_lp).argmax(1) == yv_t).float().mean()) for w in FUSION_WEIGHTS}
    best = max(FUSION_WEIGHTS, key=lambda w: (grid[w], -w))  # ties: the smaller weight
    model.weight.fill_(best)
    summary = {
        "model": "mlp",
        "train_rows": int(len(y)),
        "val_rows": int(len(yv)),
        "seed": seed,
        "prior_alone_train_accuracy": prior_train,
        "prior_alone_val_accuracy": float((prior_val_lp.argmax(1) == yv_t).float().mean()),
        "head_val_accuracy": grid[0.0],
        "val_accuracy_by_weight": {str(k): v for k, v in grid.items()},
        "weight": best,
        "train_seconds": round(time.time() - t0, 1),
        "argv": sys.argv,
        "fused_with": "committee of " + ", ".join(str(m) for m in [ckpt, *members]) if members else str(ckpt),
    }
    summary["steps"] = steps
    torch.save({"state": model.state_dict(), "summary": summary}, ckpt / "kind_prior.pt")
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="corpus folder with train/ and val/ (crops + crops.context.npy)")
    ap.add_argument("--extra-train", action="append", default=[], help="more training shards (crops folders)")
    ap.add_argument(
        "--ckpt", required=True, help="checkpoint folder with the trained stage 2 (k2); kind_prior.pt goes there"
    )
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--steps", type=int, default=STEPS, help="full-batch steps")
    ap.add_argument(
        "--members",
        action="append",
        default=[],
        help="kind committee members (training/committee.py): the fusion weight is picked with the committee's logits",
    )
    a = ap.parse_args(argv)
    torch.set_num_threads(1)  # the prior's figures were made on one thread
    try:
        summary = fit_kind_prior(
            Path(a.data), [Path(d) for d in a.extra_train], Path(a.ckpt), a.seed, a.steps, [Path(m) for m in a.members]
        )
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps({k: v for k, v in summary.items() if k != "argv"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
