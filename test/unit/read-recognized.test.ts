// Lines recognized once per pair: a box whose pixels were recognized in the pair's other reads takes
// that reading (TextReader, ReadOptions.recognized, keyed by pixelKey).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readPngFile, type RgbaImage } from '../../src/core/image.js';
import { TextReader, inkKey, pixelKey, type LineReadings } from '../../src/core/read/ocr.js';
import { blankImage, fillRect } from './image-fixtures.js';
import { REPO_ROOT } from './runtime-fixtures.js';

test('pixelKey: the same pixels anywhere give the same key, one pixel changed another', () => {
  const image = fillRect(fillRect(blankImage(200, 100), [10, 10, 60, 30], [20, 20, 20, 255]), [110, 60, 160, 80], [20, 20, 20, 255]);
  assert.equal(pixelKey(image, [5, 5, 65, 35]), pixelKey(image, [105, 55, 165, 85]));
  const changed: RgbaImage = { ...image, data: Uint8Array.from(image.data) };
  changed.data[(12 * 200 + 12) * 4] = 200;
  assert.notEqual(pixelKey(changed, [5, 5, 65, 35]), pixelKey(image, [5, 5, 65, 35]));
  assert.notEqual(pixelKey(image, [5, 5, 65, 35]), pixelKey(image, [5, 5, 66, 35]), 'another size');
});

test('inkKey: the same ink with more or less margin gives the same key; other ink or none does not', () => {
  const ink: [number, number, number, number] = [20, 20, 20, 255];
  const image = fillRect(fillRect(blankImage(200, 100), [10, 10, 60, 30], ink), [110, 60, 160, 80], ink);
  assert.equal(inkKey(image, [5, 5, 65, 35]), inkKey(image, [102, 57, 163, 84]));
  assert.notEqual(inkKey(image, [5, 5, 65, 35]), inkKey(image, [5, 5, 50, 35]), 'part of the ink');
  const other = fillRect({ ...image, data: Uint8Array.from(image.data) }, [120, 65, 130, 70], [200, 30, 30, 255]);
  assert.notEqual(inkKey(image, [5, 5, 65, 35]), inkKey(other, [102, 57, 163, 84]), 'other ink');
  assert.equal(inkKey(image, [70, 5, 100, 40]), undefined, 'background only');
});

test('with shared readings a line drawn again is recognized once and reads the same; without, nothing is kept', async () => {
  const reader = new TextReader();
  try {
    const image = readPngFile(path.join(REPO_ROOT, 'examples', 'before.png'));
    const recognized: LineReadings = new Map();
    const first = await reader.read(image, undefined, { recognized });
    assert.ok(first.length >= 5 && recognized.size >= first.length);
    let hits = reader.recognizedHits;
    const again = await reader.read(image, undefined, { recognized });
    assert.deepEqual(again, first);
    assert.ok(reader.recognizedHits - hits >= first.length, `${reader.recognizedHits - hits} lines taken from the pair's readings`);
    // a read without shared readings recognizes everything (what another pair reads never depends on this one)
    hits = reader.recognizedHits;
    assert.deepEqual(await reader.read(image), first);
    assert.equal(reader.recognizedHits, hits);
  } finally {
    await reader.dispose();
  }
});
