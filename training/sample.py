"""Confidence-based keyframe sampling (ProCap 3.1.2), on backbone (tokenizer encoder) features.

s(A, B) = mean over the n_I patches of the cosine similarity of A's and B's features;
w_j = 1 - softmax_j((s(before, P_j) - s(after, P_j))^2) over the 7 intermediate frames.
Frames equidistant from both ends (the semantic midpoint of the change) get the largest w.
Training draws k keyframes without replacement with probabilities proportional to w and keeps them in
time order; inference takes the top-k by w (ties -> earlier frame), in time order.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def similarity(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """a, b [..., n_I, C] -> [...]: mean patch cosine similarity."""
    return F.cosine_similarity(a, b, dim=-1, eps=1e-8).mean(-1)


def confidence_weights(before: torch.Tensor, frames: torch.Tensor, after: torch.Tensor) -> torch.Tensor:
    """before/after [B,n_I,C], frames [B,7,n_I,C] -> w [B,7]."""
    s_before = similarity(before.unsqueeze(1), frames)
    s_after = similarity(after.unsqueeze(1), frames)
    return 1.0 - torch.softmax((s_before - s_after) ** 2, dim=-1)


def sample_keyframes(weights: torch.Tensor, k: int, generator: torch.Generator | None = None) -> torch.Tensor:
    """Training: k indices per row drawn without replacement proportionally to w, sorted in time."""
    probs = weights.clamp_min(1e-6)
    picks = torch.multinomial(probs, k, replacement=False, generator=generator)
    return picks.sort(dim=-1).values


def top_keyframes(weights: torch.Tensor, k: int) -> torch.Tensor:
    """Inference: the k largest w (stable: the earlier frame wins a tie), in time order."""
    # a stable descending sort keeps equal weights in index order: ties favour the earlier frame
    picks = torch.sort(weights, dim=-1, descending=True, stable=True).indices[..., :k]
    return picks.sort(dim=-1).values
