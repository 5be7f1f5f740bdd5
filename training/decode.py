"""Caption decoder: a small pre-LN transformer decoder (self-attention, cross-attention to the
procedure encoder's memory, feed-forward), tied input/output embeddings, learned positions.

The same weights run two ways: `forward` over a whole caption (teacher forcing, training) and `step`,
one token with a self-attention key/value cache (exported as decoder_step.onnx; the runtime's greedy
and beam search call it once per token). Keys/values are cached per layer with the heads merged:
past_key/past_value [layers, B, T, d].
"""

from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .config import BOS, D_MODEL, DECODER_LAYERS, EOS, MAX_TOKENS, PAD


def _split(x: torch.Tensor, heads: int) -> torch.Tensor:
    b, n, d = x.shape
    return x.reshape(b, n, heads, d // heads).transpose(1, 2)


def _merge(x: torch.Tensor) -> torch.Tensor:
    b, h, n, hd = x.shape
    return x.transpose(1, 2).reshape(b, n, h * hd)


def _attend(q, k, v, heads: int, mask: torch.Tensor | None = None) -> torch.Tensor:
    qh, kh, vh = _split(q, heads), _split(k, heads), _split(v, heads)
    scores = (qh @ kh.transpose(-1, -2)) * (1.0 / math.sqrt(qh.shape[-1]))
    if mask is not None:
        scores = scores + mask
    return _merge(torch.softmax(scores, dim=-1) @ vh)


class DecoderLayer(nn.Module):
    def __init__(self, d: int, heads: int, ffn: int, dropout: float) -> None:
        super().__init__()
        self.heads = heads
        self.norm_self, self.norm_cross, self.norm_ffn = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.self_q, self.self_k, self.self_v, self.self_out = (nn.Linear(d, d) for _ in range(4))
        self.cross_q, self.cross_k, self.cross_v, self.cross_out = (nn.Linear(d, d) for _ in range(4))
        self.ffn = nn.Sequential(nn.Linear(d, ffn), nn.GELU(), nn.Linear(ffn, d))
        self.dropout = nn.Dropout(dropout)

    def _cross(self, x: torch.Tensor, memory: torch.Tensor, cross_kv=None) -> torch.Tensor:
        h = self.norm_cross(x)
        k, v = cross_kv if cross_kv is not None else (self.cross_k(memory), self.cross_v(memory))
        return self.cross_out(_attend(self.cross_q(h), k, v, self.heads))

    def forward(self, x: torch.Tensor, memory: torch.Tensor, causal: torch.Tensor) -> torch.Tensor:
        h = self.norm_self(x)
        x = x + self.dropout(self.self_out(_attend(self.self_q(h), self.self_k(h), self.self_v(h), self.heads, causal)))
        x = x + self.dropout(self._cross(x, memory))
        return x + self.dropout(self.ffn(self.norm_ffn(x)))

    def step(self, x: torch.Tensor, memory: torch.Tensor, past_k: torch.Tensor, past_v: torch.Tensor, cross_kv=None):
        """x [B,1,d]; past [B,T,d] -> (x, present_k [B,T+1,d], present_v). cross_kv: the memory's
        cross-attention keys/values when the caller caches them (Python search only)."""
        h = self.norm_self(x)
        k = torch.cat([past_k, self.self_k(h)], dim=1)
        v = torch.cat([past_v, self.self_v(h)], dim=1)
        x = x + self.self_out(_attend(self.self_q(h), k, v, self.heads))
        x = x + self._cross(x, memory, cross_kv)
        return x + self.ffn(self.norm_ffn(x)), k, v


class CaptionDecoder(nn.Module):
    def __init__(
        self,
        vocab_size: int,
        d: int = D_MODEL,
        layers: int = DECODER_LAYERS,
        heads: int = 4,
        ffn: int = 384,
        dropout: float = 0.1,
    ) -> None:
        super().__init__()
        self.d, self.vocab_size = d, vocab_size
        self.tok_emb = nn.Embedding(vocab_size, d)
        nn.init.normal_(self.tok_emb.weight, std=d**-0.5)
        self.pos_emb = nn.Embedding(MAX_TOKENS, d)
        self.layers = nn.ModuleList([DecoderLayer(d, heads, ffn, dropout) for _ in range(layers)])
        self.final_norm = nn.LayerNorm(d)
        self.emb_dropout = nn.Dropout(dropout)

    def _logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.final_norm(x) @ self.tok_emb.weight.t()  # tied output projection

    def forward(self, tokens: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        """tokens [B,T] (<bos> first), memory [B,M,d] -> logits [B,T,V] for the next token at each place."""
        t = tokens.shape[1]
        x = self.emb_dropout(self.tok_emb(tokens) + self.pos_emb(torch.arange(t, device=tokens.device)))
        causal = torch.full((t, t), float("-inf"), device=tokens.device).triu(1)
        for layer in self.layers:
            x = layer(x, memory, causal)
        return self._logits(x)

    def step(
        self,
        token: torch.Tensor,
        step: torch.Tensor,
        memory: torch.Tensor,
        past_key: torch.Tensor,
        past_value: torch.Tensor,
        cross_kvs=None,
    ):
        """token [B,1] int64, step [1] int64 (position of token), memory [B,M,d],
        past_key/past_value [L,B,T,d] -> (logits [B,V], present_key [L,B,T+1,d], present_value)."""
        x = self.tok_emb(token) + self.pos_emb(step).unsqueeze(0)
        keys, values = [], []
        for i, layer in enumerate(self.layers):
            x, k, v = layer.step(x, memory, past_key[i], past_value[i], None if cross_kvs is None else cross_kvs[i])
            keys.append(k)
            values.append(v)
        return self._logits(x)[:, 0], torch.stack(keys), torch.stack(values)

    def cross_cache(self, memory: torch.Tensor) -> list:
        return [(layer.cross_k(memory), layer.cross_v(memory)) for layer in self.layers]

    def empty_cache(self, batch: int) -> tuple[torch.Tensor, torch.Tensor]:
        z = torch.zeros(len(self.layers), batch, 0, self.d)
        return z, z.clone()


def caption_loss(decoder: CaptionDecoder, memory: torch.Tensor, tokens: torch.Tensor, smoothing: float):
    """tokens [B,T] = <bos> w1 .. <eos> <pad>..; teacher forcing, label smoothing, <pad> ignored."""
    logits = decoder(tokens[:, :-1], memory)
    target = tokens[:, 1:]
    return F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), target.reshape(-1), ignore_index=PAD, label_smoothing=smoothing
    )


@torch.no_grad()
def greedy_decode(decoder: CaptionDecoder, memory: torch.Tensor, max_tokens: int = MAX_TOKENS) -> list[list[int]]:
    """Greedy search with the KV-cache step (exactly what the runtime does). Returns word ids without
    <bos>/<eos>. At most max_tokens - 1 steps (the <bos> takes position 0)."""
    b = memory.shape[0]
    past_k, past_v = decoder.empty_cache(b)
    token = torch.full((b, 1), BOS, dtype=torch.long)
    cross = decoder.cross_cache(memory)
    out: list[list[int]] = [[] for _ in range(b)]
    done = torch.zeros(b, dtype=torch.bool)
    for pos in range(max_tokens - 1):
        logits, past_k, past_v = decoder.step(token, torch.tensor([pos]), memory, past_k, past_v, cross)
        nxt = logits.argmax(-1)
        for i in range(b):
            if not done[i]:
                if int(nxt[i]) == EOS:
                    done[i] = True
                else:
                    out[i].append(int(nxt[i]))
        if bool(done.all()):
            break
        token = nxt.unsqueeze(1)
    return out


@torch.no_grad()
def beam_decode(
    decoder: CaptionDecoder, memory: torch.Tensor, width: int = 3, max_tokens: int = MAX_TOKENS
) -> list[list[int]]:
    """Beam search, all samples and beams in one batch (rows b*width .. b*width+width-1 are sample b's
    beams; src/core/procap/decode.ts beamSearch does the same): score = sum of log-probabilities; each
    beam proposes its `width` best next tokens, the candidates are ranked (stable), those ending in <eos>
    become finished hypotheses and the others refill the beams; a sample stops when no beam is left or
    its best finished hypothesis beats every live one; the best finished hypothesis wins (live ones count
    only when none finished)."""
    batch, w = memory.shape[0], width
    rows_memory = memory.repeat_interleave(w, dim=0)
    past_key, past_value = decoder.empty_cache(batch * w)
    alive: list[list[tuple[float, list[int]]]] = [[(0.0, [])] for _ in range(batch)]
    finished: list[list[tuple[float, list[int]]]] = [[] for _ in range(batch)]
    closed = [False] * batch
    tokens = torch.full((batch * w, 1), BOS, dtype=torch.long)
    for pos in range(max_tokens - 1):
        if all(closed):
            break
        logits, new_key, new_value = decoder.step(tokens, torch.tensor([pos]), rows_memory, past_key, past_value)
        logp = torch.log_softmax(logits, dim=-1)
        top = torch.topk(logp, w, dim=-1)
        top_values, top_indices = top.values.tolist(), top.indices.tolist()
        source = list(range(batch * w))
        next_tokens = [EOS] * (batch * w)
        for b in range(batch):
            if closed[b]:
                continue
            candidates = [
                (score + lp, i, tok)
                for i, (score, _) in enumerate(alive[b])
                for lp, tok in zip(top_values[b * w + i], top_indices[b * w + i], strict=True)
            ]
            candidates.sort(key=lambda c: -c[0])
            keep: list[tuple[float, list[int], int]] = []
            for score, i, tok in candidates:
                if tok == EOS:
                    finished[b].append((score, alive[b][i][1]))
                else:
                    keep.append((score, alive[b][i][1] + [tok], i))
                if len(keep) == w:
                    break
            alive[b] = [(score, seq) for score, seq, _ in keep]
            if not keep or (finished[b] and max(f[0] for f in finished[b]) > keep[0][0]):
                closed[b] = True
            for j, (_, seq, i) in enumerate(keep):
                source[b * w + j] = b * w + i
                next_tokens[b * w + j] = seq[-1]
        index = torch.tensor(source)
        past_key, past_value = new_key[:, index], new_value[:, index]
        tokens = torch.tensor(next_tokens, dtype=torch.long).view(-1, 1)
    return [max(finished[b] or alive[b], key=lambda f: f[0])[1] for b in range(batch)]


class ExportDecoderStep(nn.Module):
    def __init__(self, decoder: CaptionDecoder) -> None:
        super().__init__()
        self.decoder = decoder

    def forward(self, token, step, memory, past_key, past_value):
        return self.decoder.step(token, step, memory, past_key, past_value)
