// Glyph statistics of the layout context (src/core/glyph.ts) on drawn "words": letters made of strokes
// of a given thickness and height, changed the ways the data engine's font and text kinds change them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GLYPH_FEATURES, glyphFeatures } from '../../src/core/glyph.js';
import { CONTEXT_FEATURES } from '../../src/core/context.js';
import type { RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';

type Glyph = Record<(typeof GLYPH_FEATURES)[number], number>;

function blank(width: number, height: number, shade = 255): RgbaImage {
  return { width, height, data: new Uint8Array(width * height * 4).fill(shade) };
}

function fill(image: RgbaImage, x0: number, y0: number, x1: number, y1: number, level: number): void {
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const o = (y * image.width + x) * 4;
      image.data[o] = image.data[o + 1] = image.data[o + 2] = level;
    }
  }
}

/** A word at (x, baseline): each letter of `letters` picks a shape (bar, box, cross, hook) of the given
 * stroke thickness and height; letters are `height / 2 + stroke` wide. Returns the word's right end. */
function word(image: RgbaImage, x: number, baseline: number, letters: string, stroke: number, height: number): number {
  const w = Math.round(height / 2) + stroke;
  for (const ch of letters) {
    const top = baseline - height;
    const shape = ch.charCodeAt(0) % 4;
    fill(image, x, top, x + stroke, baseline, 20); // stem
    if (shape === 1 || shape === 3) fill(image, x, top, x + w, top + stroke, 20); // top bar
    if (shape === 1 || shape === 2) fill(image, x + w - stroke, top, x + w, baseline, 20); // right stem
    if (shape === 2 || shape === 3) fill(image, x, baseline - stroke, x + w, baseline, 20); // foot
    x += w + Math.max(2, stroke);
  }
  return x;
}

function glyphs(before: RgbaImage, after: RgbaImage, box: Box): Glyph {
  const values = glyphFeatures(before, after, box);
  assert.equal(values.length, GLYPH_FEATURES.length);
  for (const [i, v] of values.entries()) assert.ok(Number.isFinite(v), `${GLYPH_FEATURES[i]} is finite (${v})`);
  return Object.fromEntries(GLYPH_FEATURES.map((name, i) => [name, values[i]])) as Glyph;
}

const BOX: Box = [10, 10, 290, 60];

test('the glyph features are the tail of the layout context, in order (contract v5)', () => {
  assert.deepEqual([...CONTEXT_FEATURES].slice(-GLYPH_FEATURES.length), [...GLYPH_FEATURES]);
});

function pair(draw: (image: RgbaImage, which: 'before' | 'after') => void): [RgbaImage, RgbaImage] {
  const before = blank(300, 70),
    after = blank(300, 70);
  draw(before, 'before');
  draw(after, 'after');
  return [before, after];
}

test('bold: the same words with strokes twice as thick', () => {
  const [before, after] = pair((im, which) => word(im, 20, 45, 'Sign in now', which === 'before' ? 2 : 4, 20));
  const g = glyphs(before, after, BOX);
  assert.ok(g.glyph_stroke_before > 1.5 && g.glyph_stroke_before < 3, `stroke before ${g.glyph_stroke_before}`);
  assert.ok(g.glyph_stroke_log_ratio > 0.3, `stroke ratio ${g.glyph_stroke_log_ratio}`);
  assert.ok(g.glyph_ink_log_ratio > 0.3, `ink ratio ${g.glyph_ink_log_ratio}`);
  assert.ok(Math.abs(g.glyph_height_log_ratio) < 0.05, `height ratio ${g.glyph_height_log_ratio}`);
  // un-bolding is the mirror image
  const back = glyphs(after, before, BOX);
  assert.ok(back.glyph_stroke_log_ratio < -0.3, `unbold stroke ratio ${back.glyph_stroke_log_ratio}`);
});

test('new words in the same font: strokes and height unchanged, the row profile kept', () => {
  const [before, after] = pair((im, which) => word(im, 20, 45, which === 'before' ? 'Sign in' : 'Log out now', 2, 20));
  const g = glyphs(before, after, BOX);
  assert.ok(Math.abs(g.glyph_stroke_log_ratio) < 0.1, `stroke ratio ${g.glyph_stroke_log_ratio}`);
  assert.ok(Math.abs(g.glyph_height_log_ratio) < 0.05, `height ratio ${g.glyph_height_log_ratio}`);
  assert.ok(g.glyph_width_log_ratio > 0.3, `a longer text is wider: ${g.glyph_width_log_ratio}`);
  assert.ok(g.glyph_rows_correlation > 0.8, `rows correlation ${g.glyph_rows_correlation}`);
});

test('a larger font size: taller and wider ink, a different row profile', () => {
  const [before, after] = pair((im, which) => word(im, 20, 45, 'Sign in', 2, which === 'before' ? 14 : 24));
  const g = glyphs(before, after, BOX);
  assert.ok(g.glyph_height_log_ratio > 0.3, `height ratio ${g.glyph_height_log_ratio}`);
  assert.ok(g.glyph_width_log_ratio > 0.2, `width ratio ${g.glyph_width_log_ratio}`);
  assert.ok(g.glyph_rows_correlation < 0.8, `rows correlation ${g.glyph_rows_correlation}`);
  const text = glyphs(...pair((im, which) => word(im, 20, 45, which === 'before' ? 'Sign in' : 'Log out', 2, 14)), BOX);
  assert.ok(g.glyph_rows_correlation < text.glyph_rows_correlation, 'a size change moves the row profile more than new words do');
});

test('strokes are measured against the background of the changed part (a label on a dark button)', () => {
  const [before, after] = pair((im, which) => {
    fill(im, 12, 15, 200, 55, 90); // the button
    word(im, 30, 45, 'Save', which === 'before' ? 2 : 4, 20);
  });
  const g = glyphs(before, after, BOX);
  assert.ok(g.glyph_stroke_before > 1.5 && g.glyph_stroke_before < 3, `stroke before ${g.glyph_stroke_before}`);
  assert.ok(g.glyph_stroke_log_ratio > 0.3, `stroke ratio ${g.glyph_stroke_log_ratio}`);
});

test('nothing changed, a region outside the images, and a whole screen of text', () => {
  const [before] = pair((im) => word(im, 20, 45, 'Sign in', 2, 20));
  assert.deepEqual(glyphFeatures(before, before, BOX), [0, 0, 0, 0, 0, 1]);
  assert.deepEqual(glyphFeatures(before, before, [400, 400, 500, 500]), [0, 0, 0, 0, 0, 1]);
  const big0 = blank(1400, 1000),
    big1 = blank(1400, 1000);
  for (let row = 0; row < 20; row++) {
    word(big0, 30, 60 + row * 45, 'Lorem ipsum dolor sit amet', 2, 20);
    word(big1, 30, 60 + row * 45, 'Lorem ipsum dolor sit amet', 4, 20);
  }
  const g = glyphs(big0, big1, [0, 0, 1400, 1000]);
  assert.ok(g.glyph_stroke_log_ratio > 0.2, `stroke ratio on the whole screen ${g.glyph_stroke_log_ratio}`);
  assert.ok(g.glyph_stroke_before > 1 && g.glyph_stroke_before < 4, `stroke before ${g.glyph_stroke_before}`);
});
