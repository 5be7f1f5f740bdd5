"""Rebuilds a training checkpoint folder from the shipped ONNX files, so that training can continue
from the shipped models on a machine that lost the checkpoints (they live outside the work tree).

  /usr/bin/python3 -m training.recover --models models --out CKPT

How: the same code exports a freshly built set of modules whose every weight and buffer holds
distinct random values; each ONNX initializer of that export is then found, value for value, inside
the module tensors (whole, transposed, or as a row slice, which is what constant folding makes of
Linear and attention weights). The mapping that gives, applied to the shipped files' initializers
(the same graph, so the same names), puts the shipped numbers back into the modules. The encoder's
position embedding is folded into time rows and a row + column sum; its parts are solved back
(any additive split gives the same sums). Weights that no exported graph uses (stage 1's caption stream and
its align/consistency heads) keep a fresh initialisation: a stage-2 round does not use them.
The result is checked by exporting it again: every initializer of every file must equal the shipped
one bit for bit, except the re-added row + column sum (float32 rounding, at most 1e-6), else the
command fails.

Writes: config.json, vocab.json, tokenizer.pt, tokenizer_vq.pt, interpolator.pt, interpolator_gate.pt,
stage1_k2.pt (the recovered encoder, so `train --resume` skips stage 1), stage2_k2.pt, kind_prior.pt,
summary.json (which files came from where) - what `training.train --all --resume --stage2-init
OUT/stage2_k2.pt` and `training.export` read.

A kind committee (kind_members.onnx, training/committee.py) comes back too, one checkpoint folder per member
(OUT/member_1, OUT/member_2, ...: the main folder's files with the member's encoder in stage2_k2.pt), so that
`training.export --ckpt OUT --members OUT/member_1 ...` and `training.evaluate ... --members ...` run again.
A member's weights off its kind path (what only the captions or imagined frames read) keep a fresh
initialisation; the committee reads only its kind logits.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from . import config as C
from .checkpoint import make_models
from .config import TrainConfig
from .context import KindPrior
from .data import Vocab
from .export import export_all
from .interpolate import Interpolator
from .tokenizer import ImageTokenizer

# which modules each exported file holds (ExportTokenizerDecoder also holds the codebook, etc.)
MEMBERS_FILE = "kind_members.onnx"
FILE_MODULES = {
    "interpolator.onnx": ["interp"],
    "tokenizer_encoder.onnx": ["tok"],
    "tokenizer_decoder.onnx": ["tok"],
    "procedure_encoder.onnx": ["enc"],
    "decoder_step.onnx": ["dec"],
    "kind_prior.onnx": ["prior"],
}


class RecoveryError(RuntimeError):
    pass


def _build(vocab: Vocab, cfg: TrainConfig, members: int = 0) -> dict[str, torch.nn.Module]:
    """The modules of one export; members > 0 adds that many committee encoders, "member_1" ... ."""
    enc, dec = make_models(vocab, 2, cfg)
    modules = {"tok": ImageTokenizer(), "interp": Interpolator(), "enc": enc, "dec": dec, "prior": KindPrior()}
    for i in range(members):
        modules[f"member_{i + 1}"] = make_models(vocab, 2, cfg)[0]
    return modules


def _member_names(modules: dict) -> list[str]:
    return sorted((m for m in modules if m.startswith("member_")), key=lambda m: int(m.split("_")[1]))


def _file_modules(members: int) -> dict[str, list[str]]:
    files = dict(FILE_MODULES)
    if members:
        files[MEMBERS_FILE] = [f"member_{i + 1}" for i in range(members)]
    return files


def _fill_distinct(modules: dict[str, torch.nn.Module], seed: int) -> None:
    """Every float weight and buffer gets values no other tensor shares (so each is found by value)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in modules.values():
            for _, t in m.state_dict(keep_vars=True).items():
                if t.is_floating_point():
                    t.copy_(0.05 + torch.rand(t.shape, generator=gen))  # positive: std buffers stay valid


def _write_checkpoint(out: Path, modules: dict, vocab: Vocab, cfg: TrainConfig, note: dict) -> None:
    out.mkdir(parents=True, exist_ok=True)
    vocab.save(out / "vocab.json")
    (out / "config.json").write_text(json.dumps({"argv": sys.argv, **cfg.to_json()}, indent=1))
    losses = {"recovered": note}
    for name in ("tokenizer", "tokenizer_vq"):
        torch.save({"state": {"model": modules["tok"].state_dict()}, "losses": losses}, out / f"{name}.pt")
    for name in ("interpolator", "interpolator_gate"):
        torch.save({"state": {"model": modules["interp"].state_dict()}, "losses": losses}, out / f"{name}.pt")
    torch.save({"state": {"encoder": modules["enc"].state_dict()}, "losses": losses}, out / "stage1_k2.pt")
    torch.save(
        {"state": {"encoder": modules["enc"].state_dict(), "decoder": modules["dec"].state_dict()}, "losses": losses},
        out / "stage2_k2.pt",
    )
    torch.save(
        {"state": modules["prior"].state_dict(), "summary": note.get("kind_prior_summary", {})}, out / "kind_prior.pt"
    )
    # committee members: the main folder's files, their own encoder (the decoder is the main one: unused)
    for name in _member_names(modules):
        folder = out / name
        folder.mkdir(exist_ok=True)
        for f in out.iterdir():
            if f.is_file() and f.name != "stage2_k2.pt":
                (folder / f.name).write_bytes(f.read_bytes())
        torch.save(
            {
                "state": {"encoder": modules[name].state_dict(), "decoder": modules["dec"].state_dict()},
                "losses": losses,
            },
            folder / "stage2_k2.pt",
        )


def _export(ckpt: Path, models_dir: Path) -> None:
    members = sorted((p for p in ckpt.glob("member_*") if p.is_dir()), key=lambda p: int(p.name.split("_")[1]))
    export_all(ckpt, models_dir, variant="k2", members=members)


def _initializers(path: Path) -> dict[str, np.ndarray]:
    model = onnx.load(str(path))
    return {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}


def _views(a: np.ndarray) -> list[tuple[str, np.ndarray]]:
    out = [("flat", a.reshape(-1))]
    if a.ndim == 2:
        out.append(("T", a.T.reshape(-1)))
    return out


def _find(needle: np.ndarray, hay: np.ndarray) -> int:
    """Offset of needle as a contiguous run inside hay (1-D), or -1."""
    if needle.size == 0 or needle.size > hay.size:
        return -1
    for start in np.flatnonzero(hay == needle[0]):
        if start + needle.size <= hay.size and np.array_equal(hay[start : start + needle.size], needle):
            return int(start)
    return -1


def map_initializers(
    fresh: dict[str, dict[str, np.ndarray]],
    tensors: dict[str, np.ndarray],
    file_modules: dict[str, list[str]] = FILE_MODULES,
) -> dict:
    """For each (file, initializer) of the fresh export: where its values sit in the module tensors.
    Returns {(file, init): (tensor key, view, offset)}: the initializer, read as `view` ("flat" or "T"
    for a transposed 2-D one), is elements [offset, offset + size) of the flattened tensor."""
    mapping = {}
    for fname, inits in fresh.items():
        keys = [k for k in tensors if k.split(":")[0] in file_modules[fname]]
        for iname, arr in inits.items():
            if not np.issubdtype(arr.dtype, np.floating) or arr.size < 1:
                continue
            # a one-number initializer is only looked for among one-number tensors: graph constants
            # such as GELU's 0.5 could otherwise match a random element by chance
            cands = [k for k in keys if (tensors[k].size == 1) == (arr.size == 1)]
            for view, flat in _views(arr):
                hit = next(((k, off) for k in cands for off in [_find(flat, tensors[k].reshape(-1))] if off >= 0), None)
                if hit is not None:
                    mapping[(fname, iname)] = (hit[0], view, hit[1])
                    break
    return mapping


def _position_parts(enc, fresh: dict[str, np.ndarray], shipped: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The encoder's position embedding is folded into two constants: time_emb(times) [(k+2)*36, d]
    (each time row repeated per patch) and row_emb(rows) + col_emb(cols) [36, d]. Finds them in the fresh
    export by value and splits the shipped ones back into the three tables (any additive split of the
    row + column sum gives the same sums)."""
    with torch.no_grad():
        times = torch.arange(enc.k + 2).repeat_interleave(C.N_I)
        time_rows = enc.time_emb(times).numpy()
        space = (enc.row_emb(enc.patch_rows) + enc.col_emb(enc.patch_cols)).numpy()

    def named(target):
        hits = [n for n, a in fresh.items() if a.shape == target.shape and np.allclose(a, target, rtol=0, atol=1e-6)]
        if len(hits) != 1:
            raise RecoveryError(f"position constant of shape {target.shape} found {len(hits)} times in the export")
        return shipped[hits[0]]

    t = named(time_rows).reshape(enc.k + 2, C.N_I, -1)
    if not np.array_equal(t, np.repeat(t[:, :1], C.N_I, axis=1)):
        raise RecoveryError("the folded time embedding is not one row per frame")
    s = named(space).astype(np.float64)
    grid = int(round(C.N_I**0.5))
    sg = s.reshape(grid, grid, -1)
    mu = sg.mean(axis=(0, 1))
    row, col = sg.mean(axis=1), sg.mean(axis=0) - mu
    err = float(np.abs(row[:, None] + col[None, :] - sg).max())
    if err > 1e-5:
        raise RecoveryError(f"the folded row + column embedding is not additive (max error {err})")
    return {
        "time_emb.weight": t[:, 0].copy(),
        "row_emb.weight": row.astype(np.float32),
        "col_emb.weight": col.astype(np.float32),
    }


def _tie_member_tensors(modules: dict, models_dir: Path) -> dict[str, str]:
    """The exporter stores a tensor equal in several members once, under the first member's name (the layout
    context statistics every member inherits, say). Gives the fresh members the same sharing, so the fresh
    export has the shipped file's initializers; returns {member tensor key: the first member's key}."""
    names = {i.name for i in onnx.load(str(models_dir / MEMBERS_FILE)).graph.initializer}
    members = _member_names(modules)
    first = modules[members[0]].state_dict(keep_vars=True)
    tied = {}
    with torch.no_grad():
        for j, name in enumerate(members[1:], start=1):
            for key, t in modules[name].state_dict(keep_vars=True).items():
                if t.is_floating_point() and f"encoders.0.{key}" in names and f"encoders.{j}.{key}" not in names:
                    t.copy_(first[key])
                    tied[f"{name}:{key}"] = f"{members[0]}:{key}"
    return tied


def committee_size(models_dir: Path) -> int:
    """How many members the folder's kind_members.onnx holds (0 without one): its output's second dimension."""
    path = models_dir / MEMBERS_FILE
    if not path.is_file():
        return 0
    out = onnx.load(str(path)).graph.output[0]
    dim = out.type.tensor_type.shape.dim
    if len(dim) != 3 or not dim[1].HasField("dim_value"):
        raise RecoveryError(f"{path}: kind_log_probs is not [B, M, kinds] with a fixed M")
    return int(dim[1].dim_value)


def recover(models_dir: Path, out: Path, seed: int = 1234, log=print) -> dict:
    vocab = Vocab.load(models_dir / "vocab.json")
    cfg = TrainConfig(seed=seed)
    info = (
        json.loads((models_dir / "export_info.json").read_text()) if (models_dir / "export_info.json").is_file() else {}
    )
    n_members = committee_size(models_dir)
    file_modules = _file_modules(n_members)
    modules = _build(vocab, cfg, n_members)
    _fill_distinct(modules, seed)
    tied = _tie_member_tensors(modules, models_dir) if n_members else {}
    tensors = {
        f"{m}:{k}": v.detach().numpy().copy()
        for m, mod in modules.items()
        for k, v in mod.state_dict().items()
        if v.is_floating_point()
    }
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _write_checkpoint(tmp / "fresh_ckpt", modules, vocab, cfg, {})
        _export(tmp / "fresh_ckpt", tmp / "fresh_models")
        fresh = {f: _initializers(tmp / "fresh_models" / f) for f in file_modules}
        shipped = {f: _initializers(models_dir / f) for f in file_modules}
        for f in file_modules:
            a, b = fresh[f], shipped[f]
            if list(a) != list(b) or any(a[n].shape != b[n].shape for n in a):
                raise RecoveryError(
                    f"{models_dir / f} is not the graph this code exports (initializer names or "
                    "shapes differ): recover with the code revision that exported it"
                )
        mapping = map_initializers(fresh, tensors, file_modules)
        # write the shipped values into the tensors
        covered = {k: np.zeros(v.size, dtype=bool) for k, v in tensors.items()}
        recovered = {k: v.reshape(-1).copy() for k, v in tensors.items()}
        for (f, iname), (key, view, off) in mapping.items():
            vals = shipped[f][iname]
            flat = vals.T.reshape(-1) if view == "T" else vals.reshape(-1)
            if covered[key][off : off + flat.size].any() and not np.array_equal(
                recovered[key][off : off + flat.size], flat
            ):
                raise RecoveryError(f"{key}: two initializers disagree on its values ({f}:{iname})")
            recovered[key][off : off + flat.size] = flat
            covered[key][off : off + flat.size] = True
        positions = [("enc", "procedure_encoder.onnx")] + [(m, MEMBERS_FILE) for m in _member_names(modules)]
        for module, f in positions:
            parts = _position_parts(modules[module], fresh[f], shipped[f])
            for name, arr in parts.items():
                recovered[f"{module}:{name}"] = arr.reshape(-1).copy()
                covered[f"{module}:{name}"][:] = True
        for key, source in tied.items():
            recovered[key] = recovered[source].copy()
            covered[key] = covered[source].copy()
        missing = sorted(k for k, c in covered.items() if not c.all())
        stage1_only = ("enc:text_emb.", "enc:text_pos.", "enc:align_", "enc:csy_")
        # a member is exported for its kind logits only: whatever else it holds is not in the file
        unexpected = [k for k in missing if not k.startswith(stage1_only) and not k.startswith("member_")]
        if unexpected:
            raise RecoveryError("weights the exported graphs use but recovery could not find: " + ", ".join(unexpected))
        # load: found weights from the shipped files, the stage-1-only ones from a fresh default init
        defaults = _build(vocab, cfg, n_members)
        for m, mod in modules.items():
            state = defaults[m].state_dict()
            for k in state:
                key = f"{m}:{k}"
                if key in recovered and key not in missing:
                    state[k] = torch.from_numpy(recovered[key].reshape(tuple(state[k].shape)))
            mod.load_state_dict(state)
        note = {
            "from": str(models_dir),
            "exported_from": info.get("checkpoint"),
            "exported_at": info.get("exported_at"),
            "fresh_init": missing,
        }
        prior_summary = {
            "weight": float(modules["prior"].weight),
            "recovered_from": str(models_dir / "kind_prior.onnx"),
            "model": "mlp",
        }
        _write_checkpoint(out, modules, vocab, cfg, {**note, "kind_prior_summary": prior_summary})
        # check: the recovered checkpoint exports the shipped numbers
        _export(out, tmp / "check_models")
        worst, inexact = 0.0, []
        for f in file_modules:
            again = _initializers(tmp / "check_models" / f)
            for n in again:
                if not np.array_equal(again[n], shipped[f][n]):
                    inexact.append(f"{f}:{n}")
                    worst = max(worst, float(np.abs(again[n].astype(np.float64) - shipped[f][n]).max()))
        # only the re-added row + column sums (one per encoder) may differ, by float32 rounding
        if worst > 1e-6 or len(inexact) > 1 + n_members:
            raise RecoveryError(
                f"re-exported initializers differ from the shipped ones: {inexact[:5]} (max {worst:.2e})"
            )
        note["reexport"] = {"initializers_not_bit_identical": inexact, "max_abs_difference": worst}
    summary = {"recovered": note}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    fresh_main = [k for k in missing if not k.startswith("member_")]
    fresh_members = sorted({k.split(":", 1)[1].split(".")[0] for k in missing if k.startswith("member_")})
    log(
        f"recover: {sum(len(v) for v in shipped.values())} initializers of {len(file_modules)} files mapped back; "
        f"re-export equal (max difference {worst:.1e}); fresh (stage-1 only): {', '.join(fresh_main) or 'none'}"
        + (
            f"; {n_members} committee members in {', '.join(str(out / m) for m in _member_names(modules))} "
            f"(fresh, off the kind path: {', '.join(fresh_members) or 'none'})"
            if n_members
            else ""
        )
    )
    return summary


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", default=str(C.MODELS_DIR), help="folder with the shipped ONNX files and vocab.json")
    ap.add_argument("--out", required=True, help="checkpoint folder to write (must not hold checkpoints yet)")
    ap.add_argument("--seed", type=int, default=1234)
    a = ap.parse_args(argv)
    out = Path(a.out)
    if out.exists() and any(out.glob("*.pt")):
        print(f"error: {out} already holds checkpoints; pick an empty folder", file=sys.stderr)
        return 2
    for f in [*FILE_MODULES, "vocab.json"]:
        if not (Path(a.models) / f).is_file():
            print(f"error: {Path(a.models) / f} missing", file=sys.stderr)
            return 2
    try:
        recover(Path(a.models), out, a.seed)
    except RecoveryError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
