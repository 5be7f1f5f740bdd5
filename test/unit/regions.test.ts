import { test } from 'node:test';
import assert from 'node:assert/strict';
import pixelmatch from 'pixelmatch';
import { diffImages, MASK_AA, MASK_DIFF, MASK_FAINT, MASK_SAME } from '../../src/core/diff.js';
import { describeSizeChange, findRegions } from '../../src/core/regions.js';
import { blankImage, cloneImage, fillRect, sampleScreen, type Rgba } from './image-fixtures.js';
import type { RgbaImage } from '../../src/core/image.js';

const RED: Rgba = [220, 30, 30, 255];
const BLUE: Rgba = [30, 120, 220, 255];

function regionsOf(before: RgbaImage, after: RgbaImage) {
  return findRegions(diffImages(before, after));
}

test('identical screens have no regions', () => {
  const screen = sampleScreen();
  const analysis = regionsOf(screen, cloneImage(screen));
  assert.deepEqual(analysis.regions, []);
  assert.equal(analysis.wholeScreen, false);
  assert.equal(analysis.sizeChange, undefined);
});

test('a recoloured button gives one region with its exact box', () => {
  const before = sampleScreen();
  const after = fillRect(cloneImage(before), [20, 140, 100, 170], RED);
  const { regions } = regionsOf(before, after);
  assert.equal(regions.length, 1);
  assert.deepEqual(regions[0].box, [20, 140, 100, 170]);
  assert.equal(regions[0].diffPixels, 80 * 30);
  assert.equal(regions[0].noiseOnly, false);
});

test('words of a changed line merge into one box; far-apart changes stay separate', () => {
  const before = blankImage(400, 300);
  const after = cloneImage(before);
  // three "words" 6 px apart on one line, and an unrelated change far below
  fillRect(after, [20, 20, 60, 30], [0, 0, 0, 255]);
  fillRect(after, [66, 20, 100, 30], [0, 0, 0, 255]);
  fillRect(after, [106, 20, 150, 30], [0, 0, 0, 255]);
  fillRect(after, [300, 250, 330, 280], RED);
  const { regions } = regionsOf(before, after);
  assert.deepEqual(
    regions.map((r) => r.box),
    [
      [20, 20, 150, 30],
      [300, 250, 330, 280],
    ],
  );
});

test('a button that moved a short way is ONE region covering its old and new place', () => {
  const before = fillRect(blankImage(400, 200), [40, 80, 120, 110], BLUE);
  const after = fillRect(blankImage(400, 200), [180, 80, 260, 110], BLUE); // 60 px gap between the places
  const { regions } = regionsOf(before, after);
  assert.equal(regions.length, 1);
  assert.deepEqual(regions[0].box, [40, 80, 260, 110]);
});

test('two different-sized changes far apart are not merged as a move', () => {
  const before = blankImage(400, 200);
  const after = fillRect(cloneImage(before), [40, 80, 120, 110], BLUE);
  fillRect(after, [200, 80, 210, 90], RED);
  assert.equal(regionsOf(before, after).regions.length, 2);
});

test('differences below the colour threshold are kept as a noise-only region, not dropped', () => {
  const before = sampleScreen();
  const after = cloneImage(before);
  // the button's colour off by 2 levels: invisible, but the bytes differ
  fillRect(after, [20, 140, 100, 170], [32, 122, 222, 255]);
  const diff = diffImages(before, after);
  assert.equal(diff.diffPixels, 0);
  assert.equal(diff.faintPixels, 80 * 30);
  const { regions, wholeScreen } = findRegions(diff);
  assert.equal(regions.length, 1);
  assert.equal(regions[0].noiseOnly, true);
  assert.deepEqual(regions[0].box, [20, 140, 100, 170]);
  assert.equal(wholeScreen, false);
});

test('anti-aliasing differences are counted apart and reported as a noise-only region', () => {
  // a hard black|white edge with a grey anti-aliased column between; the grey shade changes
  const before = blankImage(40, 40);
  fillRect(before, [0, 0, 20, 40], [0, 0, 0, 255]);
  fillRect(before, [20, 10, 21, 30], [128, 128, 128, 255]);
  const after = cloneImage(before);
  fillRect(after, [20, 10, 21, 30], [60, 60, 60, 255]);
  const diff = diffImages(before, after);
  assert.equal(diff.diffPixels, 0, 'pixelmatch excludes the anti-aliased pixels');
  assert.ok(diff.aaPixels > 0, 'but they are counted separately');
  assert.equal(diff.mask[15 * 40 + 20], MASK_AA);
  const { regions } = findRegions(diff);
  assert.equal(regions.length, 1);
  assert.equal(regions[0].noiseOnly, true);
  assert.equal(regions[0].diffPixels, 0);
  assert.ok(regions[0].aaPixels > 0);
});

test('a one-pixel difference is noise, a real change next to noise absorbs it', () => {
  const before = blankImage(200, 200);
  const after = cloneImage(before);
  fillRect(after, [150, 150, 151, 151], [0, 0, 0, 255]);
  let { regions } = regionsOf(before, after);
  assert.equal(regions.length, 1);
  assert.equal(regions[0].noiseOnly, true);
  fillRect(after, [155, 140, 180, 160], RED);
  ({ regions } = regionsOf(before, after));
  assert.equal(regions.length, 1);
  assert.equal(regions[0].noiseOnly, false);
});

test('the mask marks real, anti-aliasing and faint pixels differently', () => {
  const before = blankImage(10, 10);
  const after = fillRect(cloneImage(before), [0, 0, 2, 2], [0, 0, 0, 255]);
  fillRect(after, [8, 8, 9, 9], [254, 254, 254, 255]);
  const diff = diffImages(before, after);
  assert.equal(diff.mask[0], MASK_DIFF);
  assert.equal(diff.mask[8 * 10 + 8], MASK_FAINT);
  assert.equal(diff.mask[5 * 10 + 5], 0);
});

test('a theme change everywhere triggers the whole-screen rule', () => {
  const before = sampleScreen();
  const after = cloneImage(before);
  for (let i = 0; i < after.data.length; i += 4) for (let c = 0; c < 3; c++) after.data[i + c] = 255 - after.data[i + c];
  const analysis = regionsOf(before, after);
  assert.equal(analysis.wholeScreen, true);
  assert.ok(analysis.coverage > 0.4);
});

test('random speckle noise over the whole screen gives a bounded number of regions', () => {
  const before = blankImage(300, 300);
  const after = cloneImage(before);
  let seed = 7;
  for (let k = 0; k < 3000; k++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const p = seed % (300 * 300);
    after.data.set([0, 0, 0, 255], p * 4);
  }
  const { regions } = regionsOf(before, after);
  assert.ok(regions.length >= 1 && regions.length <= 16, `${regions.length} regions`);
});

test('screens of different sizes are compared on the common area and the size change is described', () => {
  const before = sampleScreen(320, 200);
  const after = fillRect(blankImage(320, 266, [250, 250, 250, 255]), [0, 0, 320, 200], [0, 0, 0, 0]);
  after.data.set(before.data, 0); // same top 200 rows
  const analysis = regionsOf(before, after);
  assert.equal(analysis.width, 320);
  assert.equal(analysis.height, 200);
  assert.deepEqual(analysis.regions, []);
  assert.equal(analysis.sizeChange, 'the screenshot grew 66 px taller');
  assert.equal(describeSizeChange({ width: 100, height: 100 }, { width: 90, height: 100 }), 'the screenshot became 10 px narrower');
  assert.equal(
    describeSizeChange({ width: 100, height: 100 }, { width: 120, height: 130 }),
    'the screenshot grew 20 px wider and 30 px taller',
  );
  assert.equal(
    describeSizeChange({ width: 100, height: 100 }, { width: 120, height: 90 }),
    'the screenshot grew 20 px wider and became 10 px shorter',
  );
});

test('only the rows that hold changes go through pixelmatch: the mask of pixelmatch over the whole area', () => {
  // changes far apart (gaps longer than the runs merge), on the first and the last row, edges and
  // faint noise; the reference is pixelmatch itself over the whole images, classes read from its colours
  const before = sampleScreen(180, 300);
  const after = cloneImage(before);
  fillRect(after, [0, 0, 40, 1], [30, 30, 30, 255]);
  fillRect(after, [50, 40, 90, 43], [40, 40, 40, 255]);
  fillRect(after, [20, 150, 60, 152], [200, 200, 200, 255]);
  fillRect(after, [100, 299, 180, 300], [0, 0, 200, 255]);
  for (let i = 0; i < 200; i++) {
    const p = (i * 104729) % (180 * 300);
    after.data[p * 4 + 1] = (after.data[p * 4 + 1] + 3 * (i % 7)) & 255;
  }
  const output = new Uint8Array(before.data.length);
  const counted = pixelmatch(before.data, after.data, output, 180, 300, {
    threshold: 0.1,
    includeAA: false,
    alpha: 0,
    diffColor: [255, 0, 0],
    aaColor: [0, 0, 255],
    checkerboard: false,
  });
  const expected = new Uint8Array(180 * 300);
  for (let i = 0; i < expected.length; i++) {
    const [r, g, b] = [output[i * 4], output[i * 4 + 1], output[i * 4 + 2]];
    const same = before.data.subarray(i * 4, i * 4 + 4).every((v, k) => v === after.data[i * 4 + k]);
    expected[i] = same ? MASK_SAME : r === 255 && g === 0 && b === 0 ? MASK_DIFF : r === 0 && g === 0 && b === 255 ? MASK_AA : MASK_FAINT;
  }
  const diff = diffImages(before, after);
  assert.equal(diff.diffPixels, counted);
  assert.ok(diff.aaPixels > 0 && diff.faintPixels > 0, JSON.stringify([diff.aaPixels, diff.faintPixels]));
  assert.ok(Buffer.from(diff.mask).equals(Buffer.from(expected)), 'the same mask as pixelmatch over the whole area');
  // pixel data that is not 4-byte aligned (a caller's view) gives the same
  const shifted = new Uint8Array(after.data.length + 1);
  shifted.set(after.data, 1);
  const unaligned = diffImages(before, { width: 180, height: 300, data: shifted.subarray(1) });
  assert.ok(Buffer.from(unaligned.mask).equals(Buffer.from(expected)), 'unaligned: the same mask');
});

test('the diff compared in bands of rows gives the mask and counts of one comparison of the whole area', () => {
  // anti-aliasing is decided from two rows either side: text-like strokes, edges and noise across
  // every band edge of 5-, 7- and 64-row bands, on equal and on different widths
  const before = sampleScreen(203, 157);
  const after = cloneImage(before);
  for (let y = 3; y < 150; y += 9) fillRect(after, [10 + (y % 40), y, 60 + (y % 70), y + 2], [40, 40, 40, 255]);
  for (let i = 0; i < 600; i++) {
    const p = (i * 7919) % (203 * 157);
    after.data[p * 4] = (after.data[p * 4] + 9 * (i % 30)) & 255;
  }
  fillRect(after, [120, 30, 180, 33], [200, 200, 200, 255]);
  const wider = blankImage(230, 160);
  for (let y = 0; y < 157; y++) wider.data.set(after.data.subarray(y * 203 * 4, (y + 1) * 203 * 4), y * 230 * 4);
  for (const second of [after, wider]) {
    const whole = diffImages(before, second, { bandRows: 100_000 });
    assert.ok(whole.diffPixels > 100 && whole.aaPixels > 0 && whole.faintPixels > 0, JSON.stringify(whole.diffPixels));
    for (const bandRows of [1, 5, 7, 64]) {
      const banded = diffImages(before, second, { bandRows });
      assert.deepEqual(
        [banded.diffPixels, banded.aaPixels, banded.faintPixels],
        [whole.diffPixels, whole.aaPixels, whole.faintPixels],
        `${bandRows} rows`,
      );
      assert.ok(Buffer.from(banded.mask).equals(Buffer.from(whole.mask)), `${bandRows} rows: the same mask`);
    }
  }
});
