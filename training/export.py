"""Exports the trained pipeline to ONNX (opset 17) under models/, with the vocabulary and golden tensors.

  /usr/bin/python3 -m training.export --ckpt CKPT [--models models]

Files: interpolator.onnx, tokenizer_encoder.onnx, tokenizer_decoder.onnx, procedure_encoder.onnx,
decoder_step.onnx, vocab.json, golden/<model>.json (inputs and the PyTorch outputs for them; the
TypeScript side runs the same inputs through onnxruntime-node and compares).
Export runs with autograd enabled (torch 1.13's fused no-grad attention path does not export).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import onnx
import torch

from . import config as C
from .checkpoint import load_trained
from .committee import ExportKindMembers, MemberError, load_members
from .context import CONTEXT_FEATURES, load_kind_prior
from .decode import ExportDecoderStep
from .encode import ExportProcedureEncoder
from .paths import portable_path
from .tokenizer import ExportTokenizerDecoder, ExportTokenizerEncoder

ONNX_FILES = [
    "interpolator.onnx",
    "tokenizer_encoder.onnx",
    "tokenizer_decoder.onnx",
    "procedure_encoder.onnx",
    "decoder_step.onnx",
    "kind_prior.onnx",
]
MEMBERS_FILE = "kind_members.onnx"  # only with --members (training/committee.py)


def _tensor_json(t: torch.Tensor) -> dict:
    t = t.detach().contiguous()
    dtype = {torch.float32: "float32", torch.int64: "int64"}[t.dtype]
    return {"dtype": dtype, "dims": list(t.shape), "data": t.reshape(-1).tolist()}


def golden_image(batch: int, h: int, w: int, seed: int) -> torch.Tensor:
    """Deterministic test picture: smooth gradients plus two flat boxes (like a UI crop)."""
    g = torch.Generator().manual_seed(seed)
    ys = torch.linspace(0, 1, h).view(1, 1, h, 1)
    xs = torch.linspace(0, 1, w).view(1, 1, 1, w)
    img = (0.3 + 0.4 * ys * xs + 0.1 * torch.rand(batch, 3, 1, 1, generator=g)).expand(batch, 3, h, w).clone()
    for b in range(batch):
        for _ in range(2):
            y0, x0 = int(torch.randint(0, h // 2, (1,), generator=g)), int(torch.randint(0, w // 2, (1,), generator=g))
            img[b, :, y0 : y0 + h // 4, x0 : x0 + w // 3] = torch.rand(3, 1, 1, generator=g)
    return img.clamp(0, 1)


def _export(
    module: torch.nn.Module, args: tuple, path: Path, inputs: list[str], outputs: list[str], dynamic: dict
) -> None:
    # grad enabled on purpose: see toolchain.md
    with torch.enable_grad():
        torch.onnx.export(
            module,
            args,
            str(path),
            opset_version=C.OPSET,
            input_names=inputs,
            output_names=outputs,
            dynamic_axes=dynamic,
            do_constant_folding=True,
        )
    onnx.checker.check_model(onnx.load(str(path)))


def export_all(
    ckpt: Path, models_dir: Path, variant: str = "k2", partial: bool = False, members: list[Path] | None = None
) -> dict:
    """members: checkpoints of a kind committee (training/committee.py), exported as kind_members.onnx; without
    them a kind_members.onnx left by an earlier export in models_dir is removed (it voted with other weights)."""
    t0 = time.time()
    members = [Path(m) for m in members or []]
    member_encoders = load_members(ckpt, members) if members else []
    models_dir.mkdir(parents=True, exist_ok=True)
    golden_dir = models_dir / "golden"
    golden_dir.mkdir(exist_ok=True)
    used: dict = {}
    vocab, tok, interp, enc, dec = load_trained(ckpt, variant, partial, used)
    vocab.save(models_dir / "vocab.json")
    golden: dict[str, dict] = {}

    # interpolator (dynamic H, W multiples of 16); golden at 32x48 keeps the file small
    f0, f1 = golden_image(1, 32, 48, 1), golden_image(1, 32, 48, 2)
    _export(
        interp,
        (f0, f1),
        models_dir / "interpolator.onnx",
        ["frame0", "frame1"],
        ["middle"],
        {"frame0": {0: "B", 2: "H", 3: "W"}, "frame1": {0: "B", 2: "H", 3: "W"}, "middle": {0: "B", 2: "H", 3: "W"}},
    )
    with torch.no_grad():
        golden["interpolator"] = {"inputs": {"frame0": f0, "frame1": f1}, "outputs": {"middle": interp(f0, f1)}}

    # tokenizer encoder / decoder
    img = golden_image(2, C.IMAGE_SIZE, C.IMAGE_SIZE, 3)
    te = ExportTokenizerEncoder(tok).eval()
    _export(
        te,
        (img,),
        models_dir / "tokenizer_encoder.onnx",
        ["image"],
        ["features", "codes"],
        {"image": {0: "B"}, "features": {0: "B"}, "codes": {0: "B"}},
    )
    with torch.no_grad():
        feats, codes = te(img)
    golden["tokenizer_encoder"] = {"inputs": {"image": img}, "outputs": {"features": feats, "codes": codes}}
    td = ExportTokenizerDecoder(tok).eval()
    _export(
        td,
        (codes,),
        models_dir / "tokenizer_decoder.onnx",
        ["codes"],
        ["image"],
        {"codes": {0: "B"}, "image": {0: "B"}},
    )
    with torch.no_grad():
        golden["tokenizer_decoder"] = {"inputs": {"codes": codes}, "outputs": {"image": td(codes)}}

    # procedure encoder: golden on two different pictures (their features and their pixels)
    # and a layout context one standard deviation off the training mean (every feature counts)
    pe = ExportProcedureEncoder(enc).eval()
    before, after = feats[:1], feats[1:2]
    before_img, after_img = img[:1], img[1:2]
    signs = torch.tensor([(-1.0) ** i for i in range(C.CONTEXT_SIZE)])
    context = (enc.context_mean + signs * enc.context_std).unsqueeze(0)
    _export(
        pe,
        (before, after, before_img, after_img, context),
        models_dir / "procedure_encoder.onnx",
        ["before_features", "after_features", "before_image", "after_image", "context"],
        ["memory", "kind_logits", "query_code_logits"],
        {
            "before_features": {0: "B"},
            "after_features": {0: "B"},
            "before_image": {0: "B"},
            "after_image": {0: "B"},
            "context": {0: "B"},
            "memory": {0: "B"},
            "kind_logits": {0: "B"},
            "query_code_logits": {0: "B"},
        },
    )
    with torch.no_grad():
        memory, kind_logits, query_logits = pe(before, after, before_img, after_img, context)
    golden["procedure_encoder"] = {
        "inputs": {
            "before_features": before,
            "after_features": after,
            "before_image": before_img,
            "after_image": after_img,
            "context": context,
        },
        "outputs": {"memory": memory, "kind_logits": kind_logits, "query_code_logits": query_logits},
    }

    # decoder step with KV cache: export traced with T=1 past (dynamic T), golden for steps 0 and 1
    golden.update(export_decoder_step(dec, memory, models_dir))

    # layout kind prior (training/context.py): golden on the training mean and two points around it
    prior_path = ckpt / "kind_prior.pt"
    if not prior_path.is_file():
        raise FileNotFoundError(f"{prior_path} missing: python3 -m training.context --data ... --ckpt {ckpt}")
    prior = load_kind_prior(prior_path)
    used["kind_prior"] = "finished"
    ctx = torch.stack([prior.mean, prior.mean + 0.5 * prior.std, prior.mean - 0.25 * prior.std])
    assert ctx.shape[1] == len(CONTEXT_FEATURES)
    _export(
        prior,
        (ctx,),
        models_dir / "kind_prior.onnx",
        ["context"],
        ["kind_bias"],
        {"context": {0: "B"}, "kind_bias": {0: "B"}},
    )
    with torch.no_grad():
        golden["kind_prior"] = {"inputs": {"context": ctx}, "outputs": {"kind_bias": prior(ctx)}}

    # kind committee (training/committee.py): golden on the procedure encoder's golden inputs
    files = list(ONNX_FILES)
    if member_encoders:
        km = ExportKindMembers(member_encoders).eval()
        _export(
            km,
            (before, after, before_img, after_img, context),
            models_dir / MEMBERS_FILE,
            ["before_features", "after_features", "before_image", "after_image", "context"],
            ["kind_log_probs"],
            {
                "before_features": {0: "B"},
                "after_features": {0: "B"},
                "before_image": {0: "B"},
                "after_image": {0: "B"},
                "context": {0: "B"},
                "kind_log_probs": {0: "B"},
            },
        )
        with torch.no_grad():
            golden["kind_members"] = {
                "inputs": golden["procedure_encoder"]["inputs"],
                "outputs": {"kind_log_probs": km(before, after, before_img, after_img, context)},
            }
        files.append(MEMBERS_FILE)
    else:
        for stale in (models_dir / MEMBERS_FILE, golden_dir / "kind_members.json"):
            stale.unlink(missing_ok=True)

    for name, g in golden.items():
        write_golden(golden_dir, name, g)
    sizes = {f: (models_dir / f).stat().st_size for f in files}
    # the runtime checks each file against these before loading it (a flipped byte loads and runs)
    hashes = {f: file_sha256(models_dir / f) for f in files}
    info = {
        "exported_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "checkpoint": portable_path(ckpt),
        "variant": variant,
        "kind_members": [portable_path(m) for m in members],
        "vocab_size": len(vocab),
        "onnx_bytes": sizes,
        "onnx_sha256": hashes,
        "onnx_total_mb": sum(sizes.values()) / 2**20,
        "opset": C.OPSET,
        "contract_version": C.CONTRACT["contract_version"],
        "weights": used,
    }
    (models_dir / "export_info.json").write_text(json.dumps(info, indent=1) + "\n")
    print(
        f"exported {len(files)} ONNX files ({info['onnx_total_mb']:.2f} MB) + golden to {models_dir} "
        f"in {time.time() - t0:.1f}s",
        flush=True,
    )
    return info


def export_decoder_step(dec: torch.nn.Module, memory: torch.Tensor, models_dir: Path) -> dict:
    """Exports decoder_step.onnx (traced with a one-position past, the past length dynamic) and returns
    its golden cases for steps 0 and 1 on `memory` (one sample), as write_golden takes them."""
    ds = ExportDecoderStep(dec).eval()
    L, d = len(dec.layers), dec.d
    trace_args = (torch.tensor([[C.BOS]]), torch.tensor([1]), memory, torch.zeros(L, 1, 1, d), torch.zeros(L, 1, 1, d))
    _export(
        ds,
        trace_args,
        models_dir / "decoder_step.onnx",
        ["token", "step", "memory", "past_key", "past_value"],
        ["logits", "present_key", "present_value"],
        {
            "token": {0: "B"},
            "memory": {0: "B"},
            "past_key": {1: "B", 2: "T"},
            "past_value": {1: "B", 2: "T"},
            "logits": {0: "B"},
            "present_key": {1: "B", 2: "T+1"},
            "present_value": {1: "B", 2: "T+1"},
        },
    )
    with torch.no_grad():
        pk, pv = dec.empty_cache(1)
        tok0 = torch.tensor([[C.BOS]])
        logits0, k0, v0 = ds(tok0, torch.tensor([0]), memory, pk, pv)
        tok1 = logits0.argmax(-1, keepdim=True)
        logits1, k1, v1 = ds(tok1, torch.tensor([1]), memory, k0, v0)
    return {
        "decoder_step": {
            "inputs": {"token": tok0, "step": torch.tensor([0]), "memory": memory, "past_key": pk, "past_value": pv},
            "outputs": {"logits": logits0, "present_key": k0, "present_value": v0},
        },
        "decoder_step_1": {
            "model": "decoder_step.onnx",
            "inputs": {"token": tok1, "step": torch.tensor([1]), "memory": memory, "past_key": k0, "past_value": v0},
            "outputs": {"logits": logits1, "present_key": k1, "present_value": v1},
        },
    }


def write_golden(golden_dir: Path, name: str, case: dict) -> None:
    """One golden case ({"inputs", "outputs"[, "model"]}) as golden/<name>.json, which the TypeScript
    side and check_onnx.mjs run the model against."""
    doc = {
        "model": case.get("model", f"{name}.onnx"),
        "tolerance": {"abs": 1e-4, "rel": 1e-3, "note": "int64 outputs must match exactly"},
        "inputs": {k: _tensor_json(v) for k, v in case["inputs"].items()},
        "outputs": {k: _tensor_json(v) for k, v in case["outputs"].items()},
    }
    (golden_dir / f"{name}.json").write_text(json.dumps(doc, separators=(",", ":")))


def file_sha256(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes, as src/core/session.ts computes it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--models", default=str(C.MODELS_DIR))
    ap.add_argument("--variant", default="k2")
    ap.add_argument(
        "--partial",
        action="store_true",
        help="export phases still training from their last periodic checkpoint (said in export_info.json)",
    )
    ap.add_argument(
        "--members",
        action="append",
        default=[],
        help="a kind-committee member: another finished checkpoint over the same tokenizer (repeatable); "
        "exported as kind_members.onnx (training/committee.py)",
    )
    a = ap.parse_args(argv)
    torch.set_num_threads(2)
    for f in ("config.json", "vocab.json"):
        if not (Path(a.ckpt) / f).is_file():
            print(f"error: {Path(a.ckpt) / f} missing: train first (python3 -m training.train ...)", file=sys.stderr)
            return 2
    try:
        export_all(Path(a.ckpt), Path(a.models), a.variant, a.partial, [Path(m) for m in a.members])
    except (FileNotFoundError, MemberError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
