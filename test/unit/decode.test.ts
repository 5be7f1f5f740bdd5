import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ort, SessionManager } from '../../src/core/session.js';
import {
  beamSearch,
  gatherCacheRows,
  greedyDecode,
  onnxStep,
  repeatRows,
  tokensToText,
  type StepFunction,
} from '../../src/core/procap/decode.js';
import { encodeProcedure } from '../../src/core/procap/encode.js';
import { CONTEXT_SIZE } from '../../src/core/context.js';
import { MODELS_DIR } from './runtime-fixtures.js';

// A tiny Markov "decoder" over V = {0 pad, 1 bos, 2 eos, 3 A, 4 B}: next-token probabilities
// depend on the previous token only. Its cache stores every row's token history (one float per
// position), and each step checks that the cache it receives matches the history of that row:
// a beam search that mixes up cache rows fails loudly.
const P: Record<number, number[]> = {
  1: [0, 0, 0, 0.6, 0.4], // after <bos>: A 0.6, B 0.4
  3: [0, 0, 0.4, 0.3, 0.3], // after A: <eos> 0.4, A 0.3, B 0.3
  4: [0, 0, 0.9, 0.05, 0.05], // after B: <eos> 0.9
  2: [0, 0, 1, 0, 0],
};
function markovStep(calls: { dims: number[] }[]): StepFunction {
  return async (tokens, step, _memory, pastKey, pastValue) => {
    const [L, B, T, D] = pastKey.dims as number[];
    assert.equal(T, step, 'cache length equals the step index');
    calls.push({ dims: [L, B, T, D] });
    const V = 5;
    const logits = new Float32Array(B * V);
    const grown = new Float32Array(L * B * (T + 1) * D);
    const past = pastKey.data as Float32Array;
    for (let b = 0; b < B; b++) {
      const tok = Number(tokens[b]);
      // the row's history: position 0 holds <bos>, later positions the tokens fed since
      if (T > 0) assert.equal(past[(b * T + 0) * D], 1, 'first cached token of every row is <bos>');
      const probs = P[tok] ?? P[2];
      for (let v = 0; v < V; v++) logits[b * V + v] = probs[v] > 0 ? Math.log(probs[v]) : -30;
      for (let l = 0; l < L; l++) {
        for (let t = 0; t < T; t++) {
          for (let d = 0; d < D; d++) grown[((l * B + b) * (T + 1) + t) * D + d] = past[((l * B + b) * T + t) * D + d];
        }
        for (let d = 0; d < D; d++) grown[((l * B + b) * (T + 1) + T) * D + d] = tok;
      }
    }
    void pastValue;
    const present = new ort.Tensor('float32', grown, [L, B, T + 1, D]);
    return { logits, vocabSize: V, presentKey: present, presentValue: present };
  };
}
const settings = { bos: 1, eos: 2, maxTokens: 6, layers: 1, dModel: 2 };
const memory = new ort.Tensor('float32', new Float32Array(2 * 3 * 2), [2, 3, 2]);

test('greedy decoding follows the most probable token and stops at <eos>', async () => {
  const calls: { dims: number[] }[] = [];
  const out = await greedyDecode(markovStep(calls), memory, 2, settings);
  assert.deepEqual(
    out.map((o) => o.tokens),
    [[3], [3]],
  ); // A then <eos>
  assert.ok(Math.abs(out[0].logProb - Math.log(0.6 * 0.4)) < 1e-6);
  assert.deepEqual(
    calls.map((c) => c.dims[2]),
    [0, 1],
    'the cache grows by one position per step',
  );
});

test('beam search finds the better sequence greedy misses (worked by hand)', async () => {
  // greedy: A <eos> = 0.6*0.4 = 0.24; beam 2 also keeps B: B <eos> = 0.4*0.9 = 0.36
  const out = await beamSearch(markovStep([]), memory, 2, 2, settings);
  assert.deepEqual(
    out.map((o) => o.tokens),
    [[4], [4]],
  );
  assert.ok(Math.abs(out[0].logProb - Math.log(0.36)) < 1e-6);
  // the other finished hypothesis comes along, for the pipeline's kind agreement: A <eos> = 0.24
  assert.deepEqual(
    out[0].alternatives?.map((h) => h.tokens),
    [[3]],
  );
  assert.ok(Math.abs((out[0].alternatives?.[0].logProb ?? 0) - Math.log(0.24)) < 1e-6);
});

test('beam width 1 is exactly greedy', async () => {
  const g = await greedyDecode(markovStep([]), memory, 2, settings);
  const b = await beamSearch(markovStep([]), memory, 2, 1, settings);
  assert.deepEqual(
    b.map(({ tokens, logProb }) => ({ tokens, logProb })),
    g,
  );
});

test('a banned token is never chosen, for its own sample only (slot tokens of text not read)', async () => {
  // sample 0 may not write A: greedy goes B <eos>; sample 1 is free: A <eos>
  const banned = [[3], undefined];
  const g = await greedyDecode(markovStep([]), memory, 2, { ...settings, banned });
  assert.deepEqual(
    g.map((o) => o.tokens),
    [[4], [3]],
  );
  assert.ok(Math.abs(g[0].logProb - Math.log(0.4 * 0.9)) < 1e-6, 'the other tokens keep their probabilities');
  const b = await beamSearch(markovStep([]), memory, 2, 2, { ...settings, banned: [[4], undefined] });
  assert.deepEqual(
    b.map((o) => o.tokens),
    [[3], [4]],
  );
  assert.ok(b[0].alternatives?.every((h) => !h.tokens.includes(4)));
});

test('cache row gathering and memory repetition', () => {
  // cache [L=1, B=3, T=1, D=2] rows r0, r1, r2 -> gather [2, 0, 0]
  const cache = new ort.Tensor('float32', Float32Array.of(0, 0, 1, 1, 2, 2), [1, 3, 1, 2]);
  const g = gatherCacheRows(cache, [2, 0, 0]);
  assert.deepEqual(g.dims, [1, 3, 1, 2]);
  assert.deepEqual([...(g.data as Float32Array)], [2, 2, 0, 0, 0, 0]);
  const mem = new ort.Tensor('float32', Float32Array.of(1, 2, 3, 4), [2, 1, 2]);
  assert.deepEqual([...(repeatRows(mem, 2).data as Float32Array)], [1, 2, 1, 2, 3, 4, 3, 4]);
});

test('token ids to text drops special tokens and stops at <eos>', () => {
  const vocab = { words: ['<pad>', '<bos>', '<eos>', '<unk>', 'the', 'button', 'moved'], pad: 0, bos: 1, eos: 2, unk: 3 };
  assert.equal(tokensToText([1, 4, 5, 3, 6, 2, 4], vocab), 'the button moved');
});

// The same properties on the shipped decoder_step.onnx with real memory from procedure_encoder.onnx.
async function realMemory(sessions: SessionManager, batch: number): Promise<ort.Tensor> {
  const c = sessions.contract;
  const n = batch * c.n_I * c.feat_dim;
  // deterministic pseudo-random features, different per sample
  const before = new Float32Array(n),
    after = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    before[i] = Math.sin(i * 0.37) * 0.5;
    after[i] = Math.cos(i * 0.11 + (i % 7)) * 0.5;
  }
  const size = c.image.size;
  const pixels = batch * 3 * size * size;
  const beforeImage = new Float32Array(pixels),
    afterImage = new Float32Array(pixels);
  for (let i = 0; i < pixels; i++) {
    beforeImage[i] = 0.5 + 0.5 * Math.sin(i * 0.013);
    afterImage[i] = 0.5 + 0.5 * Math.cos(i * 0.007);
  }
  // layout contexts: a small box near the top-left of a 1280x800 screen, a little different per sample
  const contexts = new Float32Array(batch * CONTEXT_SIZE);
  for (let i = 0; i < contexts.length; i++) contexts[i] = ((i * 7) % 11) * 0.1 + (i % CONTEXT_SIZE < 2 ? 40 : 0);
  const out = await encodeProcedure(
    await sessions.get('procedure_encoder'),
    before,
    after,
    beforeImage,
    afterImage,
    contexts,
    batch,
    c.n_I,
    c.feat_dim,
    size,
  );
  return out.memory;
}

function slice(memory: ort.Tensor, b: number): ort.Tensor {
  const [, N, D] = memory.dims as number[];
  return new ort.Tensor('float32', (memory.data as Float32Array).slice(b * N * D, (b + 1) * N * D), [1, N, D]);
}

test('real decoder: KV cache shapes, batch invariance, beam 1 = greedy, beam batch invariance', async () => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const c = sessions.contract;
    const session = await sessions.get('decoder_step');
    const dims: number[][] = [];
    const base = onnxStep(session);
    const recording: StepFunction = async (...args) => {
      const r = await base(...args);
      dims.push(r.presentKey.dims as number[]);
      return r;
    };
    const s = {
      bos: sessions.vocab.bos,
      eos: sessions.vocab.eos,
      maxTokens: c.max_caption_tokens - 1,
      layers: c.decoder_layers,
      dModel: c.d_model,
    };
    const memory3 = await realMemory(sessions, 3);
    const greedy = await greedyDecode(recording, memory3, 3, s);
    dims.forEach((d, t) => assert.deepEqual(d, [c.decoder_layers, 3, t + 1, c.d_model]));
    for (let b = 0; b < 3; b++) {
      const single = await greedyDecode(base, slice(memory3, b), 1, s);
      assert.deepEqual(single[0].tokens, greedy[b].tokens, `sample ${b}: batched and single decoding agree`);
      assert.ok(Math.abs(single[0].logProb - greedy[b].logProb) < 1e-3);
    }
    const beam1 = await beamSearch(base, memory3, 3, 1, s);
    assert.deepEqual(
      beam1.map((x) => x.tokens),
      greedy.map((x) => x.tokens),
    );
    const beam3 = await beamSearch(base, memory3, 3, 3, s);
    for (let b = 0; b < 3; b++) {
      const single = await beamSearch(base, slice(memory3, b), 1, 3, s);
      assert.deepEqual(single[0].tokens, beam3[b].tokens, `sample ${b}: batched and single beam search agree`);
      assert.ok(beam3[b].tokens.length <= s.maxTokens);
    }
  } finally {
    await sessions.dispose();
  }
});

// A decoder whose next token depends on its sample (read from the memory row, as the real decoder
// attends to it) and on the step: sample 0 says "A <eos>", sample 1 "B B B <eos>". Rows are checked
// against the memory they carry, so a search that drops a finished sample from the batch and mixes
// up the rows of the others fails.
function perSampleStep(calls: number[]): StepFunction {
  return async (tokens, step, memory, pastKey) => {
    const [L, B, T, D] = pastKey.dims as number[];
    calls.push(B);
    const [, N, M] = memory.dims as number[];
    assert.equal((memory.dims as number[])[0], B, 'memory rows follow the batch');
    const V = 5;
    const logits = new Float32Array(B * V).fill(-30);
    const grown = new Float32Array(L * B * (T + 1) * D);
    for (let b = 0; b < B; b++) {
      const sample = (memory.data as Float32Array)[b * N * M];
      const script = sample === 0 ? [3, 2] : [4, 4, 4, 2];
      const want = script[Math.min(step, script.length - 1)];
      // the others a little less likely, so beams have something to choose from
      for (let v = 2; v < V; v++) logits[b * V + v] = v === want ? Math.log(0.7) : Math.log(0.1);
      void tokens;
    }
    const present = new ort.Tensor('float32', grown, [L, B, T + 1, D]);
    return { logits, vocabSize: V, presentKey: present, presentValue: present };
  };
}

test('greedy and beam search drop finished samples from the batch and keep the others on their rows', async () => {
  const memory2 = new ort.Tensor('float32', Float32Array.from([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]), [2, 3, 2]);
  const greedyCalls: number[] = [];
  const g = await greedyDecode(perSampleStep(greedyCalls), memory2, 2, settings);
  assert.deepEqual(
    g.map((o) => o.tokens),
    [[3], [4, 4, 4]],
  );
  assert.deepEqual(greedyCalls, [2, 2, 1, 1], 'sample 0 stopped after its second step');
  const beamCalls: number[] = [];
  const b = await beamSearch(perSampleStep(beamCalls), memory2, 2, 2, settings);
  assert.deepEqual(
    b.map((o) => o.tokens),
    [[3], [4, 4, 4]],
  );
  assert.ok(beamCalls.length >= 4 && beamCalls.at(-1) === 2, `the last steps run sample 1's two beams only (${beamCalls.join(',')})`);
});

test('beam search stops a sample at the first finished hypothesis `accept` takes', async () => {
  const memory2 = new ort.Tensor('float32', Float32Array.from([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]), [2, 3, 2]);
  const all: number[] = [];
  const full = await beamSearch(perSampleStep(all), memory2, 2, 2, settings);
  assert.deepEqual(full[1].tokens, [4, 4, 4]);
  const some: number[] = [];
  const early = await beamSearch(perSampleStep(some), memory2, 2, 2, { ...settings, accept: (sample) => sample === 1 });
  assert.ok(some.length < all.length, `fewer steps (${some.length} < ${all.length})`);
  assert.deepEqual(early[0].tokens, full[0].tokens, 'a sample accept does not take searches as before');
  assert.ok(early[1].tokens.length < 3, 'sample 1 stopped at its first finished hypothesis');
});
