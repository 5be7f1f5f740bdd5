import json

import numpy as np
import pytest
import torch

from training import config as C
from training.context import CONTEXT_FEATURES, KindPrior, load_context, train_prior
from training.data import DataError


def test_prior_learns_kinds_that_the_features_separate():
    rng = np.random.default_rng(0)
    n, f = 600, len(CONTEXT_FEATURES)
    y = rng.integers(0, 3, n)
    x = rng.normal(size=(n, f)).astype(np.float32)
    x[:, 0] += 4.0 * y  # feature 0 tells the kind; the rest is noise
    model = train_prior(x, y, seed=1, steps=150)
    with torch.no_grad():
        acc = float((model.log_probs(torch.from_numpy(x)).argmax(1).numpy() == y).mean())
    assert acc > 0.9


def test_kind_bias_is_the_weighted_log_probabilities():
    model = KindPrior(weight=1.25).eval()
    ctx = torch.randn(4, len(CONTEXT_FEATURES))
    with torch.no_grad():
        bias = model(ctx)
        assert bias.shape == (4, len(C.KINDS))
        assert torch.allclose(bias, 1.25 * torch.log_softmax(model.mlp(ctx), -1), atol=1e-6)


def test_context_file_must_match_the_crops_rows(tmp_path):
    rows = [
        {"index": i, "pair_id": "p", "kind": "move", "source": s} for i, s in enumerate(["region", "noise", "region"])
    ]
    (tmp_path / "crops.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(DataError, match="npm run --silent context"):
        load_context(tmp_path)
    np.save(tmp_path / "crops.context.npy", np.zeros((2, len(CONTEXT_FEATURES)), np.float32))
    with pytest.raises(DataError, match="shape"):
        load_context(tmp_path)
    np.save(tmp_path / "crops.context.npy", np.arange(3 * len(CONTEXT_FEATURES), dtype=np.float32).reshape(3, -1))
    x, y, keep = load_context(tmp_path)
    assert keep == [0, 2] and x.shape == (2, len(CONTEXT_FEATURES)) and list(y) == [C.KINDS.index("move")] * 2


def test_cropset_gives_each_sample_its_own_context_row(tmp_path):
    from training.data import CropSet
    from training.synthetic import make_split

    make_split(tmp_path / "a", 6, seed=1)
    make_split(tmp_path / "b", 4, seed=2)
    rows = [json.loads(line) for line in (tmp_path / "a" / "crops.jsonl").read_text().splitlines()]
    rows[1]["source"] = "unmatched"  # left out of training: the rows after it must not shift
    (tmp_path / "a" / "crops.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    n = len(CONTEXT_FEATURES)
    np.save(tmp_path / "a" / "crops.context.npy", np.arange(6 * n, dtype=np.float32).reshape(6, n))
    ds = CropSet(tmp_path / "a", skip_sources=("unmatched",), extra_dirs=(tmp_path / "b",))
    assert len(ds) == 9
    with pytest.raises(DataError, match="crops.context.npy missing"):
        ds.context_tensor(range(len(ds)))  # shard b has none yet
    np.save(tmp_path / "b" / "crops.context.npy", -np.arange(4 * n, dtype=np.float32).reshape(4, n))
    ds = CropSet(tmp_path / "a", skip_sources=("unmatched",), extra_dirs=(tmp_path / "b",))
    ctx = ds.context_tensor(range(len(ds))).numpy()
    assert list(ctx[:, 0]) == [r * n for r in (0, 2, 3, 4, 5)] + [-r * n for r in range(4)]
    np.save(tmp_path / "b" / "crops.context.npy", np.zeros((3, n), np.float32))
    with pytest.raises(DataError, match="shape"):
        CropSet(tmp_path / "b")


def test_a_prior_of_fewer_features_reads_the_new_ones_with_zero_weight(tmp_path):
    known = len(CONTEXT_FEATURES) - 6
    torch.manual_seed(0)
    old = KindPrior(weight=2.0)
    state = {k: v.clone() for k, v in old.state_dict().items()}
    state["mlp.0.weight"] = state["mlp.0.weight"][:, :known].clone()
    state["mean"] = torch.randn(known)
    state["std"] = torch.rand(known) + 0.5
    torch.save({"state": state}, tmp_path / "kind_prior.pt")
    from training.context import load_kind_prior

    prior = load_kind_prior(tmp_path / "kind_prior.pt")
    ctx = torch.randn(5, len(CONTEXT_FEATURES))
    changed = ctx.clone()
    changed[:, known:] = 100.0 * torch.randn(5, len(CONTEXT_FEATURES) - known)
    with torch.no_grad():
        expect = 2.0 * torch.log_softmax(
            old.eval().mlp[1:](
                (ctx[:, :known] - state["mean"]) / state["std"] @ state["mlp.0.weight"].T + state["mlp.0.bias"]
            ),
            -1,
        )
        assert torch.allclose(prior(ctx), expect, atol=1e-5)
        assert torch.allclose(prior(changed), prior(ctx), atol=1e-6)
