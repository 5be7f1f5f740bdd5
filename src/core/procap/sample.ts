// Confidence-based keyframe sampling (ProCap, contract "sampling"): each of the 7 intermediate
// frames P_j gets a similarity to the before and to the after frame; frames about as close to both
// ends (the middle of the change) get the highest confidence w_j; the top-k are the keyframes.
// Mirrors training/sample.py.

/**
 * Mean over the patches of the cosine similarity between two feature grids.
 * a and b hold `patches` rows of `dim` floats starting at aOffset / bOffset.
 */
export function patchCosineSimilarity(
  a: Float32Array,
  aOffset: number,
  b: Float32Array,
  bOffset: number,
  patches: number,
  dim: number,
): number {
  let total = 0;
  for (let p = 0; p < patches; p++) {
    let dot = 0,
      na = 0,
      nb = 0;
    const ia = aOffset + p * dim,
      ib = bOffset + p * dim;
    for (let d = 0; d < dim; d++) {
      const x = a[ia + d],
        y = b[ib + d];
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    // a zero vector has no direction: count it as similarity 0 (torch's cosine_similarity with eps does too)
    const denom = Math.max(Math.sqrt(na) * Math.sqrt(nb), 1e-8);
    total += dot / denom;
  }
  return total / patches;
}

/** w_j = 1 - softmax_j((sBefore_j - sAfter_j)^2). */
export function confidenceWeights(sBefore: number[], sAfter: number[]): number[] {
  if (sBefore.length !== sAfter.length || sBefore.length === 0) {
    throw new Error(`confidenceWeights: need two equal non-empty lists (got ${sBefore.length} and ${sAfter.length})`);
  }
  const sq = sBefore.map((s, j) => (s - sAfter[j]) ** 2);
  const max = Math.max(...sq);
  const exps = sq.map((v) => Math.exp(v - max));
  const sum = exps.reduce((x, y) => x + y, 0);
  return exps.map((e) => 1 - e / sum);
}

/** Indices of the k largest weights (ties: earlier frame first), returned in time order. */
export function topKInTimeOrder(weights: number[], k: number): number[] {
  if (k < 0 || k > weights.length) throw new Error(`topKInTimeOrder: k=${k} outside 0..${weights.length}`);
  const order = weights.map((w, i) => i).sort((i, j) => weights[j] - weights[i] || i - j);
  return order.slice(0, k).sort((i, j) => i - j);
}

export interface KeyframeSelection {
  /** w of each intermediate frame (index 0 = frame 1). */
  scores: number[];
  /** similarities used, for inspection. */
  simBefore: number[];
  simAfter: number[];
  /** indices into the 9-frame sequence (1..7), time order. */
  keyframes: number[];
}

/**
 * Keyframes for one sample from the tokenizer-encoder features of its 9 frames
 * (before, 7 intermediates, after). `frameFeatures[f]` is a Float32Array of patches*dim at offset.
 */
export function selectKeyframes(
  frameFeatures: { data: Float32Array; offset: number }[],
  patches: number,
  dim: number,
  k: number,
): KeyframeSelection {
  const n = frameFeatures.length;
  if (n < 3) throw new Error(`selectKeyframes: need before, intermediates and after (got ${n} frames)`);
  const before = frameFeatures[0],
    after = frameFeatures[n - 1];
  const simBefore: number[] = [],
    simAfter: number[] = [];
  for (let j = 1; j < n - 1; j++) {
    const f = frameFeatures[j];
    simBefore.push(patchCosineSimilarity(before.data, before.offset, f.data, f.offset, patches, dim));
    simAfter.push(patchCosineSimilarity(after.data, after.offset, f.data, f.offset, patches, dim));
  }
  const scores = confidenceWeights(simBefore, simAfter);
  const keyframes = topKInTimeOrder(scores, k).map((j) => j + 1);
  return { scores, simBefore, simAfter, keyframes };
}
