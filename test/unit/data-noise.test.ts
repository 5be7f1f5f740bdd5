// The data engine's "no visible change" pairs: a sub-pixel offset that Chromium drew as a whole-pixel
// move is not one (the runtime reports it as a move). Pure pixel checks on drawn PNGs, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawnAsWholePixelShift } from '../../src/data/generate.js';
import { drawPng, type Rect } from './runtime-fixtures.js';

// a line of "text": dark strokes on a light background
function line(x: number, y: number): Rect[] {
  const rects: Rect[] = [];
  for (let i = 0; i < 8; i++) rects.push([x + i * 7, y, x + i * 7 + 4, y + 10, 40, 40, 40]);
  return rects;
}
const page = (rects: Rect[]) => drawPng(240, 120, [[0, 0, 240, 120, 250, 250, 250], ...rects]);

test('a line moved by 1 or 2 px is a whole-pixel move, not noise', () => {
  const before = page(line(40, 50));
  assert.equal(drawnAsWholePixelShift(before, page(line(40, 51))), true);
  assert.equal(drawnAsWholePixelShift(before, page(line(38, 50))), true);
});

test('identical pixels, a faint tint and a real recolour are not whole-pixel moves', () => {
  const before = page(line(40, 50));
  assert.equal(drawnAsWholePixelShift(before, page(line(40, 50))), false);
  const tinted = line(40, 50).map(([x0, y0, x1, y1]) => [x0, y0, x1, y1, 44, 44, 44] as Rect);
  assert.equal(drawnAsWholePixelShift(before, page(tinted)), false);
  const red = line(40, 50).map(([x0, y0, x1, y1]) => [x0, y0, x1, y1, 200, 30, 30] as Rect);
  assert.equal(drawnAsWholePixelShift(before, page(red)), false);
});
