// Shared reads: overlapping read areas grouped and read once (src/core/read/areas.ts), and lines
// recognized once per pixels (TextReader's readings by pixelKey).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readPngFile, type RgbaImage } from '../../src/core/image.js';
import { TextReader, pixelKey, type TextLine } from '../../src/core/read/ocr.js';
import { groupAreas, groupedReader, type LineReader } from '../../src/core/read/areas.js';
import type { Box } from '../../src/core/report.js';
import { blankImage, fillRect } from './image-fixtures.js';
import { REPO_ROOT } from './runtime-fixtures.js';

test('groupAreas merges areas whose joint box costs no more pixels, and keeps far or oversized ones apart', () => {
  // two areas overlapping by most of their height: one box
  assert.deepEqual(
    groupAreas([
      [0, 0, 400, 100],
      [0, 40, 400, 140],
    ]),
    [[0, 0, 400, 140]],
  );
  // far apart: the box around both would cost more than the two
  assert.deepEqual(
    groupAreas([
      [0, 0, 400, 100],
      [500, 300, 900, 400],
    ]),
    [
      [0, 0, 400, 100],
      [500, 300, 900, 400],
    ],
  );
  // overlapping, but the joint box is longer than the detector reads at full scale (800 px at 2x)
  assert.deepEqual(
    groupAreas([
      [0, 0, 500, 100],
      [400, 0, 900, 100],
    ]).length,
    2,
  );
  // every area lies inside one group
  const areas: Box[] = [
    [10, 10, 330, 60],
    [20, 40, 340, 90],
    [15, 70, 335, 120],
    [600, 600, 700, 650],
  ];
  const groups = groupAreas(areas);
  assert.equal(groups.length, 2);
  for (const a of areas)
    assert.ok(
      groups.some((g) => g[0] <= a[0] && g[1] <= a[1] && g[2] >= a[2] && g[3] >= a[3]),
      `${a} in a group`,
    );
});

test('groupedReader reads each group once and gives an area the lines that reach into it', async () => {
  const image = blankImage(1000, 1000);
  const calls: Box[] = [];
  const lines: TextLine[] = [
    { box: [20, 20, 120, 34], text: 'top', confidence: 1 },
    { box: [20, 100, 120, 114], text: 'bottom', confidence: 1 },
  ];
  const reader: LineReader = {
    async read(_image, area = [0, 0, 1000, 1000]) {
      calls.push(area);
      return lines.filter((l) => l.box[0] < area[2] && area[0] < l.box[2] && l.box[1] < area[3] && area[1] < l.box[3]);
    },
  };
  const a: Box = [0, 0, 300, 60],
    b: Box = [0, 30, 300, 130];
  const shared = groupedReader(reader, [{ image, areas: [a, b] }]);
  assert.deepEqual(
    (await shared.read(image, a)).map((l) => l.text),
    ['top'],
  );
  assert.deepEqual(
    (await shared.read(image, b)).map((l) => l.text),
    ['top', 'bottom'],
  );
  assert.deepEqual(calls, [[0, 0, 300, 130]], 'one read of the group');
  // an area not planned, or another image, is read as asked
  await shared.read(image, [500, 500, 600, 600]);
  await shared.read(blankImage(10, 10), [0, 0, 10, 10]);
  assert.equal(calls.length, 3);
});

test('pixelKey: the same pixels anywhere give the same key, one pixel changed another', () => {
  const image = fillRect(fillRect(blankImage(200, 100), [10, 10, 60, 30], [20, 20, 20, 255]), [110, 60, 160, 80], [20, 20, 20, 255]);
  assert.equal(pixelKey(image, [5, 5, 65, 35]), pixelKey(image, [105, 55, 165, 85]));
  const changed: RgbaImage = { ...image, data: Uint8Array.from(image.data) };
  changed.data[(12 * 200 + 12) * 4] = 200;
  assert.notEqual(pixelKey(changed, [5, 5, 65, 35]), pixelKey(image, [5, 5, 65, 35]));
  assert.notEqual(pixelKey(image, [5, 5, 65, 35]), pixelKey(image, [5, 5, 66, 35]), 'another size');
});

test('a line drawn again with the same pixels is recognized once, and reads the same', async () => {
  const reader = new TextReader();
  try {
    const image = readPngFile(path.join(REPO_ROOT, 'examples', 'before.png'));
    const first = await reader.read(image);
    assert.ok(first.length >= 5);
    const hits = reader.recognizedHits;
    const again = await reader.read(image);
    assert.deepEqual(again, first);
    assert.ok(reader.recognizedHits - hits >= first.length, `${reader.recognizedHits - hits} lines taken from the readings kept`);
  } finally {
    await reader.dispose();
  }
});
