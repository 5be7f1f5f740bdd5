// Pair consistency of change kinds (src/core/pair-consistency.ts, contract "pair_consistency"): the same
// worked numbers as training/tests/test_pair_consistency.py.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import contract from '../../models/contract.json' with { type: 'json' };
import { contractPairConsistency, pairConsistentLogits } from '../../src/core/pair-consistency.js';

// one pair: two regions and the whole-screen sample (which does not join); weight 1, floor 0.5.
// row 0: log_softmax([2,0,0]) = [-0.2395, -2.2395, -2.2395]; the other region's probabilities
// softmax([0,1,0]) = [0.2119, 0.5761, 0.2119]; + log(p + 0.5) = [-0.3398, +0.0734, -0.3398].
const WORKED_IN = [2, 0, 0, 0, 1, 0, 0, 0, 5];
const WORKED_OUT = [-0.5793, -2.1662, -2.5793, -1.2991, -1.0515, -2.0515, 0, 0, 5];

test('worked numbers (as the Python side)', () => {
  const out = pairConsistentLogits(WORKED_IN, 3, [true, true, false], { weight: 1, floor: 0.5 });
  out.forEach((v, i) => assert.ok(Math.abs(v - WORKED_OUT[i]) < 1e-4, `value ${i}: ${v} vs ${WORKED_OUT[i]}`));
});

test('a clear region decides an unclear one of the same pair; alone, a region is unchanged', () => {
  const argmax = (v: Float32Array, r: number) => {
    const row = Array.from(v.subarray(r * 3, r * 3 + 3));
    return row.indexOf(Math.max(...row));
  };
  const z = [0.1, 0, 0, 0, 5, 0];
  const rule = { weight: 0.3, floor: 0.001 };
  const both = pairConsistentLogits(z, 3, [true, true], rule);
  assert.deepEqual([argmax(both, 0), argmax(both, 1)], [1, 1]);
  const alone = pairConsistentLogits([0.1, 0, 0], 3, [true], rule);
  assert.deepEqual(Array.from(alone), Array.from(Float32Array.from([0.1, 0, 0])));
  const screenApart = pairConsistentLogits(z, 3, [true, false], rule);
  assert.equal(argmax(screenApart, 0), 0, 'the whole-screen sample does not vote');
  assert.throws(() => pairConsistentLogits([1, 2], 3, [true], rule), /pair consistency/);
});

test("the rule comes from the models folder's contract; none, or weight 0, is off; a floor of 0 is refused", () => {
  assert.equal(contractPairConsistency({}), undefined);
  assert.equal(contractPairConsistency({ pair_consistency: { weight: 0, floor: 0.001 } }), undefined);
  assert.deepEqual(contractPairConsistency({ pair_consistency: { weight: 0.3, floor: 0.001 } }), { weight: 0.3, floor: 0.001 });
  assert.throws(() => contractPairConsistency({ pair_consistency: { weight: 0.3, floor: 0 } }), /floor/);
  const shipped = (contract as { pair_consistency?: { weight: number; floor: number } }).pair_consistency;
  assert.deepEqual(
    contractPairConsistency(contract as never),
    shipped && shipped.weight > 0 ? { weight: shipped.weight, floor: shipped.floor } : undefined,
  );
});
