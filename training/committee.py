"""Kind committee: more stage-2 procedure encoders vote on the change kind (models/CONTRACT.md, "Kind committee").

  /usr/bin/python3 -m training.export --ckpt MAIN --members CKPT [--members CKPT ...]
  /usr/bin/python3 -m training.evaluate --data DIR --ckpt MAIN --members CKPT [...]

The shipped checkpoint (MAIN) writes the captions; each member is another finished stage 2 over the same
frozen tokenizer (a later round trained from MAIN, say). A view's kind logits become the mean of the
log-softmaxes of MAIN's kind head and every member's; the kind prior's bias is added to that mean exactly as
to a single head's logits. Members read the same inputs as the procedure
encoder, so the runtime feeds kind_members.onnx what it fed procedure_encoder.onnx.
"""

from __future__ import annotations

from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

from .checkpoint import load_trained


class MemberError(Exception):
    """A member checkpoint that cannot vote with the main one; the message says why."""


def committee_logits(main: torch.Tensor, members: list[torch.Tensor]) -> torch.Tensor:
    """main [N,K] kind logits of the main head, members M x [N,K] -> [N,K]: the mean of all 1 + M
    log-softmaxes (main alone: its log-softmax, which ranks and normalises like its logits)."""
    stack = torch.stack([F.log_softmax(x, -1) for x in [main, *members]])
    return stack.mean(0)


def load_members(main_ckpt: Path, member_ckpts: list[Path]) -> list[nn.Module]:
    """The k2 procedure encoders of the member checkpoints (eval mode). Each must use the main checkpoint's
    tokenizer (the committee shares one set of features) and vocabulary; raises MemberError otherwise."""
    main_tok = torch.load(Path(main_ckpt) / "tokenizer_vq.pt")["state"]["model"]
    main_vocab = (Path(main_ckpt) / "vocab.json").read_text()
    encoders = []
    for ckpt in member_ckpts:
        ckpt = Path(ckpt)
        for f in ("config.json", "vocab.json", "tokenizer_vq.pt", "stage2_k2.pt"):
            if not (ckpt / f).is_file():
                raise MemberError(f"{ckpt / f} missing: a member is a finished training checkpoint folder")
        tok = torch.load(ckpt / "tokenizer_vq.pt")["state"]["model"]
        if tok.keys() != main_tok.keys() or any(not torch.equal(tok[k], main_tok[k]) for k in tok):
            raise MemberError(
                f"{ckpt}: its tokenizer differs from {main_ckpt}'s; members must share the main "
                f"checkpoint's tokenizer (train them from it with --stage2-init)"
            )
        if (ckpt / "vocab.json").read_text() != main_vocab:
            raise MemberError(f"{ckpt}: its vocabulary differs from {main_ckpt}'s")
        encoders.append(load_trained(ckpt, "k2")[3])
    return encoders


class ExportKindMembers(nn.Module):
    """ONNX graph: the procedure encoder's five inputs -> kind_log_probs [B,M,K], each member's log-softmax."""

    def __init__(self, encoders: list[nn.Module]) -> None:
        super().__init__()
        if not encoders:
            raise ValueError("a kind committee needs at least one member")
        self.encoders = nn.ModuleList(encoders)

    def forward(
        self,
        before_features: torch.Tensor,
        after_features: torch.Tensor,
        before_image: torch.Tensor,
        after_image: torch.Tensor,
        context: torch.Tensor,
    ) -> torch.Tensor:
        out = [
            F.log_softmax(e.stage2(before_features, after_features, before_image, after_image, context=context)[2], -1)
            for e in self.encoders
        ]
        return torch.stack(out, 1)
