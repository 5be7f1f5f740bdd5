import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, type RgbaImage } from '../../src/core/image.js';
import { diffImages } from '../../src/core/diff.js';
import { findRegions } from '../../src/core/regions.js';
import { jitterShiftOf, withRenderingNoise, differingAfterShift } from '../../src/core/jitter.js';
import { SessionManager } from '../../src/core/session.js';
import { describe, NO_CHANGE_CAPTION } from '../../src/core/pipeline.js';
import { MODELS_DIR, drawPng, type Rect } from './runtime-fixtures.js';

// a "label": a dark box with lighter stripes, so a shift is visible inside it and not only at its edges
function label(x: number, y: number): Rect[] {
  const rects: Rect[] = [[x, y, x + 60, y + 14, 30, 30, 30]];
  for (let i = 0; i < 6; i++) rects.push([x + 4 + i * 9, y + 3, x + 8 + i * 9, y + 11, 230, 230, 230]);
  return rects;
}
const screen = (rects: Rect[]): RgbaImage => decodePng(drawPng(200, 120, [[0, 0, 200, 20, 60, 60, 90], ...rects]), 'fixture');

test('the eight 1-pixel shifts are found, and only them', () => {
  const before = screen(label(50, 50));
  for (const [dx, dy] of [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [-1, -1],
    [1, -1],
    [-1, 1],
  ]) {
    const after = screen(label(50 + dx, 50 + dy));
    assert.deepEqual(jitterShiftOf(before, after, [49, 49, 112, 66]), { dx, dy }, `shift ${dx},${dy}`);
  }
  // 2 px is a move, a colour change and a new element are changes, identical pixels are nothing
  assert.equal(jitterShiftOf(before, screen(label(52, 50)), [49, 49, 113, 66]), undefined);
  assert.equal(jitterShiftOf(before, screen([...label(50, 50), [50, 50, 60, 64, 200, 30, 30]]), [49, 49, 112, 66]), undefined);
  assert.equal(jitterShiftOf(before, screen([...label(50, 50), ...label(120, 80)]), [119, 79, 181, 95]), undefined);
  assert.equal(jitterShiftOf(before, before, [49, 49, 112, 66]), undefined);
  // maxShift 0 turns the test off
  assert.equal(jitterShiftOf(before, screen(label(51, 50)), [49, 49, 112, 66], { maxShift: 0 }), undefined);
});

test('differingAfterShift counts pixels, and pixels shifted in from outside the image count as different', () => {
  const before = screen(label(50, 50));
  const after = screen(label(51, 50));
  assert.ok(differingAfterShift(before, after, [49, 49, 112, 66], 0, 0, 40) > 20);
  assert.equal(differingAfterShift(before, after, [49, 49, 112, 66], 1, 0, 40), 0);
  assert.equal(differingAfterShift(before, before, [0, 0, 3, 2], 1, 0, 40), 2, 'column x=0 has no source');
  // counting may stop early once past stopAbove: still above it, never above the full count
  const full = differingAfterShift(before, after, [49, 49, 112, 66], 0, 0, 40);
  const stopped = differingAfterShift(before, after, [49, 49, 112, 66], 0, 0, 40, 3);
  assert.ok(stopped > 3 && stopped <= full);
});

test('differingAfterShift within a pixel: a label moved by half a pixel (drawn anew) is the same within a pixel; a recolour is not', () => {
  const before = screen(label(50, 50));
  // half a pixel to the right: each pixel the mean of its own and its left neighbour's value
  const half: RgbaImage = { width: before.width, height: before.height, data: Uint8Array.from(before.data) };
  for (let y = 0; y < before.height; y++)
    for (let x = 1; x < before.width; x++)
      for (let c = 0; c < 3; c++) {
        const i = (y * before.width + x) * 4 + c;
        half.data[i] = Math.round((before.data[i] + before.data[i - 4]) / 2);
      }
  const box: [number, number, number, number] = [49, 49, 112, 66];
  assert.ok(differingAfterShift(before, half, box, 0, 0, 40) > 20, 'blended edges differ exactly');
  assert.equal(differingAfterShift(before, half, box, 0, 0, 40, Infinity, true), 0);
  // the label in another colour: its pixels are nowhere near the range around them
  const recoloured = screen([[50, 50, 110, 64, 200, 40, 40]]);
  assert.ok(differingAfterShift(before, recoloured, box, 0, 0, 40, Infinity, true) > 100);
});

test('withRenderingNoise: a jittered label becomes a noise region, a real change next to it stays', () => {
  const before = screen([...label(20, 40), ...label(110, 90)]);
  const after = screen([...label(21, 40), [110, 90, 170, 104, 200, 40, 40]]);
  const analysis = findRegions(diffImages(before, after));
  assert.equal(analysis.regions.filter((r) => !r.noiseOnly).length, 2, 'pixelmatch sees two changed regions');
  const out = withRenderingNoise(analysis, before, after);
  const meaningful = out.regions.filter((r) => !r.noiseOnly);
  assert.equal(meaningful.length, 1);
  assert.ok(meaningful[0].box[0] >= 100, 'the recoloured label is the change left');
  const jittered = out.regions.filter((r) => r.jitter);
  assert.equal(jittered.length, 1);
  assert.ok(jittered[0].noiseOnly && jittered[0].box[0] < 30);
  assert.ok(out.coverage < analysis.coverage);
  // nothing to do: the same object back
  const plain = findRegions(diffImages(before, screen([...label(20, 40), ...label(110, 95)])));
  assert.equal(withRenderingNoise(plain, before, screen([...label(20, 40), ...label(110, 95)])), plain);
});

test('describe: a block shifted by 1 px is measured as a move by the reader, and is "no visible change" without it (real PNGs, real models)', async () => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const before = drawPng(200, 120, [[0, 0, 200, 20, 60, 60, 90], ...label(50, 50)]);
    const jittered = drawPng(200, 120, [[0, 0, 200, 20, 60, 60, 90], ...label(50, 51)]);
    const read = await describe(sessions, before, jittered, { procedure: false });
    assert.equal(read.changed, true);
    assert.ok(
      // the reader's measurement, in its words or (where the models also see a move) as the detail of theirs
      read.regions.some((r) => r.kind === 'move' && /(moved|measured) 1 px down/.test(r.caption)),
      read.regions.map((r) => `${r.kind}: ${r.caption}`).join(' | '),
    );
    const report = await describe(sessions, before, jittered, { procedure: false, read: false });
    assert.equal(report.changed, false);
    assert.equal(report.summary, NO_CHANGE_CAPTION);
    assert.ok(report.regions.length >= 1 && report.regions.every((r) => r.noiseOnly && r.caption === NO_CHANGE_CAPTION));
    const moved = drawPng(200, 120, [[0, 0, 200, 20, 60, 60, 90], ...label(50, 60)]);
    const real = await describe(sessions, before, moved, { procedure: false });
    assert.equal(real.changed, true, 'a 10 px move is still a change');
  } finally {
    await sessions.dispose();
  }
});
