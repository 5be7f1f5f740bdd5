// Letter shapes compared across a recolour (src/core/read/glyph-shape.ts), and the reading that uses
// them: a line the recognizer read as other words after it faded is the same line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';
import type { TextLine, TextReader } from '../../src/core/read/ocr.js';
import { letterShapeMismatch, sameShapes } from '../../src/core/read/glyph-shape.js';
import { readRegion } from '../../src/core/read/reading.js';
import { blankImage, fillRect, type Rgba } from './image-fixtures.js';

/** Letter shapes that differ from each other: a stem, and a bar at one of four heights. */
const LETTERS = [0, 1, 2, 3, 1, 0, 2, 3, 0, 1];

/** A line of bar-shaped letters at (x, y), each 8 px wide with a 3 px gap, 14 px tall. */
function line(image: RgbaImage, x: number, y: number, ink: Rgba, letters = LETTERS): RgbaImage {
  letters.forEach((shape, i) => {
    const left = x + i * 11;
    fillRect(image, [left, y, left + 2, y + 14], ink);
    const bar = y + 1 + shape * 4;
    fillRect(image, [left, bar, left + 8, bar + 2], ink);
  });
  return image;
}

const LINE_BOX: Box = [20, 20, 130, 34];

/** Whether the letters in the two boxes have the same shapes, whatever their colour. */
function sameLetterShapes(before: RgbaImage, boxBefore: Box, after: RgbaImage, boxAfter: Box): boolean {
  const m = letterShapeMismatch(before, boxBefore, after, boxAfter);
  return !!m && sameShapes(m);
}

/** A text reader that reads `line` in `before` and `other` in any other image, in LINE_BOX. */
function readerOf(before: RgbaImage, line: [string, number], other: [string, number]): TextReader {
  const reading = ([text, confidence]: [string, number]): TextLine[] => [{ text, box: LINE_BOX, confidence }];
  return { read: async (image: RgbaImage) => reading(image === before ? line : other) } as unknown as TextReader;
}
const page: Rgba = [250, 250, 250, 255];
const dark: Rgba = [40, 40, 40, 255];

test('sameLetterShapes: the same letters faded, recoloured or in the other theme', () => {
  const before = line(blankImage(160, 60, page), 20, 20, dark);
  // faded to a third of their contrast
  const faded = line(blankImage(160, 60, page), 20, 20, [180, 180, 180, 255]);
  assert.equal(sameLetterShapes(before, LINE_BOX, faded, LINE_BOX), true);
  // recoloured blue, on a tinted ground
  const blue = line(blankImage(160, 60, [235, 245, 255, 255]), 20, 20, [20, 90, 220, 255]);
  assert.equal(sameLetterShapes(before, LINE_BOX, blue, LINE_BOX), true);
  // light letters on a dark page
  const dark2 = line(blankImage(160, 60, [30, 30, 34, 255]), 20, 20, [220, 220, 220, 255]);
  assert.equal(sameLetterShapes(before, LINE_BOX, dark2, LINE_BOX), true);
  // a pixel lower, and the box the detector drew a pixel taller: where they went is told
  const lower = line(blankImage(160, 60, page), 20, 21, [150, 150, 150, 255]);
  const m = letterShapeMismatch(before, LINE_BOX, lower, [20, 20, 130, 36]);
  assert.ok(m && m.line === 0);
  assert.deepEqual([m.shiftX, m.shiftY], [0, 1]);
});

test('sameLetterShapes: one letter changed, letters missing, nothing drawn - not the same', () => {
  const before = line(blankImage(160, 60, page), 20, 20, dark);
  // the fifth letter's bar at another height: one letter changed, in another colour
  const oneLetter = line(blankImage(160, 60, page), 20, 20, [180, 180, 180, 255], [0, 1, 2, 3, 3, 0, 2, 3, 0, 1]);
  assert.equal(sameLetterShapes(before, LINE_BOX, oneLetter, LINE_BOX), false);
  // the last letter gone (a shorter word)
  const shorter = line(blankImage(160, 60, page), 20, 20, dark, LETTERS.slice(0, 9));
  assert.equal(sameLetterShapes(before, LINE_BOX, shorter, LINE_BOX), false);
  // a line faded out of sight: nothing to compare
  assert.equal(letterShapeMismatch(before, LINE_BOX, blankImage(160, 60, page), LINE_BOX), undefined);
  // boxes of other sizes: other lines
  assert.equal(letterShapeMismatch(before, LINE_BOX, before, [20, 20, 100, 34]), undefined);
});

test('readRegion: a faded line read as other words is the same line, read once', async () => {
  const before = line(blankImage(160, 60, page), 20, 20, dark);
  const after = line(blankImage(160, 60, page), 20, 20, [190, 190, 190, 255]);
  // the recognizer's two readings, as read on each side
  const read = await readRegion(readerOf(before, ['file', 0.97], ['fle', 0.81]), before, after, [18, 18, 132, 36]);
  assert.deepEqual(
    read.changes.map((c) => c.kind),
    ['same'],
  );
  const [c] = read.changes as Extract<(typeof read.changes)[number], { kind: 'same' }>[];
  assert.equal(c.before.text, 'file');
  assert.equal(c.after.text, 'file');
  // faded, and a letter changed shape: still a re-worded line
  const reworded = line(blankImage(160, 60, page), 20, 20, [190, 190, 190, 255], [0, 1, 2, 3, 3, 0, 2, 3, 0, 1]);
  const changed = await readRegion(readerOf(before, ['file', 0.97], ['fine', 0.95]), before, reworded, [18, 18, 132, 36]);
  assert.deepEqual(
    changed.changes.map((x) => x.kind),
    ['reworded'],
  );
});
