import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEPT_REVIEWS, Reviewer } from '../../src/core/reviewer.js';
import { SessionManager } from '../../src/core/session.js';
import { describe } from '../../src/core/pipeline.js';
import type { ChangeReport } from '../../src/core/report.js';
import { MODELS_DIR, drawPng, screenPair } from '../unit/runtime-fixtures.js';

test('describe in the worker gives the same report as describe in-process', async () => {
  const pair = screenPair();
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu' });
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const viaWorker = await reviewer.describe(pair.before, pair.after);
    const inProcess = await describe(sessions, pair.before, pair.after);
    assert.equal(viaWorker.summary, inProcess.summary);
    assert.deepEqual(
      viaWorker.regions.map((r) => [r.kind, r.caption, r.boxBefore]),
      inProcess.regions.map((r) => [r.kind, r.caption, r.boxBefore]),
    );
    assert.equal(viaWorker.provider, 'cpu');
  } finally {
    await reviewer.dispose();
    await sessions.dispose();
  }
});

test('review: the report without frames, then the frames from the worker, as describe gives them', async () => {
  const pair = screenPair();
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const whole = await reviewer.describe(pair.before, pair.after);
    const reviewed = await reviewer.review(pair.before, pair.after);
    assert.ok(
      reviewed.report.regions.every((r) => r.procedure === undefined),
      'no frames in the first answer',
    );
    assert.equal(reviewed.report.timings.interpolateMs, 0);
    const framed = await reviewed.withProcedure();
    assert.equal(reviewer.lastProcedure, 'kept');
    assert.equal(await reviewed.withProcedure(), framed, 'asked twice, computed once');
    const strip = (r: ChangeReport) => ({ ...r, timings: undefined });
    assert.deepEqual(strip(framed), strip(whole));
    assert.ok(framed.regions.some((r) => r.procedure?.frames.length === 9));
  } finally {
    await reviewer.dispose();
  }
});

test('review: frames of a pair the worker no longer keeps are made by describing it again', async () => {
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const first = screenPair();
    const reviewed = await reviewer.review(first.before, first.after);
    // KEPT_REVIEWS newer pairs push the first one out of the worker's keeping
    for (let i = 0; i < KEPT_REVIEWS; i++) {
      await reviewer.review(
        drawPng(120, 80, [[10 + i, 10, 40 + i, 30, 0, 0, 200]]),
        drawPng(120, 80, [[10 + i, 20, 40 + i, 40, 0, 0, 200]]),
      );
    }
    const framed = await reviewed.withProcedure();
    assert.equal(reviewer.lastProcedure, 'described-again');
    const whole = await reviewer.describe(first.before, first.after);
    const strip = (r: ChangeReport) => ({ ...r, timings: undefined });
    assert.deepEqual(strip(framed), strip(whole));
  } finally {
    await reviewer.dispose();
  }
});

test('the caller event loop keeps running while the worker describes', async () => {
  const big = drawPng(1600, 1000, [[100, 100, 400, 200, 0, 0, 200]]);
  const big2 = drawPng(1600, 1000, [
    [100, 140, 400, 240, 0, 0, 200],
    [900, 500, 1000, 560, 200, 0, 0],
  ]);
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
    }, 1);
    let done = false;
    const pending = reviewer.describe(big, big2).then((r) => {
      done = true;
      return r;
    });
    // the main thread gets turns while the describe is still running
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ticksWhileRunning = ticks;
    const report = await pending;
    clearInterval(timer);
    assert.ok(report.regions.length >= 2);
    assert.ok(ticksWhileRunning > 0, 'timers fired during the describe');
    void done;
  } finally {
    await reviewer.dispose();
  }
});

test('20 requests at once are queued and all answered, in order', async () => {
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu', procedure: false });
  try {
    const pairs = Array.from({ length: 20 }, (_, i) => ({
      before: drawPng(200, 120, [[10 + i, 10, 60 + i, 40, 0, 0, 200]]),
      after: drawPng(200, 120, [[10 + i, 30, 60 + i, 60, 0, 0, 200]]),
    }));
    const finished: number[] = [];
    const reports = await Promise.all(
      pairs.map((p, i) =>
        reviewer.describe(p.before, p.after).then((r) => {
          finished.push(i);
          return r;
        }),
      ),
    );
    assert.equal(reports.length, 20);
    reports.forEach((r, i) => {
      assert.ok(
        r.regions.some((x) => x.boxBefore[0] <= 10 + i && x.boxBefore[2] >= 60 + i),
        `report ${i} belongs to pair ${i}`,
      );
    });
    assert.deepEqual(
      finished,
      [...finished].sort((a, b) => a - b),
    );
    assert.equal(reviewer.pending, 0);
  } finally {
    await reviewer.dispose();
  }
});

test('cancel: a queued request never runs, a running one is rejected and the next still runs', async () => {
  const pair = screenPair();
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const running = new AbortController();
    const queued = new AbortController();
    let captionsOfCancelled = 0;
    const first = reviewer.describe(pair.before, pair.after, {
      signal: running.signal,
      onCaptions: () => {
        captionsOfCancelled++;
        running.abort();
      },
    });
    const second = reviewer.describe(pair.before, pair.after, { signal: queued.signal });
    const third = reviewer.describe(pair.before, pair.after);
    queued.abort();
    await assert.rejects(second, { name: 'AbortError' });
    await assert.rejects(first, { name: 'AbortError' });
    const report = await third;
    assert.ok(report.regions.length > 0);
    assert.equal(captionsOfCancelled, 1);
    assert.equal(reviewer.workerStarts, 1, 'cancelled work stopped at a stage boundary, no worker restart needed');
    assert.equal(reviewer.lastCancel?.outcome, 'stopped', 'the worker abandoned the cancelled describe instead of finishing it');
    // an already aborted signal is refused at once
    await assert.rejects(reviewer.describe(pair.before, pair.after, { signal: AbortSignal.abort() }), { name: 'AbortError' });
  } finally {
    await reviewer.dispose();
  }
});

test('errors cross the thread with their name and file; dispose rejects what is pending', async () => {
  const pair = screenPair();
  const reviewer = new Reviewer({ modelsDir: MODELS_DIR, provider: 'cpu' });
  await assert.rejects(
    reviewer.describe('/no/such/before.png', pair.after),
    (err: Error & { file?: string }) =>
      err.name === 'ImageInputError' && err.file === '/no/such/before.png' && err.message.includes('/no/such/before.png'),
  );
  const warm = await reviewer.warmUp();
  assert.equal(warm.provider, 'cpu');
  const outcomes = [reviewer.describe(pair.before, pair.after), reviewer.describe(pair.before, pair.after)].map((p) =>
    p.then(
      () => 'answered',
      (e: Error) => e.message,
    ),
  );
  await reviewer.dispose();
  assert.deepEqual(await Promise.all(outcomes), ['Reviewer: disposed', 'Reviewer: disposed']);
  await assert.rejects(reviewer.describe(pair.before, pair.after), /after dispose/);
});

test('bad construction: missing models folder or worker script', () => {
  assert.throws(() => new Reviewer({ modelsDir: '/no/such/models' }), /models folder does not exist/);
  assert.throws(() => new Reviewer({ modelsDir: MODELS_DIR, workerPath: '/no/such/worker.js' }), /worker script is missing/);
});
