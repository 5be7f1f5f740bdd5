"""Pair consistency of change kinds (models/contract.json "pair_consistency"; the runtime:
src/core/pair-consistency.ts, the same rule and the same worked numbers in both test suites).

The regions of one screenshot pair often come from one change (a padding change shows up as several shifted
blocks, a move as the old and the new place). Each region's kind log-probabilities get
weight * log(mean of the pair's other regions' kind probabilities + floor); a region alone in its pair, and
the whole-screen sample, are left as they are.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from . import config as C


def contract_rule(contract: dict | None = None) -> tuple[float, float] | None:
    """(weight, floor) of the contract's rule (default: the repository's models/contract.json), or None when
    it has none or its weight is 0."""
    p = (C.CONTRACT if contract is None else contract).get("pair_consistency")
    if not p or not float(p.get("weight", 0)) > 0:
        return None
    if not float(p.get("floor", 0)) > 0:
        raise ValueError(f"contract pair_consistency: floor must be above 0 (it is {p.get('floor')})")
    return float(p["weight"]), float(p["floor"])


def pair_consistent_logits(
    logits: torch.Tensor, pair_ids: list[str], joins: list[bool], weight: float, floor: float
) -> torch.Tensor:
    """logits [N,K] fused kind logits of samples from any number of pairs; pair_ids[i] names sample i's pair,
    joins[i] whether it takes part (False for the whole-screen sample). Returns [N,K]: for a joining sample
    with another joining sample in its pair, log_softmax(z_i) + weight * log(mean over those others of
    softmax(z_j) + floor); every other row unchanged."""
    if logits.shape[0] != len(pair_ids) or len(pair_ids) != len(joins):
        raise ValueError(f"pair consistency: {logits.shape[0]} rows, {len(pair_ids)} pair ids, {len(joins)} joins")
    out = logits.clone().float()
    if weight <= 0:
        return out
    groups: dict[str, list[int]] = {}
    for i, (p, j) in enumerate(zip(pair_ids, joins, strict=True)):
        if j:
            groups.setdefault(p, []).append(i)
    for rows in groups.values():
        if len(rows) < 2:
            continue
        idx = torch.tensor(rows)
        lp = F.log_softmax(logits[idx].double(), -1)
        probs = lp.exp()
        others = (probs.sum(0, keepdim=True) - probs) / (len(rows) - 1)
        out[idx] = (lp + weight * torch.log(others.clamp_min(0) + floor)).float()
    return out
