import json

import numpy as np
import torch

from training import recover as R
from training import train_member as TM
from training.committee import load_members
from training.config import CONTEXT_SIZE, TrainConfig
from training.data import Vocab
from training.synthetic import make_split
from training.train import shift_pairs


def _shift_one_by_one(pairs, shifts, limit):
    """The shift rule sample by sample (train.shift_pairs before it was one gather)."""
    n, _, c, h, w = pairs.shape
    padded = torch.nn.functional.pad(pairs.reshape(n, 2 * c, h, w), (limit,) * 4, mode="replicate")
    out = torch.empty_like(pairs)
    for i, (dy, dx) in enumerate(shifts):
        top, left = limit - int(dy), limit - int(dx)
        out[i] = padded[i, :, top : top + h, left : left + w].reshape(2, c, h, w)
    return out


def test_shift_pairs_in_one_gather_is_the_per_sample_rule():
    gen = torch.Generator().manual_seed(5)
    pairs = torch.rand(6, 2, 3, 96, 96, generator=gen)
    shifts = np.array([[0, 0], [3, -2], [-8, 8], [8, -8], [-1, 5], [7, 0]])
    want = _shift_one_by_one(pairs, shifts, 8)
    got = shift_pairs(pairs, torch.from_numpy(shifts), 8)
    assert torch.equal(got, want)
    assert torch.equal(shift_pairs(pairs, shifts, 8), want)  # numpy shifts, as training.train passes them
    # a real shift: the content moved, and both crops of a pair moved alike
    assert not torch.equal(got[1], pairs[1])
    assert torch.equal(got[0], pairs[0])


def _folders(tmp_path):
    """A random-weight finished checkpoint and a tiny synthetic crops folder with layout context."""
    data = tmp_path / "train"
    make_split(data, 16, seed=3)
    rows = [json.loads(line) for line in (data / "crops.jsonl").read_text().splitlines()]
    np.save(
        data / "crops.context.npy", np.random.default_rng(0).normal(size=(len(rows), CONTEXT_SIZE)).astype(np.float32)
    )
    vocab = Vocab.build([c for r in rows for c in r["captions"]])
    modules = R._build(vocab, TrainConfig(seed=1))
    R._write_checkpoint(tmp_path / "main", modules, vocab, TrainConfig(seed=1), {})
    return tmp_path / "main", data


def test_a_member_trains_on_the_cpu_and_votes_with_its_main_checkpoint(tmp_path):
    main, data = _folders(tmp_path)
    out = tmp_path / "member"
    args = [
        "--ckpt",
        str(main),
        "--train",
        str(data),
        "--val",
        str(data),
        "--out",
        str(out),
        "--device",
        "cpu",
        "--threads",
        "1",
        "--steps",
        "40",
        "--batch",
        "16",
        "--lr",
        "3e-3",
        "--warmup",
        "2",
        "--log-every",
        "1",
        "--val-every",
        "1000",
        "--seed",
        "4",
    ]
    assert TM.main(args) == 0
    log = [json.loads(line) for line in (out / "train_log.jsonl").read_text().splitlines()]
    assert len(log) == 40 and log[-1]["step"] == 40
    first = np.mean([r["loss"] for r in log[:5]])
    last = np.mean([r["loss"] for r in log[-5:]])
    assert last < first, (first, last)
    summary = json.loads((out / "summary.json").read_text())["stage2_k2"]
    assert summary["steps"] == 40 and summary["train_samples"] == 16 and 0 <= summary["val_kind_accuracy"] <= 1
    # the member is a finished checkpoint sharing main's tokenizer and vocabulary, and its weights moved
    (member,) = load_members(main, [out])
    start = torch.load(main / "stage2_k2.pt")["state"]["encoder"]
    assert any(not torch.equal(v, start[k]) for k, v in member.state_dict().items() if k in start)
    # a finished member is never overwritten
    assert TM.main(args) == 2


def test_a_run_cut_short_resumes(tmp_path):
    main, data = _folders(tmp_path)
    out = tmp_path / "member"
    base = [
        "--ckpt",
        str(main),
        "--train",
        str(data),
        "--out",
        str(out),
        "--device",
        "cpu",
        "--threads",
        "1",
        "--batch",
        "8",
        "--steps",
        "6",
        "--checkpoint-every",
        "3",
        "--log-every",
        "1",
        "--seed",
        "4",
    ]
    assert TM.main(base + ["--stop-after", "3"]) == 0
    assert (out / "stage2_k2.ckpt").is_file() and not (out / "stage2_k2.pt").exists()
    assert TM.main(base) == 2  # a cut run is continued only when asked
    assert TM.main(base + ["--resume"]) == 0
    assert (out / "stage2_k2.pt").is_file() and not (out / "stage2_k2.ckpt").exists()
    steps = [json.loads(line)["step"] for line in (out / "train_log.jsonl").read_text().splitlines()]
    assert steps == [1, 2, 3, 4, 5, 6]
    assert json.loads((out / "summary.json").read_text())["stage2_k2"]["steps"] == 6
