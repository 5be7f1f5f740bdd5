import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, type RgbaImage } from '../../src/core/image.js';
import { diffImages } from '../../src/core/diff.js';
import { findRegions } from '../../src/core/regions.js';
import { rigidShiftOf, withMovedTogether } from '../../src/core/moved-together.js';
import { drawPng, type Rect } from './runtime-fixtures.js';

// an input field: a 1 px grey border around a flat light inside, with a dark "word" in it; moved by a
// few pixels its flat inside does not change, so the diff has three islands (top edge, word, bottom edge)
function field(x: number, y: number): Rect[] {
  return [
    [x, y, x + 300, y + 70, 150, 150, 150],
    [x + 1, y + 1, x + 299, y + 69, 248, 248, 248],
    [x + 24, y + 26, x + 90, y + 42, 40, 40, 40],
  ];
}
// text that does not move: stripes a shift cannot explain
function stripes(x: number, y: number): Rect[] {
  return [0, 1, 2, 3, 4, 5].map((i): Rect => [x + i * 10, y, x + i * 10 + 5, y + 12, 30, 30, 30]);
}
const screen = (rects: Rect[]): RgbaImage => decodePng(drawPng(400, 260, rects), 'fixture');
const meaningful = (analysis: ReturnType<typeof findRegions>) => analysis.regions.filter((r) => !r.noiseOnly);

test('a field moved 7 px down is one region, not its edges and its word apart', () => {
  const before = screen(field(40, 60));
  const after = screen(field(40, 67));
  const analysis = findRegions(diffImages(before, after));
  assert.ok(meaningful(analysis).length >= 2, `the diff alone splits the field (${meaningful(analysis).length} regions)`);
  for (const r of meaningful(analysis)) assert.deepEqual(rigidShiftOf(before, after, r.box), { dx: 0, dy: 7 });
  const merged = meaningful(withMovedTogether(analysis, before, after));
  assert.equal(merged.length, 1);
  const [x0, y0, x1, y1] = merged[0].box;
  assert.ok(x0 <= 40 && y0 <= 60 && x1 >= 340 && y1 >= 137, `the box holds the field before and after: ${merged[0].box}`);
  assert.equal(
    merged[0].diffPixels,
    meaningful(analysis).reduce((s, r) => s + r.diffPixels, 0),
  );
});

test('sideways moves and diagonal moves are found too', () => {
  const before = screen(field(40, 60));
  assert.deepEqual(rigidShiftOf(before, screen(field(31, 60)), [30, 59, 341, 131]), { dx: -9, dy: 0 });
  assert.deepEqual(rigidShiftOf(before, screen(field(44, 65)), [39, 59, 345, 136]), { dx: 4, dy: 5 });
});

test('content that did not move keeps regions with the same shift apart', () => {
  // the field's edges move, but text that stays put sits inside the field between them
  const before = screen([...field(40, 60), ...stripes(200, 90)]);
  const after = screen([...field(40, 67), ...stripes(200, 90)]);
  const analysis = findRegions(diffImages(before, after));
  const out = withMovedTogether(analysis, before, after);
  assert.ok(
    meaningful(out).every((r) => !(r.box[1] <= 60 && r.box[3] >= 137)),
    'no region spans the whole field',
  );
});

test('regions with different shifts, or no shift, are left as they were', () => {
  // two fields side by side, one moved down 7, the other down 12; and a word that changed colour
  const before = screen([...field(10, 20), [20, 200, 80, 214, 40, 40, 40]]);
  const after = screen([...field(10, 32), [20, 200, 80, 214, 200, 40, 40]]);
  assert.equal(rigidShiftOf(before, after, [20, 200, 80, 214]), undefined, 'a colour change is not a shift');
  assert.equal(rigidShiftOf(before, before, [20, 200, 80, 214]), undefined, 'identical pixels have no shift');
  const analysis = findRegions(diffImages(before, after));
  const out = withMovedTogether(analysis, before, after);
  assert.ok(
    meaningful(out).some((r) => r.box[1] >= 190),
    'the colour change keeps its own region',
  );

  const twoFields = (dy1: number, dy2: number) => screen([...field(10, 20 + dy1), ...field(10, 140 + dy2)]);
  const apart = findRegions(diffImages(twoFields(0, 0), twoFields(6, 12)));
  const kept = withMovedTogether(apart, twoFields(0, 0), twoFields(6, 12));
  assert.ok(
    meaningful(kept).every((r) => r.box[3] <= 140 || r.box[1] >= 100),
    'a field moved 6 px and one moved 12 px are not one region',
  );

  // fewer than two moving regions: the same analysis back
  const one = findRegions(diffImages(screen(stripes(20, 20)), screen(stripes(20, 30))));
  assert.equal(withMovedTogether(one, screen(stripes(20, 20)), screen(stripes(20, 30))), one);
});
