import numpy as np
import pytest
import torch

from training.context import TreeKindPrior, load_kind_prior
from training.trees import Forest, TreeConfig, bin_edges, fit_forest, to_bins


def _three_classes(n: int, seed: int):
    """Class from sharp cuts on two of five features (the others are noise)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 5)).astype(np.float32)
    y = np.where(x[:, 1] > 0.5, 2, np.where(x[:, 3] <= -0.2, 1, 0))
    return x, y


def test_bins_match_the_cut_values():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(500, 3)).astype(np.float32)
    x[:, 2] = np.round(x[:, 2])                     # few distinct values
    edges = bin_edges(x, 16, rng)
    b = to_bins(x, edges)
    for f, e in enumerate(edges):
        assert len(e) <= 15
        for k in range(len(e)):
            assert np.array_equal(b[:, f] <= k, x[:, f] <= e[k])


def test_boosting_learns_sharp_cuts_it_did_not_see():
    x, y = _three_classes(3000, 1)
    xt, yt = _three_classes(1000, 2)
    forest = fit_forest(x, y, 3, TreeConfig(rounds=40, depth=3, seed=5))
    assert (forest.raw(xt).argmax(1) == yt).mean() > 0.97
    # a base-only forest is chance at best: the trees did the work
    assert (np.tile(forest.base, (len(yt), 1)).argmax(1) == yt).mean() < 0.6


def test_forest_is_seeded_and_survives_saving(tmp_path):
    x, y = _three_classes(800, 3)
    a = fit_forest(x, y, 3, TreeConfig(rounds=5, depth=3, seed=9))
    b = fit_forest(x, y, 3, TreeConfig(rounds=5, depth=3, seed=9))
    assert np.array_equal(a.raw(x), b.raw(x))
    prior = TreeKindPrior(a, torch.zeros(5), torch.ones(5), weight=1.5)
    torch.save(prior.payload({"note": "test"}), tmp_path / "kind_prior.pt")
    back = load_kind_prior(tmp_path / "kind_prior.pt")
    assert isinstance(back, TreeKindPrior) and float(back.weight) == 1.5
    xt = torch.from_numpy(x[:50])
    assert torch.equal(back(xt), prior(xt))
    # kind_bias = weight x log-probabilities: each row's probabilities sum to one
    assert torch.allclose((back(xt) / 1.5).exp().sum(1), torch.ones(50), atol=1e-5)


def test_onnx_graph_holds_every_leaf():
    x, y = _three_classes(400, 4)
    forest = fit_forest(x, y, 3, TreeConfig(rounds=3, depth=2, seed=1))
    model = TreeKindPrior(forest, torch.zeros(5), torch.ones(5), 2.0).onnx_model(17)
    node = model.graph.node[0]
    attrs = {a.name: a for a in node.attribute}
    leaves = sum(int((f < 0).sum()) for f in forest.feature)
    assert node.op_type == "TreeEnsembleRegressor" and node.domain == "ai.onnx.ml"
    assert len(attrs["target_weights"].floats) == leaves * 3
    assert len(attrs["nodes_modes"].strings) == sum(len(f) for f in forest.feature)
    assert [o.name for o in model.graph.output] == ["kind_bias"]


def test_offset_boosting_corrects_another_models_scores():
    # another model that is right except where feature 1 is high (it says class 0 there): the forest,
    # started from its scores, learns only that correction; with no offset the forest is as before
    x, y = _three_classes(3000, 4)
    xt, yt = _three_classes(1000, 5)
    def other(a):
        s = np.full((len(a), 3), -3.0)
        right = np.where(a[:, 1] > 0.5, 0, np.where(a[:, 3] <= -0.2, 1, 0))
        s[np.arange(len(a)), right] = 0.0
        return s
    assert (other(xt).argmax(1) == yt).mean() < 0.9
    forest = fit_forest(x, y, 3, TreeConfig(rounds=40, depth=3, seed=5), offset=other(x),
                        eval_sets=[(xt, yt, other(xt))], log=lambda m: None)
    assert np.array_equal(forest.base, np.zeros(3, dtype=np.float32))
    assert ((other(xt) + forest.raw(xt)).argmax(1) == yt).mean() > 0.97
    # the correction is where the other model is wrong: small elsewhere
    size = np.abs(forest.raw(xt)).max(1)
    wrong = other(xt).argmax(1) != yt
    assert size[~wrong].mean() < 0.5 * size[wrong].mean()
    with pytest.raises(ValueError, match=r"offset must be \[N, K\] = \[3000, 3\]"):
        fit_forest(x, y, 3, TreeConfig(rounds=1), offset=other(x)[:10])
    plain = fit_forest(x, y, 3, TreeConfig(rounds=5, depth=3, seed=9))
    again = fit_forest(x, y, 3, TreeConfig(rounds=5, depth=3, seed=9), offset=None)
    assert np.array_equal(plain.raw(x), again.raw(x))
