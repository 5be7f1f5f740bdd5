"""Procedure encoder (ProCap 3.1.3 and 3.2) with its heads.

One pre-LN transformer encoder, shared by both stages:
- stage 1 (explicit procedure modelling): [align, caption tokens, consistency, (k+2)*n_I frame tokens]
  with multi-granularity masking of the frame tokens; heads: masked-modelling (codes), align, consistency.
- stage 2 (implicit procedure captioning): [before patches, k*n_I copies of the learnt mask embedding
  (the procedure queries), after patches]; outputs the decoder memory, the change-kind logits and the
  masked-modelling head at the query positions (the imagined frames).

Frame tokens = LayerNorm+Linear(backbone feature) + time + row + column embeddings. Masked tokens and
queries are the mask embedding + the same position embeddings.

Grounding (measured in toolchain.md: without it a from-scratch model never sees the change): a learned
projection of the per-patch feature difference (after - before) is added to the before and after tokens.
In stage 2 the end tokens also get a small convolutional stem over the crop's pixels and the pixel
difference, trained with the captioner: the frozen 64-d tokenizer features alone blur the details that
tell kinds apart (bold text, a few pixels of spacing, a colour vs an opacity change; contract v2).
The layout context of the sample (the 55 numbers of src/core/context.ts: its size and place on the
screen, the full-resolution extent and centre of its content before and after, the pair's other
changed regions; since contract v4 also a fade fit and where blocks of its content moved,
src/core/motion.ts) is embedded by a small MLP and added to every stage-2 token (contract v3): the crop
alone cannot tell a resize from a spacing change or a reflow from a move, and the captions need it as
much as the kind head. Its last layer starts at zero, so an encoder trained without it is unchanged.
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .config import CODEBOOK, CONTEXT_SIZE, D_MODEL, FEAT_DIM, GRID, KINDS, MAX_TOKENS, N_I


class Attention(nn.Module):
    def __init__(self, d: int, heads: int, dropout: float) -> None:
        super().__init__()
        self.heads, self.head_dim = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.dropout = dropout

    def forward(self, x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(self.head_dim))
        if bias is not None:
            scores = scores + bias
        attn = torch.softmax(scores, dim=-1)
        attn = F.dropout(attn, self.dropout, self.training)
        return self.out((attn @ v).transpose(1, 2).reshape(b, n, d))


class EncoderBlock(nn.Module):
    def __init__(self, d: int, heads: int, ffn: int, dropout: float) -> None:
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = Attention(d, heads, dropout)
        self.ffn = nn.Sequential(nn.Linear(d, ffn), nn.GELU(), nn.Linear(ffn, d))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        x = x + self.dropout(self.attn(self.norm1(x), bias))
        return x + self.dropout(self.ffn(self.norm2(x)))


class ProcedureEncoder(nn.Module):
    def __init__(
        self,
        vocab_size: int,
        k: int,
        layers: int = 3,
        heads: int = 4,
        ffn: int = 384,
        dropout: float = 0.1,
        d: int = D_MODEL,
    ) -> None:
        super().__init__()
        self.k, self.d = k, d
        self.feat_in = nn.Sequential(nn.LayerNorm(FEAT_DIM), nn.Linear(FEAT_DIM, d))
        self.diff_in = nn.Linear(FEAT_DIM, d)
        # stage 2: pixels of one end + (after - before) pixels -> one d-vector per 16 px patch
        self.pixel_stem = nn.Sequential(nn.Conv2d(6, 48, 4, stride=4), nn.GELU(), nn.Conv2d(48, d, 4, stride=4))
        # stage 2: layout context [B,55] -> one d-vector added to every token (zero at the start)
        self.context_in = nn.Sequential(nn.Linear(CONTEXT_SIZE, d), nn.GELU(), nn.Linear(d, d))
        nn.init.zeros_(self.context_in[2].weight)
        nn.init.zeros_(self.context_in[2].bias)
        # raw features differ in scale by 1000x (pixels, ratios, flags): standardised with the training
        # set's mean and std (set before training like diff_scale, exported in the graph), clipped
        self.register_buffer("context_mean", torch.zeros(CONTEXT_SIZE))
        self.register_buffer("context_std", torch.ones(CONTEXT_SIZE))
        self.time_emb = nn.Embedding(k + 2, d)
        self.row_emb = nn.Embedding(GRID, d)
        self.col_emb = nn.Embedding(GRID, d)
        self.mask_emb = nn.Parameter(torch.randn(d) * 0.02)
        # stage-1 only: caption stream and the two special tokens
        self.text_emb = nn.Embedding(vocab_size, d)
        self.text_pos = nn.Embedding(MAX_TOKENS, d)
        self.align_token = nn.Parameter(torch.randn(d) * 0.02)
        self.csy_token = nn.Parameter(torch.randn(d) * 0.02)
        self.blocks = nn.ModuleList([EncoderBlock(d, heads, ffn, dropout) for _ in range(layers)])
        self.final_norm = nn.LayerNorm(d)
        # heads
        self.memory_mlp = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, d))
        self.kind_head = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, len(KINDS)))
        self.msm_head = nn.Linear(d, CODEBOOK)
        self.align_head = nn.Linear(d, 1)
        self.csy_head = nn.Linear(d, 1)
        rows = torch.arange(GRID).repeat_interleave(GRID)
        cols = torch.arange(GRID).repeat(GRID)
        self.register_buffer("patch_rows", rows, persistent=False)
        # the before/after feature difference is ~10x smaller than the features themselves: a fixed
        # gain (1 / std of the training set's differences, set before training, exported in the graph)
        # gives the difference signal the same scale as the tokens from the first step
        self.register_buffer("diff_scale", torch.tensor(1.0))
        self.register_buffer("patch_cols", cols, persistent=False)

    # ---- token construction -------------------------------------------------------------------
    def position(self, n_frames: int) -> torch.Tensor:
        """[(n_frames)*n_I, d]: time + row + column embedding, time-major then row-major."""
        times = torch.arange(n_frames, device=self.patch_rows.device).repeat_interleave(N_I)
        space = self.row_emb(self.patch_rows) + self.col_emb(self.patch_cols)  # [36,d]
        return self.time_emb(times) + space.repeat(n_frames, 1)

    def _run(self, x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        for block in self.blocks:
            x = block(x, bias)
        return self.final_norm(x)

    # ---- stage 2 ------------------------------------------------------------------------------
    def pixel_tokens(self, image: torch.Tensor, pixel_diff: torch.Tensor) -> torch.Tensor:
        """image, pixel_diff [B,3,96,96] -> [B,36,d] (row-major patches, like the features)."""
        x = self.pixel_stem(torch.cat([image * 2.0 - 1.0, pixel_diff * 4.0], dim=1))  # [B,d,6,6]
        return x.flatten(2).transpose(1, 2)

    def context_vector(self, context: torch.Tensor) -> torch.Tensor:
        """context [B,55] raw layout features -> [B,d]."""
        z = ((context - self.context_mean) / self.context_std).clamp(-8.0, 8.0)
        return self.context_in(z)

    def stage2(
        self,
        before: torch.Tensor,
        after: torch.Tensor,
        before_image: torch.Tensor,
        after_image: torch.Tensor,
        explicit: torch.Tensor | None = None,
        context: torch.Tensor | None = None,
    ):
        """before/after [B,36,64] features; before_image/after_image [B,3,96,96] crops in [0,1];
        explicit [B,k,36,64] keyframe features instead of the queries (the 'explicit' ablation) or
        None; context [B,55] the layout features (None: none added, as before contract v3).
        Returns (hidden [B,(k+2)*36,d], memory, kind_logits, query_code_logits [B,k*36,256])."""
        b = before.shape[0]
        diff = self.diff_in((after - before) * self.diff_scale)
        pixel_diff = after_image - before_image
        ends_before = self.feat_in(before) + diff + self.pixel_tokens(before_image, pixel_diff)
        ends_after = self.feat_in(after) + diff + self.pixel_tokens(after_image, pixel_diff)
        if explicit is None:
            middle = self.mask_emb.view(1, 1, -1).expand(b, self.k * N_I, self.d)
        else:
            middle = self.feat_in(explicit).reshape(b, self.k * N_I, self.d)
        x = torch.cat([ends_before, middle, ends_after], dim=1) + self.position(self.k + 2)
        if context is not None:
            x = x + self.context_vector(context).unsqueeze(1)
        hidden = self._run(x)
        memory = self.memory_mlp(hidden)
        kind_logits = self.kind_head(hidden.mean(dim=1))
        query_logits = self.msm_head(hidden[:, N_I : N_I + self.k * N_I])
        return hidden, memory, kind_logits, query_logits

    # ---- stage 1 ------------------------------------------------------------------------------
    def stage1(self, frames: torch.Tensor, masked: torch.Tensor, caption: torch.Tensor):
        """frames [B,k+2,36,64] (before, keyframes, after), masked [B,(k+2)*36] bool, caption [B,T]
        token ids (<pad> = 0 is ignored by attention). Returns (code logits at every frame position
        [B,(k+2)*36,256], align logit [B], consistency logit [B])."""
        b, f = frames.shape[:2]
        tokens = self.feat_in(frames)  # [B,F,36,d]
        # difference signal only where both end patches are visible (it would leak masked content)
        visible_ends = (~masked[:, :N_I]) & (~masked[:, (f - 1) * N_I :])
        diff = self.diff_in((frames[:, -1] - frames[:, 0]) * self.diff_scale) * visible_ends.unsqueeze(-1).to(
            tokens.dtype
        )
        tokens = torch.cat(
            [tokens[:, :1] + diff.unsqueeze(1), tokens[:, 1 : f - 1], tokens[:, f - 1 :] + diff.unsqueeze(1)], 1
        )
        tokens = tokens.reshape(b, f * N_I, self.d)
        tokens = torch.where(masked.unsqueeze(-1), self.mask_emb.view(1, 1, -1).expand_as(tokens), tokens)
        tokens = tokens + self.position(f)
        t = caption.shape[1]
        text = self.text_emb(caption) + self.text_pos(torch.arange(t))
        x = torch.cat(
            [
                self.align_token.view(1, 1, -1).expand(b, 1, self.d),
                text,
                self.csy_token.view(1, 1, -1).expand(b, 1, self.d),
                tokens,
            ],
            dim=1,
        )
        pad = torch.cat(
            [torch.zeros(b, 1, dtype=torch.bool), caption == 0, torch.zeros(b, 1 + f * N_I, dtype=torch.bool)], dim=1
        )
        bias = torch.zeros(pad.shape, dtype=x.dtype).masked_fill(pad, float("-inf")).view(b, 1, 1, -1)
        hidden = self._run(x, bias)
        frame_hidden = hidden[:, t + 2 :]
        return (
            self.msm_head(frame_hidden),
            self.align_head(hidden[:, 0]).squeeze(-1),
            self.csy_head(hidden[:, t + 1]).squeeze(-1),
        )


# ---- stage-1 masking schemes (one per sample) ---------------------------------------------------
def _block_box(gen: torch.Generator) -> tuple[int, int, int, int]:
    """RandomErasing-style box on the 6x6 grid: area 0.2-0.8 of the grid, aspect 0.5-2."""
    area = GRID * GRID * (0.2 + 0.6 * torch.rand(1, generator=gen).item())
    ratio = math.exp(math.log(0.5) + (math.log(2) - math.log(0.5)) * torch.rand(1, generator=gen).item())
    h = max(1, min(GRID, round(math.sqrt(area * ratio))))
    w = max(1, min(GRID, round(math.sqrt(area / ratio))))
    top = int(torch.randint(0, GRID - h + 1, (1,), generator=gen))
    left = int(torch.randint(0, GRID - w + 1, (1,), generator=gen))
    return top, left, h, w


def make_masks(batch: int, n_frames: int, gen: torch.Generator) -> torch.Tensor:
    """[B, n_frames*36] bool. Schemes as in the reference: random patches (~80%) p=0.7; everything
    p=0.1; a block through all frames (tube) p=0.1; everything outside that block p=0.1."""
    masks = torch.zeros(batch, n_frames, GRID, GRID, dtype=torch.bool)
    for i in range(batch):
        u = torch.rand(1, generator=gen).item()
        if u < 0.7:
            masks[i] = torch.rand(n_frames, GRID, GRID, generator=gen) < 0.8
        elif u < 0.8:
            masks[i] = True
        else:
            top, left, h, w = _block_box(gen)
            block = torch.zeros(GRID, GRID, dtype=torch.bool)
            block[top : top + h, left : left + w] = True
            masks[i] = (block if u < 0.9 else ~block).unsqueeze(0).expand(n_frames, GRID, GRID)
        if not masks[i].any():  # at least one target per sample
            masks[i, n_frames // 2, GRID // 2, GRID // 2] = True
    return masks.reshape(batch, n_frames * N_I)


def load_encoder_state(encoder: ProcedureEncoder, state: dict) -> int:
    """Loads a stage-2 (or stage-1) encoder state. Returns how many of the CONTEXT_SIZE layout features
    the state knew: 0 for one saved before the layout context (contract v2: the context embedding keeps
    its zero start), fewer than CONTEXT_SIZE for one saved before features were appended (contract v4:
    their input weights start at zero and their mean/std stay the encoder's, so it computes what it did)."""
    state = dict(state)
    weight = state.get("context_in.0.weight")
    known = 0 if weight is None else int(weight.shape[1])
    if weight is not None and known < CONTEXT_SIZE:
        state["context_in.0.weight"] = torch.cat([weight, weight.new_zeros(weight.shape[0], CONTEXT_SIZE - known)], 1)
        for name in ("context_mean", "context_std"):
            state[name] = torch.cat([state[name], getattr(encoder, name)[known:]])
    missing, unexpected = encoder.load_state_dict(state, strict=False)
    if unexpected or any(not k.startswith("context_") for k in missing):
        encoder.load_state_dict(state)  # strict: raises with the full list of mismatches
    return known


def context_stats(context: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean and std of the training set's layout features (std 1 where a feature is constant)."""
    std = context.std(0)
    return context.mean(0), torch.where(std > 1e-6, std, torch.ones_like(std))


class ExportProcedureEncoder(nn.Module):
    """ONNX graph: (before_features, after_features, before_image, after_image, context) -> (memory,
    kind_logits, query_code_logits)."""

    def __init__(self, encoder: ProcedureEncoder) -> None:
        super().__init__()
        self.encoder = encoder

    def forward(
        self,
        before_features: torch.Tensor,
        after_features: torch.Tensor,
        before_image: torch.Tensor,
        after_image: torch.Tensor,
        context: torch.Tensor,
    ):
        _, memory, kind_logits, query_logits = self.encoder.stage2(
            before_features, after_features, before_image, after_image, context=context
        )
        return memory, kind_logits, query_logits
