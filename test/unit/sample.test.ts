import { test } from 'node:test';
import assert from 'node:assert/strict';
import { confidenceWeights, patchCosineSimilarity, selectKeyframes, topKInTimeOrder } from '../../src/core/procap/sample.js';

test('patch cosine similarity: mean over patches, worked by hand', () => {
  // patch 0: (1,0)·(1,0) = 1; patch 1: (1,0)·(0,2) = 0; patch 2: (1,1)·(-1,-1) = -1 -> mean 0
  const a = Float32Array.of(1, 0, 1, 0, 1, 1);
  const b = Float32Array.of(1, 0, 0, 2, -1, -1);
  assert.ok(Math.abs(patchCosineSimilarity(a, 0, b, 0, 3, 2) - 0) < 1e-7);
  // same vectors scaled: similarity 1; offsets respected
  const c = Float32Array.of(9, 9, 3, 4, 6, 8);
  assert.ok(Math.abs(patchCosineSimilarity(c, 2, c, 4, 1, 2) - 1) < 1e-7);
});

test('confidence weights: w = 1 - softmax((s_before - s_after)^2), worked by hand', () => {
  // differences 0 and 1 -> squares 0, 1 -> softmax [1/(1+e), e/(1+e)]
  const w = confidenceWeights([0.5, 1], [0.5, 0]);
  const e = Math.E;
  assert.ok(Math.abs(w[0] - (1 - 1 / (1 + e))) < 1e-12);
  assert.ok(Math.abs(w[1] - (1 - e / (1 + e))) < 1e-12);
  // the frame as close to both ends (the middle of the change) gets the largest weight
  const seven = confidenceWeights([0.9, 0.8, 0.7, 0.5, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9]);
  assert.equal(seven.indexOf(Math.max(...seven)), 3);
  assert.ok(Math.abs(seven.reduce((x, y) => x + y, 0) - 6) < 1e-9, 'weights of 7 frames sum to 7 - 1');
  assert.throws(() => confidenceWeights([1], [1, 2]), /equal/);
});

test('top-k keyframes are returned in time order, ties go to the earlier frame', () => {
  assert.deepEqual(topKInTimeOrder([0.1, 0.9, 0.5, 0.9, 0.2], 2), [1, 3]);
  assert.deepEqual(topKInTimeOrder([0.3, 0.3, 0.3], 2), [0, 1]);
  assert.deepEqual(topKInTimeOrder([0.1, 0.2, 0.8, 0.7], 2), [2, 3]);
  assert.deepEqual(topKInTimeOrder([0.9, 0.1, 0.2, 0.8], 2), [0, 3]);
  assert.throws(() => topKInTimeOrder([1, 2], 3), /outside/);
});

test('selectKeyframes picks the midpoint frames of a linear change', () => {
  // 9 frames whose single 2-d patch feature rotates from (1,0) to (0,1): frames 4 (and its neighbours) are in the middle
  const frames = Array.from({ length: 9 }, (_, f) => {
    const angle = (f / 8) * (Math.PI / 2);
    return { data: Float32Array.of(Math.cos(angle), Math.sin(angle)), offset: 0 };
  });
  const sel = selectKeyframes(frames, 1, 2, 2);
  assert.equal(sel.scores.length, 7);
  assert.equal(sel.keyframes.length, 2);
  assert.ok(sel.keyframes.includes(4), `keyframes ${sel.keyframes} should include the middle frame 4`);
  assert.ok(sel.keyframes[0] < sel.keyframes[1]);
  for (const k of sel.keyframes) assert.ok(k >= 1 && k <= 7);
});
