// Content motion (src/core/motion.ts) and the fade fit of the layout context (src/core/context.ts) on
// drawn images: textured "items" (so blocks have something to be found by) moved, swapped, replaced
// and faded, as the data engine's kinds do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MOTION_FEATURES, motionFeatures } from '../../src/core/motion.js';
import { CONTEXT_FEATURES, sampleContext } from '../../src/core/context.js';
import { cropBoxFor } from '../../src/core/crop.js';
import type { RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';

type Motion = Record<(typeof MOTION_FEATURES)[number], number>;

const WHITE = 255;

function blank(width: number, height: number): RgbaImage {
  return { width, height, data: new Uint8Array(width * height * 4).fill(WHITE) };
}

/** Draws a textured item at (x, y): dark strokes on white whose pattern depends on `seed` (glyph-like). */
function item(image: RgbaImage, x: number, y: number, w: number, h: number, seed: number): void {
  let s = seed * 9301 + 49297;
  const next = () => (s = (s * 233280 + 12345) % 1000003) / 1000003;
  for (let k = 0; k < (w * h) / 40; k++) {
    const px = x + Math.floor(next() * (w - 3)),
      py = y + Math.floor(next() * (h - 3));
    const level = Math.floor(next() * 120);
    for (let dy = 0; dy < 3; dy++) {
      for (let dx = 0; dx < 3; dx++) {
        const o = ((py + dy) * image.width + px + dx) * 4;
        image.data[o] = image.data[o + 1] = image.data[o + 2] = level;
      }
    }
  }
}

function motionOf(before: RgbaImage, after: RgbaImage, box: Box): Motion {
  const values = motionFeatures(before, after, box);
  assert.equal(values.length, MOTION_FEATURES.length);
  for (const [i, v] of values.entries()) assert.ok(Number.isFinite(v), `${MOTION_FEATURES[i]} is finite (${v})`);
  return Object.fromEntries(MOTION_FEATURES.map((name, i) => [name, values[i]])) as Motion;
}

const signedLog = (v: number) => Math.sign(v) * Math.log1p(Math.abs(v));

test('the motion features follow the fade fit in the layout context, in order (the glyph features come last)', () => {
  const start = CONTEXT_FEATURES.indexOf('unfade_residual') + 1;
  assert.deepEqual([...CONTEXT_FEATURES].slice(start, start + MOTION_FEATURES.length), [...MOTION_FEATURES]);
  assert.equal(start + MOTION_FEATURES.length, 49);
});

test('an unchanged region: every block with content is found where it was', () => {
  const image = blank(300, 200);
  item(image, 50, 50, 120, 60, 1);
  const m = motionOf(image, image, [40, 40, 180, 120]);
  assert.equal(m.after_same, 1);
  assert.equal(m.before_same, 1);
  assert.equal(m.after_shifted + m.after_new + m.before_shifted + m.before_gone, 0);
  assert.ok(m.after_content > 0.5, `after_content ${m.after_content}`);
  assert.equal(m.motion_dist, 0);
});

test('an item moved diagonally: its blocks are found at the move, one rigid shift', () => {
  const before = blank(400, 300),
    after = blank(400, 300);
  item(before, 60, 60, 100, 50, 2);
  item(after, 60 + 37, 60 - 23, 100, 50, 2);
  const m = motionOf(before, after, [60, 37, 197, 110]);
  assert.ok(m.after_shifted > 0.8, `after_shifted ${m.after_shifted}`);
  assert.ok(m.before_shifted > 0.8, `before_shifted ${m.before_shifted}`);
  assert.ok(Math.abs(m.motion_dx - signedLog(37)) < 1e-6, `motion_dx ${m.motion_dx}`);
  assert.ok(Math.abs(m.motion_dy - signedLog(-23)) < 1e-6, `motion_dy ${m.motion_dy}`);
  assert.ok(m.motion_common > 0.9, `motion_common ${m.motion_common}`);
  // a sparse block can match elsewhere by chance: at most a stray one
  assert.ok(m.motion_opposed < 0.05, `motion_opposed ${m.motion_opposed}`);
});

test('two items swapped: half the content moves down, half up (a reorder)', () => {
  const before = blank(300, 300),
    after = blank(300, 300);
  item(before, 40, 40, 160, 60, 3);
  item(before, 40, 110, 160, 60, 4);
  item(after, 40, 40, 160, 60, 4);
  item(after, 40, 110, 160, 60, 3);
  const m = motionOf(before, after, [40, 40, 200, 170]);
  assert.ok(m.after_shifted > 0.8 && m.before_shifted > 0.8, `shifted ${m.after_shifted} ${m.before_shifted}`);
  assert.ok(m.motion_opposed > 0.3, `motion_opposed ${m.motion_opposed}`);
  assert.ok(m.motion_common < 0.7, `motion_common ${m.motion_common}`);
  // a rigid shift of the same content is not a swap
  const shifted = blank(300, 300);
  item(shifted, 40, 110, 160, 60, 3);
  const one = blank(300, 300);
  item(one, 40, 40, 160, 60, 3);
  const r = motionOf(one, shifted, [40, 40, 200, 170]);
  assert.equal(r.motion_opposed, 0);
});

test('new content has no source and removed content has no destination', () => {
  const before = blank(300, 200),
    after = blank(300, 200);
  item(after, 50, 50, 120, 60, 5);
  const added = motionOf(before, after, [50, 50, 170, 110]);
  assert.ok(added.after_new > 0.9, `after_new ${added.after_new}`);
  assert.equal(added.before_content, 0); // nothing was there before
  const removed = motionOf(after, before, [50, 50, 170, 110]);
  assert.ok(removed.before_gone > 0.9, `before_gone ${removed.before_gone}`);
  assert.equal(removed.after_content, 0);
});

test('regions at the image edge and tiny images give finite features', () => {
  const before = blank(40, 6),
    after = blank(40, 6);
  item(after, 0, 0, 40, 6, 6);
  motionOf(before, after, [0, 0, 40, 6]);
  motionOf(before, after, [-10, -10, 60, 20]);
  assert.deepEqual(motionFeatures(before, after, [0, 0, 2, 2]), new Array(MOTION_FEATURES.length).fill(0));
});

test('a fade toward the background fits after = bg + alpha * (before - bg) with no residual', () => {
  const before = blank(300, 200);
  item(before, 50, 50, 120, 60, 7);
  const after = blank(300, 200);
  for (let i = 0; i < before.data.length; i += 4) {
    for (let k = 0; k < 3; k++) after.data[i + k] = Math.round(WHITE + 0.3 * (before.data[i + k] - WHITE));
  }
  const box: Box = [40, 40, 180, 120];
  const names = [...CONTEXT_FEATURES];
  const at = (values: Float32Array, name: string) => values[names.indexOf(name as (typeof names)[number])];
  const crop = [cropBoxFor(box, 300, 200)];
  const faded = sampleContext(before, after, [box], crop, 0, 300, 200);
  assert.ok(Math.abs(at(faded, 'fade_alpha') - 0.3) < 0.02, `fade_alpha ${at(faded, 'fade_alpha')}`);
  assert.ok(at(faded, 'fade_residual') < 0.05, `fade_residual ${at(faded, 'fade_residual')}`);
  // a recolour of the same strokes (dark grey -> red) is not a fade
  const red = blank(300, 200);
  for (let i = 0; i < before.data.length; i += 4) {
    if (before.data[i] < WHITE) {
      red.data[i] = 220;
      red.data[i + 1] = 40;
      red.data[i + 2] = 40;
    }
  }
  const recoloured = sampleContext(before, red, [box], crop, 0, 300, 200);
  assert.ok(at(recoloured, 'fade_residual') > 0.3, `fade_residual ${at(recoloured, 'fade_residual')}`);
});
