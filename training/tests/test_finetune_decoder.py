"""training/finetune_decoder.py: slot tokens appended to the vocabulary (old ids unchanged), the decoder's
tables grown, the encoder frozen through training, and the decoder-only export into a copy of the models."""

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from training import config as C
from training import finetune_decoder as FD
from training import recover as R
from training.data import Vocab
from training.train import TrainConfig

WORDS = "a button was added the text changed colour from white to blue moved down no visible change"
CAPTIONS = [
    ["a button was added", "<label> was added", "a button <label> was added"],
    ["the text changed colour from white to blue", "<label> changed colour from white to blue"],
    ["<old> now reads <new>", "the text changed"],
    ["no visible change", "no change here"],  # "here": not in the vocabulary, left out
    ["the button moved down", "<label> moved down"],
]
KINDS = ["add", "color", "text", "none", "move"]


def _init_folder(tmp_path: Path, seed: int = 5) -> Path:
    """A finished checkpoint folder (as training.recover writes one) with random weights."""
    vocab = Vocab.build([WORDS])
    modules = R._build(vocab, TrainConfig(seed=seed))
    torch.manual_seed(seed)
    R._write_checkpoint(tmp_path / "init", modules, vocab, TrainConfig(seed=seed), {})
    return tmp_path / "init"


def _corpus(tmp_path: Path) -> Path:
    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        d = tmp_path / "corpus" / split
        d.mkdir(parents=True)
        n = len(CAPTIONS)
        rows = [
            {
                "index": i,
                "pair_id": f"p{i}",
                "region_index": 0,
                "kind": KINDS[i],
                "captions": CAPTIONS[i],
                "has_frames": False,
                "frames_index": -1,
                "whole_screen": False,
                "source": "region",
            }
            for i in range(n)
        ]
        (d / "crops.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        np.save(d / "crops.pairs.npy", rng.integers(0, 256, (n, 2, C.IMAGE_SIZE, C.IMAGE_SIZE, 3), dtype=np.uint8))
        np.save(d / "crops.context.npy", rng.normal(size=(n, C.CONTEXT_SIZE)).astype(np.float32))
    return tmp_path / "corpus"


def test_extend_vocab_appends_slots_and_keeps_every_id():
    old = Vocab.build([WORDS])
    new = FD.extend_vocab(old)
    assert new.tokens[: len(old)] == old.tokens
    assert new.tokens[len(old) :] == list(FD.SLOT_TOKENS)
    assert FD.extend_vocab(new).tokens == new.tokens  # already there: not added twice
    assert new.encode("a <label> was added")[:5] == [
        C.BOS,
        new.index["a"],
        len(old),
        new.index["was"],
        new.index["added"],
    ]
    assert new.decode([new.index["<old>"], new.index["to"], new.index["<new>"], C.EOS]) == "<old> to <new>"


def test_grow_rows_keeps_old_rows_and_is_seeded():
    w = torch.randn(20, 8)
    a = FD.grow_rows(w, 3, torch.Generator().manual_seed(1))
    b = FD.grow_rows(w, 3, torch.Generator().manual_seed(1))
    assert a.shape == (23, 8) and torch.equal(a[:20], w) and torch.equal(a, b)
    # near the mean of the word rows (noise 0.1 x std), and distinct from each other
    assert torch.allclose(a[20:], w[len(C.SPECIALS) :].mean(0).expand(3, 8), atol=float(w.std()) * 0.6)
    assert not torch.equal(a[20], a[21])


def test_finetune_trains_the_decoder_only_and_exports_it(tmp_path):
    init = _init_folder(tmp_path)
    data = _corpus(tmp_path)
    out = tmp_path / "slots"
    old = Vocab.load(init / "vocab.json")
    budget = C.PhaseBudget(steps=4, batch=4, lr=1e-2, warmup=1)
    summary = FD.finetune(init, data, out, budget, seed=3)

    vocab = Vocab.load(out / "vocab.json")
    assert vocab.tokens[: len(old)] == old.tokens and vocab.tokens[len(old) :] == list(FD.SLOT_TOKENS)
    assert summary["slot_ids"] == list(range(len(old), len(old) + 3))
    start = torch.load(init / "stage2_k2.pt")["state"]
    done = torch.load(out / "stage2_k2.pt")["state"]
    grown = torch.load(out / "stage2_k2_start.pt")["state"]
    # the new rows are there (decoder tok_emb = its output projection; encoder text_emb grown alike)
    assert done["decoder"]["tok_emb.weight"].shape == (len(vocab), C.D_MODEL)
    assert done["encoder"]["text_emb.weight"].shape == (len(vocab), C.D_MODEL)
    assert torch.equal(grown["decoder"]["tok_emb.weight"][: len(old)], start["decoder"]["tok_emb.weight"])
    # encoder frozen: every tensor the starting encoder had is unchanged after training
    for k, v in start["encoder"].items():
        got = done["encoder"][k]
        assert torch.equal(got[: len(old)] if k == "text_emb.weight" else got, v), k
    # the decoder did train
    assert not torch.equal(done["decoder"]["layers.0.self_q.weight"], start["decoder"]["layers.0.self_q.weight"])
    assert summary["train_counts"]["references_with_unknown_words"] == 2  # train's "no change here" + "now reads"
    for key in ("caption_loss", "exact", "slot_when_ref_has", "slot_when_no_ref_has", "beam3_exact"):
        assert key in summary["val_end"], key
    # kind decisions: the cached kind logits equal the starting encoder's, run afresh
    _, tok, enc, _ = FD.load_models_from(init, {"state": start})
    cached = torch.load(out / "memory_val.pt")
    from training.data import CropSet

    val = CropSet(data / "val")
    again = FD.encoder_memory(val, tok, enc, tmp_path / "fresh_memory.pt")
    assert torch.equal(again["kind_logits"], cached["kind_logits"]) and torch.equal(again["memory"], cached["memory"])

    # a second run with --resume finds the phase finished and leaves the weights as they are
    FD.finetune(init, data, out, budget, seed=3, resume=True)
    again = torch.load(out / "stage2_k2.pt")["state"]
    assert all(torch.equal(again["decoder"][k], v) for k, v in done["decoder"].items())

    # export into a scratch copy: only the decoder files and the vocabulary change
    base = tmp_path / "models"
    R._export(init, base)
    scratch = tmp_path / "models_slots"
    FD.export_decoder(out, scratch, base)
    changed = {
        "decoder_step.onnx",
        "vocab.json",
        "export_info.json",
        "golden/decoder_step.json",
        "golden/decoder_step_1.json",
    }
    for f in base.rglob("*"):
        if f.is_file():
            rel = str(f.relative_to(base))
            same = f.read_bytes() == (scratch / rel).read_bytes()
            assert same != (rel in changed), rel
    assert Vocab.load(scratch / "vocab.json").tokens == vocab.tokens
    golden = json.loads((scratch / "golden" / "decoder_step.json").read_text())
    assert golden["outputs"]["logits"]["dims"] == [1, len(vocab)]
    with pytest.raises(ValueError):
        FD.export_decoder(out, base, base)
