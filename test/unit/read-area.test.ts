// The area read around a changed region (src/core/read/reading.ts readRegion): a narrow one first,
// the wide one only where a line of the region runs past its sides. Real OCR on the example PNG.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readPngFile } from '../../src/core/image.js';
import { TextReader, borderColour } from '../../src/core/read/ocr.js';
import { readRegion } from '../../src/core/read/reading.js';
import type { Box } from '../../src/core/report.js';
import { REPO_ROOT } from './runtime-fixtures.js';

const image = readPngFile(path.join(REPO_ROOT, 'examples', 'before.png'));
const texts = (reading: Awaited<ReturnType<typeof readRegion>>) =>
  reading.changes.map((c) => (c.kind === 'added' ? c.after.text : c.before.text));
const rows = (box: Box) => Math.min(image.height, box[3] + 24) - Math.max(0, box[1] - 24);

test('a label on its own is read over the narrow area only, on both images', async () => {
  const reader = new TextReader();
  try {
    // "Close", between "Get started" and "Log out"
    const box: Box = [138, 345, 182, 367];
    const reading = await readRegion(reader, image, image, box);
    assert.deepEqual(texts(reading), ['Close']);
    assert.equal(reader.detectedPixels, 2 * (box[2] - box[0] + 2 * 32) * rows(box));
  } finally {
    await reader.dispose();
  }
});

test('a region that cuts a sentence is read again over the wide area, and the sentence read whole', async () => {
  const reader = new TextReader();
  try {
    // the word "plan" of "Review issue plan from meeting data fix" (x 16-265)
    const box: Box = [100, 60, 130, 78];
    const reading = await readRegion(reader, image, image, box);
    assert.deepEqual(texts(reading), ['Review issue plan from meeting data fix']);
    const narrow = 2 * (box[2] - box[0] + 2 * 32) * rows(box);
    const wide = 2 * (box[2] - box[0] + 2 * 160) * rows(box);
    assert.equal(reader.detectedPixels, narrow + wide);
  } finally {
    await reader.dispose();
  }
});

test('a line whose end was taken off is re-worded, though the shorter line kept its pixels', async () => {
  const reader = new TextReader();
  try {
    // "meeting data fix" (x 164-263) of "Review issue plan from meeting data fix" painted over with
    // the line's background: the pixels of what is left, "Review issue plan from", are unchanged
    const after = { width: image.width, height: image.height, data: new Uint8Array(image.data) };
    const [r, g, b] = borderColour(image, [10, 55, 275, 83]);
    for (let y = 55; y < 83; y++) {
      for (let x = 161; x < 275; x++) after.data.set([r, g, b], (y * image.width + x) * 4);
    }
    const reading = await readRegion(reader, image, after, [158, 60, 263, 78]);
    assert.deepEqual(
      reading.changes.map((c) => [c.kind, c.kind === 'added' ? undefined : c.before.text, c.kind === 'removed' ? undefined : c.after.text]),
      [['reworded', 'Review issue plan from meeting data fix', 'Review issue plan from']],
    );
  } finally {
    await reader.dispose();
  }
});
