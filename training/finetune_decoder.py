"""Teaches the shipped caption decoder the slot tokens <label>, <old>, <new> (the element's visible text,
filled from OCR by src/core/read/slots.ts), encoder frozen, warm start from a finished checkpoint:

  /usr/bin/python3 -m training.recover --models models --out CKPT_REC
  /usr/bin/python3 -m training.finetune_decoder --init CKPT_REC --data CORPUS_SLOTS \\
      --out CKPT_SLOTS --minutes 40 [--resume]
  /usr/bin/python3 -m training.finetune_decoder --export --out CKPT_SLOTS --models MODELS_SLOTS \\
      [--base models] [--partial]
  node training/check_onnx.mjs MODELS_SLOTS

What it does:
- vocabulary: INIT's vocab.json with SLOT_TOKENS appended at the end (every existing id unchanged). The
  decoder's token embedding (tied: it is also the output projection) gets one row per new token: the mean
  of the existing word rows plus small noise (NEW_ROW_NOISE x their std, seeded). The encoder's stage-1
  caption embedding (text_emb: no exported graph reads it) grows the same way, so the folder loads with
  make_models() like any checkpoint.
- frozen: the tokenizer and the whole procedure encoder (kind head, memory, queries) are not trained; the
  decoder's memory is computed once per crop (eval mode, float32, exactly what procedure_encoder.onnx
  gives) and cached under --out. The layout kind prior, committee members and interpolator are copied as
  they are. So the change-kind decisions cannot move: --export copies the shipped ONNX files and replaces
  only decoder_step.onnx, its golden tensors and vocab.json.
- data: DATA/train and DATA/val crops (training/make_corpus.sh; region captions of the current data
  engine, 2 of 5 references quoting text through the slots). Training leaves out "unmatched" crops (as
  train.py does) and references with a word outside the extended vocabulary (the decoder would learn to
  write <unk>; the log says how many); a sample left without references is not trained on.
- schedule: train.run_phase (AdamW, warm-up + cosine to 10%, gradient clip 1, label smoothing of the
  config), one random reference per sample and step, seeded per step; checkpoints OUT/decoder_slots.ckpt
  every CHECKPOINT_EVERY steps (--resume goes on from it; the --minutes cap counts all runs together).
- validation (DATA/val, every VAL_EVERY steps, at the start and at the end): caption loss (teacher forced,
  no smoothing, mean over every usable reference), exact-caption rate of the greedy caption (in the
  sample's references), and how often the greedy caption holds a slot token on samples with a slot
  reference vs. samples with none; at the end also for beam search (the runtime's default width).

OUT becomes a finished checkpoint folder (training.export, training.evaluate accept it): INIT's files with
the extended vocabulary, stage2_k2.pt = the frozen encoder + the fine-tuned decoder, and member_N/ folders
(INIT's committee members with the same extended vocabulary, encoders unchanged), summary.json.
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
from .data import CropSet, DataError, Vocab
from .decode import CaptionDecoder, beam_decode, caption_loss, greedy_decode
from .encode import ProcedureEncoder
from .export import export_decoder_step, file_sha256, write_golden
from .paths import portable_path
from .train import log, rng_for, run_phase, save_atomic

# ---------------------------------------------------------------------------------------------------
# configuration
SLOT_TOKENS = ("<label>", "<old>", "<new>")  # appended in this order (src/data/captions.ts SLOTS)
NEW_ROW_NOISE = 0.1  # new embedding rows: mean of the word rows + this x their per-dim std x N(0,1)
SEED = 1234
BUDGET = C.PhaseBudget(steps=30000, batch=64, lr=3e-4, warmup=100, minutes=40.0)
VAL_EVERY = 500
CHECKPOINT_EVERY = 200
PHASE = "decoder_slots"
MEMORY_BATCH = 64
# files of a finished checkpoint folder copied as they are (the vocabulary and the two encoder-holding
# phases are rewritten with the extended vocabulary)
GROWN_FILES = ("stage1_k2.pt", "stage2_k2.pt")


# ---------------------------------------------------------------------------------------------------
# vocabulary extension
def extend_vocab(vocab: Vocab, new_tokens=SLOT_TOKENS) -> Vocab:
    """The vocabulary with new_tokens appended (those it already holds are not added twice)."""
    return Vocab(list(vocab.tokens) + [t for t in new_tokens if t not in vocab.index])


def grow_rows(weight: torch.Tensor, n_new: int, gen: torch.Generator, noise: float = NEW_ROW_NOISE) -> torch.Tensor:
    """[V,d] -> [V+n_new,d]: the old rows unchanged, then n_new rows = the mean of the word rows (ids
    after the specials) + noise x their per-dimension std x N(0,1)."""
    if n_new == 0:
        return weight.clone()
    words = weight[len(C.SPECIALS) :]
    mean, std = words.mean(0), words.std(0)
    new = mean + noise * std * torch.randn(n_new, weight.shape[1], generator=gen)
    return torch.cat([weight, new.to(weight.dtype)], 0)


def grow_state(state: dict, n_new: int, seed: int) -> dict:
    """A saved phase state ({"encoder": ..., "decoder": ...} or a part) with every vocabulary-sized table
    grown by n_new rows: decoder tok_emb (also its output projection) and encoder text_emb."""
    out = {}
    for part, sd in state.items():
        sd = dict(sd)
        for key in ("tok_emb.weight", "text_emb.weight"):
            if key in sd:
                gen = torch.Generator().manual_seed(seed + (0 if key.startswith("tok") else 1))
                sd[key] = grow_rows(sd[key], n_new, gen)
        out[part] = sd
    return out


def grow_folder(src: Path, dst: Path, vocab: Vocab, n_new: int, seed: int) -> None:
    """Copies a finished checkpoint folder with the extended vocabulary (tables grown, see grow_state).
    Logs, caches and periodic checkpoints are not copied; neither are sub-folders (members: the caller)."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.iterdir()):
        if not f.is_file() or f.suffix not in (".pt", ".json") or f.name in ("vocab.json", "summary.json"):
            continue
        if f.name in GROWN_FILES:
            ck = torch.load(f)
            ck["state"] = grow_state(ck["state"], n_new, seed)
            save_atomic(ck, dst / f.name)
        elif not (dst / f.name).exists():
            shutil.copy2(f, dst / f.name)
    vocab.save(dst / "vocab.json")


# ---------------------------------------------------------------------------------------------------
# models
def load_models(ckpt: Path):
    """(vocab, tokenizer, encoder, decoder) of a finished checkpoint folder, eval mode."""
    vocab, tok, _, enc, dec = load_trained(ckpt, "k2")
    return vocab, tok, enc, dec


def freeze(*modules: torch.nn.Module) -> None:
    for m in modules:
        m.eval()
        m.requires_grad_(False)


@torch.no_grad()
def encoder_memory(ds: CropSet, tok, enc: ProcedureEncoder, path: Path, batch: int = MEMORY_BATCH) -> dict:
    """The frozen encoder's decoder memory [N,144,d] (float32) and kind logits of every sample, cached."""
    if path.is_file():
        return torch.load(path)
    t0 = time.time()
    n = len(ds)
    memory = torch.zeros(n, (enc.k + 2) * C.N_I, enc.d)
    kinds = torch.zeros(n, len(C.KINDS))
    for lo in range(0, n, batch):
        idx = range(lo, min(n, lo + batch))
        px = ds.image_tensor(idx)  # [b,2,3,96,96]
        f, _ = tok.encode(px.reshape(-1, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
        f = f.reshape(len(idx), 2, C.N_I, C.FEAT_DIM)
        _, mem, kl, _ = enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], context=ds.context_tensor(idx))
        memory[lo : lo + len(idx)], kinds[lo : lo + len(idx)] = mem, kl
    cache = {"memory": memory, "kind_logits": kinds}
    save_atomic(cache, path)
    log(f"memory {path.name}: {n} samples in {time.time() - t0:.0f}s")
    return cache


def usable_references(ds: CropSet, vocab: Vocab) -> tuple[list[list[str]], dict]:
    """Per sample, the references every word of which the vocabulary holds; counts for the log."""
    refs, dropped, total = [], 0, 0
    for s in ds.samples:
        ok = [c for c in s.captions if all(w in vocab.index for w in c.lower().split())]
        total += len(s.captions)
        dropped += len(s.captions) - len(ok)
        refs.append(ok)
    return refs, {
        "references": total,
        "references_with_unknown_words": dropped,
        "samples_without_usable_reference": sum(1 for r in refs if not r),
    }


def has_slot(words: list[str]) -> bool:
    return any(w in SLOT_TOKENS for w in words)


# ---------------------------------------------------------------------------------------------------
# validation
@torch.no_grad()
def validate(
    dec: CaptionDecoder,
    memory: torch.Tensor,
    ds: CropSet,
    refs: list[list[str]],
    vocab: Vocab,
    beam: int = 0,
    batch: int = 128,
) -> dict:
    """Caption loss (no smoothing, every usable reference), exact-caption rate of the greedy caption
    (against all of a sample's references) and its slot use, split by whether a reference has a slot.
    beam > 0: the same figures for beam search of that width too."""
    dec.eval()
    losses, n_tok = 0.0, 0
    pairs = [(i, c) for i, rs in enumerate(refs) for c in rs]
    for lo in range(0, len(pairs), batch):
        chunk = pairs[lo : lo + batch]
        tokens = torch.tensor([vocab.encode(c) for _, c in chunk])
        logits = dec(tokens[:, :-1], memory[[i for i, _ in chunk]])
        target = tokens[:, 1:]
        losses += float(
            F.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=C.PAD, reduction="sum"
            )
        )
        n_tok += int((target != C.PAD).sum())
    out = {"caption_loss": losses / max(1, n_tok)}
    slot_ref = np.array([has_slot(" ".join(s.captions).split()) for s in ds.samples])
    searches = [("greedy", greedy_decode)] + ([(f"beam{beam}", lambda d, m: beam_decode(d, m, beam))] if beam else [])
    for name, search in searches:
        hyps = []
        for lo in range(0, len(ds), batch):
            hyps += [vocab.decode(h) for h in search(dec, memory[lo : lo + batch])]
        exact = np.array([h in s.captions for h, s in zip(hyps, ds.samples, strict=True)])
        slot_hyp = np.array([has_slot(h.split()) for h in hyps])
        prefix = "" if name == "greedy" else f"{name}_"
        out[f"{prefix}exact"] = float(exact.mean())
        out[f"{prefix}exact_slot_refs"] = float(exact[slot_ref].mean()) if slot_ref.any() else float("nan")
        out[f"{prefix}exact_no_slot_refs"] = float(exact[~slot_ref].mean()) if (~slot_ref).any() else float("nan")
        out[f"{prefix}slot_when_ref_has"] = float(slot_hyp[slot_ref].mean()) if slot_ref.any() else float("nan")
        out[f"{prefix}slot_when_no_ref_has"] = float(slot_hyp[~slot_ref].mean()) if (~slot_ref).any() else float("nan")
    out["samples"], out["samples_with_slot_refs"] = len(ds), int(slot_ref.sum())
    return out


# ---------------------------------------------------------------------------------------------------
# training
def prepare(init: Path, out: Path, seed: int) -> None:
    """OUT from INIT: the extended vocabulary and grown tables (once; a resumed run keeps OUT's). The
    starting weights, stage2_k2_start.pt, are written last: without them OUT is prepared again."""
    if (out / "stage2_k2_start.pt").is_file():
        return
    for f in ("config.json", "vocab.json", "tokenizer_vq.pt", "stage2_k2.pt"):
        if not (init / f).is_file():
            raise FileNotFoundError(f"{init / f} missing: --init is a finished checkpoint folder (training.recover)")
    old = Vocab.load(init / "vocab.json")
    vocab = extend_vocab(old)
    n_new = len(vocab) - len(old)
    grow_folder(init, out, vocab, n_new, seed)
    for member in sorted(init.glob("member_*")):
        if member.is_dir():
            grow_folder(member, out / member.name, vocab, n_new, seed)
    # a resumed run starts from these (stage2_k2.pt holds the fine-tuned decoder once the run is done)
    shutil.copy2(out / "stage2_k2.pt", out / "stage2_k2_start.tmp")
    (out / "stage2_k2_start.tmp").replace(out / "stage2_k2_start.pt")
    log(
        f"prepare: {out} from {init}: vocabulary {len(old)} -> {len(vocab)} tokens "
        f"({', '.join(vocab.tokens[len(old) :])} at ids {len(old)}-{len(vocab) - 1})"
    )


def finetune(
    init: Path,
    data: Path,
    out: Path,
    budget: C.PhaseBudget,
    seed: int = SEED,
    resume: bool = False,
    cfg: TrainConfig | None = None,
) -> dict:
    cfg = cfg or TrainConfig(seed=seed)
    cfg.val_every, cfg.checkpoint_every = VAL_EVERY, CHECKPOINT_EVERY
    out.mkdir(parents=True, exist_ok=True)
    prepare(init, out, seed)
    # the starting weights (grown), not stage2_k2.pt: that one holds the fine-tuned decoder once finished
    start = torch.load(out / "stage2_k2_start.pt")
    vocab, tok, enc, dec = load_models_from(out, start)
    freeze(tok, enc)
    train = CropSet(data / "train", skip_sources=("unmatched",))
    val = CropSet(data / "val")
    train_refs, train_counts = usable_references(train, vocab)
    val_refs, val_counts = usable_references(val, vocab)
    log(f"data: {len(train)} train samples {train_counts}; {len(val)} val samples {val_counts}")
    mem_train = encoder_memory(train, tok, enc, out / "memory_train.pt")["memory"]
    mem_val = encoder_memory(val, tok, enc, out / "memory_val.pt")["memory"]
    trainable = [i for i, r in enumerate(train_refs) if r]

    def step_fn(step):
        rng = rng_for(seed, PHASE, step)
        idx = [trainable[int(j)] for j in rng.integers(0, len(trainable), budget.batch)]
        caps = [train_refs[i][int(rng.integers(len(train_refs[i])))] for i in idx]
        tokens = torch.tensor([vocab.encode(c) for c in caps])
        loss = caption_loss(dec, mem_train[idx], tokens, cfg.label_smoothing)
        return loss, {"cap": float(loss)}

    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    if "val_start" not in summary:
        summary["val_start"] = validate(dec, mem_val, val, val_refs, vocab)
        log("val @ start: " + " ".join(f"{k}={v:.4f}" for k, v in summary["val_start"].items()))
    summary_path.write_text(json.dumps(summary, indent=1))

    def val_fn():
        return validate(dec, mem_val, val, val_refs, vocab)

    # resume=True always: run_phase itself continues OUT/decoder_slots.ckpt or skips a finished phase;
    # main() refuses a fresh run over an OUT that holds them
    result = run_phase(
        PHASE,
        list(dec.parameters()),
        budget,
        step_fn,
        out,
        {"decoder": dec},
        cfg,
        val_fn=val_fn,
        resume=True,
        loss_key="cap",
    )
    final = validate(dec, mem_val, val, val_refs, vocab, beam=C.DEFAULT_BEAM_WIDTH)
    log("val @ end: " + " ".join(f"{k}={v:.4f}" for k, v in final.items()))
    # the frozen encoder is the starting one, bit for bit
    assert all(torch.equal(v, start["state"]["encoder"][k]) for k, v in enc.state_dict().items())
    save_atomic(
        {
            "state": {"encoder": enc.state_dict(), "decoder": dec.state_dict()},
            "losses": {**result, "decoder_only": True, "init": str(init)},
        },
        out / "stage2_k2.pt",
    )
    summary.update(
        {
            "decoder_slots": result,
            "val_end": final,
            "train_counts": train_counts,
            "val_counts": val_counts,
            "init": str(init),
            "data": str(data),
            "seed": seed,
            "budget": vars(budget),
            "vocab_size": len(vocab),
            "slot_ids": [vocab.index[t] for t in SLOT_TOKENS],
        }
    )
    summary_path.write_text(json.dumps(summary, indent=1))
    return summary


def load_models_from(out: Path, stage2: dict):
    """OUT's models with the given stage-2 state (the grown start, or a finished fine-tune)."""
    vocab, tok, enc, dec = load_models(out)
    enc.load_state_dict(stage2["state"]["encoder"])
    dec.load_state_dict(stage2["state"]["decoder"])
    return vocab, tok, enc, dec


# ---------------------------------------------------------------------------------------------------
# export: the decoder only, into a copy of the shipped models
def _golden_tensor(spec: dict) -> torch.Tensor:
    dtype = {"float32": torch.float32, "int64": torch.int64}[spec["dtype"]]
    return torch.tensor(spec["data"], dtype=dtype).reshape(spec["dims"])


def export_decoder(ckpt: Path, models_dir: Path, base: Path = C.MODELS_DIR, partial: bool = False) -> dict:
    """models_dir (a copy of base made when missing) gets decoder_step.onnx, golden/decoder_step*.json,
    vocab.json and an export_info.json entry from ckpt's fine-tuned decoder; every other file stays base's.
    The decoder's golden memory is base's golden procedure_encoder output; ckpt's frozen encoder must
    reproduce it (else the decoder was tuned on another encoder's memory and the export is refused)."""
    t0 = time.time()
    models_dir, base = Path(models_dir), Path(base)
    if models_dir.resolve() == base.resolve():
        raise ValueError(f"--models {models_dir} is the base folder; export into a scratch copy")
    if not models_dir.exists():
        shutil.copytree(base, models_dir)
    state = torch.load(ckpt / "stage2_k2.pt")
    which = "finished"
    if partial and (ckpt / f"{PHASE}.ckpt").is_file():
        c = torch.load(ckpt / f"{PHASE}.ckpt")
        state["state"]["decoder"] = c["state"]["decoder"]
        which = f"partial checkpoint at step {c['step']}"
    elif not state.get("losses", {}).get("decoder_only"):
        raise FileNotFoundError(f"{ckpt / 'stage2_k2.pt'} holds no fine-tuned decoder yet (still training? --partial)")
    vocab, _, enc, dec = load_models_from(ckpt, state)
    golden = json.loads((models_dir / "golden" / "procedure_encoder.json").read_text())
    ins = {k: _golden_tensor(v) for k, v in golden["inputs"].items()}
    memory = _golden_tensor(golden["outputs"]["memory"])
    with torch.no_grad():
        mine = enc.stage2(
            ins["before_features"],
            ins["after_features"],
            ins["before_image"],
            ins["after_image"],
            context=ins["context"],
        )[1]
    if not torch.allclose(mine, memory, atol=1e-4, rtol=1e-3):
        raise ValueError(
            f"{ckpt}'s encoder does not give {models_dir}'s golden memory "
            f"(max difference {float((mine - memory).abs().max()):.2e}): another encoder"
        )
    for name, case in export_decoder_step(dec, memory, models_dir).items():
        write_golden(models_dir / "golden", name, case)
    vocab.save(models_dir / "vocab.json")
    info_path = models_dir / "export_info.json"
    info = json.loads(info_path.read_text()) if info_path.is_file() else {}
    info["vocab_size"] = len(vocab)
    info.setdefault("onnx_bytes", {})["decoder_step.onnx"] = (models_dir / "decoder_step.onnx").stat().st_size
    info.setdefault("onnx_sha256", {})["decoder_step.onnx"] = file_sha256(models_dir / "decoder_step.onnx")
    info["onnx_total_mb"] = sum(info["onnx_bytes"].values()) / 2**20
    info["decoder"] = {
        "exported_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "checkpoint": portable_path(ckpt),
        "weights": which,
        "slot_tokens": {t: vocab.index[t] for t in SLOT_TOKENS},
        "note": "decoder_step.onnx, golden/decoder_step*.json and vocab.json from "
        "training.finetune_decoder; every other file copied from " + portable_path(base),
    }
    info_path.write_text(json.dumps(info, indent=1) + "\n")
    log(
        f"exported decoder_step.onnx ({len(vocab)} tokens, {which}) + golden + vocab.json to {models_dir} "
        f"in {time.time() - t0:.1f}s"
    )
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--init", default="", help="finished checkpoint folder to start from (training.recover's)")
    ap.add_argument("--data", default="", help="corpus root with train/ and val/ crops (training/make_corpus.sh)")
    ap.add_argument("--out", required=True, help="checkpoint folder (outside the work tree)")
    ap.add_argument("--resume", action="store_true", help="continue OUT's run")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--minutes", type=float, default=BUDGET.minutes, help="wall-clock cap over all runs (0: none)")
    ap.add_argument("--steps", type=int, default=BUDGET.steps)
    ap.add_argument("--batch", type=int, default=BUDGET.batch)
    ap.add_argument("--lr", type=float, default=BUDGET.lr)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--export", action="store_true", help="export OUT's decoder into --models (no training)")
    ap.add_argument("--models", default="", help="with --export: the scratch models folder to write")
    ap.add_argument(
        "--base", default=str(C.MODELS_DIR), help="with --export: the models copied first (default models/)"
    )
    ap.add_argument("--partial", action="store_true", help="with --export: the last periodic checkpoint of a run")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    out = Path(a.out)
    try:
        if a.export:
            if not a.models:
                print("error: --export needs --models (a scratch folder)", file=sys.stderr)
                return 2
            export_decoder(out, Path(a.models), Path(a.base), a.partial)
            return 0
        if not a.init or not a.data:
            print("error: training needs --init and --data", file=sys.stderr)
            return 2
        if not a.resume and out.exists() and any(out.iterdir()):
            print(f"error: {out} is not empty; pass --resume to continue it or use a fresh --out", file=sys.stderr)
            return 2
        budget = C.PhaseBudget(steps=a.steps, batch=a.batch, lr=a.lr, warmup=BUDGET.warmup, minutes=a.minutes)
        finetune(Path(a.init), Path(a.data), out, budget, a.seed, a.resume)
    except (DataError, FileNotFoundError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
