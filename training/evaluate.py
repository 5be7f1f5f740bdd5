"""Held-out evaluation: writes models/metrics.json (the interface the checks rely on).

  /usr/bin/python3 -m training.evaluate --data CORPUS --ckpt CKPT [--members CKPT ...] [--split test]
      [--out models/metrics.json]

Captions are judged per PAIR: each pair's summary is composed from its samples exactly as the
runtime does (models/CONTRACT.md, "Summary caption of a pair") and scored against the pair's
summary references from the data engine's manifest. Pairs in which the runtime detects nothing get
the summary "no visible change" (that is what the runtime would say). Metrics:
- cider (CIDEr-D x100), bleu4, rougeL: pair summaries vs the manifest's references;
- cider_ceiling: the references scored against each other (training/metrics.py);
- kind_accuracy: per model sample (region crop the runtime would feed to the model, noise-only regions
  excluded): argmax(kind_logits + kind_bias) == the crop's labelled kind, kind_bias being the layout
  kind prior of the checkpoint (kind_prior.pt, training/context.py; the split's crops.context.npy) as
  the runtime adds it; with --members (a kind committee, training/committee.py) the shipped row's kind logits are
  the committee's, as the runtime computes them with kind_members.onnx (the ablation rows stay single
  models); kind_accuracy_head: the region view's kind head (or committee) alone, without the prior;
- nochange_recall: per pair: of the pairs whose change records are all `none` (or empty), the
  fraction whose composed summary is "no visible change".
Ablation rows (same metrics, same pairs): static (stage 2 over [before, after], no stage 1), k1,
k2 (the shipped model) and explicit (the k2 model fed the top-k interpolated keyframes' features
instead of the procedure queries). A variant whose checkpoint does not exist is reported as not
measured (null), never estimated - or, with --ablation-from, copied from an earlier metrics.json of the
very same split (same pairs, model samples and reference ceiling) and marked carried_from: the
ablation checkpoints are fixed runs, so their rows stay valid for as long as the split does.
Interpolator: PSNR (dB) of the 7 recursive midpoint frames against the true frames, and of a linear
cross-fade, on the split's samples that have true frames.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

from . import config as C
from .checkpoint import load_trained
from .committee import MemberError, committee_logits, load_members
from .context import load_kind_prior
from .context import model_rows as model_rows_of
from .data import CropSet, DataError, read_jsonl, to_tensor
from .decode import beam_decode, greedy_decode
from .interpolate import crossfade_seven, interpolate_seven, psnr
from .metrics import (
    bleu4,
    cider_ceiling,
    cider_d,
    kind_accuracy,
    kind_accuracy_by_group,
    kind_breakdown,
    nochange_recall,
    region_group,
    rouge_l,
)
from .pair_consistency import contract_rule as pair_consistency_rule
from .pair_consistency import pair_consistent_logits
from .paths import portable_command, portable_path
from .sample import confidence_weights, top_keyframes

VARIANTS = ["static", "k1", "k2", "explicit"]
# (row name, checkpoint folder key, stage-2 variant, explicit keyframes?)


MAX_SUMMARY_CLAUSES = 3  # the runtime's MAX_SUMMARY_CLAUSES (src/core/pipeline.ts)


def compose_summary(region_captions: list[str]) -> str:
    """models/CONTRACT.md: distinct captions in region order, at most three, the rest counted."""
    parts: list[str] = []
    for c in region_captions:
        if c and c not in parts:
            parts.append(c)
    rest = len(parts) - MAX_SUMMARY_CLAUSES
    parts = parts[:MAX_SUMMARY_CLAUSES] + (
        ["one more change" if rest == 1 else f"{rest} more changes"] if rest > 0 else []
    )
    return " and ".join(parts) if parts else C.NO_CHANGE_CAPTION


def summary_captions(regions: list[tuple[int, str]]) -> list[str]:
    """Captions of the changed regions a summary is made of (models/CONTRACT.md): the first reflow
    region only when nothing else changed. regions: (kind index, caption) of the regions not
    predicted none."""
    causes = [c for k, c in regions if C.KINDS[k] != "reflow"]
    return causes if causes else [c for _, c in regions[:1]]


def earlier_stage2_rounds(folder: Path) -> list[dict]:
    """The stage-2 rounds a checkpoint folder's k2 run continued (--stage2-init), oldest first:
    stage2_rounds_before.json ({"round1": summary, ...}) or the older summary_round1.json."""
    rounds = folder / "stage2_rounds_before.json"
    if rounds.is_file():
        return list(json.loads(rounds.read_text()).values())
    r1 = folder / "summary_round1.json"
    return [json.loads(r1.read_text())["stage2_k2"]] if r1.is_file() else []


@torch.no_grad()
def run_variant(
    enc,
    dec,
    vocab,
    feats: torch.Tensor,
    pixels: torch.Tensor,
    explicit: torch.Tensor | None,
    batch: int = 128,
    beam: int = 1,
    kind_bias: torch.Tensor | None = None,
    context: torch.Tensor | None = None,
    members: list | None = None,
    consistency: tuple[list[str], list[bool], float, float] | None = None,
):
    """feats [N,2,36,64], pixels [N,2,3,96,96] -> (kinds [N], captions [N], head-only kinds [N]); beam 1 =
    greedy; kind_bias [N,14] (the layout kind prior's output) is added to the kind logits as the runtime does;
    context [N,55] the layout features the encoder sees (an encoder trained without them ignores them);
    members: the kind committee's encoders (training/committee.py), whose log-softmaxes are averaged with the
    head's before the prior is added; consistency (each sample's pair
    id, whether it joins, weight, floor): the contract's pair consistency applied last, as the runtime does
    (training/pair_consistency.py)."""
    caps, logits = [], []
    for lo in range(0, feats.shape[0], batch):
        f = feats[lo : lo + batch]
        px = pixels[lo : lo + batch]
        ex = None if explicit is None else explicit[lo : lo + batch]
        ctx = None if context is None else context[lo : lo + batch]
        _, memory, kind_logits, _ = enc.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], ex, context=ctx)
        if members:
            kind_logits = committee_logits(
                kind_logits, [m.stage2(f[:, 0], f[:, 1], px[:, 0], px[:, 1], ex, context=ctx)[2] for m in members]
            )
        logits.append(kind_logits)
        hyps = greedy_decode(dec, memory) if beam <= 1 else beam_decode(dec, memory, beam)
        caps += [vocab.decode(h) for h in hyps]
    region = torch.cat(logits)
    decided = region + (0 if kind_bias is None else kind_bias)
    if consistency is not None:
        decided = pair_consistent_logits(decided, *consistency)
    kinds = decided.argmax(-1)
    return kinds.tolist(), caps, region.argmax(-1).tolist()


def score(
    pair_ids: list[str],
    manifest: dict,
    rows: list[dict],
    kinds: list[int],
    caps: list[str],
    model_rows: list[int],
    ceiling: float,
) -> dict:
    """Pair-level caption metrics and kind metrics for one variant."""
    per_pair: dict[str, list[tuple[int, str]]] = OrderedDict((p, []) for p in pair_ids)
    for j, r in enumerate(model_rows):
        row = rows[r]
        if kinds[j] != C.NONE_KIND:
            per_pair[str(row["pair_id"])].append((kinds[j], caps[j]))
    summaries = [compose_summary(summary_captions(per_pair[p])) for p in pair_ids]
    refs = [manifest[p]["captions"] for p in pair_ids]
    truly_none = [all(ch.get("kind") == "none" for ch in manifest[p].get("changes", [])) for p in pair_ids]
    truth_kinds = [C.KINDS.index(rows[r]["kind"]) for r in model_rows]
    return {
        "cider": cider_d(summaries, refs),
        "cider_ceiling": ceiling,
        "bleu4": bleu4(summaries, refs),
        "rougeL": rouge_l(summaries, refs),
        "kind_accuracy": kind_accuracy(kinds, truth_kinds),
        "nochange_recall": nochange_recall([s == C.NO_CHANGE_CAPTION for s in summaries], truly_none),
        "region_nochange_recall": nochange_recall(
            [k == C.NONE_KIND for k in kinds], [t == C.NONE_KIND for t in truth_kinds]
        ),
        **kind_breakdown(kinds, truth_kinds, C.KINDS),
        "kind_accuracy_by_region": kind_accuracy_by_group(
            kinds,
            truth_kinds,
            [
                region_group(
                    rows[r]["box"],
                    [manifest[str(rows[r]["pair_id"])]["changes"][i] for i in rows[r].get("matched_changes", [])],
                    bool(rows[r].get("whole_screen")),
                )
                for r in model_rows
            ],
        ),
        "examples": [
            {"pair": p, "summary": s, "reference": r[0]}
            for p, s, r in list(zip(pair_ids, summaries, refs, strict=True))[:12]
        ],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--ckpt", required=True)
    ap.add_argument("--split", default="test")
    ap.add_argument("--out", default=str(C.MODELS_DIR / "metrics.json"))
    ap.add_argument("--max-pairs", type=int, default=None)
    ap.add_argument("--interp-samples", type=int, default=400)
    ap.add_argument(
        "--beam",
        type=int,
        default=C.DEFAULT_BEAM_WIDTH,
        help="caption decoding: beam width (default: the contract's default_beam_width, as the runtime); 1 = greedy",
    )
    ap.add_argument("--partial", action="store_true", help="use last periodic checkpoints of unfinished phases")
    ap.add_argument(
        "--ablation-ckpt",
        default=None,
        help="folder of the reduced-budget ablation runs (stage2_static/k1/k2 there); static and k1 "
        "rows come from it, and its k2 is reported as k2_reduced next to them",
    )
    ap.add_argument(
        "--members",
        action="append",
        default=[],
        help="a kind-committee member checkpoint (repeatable; training/committee.py): the shipped row (k2) "
        "averages their kind log-softmaxes with the head's, as the runtime does with kind_members.onnx",
    )
    ap.add_argument(
        "--ablation-from",
        default=None,
        help="an earlier metrics.json of the same split: ablation rows whose checkpoint is not here are "
        "copied from it, marked carried_from (only when its split, pair count, model samples and "
        "reference ceiling equal this split's)",
    )
    a = ap.parse_args(argv)
    torch.set_num_threads(2)
    t0 = time.time()
    split_dir = Path(a.data) / a.split
    try:
        ds = CropSet(split_dir)
        rows = read_jsonl(split_dir / "crops.jsonl")
        manifest = ds.manifest()
    except DataError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    pair_ids = list(manifest.keys())[: a.max_pairs] if a.max_pairs else list(manifest.keys())
    keep = set(pair_ids)
    # the samples the runtime feeds to the model: everything but noise-only regions and the "fallback"
    # crops of pairs where nothing was detected (the runtime runs no model there and says "no visible
    # change", as the docstring says; with this, npm run eval gives the same numbers - B2 runtime)
    model_rows = [i for i in model_rows_of(rows) if str(rows[i]["pair_id"]) in keep]
    vocab, tok, interp, enc2, dec2 = load_trained(Path(a.ckpt), "k2", a.partial)
    try:
        members = load_members(Path(a.ckpt), [Path(m) for m in a.members])
    except MemberError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    pairs = torch.stack([to_tensor(ds.pairs[rows[i]["index"]]) for i in model_rows])  # [N,2,3,96,96]
    n = pairs.shape[0]
    with torch.no_grad():
        f, _ = tok.encode(pairs.reshape(n * 2, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
    feats = f.reshape(n, 2, C.N_I, C.FEAT_DIM)
    print(f"evaluate: {len(pair_ids)} {a.split} pairs, {n} model samples ({time.time() - t0:.0f}s)", flush=True)

    # the layout kind prior of the shipped checkpoint, added to every variant's kind logits (the runtime's rule)
    # and the layout context the procedure encoder sees (contract v3)
    context_path = split_dir / "crops.context.npy"
    if not context_path.is_file():
        print(
            f"error: {context_path} missing: run `npm run --silent context -- --crops {split_dir / 'crops.jsonl'}`",
            file=sys.stderr,
        )
        return 2
    context = torch.from_numpy(np.load(context_path)[model_rows]).float()
    kind_bias = None
    if (Path(a.ckpt) / "kind_prior.pt").is_file():
        prior = load_kind_prior(Path(a.ckpt) / "kind_prior.pt")
        with torch.no_grad():
            kind_bias = prior(context)
    # the contract's pair consistency (training/pair_consistency.py), applied to every row as the runtime would
    rule = pair_consistency_rule()
    consistency = (
        None
        if rule is None
        else (
            [str(rows[r]["pair_id"]) for r in model_rows],
            [not rows[r].get("whole_screen") for r in model_rows],
            *rule,
        )
    )
    if rule is not None:
        print(f"evaluate: pair consistency weight {rule[0]}, floor {rule[1]}", flush=True)
    ceiling = cider_ceiling([manifest[p]["captions"] for p in pair_ids])
    results: dict[str, dict | None] = {}
    rows_plan = [
        ("static", "ablation", "static", False),
        ("k1", "ablation", "k1", False),
        ("k2", "main", "k2", False),
        ("explicit", "main", "k2", True),
    ]
    carried = {}
    if a.ablation_from:
        earlier = json.loads(Path(a.ablation_from).read_text())
        same = {"split": a.split, "count": len(pair_ids), "model_samples": n, "cider_ceiling": round(ceiling, 6)}
        theirs = {
            "split": earlier.get("split"),
            "count": earlier.get("count"),
            "model_samples": earlier.get("model_samples"),
            "cider_ceiling": round(earlier.get("cider_ceiling") or -1.0, 6),
        }
        if same != theirs:
            print(f"error: {a.ablation_from} was measured on another split ({theirs}, here {same})", file=sys.stderr)
            return 2
        carried = {
            v: r
            for v, r in earlier.get("ablation", {}).items()
            if r and r.get("measured", True) and v not in ("k2", "explicit")
        }
    if a.ablation_ckpt or "k2_reduced" in carried:
        rows_plan += [("k2_reduced", "reduced", "k2", False), ("explicit_reduced", "reduced", "k2", True)]
    # the reduced-budget rows exist only in an ablation folder (never the shipped checkpoint's k2)
    folders = {
        "main": Path(a.ckpt),
        "ablation": Path(a.ablation_ckpt) if a.ablation_ckpt else Path(a.ckpt),
        "reduced": Path(a.ablation_ckpt) if a.ablation_ckpt else None,
    }
    for variant, where, ckpt_variant, use_explicit in rows_plan:
        tv = time.time()
        folder = folders[where]
        if folder is None or not (folder / f"stage2_{ckpt_variant}.pt").is_file():
            if variant in carried:
                results[variant] = {**carried[variant], "carried_from": portable_path(a.ablation_from)}
                print(
                    f"evaluate: {variant}: no checkpoint here, carried from {a.ablation_from} (same split)", flush=True
                )
            else:
                results[variant] = None
                print(f"evaluate: {variant}: no stage2_{ckpt_variant}.pt in {folder}, not measured", flush=True)
            continue
        if where == "main" and ckpt_variant == "k2":
            enc, dec = enc2, dec2
        else:
            _, _, _, enc, dec = load_trained(folder, ckpt_variant)
        explicit = None
        if use_explicit:
            with torch.no_grad():
                mids = []
                for lo in range(0, n, 64):
                    p = pairs[lo : lo + 64]
                    seven = interpolate_seven(interp, p[:, 0], p[:, 1])  # [b,7,3,96,96]
                    fm, _ = tok.encode(seven.reshape(-1, 3, C.IMAGE_SIZE, C.IMAGE_SIZE))
                    fm = fm.reshape(p.shape[0], 7, C.N_I, C.FEAT_DIM)
                    w = confidence_weights(feats[lo : lo + 64, 0], fm, feats[lo : lo + 64, 1])
                    keys = top_keyframes(w, enc.k)
                    mids.append(fm[torch.arange(p.shape[0]).unsqueeze(1), keys])
                explicit = torch.cat(mids)
        # the kind committee votes on the shipped row only (the ablation rows are single models)
        voters = members if variant == "k2" else []
        kinds, caps, head_kinds = run_variant(
            enc,
            dec,
            vocab,
            feats,
            pairs,
            explicit,
            beam=a.beam,
            kind_bias=kind_bias,
            context=context,
            members=voters,
            consistency=consistency,
        )
        results[variant] = score(pair_ids, manifest, rows, kinds, caps, model_rows, ceiling)
        # the kind head alone, without the layout prior
        results[variant]["kind_accuracy_head"] = kind_accuracy(
            head_kinds, [C.KINDS.index(rows[r]["kind"]) for r in model_rows]
        )
        summ = folder / "summary.json"
        if summ.is_file():
            s2 = json.loads(summ.read_text()).get(f"stage2_{ckpt_variant}", {})
            results[variant]["training"] = {k: s2.get(k) for k in ("steps", "batch", "minutes_cap", "train_seconds")}
            before = earlier_stage2_rounds(folder) if ckpt_variant == "k2" else []
            if before:
                results[variant]["training"]["rounds_before"] = [
                    {k: r.get(k) for k in ("steps", "batch", "minutes_cap", "train_seconds")} for r in before
                ]
            results[variant]["checkpoint"] = portable_path(folder)
        r = results[variant]
        print(
            f"evaluate: {variant}: cider={r['cider']:.1f} (ceiling {ceiling:.1f}) bleu4={r['bleu4']:.3f} "
            f"rougeL={r['rougeL']:.3f} kind_acc={r['kind_accuracy']:.3f} nochange_recall={r['nochange_recall']:.3f} "
            f"({time.time() - tv:.0f}s)",
            flush=True,
        )

    # interpolator vs cross-fade on samples with true frames
    with_frames = [i for i, s in enumerate(ds.samples) if s.frames_row >= 0 and s.pair_id in keep][: a.interp_samples]
    p_model, p_fade = [], []
    sq_model, sq_fade, values = 0.0, 0.0, 0
    with torch.no_grad():
        for lo in range(0, len(with_frames), 32):
            idx = with_frames[lo : lo + 32]
            pr = torch.stack([to_tensor(ds.images(i)) for i in idx])
            truth = torch.stack([to_tensor(ds.true_frames(i)) for i in idx])
            mid, fade = interpolate_seven(interp, pr[:, 0], pr[:, 1]), crossfade_seven(pr[:, 0], pr[:, 1])
            p_model.append(psnr(mid, truth).flatten())
            p_fade.append(psnr(fade, truth).flatten())
            sq_model += float(((mid - truth) ** 2).sum())
            sq_fade += float(((fade - truth) ** 2).sum())
            values += truth.numel()
    # "psnr": mean of the per-frame PSNRs (the figure; frames of colour changes sit near the
    # 60 dB cap and weigh as much as frames of moves); "*_pooled": PSNR of the mean squared error over
    # all frames, which weighs every pixel error the same
    interp_res = {
        "psnr": float(torch.cat(p_model).mean()) if p_model else None,
        "crossfade_psnr": float(torch.cat(p_fade).mean()) if p_fade else None,
        "psnr_pooled": float(-10 * np.log10(sq_model / values)) if values and sq_model > 0 else None,
        "crossfade_psnr_pooled": float(-10 * np.log10(sq_fade / values)) if values and sq_fade > 0 else None,
        "samples": len(with_frames),
        "frames": 7 * len(with_frames),
    }
    # per change kind (mean over each kind's crops of the 7 frames' PSNRs): where motion helps or hurts
    if p_model:
        frame_model, frame_fade = torch.cat(p_model).view(-1, 7).mean(1), torch.cat(p_fade).view(-1, 7).mean(1)
        kinds_of = [C.KINDS[ds.samples[i].kind] for i in with_frames]
        interp_res["per_kind"] = {
            k: {
                "samples": kinds_of.count(k),
                "psnr": float(frame_model[[j for j, x in enumerate(kinds_of) if x == k]].mean()),
                "crossfade_psnr": float(frame_fade[[j for j, x in enumerate(kinds_of) if x == k]].mean()),
            }
            for k in sorted(set(kinds_of))
        }
    print(
        f"evaluate: interpolator psnr={interp_res['psnr']} crossfade={interp_res['crossfade_psnr']} "
        f"(pooled: {interp_res['psnr_pooled']} vs {interp_res['crossfade_psnr_pooled']}) "
        f"on {len(with_frames)} samples x 7 frames",
        flush=True,
    )

    main_res = results["k2"]
    if main_res is None:
        print("error: the shipped variant k2 has no checkpoint", file=sys.stderr)
        return 2
    names = ["cider", "cider_ceiling", "bleu4", "rougeL", "kind_accuracy", "nochange_recall"]
    if kind_bias is not None:
        names.append("kind_accuracy_head")
    metrics = {
        "split": a.split,
        "count": len(pair_ids),
        **{k: main_res[k] for k in names},
        "beam_width": a.beam,
        "region_nochange_recall": main_res["region_nochange_recall"],
        "per_kind_accuracy": main_res["per_kind_accuracy"],
        "kind_confusion": main_res["kind_confusion"],
        "kind_accuracy_by_region": main_res["kind_accuracy_by_region"],
        "model_samples": n,
        "kind_members": [portable_path(m) for m in a.members],
        "nochange_pairs": sum(all(ch.get("kind") == "none" for ch in manifest[p].get("changes", [])) for p in pair_ids),
        "ablation": {
            v: (
                {
                    **{k: results[v][k] for k in names},
                    **{k: results[v][k] for k in ("training", "checkpoint", "carried_from") if k in results[v]},
                }
                if results.get(v)
                else {**{k: None for k in names}, "measured": False}
            )
            for v in results
        },
        "interpolator": interp_res,
        "examples": main_res["examples"],
        "checkpoint": portable_path(a.ckpt),
        "seconds": round(time.time() - t0, 1),
        "command": "python3 -m training.evaluate " + portable_command(argv if argv is not None else sys.argv[1:]),
    }
    Path(a.out).write_text(json.dumps(metrics, indent=1) + "\n")
    print(f"wrote {a.out} in {time.time() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
