// Paired comparison of two evaluations (src/lab/compare.ts) and the per-pair file eval writes for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { bootstrapRatio, comparePairs, mcnemarExact, type PairSample } from '../../src/lab/compare.js';
import { MODELS_DIR, REPO_ROOT, screenPair, tempDir } from './runtime-fixtures.js';

const COMPARE = path.join(REPO_ROOT, 'dist', 'src', 'lab', 'compare.js');
const EVAL = path.join(REPO_ROOT, 'dist', 'src', 'lab', 'eval.js');
const node = (script: string, args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

test('exact McNemar p-values, worked by hand', () => {
  assert.equal(mcnemarExact(0, 0), 1);
  assert.ok(Math.abs(mcnemarExact(0, 6) - 2 / 64) < 1e-12); // both tails of 1/2^6
  assert.ok(Math.abs(mcnemarExact(1, 9) - 22 / 1024) < 1e-12); // 2 * (1 + 10) / 2^10
  assert.ok(Math.abs(mcnemarExact(9, 1) - 22 / 1024) < 1e-12); // symmetric
  assert.equal(mcnemarExact(3, 3), 1); // 2 * 42/64 > 1: capped
  // large counts stay finite and sensible
  const p = mcnemarExact(400, 500);
  assert.ok(p > 0 && p < 0.01, `p = ${p}`);
});

test('bootstrap interval: a constant collapses to it; the interval holds the mean', () => {
  assert.deepEqual(bootstrapRatio([2, 2, 2], [1, 1, 1], 200, 1), { mean: 2, lo: 2, hi: 2 });
  const num = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 1 : 0)),
    den = num.map(() => 1);
  const iv = bootstrapRatio(num, den, 500, 7);
  assert.equal(iv.mean, 0.25);
  assert.ok(iv.lo < 0.25 && iv.hi > 0.25 && iv.lo > 0.15 && iv.hi < 0.35, JSON.stringify(iv));
  assert.deepEqual(bootstrapRatio(num, den, 500, 7), iv, 'seeded: the same interval again');
});

function samples(n: number, rightA: (i: number) => boolean, rightB: (i: number) => boolean, ciderB = 0): [PairSample[], PairSample[]] {
  const make = (right: (i: number) => boolean, shift: number) =>
    Array.from({ length: n }, (_, i) => ({
      pair: `p${i}`,
      summary: 's',
      cider: 100 + (i % 7) + shift,
      kinds: [
        { truth: 'move', predicted: right(i) ? 'move' : 'reflow' },
        { truth: 'color', predicted: 'color' },
      ],
    }));
  return [make(rightA, 0), make(rightB, ciderB)];
}

test('comparePairs: a clear gain is shown, no gain is not, and mismatched runs are refused', () => {
  const [a, b] = samples(
    300,
    (i) => i % 3 !== 0,
    () => true,
    5,
  );
  const c = comparePairs(a, b, 500, 3);
  assert.equal(c.pairs, 300);
  assert.equal(c.regions, 600);
  assert.equal(c.kind_only_a, 0);
  assert.equal(c.kind_only_b, 100);
  assert.ok(c.kind_mcnemar_p !== null && c.kind_mcnemar_p < 1e-6);
  assert.ok(Math.abs(c.kind_accuracy_difference.mean - 100 / 600) < 1e-12);
  assert.ok(c.kind_accuracy_difference.lo > 0, 'the interval excludes zero');
  assert.ok(Math.abs(c.cider_difference.mean - 5) < 1e-9 && c.cider_difference.lo === 5 && c.cider_difference.hi === 5);
  // the same predictions: nothing shown
  const same = comparePairs(a, a, 500, 3);
  assert.equal((same.kind_only_a ?? -1) + (same.kind_only_b ?? -1), 0);
  assert.equal(same.kind_mcnemar_p, 1);
  assert.deepEqual([same.cider_difference.lo, same.cider_difference.hi], [0, 0]);
  // a few flips either way: the interval straddles zero
  const [x, y] = samples(
    300,
    (i) => i % 50 !== 0,
    (i) => i % 50 !== 1,
  );
  const mixed = comparePairs(x, y, 500, 3);
  assert.ok(mixed.kind_accuracy_difference.lo < 0 && mixed.kind_accuracy_difference.hi > 0);
  // refusals
  assert.throws(() => comparePairs(a, b.slice(1)), /do not hold the same pairs/);
  const otherRegions = b.map((p, i) => (i === 5 ? { ...p, kinds: p.kinds.slice(0, 1) } : p));
  assert.throws(() => comparePairs(a, otherRegions), /pair p5: the two runs found different regions/);
});

test('comparePairs --by-pair: runs that found different regions are compared pair by pair, without McNemar', () => {
  const [a] = samples(
    300,
    (i) => i % 3 !== 0,
    () => true,
  );
  // B found one more region in every pair and got all of its kinds right
  const b = a.map((p) => ({
    ...p,
    cider: p.cider - 10,
    kinds: [...p.kinds.map((k) => ({ ...k, predicted: k.truth })), { truth: 'text', predicted: 'text' }],
  }));
  const c = comparePairs(a, b, 500, 3, true);
  assert.equal(c.by_pair, true);
  assert.equal(c.regions, 600);
  assert.equal(c.regions_b, 900);
  assert.equal(c.kind_mcnemar_p, null);
  assert.ok(Math.abs(c.a.kind_accuracy - 500 / 600) < 1e-12 && c.b.kind_accuracy === 1);
  assert.ok(Math.abs(c.kind_accuracy_difference.mean - (1 - 500 / 600)) < 1e-12);
  assert.ok(c.kind_accuracy_difference.lo > 0, 'the interval excludes zero');
  assert.ok(c.cider_difference.hi < 0 && Math.abs(c.cider_difference.mean + 10) < 1e-9);
  // the same run against itself: no difference
  const same = comparePairs(a, a, 500, 3, true);
  assert.deepEqual([same.kind_accuracy_difference.lo, same.kind_accuracy_difference.hi], [0, 0]);
});

test('eval --samples writes a line per pair that compare reads; compare checks its input', () => {
  const dir = tempDir('evalsamples');
  const pair = screenPair();
  const manifest: string[] = [];
  const references: Record<string, string[]> = {
    'pair-a': ['the blue button moved far down and the badge turned red', 'the button shifted far down'],
    'pair-b': ['the green highlights across the page became red', 'the badge is now red'],
  };
  for (const id of ['pair-a', 'pair-b']) {
    fs.mkdirSync(path.join(dir, id));
    fs.writeFileSync(path.join(dir, id, 'before.png'), pair.before);
    fs.writeFileSync(path.join(dir, id, 'after.png'), pair.after);
    manifest.push(
      JSON.stringify({
        id,
        before: `${id}/before.png`,
        after: `${id}/after.png`,
        captions: references[id],
        changes: [
          { kind: 'move', bbox_before: [40, 200, 140, 236], bbox_after: [40, 224, 140, 260] },
          { kind: 'color', bbox_before: [360, 60, 420, 84], bbox_after: [360, 60, 420, 84] },
        ],
      }),
    );
  }
  fs.writeFileSync(path.join(dir, 'manifest.jsonl'), manifest.join('\n') + '\n');
  const file = path.join(dir, 'a.jsonl');
  const run = node(EVAL, ['--split', 'val', '--data', dir, '--models', MODELS_DIR, '--provider', 'cpu', '--samples', file, '--json']);
  assert.equal(run.status, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  const lines = fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => l.pair),
    ['pair-a', 'pair-b'],
  );
  for (const l of lines) {
    assert.ok(typeof l.summary === 'string' && l.summary.length > 0);
    assert.ok(l.kinds.length >= 1 && l.kinds.every((k: { truth: string }) => ['move', 'color', 'reflow', 'none'].includes(k.truth)));
  }
  // the per-pair CIDEr-D averages to the reported one
  assert.ok(
    lines.some((l) => l.cider > 0),
    'a summary that shares words with its references scores',
  );
  const mean = lines.reduce((s, l) => s + l.cider, 0) / lines.length;
  assert.ok(Math.abs(mean - result.cider) < 0.01, `${mean} vs ${result.cider}`);
  // an existing file is not overwritten: refused before any work
  const again = node(EVAL, ['--split', 'val', '--data', dir, '--samples', file]);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /the file exists/);
  // compare the run with itself
  const same = node(COMPARE, [file, file]);
  assert.equal(same.status, 0, same.stderr);
  assert.match(same.stdout, /no difference shown/);
  assert.match(same.stdout, /right only in A 0, only in B 0/);
  // bad input: clear messages and exit codes
  const usage = node(COMPARE, [file]);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /two sample files are needed/);
  const missing = node(COMPARE, [file, path.join(dir, 'nope.jsonl')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /no such file/);
  fs.writeFileSync(path.join(dir, 'bad.jsonl'), '{"pair": "x"}\n');
  const bad = node(COMPARE, [file, path.join(dir, 'bad.jsonl')]);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /bad\.jsonl:1: not a line of npm run eval --samples/);
});
