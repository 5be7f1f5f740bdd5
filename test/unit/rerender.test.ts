// Re-rendered text (src/core/rerender.ts): the same "word" rasterised at a sub-pixel offset is noise;
// moves, recolours and new lines are not. The word is drawn with exact pixel coverage, as a
// rasteriser's anti-aliasing would draw it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { decodePng, type RgbaImage } from '../../src/core/image.js';
import { diffImages } from '../../src/core/diff.js';
import { findRegions } from '../../src/core/regions.js';
import { withRenderingNoise } from '../../src/core/jitter.js';
import { antialiasModeStats, isRerendered, rerenderStats } from '../../src/core/rerender.js';
import { SessionManager } from '../../src/core/session.js';
import { describe, NO_CHANGE_CAPTION } from '../../src/core/pipeline.js';
import { MODELS_DIR } from './runtime-fixtures.js';

const W = 160,
  H = 60;

/** coverage of pixel [p, p+1) by the interval [a, b) */
function cover(p: number, a: number, b: number): number {
  return Math.max(0, Math.min(p + 1, b) - Math.max(p, a));
}

/**
 * A "word" of vertical strokes 1.4 px wide (x positions shifted by dx, sub-pixel) and one horizontal
 * bar under it, ink `ink` on white; `extraLineY` adds a faint 1 px line across.
 */
function word(dx: number, ink = 40, dy = 0, extraLineY = -1): Buffer {
  const png = new PNG({ width: W, height: H });
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let c = 0;
      for (let i = 0; i < 14; i++) {
        const left = 20 + i * 6.3 + dx;
        c = Math.max(c, cover(x, left, left + 1.4) * cover(y, 20 + dy, 34 + dy));
      }
      c = Math.max(c, cover(x, 20 + dx, 110 + dx) * cover(y, 36.3 + dy, 37.5 + dy));
      let v = 255 - c * (255 - ink);
      if (y === extraLineY && x >= 20 && x < 110) v = Math.min(v, 235);
      const o = (y * W + x) * 4;
      png.data[o] = png.data[o + 1] = png.data[o + 2] = Math.round(v);
      png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
const image = (png: Buffer): RgbaImage => decodePng(png, 'fixture');

/**
 * The same word as `word` rasterised with LCD sub-pixel anti-aliasing: each channel's coverage taken
 * at its own sub-pixel (red 1/3 px left, blue 1/3 px right), strokes `widen` px heavier, as a browser
 * drawing with sub-pixel text does; `colour` instead recolours the grey-scale word's ink.
 */
function subpixelWord(widen = 0.2, dx = 0, colour?: [number, number, number]): Buffer {
  const png = new PNG({ width: W, height: H });
  const ink = colour ?? [40, 40, 40];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 4;
      for (let k = 0; k < 3; k++) {
        const shift = colour ? 0 : (k - 1) / 3;
        let c = 0;
        for (let i = 0; i < 14; i++) {
          const left = 20 + i * 6.3 + dx - shift - (colour ? 0 : widen / 2);
          c = Math.max(c, cover(x, left, left + 1.4 + (colour ? 0 : widen)) * cover(y, 20, 34));
        }
        c = Math.max(c, cover(x, 20 + dx - shift, 110 + dx - shift) * cover(y, 36.3, 37.5));
        png.data[o + k] = Math.round(255 - c * (255 - ink[k]));
      }
      png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
const BOX: [number, number, number, number] = [18, 18, 114, 40];

test('a word redrawn 0.3-0.5 px to the side is re-rendering; the same word moved, recoloured or underlined is not', () => {
  const before = image(word(0));
  for (const dx of [0.3, 0.45, -0.35]) assert.ok(isRerendered(before, image(word(dx)), BOX), `sub-pixel offset ${dx}`);
  // a 2 px move does not blur away
  const moved = rerenderStats(before, image(word(2)), BOX);
  assert.ok(moved.blurredDifference > 24, `2 px move: ${moved.blurredDifference}`);
  assert.equal(isRerendered(before, image(word(0, 40, 2)), BOX), false, '2 px down');
  // darker ink: faint after blurring, but all one way
  const darker = rerenderStats(before, image(word(0, 0)), BOX);
  assert.ok(darker.imbalance > 0.9, `recolour imbalance ${darker.imbalance}`);
  assert.equal(isRerendered(before, image(word(0, 0)), BOX), false);
  // a faint new line under the word
  assert.equal(isRerendered(before, image(word(0, 40, 0, 39)), BOX), false);
  // identical pixels are not "re-rendered"; radius 0 turns the test off
  assert.equal(isRerendered(before, before, BOX), false);
  assert.equal(isRerendered(before, image(word(0.3)), BOX, { radius: 0 }), false);
});

test('anti-aliasing switched to sub-pixel (coloured fringes, heavier strokes) is re-rendering; a recolour or a move is not', () => {
  const grey = image(word(0));
  const lcd = image(subpixelWord());
  const ink = rerenderStats(grey, lcd, BOX);
  assert.ok(ink.blurredDifference <= 24 && ink.imbalance > 0.1, `the ink test alone misses it: ${JSON.stringify(ink)}`);
  const fringes = antialiasModeStats(grey, lcd, BOX);
  assert.ok(fringes.chromaBefore === 0 && fringes.chromaAfter >= 24 && fringes.hueImbalance <= 0.3, JSON.stringify(fringes));
  assert.ok(isRerendered(grey, lcd, BOX), 'grey-scale -> sub-pixel');
  assert.ok(isRerendered(lcd, grey, BOX), 'sub-pixel -> grey-scale');
  assert.equal(isRerendered(grey, lcd, BOX, { antialiasMode: false }), false, 'the option turns the test off');
  // the ink turned blue: coloured on one side, grey on the other, but all one hue
  const blue = image(subpixelWord(0, 0, [40, 60, 200]));
  const recolour = antialiasModeStats(grey, blue, BOX);
  assert.ok(recolour.hueImbalance > 0.9, JSON.stringify(recolour));
  assert.equal(isRerendered(grey, blue, BOX), false, 'recoloured ink');
  // sub-pixel text that also moved 2 px does not blur away
  assert.equal(isRerendered(grey, image(subpixelWord(0.2, 2)), BOX), false, 'moved 2 px');
});

test('withRenderingNoise: the re-rendered word becomes a noise region flagged rerendered', () => {
  const before = image(word(0));
  const after = image(word(0.45));
  const analysis = findRegions(diffImages(before, after));
  assert.ok(
    analysis.regions.some((r) => !r.noiseOnly),
    'pixelmatch alone calls it a change',
  );
  const out = withRenderingNoise(analysis, before, after);
  assert.equal(out.regions.filter((r) => !r.noiseOnly).length, 0);
  assert.ok(out.regions.some((r) => r.rerendered && r.noiseOnly && !r.jitter));
  assert.equal(out.coverage, 0);
  // the options reach the test: with re-rendering off the region stays a change
  const off = withRenderingNoise(analysis, before, after, { rerender: { radius: 0 } });
  assert.ok(off.regions.some((r) => !r.noiseOnly));
});

test('describe: a pair whose only difference is re-rendered text says "no visible change" (real PNGs, real models)', async () => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const report = await describe(sessions, word(0), word(0.45), { procedure: false });
    assert.equal(report.changed, false);
    assert.equal(report.summary, NO_CHANGE_CAPTION);
    const moved = await describe(sessions, word(0), word(0, 40, 6), { procedure: false });
    assert.equal(moved.changed, true, 'a 6 px move is still a change');
  } finally {
    await sessions.dispose();
  }
});

test('rerenderStats: the row-streamed blur equals a direct box mean, and stopAbove only cuts the scan short', () => {
  const w = 41,
    h = 29;
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const make = (): RgbaImage => {
    const data = new Uint8Array(w * h * 4);
    for (let i = 0; i < data.length; i++) data[i] = i % 4 === 3 ? 255 : Math.floor(rand() * 256);
    return { width: w, height: h, data };
  };
  const a = make(),
    b = make();
  for (const [box, r] of [
    [[0, 0, w, h], 2],
    [[5, 4, 20, 17], 2],
    [[30, 20, 41, 29], 3],
    [[10, 10, 11, 11], 1],
  ] as [[number, number, number, number], number][]) {
    let direct = 0,
      signed = 0,
      absolute = 0;
    const gx0 = Math.max(0, box[0] - r),
      gy0 = Math.max(0, box[1] - r),
      gx1 = Math.min(w, box[2] + r),
      gy1 = Math.min(h, box[3] + r);
    for (let y = gy0; y < gy1; y++) {
      for (let x = gx0; x < gx1; x++) {
        for (let k = 0; k < 3; k++) {
          let sum = 0,
            count = 0;
          for (let yy = Math.max(0, y - r); yy < Math.min(h, y + r + 1); yy++) {
            for (let xx = Math.max(0, x - r); xx < Math.min(w, x + r + 1); xx++) {
              sum += b.data[(yy * w + xx) * 4 + k] - a.data[(yy * w + xx) * 4 + k];
              count++;
            }
          }
          direct = Math.max(direct, Math.abs(sum / count));
        }
        const o = (y * w + x) * 4;
        const luma = 0.299 * (b.data[o] - a.data[o]) + 0.587 * (b.data[o + 1] - a.data[o + 1]) + 0.114 * (b.data[o + 2] - a.data[o + 2]);
        signed += luma;
        absolute += Math.abs(luma);
      }
    }
    const s = rerenderStats(a, b, box, r);
    assert.ok(Math.abs(s.blurredDifference - direct) < 1e-9, `box ${box} r ${r}: ${s.blurredDifference} vs ${direct}`);
    assert.ok(Math.abs(s.imbalance - Math.abs(signed) / absolute) < 1e-9);
    const stopped = rerenderStats(a, b, box, r, direct / 2);
    assert.ok(stopped.blurredDifference > direct / 2 && stopped.blurredDifference <= direct);
  }
});
