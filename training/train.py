"""Trains the whole ProCap pipeline from scratch with one command, seeded and resumable:

  /usr/bin/python3 -m training.train --all --data CORPUS --out CKPT [--resume] [--smoke | --full]

--full is the from-scratch recipe under a 3-hour budget (config.full_config; add the other rendered
train shards with --extra-train); --smoke a few steps of everything (CI); neither, the small defaults.

Phases (each checkpointed under --out; --resume continues a phase from its last checkpoint and skips
finished ones): vocab -> tokenizer (VQ autoencoder = frozen backbone) -> cache (frozen backbone
features/codes of every crop; the true 7-frame procedures of the continuous changes with confidence
weights) -> stage1 (explicit procedure modelling, k keyframes) -> stage2 (implicit procedure
captioning) -> interpolator (used at inference only) -> export (models/).
Variants for the ablation table: --variant k2 (the shipped model), k1 (stage 1 and 2 with k=1),
static (no stage 1, no queries: stage 2 over [before, after] only).
While stage 2 trains, change-kind accuracy and no-change recall on the val split are logged.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from . import config as C
from .checkpoint import make_models
from .config import TrainConfig, full_config, smoke_config
from .context import fit_kind_prior
from .data import CropSet, DataError, Vocab, to_tensor, words
from .decode import caption_loss, greedy_decode
from .encode import ProcedureEncoder, context_stats, load_encoder_state, make_masks
from .export import export_all
from .interpolate import MIDPOINT_TRIPLES, Interpolator, crop_gate_loss, interpolator_loss
from .sample import confidence_weights, sample_keyframes
from .tokenizer import ImageTokenizer, tokenizer_loss

VARIANT_K = {"k2": 2, "k1": 1, "static": 0}


# ---------------------------------------------------------------------------------------------------
# small utilities
def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def rng_for(seed: int, phase: str, step: int) -> np.random.Generator:
    """Deterministic per (seed, phase, step): resuming reproduces the same batches."""
    return np.random.default_rng([seed, sum(ord(c) * 31**i for i, c in enumerate(phase)) % (2**31), step])


def torch_gen(seed: int, phase: str, step: int) -> torch.Generator:
    g = torch.Generator()
    g.manual_seed(int(rng_for(seed, phase, step).integers(2**62)))
    return g


def progress_fraction(step: int, elapsed: float, budget: C.PhaseBudget) -> float:
    frac = step / max(1, budget.steps)
    if budget.minutes > 0:
        frac = max(frac, elapsed / (60.0 * budget.minutes))
    return frac


def lr_at(step: int, budget: C.PhaseBudget, frac: float | None = None) -> float:
    """Linear warm-up, then cosine decay to 10% over the phase's progress fraction."""
    if step < budget.warmup:
        return budget.lr * (step + 1) / budget.warmup
    if frac is None:
        frac = step / max(1, budget.steps)
    w = budget.warmup / max(1, budget.steps)
    t = (frac - w) / max(1e-9, 1 - w)
    return budget.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, max(0.0, t)))))


class Progress:
    def __init__(self, phase: str, total: int, start: int, logfile: Path) -> None:
        self.phase, self.total, self.start = phase, total, start
        self.t0 = time.time()
        self.logfile = logfile
        self.running: dict[str, float] = {}
        self.n = 0

    def update(self, step: int, stats: dict, every: int = 20) -> None:
        for k, v in stats.items():
            self.running[k] = self.running.get(k, 0.0) + float(v)
        self.n += 1
        if (step + 1) % every == 0 or step + 1 == self.total:
            done = step + 1 - self.start
            rate = (time.time() - self.t0) / max(done, 1)
            eta = rate * (self.total - step - 1)
            avg = {k: v / self.n for k, v in self.running.items()}
            shown = " ".join(f"{k}={v:.4g}" for k, v in avg.items())
            log(f"{self.phase} {step + 1}/{self.total} {shown} | {rate:.2f}s/step eta {eta / 60:.1f}min")
            self.write({"phase": self.phase, "step": step + 1, **avg, "s_per_step": rate})
            self.running, self.n = {}, 0

    def write(self, record: dict) -> None:
        with self.logfile.open("a") as fh:
            fh.write(json.dumps({"time": time.time(), **record}) + "\n")


def save_atomic(obj, path: Path) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


def load_state(obj: torch.nn.Module, state: dict) -> None:
    """A phase's saved weights; encoders saved before the layout context (contract v2) load with it at zero."""
    if isinstance(obj, ProcedureEncoder):
        load_encoder_state(obj, state)
    else:
        obj.load_state_dict(state)


def scheduled_step(opt, params, budget: C.PhaseBudget, step: int, elapsed: float, modules, step_fn):
    """One optimiser step on the warm-up + cosine schedule (AdamW, gradients clipped at 1): step_fn(step)
    returns a tuple whose first item is the loss; that tuple is returned. None, and nothing trained, once the
    phase's wall-clock cap is reached."""
    frac = progress_fraction(step, elapsed, budget)
    if frac >= 1.0:
        return None
    for g in opt.param_groups:
        g["lr"] = lr_at(step, budget, frac)
    for m in modules:
        m.train()
    out = step_fn(step)
    opt.zero_grad(set_to_none=True)
    out[0].backward()
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    return out


def run_phase(
    name: str,
    params,
    budget: C.PhaseBudget,
    step_fn,
    out: Path,
    state_objs: dict,
    cfg: TrainConfig,
    val_fn=None,
    resume: bool = True,
    loss_key: str = "loss",
) -> dict:
    """Generic loop: AdamW, warm-up + cosine, checkpoint every cfg.checkpoint_every steps, resume.
    step_fn(step) -> (loss tensor, stats). Returns {'first': mean of the first losses, 'last': ...}."""
    done_path, ckpt_path = out / f"{name}.pt", out / f"{name}.ckpt"
    if resume and done_path.is_file():
        final = torch.load(done_path)
        for k, obj in state_objs.items():
            load_state(obj, final["state"][k])
        log(f"{name}: already trained ({done_path}), skipping")
        return final.get("losses", {})
    opt = torch.optim.AdamW(params, lr=budget.lr, weight_decay=0.01, betas=(0.9, 0.98))
    start, losses, elapsed_before = 0, [], 0.0
    if resume and ckpt_path.is_file():
        ck = torch.load(ckpt_path)
        for k, obj in state_objs.items():
            load_state(obj, ck["state"][k])
        opt.load_state_dict(ck["opt"])
        start, losses, elapsed_before = ck["step"], ck["losses"], ck.get("elapsed", 0.0)
        log(f"{name}: resuming at step {start}/{budget.steps}")
    progress = Progress(name, budget.steps, start, out / "train_log.jsonl")
    t0 = time.time()

    def probe() -> float:
        """The loss on one fixed batch (a step id no training step uses), in eval mode: comparable
        before and after training, unlike the running loss of random batches."""
        for obj in state_objs.values():
            obj.eval()
        with torch.no_grad():
            return float(step_fn(10**6)[0])

    probe_first = probe() if start == 0 else None
    t_loop = time.time()
    steps_done = start
    for step in range(start, budget.steps):
        out = scheduled_step(
            opt, params, budget, step, elapsed_before + time.time() - t_loop, state_objs.values(), step_fn
        )
        if out is None:
            log(f"{name}: wall-clock cap of {budget.minutes} min reached after {step} of {budget.steps} steps")
            break
        loss, stats = out
        losses.append(float(stats.get(loss_key, float(loss))))
        progress.update(step, {"loss": float(loss), **stats})
        steps_done = step + 1
        last = (
            step + 1 == budget.steps
            or progress_fraction(step + 1, elapsed_before + time.time() - t_loop, budget) >= 1.0
        )
        if val_fn is not None and ((step + 1) % cfg.val_every == 0 or last):
            for obj in state_objs.values():
                obj.eval()
            val = val_fn()
            log(f"{name} val @ {step + 1}: " + " ".join(f"{k}={v:.4f}" for k, v in val.items()))
            progress.write({"phase": name, "step": step + 1, **{f"val_{k}": v for k, v in val.items()}})
        if (step + 1) % cfg.checkpoint_every == 0 and not last:
            save_atomic(
                {
                    "state": {k: o.state_dict() for k, o in state_objs.items()},
                    "opt": opt.state_dict(),
                    "step": step + 1,
                    "losses": losses,
                    "elapsed": elapsed_before + time.time() - t_loop,
                },
                ckpt_path,
            )
    n = max(1, min(10, len(losses) // 4))
    summary = {
        "first": float(np.mean(losses[:n])),
        "last": float(np.mean(losses[-n:])),
        "probe_first": probe_first,
        "probe_last": probe(),
        "steps": steps_done,
        "steps_planned": budget.steps,
        "batch": budget.batch,
        "minutes_cap": budget.minutes,
        "train_seconds": elapsed_before + time.time() - t_loop,
        "seconds_this_run": time.time() - t0,
    }
    save_atomic({"state": {k: o.state_dict() for k, o in state_objs.items()}, "losses": summary}, done_path)
    if ckpt_path.is_file():
        ckpt_path.unlink()
    log(
        f"{name}: done, loss {summary['first']:.4f} -> {summary['last']:.4f} "
        f"(fixed probe batch {summary['probe_first']} -> {summary['probe_last']:.4f})"
    )
    return summary


# ---------------------------------------------------------------------------------------------------
# phases
def build_vocab(train: CropSet, out: Path) -> Vocab:
    path = out / "vocab.json"
    if path.is_file():
        return Vocab.load(path)
    caps = [c for s in train.samples for c in s.captions]
    caps += [c for m in train.manifest().values() for c in m.get("captions", [])]
    vocab = Vocab.build(caps)
    vocab.save(path)
    log(f"vocab: {len(vocab)} tokens from {len(caps)} training captions")
    return vocab


def keep_in_vocabulary(ds: CropSet, vocab: Vocab) -> tuple[int, int]:
    """Drops the references with a word the vocabulary lacks (a round over a vocabulary reused from an
    earlier run: newer corpora quote text with slot tokens such as <label>, which would train the decoder
    to write <unk>); a sample left with none keeps all of its own. Returns (references dropped, samples
    that kept all of theirs for want of one in the vocabulary)."""
    dropped = kept_all = 0
    for sample in ds.samples:
        known = [c for c in sample.captions if all(w in vocab.index for w in words(c))]
        if not known:
            kept_all += 1
            continue
        dropped += len(sample.captions) - len(known)
        sample.captions = known
    return dropped, kept_all


def random_images(ds: CropSet, rng: np.random.Generator, n: int) -> np.ndarray:
    """n random crops from before/after/true frames of the split (uint8 [n,96,96,3])."""
    out = []
    for _ in range(n):
        i = int(rng.integers(len(ds)))
        fr = ds.true_frames(i)
        if fr is not None and rng.random() < 0.35:
            out.append(fr[int(rng.integers(7))])
        else:
            out.append(ds.images(i)[int(rng.integers(2))])
    return np.stack(out)


def train_tokenizer(train: CropSet, cfg: TrainConfig, out: Path, resume: bool) -> tuple[ImageTokenizer, dict]:
    """Three steps: (1) the autoencoder through continuous features, (2) the 256-code codebook by
    k-means on the trained encoder's patch features, (3) the decoder fine-tuned on quantised codes
    (encoder frozen: it is the backbone every later phase caches)."""
    torch.manual_seed(cfg.seed)
    tok = ImageTokenizer()

    def step_fn(step, quantise=False, phase="tokenizer"):
        imgs = to_tensor(random_images(train, rng_for(cfg.seed, phase, step), cfg.tokenizer.batch))
        return tokenizer_loss(tok, imgs, quantise)

    summary = run_phase(
        "tokenizer", list(tok.parameters()), cfg.tokenizer, step_fn, out, {"model": tok}, cfg, resume=resume
    )
    if not (out / "tokenizer_vq.pt").is_file() and not (out / "tokenizer_vq.ckpt").is_file():
        tok.eval()
        imgs = to_tensor(random_images(train, rng_for(cfg.seed, "codebook", 0), 640))
        with torch.no_grad():
            vectors = torch.cat([tok.encoder(imgs[i : i + 64]) for i in range(0, len(imgs), 64)]).reshape(
                -1, C.FEAT_DIM
            )
        fit = tok.quantiser.fit(vectors, seed=cfg.seed)
        log(f"tokenizer: codebook fitted by k-means on {vectors.shape[0]} patch features: {fit}")
        summary["codebook"] = fit
    budget = C.PhaseBudget(
        steps=max(8, cfg.tokenizer.steps // 4),
        batch=cfg.tokenizer.batch,
        lr=cfg.tokenizer.lr / 2,
        warmup=5,
        minutes=cfg.tokenizer_vq_minutes,
    )
    summary["vq"] = run_phase(
        "tokenizer_vq",
        list(tok.decoder.parameters()),
        budget,
        lambda step: step_fn(step, True, "tokenizer_vq"),
        out,
        {"model": tok},
        cfg,
        resume=resume,
    )
    tok.eval()
    return tok, summary


def train_interpolator(train: CropSet, cfg: TrainConfig, out: Path, resume: bool) -> tuple[Interpolator, dict]:
    # One thread: a step is hundreds of small ops (cost volume, teacher matching); with 2 OpenMP threads
    # on a shared, busy machine each op waits for the other thread and a step took 20-25 s instead of 1 s.
    threads_before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _train_interpolator(train, cfg, out, resume)
    finally:
        torch.set_num_threads(threads_before)


def _train_interpolator(train: CropSet, cfg: TrainConfig, out: Path, resume: bool) -> tuple[Interpolator, dict]:
    torch.manual_seed(cfg.seed + 1)
    net = Interpolator()
    with_frames = [i for i, s in enumerate(train.samples) if s.frames_row >= 0]
    if not with_frames:
        raise DataError(f"{train.dir}: no sample has true intermediate frames; the interpolator cannot be trained")

    still_kinds = {C.KINDS.index(k) for k in C.STILL_KINDS}

    def triples(phase: str, step: int, batch: int, with_still: bool = False):
        rng = rng_for(cfg.seed, phase, step)
        lefts, mids, rights, still = [], [], [], []
        for _ in range(batch):
            i = with_frames[int(rng.integers(len(with_frames)))]
            still.append(train.samples[i].kind in still_kinds)
            pair = train.images(i)
            seq = [pair[0], *train.true_frames(i), pair[1]]
            a, m, b = MIDPOINT_TRIPLES[int(rng.integers(len(MIDPOINT_TRIPLES)))]
            if rng.random() < 0.5:  # time reversal: the midpoint is symmetric
                a, b = b, a
            lefts.append(seq[a])
            mids.append(seq[m])
            rights.append(seq[b])
        frames = to_tensor(np.stack(lefts)), to_tensor(np.stack(rights)), to_tensor(np.stack(mids))
        return (*frames, torch.tensor(still)) if with_still else frames

    summary = run_phase(
        "interpolator",
        list(net.parameters()),
        cfg.interpolator,
        lambda step: interpolator_loss(net, *triples("interpolator", step, cfg.interpolator.batch)),
        out,
        {"model": net},
        cfg,
        resume=resume,
    )
    # then the crop gate alone, on the frozen network, by what warping gains (crop_gate_loss)
    net.eval()
    summary["gate"] = run_phase(
        "interpolator_gate",
        list(net.crop_gate.parameters()),
        cfg.interpolator_gate,
        lambda step: crop_gate_loss(net, *triples("interpolator_gate", step, cfg.interpolator_gate.batch, True)),
        out,
        {"model": net},
        cfg,
        resume=resume,
    )
    net.eval()
    return net, summary


def _colour_shift(img: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    gain = 0.6 + 0.8 * torch.rand(img.shape[0], 3, 1, 1, generator=gen)
    return (img * gain + 0.2 * (torch.rand(img.shape[0], 3, 1, 1, generator=gen) - 0.5)).clamp(0, 1)


def _affine(img: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """rotation up to 30 degrees, translation up to 10%, scale 0.9-1.1 (the reference's warp negative)."""
    b = img.shape[0]
    ang = (torch.rand(b, generator=gen) * 2 - 1) * math.radians(30)
    scale = 0.9 + 0.2 * torch.rand(b, generator=gen)
    tx, ty = (torch.rand(2, b, generator=gen) * 2 - 1) * 0.2
    cos, sin = torch.cos(ang) / scale, torch.sin(ang) / scale
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, list(img.shape), align_corners=False)
    return F.grid_sample(img, grid, padding_mode="border", align_corners=False)


@torch.no_grad()
def build_cache(ds: CropSet, tok: ImageTokenizer, max_procedures: int, path: Path, seed: int, batch: int = 64) -> dict:
    """Frozen backbone features (fp16) and codes of before/after for every sample; for up to
    max_procedures samples that have TRUE intermediate frames (continuous kinds: the data engine
    renders them) also the 7 frames' features and codes, their confidence weights, and two perturbed
    frames (colour shift, affine warp) used as consistency negatives in stage 1. Stage 1 learns from
    these true procedures (the paper interpolates because its data has none; ours has them, and it
    saves interpolating on 2 shared cores)."""
    if path.is_file():
        return torch.load(path)
    n = len(ds)
    proc_samples = [i for i, s in enumerate(ds.samples) if s.frames_row >= 0][:max_procedures]
    m = len(proc_samples)
    proc_of_sample = torch.full((n,), -1, dtype=torch.long)
    proc_of_sample[torch.tensor(proc_samples, dtype=torch.long)] = torch.arange(m)
    ends_f = torch.zeros(n, 2, C.N_I, C.FEAT_DIM, dtype=torch.float16)
    ends_c = torch.zeros(n, 2, C.N_I, dtype=torch.uint8)
    mid_f = torch.zeros(m, 7, C.N_I, C.FEAT_DIM, dtype=torch.float16)
    mid_c = torch.zeros(m, 7, C.N_I, dtype=torch.uint8)
    weights = torch.zeros(m, 7)
    pert_f = torch.zeros(m, 2, C.N_I, C.FEAT_DIM, dtype=torch.float16)
    gen = torch.Generator().manual_seed(seed)
    t0 = time.time()
    for lo in range(0, n, batch):
        hi = min(n, lo + batch)
        pairs = to_tensor(np.stack([ds.images(i) for i in range(lo, hi)]))  # [b,2,3,96,96]
        b = hi - lo
        f, c = tok.encode(pairs.reshape(b * 2, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
        ends_f[lo:hi] = f.reshape(b, 2, C.N_I, C.FEAT_DIM).half()
        ends_c[lo:hi] = c.reshape(b, 2, C.N_I).to(torch.uint8)
        if (lo // batch) % 25 == 0:
            log(f"cache {path.name}: {hi}/{n} samples ({time.time() - t0:.0f}s)")
    for lo in range(0, m, batch // 2):
        rows = list(range(lo, min(m, lo + batch // 2)))
        idx = [proc_samples[r] for r in rows]
        bm = len(rows)
        pairs = to_tensor(np.stack([ds.images(i) for i in idx]))
        mids = to_tensor(np.stack([ds.true_frames(i) for i in idx]))  # [bm,7,3,96,96]
        fm, cm = tok.encode(mids.reshape(bm * 7, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
        fm = fm.reshape(bm, 7, C.N_I, C.FEAT_DIM)
        mid_f[rows[0] : rows[-1] + 1] = fm.half()
        mid_c[rows[0] : rows[-1] + 1] = cm.reshape(bm, 7, C.N_I).to(torch.uint8)
        ends = ends_f[torch.tensor(idx)].float()
        weights[rows[0] : rows[-1] + 1] = confidence_weights(ends[:, 0], fm, ends[:, 1])
        # perturbed copies of one random frame of each procedure (of the 9)
        seq = torch.cat([pairs[:, :1], mids, pairs[:, 1:]], 1)
        pick = torch.randint(0, 9, (bm,), generator=gen)
        src = seq[torch.arange(bm), pick]
        pf, _ = tok.encode(torch.cat([_colour_shift(src, gen), _affine(src, gen)]))
        pert_f[rows[0] : rows[-1] + 1] = pf.reshape(2, bm, C.N_I, C.FEAT_DIM).transpose(0, 1).half()
    cache = {
        "ends_f": ends_f,
        "ends_c": ends_c,
        "mid_f": mid_f,
        "mid_c": mid_c,
        "weights": weights,
        "pert_f": pert_f,
        "kinds": torch.tensor([s.kind for s in ds.samples]),
        "proc_samples": torch.tensor(proc_samples, dtype=torch.long),
        "proc_of_sample": proc_of_sample,
    }
    save_atomic(cache, path)
    log(f"cache {path.name}: {n} samples, {m} true procedures in {time.time() - t0:.0f}s")
    return cache


def diff_gain(cache: dict) -> float:
    d = cache["ends_f"][:, 1].float() - cache["ends_f"][:, 0].float()
    return float(1.0 / d.std().clamp_min(1e-6))


def train_stage1(train: CropSet, cache: dict, vocab: Vocab, k: int, cfg: TrainConfig, out: Path, resume: bool):
    torch.manual_seed(cfg.seed + 10 + k)
    enc, _ = make_models(vocab, k, cfg)
    enc.diff_scale.fill_(diff_gain(cache))
    m = cache["mid_f"].shape[0]
    if m == 0:
        raise DataError("stage 1 needs procedures: no training sample has true intermediate frames")
    name = f"stage1_k{k}"

    def step_fn(step):
        rng = rng_for(cfg.seed, name, step)
        gen = torch_gen(cfg.seed, name, step)
        b = cfg.stage1.batch
        idx = torch.from_numpy(rng.integers(0, m, b))  # procedure rows
        sample_idx = cache["proc_samples"][idx]
        keys = sample_keyframes(cache["weights"][idx], k, gen)  # [b,k]
        ar = torch.arange(b).unsqueeze(1)
        mid_f = cache["mid_f"][idx][ar, keys].float()  # [b,k,36,64]
        mid_c = cache["mid_c"][idx][ar, keys].long()
        ends_f, ends_c = cache["ends_f"][sample_idx].float(), cache["ends_c"][sample_idx].long()
        frames = torch.cat([ends_f[:, :1], mid_f, ends_f[:, 1:]], 1)  # [b,k+2,36,64]
        codes = torch.cat([ends_c[:, :1], mid_c, ends_c[:, 1:]], 1).reshape(b, -1)
        caps = [
            train.samples[int(i)].captions[int(rng.integers(len(train.samples[int(i)].captions)))] for i in sample_idx
        ]
        # negatives: a quarter with another sample's caption (align), a quarter with broken frames (consistency)
        role = rng.random(b)
        align_neg = role < 0.25
        csy_neg = role >= 0.75
        shown_caps = list(caps)
        for j in np.nonzero(align_neg)[0]:
            other = caps[(j + 1 + int(rng.integers(b - 1))) % b] if b > 1 else caps[j]
            if other == caps[j]:
                align_neg[j] = False
            shown_caps[j] = other
        f = k + 2
        for j in np.nonzero(csy_neg)[0]:
            how = int(rng.integers(4))
            slot = int(rng.integers(f))
            if how == 0:  # a frame of another sample
                o = int(rng.integers(m))
                frames[j, slot] = cache["mid_f"][o, int(rng.integers(7))].float()
            elif how == 1:  # non-identity permutation of the frames
                perm = torch.randperm(f, generator=gen)
                while bool((perm == torch.arange(f)).all()):
                    perm = torch.randperm(f, generator=gen)
                frames[j] = frames[j, perm]
            else:  # colour-shifted or affine-warped frame
                frames[j, slot] = cache["pert_f"][int(idx[j]), how - 2].float()
        caption_ids = torch.tensor([vocab.encode(c) for c in shown_caps])
        masked = make_masks(b, f, gen)
        code_logits, align_logit, csy_logit = enc.stage1(frames, masked, caption_ids)
        msm_rows = torch.from_numpy(~csy_neg).unsqueeze(1) & masked  # no msm on broken sequences
        l_msm = (
            F.cross_entropy(code_logits[msm_rows], codes[msm_rows]) if bool(msm_rows.any()) else code_logits.sum() * 0
        )
        l_align = F.binary_cross_entropy_with_logits(align_logit, torch.from_numpy(~align_neg).float())
        l_csy = F.binary_cross_entropy_with_logits(csy_logit, torch.from_numpy(~csy_neg).float())
        loss = cfg.w_msm * l_msm + cfg.w_align * l_align + cfg.w_csy * l_csy
        acc = (
            (code_logits[msm_rows].argmax(-1) == codes[msm_rows]).float().mean()
            if bool(msm_rows.any())
            else torch.tensor(0.0)
        )
        return loss, {"msm": float(l_msm), "align": float(l_align), "csy": float(l_csy), "msm_acc": float(acc)}

    params = [p for n_, p in enc.named_parameters() if not n_.startswith(("memory_mlp", "kind_head"))]
    summary = run_phase(name, params, cfg.stage1, step_fn, out, {"encoder": enc}, cfg, resume=resume)
    return enc, summary


@torch.no_grad()
def evaluate_kinds(enc: ProcedureEncoder, cache: dict, ds: CropSet, limit: int, batch: int = 128) -> dict:
    n = min(limit, cache["ends_f"].shape[0])
    preds = []
    for lo in range(0, n, batch):
        hi = min(n, lo + batch)
        f = cache["ends_f"][lo:hi].float()
        px = ds.image_tensor(range(lo, hi))
        preds.append(
            enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], context=ds.context_tensor(range(lo, hi)))[2].argmax(-1)
        )
    pred = torch.cat(preds)
    truth = cache["kinds"][:n]
    none = truth == C.NONE_KIND
    return {
        "kind_acc": float((pred == truth).float().mean()),
        "nochange_recall": float((pred[none] == C.NONE_KIND).float().mean()) if bool(none.any()) else float("nan"),
        "false_none": float((pred[~none] == C.NONE_KIND).float().mean()) if bool((~none).any()) else float("nan"),
    }


def shift_pairs(pairs: torch.Tensor, shifts, limit: int) -> torch.Tensor:
    """pairs [n,2,3,H,W]; shifts [n,2] ints (dy, dx) in [-limit, limit] (array or tensor): moves the content of
    both crops of a pair by the same amount, edges replicated (as the crop rule does outside the image). One
    gather for the whole batch, so it runs as well on a GPU (training/train_member.py) as here."""
    n, _, c, h, w = pairs.shape
    shifts = torch.as_tensor(shifts, device=pairs.device).long()
    padded = F.pad(pairs.reshape(n, 2 * c, h, w), (limit, limit, limit, limit), mode="replicate")
    rows = torch.arange(h, device=pairs.device).unsqueeze(0) + (limit - shifts[:, :1])  # [n,h]
    cols = torch.arange(w, device=pairs.device).unsqueeze(0) + (limit - shifts[:, 1:])  # [n,w]
    batch = torch.arange(n, device=pairs.device)[:, None, None]
    out = padded.permute(0, 2, 3, 1)[batch, rows[:, :, None], cols[:, None, :]]  # [n,h,w,2c]
    return out.permute(0, 3, 1, 2).reshape(n, 2, c, h, w)


def train_stage2(
    train: CropSet,
    val: CropSet,
    cache: dict,
    val_cache: dict,
    vocab: Vocab,
    variant: str,
    cfg: TrainConfig,
    out: Path,
    resume: bool,
    tok: ImageTokenizer | None = None,
):
    k = VARIANT_K[variant]
    torch.manual_seed(cfg.seed + 20 + k)
    enc, dec = make_models(vocab, k, cfg)
    enc.diff_scale.fill_(diff_gain(cache))
    known = 0  # layout features the starting weights already use (their mean/std are kept)
    if cfg.stage2_init:
        # a second round (warm restart of the schedule) from a finished stage-2 run
        s0 = torch.load(cfg.stage2_init)["state"]
        known = load_encoder_state(enc, s0["encoder"])
        dec.load_state_dict(s0["decoder"])
        log(
            f"{variant}: stage 2 starts from {cfg.stage2_init}"
            + ("" if known == C.CONTEXT_SIZE else f" (layout features {known + 1}-{C.CONTEXT_SIZE} added, from zero)")
        )
    elif k > 0:
        s1 = torch.load(out / f"stage1_k{k}.pt")
        load_encoder_state(enc, s1["state"]["encoder"])
    if known < C.CONTEXT_SIZE:
        mean, std = context_stats(train.context_tensor(range(len(train))))
        enc.context_mean[known:] = mean[known:]
        enc.context_std[known:] = std[known:]
    n = cache["ends_f"].shape[0]
    name = f"stage2_{variant}"

    def step_fn(step):
        rng = rng_for(cfg.seed, name, step)
        gen = torch_gen(cfg.seed, name, step)
        b = cfg.stage2.batch
        idx = torch.from_numpy(rng.integers(0, n, b))
        ends = cache["ends_f"][idx].float()
        px = train.image_tensor(idx)
        shifted = torch.zeros(b, dtype=torch.bool)
        if cfg.augment_shift > 0 and tok is not None:
            shifted = torch.from_numpy(rng.random(b) < 0.5)
            sel = shifted.nonzero().flatten()
            if len(sel):
                moved = shift_pairs(
                    px[sel], rng.integers(-cfg.augment_shift, cfg.augment_shift + 1, (len(sel), 2)), cfg.augment_shift
                )
                with torch.no_grad():
                    f_moved, _ = tok.encode(moved.reshape(-1, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
                px[sel] = moved
                ends[sel] = f_moved.reshape(len(sel), 2, C.N_I, C.FEAT_DIM)
        caps = [train.samples[int(i)].captions[int(rng.integers(len(train.samples[int(i)].captions)))] for i in idx]
        tokens = torch.tensor([vocab.encode(c) for c in caps])
        _, memory, kind_logits, query_logits = enc.stage2(
            ends[:, 0], ends[:, 1], px[:, 0], px[:, 1], context=train.context_tensor(idx)
        )
        l_cap = caption_loss(dec, memory, tokens, cfg.label_smoothing)
        l_kind = F.cross_entropy(kind_logits, cache["kinds"][idx])
        loss = l_cap + cfg.w_kind * l_kind
        stats = {"cap": float(l_cap), "kind": float(l_kind)}
        proc_rows = cache["proc_of_sample"][idx]
        has_proc = (proc_rows >= 0) & ~shifted  # the keyframe codes belong to the unshifted crops
        if k > 0 and bool(has_proc.any()):
            pi = proc_rows[has_proc]
            keys = sample_keyframes(cache["weights"][pi], k, gen)
            target = cache["mid_c"][pi][torch.arange(len(pi)).unsqueeze(1), keys].long().reshape(len(pi), -1)
            l_q = F.cross_entropy(query_logits[has_proc].reshape(-1, C.CODEBOOK), target.reshape(-1))
            loss = loss + cfg.w_query_msm * l_q
            stats["qmsm"] = float(l_q)
        return loss, stats

    def val_fn():
        res = evaluate_kinds(enc, val_cache, val, cfg.val_samples)
        # caption exact-match rate on a few val samples (greedy, KV cache: what the runtime runs)
        nv = min(96, val_cache["ends_f"].shape[0])
        f = val_cache["ends_f"][:nv].float()
        px = val.image_tensor(range(nv))
        _, memory, _, _ = enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], context=val.context_tensor(range(nv)))
        hyps = [vocab.decode(h) for h in greedy_decode(dec, memory)]
        res["exact_caption"] = float(np.mean([h in val.samples[i].captions for i, h in enumerate(hyps)]))
        return res

    params = list(enc.parameters()) + list(dec.parameters())
    summary = run_phase(
        name,
        params,
        cfg.stage2,
        step_fn,
        out,
        {"encoder": enc, "decoder": dec},
        cfg,
        val_fn=val_fn,
        resume=resume,
        loss_key="cap",
    )
    enc.eval()
    dec.eval()
    summary["val"] = val_fn()
    return enc, dec, summary


# ---------------------------------------------------------------------------------------------------
def kind_prior_line(summary: dict) -> str:
    """The log line of a finished kind prior. A prior that training.recover rebuilt from kind_prior.onnx has
    its weight but no validation figures (they were measured when it was fitted), so none are printed."""
    weight = summary.get("weight")
    if "head_val_accuracy" not in summary:
        where = summary.get("recovered_from")
        return f"kind prior: kept (weight {weight}" + (f", recovered from {where})" if where else ")")
    # a fitted prior (training/context.py) always records the accuracy at the weight it picked
    return (
        f"kind prior: val kind accuracy {summary['head_val_accuracy']:.3f} (head) -> "
        f"{summary['val_accuracy_by_weight'][str(weight)]:.3f} (fused, weight {weight})"
    )


def phase_values(text: str, flag: str, cast, extra: tuple[str, ...] = ()) -> dict:
    """ "stage2=600,stage1=300" -> {"stage2": 600, "stage1": 300}; ValueError naming the flag on bad input."""
    out = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        phase, sep, value = item.partition("=")
        if not sep or phase not in C.PHASES + extra:
            raise ValueError(f"{flag} {item!r}: expected PHASE=VALUE with PHASE one of {', '.join(C.PHASES + extra)}")
        try:
            out[phase] = cast(value)
        except ValueError:
            raise ValueError(f"{flag} {item!r}: {value!r} is not a {cast.__name__}") from None
    return out


# what a later stage-2 round keeps from an earlier run (--reuse): everything but stage 2 itself
REUSED_FILES = (
    "vocab.json",
    "tokenizer.pt",
    "tokenizer_vq.pt",
    "stage1_k2.pt",
    "interpolator.pt",
    "interpolator_gate.pt",
    "kind_prior.pt",
)


def reuse_finished_phases(source: Path, out: Path, skip: tuple[str, ...] = ()) -> list[str]:
    """Copies REUSED_FILES (but `skip`) from `source` into `out` where `out` lacks them (never overwrites: a
    resumed round keeps its own); returns the names copied. The vocabulary and tokenizer must be there: a round
    over another tokenizer's codes would not be the same model."""
    if not source.is_dir():
        raise FileNotFoundError(f"{source} is not a folder")
    missing = [f for f in ("vocab.json", "tokenizer.pt", "tokenizer_vq.pt") if not (source / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{source} lacks {', '.join(missing)} (a finished checkpoint folder has them)")
    copied = []
    for name in REUSED_FILES:
        if name not in skip and (source / name).is_file() and not (out / name).exists():
            shutil.copy2(source / name, out / name)
            copied.append(name)
    return copied


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="corpus root with train/ and val/ crops")
    ap.add_argument("--out", required=True, help="checkpoint folder (outside the work tree)")
    ap.add_argument("--all", action="store_true", help="every phase, then export to --models")
    ap.add_argument("--variant", action="append", choices=list(VARIANT_K), help="stage-2 variants (default k2)")
    ap.add_argument("--resume", action="store_true", help="continue from checkpoints in --out")
    ap.add_argument("--smoke", action="store_true", help="tiny budgets: a few steps of everything")
    ap.add_argument(
        "--full",
        action="store_true",
        help="the from-scratch recipe: the shipped model's budgets under wall-clock caps that add up "
        "to under 3 hours on the 2-core machine (config.full_config); --steps/--minutes still override",
    )
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--models", default=str(C.MODELS_DIR), help="where --all exports the ONNX files")
    ap.add_argument("--no-export", action="store_true")
    ap.add_argument("--steps", default="", help="override steps, e.g. stage2=600,stage1=300")
    ap.add_argument("--minutes", default="", help="wall-clock caps per phase, e.g. stage2=22,stage1=5")
    ap.add_argument("--batch", default="", help="override batch sizes, e.g. stage2=32")
    ap.add_argument("--lr", default="", help="override peak learning rates, e.g. stage2=3e-4 (a gentler later round)")
    ap.add_argument("--train-pairs", type=int, default=None, help="use only the first N training pairs")
    ap.add_argument(
        "--extra-train",
        action="append",
        default=[],
        help="another folder of training crops (same layout as DATA/train, e.g. a second rendered "
        "shard) whose samples are added to the training set; repeatable",
    )
    ap.add_argument(
        "--augment-shift",
        type=int,
        default=None,
        help="stage 2: shift half of each batch's crop pairs by up to N px (same shift both sides)",
    )
    ap.add_argument(
        "--threads",
        type=int,
        default=None,
        help="torch threads (default 2); 1 when other jobs share the 2 cores: two spinning threads "
        "on a busy machine ran 10x slower here",
    )
    ap.add_argument(
        "--stage2-init", default="", help="start stage 2 from this finished stage-2 checkpoint (a second round)"
    )
    ap.add_argument(
        "--reuse",
        default="",
        help="a finished checkpoint folder (e.g. from training.recover) whose vocabulary, tokenizer, "
        "stage 1, interpolator and kind prior are copied into --out where --out lacks them, so "
        "those phases are skipped as already trained: a later stage-2 round in one command "
        "(never its stage 2)",
    )
    ap.add_argument(
        "--refit-prior",
        action="store_true",
        help="with --reuse: fit the layout kind prior again on this run's data and stage 2 instead of copying it "
        "(a round over a new data mix)",
    )
    a = ap.parse_args(argv)

    if a.smoke and a.full:
        print("error: --smoke and --full are two different budgets; pass one", file=sys.stderr)
        return 2
    cfg = smoke_config(a.seed) if a.smoke else full_config(a.seed) if a.full else TrainConfig(seed=a.seed)
    try:
        cfg = C.with_steps(cfg, **phase_values(a.steps, "--steps", int))
        cfg = C.with_minutes(cfg, **phase_values(a.minutes, "--minutes", float, extra=("tokenizer_vq",)))
        cfg = C.with_budget(cfg, "batch", **phase_values(a.batch, "--batch", int))
        cfg = C.with_budget(cfg, "lr", **phase_values(a.lr, "--lr", float))
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    cfg.stage2_init = a.stage2_init
    if a.augment_shift is not None:  # else the preset's (0, or --full's 8)
        cfg.augment_shift = a.augment_shift
    if a.threads:
        cfg.threads = a.threads
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if not a.resume and any(out.glob("*.pt")) or not a.resume and any(out.glob("*.ckpt")):
        print(
            f"error: {out} already holds checkpoints; pass --resume to continue them or use a fresh --out",
            file=sys.stderr,
        )
        return 2
    if a.reuse:
        try:
            copied = reuse_finished_phases(Path(a.reuse), out, skip=("kind_prior.pt",) if a.refit_prior else ())
        except FileNotFoundError as err:
            print(f"error: --reuse: {err}", file=sys.stderr)
            return 2
        log(f"reuse: {', '.join(copied) if copied else 'nothing copied'} from {a.reuse}")
    (out / "config.json").write_text(json.dumps({"argv": sys.argv, **cfg.to_json()}, indent=1))
    variants = a.variant or ["k2"]
    t_start = time.time()
    try:
        train = CropSet(
            Path(a.data) / "train",
            limit_pairs=a.train_pairs,
            skip_sources=("unmatched",),
            extra_dirs=tuple(Path(d) for d in a.extra_train),
        )
        val = CropSet(Path(a.data) / "val")
        log(f"data: {len(train)} train samples, {len(val)} val samples")
        vocab = build_vocab(train, out)
        for name, ds in (("train", train), ("val", val)):
            dropped, kept_all = keep_in_vocabulary(ds, vocab)
            if dropped or kept_all:
                log(
                    f"data: {name}: {dropped} references with words outside the vocabulary dropped; "
                    f"{kept_all} samples had no other"
                )
        tok, s_tok = train_tokenizer(train, cfg, out, True)
        cache = build_cache(train, tok, cfg.max_stage1_samples, out / "cache_train.pt", cfg.seed)
        val_cache = build_cache(val, tok, 0, out / "cache_val.pt", cfg.seed)
        summaries = {"tokenizer": s_tok}
        for variant in variants:
            k = VARIANT_K[variant]
            if k > 0:
                _, summaries[f"stage1_k{k}"] = train_stage1(train, cache, vocab, k, cfg, out, True)
            _, _, summaries[f"stage2_{variant}"] = train_stage2(
                train, val, cache, val_cache, vocab, variant, cfg, out, True, tok
            )
        # the interpolator is only needed at inference (procedure frames, the explicit ablation): last
        _, summaries["interpolator"] = train_interpolator(train, cfg, out, True)
        if "k2" in variants:
            # the layout kind prior, fused with the finished k2 kind head (its weight is chosen on val)
            prior = out / "kind_prior.pt"
            summaries["kind_prior"] = (
                torch.load(prior)["summary"]
                if prior.is_file()
                else fit_kind_prior(Path(a.data), [Path(d) for d in a.extra_train], out, cfg.seed, cfg.kind_prior_steps)
            )
            log(kind_prior_line(summaries["kind_prior"]))
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    summaries["wall_seconds_this_invocation"] = time.time() - t_start
    prev = json.loads((out / "summary.json").read_text()) if (out / "summary.json").is_file() else {}
    prev.update(summaries)
    (out / "summary.json").write_text(json.dumps(prev, indent=1))
    log(f"training finished in {(time.time() - t_start) / 60:.1f} min (this invocation)")
    if a.all and not a.no_export:
        export_all(out, Path(a.models), variant="k2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
