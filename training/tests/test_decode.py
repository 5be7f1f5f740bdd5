import torch

from training.config import BOS, EOS
from training.decode import CaptionDecoder, beam_decode, caption_loss, greedy_decode


def _decoder(vocab=20, seed=0):
    torch.manual_seed(seed)
    dec = CaptionDecoder(vocab, dropout=0.0)
    dec.eval()
    return dec


def test_step_with_cache_equals_full_forward():
    dec = _decoder()
    memory = torch.randn(3, 144, 128)
    tokens = torch.randint(4, 20, (3, 6))
    tokens[:, 0] = BOS
    with torch.no_grad():
        full = dec(tokens, memory)
        pk, pv = dec.empty_cache(3)
        for t in range(6):
            logits, pk, pv = dec.step(tokens[:, t : t + 1], torch.tensor([t]), memory, pk, pv)
            assert torch.allclose(logits, full[:, t], atol=1e-5), t
            assert pk.shape == (2, 3, t + 1, 128)
        # cached cross-attention keys/values give the same numbers
        pk, pv = dec.empty_cache(3)
        cross = dec.cross_cache(memory)
        logits, _, _ = dec.step(tokens[:, :1], torch.tensor([0]), memory, pk, pv, cross)
        assert torch.allclose(logits, full[:, 0], atol=1e-5)


def test_beam_width_one_equals_greedy():
    dec = _decoder(seed=3)
    memory = torch.randn(4, 144, 128)
    assert beam_decode(dec, memory, width=1) == greedy_decode(dec, memory)


def _beam_one_sample_at_a_time(decoder, memory, width, max_tokens=24):
    """The rule of beam_decode written per sample and per beam (the straightforward reading)."""
    results = []
    for i in range(memory.shape[0]):
        mem = memory[i : i + 1]
        beams = [(0.0, [BOS], decoder.empty_cache(1))]
        finished = []
        for pos in range(max_tokens - 1):
            candidates = []
            for score, seq, (pk, pv) in beams:
                logits, nk, nv = decoder.step(torch.tensor([[seq[-1]]]), torch.tensor([pos]), mem, pk, pv)
                top = torch.topk(torch.log_softmax(logits[0], -1), width)
                for lp, tok in zip(top.values.tolist(), top.indices.tolist(), strict=True):
                    candidates.append((score + lp, seq + [tok], (nk, nv)))
            candidates.sort(key=lambda c: -c[0])
            beams = []
            for cand in candidates:
                if cand[1][-1] == EOS:
                    finished.append((cand[0], cand[1][1:-1]))
                else:
                    beams.append(cand)
                if len(beams) == width:
                    break
            if not beams or (finished and max(f[0] for f in finished) > beams[0][0]):
                break
        if not finished:
            finished = [(s, seq[1:]) for s, seq, _ in beams]
        results.append(max(finished, key=lambda f: f[0])[1])
    return results


def test_batched_beam_search_equals_the_per_sample_rule():
    for seed in (4, 5):
        dec = _decoder(seed=seed).eval()
        memory = torch.randn(5, 144, 128)
        for width in (2, 3):
            with torch.no_grad():
                assert beam_decode(dec, memory, width=width) == _beam_one_sample_at_a_time(dec, memory, width)


def test_decoder_learns_a_fixed_caption():
    """A few optimisation steps on one target make greedy decoding produce it (the loss can fall)."""
    dec = _decoder(seed=1)
    dec.train()
    memory = torch.randn(2, 144, 128)
    target = torch.tensor([[BOS, 5, 6, 7, EOS, 0], [BOS, 8, 9, EOS, 0, 0]])
    opt = torch.optim.Adam(dec.parameters(), lr=3e-3)
    first = float(caption_loss(dec, memory, target, 0.0))
    for _ in range(60):
        loss = caption_loss(dec, memory, target, 0.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
    dec.eval()
    assert float(loss) < first / 4
    assert greedy_decode(dec, memory) == [[5, 6, 7], [8, 9]]
