// Pair consistency of change kinds (models/contract.json "pair_consistency"). The regions of one
// screenshot pair often come from the same change: a padding change shows up as several shifted
// blocks, a move as the old and the new place. Where one of them is read clearly and another is not,
// the clear one should help: each region's kind log-probabilities get w * log(mean of the other
// regions' kind probabilities + floor). A region alone in its pair is left as it is; the floor keeps a
// kind no other region shows possible. Measured on validation (models/MODEL_CARD.md).
// training/pair_consistency.py is the same rule for the evaluation; both test the same worked numbers.

import { logSoftmax } from './math.js';

export interface PairConsistencyRule {
  /** w; 0 turns the rule off */
  weight: number;
  /** added to the others' mean probability before the log */
  floor: number;
}

interface ContractPairConsistency {
  weight: number;
  floor: number;
}

/** A contract's rule, or undefined when it has none or its weight is 0; a floor not above 0 is refused. */
export function contractPairConsistency(c: { pair_consistency?: ContractPairConsistency }): PairConsistencyRule | undefined {
  const p = c.pair_consistency;
  if (!p || !(p.weight > 0)) return undefined;
  if (!(p.floor > 0)) throw new Error(`contract pair_consistency: floor must be above 0 (it is ${p.floor})`);
  return { weight: p.weight, floor: p.floor };
}

/**
 * logits: [rows, kinds] fused kind logits of one pair's samples (committee + prior, as decided so far);
 * joins[r]: whether row r takes part (the whole-screen sample does not). Returns new [rows, kinds] logits:
 * for a joining row with at least one other joining row, log_softmax(z_r) + w * log(mean over the other
 * joining rows j of softmax(z_j) + floor); every other row unchanged.
 */
export function pairConsistentLogits(logits: ArrayLike<number>, kinds: number, joins: boolean[], rule: PairConsistencyRule): Float32Array {
  const rows = joins.length;
  if (logits.length !== rows * kinds) throw new Error(`pair consistency: ${logits.length} logits for ${rows} rows of ${kinds} kinds`);
  const out = Float32Array.from(logits);
  const members = joins.map((j, r) => (j ? r : -1)).filter((r) => r >= 0);
  if (members.length < 2 || rule.weight <= 0) return out;
  const logProbs = members.map((r) => logSoftmax(logits, r * kinds, kinds));
  const total = new Float64Array(kinds);
  for (const lp of logProbs) for (let k = 0; k < kinds; k++) total[k] += Math.exp(lp[k]);
  members.forEach((r, m) => {
    const own = logProbs[m];
    for (let k = 0; k < kinds; k++) {
      const othersMean = (total[k] - Math.exp(own[k])) / (members.length - 1);
      out[r * kinds + k] = own[k] + rule.weight * Math.log(Math.max(0, othersMean) + rule.floor);
    }
  });
  return out;
}
