import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { bleu, ciderCeiling, ciderD, rougeL, rougeLSample, scoreCaptions } from '../../src/core/metrics.js';
import { REPO_ROOT } from './runtime-fixtures.js';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

test('BLEU: a perfect candidate scores 1', () => {
  const s = bleu([{ candidate: 'the blue button moved down', references: ['the blue button moved down', 'a button moved'] }]);
  close(s[3], 1, 1e-6);
});

test('BLEU worked by hand: "the cat sat on the mat" vs "the cat is on the mat"', () => {
  // p1 = 5/6, p2 = 3/5, p3 = 1/4, p4 = 0/3; equal lengths so no brevity penalty
  const s = bleu([{ candidate: 'the cat sat on the mat', references: ['the cat is on the mat'] }]);
  close(s[0], 5 / 6, 1e-9);
  close(s[1], Math.sqrt((5 / 6) * (3 / 5)), 1e-9);
  close(s[2], 0.5, 1e-9); // (5/6 * 3/5 * 1/4)^(1/3) = 0.125^(1/3)
  assert.ok(s[3] < 1e-3, 'no 4-gram matches: BLEU-4 ~ 0');
});

test('BLEU brevity penalty: a short candidate is penalised by exp(1 - r/c)', () => {
  // candidate "a b" (c=2) vs reference "a b c d" (r=4): precisions 1, BP = exp(1 - 2) (BLEU-2 to avoid empty 3/4-grams)
  const s = bleu([{ candidate: 'a b', references: ['a b c d'] }], 2);
  close(s[1], Math.exp(-1), 1e-6);
});

test('ROUGE-L worked by hand', () => {
  // LCS("a b c d", "a c d e f") = 3: P = 3/4, R = 3/5, F(beta=1.2) = 2.44*0.45 / (0.6 + 1.44*0.75)
  close(rougeLSample('a b c d', ['a c d e f']), (2.44 * 0.45) / (0.6 + 1.08));
  close(rougeLSample('x y', ['a b']), 0);
  close(
    rougeL([
      { candidate: 'a b', references: ['a b'] },
      { candidate: 'x', references: ['y'] },
    ]),
    0.5,
  );
});

test('CIDEr-D worked by hand (coco definition, x10 per sample)', () => {
  // sample 1: candidate equals its only reference -> n=1 and n=2 cosines are 1, n=3,4 empty -> 10*(2/4) = 5
  // sample 2: "c d" vs "c e": unigram cosine 1/2 (all idf weights log 2), no bigram match -> 10*(0.5/4) = 1.25
  const r = ciderD([
    { candidate: 'a b', references: ['a b'] },
    { candidate: 'c d', references: ['c e'] },
  ]);
  close(r.perSample[0], 5, 1e-9);
  close(r.perSample[1], 1.25, 1e-9);
  close(r.score, 3.125, 1e-9);
  close(
    scoreCaptions([
      { candidate: 'a b', references: ['a b'] },
      { candidate: 'c d', references: ['c e'] },
    ]).cider,
    312.5,
    1e-6,
  );
});

test('CIDEr-D length penalty: exp(-(delta bigrams)^2 / 72)', () => {
  // candidate "a b" (1 bigram) vs reference "a b a b" ... use distinct documents so idf is non-zero
  const samples = [
    { candidate: 'a b', references: ['a b c'] },
    { candidate: 'x', references: ['y'] },
  ];
  const r = ciderD(samples);
  // unigram: hyp {a:L,b:L}, ref {a:L,b:L,c:L}: sum min*ref = 2L^2, norms sqrt2 L, sqrt3 L -> 2/sqrt6
  // bigram: hyp {ab:L}, ref {ab:L, bc:L}: L^2 / (L * sqrt2 L) = 1/sqrt2; delta = 1 - 2 = -1
  const expected = 10 * ((2 / Math.sqrt(6) + 1 / Math.SQRT2) / 4) * Math.exp(-1 / 72);
  close(r.perSample[0], expected, 1e-9);
});

test('CIDEr ceiling: each reference in turn against the others', () => {
  const refs = [
    ['a b', 'a b'],
    ['c d', 'c d', 'c d'],
  ];
  // every candidate equals all its remaining references: n=1,2 cosine 1 -> per sample 5, every round
  close(ciderCeiling(refs), 500, 1e-6);
  assert.equal(ciderCeiling([['only one']]), 0);
});

test('same numbers as training/metrics.py on a mixed set (when python3 and training/ are present)', (t) => {
  const python = '/usr/bin/python3';
  if (!fs.existsSync(path.join(REPO_ROOT, 'training', 'metrics.py')) || !fs.existsSync(python)) {
    t.skip('training/metrics.py or /usr/bin/python3 not present');
    return;
  }
  const samples = [
    {
      candidate: 'the blue button moved down',
      references: ['the blue button moved down slightly', 'blue button shifted down', 'the button moved lower'],
    },
    { candidate: 'the title turned red', references: ['the heading changed to red', 'the title is now red', 'title turned red'] },
    { candidate: 'no visible change', references: ['no visible change', 'nothing changed', 'the screens look the same'] },
    {
      candidate: 'a green badge was added',
      references: ['a badge appeared in the toolbar', 'a new green badge was added at the top right'],
    },
    { candidate: '', references: ['the icon changed'] },
  ];
  const script = `
import json, sys
sys.path.insert(0, ${JSON.stringify(REPO_ROOT)})
from training.metrics import bleu4, rouge_l, cider_d, cider_ceiling
d = json.loads(sys.stdin.read())
c = [s['candidate'] for s in d]; r = [s['references'] for s in d]
print(json.dumps({'bleu4': bleu4(c, r), 'rougeL': rouge_l(c, r), 'cider': cider_d(c, r), 'ceiling': cider_ceiling(r)}))`;
  const run = spawnSync(python, ['-c', script], { input: JSON.stringify(samples), encoding: 'utf8' });
  if (run.status !== 0) {
    t.skip(`python metrics not runnable here: ${run.stderr.split('\n').slice(-2).join(' ')}`);
    return;
  }
  const py = JSON.parse(run.stdout);
  const ts = scoreCaptions(samples);
  close(ts.bleu4, py.bleu4, 1e-9);
  close(ts.rougeL, py.rougeL, 1e-9);
  close(ts.cider, py.cider, 1e-6);
  close(ciderCeiling(samples.map((s) => s.references)), py.ceiling, 1e-6);
});
