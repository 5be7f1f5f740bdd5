// The read thread (src/core/parallel-read.ts, read-worker.ts): the same reading as on the calling
// thread, on real PNGs and the real OCR models, and the rule for when readings go there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { readPngFile } from '../../src/core/image.js';
import { TextReader } from '../../src/core/read/ocr.js';
import { readPair } from '../../src/core/read/pair.js';
import { READ_THREAD_MAX_PIXELS, readElsewhere, readsOnThread, startReadThread } from '../../src/core/parallel-read.js';
import { blankImage } from './image-fixtures.js';
import { REPO_ROOT } from './runtime-fixtures.js';

const twoCores = os.availableParallelism() >= 2;

test('readings go to the read thread on two cores or more, unless the pipeline was given one thread', () => {
  assert.equal(readsOnThread(1), false);
  assert.equal(readsOnThread(undefined), twoCores);
  assert.equal(readsOnThread(2), twoCores);
});

test('the read thread reads the example pair exactly as this thread does', { skip: !twoCores && 'one core: no read thread' }, async () => {
  const before = readPngFile(path.join(REPO_ROOT, 'examples', 'before.png'));
  const after = readPngFile(path.join(REPO_ROOT, 'examples', 'after.png'));
  const boxes: [number, number, number, number][] = [
    [20, 330, 120, 400],
    [180, 95, 250, 119],
  ];
  assert.equal(await startReadThread(2), true, 'the OCR models load there');
  const there = await readElsewhere(before, after, boxes, 2);
  assert.ok(there, 'read on the thread');
  assert.ok(there.readMs > 0);
  const reader = new TextReader({ threads: 2 });
  try {
    const here = await readPair(reader, before, after, boxes);
    assert.deepEqual(there.reading, here);
    assert.ok(
      here.regions.some((v) => v !== undefined),
      'the reading explains a region',
    );
  } finally {
    await reader.dispose();
  }
});

test('a pair too large for shared memory, or a one-thread pipeline, is left to the caller', async () => {
  const side = Math.ceil(Math.sqrt(READ_THREAD_MAX_PIXELS)) + 1;
  const big = blankImage(side, side);
  assert.equal(await readElsewhere(big, big, [[0, 0, 10, 10]], 2), undefined);
  const small = blankImage(40, 40);
  assert.equal(await readElsewhere(small, small, [[0, 0, 10, 10]], 1), undefined);
});
