"""Trains one more kind-committee member: a stage-2 round from a finished checkpoint, on a GPU when there is one.

  /usr/bin/python3 -m training.train_member --ckpt MAIN --train DIR [--train DIR ...] --val DIR --out OUT
      [--seed S] [--steps N] [--batch B] [--lr LR] [--minutes M] [--augment-shift 8] [--device auto|cuda|cpu] [--resume]

A member only votes on the change kind (training/committee.py), so it is trained on what the kind head and the
captions need: before/after crops, their layout context, kinds and captions (crops.jsonl, crops.pairs.npy,
crops.context.npy of each --train folder; no frames.npy, so no masked-modelling loss at the queries: a member's
imagined frames are never shown). The losses are stage 2's (training/train.py train_stage2): captioning with
label smoothing + the kind head; the schedule is run_phase's (AdamW, warm-up + cosine, clipped gradients).

What differs from `training.train --stage2-init`, and why: every training crop is held on the device and the
frozen backbone's features are computed again at every step (on a GPU that costs less than reading a cache),
so a member trains at GPU speed; the shift augmentation is train.shift_pairs, on half of each batch. --train
may repeat a folder to draw it twice as often.

OUT becomes a finished checkpoint folder that `training.export --members OUT` and `training.evaluate
--members OUT` accept: MAIN's vocabulary, tokenizer, interpolator and configuration copied, stage2_k2.pt
trained here (saved on the CPU), train_log.jsonl and summary.json. With --resume a run cut short goes on from
OUT/stage2_k2.ckpt.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from . import config as C
from .checkpoint import load_trained
from .config import TrainConfig
from .data import CropSet, DataError
from .decode import caption_loss
from .train import log, rng_for, scheduled_step, shift_pairs

# what a member folder holds besides its own stage 2 (load_trained and committee.load_members read them)
COPIED = (
    "config.json",
    "vocab.json",
    "tokenizer.pt",
    "tokenizer_vq.pt",
    "interpolator.pt",
    "interpolator_gate.pt",
    "stage1_k2.pt",
    "kind_prior.pt",
)


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise SystemExit("error: --device cuda, but this torch sees no CUDA device (use --device cpu or auto)")
    return torch.device(name)


class DeviceSet:
    """Every sample of a CropSet as device tensors: uint8 crops, layout context, kind, tokenised captions."""

    def __init__(self, ds: CropSet, vocab, device: torch.device) -> None:
        n = len(ds)
        self.n = n
        self.pairs = torch.from_numpy(np.stack([ds.images(i) for i in range(n)])).to(device)  # [n,2,96,96,3] u8
        self.context = ds.context_tensor(range(n)).to(device)
        self.kinds = torch.tensor([s.kind for s in ds.samples], device=device)
        most = max(len(s.captions) for s in ds.samples)
        tokens = torch.full((n, most, C.MAX_TOKENS), C.PAD, dtype=torch.long)
        for i, s in enumerate(ds.samples):
            tokens[i, : len(s.captions)] = torch.tensor([vocab.encode(c) for c in s.captions])
        self.tokens = tokens.to(device)
        self.n_captions = torch.tensor([len(s.captions) for s in ds.samples], device=device)

    def images(self, idx: torch.Tensor) -> torch.Tensor:
        """float [b,2,3,96,96] in [0,1]."""
        return self.pairs[idx].float().div_(255.0).movedim(-1, -3)


def kind_accuracy(enc, tok, data: DeviceSet, batch: int = 512) -> float:
    right = 0
    with torch.no_grad():
        for lo in range(0, data.n, batch):
            idx = torch.arange(lo, min(data.n, lo + batch), device=data.kinds.device)
            px = data.images(idx)
            f, _ = tok.encode(px.reshape(-1, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
            f = f.reshape(len(idx), 2, C.N_I, C.FEAT_DIM)
            kinds = enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], context=data.context[idx])[2].argmax(-1)
            right += int((kinds == data.kinds[idx]).sum())
    return right / max(1, data.n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", required=True, help="finished checkpoint folder the member starts from (its stage 2)")
    ap.add_argument("--train", action="append", required=True, help="a training crops folder; repeatable")
    ap.add_argument("--val", default="", help="a crops folder whose kind accuracy is logged (never trained on)")
    ap.add_argument("--out", required=True, help="the member's checkpoint folder (outside the work tree)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=4e-4)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=0.0, help="wall-clock cap (0: none); the schedule still anneals")
    ap.add_argument("--augment-shift", type=int, default=8)
    ap.add_argument("--device", default="auto", choices=["auto", "cuda", "cpu"])
    ap.add_argument("--threads", type=int, default=2, help="CPU threads")
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--val-every", type=int, default=1000)
    ap.add_argument("--checkpoint-every", type=int, default=500)
    ap.add_argument(
        "--stop-after",
        type=int,
        default=0,
        help="stop after this many steps of this invocation, leaving only the periodic checkpoint, as a "
        "run cut short does (tests of --resume)",
    )
    ap.add_argument("--resume", action="store_true", help="continue OUT/stage2_k2.ckpt")
    a = ap.parse_args(argv)

    device = pick_device(a.device)
    torch.set_num_threads(a.threads)
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    main_ckpt, out = Path(a.ckpt), Path(a.out)
    if not (main_ckpt / "stage2_k2.pt").is_file():
        print(
            f"error: {main_ckpt / 'stage2_k2.pt'} missing: --ckpt must be a finished checkpoint folder", file=sys.stderr
        )
        return 2
    out.mkdir(parents=True, exist_ok=True)
    if (out / "stage2_k2.pt").is_file():
        print(f"error: {out} already holds a finished stage2_k2.pt; use a fresh --out", file=sys.stderr)
        return 2
    if (out / "stage2_k2.ckpt").is_file() and not a.resume:
        print(f"error: {out} holds a checkpoint of a run cut short; pass --resume to continue it", file=sys.stderr)
        return 2
    for name in COPIED:
        if (main_ckpt / name).is_file() and not (out / name).is_file():
            shutil.copy2(main_ckpt / name, out / name)
    vocab, tok, _, enc, dec = load_trained(main_ckpt, "k2")
    try:
        train = CropSet(Path(a.train[0]), skip_sources=("unmatched",), extra_dirs=tuple(Path(d) for d in a.train[1:]))
        val = CropSet(Path(a.val)) if a.val else None
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    t0 = time.time()
    data = DeviceSet(train, vocab, device)
    val_data = DeviceSet(val, vocab, device) if val is not None else None
    log(
        f"data: {data.n} training samples from {len(a.train)} folders"
        + (f", {val_data.n} validation samples" if val_data else "")
        + f" on {device} in {time.time() - t0:.0f}s"
    )
    tok.to(device).eval()
    enc.to(device)
    dec.to(device)
    params = list(enc.parameters()) + list(dec.parameters())
    opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=0.01, betas=(0.9, 0.98))
    budget = C.PhaseBudget(steps=a.steps, batch=a.batch, lr=a.lr, warmup=a.warmup, minutes=a.minutes)
    start, elapsed_before, losses = 0, 0.0, []
    ckpt_path = out / "stage2_k2.ckpt"
    if a.resume and ckpt_path.is_file():
        ck = torch.load(ckpt_path, map_location=device)
        enc.load_state_dict(ck["state"]["encoder"])
        dec.load_state_dict(ck["state"]["decoder"])
        opt.load_state_dict(ck["opt"])
        start, elapsed_before, losses = ck["step"], ck["elapsed"], ck["losses"]
        log(f"resuming at step {start}/{a.steps}")
    (out / "member_config.json").write_text(
        json.dumps(
            {
                "argv": sys.argv,
                **vars(a),
                "device_name": str(torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu"),
            },
            indent=1,
        )
    )
    logfile = (out / "train_log.jsonl").open("a")
    name = "stage2_k2"
    cfg = TrainConfig()  # stage 2's loss settings (label smoothing, kind weight), as training.train uses them

    def step_fn(step: int):
        rng = rng_for(a.seed, name, step)
        b = a.batch
        idx = torch.from_numpy(rng.integers(0, data.n, b)).to(device)
        px = data.images(idx)
        if a.augment_shift > 0:
            shifted = torch.from_numpy(rng.random(b) < 0.5).to(device)
            shifts = torch.from_numpy(rng.integers(-a.augment_shift, a.augment_shift + 1, (b, 2))).to(device)
            moved = shift_pairs(px, shifts, a.augment_shift)
            px = torch.where(shifted[:, None, None, None, None], moved, px)
        f, _ = tok.encode(px.reshape(-1, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
        f = f.reshape(b, 2, C.N_I, C.FEAT_DIM)
        pick = (torch.from_numpy(rng.random(b)).to(device) * data.n_captions[idx]).long()
        tokens = data.tokens[idx, pick]
        _, memory, kind_logits, _ = enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], context=data.context[idx])
        l_cap = caption_loss(dec, memory, tokens, cfg.label_smoothing)
        l_kind = F.cross_entropy(kind_logits, data.kinds[idx])
        return l_cap + cfg.w_kind * l_kind, l_cap, l_kind

    t_loop = time.time()
    done = start
    for step in range(start, a.steps):
        result = scheduled_step(opt, params, budget, step, elapsed_before + time.time() - t_loop, (enc, dec), step_fn)
        if result is None:
            log(f"wall-clock cap of {a.minutes} min reached after {step} of {a.steps} steps")
            break
        loss, l_cap, l_kind = result
        done = step + 1
        if (step + 1) % a.log_every == 0 or step == start:
            record = {
                "step": step + 1,
                "loss": float(loss),
                "cap": float(l_cap),
                "kind": float(l_kind),
                "lr": opt.param_groups[0]["lr"],
                "seconds": round(elapsed_before + time.time() - t_loop, 1),
            }
            losses.append(record)
            logfile.write(json.dumps(record) + "\n")
            logfile.flush()
            log(" ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in record.items()))
        if val_data is not None and (step + 1) % a.val_every == 0:
            enc.eval()
            log(f"val kind accuracy @ {step + 1}: {kind_accuracy(enc, tok, val_data):.4f}")
        if (step + 1) % a.checkpoint_every == 0:
            torch.save(
                {
                    "state": {"encoder": enc.state_dict(), "decoder": dec.state_dict()},
                    "opt": opt.state_dict(),
                    "step": step + 1,
                    "elapsed": elapsed_before + time.time() - t_loop,
                    "losses": losses,
                },
                ckpt_path,
            )
        if a.stop_after and done - start >= a.stop_after:
            break
    logfile.close()
    if a.stop_after and done - start >= a.stop_after:
        log(f"stopped after {done - start} steps (--stop-after); --resume continues from {ckpt_path}")
        return 0
    enc.eval()
    dec.eval()
    summary = {
        "steps": done,
        "steps_planned": a.steps,
        "batch": a.batch,
        "lr": a.lr,
        "seed": a.seed,
        "train_samples": data.n,
        "train_seconds": elapsed_before + time.time() - t_loop,
        "first": losses[0] if losses else None,
        "last": losses[-1] if losses else None,
        "device": str(device),
    }
    if val_data is not None:
        summary["val_kind_accuracy"] = kind_accuracy(enc, tok, val_data)
    enc.cpu()
    dec.cpu()
    state = {"state": {"encoder": enc.state_dict(), "decoder": dec.state_dict()}, "losses": summary}
    tmp = out / "stage2_k2.pt.tmp"
    torch.save(state, tmp)
    tmp.replace(out / "stage2_k2.pt")
    if ckpt_path.is_file():
        ckpt_path.unlink()
    (out / "summary.json").write_text(json.dumps({"stage2_k2": summary}, indent=1))
    log(f"member done: {json.dumps(summary)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
