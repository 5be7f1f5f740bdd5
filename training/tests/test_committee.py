import json
import math

import pytest
import torch

from training.committee import ExportKindMembers, MemberError, committee_logits, load_members
from training.config import CONTEXT_SIZE, KINDS
from training.encode import ProcedureEncoder


def committee_from_member_log_probs(main, member_log_probs):
    """The contract's rule as the runtime applies it to kind_members.onnx's output [N,M,K]."""
    return (torch.log_softmax(main, -1) + member_log_probs.sum(1)) / (1 + member_log_probs.shape[1])


def test_committee_rule_hand_worked():
    # two kinds: the head [0, ln 3] is (0.25, 0.75); a member sure of the first kind (0.9, 0.1) outvotes it
    head = torch.tensor([[0.0, math.log(3)]])
    member = torch.log(torch.tensor([[0.9, 0.1]]))
    out = committee_logits(head, [member])
    want = [(math.log(0.25) + math.log(0.9)) / 2, (math.log(0.75) + math.log(0.1)) / 2]
    assert torch.allclose(out, torch.tensor([want]), atol=1e-6)
    assert int(out.argmax()) == 0 and int(head.argmax()) == 1
    # members given as logits or as kind_members.onnx's log-probabilities: the same rule
    m2 = torch.tensor([[2.0, -1.0]])
    a = committee_logits(head, [member, m2])
    b = committee_from_member_log_probs(
        head, torch.stack([torch.log_softmax(member, -1), torch.log_softmax(m2, -1)], 1)
    )
    assert torch.allclose(a, b, atol=1e-6)
    # no members: the head's own log-softmax (same argmax, probabilities unchanged)
    assert torch.allclose(committee_logits(head, []), torch.log_softmax(head, -1))


def _encoders(n):
    torch.manual_seed(3)
    return [ProcedureEncoder(30, k=2, dropout=0.0).eval() for _ in range(n)]


def test_export_module_gives_each_members_log_softmax():
    encs = _encoders(2)
    f0, f1 = torch.randn(3, 36, 64), torch.randn(3, 36, 64)
    i0, i1 = torch.rand(3, 3, 96, 96), torch.rand(3, 3, 96, 96)
    ctx = torch.randn(3, CONTEXT_SIZE)
    with torch.no_grad():
        out = ExportKindMembers(encs)(f0, f1, i0, i1, ctx)
        assert out.shape == (3, 2, len(KINDS))
        for m, e in enumerate(encs):
            want = torch.log_softmax(e.stage2(f0, f1, i0, i1, context=ctx)[2], -1)
            assert torch.allclose(out[:, m], want, atol=1e-6)
    with pytest.raises(ValueError, match="at least one member"):
        ExportKindMembers([])


def _ckpt(folder, tokenizer_value, vocab):
    folder.mkdir()
    torch.save({"state": {"model": {"w": torch.full((2,), tokenizer_value)}}}, folder / "tokenizer_vq.pt")
    (folder / "vocab.json").write_text(json.dumps(vocab))
    (folder / "config.json").write_text("{}")
    torch.save({}, folder / "stage2_k2.pt")
    return folder


def test_members_must_share_the_main_tokenizer_and_vocabulary(tmp_path):
    main = _ckpt(tmp_path / "main", 1.0, ["a"])
    other_tok = _ckpt(tmp_path / "tok", 2.0, ["a"])
    other_vocab = _ckpt(tmp_path / "voc", 1.0, ["b"])
    with pytest.raises(MemberError, match="tokenizer differs"):
        load_members(main, [other_tok])
    with pytest.raises(MemberError, match="vocabulary differs"):
        load_members(main, [other_vocab])
    (other_vocab / "stage2_k2.pt").unlink()
    with pytest.raises(MemberError, match="stage2_k2.pt missing"):
        load_members(main, [other_vocab])
    assert load_members(main, []) == []
