"""Gradient-boosted decision trees for the kind prior (softmax loss, one multi-output tree per round).

  forest = fit_forest(x, y, n_classes, TreeConfig(rounds=300, depth=6), log=print)
  log_probs = log_softmax(forest.raw(x))

Why trees: the prior reads 55 hand-made layout numbers (src/core/context.ts) whose useful cuts are sharp
(a box that kept its size, a change above the region or not); boosted trees take such cuts directly where
a small MLP has to learn them. Each round fits one tree whose leaves hold a value per class (the Newton
step -G/(H + lambda) of the softmax loss, summed over the leaf's rows), grown level by level on features
cut into at most `bins` quantile bins; the split of a node is the one that most lowers the loss summed
over classes. Rows and features are subsampled per tree (seeded). Histograms are one sparse product per
level, so a round over ~60k rows takes about a second on 2 cores.

The forest is exported as ONNX TreeEnsembleRegressor (ai.onnx.ml) by training/export.py; `raw` here is
the same sum, so the Python evaluation and the runtime read the same numbers.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import torch


@dataclass
class TreeConfig:
    rounds: int = 300
    depth: int = 6
    learning_rate: float = 0.1
    l2: float = 1.0                 # lambda of the leaf values
    min_hessian: float = 1.0        # smallest summed hessian (over classes) of a child
    bins: int = 64
    row_fraction: float = 0.7
    feature_fraction: float = 0.8
    seed: int = 1234


@dataclass
class Forest:
    """Trees as flat node arrays. Node n of tree t: feature[t][n] (-1 for a leaf), threshold (go left when
    x[feature] <= threshold), left/right child ids, value [K] (leaves; already scaled by the learning rate)."""
    n_features: int
    n_classes: int
    base: np.ndarray                                   # [K] start scores (log class frequencies)
    feature: list[np.ndarray] = field(default_factory=list)
    threshold: list[np.ndarray] = field(default_factory=list)
    left: list[np.ndarray] = field(default_factory=list)
    right: list[np.ndarray] = field(default_factory=list)
    value: list[np.ndarray] = field(default_factory=list)
    config: dict = field(default_factory=dict)

    def tree_raw(self, t: int, x: np.ndarray) -> np.ndarray:
        node = np.zeros(len(x), dtype=np.int64)
        feature, threshold, left, right = self.feature[t], self.threshold[t], self.left[t], self.right[t]
        while True:
            f = feature[node]
            inner = np.flatnonzero(f >= 0)
            if not len(inner):
                return self.value[t][node]
            n = node[inner]
            go_left = x[inner, f[inner]] <= threshold[n]
            node[inner] = np.where(go_left, left[n], right[n])

    def raw(self, x: np.ndarray) -> np.ndarray:
        """x [N, n_features] float32 -> scores [N, K] (float64): base + the sum of every tree's leaf."""
        x = np.asarray(x, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.n_features:
            raise ValueError(f"forest expects [N, {self.n_features}] features, got {list(x.shape)}")
        out = np.tile(self.base.astype(np.float64), (len(x), 1))
        for t in range(len(self.feature)):
            out += self.tree_raw(t, x)
        return out

    def state(self) -> dict:
        return {"n_features": self.n_features, "n_classes": self.n_classes, "base": self.base,
                "feature": self.feature, "threshold": self.threshold, "left": self.left, "right": self.right,
                "value": self.value, "config": self.config}

    @classmethod
    def from_state(cls, s: dict) -> "Forest":
        return cls(s["n_features"], s["n_classes"], np.asarray(s["base"]), [np.asarray(a) for a in s["feature"]],
                   [np.asarray(a, dtype=np.float32) for a in s["threshold"]], [np.asarray(a) for a in s["left"]],
                   [np.asarray(a) for a in s["right"]], [np.asarray(a) for a in s["value"]], dict(s.get("config", {})))


def bin_edges(x: np.ndarray, bins: int, rng: np.random.Generator, sample: int = 200_000) -> list[np.ndarray]:
    """Per feature, at most bins - 1 cut values taken from the data (quantiles of a row sample)."""
    xs = x if len(x) <= sample else x[rng.choice(len(x), sample, replace=False)]
    edges = []
    for f in range(x.shape[1]):
        distinct = np.unique(xs[:, f])
        if len(distinct) <= bins:
            cuts = distinct[:-1]
        else:
            cuts = np.unique(np.quantile(xs[:, f], np.linspace(0, 1, bins + 1)[1:-1], method="lower"))
        edges.append(cuts.astype(np.float32))
    return edges


def to_bins(x: np.ndarray, edges: list[np.ndarray]) -> np.ndarray:
    """Bin b of a value v: the first cut >= v (so bin <= b exactly when v <= edges[b])."""
    return np.stack([np.searchsorted(e, x[:, f].astype(np.float32), side="left") for f, e in enumerate(edges)], 1)


def fit_forest(x: np.ndarray, y: np.ndarray, n_classes: int, cfg: TreeConfig, eval_sets=(), log=None,
               log_every: int = 50, offset: np.ndarray | None = None) -> Forest:
    """x [N, F] float32, y [N] class ids -> Forest. eval_sets: (x, y) or (x, y, offset) whose accuracy is
    logged. offset [N, K]: scores the forest adds to (another model's log-probabilities); the forest then
    starts from zero and learns a correction, so its raw() is to be added to the same offset."""
    x = np.asarray(x, dtype=np.float32)
    rng = np.random.default_rng(cfg.seed)
    edges = bin_edges(x, cfg.bins, rng)
    nb = max(len(e) for e in edges) + 1
    n_cuts = torch.tensor([len(e) for e in edges])
    bins = torch.from_numpy(to_bins(x, edges))
    N, F_ = bins.shape
    K = n_classes
    onehot = torch.nn.functional.one_hot(torch.from_numpy(np.asarray(y, dtype=np.int64)), K).double()
    # float32 like the ONNX attributes, so that Python and the runtime add the same numbers
    if offset is None:
        base = ((onehot.sum(0) + 1) / (N + K)).log().numpy().astype(np.float32)
    elif np.shape(offset) != (N, K):
        raise ValueError(f"offset must be [N, K] = [{N}, {K}] scores, got {list(np.shape(offset))}")
    else:
        base = np.zeros(K, dtype=np.float32)
    forest = Forest(F_, K, base, config=asdict(cfg))
    start = lambda n, off: np.tile(base, (n, 1)).astype(np.float64) + (0.0 if off is None else np.asarray(off, dtype=np.float64))
    scores = torch.from_numpy(start(N, offset))
    evals = [(np.asarray(e[0], dtype=np.float32), np.asarray(e[1]), start(len(e[0]), e[2] if len(e) > 2 else None))
             for e in eval_sets]
    lam = cfg.l2
    for r in range(cfg.rounds):
        p = torch.softmax(scores, 1)
        gh = torch.cat([p - onehot, (p * (1 - p)).clamp_min(1e-6)], 1)        # [N, 2K] gradients, hessians
        rows = torch.from_numpy(np.flatnonzero(rng.random(N) < cfg.row_fraction))
        cols = torch.from_numpy(np.sort(rng.choice(F_, max(1, int(round(cfg.feature_fraction * F_))), replace=False)))
        gh_r, bins_r = gh[rows], bins[rows][:, cols]
        Fc = len(cols)
        node = torch.zeros(len(rows), dtype=torch.int64)                      # node id of each sampled row
        feature, threshold, left, right, stats = [-1], [0.0], [0], [0], {0: gh_r.sum(0)}
        frontier = [0]
        for _ in range(cfg.depth):
            if not frontier:
                break
            slot = torch.full((len(feature),), -1, dtype=torch.int64)
            slot[torch.tensor(frontier)] = torch.arange(len(frontier))
            at = slot[node]
            M = len(frontier)
            # histograms of every frontier node x feature x bin: one sparse product over the rows still
            # in a frontier node (rows of a node that did not split stay in that leaf)
            active = torch.nonzero(at >= 0).squeeze(1)
            cell = (at[active].unsqueeze(1) * (Fc * nb) + torch.arange(Fc).unsqueeze(0) * nb + bins_r[active]).reshape(-1)
            member = torch.sparse_coo_tensor(torch.stack([cell, torch.arange(len(active)).repeat_interleave(Fc)]),
                                             torch.ones(len(cell)), (M * Fc * nb, len(active)))
            hist = torch.sparse.mm(member, gh_r[active].float()).double().reshape(M, Fc, nb, 2 * K)
            left_sum = hist.cumsum(2)
            total = left_sum[:, :, -1:, :]
            score = lambda s: (s[..., :K] ** 2 / (s[..., K:] + lam)).sum(-1)
            gain = score(left_sum) + score(total - left_sum) - score(total)
            valid = ((left_sum[..., K:].sum(-1) >= cfg.min_hessian) & ((total - left_sum)[..., K:].sum(-1) >= cfg.min_hessian)
                     & (torch.arange(nb).view(1, 1, nb) < n_cuts[cols].view(1, Fc, 1)))
            gain = torch.where(valid, gain, torch.full_like(gain, -1.0)).reshape(M, -1)
            best, arg = gain.max(1)
            next_frontier = []
            for i, n in enumerate(frontier):
                if float(best[i]) <= 1e-9:
                    continue
                c, b = divmod(int(arg[i]), nb)
                f = int(cols[c])
                li, ri = len(feature), len(feature) + 1
                feature += [-1, -1]; threshold += [0.0, 0.0]; left += [0, 0]; right += [0, 0]
                feature[n], threshold[n], left[n], right[n] = f, float(edges[f][b]), li, ri
                here = at == i
                goes_left = bins_r[:, c] <= b
                node[here & goes_left] = li
                node[here & ~goes_left] = ri
                stats[li] = left_sum[i, c, b]
                stats[ri] = total[i, c, 0] - left_sum[i, c, b]
                next_frontier += [li, ri]
            frontier = next_frontier
        value = np.zeros((len(feature), K))
        for n, s in stats.items():
            if feature[n] < 0:
                value[n] = cfg.learning_rate * (-s[:K] / (s[K:] + lam)).numpy()
        forest.feature.append(np.array(feature, dtype=np.int64))
        forest.threshold.append(np.array(threshold, dtype=np.float32))
        forest.left.append(np.array(left, dtype=np.int64))
        forest.right.append(np.array(right, dtype=np.int64))
        forest.value.append(value.astype(np.float32))
        t = len(forest.feature) - 1
        scores += torch.from_numpy(forest.tree_raw(t, x))
        for ex, _, es in evals:
            es += forest.tree_raw(t, ex)
        if log and ((r + 1) % log_every == 0 or r + 1 == cfg.rounds):
            msg = f"trees round {r + 1}/{cfg.rounds}: train accuracy {float((scores.argmax(1).numpy() == y).mean()):.4f}"
            for i, (_, ey, es) in enumerate(evals):
                msg += f", held-out {i} {float((es.argmax(1) == ey).mean()):.4f}"
            log(msg)
    return forest
