import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generatedPairs, makeCase, runPixelPipeline } from '../../src/lab/fuzz.js';
import { ImageInputError } from '../../src/core/image.js';

const FUZZ_CLI = fileURLToPath(new URL('../../src/lab/fuzz.js', import.meta.url));

function runFuzz(args: string[]): { status: number | null; summary: any } {
  const result = spawnSync(process.execPath, [FUZZ_CLI, ...args, '--json', '--no-real'], { encoding: 'utf8' });
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return { status: result.status, summary: JSON.parse(last) };
}

test('fuzz: a small run over generated pairs has no crash and no hang, and reaches both outcomes', () => {
  const { status, summary } = runFuzz(['--count', '80', '--seed', '3']);
  assert.equal(summary.cases, 80);
  assert.equal(summary.crashes, 0, JSON.stringify(summary.failures));
  assert.equal(summary.hangs, 0, JSON.stringify(summary.failures));
  assert.ok(summary.decoded_ok > 0, 'some cases run through diff, regions and crops');
  assert.ok(summary.clear_errors > 0, 'some cases are refused with a clear error');
  assert.equal(summary.decoded_ok + summary.clear_errors, 80);
  assert.ok(summary.max_rss_mb > 0);
  assert.equal(status, 0);
});

test('fuzz: the detector counts an exception, a dead worker and a hang, and keeps going', () => {
  // --inject-faults: case 7 throws a TypeError, case 19 kills its worker, case 31 never ends
  const { status, summary } = runFuzz(['--count', '40', '--inject-faults', '--timeout-ms', '5000']);
  assert.equal(summary.cases, 40);
  const outcomes = new Map(summary.failures.map((f: any) => [f.index, f.outcome]));
  assert.equal(outcomes.get(7), 'crash');
  assert.equal(outcomes.get(19), 'crash');
  assert.equal(outcomes.get(31), 'hang');
  assert.ok(summary.crashes >= 2 && summary.hangs >= 1);
  assert.equal(summary.crashes + summary.hangs + summary.decoded_ok + summary.clear_errors, 40, 'every case is accounted for');
  assert.equal(status, 1, 'crashes and hangs fail the run');
});

test('fuzz: cases are reproducible from (seed, number) and failures are clear input errors', () => {
  const seeds = generatedPairs();
  const first = makeCase(9, 123, seeds, []);
  const again = makeCase(9, 123, seeds, []);
  assert.deepEqual(again.mutations, first.mutations);
  assert.deepEqual(Buffer.from(again.before), Buffer.from(first.before));
  assert.deepEqual(Buffer.from(again.after), Buffer.from(first.after));
  let refused = 0;
  for (let i = 0; i < 40; i++) {
    const fuzzCase = makeCase(9, i, seeds, []);
    try {
      runPixelPipeline(fuzzCase.before, fuzzCase.after);
    } catch (error) {
      assert.ok(error instanceof ImageInputError, `case ${i} (${fuzzCase.mutations.join(', ')}): ${(error as Error).stack}`);
      assert.match((error as Error).message, /^(before|after)\.png: /);
      refused++;
    }
  }
  assert.ok(refused > 0);
});
