"""The detail view of large regions (models/contract.json "crop.detail"; the runtime: src/core/detail.ts).

  /usr/bin/python3 -m training.detail --ckpt CKPT --split DIR --detail DIR [--split DIR --detail DIR ...]

A region whose context crop is much larger than 96x96 loses its small print there; it also gets a view of
the window inside it where most pixels changed (`npm run detail-crops` makes those crops: a crops folder
whose rows name their region's row in `detail_of` and carry its layout context). Training takes such
folders as more --extra-train shards; the kind logits of the two views are fused as
(log_softmax(region) + a * log_softmax(detail)) / (1 + a), then the kind prior's bias is added. This
command prints the fused kind accuracy of CKPT for a grid of weights a on validation splits, to choose a.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from . import config as C
from .checkpoint import load_trained
from .context import load_context, load_kind_prior
from .data import CropSet, DataError, read_jsonl, to_tensor

WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)


def contract_weight() -> float:
    """The fusion weight the shipped contract gives (0 when it has no detail rule)."""
    return float(C.CONTRACT.get("crop", {}).get("detail", {}).get("weight", 0.0))


def fuse_detail_logits(region: torch.Tensor, detail: torch.Tensor, rows: torch.Tensor, weight: float) -> torch.Tensor:
    """region [N,K] kind logits of every sample, detail [D,K] those of the detail views of samples `rows`
    [D] -> [N,K]: log-softmax of the region's where a sample has no view, else the weighted mean of the two
    log-softmaxes (the runtime's rule; adding kind_bias afterwards is the caller's, as for any sample)."""
    out = F.log_softmax(region, -1)
    if len(rows) == 0 or weight <= 0:
        return out
    out = out.clone()
    out[rows] = (out[rows] + weight * F.log_softmax(detail, -1)) / (1 + weight)
    return out


def detail_rows(detail_dir: Path, model_rows: list[int]) -> tuple[list[dict], torch.Tensor]:
    """The detail folder's rows whose region is one of `model_rows` (crops.jsonl row numbers of the split),
    and for each the position of its region in model_rows."""
    rows = read_jsonl(Path(detail_dir) / "crops.jsonl")
    where = {r: i for i, r in enumerate(model_rows)}
    keep = [r for r in rows if "detail_of" in r and int(r["detail_of"]) in where]
    if rows and not any("detail_of" in r for r in rows):
        raise DataError(f"{detail_dir}: its rows have no detail_of; make it with `npm run detail-crops`")
    return keep, torch.tensor([where[int(r["detail_of"])] for r in keep], dtype=torch.long)


@torch.no_grad()
def detail_logits(enc, tok, detail_dir: Path, keep: list[dict], batch: int = 128) -> torch.Tensor:
    """The procedure encoder's kind logits [D,K] for the given rows of a crops folder (a detail folder or
    the split itself: rows name their image and context row by `index`)."""
    if not keep:
        return torch.zeros(0, len(C.KINDS))
    ds = CropSet(Path(detail_dir))
    context = torch.from_numpy(np.load(Path(detail_dir) / "crops.context.npy")[[int(r["index"]) for r in keep]]).float()
    out = []
    for lo in range(0, len(keep), batch):
        px = torch.stack([to_tensor(ds.pairs[int(r["index"])]) for r in keep[lo:lo + batch]])
        n = px.shape[0]
        f, _ = tok.encode(px.reshape(n * 2, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
        f = f.reshape(n, 2, C.N_I, C.FEAT_DIM)
        out.append(enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], None, context=context[lo:lo + batch])[2])
    return torch.cat(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--split", action="append", required=True, help="a validation crops folder (with crops.context.npy)")
    ap.add_argument("--detail", action="append", required=True, help="its detail-crops folder (same order as --split)")
    a = ap.parse_args(argv)
    if len(a.split) != len(a.detail):
        print("error: give one --detail folder per --split", file=sys.stderr)
        return 2
    torch.set_num_threads(2)
    ckpt = Path(a.ckpt)
    _, tok, _, enc, _ = load_trained(ckpt, "k2", partial=True)
    prior = load_kind_prior(ckpt / "kind_prior.pt")
    right = {w: 0 for w in WEIGHTS}
    total = 0
    try:
        for split, detail in zip(a.split, a.detail):
            x, y, keep_rows = load_context(Path(split))
            split_rows = read_jsonl(Path(split) / "crops.jsonl")
            region = detail_logits(enc, tok, Path(split), [split_rows[i] for i in keep_rows])   # one model load
            rows, where = detail_rows(Path(detail), keep_rows)
            det = detail_logits(enc, tok, Path(detail), rows)
            with torch.no_grad():
                bias = prior(torch.from_numpy(x))
            yt = torch.from_numpy(y)
            for w in WEIGHTS:
                right[w] += int(((fuse_detail_logits(region, det, where, w) + bias).argmax(1) == yt).sum())
            total += len(y)
            print(json.dumps({"split": split, "samples": len(y), "detail_views": len(rows)}), flush=True)
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(json.dumps({"samples": total, "kind_accuracy_by_weight": {str(w): round(right[w] / total, 4) for w in WEIGHTS},
                      "contract_weight": contract_weight()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
