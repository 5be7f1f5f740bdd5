// Small numeric helpers shared by the kind decision (src/core/kind.ts) and pair consistency.

/** softmax of `length` values from `offset`, computed from the largest value down (no overflow). */
export function softmax(values: ArrayLike<number>, offset = 0, length = values.length): number[] {
  let max = -Infinity;
  for (let i = 0; i < length; i++) max = Math.max(max, values[offset + i]);
  const exps: number[] = [];
  let sum = 0;
  for (let i = 0; i < length; i++) {
    const e = Math.exp(values[offset + i] - max);
    exps.push(e);
    sum += e;
  }
  return exps.map((e) => e / sum);
}

/** log-softmax of `length` values from `offset`, in double precision. */
export function logSoftmax(values: ArrayLike<number>, offset: number, length: number): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < length; i++) max = Math.max(max, values[offset + i]);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += Math.exp(values[offset + i] - max);
  const lse = max + Math.log(sum);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = values[offset + i] - lse;
  return out;
}
