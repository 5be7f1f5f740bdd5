import json
from pathlib import Path

import pytest
import torch

from training import recover as R
from training.data import Vocab
from training.train import TrainConfig, kind_prior_line

VOCAB = ["a", "button", "moved", "down", "the", "blue", "no", "visible", "change"]


def _export_random_models(tmp_path: Path, seed: int) -> tuple[Path, dict]:
    """A checkpoint whose every weight is random (seeded), exported as the real export does."""
    vocab = Vocab.build([" ".join(VOCAB)])
    cfg = TrainConfig(seed=seed)
    modules = R._build(vocab, cfg)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in modules.values():
            for t in m.state_dict(keep_vars=True).values():
                if t.is_floating_point():
                    t.copy_(torch.randn(t.shape, generator=gen) * 0.1 + (1.0 if t.ndim <= 1 else 0.0))
    R._write_checkpoint(tmp_path / "orig_ckpt", modules, vocab, cfg, {})
    R._export(tmp_path / "orig_ckpt", tmp_path / "models")
    return tmp_path / "models", modules


def test_recovered_checkpoint_holds_the_exported_weights(tmp_path):
    models, original = _export_random_models(tmp_path, seed=7)
    R.recover(models, tmp_path / "rec", seed=3, log=lambda *_: None)
    s2 = torch.load(tmp_path / "rec" / "stage2_k2.pt")["state"]
    enc, dec = original["enc"].state_dict(), original["dec"].state_dict()
    for k, v in dec.items():
        assert torch.equal(s2["decoder"][k], v), k
    stage1_only = ("text_emb.", "text_pos.", "align_", "csy_")
    split_sums = ("time_emb.", "row_emb.", "col_emb.")
    for k, v in enc.items():
        if k.startswith(stage1_only):
            continue
        if k.startswith(split_sums):
            continue
        assert torch.equal(s2["encoder"][k], v), k
    # the position tables come back as another additive split: the sums the model uses are the same
    rec = R._build(Vocab.load(models / "vocab.json"), TrainConfig())["enc"]
    rec.load_state_dict(s2["encoder"])
    assert torch.allclose(rec.position(4), original["enc"].position(4), atol=1e-5)
    for name, key in (("tokenizer_vq", "tok"), ("interpolator_gate", "interp")):
        got = torch.load(tmp_path / "rec" / f"{name}.pt")["state"]["model"]
        for k, v in original[key].state_dict().items():
            assert torch.equal(got[k], v), (name, k)
    prior = torch.load(tmp_path / "rec" / "kind_prior.pt")["state"]
    for k, v in original["prior"].state_dict().items():
        assert torch.equal(prior[k], v), k
    info = json.loads((tmp_path / "rec" / "summary.json").read_text())["recovered"]
    assert info["reexport"]["max_abs_difference"] <= 1e-6
    # `train --all --resume` on a recovered folder keeps this prior and logs it (it crashed on the missing
    # validation figures once, after a finished stage 2)
    line = kind_prior_line(torch.load(tmp_path / "rec" / "kind_prior.pt")["summary"])
    assert "kept" in line and f"weight {original['prior'].weight.item()}" in line


def test_a_fitted_prior_logs_its_validation_figures():
    line = kind_prior_line({"weight": 1.25, "head_val_accuracy": 0.858, "val_accuracy_by_weight": {"1.25": 0.878}})
    assert line == "kind prior: val kind accuracy 0.858 (head) -> 0.878 (fused, weight 1.25)"


def test_recover_refuses_files_of_another_graph(tmp_path):
    models, _ = _export_random_models(tmp_path, seed=5)
    # a vocabulary of another size changes the decoder's and encoder's tables
    vocab = json.loads((models / "vocab.json").read_text())
    vocab["tokens"].append("extra")
    (models / "vocab.json").write_text(json.dumps(vocab))
    with pytest.raises(R.RecoveryError, match="not the graph"):
        R.recover(models, tmp_path / "rec", log=lambda *_: None)


def test_a_kind_committee_comes_back_as_member_checkpoints(tmp_path):
    vocab = Vocab.build([" ".join(VOCAB)])
    cfg = TrainConfig(seed=2)
    modules = R._build(vocab, cfg, members=2)
    gen = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for m in modules.values():
            for t in m.state_dict(keep_vars=True).values():
                if t.is_floating_point():
                    t.copy_(torch.randn(t.shape, generator=gen) * 0.1 + (1.0 if t.ndim <= 1 else 0.0))
        # members trained from one checkpoint keep its layout-context statistics: the export stores them once
        first, second = modules["member_1"].state_dict(keep_vars=True), modules["member_2"].state_dict(keep_vars=True)
        for key in ("context_mean", "context_std", "diff_scale"):
            second[key].copy_(first[key])
    R._write_checkpoint(tmp_path / "orig_ckpt", modules, vocab, cfg, {})
    R._export(tmp_path / "orig_ckpt", tmp_path / "models")
    assert R.committee_size(tmp_path / "models") == 2
    R.recover(tmp_path / "models", tmp_path / "rec", seed=3, log=lambda *_: None)
    for name in ("member_1", "member_2"):
        got = torch.load(tmp_path / "rec" / name / "stage2_k2.pt")["state"]["encoder"]
        for key in (
            "context_mean",
            "context_std",
            "diff_scale",
            "kind_head.2.weight",
            "blocks.0.attn.qkv.weight",
            "pixel_stem.0.weight",
        ):
            assert torch.equal(got[key], modules[name].state_dict()[key]), (name, key)
    # the members' own encoders, not the main one's
    main = torch.load(tmp_path / "rec" / "stage2_k2.pt")["state"]["encoder"]
    assert not torch.equal(main["kind_head.2.weight"], modules["member_1"].state_dict()["kind_head.2.weight"])


def test_reuse_copies_finished_phases_but_not_stage2_and_never_overwrites(tmp_path):
    from training.train import REUSED_FILES, reuse_finished_phases

    src, out = tmp_path / "rec", tmp_path / "round"
    src.mkdir(), out.mkdir()
    for name in (*REUSED_FILES, "stage2_k2.pt", "summary.json"):
        (src / name).write_text(f"from rec: {name}")
    (out / "kind_prior.pt").write_text("the round's own prior")
    copied = reuse_finished_phases(src, out)
    assert "kind_prior.pt" not in copied and (out / "kind_prior.pt").read_text() == "the round's own prior"
    assert sorted(copied) == sorted(n for n in REUSED_FILES if n != "kind_prior.pt")
    assert (out / "stage1_k2.pt").read_text() == "from rec: stage1_k2.pt"
    assert not (out / "stage2_k2.pt").exists() and not (out / "summary.json").exists()
    assert reuse_finished_phases(src, out) == []  # a resumed round: nothing more to copy


def test_reuse_can_leave_the_kind_prior_to_be_fitted_again(tmp_path):
    from training.train import REUSED_FILES, reuse_finished_phases

    src, out = tmp_path / "rec", tmp_path / "round"
    src.mkdir(), out.mkdir()
    for name in REUSED_FILES:
        (src / name).write_text(f"from rec: {name}")
    copied = reuse_finished_phases(src, out, skip=("kind_prior.pt",))
    assert sorted(copied) == sorted(n for n in REUSED_FILES if n != "kind_prior.pt")
    assert not (out / "kind_prior.pt").exists()


def test_reuse_refuses_a_folder_without_vocabulary_or_tokenizer(tmp_path, capsys):
    from training.train import main, reuse_finished_phases

    src = tmp_path / "half"
    src.mkdir()
    (src / "vocab.json").write_text("{}")
    with pytest.raises(FileNotFoundError, match="tokenizer.pt, tokenizer_vq.pt"):
        reuse_finished_phases(src, tmp_path)
    rc = main(["--data", str(tmp_path / "nodata"), "--out", str(tmp_path / "o"), "--reuse", str(tmp_path / "absent")])
    assert rc == 2 and "--reuse" in capsys.readouterr().err
