import json

import numpy as np
import pytest
import torch

from training.config import CODEBOOK, CONTEXT_SIZE, KINDS
from training.data import CropSet, DataError, Vocab
from training.encode import ProcedureEncoder, context_stats, load_encoder_state, make_masks
from training.synthetic import make_split
from training.tokenizer import ImageTokenizer


def test_tokenizer_shapes_and_nearest_codes():
    tok = ImageTokenizer().eval()
    img = torch.rand(3, 3, 96, 96)
    feats, codes = tok.encode(img)
    assert feats.shape == (3, 36, 64) and codes.shape == (3, 36) and codes.dtype == torch.int64
    assert int(codes.min()) >= 0 and int(codes.max()) < CODEBOOK
    stats = tok.quantiser.fit(torch.randn(2000, 64), iterations=5)
    assert stats["codes_used"] == CODEBOOK  # k-means keeps every code in use
    feats, codes = tok.encode(img)
    d = torch.cdist(feats.reshape(-1, 64), tok.quantiser.embed)
    assert torch.equal(d.argmin(-1), codes.reshape(-1))
    assert tok.decode_codes(codes).shape == (3, 3, 96, 96)


def test_procedure_encoder_shapes_and_difference_signal():
    torch.manual_seed(0)
    enc = ProcedureEncoder(30, k=2, dropout=0.0).eval()
    f = torch.randn(2, 36, 64)
    img = torch.rand(2, 3, 96, 96)
    with torch.no_grad():
        hidden, memory, kinds, queries = enc.stage2(f, f, img, img)
        assert memory.shape == (2, 144, 128) and kinds.shape == (2, len(KINDS)) and queries.shape == (2, 72, CODEBOOK)
        # the difference signal is what changes when after differs from before only a little
        _, memory2, _, _ = enc.stage2(f, f + 0.5, img, img)
        assert not torch.allclose(memory, memory2)
        # and the pixel stem sees a change the features do not (one 16 px patch repainted)
        img2 = img.clone()
        img2[:, :, 16:32, 16:32] = 1.0 - img2[:, :, 16:32, 16:32]
        _, memory3, _, _ = enc.stage2(f, f, img, img2)
        assert not torch.allclose(memory, memory3)
        frames = torch.randn(2, 4, 36, 64)
        masked = make_masks(2, 4, torch.Generator().manual_seed(0))
        codes, align, csy = enc.stage1(frames, masked, torch.tensor([[1, 5, 6, 2, 0, 0]] * 2))
        assert codes.shape == (2, 144, CODEBOOK) and align.shape == (2,) and csy.shape == (2,)


def test_layout_context_starts_at_zero_then_reaches_every_output():
    torch.manual_seed(0)
    enc = ProcedureEncoder(30, k=2, dropout=0.0).eval()
    f, img = torch.randn(2, 36, 64), torch.rand(2, 3, 96, 96)
    raw = torch.randn(50, CONTEXT_SIZE) * 300 + 40  # pixel-sized raw features
    mean, std = context_stats(raw)
    enc.context_mean.copy_(mean)
    enc.context_std.copy_(std)
    with torch.no_grad():
        plain = enc.stage2(f, f, img, img)
        zero_start = enc.stage2(f, f, img, img, context=raw[:2])
        # zero-initialised last layer: an encoder trained without context is unchanged by it
        assert all(torch.equal(a, b) for a, b in zip(plain, zero_start, strict=True))
        torch.nn.init.normal_(enc.context_in[2].weight, std=0.1)
        one = enc.stage2(f, f, img, img, context=raw[:2])
        other = enc.stage2(f, f, img, img, context=raw[2:4])
    for a, b in zip(one[1:], other[1:], strict=True):  # memory, kind logits, query logits all see it
        assert not torch.allclose(a, b)
    # standardised by the training mean/std: the embedding of the mean row is that of a zero z-score
    assert torch.allclose(
        enc.context_vector(mean.unsqueeze(0)), enc.context_in(torch.zeros(1, CONTEXT_SIZE)), atol=1e-6
    )


def test_encoder_states_from_before_the_layout_context_still_load():
    old = ProcedureEncoder(30, k=2).state_dict()
    old = {k: v for k, v in old.items() if not k.startswith("context_")}
    enc = ProcedureEncoder(30, k=2)
    assert load_encoder_state(enc, old) == 0
    assert float(enc.context_in[2].weight.abs().sum()) == 0.0
    assert load_encoder_state(enc, ProcedureEncoder(30, k=2).state_dict()) == CONTEXT_SIZE
    broken = dict(old)
    broken.pop("kind_head.0.weight")
    with pytest.raises(RuntimeError, match="kind_head"):
        load_encoder_state(enc, broken)


def test_encoder_states_with_fewer_layout_features_load_and_compute_the_same():
    torch.manual_seed(3)
    trained = ProcedureEncoder(30, k=2, dropout=0.0).eval()
    torch.nn.init.normal_(trained.context_in[2].weight, std=0.1)
    trained.context_mean.normal_()
    trained.context_std.uniform_(0.5, 2.0)
    known = CONTEXT_SIZE - 5
    old = {k: v.clone() for k, v in trained.state_dict().items()}
    old["context_in.0.weight"] = old["context_in.0.weight"][:, :known]
    old["context_mean"], old["context_std"] = old["context_mean"][:known], old["context_std"][:known]
    grown = ProcedureEncoder(30, k=2, dropout=0.0).eval()
    assert load_encoder_state(grown, old) == known
    assert float(grown.context_in[0].weight[:, known:].abs().sum()) == 0.0
    f, img = torch.randn(2, 36, 64), torch.rand(2, 3, 96, 96)
    context = torch.randn(2, CONTEXT_SIZE)
    changed = context.clone()
    changed[:, known:] += 5.0  # the appended features do not move the grown encoder yet
    with torch.no_grad():
        a = grown.stage2(f, f, img, img, context=context)
        b = grown.stage2(f, f, img, img, context=changed)
        trained.context_in[0].weight[:, known:] = 0.0
        c = trained.stage2(f, f, img, img, context=context)
    assert all(torch.allclose(x, y, atol=1e-6) for x, y in zip(a[1:], b[1:], strict=True))
    assert all(torch.allclose(x, y, atol=1e-6) for x, y in zip(a[1:], c[1:], strict=True))


def test_masking_schemes():
    g = torch.Generator().manual_seed(1)
    m = make_masks(400, 4, g).reshape(400, 4, 6, 6)
    frac = m.float().mean(dim=(1, 2, 3))
    assert (frac == 1.0).any()  # whole sequence
    assert ((frac > 0.6) & (frac < 0.95)).any()  # random ~80%
    tube = [i for i in range(400) if 0 < frac[i] < 1 and bool((m[i] == m[i, :1]).all())]
    assert tube  # same block in every frame (tube / complement)
    assert m.reshape(400, -1).any(-1).all()  # every sample has a target


def test_vocab_roundtrip_and_specials():
    v = Vocab.build(["the blue button moved", "the red tab"])
    assert v.tokens[:4] == ["<pad>", "<bos>", "<eos>", "<unk>"] and v.tokens[4] == "the"
    ids = v.encode("the blue tab zebra")
    assert len(ids) == 24 and ids[0] == 1 and ids[5] == 2 and ids[4] == 3
    assert v.decode(ids[1:]) == "the blue tab <unk>"


def test_cropset_reads_the_crops_format_and_names_bad_files(tmp_path):
    make_split(tmp_path / "train", 12, seed=3)
    ds = CropSet(tmp_path / "train")
    assert len(ds) == 12 and ds.images(0).shape == (2, 96, 96, 3)
    assert any(s.frames_row >= 0 for s in ds.samples)
    assert ds.true_frames(next(i for i, s in enumerate(ds.samples) if s.frames_row >= 0)).shape == (7, 96, 96, 3)
    # a kind that is not in the contract
    lines = (tmp_path / "train" / "crops.jsonl").read_text().splitlines()
    bad = json.loads(lines[0])
    bad["kind"] = "wiggle"
    (tmp_path / "train" / "crops.jsonl").write_text("\n".join([json.dumps(bad)] + lines[1:]) + "\n")
    with pytest.raises(DataError, match=r"crops\.jsonl:1: kind 'wiggle'"):
        CropSet(tmp_path / "train")
    # a wrong array shape
    np.save(tmp_path / "train" / "crops.pairs.npy", np.zeros((3, 2, 64, 64, 3), np.uint8))
    with pytest.raises(DataError, match=r"crops\.pairs\.npy: expected uint8"):
        CropSet(tmp_path / "train")
    with pytest.raises(DataError, match="missing.*not found|not found"):
        CropSet(tmp_path / "missing")


def test_merge_crops_parts_keeps_rows_aligned(tmp_path):
    from training.corpus import merge

    make_split(tmp_path / "a", 7, seed=1)
    make_split(tmp_path / "b", 6, seed=2)
    merge([tmp_path / "a" / "crops", tmp_path / "b" / "crops"], tmp_path / "m" / "crops")
    m, b = CropSet(tmp_path / "m"), CropSet(tmp_path / "b")
    assert len(m) == 13
    assert (m.images(7 + 3) == b.images(3)).all()
    with_frames = [i for i, s in enumerate(b.samples) if s.frames_row >= 0]
    assert (m.true_frames(7 + with_frames[0]) == b.true_frames(with_frames[0])).all()


def test_shift_pairs_moves_both_crops_alike():
    import numpy as np

    from training.train import shift_pairs

    pairs = torch.rand(3, 2, 3, 96, 96)
    pairs[2, 1] = pairs[2, 0]  # an unchanged pair stays unchanged
    shifts = np.array([[0, 0], [5, -3], [-8, 8]])
    out = shift_pairs(pairs, shifts, 8)
    assert out.shape == pairs.shape
    assert torch.equal(out[0], pairs[0])
    # content moved by (dy, dx) = (5, -3): out[y, x] = in[y - 5, x + 3] away from the edges
    assert torch.equal(out[1, :, :, 20:60, 20:60], pairs[1, :, :, 15:55, 23:63])
    assert torch.equal(out[2, 0], out[2, 1])
    # the edge rows are replicated, not wrapped around
    assert torch.equal(out[1, :, :, 0, 20], pairs[1, :, :, 0, 23])


def test_cropset_extra_shards_append_samples_images_frames_and_manifest(tmp_path):
    make_split(tmp_path / "a", 7, seed=1)
    make_split(tmp_path / "b", 6, seed=2)
    a, b = CropSet(tmp_path / "a"), CropSet(tmp_path / "b")
    both = CropSet(tmp_path / "a", extra_dirs=(tmp_path / "b",))
    assert len(both) == 13 and [s.shard for s in both.samples] == [0] * 7 + [1] * 6
    for i in range(6):
        assert (both.images(7 + i) == b.images(i)).all()
    assert (both.images(2) == a.images(2)).all()
    j = next(i for i, s in enumerate(b.samples) if s.frames_row >= 0)
    assert (both.true_frames(7 + j) == b.true_frames(j)).all()
    assert set(both.manifest()) == set(a.manifest()) | set(b.manifest())
    # limit_pairs only trims the first folder
    assert len(CropSet(tmp_path / "a", limit_pairs=3, extra_dirs=(tmp_path / "b",))) == 3 + 6


def test_phase_flags_parse_and_name_bad_input(tmp_path, capsys):
    from training.train import main, phase_values

    assert phase_values("stage2=3e-4, stage1=1e-3", "--lr", float) == {"stage2": 3e-4, "stage1": 1e-3}
    assert phase_values("", "--lr", float) == {}
    assert phase_values("tokenizer_vq=2", "--minutes", float, extra=("tokenizer_vq",)) == {"tokenizer_vq": 2.0}
    for bad, message in (("stage3=1", "PHASE one of"), ("stage2", "PHASE=VALUE"), ("stage2=fast", "not a float")):
        with pytest.raises(ValueError, match=message):
            phase_values(bad, "--lr", float)
    # the command line says so and stops before touching the output folder
    assert main(["--data", str(tmp_path), "--out", str(tmp_path / "ckpt"), "--lr", "stage2=fast"]) == 2
    assert "--lr 'stage2=fast'" in capsys.readouterr().err and not (tmp_path / "ckpt").exists()
