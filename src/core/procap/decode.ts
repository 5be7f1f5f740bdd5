// Caption decoding (ProCap stage 2 decoder): one decoder step per token with a self-attention
// key/value cache (the step model takes the past keys/values and returns them one longer), greedy
// or beam search. All samples (and all beams) run in one batch. Mirrors training/decode.py.
import { ort, type Vocabulary } from '../session.js';

/** One decoder step over a batch: logits [B, V] and the cache grown by one position. */
export interface StepResult {
  logits: Float32Array;
  vocabSize: number;
  presentKey: ort.Tensor;
  presentValue: ort.Tensor;
}
export type StepFunction = (
  tokens: BigInt64Array,
  step: number,
  memory: ort.Tensor,
  pastKey: ort.Tensor,
  pastValue: ort.Tensor,
) => Promise<StepResult>;

/** The decoder_step ONNX model as a StepFunction. */
export function onnxStep(session: ort.InferenceSession): StepFunction {
  return async (tokens, step, memory, pastKey, pastValue) => {
    const batch = tokens.length;
    const out = await session.run({
      token: new ort.Tensor('int64', tokens, [batch, 1]),
      step: new ort.Tensor('int64', BigInt64Array.of(BigInt(step)), [1]),
      memory,
      past_key: pastKey,
      past_value: pastValue,
    });
    const logits = out.logits.data as Float32Array;
    return { logits, vocabSize: logits.length / batch, presentKey: out.present_key, presentValue: out.present_value };
  };
}

export interface DecodeSettings {
  bos: number;
  eos: number;
  /** per sample: token ids never to choose (the slot tokens of text the reader did not read there) */
  banned?: (readonly number[] | undefined)[];
  /** most decoder steps (positions 0 .. maxTokens-1; training/decode.py runs max_caption_tokens - 1). */
  maxTokens: number;
  layers: number;
  dModel: number;
  /** runs between steps (cancellation). */
  checkpoint?: () => void;
  /** beam search: a sample stops at its first finished hypothesis this accepts (a search for one
   * caption of a given kind needs no better one after it) */
  accept?: (sample: number, tokens: readonly number[]) => boolean;
}

function emptyCache(layers: number, batch: number, dModel: number): ort.Tensor {
  return new ort.Tensor('float32', new Float32Array(0), [layers, batch, 0, dModel]);
}

function logSoftmaxRow(logits: Float32Array, offset: number, length: number, out: Float64Array, banned?: readonly number[]): void {
  let max = -Infinity;
  for (let i = 0; i < length; i++) max = Math.max(max, logits[offset + i]);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += Math.exp(logits[offset + i] - max);
  const logSum = Math.log(sum) + max;
  for (let i = 0; i < length; i++) out[i] = logits[offset + i] - logSum;
  // a banned token keeps the others' probabilities as they are: it is only never chosen
  if (banned) for (const v of banned) if (v >= 0 && v < length) out[v] = -Infinity;
}

export interface DecodedCaption {
  /** generated token ids without <bos> and without the final <eos>. */
  tokens: number[];
  /** sum of the log-probabilities of the generated tokens (the eos included when emitted). */
  logProb: number;
  /** beam search only: the other finished hypotheses, best first (the pipeline falls back on them
   *  when the best caption contradicts the region's kind). */
  alternatives?: { tokens: number[]; logProb: number }[];
}

/** Greedy decoding of `batch` captions at once; each stops at its <eos>. */
export async function greedyDecode(
  step: StepFunction,
  memory: ort.Tensor,
  batch: number,
  settings: DecodeSettings,
): Promise<DecodedCaption[]> {
  const results: DecodedCaption[] = Array.from({ length: batch }, () => ({ tokens: [], logProb: 0 }));
  // active: the samples still decoding, one row each in this order (a finished one leaves the batch)
  let active = Array.from({ length: batch }, (_, b) => b);
  let rowsMemory = memory;
  let tokens = new BigInt64Array(batch).fill(BigInt(settings.bos));
  let pastKey = emptyCache(settings.layers, batch, settings.dModel);
  let pastValue = emptyCache(settings.layers, batch, settings.dModel);
  let logRow: Float64Array | undefined;
  for (let t = 0; t < settings.maxTokens && active.length; t++) {
    settings.checkpoint?.();
    const out = await step(tokens, t, rowsMemory, pastKey, pastValue);
    const V = out.vocabSize;
    logRow ??= new Float64Array(V);
    const next = new BigInt64Array(active.length);
    const staying: number[] = [];
    active.forEach((b, p) => {
      logSoftmaxRow(out.logits, p * V, V, logRow as Float64Array, settings.banned?.[b]);
      let best = 0;
      for (let v = 1; v < V; v++) if ((logRow as Float64Array)[v] > (logRow as Float64Array)[best]) best = v;
      results[b].logProb += (logRow as Float64Array)[best];
      if (best === settings.eos) return;
      results[b].tokens.push(best);
      next[p] = BigInt(best);
      staying.push(p);
    });
    if (staying.length === active.length) {
      tokens = next;
      pastKey = out.presentKey;
      pastValue = out.presentValue;
    } else if (staying.length) {
      tokens = BigInt64Array.from(staying, (p) => next[p]);
      pastKey = gatherCacheRows(out.presentKey, staying);
      pastValue = gatherCacheRows(out.presentValue, staying);
      rowsMemory = selectRows(rowsMemory, staying);
    }
    active = staying.map((p) => active[p]);
  }
  return results;
}

/** Copies rows of a cache tensor [L, B, T, D] along B: row i of the result = row rows[i]. */
export function gatherCacheRows(cache: ort.Tensor, rows: number[]): ort.Tensor {
  const [L, B, T, D] = cache.dims as number[];
  const src = cache.data as Float32Array;
  const dst = new Float32Array(L * rows.length * T * D);
  const rowSize = T * D;
  for (let l = 0; l < L; l++) {
    for (let i = 0; i < rows.length; i++) {
      const from = (l * B + rows[i]) * rowSize;
      dst.set(src.subarray(from, from + rowSize), (l * rows.length + i) * rowSize);
    }
  }
  return new ort.Tensor('float32', dst, [L, rows.length, T, D]);
}

/** Rows `rows` of a batch tensor [B, ...] (memory [B, N, D]), in that order. */
export function selectRows(tensor: ort.Tensor, rows: number[]): ort.Tensor {
  const [B, ...rest] = tensor.dims as number[];
  const size = rest.reduce((a, b) => a * b, 1);
  const src = tensor.data as Float32Array;
  const dst = new Float32Array(rows.length * size);
  rows.forEach((r, i) => {
    if (r < 0 || r >= B) throw new RangeError(`row ${r} of a batch of ${B}`);
    dst.set(src.subarray(r * size, (r + 1) * size), i * size);
  });
  return new ort.Tensor('float32', dst, [rows.length, ...rest]);
}

/** Repeats each batch row of memory [B, N, D] `times` times (beam rows of one sample are adjacent). */
export function repeatRows(memory: ort.Tensor, times: number): ort.Tensor {
  if (times === 1) return memory;
  const [B, N, D] = memory.dims as number[];
  const src = memory.data as Float32Array;
  const dst = new Float32Array(B * times * N * D);
  const row = N * D;
  for (let b = 0; b < B; b++) {
    for (let r = 0; r < times; r++) dst.set(src.subarray(b * row, (b + 1) * row), (b * times + r) * row);
  }
  return new ort.Tensor('float32', dst, [B * times, N, D]);
}

interface Hypothesis {
  tokens: number[];
  logProb: number;
}

/** Indices of the `count` largest values of row (ties: lower index first). */
function topIndices(row: Float64Array, count: number): number[] {
  const best: number[] = [];
  for (let v = 0; v < row.length; v++) {
    if (best.length < count || row[v] > row[best[best.length - 1]]) {
      let at = best.length;
      while (at > 0 && row[best[at - 1]] < row[v]) at--;
      best.splice(at, 0, v);
      if (best.length > count) best.pop();
    }
  }
  return best;
}

/**
 * Beam search of width `width` for `batch` samples at once (batch*width rows in every step), the
 * rule of training/decode.py: each beam proposes its `width` best next tokens; the candidates are
 * ranked by summed log-probability; those ending in <eos> become finished hypotheses, the others
 * refill the beams; a sample stops when no beam is left or its best finished hypothesis beats
 * every live beam. The best finished hypothesis wins (live ones when none finished); the others
 * come with it as `alternatives`, best first. Width 1 gives exactly the greedy result.
 */
export async function beamSearch(
  step: StepFunction,
  memory: ort.Tensor,
  batch: number,
  width: number,
  settings: DecodeSettings,
): Promise<DecodedCaption[]> {
  if (!Number.isInteger(width) || width < 1) throw new Error(`beam width must be a positive integer (got ${width})`);
  const W = width;
  // active: the samples still searching, in row order (sample active[p] on rows p*W .. p*W+W-1);
  // a sample that stops leaves the batch, so later steps run only the rows that still matter
  let active = Array.from({ length: batch }, (_, b) => b);
  let beamMemory = repeatRows(memory, W);
  // alive[b]: the live hypotheses of sample b (fewer than W at the start)
  const alive: Hypothesis[][] = Array.from({ length: batch }, () => [{ tokens: [], logProb: 0 }]);
  const finished: Hypothesis[][] = Array.from({ length: batch }, () => []);
  const closed = new Array<boolean>(batch).fill(false);
  let tokens = new BigInt64Array(batch * W).fill(BigInt(settings.bos));
  let pastKey = emptyCache(settings.layers, batch * W, settings.dModel);
  let pastValue = emptyCache(settings.layers, batch * W, settings.dModel);
  let logRow: Float64Array | undefined;

  for (let t = 0; t < settings.maxTokens && active.length; t++) {
    settings.checkpoint?.();
    const out = await step(tokens, t, beamMemory, pastKey, pastValue);
    const V = out.vocabSize;
    logRow ??= new Float64Array(V);
    const rows = active.length * W;
    const sourceRows: number[] = Array.from({ length: rows }, (_, r) => r);
    const nextTokens = new BigInt64Array(rows).fill(BigInt(settings.eos));
    active.forEach((b, p) => {
      const candidates: { row: number; token: number; logProb: number }[] = [];
      let accepted = false;
      alive[b].forEach((h, i) => {
        logSoftmaxRow(out.logits, (p * W + i) * V, V, logRow as Float64Array, settings.banned?.[b]);
        for (const v of topIndices(logRow as Float64Array, W)) {
          candidates.push({ row: i, token: v, logProb: h.logProb + (logRow as Float64Array)[v] });
        }
      });
      // stable sort: equal scores keep beam order, then token rank (as Python's sort does)
      candidates.sort((x, y) => y.logProb - x.logProb);
      const keep: Hypothesis[] = [];
      const keepRows: number[] = [];
      for (const c of candidates) {
        const previous = alive[b][c.row].tokens;
        if (c.token === settings.eos) {
          finished[b].push({ tokens: previous, logProb: c.logProb });
          if (settings.accept?.(b, previous)) accepted = true;
        } else {
          keep.push({ tokens: [...previous, c.token], logProb: c.logProb });
          keepRows.push(c.row);
        }
        if (keep.length === W) break;
      }
      alive[b] = keep;
      const bestFinished = Math.max(...finished[b].map((h) => h.logProb));
      if (accepted || !keep.length || (finished[b].length && bestFinished > keep[0].logProb)) closed[b] = true;
      keep.forEach((h, i) => {
        sourceRows[p * W + i] = p * W + keepRows[i];
        nextTokens[p * W + i] = BigInt(h.tokens[h.tokens.length - 1]);
      });
    });
    const staying = active.map((b, p) => (closed[b] ? -1 : p)).filter((p) => p >= 0);
    if (staying.length === active.length) {
      tokens = nextTokens;
      const identity = sourceRows.every((r, i) => r === i);
      pastKey = identity ? out.presentKey : gatherCacheRows(out.presentKey, sourceRows);
      pastValue = identity ? out.presentValue : gatherCacheRows(out.presentValue, sourceRows);
    } else if (staying.length) {
      const kept = staying.flatMap((p) => Array.from({ length: W }, (_, i) => p * W + i));
      tokens = BigInt64Array.from(kept, (r) => nextTokens[r]);
      pastKey = gatherCacheRows(
        out.presentKey,
        kept.map((r) => sourceRows[r]),
      );
      pastValue = gatherCacheRows(
        out.presentValue,
        kept.map((r) => sourceRows[r]),
      );
      beamMemory = selectRows(beamMemory, kept);
    }
    active = staying.map((p) => active[p]);
  }

  return Array.from({ length: batch }, (_, b) => {
    const pool = finished[b].length ? finished[b] : alive[b];
    // stable sort: of equal scores the earlier found wins, as the single best always did
    const ranked = pool.map((h) => ({ tokens: h.tokens, logProb: h.logProb })).sort((x, y) => y.logProb - x.logProb);
    const [best, ...alternatives] = ranked;
    return best ? { ...best, alternatives } : { tokens: [], logProb: -Infinity, alternatives: [] };
  });
}

/** Token ids -> caption text (special tokens dropped). */
export function tokensToText(tokens: number[], vocab: Vocabulary): string {
  const words: string[] = [];
  for (const id of tokens) {
    if (id === vocab.eos) break;
    if (id === vocab.pad || id === vocab.bos || id === vocab.unk) continue;
    const w = vocab.words[id];
    if (w !== undefined) words.push(w);
  }
  return words.join(' ');
}
