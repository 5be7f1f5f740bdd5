"""Pair consistency (training/pair_consistency.py): the worked numbers test/unit/pair-consistency.test.ts checks too."""

import pytest
import torch

from training.pair_consistency import contract_rule, pair_consistent_logits

# pair "a": two regions and a whole-screen row; pair "b": one region. weight 1, floor 0.5.
# row 0: log_softmax([2,0,0]) = [-0.2395, -2.2395, -2.2395]; the other region's probabilities
# softmax([0,1,0]) = [0.2119, 0.5761, 0.2119]; + log(p + 0.5) = [-0.3398, +0.0734, -0.3398].
WORKED_IN = [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 5.0], [1.0, 1.0, 1.0]]
WORKED_OUT = [[-0.5793, -2.1662, -2.5793], [-1.2991, -1.0515, -2.0515], [0.0, 0.0, 5.0], [1.0, 1.0, 1.0]]


def test_worked_numbers():
    out = pair_consistent_logits(torch.tensor(WORKED_IN), ["a", "a", "a", "b"], [True, True, False, True], 1.0, 0.5)
    assert torch.allclose(out, torch.tensor(WORKED_OUT), atol=1e-4)


def test_a_clear_sibling_decides_an_unclear_region():
    z = torch.tensor([[0.1, 0.0, 0.0], [0.0, 5.0, 0.0]])
    assert z.argmax(1).tolist() == [0, 1]
    assert pair_consistent_logits(z, ["a", "a"], [True, True], 0.3, 0.001).argmax(1).tolist() == [1, 1]
    # another pair's region does not count
    assert pair_consistent_logits(z, ["a", "b"], [True, True], 0.3, 0.001).argmax(1).tolist() == [0, 1]
    # weight 0: unchanged
    assert torch.equal(pair_consistent_logits(z, ["a", "a"], [True, True], 0.0, 0.001), z)


def test_contract_rule():
    assert contract_rule({}) is None
    assert contract_rule({"pair_consistency": {"weight": 0, "floor": 0.001}}) is None
    assert contract_rule({"pair_consistency": {"weight": 0.3, "floor": 0.001}}) == (0.3, 0.001)
    with pytest.raises(ValueError, match="floor"):
        contract_rule({"pair_consistency": {"weight": 0.3, "floor": 0}})
    with pytest.raises(ValueError, match="rows"):
        pair_consistent_logits(torch.zeros(2, 3), ["a"], [True, True], 0.3, 0.001)
