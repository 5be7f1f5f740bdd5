// Load: many requests, hard cancellation, and memory over 500 describes in a row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Reviewer } from '../../src/core/reviewer.js';
import { MODELS_DIR, drawPng, screenPair } from '../unit/runtime-fixtures.js';

test('a describe that does not stop in time is cut off by restarting the worker; the queue goes on', async () => {
  const pair = screenPair();
  // hardCancelMs 0: the worker is replaced at once instead of waiting for the stage boundary
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu', hardCancelMs: 0 });
  try {
    await reviewer.warmUp();
    // the worker may still win the race and stop by itself; try a few times to see the restart
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 5 && !outcomes.includes('worker-restarted'); attempt++) {
      const startsBefore = reviewer.workerStarts;
      const controller = new AbortController();
      const cancelled = reviewer.describe(pair.before, pair.after, { signal: controller.signal, onCaptions: () => controller.abort() });
      const next = reviewer.describe(pair.before, pair.after);
      await assert.rejects(cancelled, { name: 'AbortError' });
      const report = await next;
      assert.ok(report.regions.length > 0, 'the request after the cancelled one is answered');
      outcomes.push(reviewer.lastCancel?.outcome ?? 'none');
      if (reviewer.lastCancel?.outcome === 'worker-restarted') assert.equal(reviewer.workerStarts, startsBefore + 1);
    }
    assert.ok(outcomes.includes('worker-restarted'), `outcomes: ${outcomes.join(', ')}`);
  } finally {
    await reviewer.dispose();
  }
});

test('memory stays bounded over 500 describes in a row (no leak of sessions or tensors)', async (t) => {
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu', threads: 1 });
  const before = drawPng(240, 160, [
    [20, 20, 100, 60, 0, 0, 200],
    [150, 100, 200, 130, 0, 150, 0],
  ]);
  const after = drawPng(240, 160, [
    [20, 40, 100, 80, 0, 0, 200],
    [150, 100, 200, 130, 200, 0, 0],
  ]);
  const rss: number[] = [];
  try {
    for (let i = 1; i <= 500; i++) {
      const report = await reviewer.describe(before, after);
      assert.ok(report.regions.length >= 2);
      if (i === 100 || i === 500) {
        (globalThis as { gc?: () => void }).gc?.();
        rss.push(process.memoryUsage().rss / 2 ** 20);
      }
    }
    const growth = rss[1] - rss[0];
    t.diagnostic(`RSS after 100 describes ${rss[0].toFixed(1)} MB, after 500 ${rss[1].toFixed(1)} MB`);
    // after warm-up (100 describes) the process must not keep growing: 400 more describes of a
    // pair with procedure frames would leak far more than this if tensors or sessions were kept
    assert.ok(growth < 64, `RSS grew ${growth.toFixed(1)} MB from describe 100 (${rss[0].toFixed(0)} MB) to 500 (${rss[1].toFixed(0)} MB)`);
    assert.equal(reviewer.workerStarts, 1, 'one worker, sessions reused');
  } finally {
    await reviewer.dispose();
  }
});
