"""Checkpoint folders: building the stage-2 models and loading a finished (or running) checkpoint
folder's weights. Its own module so that export, evaluation, the committee, the kind prior and the
fine-tunes can all load checkpoints without importing each other (or train.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import torch

from .config import TrainConfig
from .data import Vocab
from .decode import CaptionDecoder
from .encode import ProcedureEncoder, load_encoder_state
from .interpolate import Interpolator
from .tokenizer import ImageTokenizer


def make_models(vocab: Vocab, k: int, cfg: TrainConfig) -> tuple[ProcedureEncoder, CaptionDecoder]:
    enc = ProcedureEncoder(len(vocab), k, layers=cfg.encoder_layers, heads=cfg.heads, ffn=cfg.ffn, dropout=cfg.dropout)
    dec = CaptionDecoder(len(vocab), dropout=cfg.dropout)
    return enc, dec


def phase_state(ckpt: Path, name: str, partial: bool, used: dict):
    """A phase's weights: the finished <name>.pt, or with partial=True the last periodic checkpoint
    <name>.ckpt of a phase still running (recorded in `used` so export_info says so)."""
    if (ckpt / f"{name}.pt").is_file():
        used[name] = "finished"
        return torch.load(ckpt / f"{name}.pt")["state"]
    if partial and (ckpt / f"{name}.ckpt").is_file():
        c = torch.load(ckpt / f"{name}.ckpt")
        used[name] = f"partial checkpoint at step {c['step']}"
        return c["state"]
    if partial and name == "interpolator":
        used[name] = "untrained (an exact cross-fade)"
        return None
    raise FileNotFoundError(f"{ckpt / (name + '.pt')} missing: train first (python3 -m training.train ...)")


def load_trained(ckpt: Path, variant: str = "k2", partial: bool = False, used: dict | None = None):
    used = {} if used is None else used
    cfg_json = json.loads((ckpt / "config.json").read_text())
    cfg = TrainConfig(seed=cfg_json.get("seed", 1234))
    for key in ("encoder_layers", "heads", "ffn"):
        setattr(cfg, key, cfg_json.get(key, getattr(cfg, key)))
    vocab = Vocab.load(ckpt / "vocab.json")
    tok = ImageTokenizer()
    tok.load_state_dict(phase_state(ckpt, "tokenizer_vq", False, used)["model"])
    interp = Interpolator()
    # the finished network with its crop gate fitted last (interpolator_gate), else the network alone
    gated = (ckpt / "interpolator_gate.pt").is_file()
    si = phase_state(ckpt, "interpolator_gate" if gated else "interpolator", partial, used)
    if si is not None:
        interp.load_state_dict(si["model"])
    enc, dec = make_models(vocab, {"k2": 2, "k1": 1, "static": 0}[variant], cfg)
    s2 = phase_state(ckpt, f"stage2_{variant}", partial, used)
    load_encoder_state(enc, s2["encoder"])
    dec.load_state_dict(s2["decoder"])
    for m in (tok, interp, enc, dec):
        m.eval()
    return vocab, tok, interp, enc, dec
