"""Caption metrics, following the coco-caption definitions (the TypeScript side implements the same):

- BLEU-4: corpus-level, clipped n-gram precisions 1..4, geometric mean, brevity penalty against the
  reference length closest to each candidate's length (coco's "closest"); coco's smoothing constants
  (tiny=1e-15 in numerators, small=1e-9 in denominators).
- ROUGE-L: per pair, LCS-based precision and recall each maximised over the references, then
  F = (1+b^2) P R / (R + b^2 P) with b = 1.2; mean over pairs.
- CIDEr-D: n = 1..4, TF-IDF n-gram vectors with document frequencies over the references of the
  evaluated set (log of the number of pairs as the IDF base), candidate counts clipped by the
  reference's, cosine per n, Gaussian length penalty exp(-(l_c - l_r)^2 / (2*6^2)) where the length is
  the number of bigrams (as coco's code counts it), averaged over n and over references, times 10;
  mean over pairs; reported x100 as papers do.
Captions are compared as lower-case whitespace-separated words.
"""

from __future__ import annotations

import math
from collections import Counter


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _all_ngrams(tokens: list[str], max_n: int = 4) -> Counter:
    c: Counter = Counter()
    for n in range(1, max_n + 1):
        c.update(_ngrams(tokens, n))
    return c


def _tok(s: str) -> list[str]:
    return s.lower().split()


def bleu4(candidates: list[str], references: list[list[str]]) -> float:
    """Corpus BLEU-4 in [0,1]."""
    tiny, small = 1e-15, 1e-9
    correct, total = [0] * 4, [0] * 4
    cand_len = ref_len = 0
    for cand, refs in zip(candidates, references, strict=True):
        c = _tok(cand)
        rs = [_tok(r) for r in refs]
        cand_len += len(c)
        ref_len += min((abs(len(r) - len(c)), len(r)) for r in rs)[1]
        for n in range(1, 5):
            cc = _ngrams(c, n)
            max_ref: Counter = Counter()
            for r in rs:
                for g, k in _ngrams(r, n).items():
                    max_ref[g] = max(max_ref[g], k)
            correct[n - 1] += sum(min(k, max_ref[g]) for g, k in cc.items())
            total[n - 1] += max(len(c) - n + 1, 0)
    log_p = sum(math.log((correct[i] + tiny) / (total[i] + small)) for i in range(4)) / 4
    score = math.exp(log_p)
    ratio = (cand_len + tiny) / (ref_len + small)
    if ratio < 1:
        score *= math.exp(1 - 1 / ratio)
    return score


def _lcs(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def rouge_l_single(candidate: str, refs: list[str], beta: float = 1.2) -> float:
    c = _tok(candidate)
    if not c:
        return 0.0
    precs, recs = [], []
    for r in refs:
        rt = _tok(r)
        lcs = _lcs(c, rt)
        precs.append(lcs / len(c))
        recs.append(lcs / len(rt) if rt else 0.0)
    p, r = max(precs), max(recs)
    if p == 0 or r == 0:
        return 0.0
    return ((1 + beta**2) * p * r) / (r + beta**2 * p)


def rouge_l(candidates: list[str], references: list[list[str]]) -> float:
    return sum(rouge_l_single(c, r) for c, r in zip(candidates, references, strict=True)) / max(len(candidates), 1)


def cider_d_scores(candidates: list[str], references: list[list[str]], sigma: float = 6.0) -> list[float]:
    """Per-pair CIDEr-D (coco scale, i.e. not yet x100)."""
    ref_counts = [[_all_ngrams(_tok(r)) for r in refs] for refs in references]
    df: Counter = Counter()
    for refs in ref_counts:
        df.update(set(g for rc in refs for g in rc))
    log_n = math.log(float(len(references))) if references else 0.0

    def vec(counts: Counter):
        v = [dict() for _ in range(4)]
        norm = [0.0] * 4
        length = 0
        for g, tf in counts.items():
            n = len(g) - 1
            w = float(tf) * (log_n - math.log(max(1.0, df[g])))
            v[n][g] = w
            norm[n] += w * w
            if n == 1:
                length += tf
        return v, [math.sqrt(x) for x in norm], length

    scores = []
    for cand, refs in zip(candidates, ref_counts, strict=True):
        vc, nc, lc = vec(_all_ngrams(_tok(cand)))
        total = [0.0] * 4
        for rc in refs:
            vr, nr, lr = vec(rc)
            penalty = math.exp(-((lc - lr) ** 2) / (2 * sigma**2))
            for n in range(4):
                val = sum(min(w, vr[n].get(g, 0.0)) * vr[n].get(g, 0.0) for g, w in vc[n].items())
                if nc[n] != 0 and nr[n] != 0:
                    val /= nc[n] * nr[n]
                total[n] += val * penalty
        scores.append(10.0 * (sum(total) / 4) / max(len(refs), 1))
    return scores


def cider_d(candidates: list[str], references: list[list[str]]) -> float:
    """Corpus CIDEr-D x100 (as papers report it)."""
    s = cider_d_scores(candidates, references)
    return 100.0 * sum(s) / max(len(s), 1)


def cider_ceiling(references: list[list[str]]) -> float:
    """The references' own CIDEr-D x100: in round j each pair's j-th reference (cyclically, for pairs
    with fewer) is scored against the pair's other references; the mean over rounds. Pairs need >= 2."""
    usable = [r for r in references if len(r) >= 2]
    if not usable:
        return 0.0
    rounds = max(len(r) for r in usable)
    results = []
    for j in range(rounds):
        cands = [r[j % len(r)] for r in usable]
        others = [r[: j % len(r)] + r[j % len(r) + 1 :] for r in usable]
        results.append(cider_d(cands, others))
    return sum(results) / rounds


def kind_accuracy(predicted: list[int], truth: list[int]) -> float:
    return sum(int(p == t) for p, t in zip(predicted, truth, strict=True)) / max(len(truth), 1)


def kind_breakdown(predicted: list[int], truth: list[int], names: list[str]) -> dict:
    """Per labelled kind: its count and accuracy; and the mistakes under their labelled kind, most frequent
    first ({"resize": {"reflow": 9, ...}}) - the same fields as `npm run eval` (src/lab/eval.ts)."""
    per: dict[str, list[int]] = {}
    confusion: dict[str, Counter] = {}
    for p, t in zip(predicted, truth, strict=True):
        cell = per.setdefault(names[t], [0, 0])
        cell[0] += 1
        if p == t:
            cell[1] += 1
        else:
            confusion.setdefault(names[t], Counter())[names[p]] += 1
    return {
        "per_kind_accuracy": {k: {"count": n, "accuracy": round(ok / n, 4)} for k, (n, ok) in sorted(per.items())},
        "kind_confusion": {
            k: dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))) for k, c in sorted(confusion.items())
        },
    }


# What a model sample holds, by the data engine's change records it matched (the same groups and rule as
# `npm run eval`'s kind_accuracy_by_region, src/lab/eval.ts regionGroup): the kind head errs most on merged regions.
REGION_GROUPS = ("one_change", "change_and_pushed", "several_changes", "no_change_record", "whole_screen")
PUSHED_AREA_FACTOR = 3


def region_group(box: list[float], matched: list[dict], whole_screen: bool = False) -> str:
    """The REGION_GROUPS group of a sample with region `box` that matched the change records `matched`: one
    change is change_and_pushed when the region's area is over PUSHED_AREA_FACTOR times that of the change's
    before and after boxes together."""
    if whole_screen:
        return "whole_screen"
    if not matched:
        return "no_change_record"
    if len(matched) > 1:
        return "several_changes"
    # the boxes the matching reads (src/lab/crops.ts isBox: four numbers, not empty)
    boxes = [
        b
        for b in (matched[0].get("bbox_before"), matched[0].get("bbox_after"))
        if isinstance(b, list) and len(b) == 4 and b[2] > b[0] and b[3] > b[1]
    ]
    if not boxes:
        return "one_change"

    def area(b):
        return max(0, b[2] - b[0]) * max(0, b[3] - b[1])

    union = [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)]
    return "change_and_pushed" if area(box) > PUSHED_AREA_FACTOR * area(union) else "one_change"


def kind_accuracy_by_group(predicted: list[int], truth: list[int], groups: list[str]) -> dict:
    """Count and kind accuracy per group, in REGION_GROUPS order (groups with no sample left out)."""
    cells = {g: [0, 0] for g in REGION_GROUPS}
    for p, t, g in zip(predicted, truth, groups, strict=True):
        cells[g][0] += 1
        cells[g][1] += int(p == t)
    return {g: {"count": n, "accuracy": round(ok / n, 4)} for g, (n, ok) in cells.items() if n}


def nochange_recall(predicted_none: list[bool], truly_none: list[bool]) -> float:
    """Of the items that truly have no change, the fraction predicted as no change (nan if none)."""
    hits = [p for p, t in zip(predicted_none, truly_none, strict=True) if t]
    return sum(hits) / len(hits) if hits else float("nan")


def caption_metrics(candidates: list[str], references: list[list[str]]) -> dict:
    return {
        "cider": cider_d(candidates, references),
        "bleu4": bleu4(candidates, references),
        "rougeL": rouge_l(candidates, references),
    }
