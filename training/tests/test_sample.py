import math

import torch

from training.sample import confidence_weights, sample_keyframes, similarity, top_keyframes


def test_weights_follow_the_formula():
    torch.manual_seed(0)
    before, after = torch.randn(1, 36, 64), torch.randn(1, 36, 64)
    frames = torch.stack([before[0] * (1 - t) + after[0] * t for t in [j / 8 for j in range(1, 8)]]).unsqueeze(0)
    w = confidence_weights(before, frames, after)
    sb = [float(similarity(before[0], frames[0, j])) for j in range(7)]
    sa = [float(similarity(after[0], frames[0, j])) for j in range(7)]
    sq = [(b - a) ** 2 for b, a in zip(sb, sa, strict=True)]
    z = sum(math.exp(x) for x in sq)
    expect = [1 - math.exp(x) / z for x in sq]
    assert torch.allclose(w[0], torch.tensor(expect), atol=1e-6)
    # the frame closest to the semantic midpoint gets the largest weight
    assert int(w[0].argmax()) == 3


def test_top_k_is_in_time_order_and_ties_go_earlier():
    w = torch.tensor([[0.1, 0.9, 0.2, 0.9, 0.9, 0.3, 0.0]])
    assert top_keyframes(w, 2).tolist() == [[1, 3]]
    assert top_keyframes(torch.tensor([[0.5, 0.1, 0.8, 0.1, 0.1, 0.9, 0.1]]), 2).tolist() == [[2, 5]]


def test_sampling_without_replacement_sorted():
    g = torch.Generator().manual_seed(0)
    w = torch.rand(200, 7)
    picks = sample_keyframes(w, 2, g)
    assert (picks[:, 0] < picks[:, 1]).all()
    # a frame with (almost) zero weight is (almost) never drawn
    w2 = torch.tensor([[1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]]).repeat(50, 1)
    assert sample_keyframes(w2, 2, g).tolist() == [[0, 1]] * 50
