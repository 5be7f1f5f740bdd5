// npm run --silent compare -- A.jsonl B.jsonl [--resamples N] [--seed S] [--json]
// Are two models really different on the same held-out pairs? Reads the per-pair files that
// `npm run eval -- ... --samples FILE` writes for each model and compares them pair by pair:
//   - kind accuracy: the regions one model gets right and the other wrong (exact McNemar test), and a
//     95% interval for the accuracy difference from a bootstrap over pairs (a pair's regions move
//     together, so pairs, not regions, are resampled);
//   - CIDEr-D: the mean per-pair difference with a 95% paired-bootstrap interval. Per-pair CIDEr-D
//     uses document frequencies from the references of the whole split, which both models share.
// With --by-pair, two runs that found different regions (the runtime with and without the text
// reader) are compared pair by pair: each pair's right kinds over its own regions, bootstrapped by pair.
// Differences of a few tenths of a point between two rounds are often inside these intervals; a
// decision rule should ask for the interval to exclude zero, not only for a higher figure.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from '../data/rng.js';
import { integerValue, parseOptions } from '../cli/args.js';

const USAGE = 'usage: npm run --silent compare -- A.jsonl B.jsonl [--by-pair] [--resamples N] [--seed S] [--json]';

/** One line of an `eval --samples` file: a pair, its summary's CIDEr-D x100, its model samples' kinds. */
export interface PairSample {
  pair: string;
  summary: string;
  cider: number;
  kinds: { truth: string; predicted: string }[];
}

export interface Interval {
  mean: number;
  lo: number;
  hi: number;
}

export interface Comparison {
  pairs: number;
  /** model regions (of A, when the runs are compared by pair) */
  regions: number;
  /** with byPair: B's model regions, and the flag */
  regions_b?: number;
  by_pair?: true;
  a: { kind_accuracy: number; cider: number };
  b: { kind_accuracy: number; cider: number };
  /** regions only A gets right / only B gets right (null when compared by pair) */
  kind_only_a: number | null;
  kind_only_b: number | null;
  /** exact two-sided McNemar p-value over those discordant regions (null when compared by pair) */
  kind_mcnemar_p: number | null;
  /** B minus A, with a 95% bootstrap interval over pairs */
  kind_accuracy_difference: Interval;
  cider_difference: Interval;
  resamples: number;
  seed: number;
}

/** Exact two-sided McNemar test: P(X <= min(b, c)) * 2 for X ~ Binomial(b + c, 1/2), capped at 1. */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  let logTerm = -n * Math.LN2,
    tail = 0; // log(C(n, i) / 2^n), updated term to term
  for (let i = 0; i <= Math.min(b, c); i++) {
    if (i > 0) logTerm += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

/** The `q` quantile (0..1) of sorted values, linear between neighbours. */
function quantile(sorted: number[], q: number): number {
  const x = q * (sorted.length - 1),
    i = Math.floor(x);
  return i + 1 < sorted.length ? sorted[i] + (x - i) * (sorted[i + 1] - sorted[i]) : sorted[i];
}

/**
 * 95% percentile-bootstrap interval of sum(numerator) / sum(denominator) over items resampled with
 * replacement (a mean when every denominator is 1; an accuracy over regions when items are pairs).
 */
export function bootstrapRatio(numerator: number[], denominator: number[], resamples: number, seed: number): Interval {
  const n = numerator.length;
  const ratio = (num: number, den: number) => (den ? num / den : 0);
  const mean = ratio(
    numerator.reduce((s, v) => s + v, 0),
    denominator.reduce((s, v) => s + v, 0),
  );
  if (!n) return { mean: 0, lo: 0, hi: 0 };
  const rng = new Rng(seed);
  const stats: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let num = 0,
      den = 0;
    for (let i = 0; i < n; i++) {
      const j = rng.int(0, n - 1);
      num += numerator[j];
      den += denominator[j];
    }
    stats.push(ratio(num, den));
  }
  stats.sort((x, y) => x - y);
  return { mean, lo: quantile(stats, 0.025), hi: quantile(stats, 0.975) };
}

/**
 * 95% percentile-bootstrap interval of sum(numB)/sum(denB) - sum(numA)/sum(denA) over items (pairs)
 * resampled with replacement: the accuracy difference of two runs whose items hold different numbers
 * of regions.
 */
export function bootstrapRatioDifference(
  numA: number[],
  denA: number[],
  numB: number[],
  denB: number[],
  resamples: number,
  seed: number,
): Interval {
  const n = numA.length;
  const sum = (xs: number[]) => xs.reduce((s, v) => s + v, 0);
  const ratio = (num: number, den: number) => (den ? num / den : 0);
  const mean = ratio(sum(numB), sum(denB)) - ratio(sum(numA), sum(denA));
  if (!n) return { mean: 0, lo: 0, hi: 0 };
  const rng = new Rng(seed);
  const stats: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let na = 0,
      da = 0,
      nb = 0,
      db = 0;
    for (let i = 0; i < n; i++) {
      const j = rng.int(0, n - 1);
      na += numA[j];
      da += denA[j];
      nb += numB[j];
      db += denB[j];
    }
    stats.push(ratio(nb, db) - ratio(na, da));
  }
  stats.sort((x, y) => x - y);
  return { mean, lo: quantile(stats, 0.025), hi: quantile(stats, 0.975) };
}

/**
 * Compares B against A on the same pairs (matched by id; both files must hold exactly the same pairs).
 * The runs must have found the same regions in every pair (kind accuracy is then paired region by
 * region, with McNemar's test) unless `byPair` is set: two runtimes that cut regions differently (with
 * and without the text reader, say) are then compared pair by pair - each pair's right kinds over its
 * own regions, resampled by pair - and McNemar's test, which needs the same regions, is not given.
 */
export function comparePairs(a: PairSample[], b: PairSample[], resamples = 2000, seed = 1, byPair = false): Comparison {
  const byId = new Map(b.map((p) => [p.pair, p]));
  if (byId.size !== b.length) throw new Error('the second file names a pair twice');
  if (a.length !== b.length || a.some((p) => !byId.has(p.pair))) {
    const missing = a.filter((p) => !byId.has(p.pair)).length;
    throw new Error(
      `the two files do not hold the same pairs (${a.length} and ${b.length} pairs, ${missing} of the first missing from the second): run both evaluations on the same --data and --count`,
    );
  }
  let onlyA = 0,
    onlyB = 0,
    rightA = 0,
    rightB = 0,
    regions = 0,
    regionsB = 0;
  const kindDiff: number[] = [],
    regionCount: number[] = [],
    ciderDiff: number[] = [],
    ones: number[] = [];
  const pairRightA: number[] = [],
    pairRightB: number[] = [],
    pairRegionsA: number[] = [],
    pairRegionsB: number[] = [];
  for (const pa of a) {
    const pb = byId.get(pa.pair) as PairSample;
    if (byPair) {
      const right = (p: PairSample) => p.kinds.filter((k) => k.truth === k.predicted).length;
      pairRightA.push(right(pa));
      pairRegionsA.push(pa.kinds.length);
      pairRightB.push(right(pb));
      pairRegionsB.push(pb.kinds.length);
      rightA += right(pa);
      rightB += right(pb);
      regions += pa.kinds.length;
      regionsB += pb.kinds.length;
      ciderDiff.push(pb.cider - pa.cider);
      ones.push(1);
      continue;
    }
    if (pa.kinds.length !== pb.kinds.length || pa.kinds.some((k, i) => k.truth !== pb.kinds[i].truth)) {
      throw new Error(
        `pair ${pa.pair}: the two runs found different regions (another runtime or other data?); a paired comparison needs the same regions (--by-pair compares pair by pair)`,
      );
    }
    let diff = 0;
    pa.kinds.forEach((k, i) => {
      const okA = k.truth === k.predicted,
        okB = pb.kinds[i].truth === pb.kinds[i].predicted;
      rightA += +okA;
      rightB += +okB;
      if (okA && !okB) onlyA++;
      if (okB && !okA) onlyB++;
      diff += +okB - +okA;
    });
    regions += pa.kinds.length;
    kindDiff.push(diff);
    regionCount.push(pa.kinds.length);
    ciderDiff.push(pb.cider - pa.cider);
    ones.push(1);
  }
  const mean = (xs: PairSample[]) => xs.reduce((s, p) => s + p.cider, 0) / Math.max(1, xs.length);
  if (byPair) {
    return {
      pairs: a.length,
      regions,
      regions_b: regionsB,
      by_pair: true,
      a: { kind_accuracy: regions ? rightA / regions : 0, cider: mean(a) },
      b: { kind_accuracy: regionsB ? rightB / regionsB : 0, cider: mean(b) },
      kind_only_a: null,
      kind_only_b: null,
      kind_mcnemar_p: null,
      kind_accuracy_difference: bootstrapRatioDifference(pairRightA, pairRegionsA, pairRightB, pairRegionsB, resamples, seed),
      cider_difference: bootstrapRatio(ciderDiff, ones, resamples, seed + 1),
      resamples,
      seed,
    };
  }
  return {
    pairs: a.length,
    regions,
    a: { kind_accuracy: regions ? rightA / regions : 0, cider: mean(a) },
    b: { kind_accuracy: regions ? rightB / regions : 0, cider: mean(b) },
    kind_only_a: onlyA,
    kind_only_b: onlyB,
    kind_mcnemar_p: mcnemarExact(onlyA, onlyB),
    kind_accuracy_difference: bootstrapRatio(kindDiff, regionCount, resamples, seed),
    cider_difference: bootstrapRatio(ciderDiff, ones, resamples, seed + 1),
    resamples,
    seed,
  };
}

export function readPairSamples(file: string): PairSample[] {
  if (!fs.existsSync(file)) throw new Error(`${file}: no such file (write it with npm run eval -- ... --samples ${file})`);
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((line, i) => {
      let row: PairSample;
      try {
        row = JSON.parse(line) as PairSample;
      } catch (err) {
        throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
      }
      if (typeof row.pair !== 'string' || typeof row.cider !== 'number' || !Array.isArray(row.kinds)) {
        throw new Error(`${file}:${i + 1}: not a line of npm run eval --samples (needs pair, cider, kinds)`);
      }
      return row;
    });
}

function main(argv: string[]): number {
  let files: string[], resamples: number, seed: number, json: boolean, byPair: boolean;
  try {
    const fail = (message: string) => new Error(`${message}\n${USAGE}`);
    const { values, positionals } = parseOptions(
      argv,
      {
        resamples: { type: 'string' },
        seed: { type: 'string' },
        json: { type: 'boolean' },
        'by-pair': { type: 'boolean' },
      },
      { positionals: true, error: fail },
    );
    const int = (name: 'resamples' | 'seed', min: number, fallback: number) => {
      const text = values[name];
      if (text === undefined) return fallback;
      const n = integerValue(text);
      if (n === undefined || n < min) throw fail(`--${name} must be an integer >= ${min}`);
      return n;
    };
    resamples = int('resamples', 100, 2000);
    seed = int('seed', 0, 1);
    json = values.json ?? false;
    byPair = values['by-pair'] ?? false;
    files = positionals;
    if (files.length !== 2) throw new Error(`two sample files are needed\n${USAGE}`);
  } catch (err) {
    process.stderr.write(`compare: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const c = comparePairs(readPairSamples(files[0]), readPairSamples(files[1]), resamples, seed, byPair);
    if (json) {
      process.stdout.write(JSON.stringify(c) + '\n');
      return 0;
    }
    const f = (x: number, d = 4) => x.toFixed(d);
    const iv = (x: Interval, d: number) => `${f(x.mean, d)} [${f(x.lo, d)}, ${f(x.hi, d)}]`;
    const verdict = (x: Interval) => (x.lo > 0 ? 'B better' : x.hi < 0 ? 'A better' : 'no difference shown');
    process.stdout.write(
      [
        `A ${files[0]}\nB ${files[1]}\n${c.pairs} pairs, ${c.by_pair ? `${c.regions} model regions in A, ${c.regions_b} in B (compared pair by pair)` : `${c.regions} model regions`}`,
        `kind accuracy   A ${f(c.a.kind_accuracy)}  B ${f(c.b.kind_accuracy)}  B-A ${iv(c.kind_accuracy_difference, 4)}  ${verdict(c.kind_accuracy_difference)}`,
        c.kind_mcnemar_p === null
          ? '                (no McNemar test: the runs found different regions)'
          : `                right only in A ${c.kind_only_a}, only in B ${c.kind_only_b}; exact McNemar p = ${c.kind_mcnemar_p.toPrecision(3)}`,
        `CIDEr-D         A ${f(c.a.cider, 2)}  B ${f(c.b.cider, 2)}  B-A ${iv(c.cider_difference, 2)}  ${verdict(c.cider_difference)}`,
        `(95% intervals: bootstrap over pairs, ${c.resamples} resamples, seed ${c.seed})`,
      ].join('\n') + '\n',
    );
    return 0;
  } catch (err) {
    process.stderr.write(`compare: ${(err as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
