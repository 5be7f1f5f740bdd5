import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng, type RgbaImage } from '../../src/core/image.js';
import { diffImages } from '../../src/core/diff.js';
import { findRegions } from '../../src/core/regions.js';
import { faintRecolourPixels, withFaintRecolours } from '../../src/core/faint-recolour.js';
import { drawPng, type Rect } from './runtime-fixtures.js';

// a switch: a grey pill-like track with a white knob, beside a label
const track = (r: number, g: number, b: number): Rect[] => [
  [20, 20, 52, 36, r, g, b],
  [22, 22, 34, 34, 255, 255, 255],
  [60, 22, 140, 34, 40, 40, 40],
];
const screen = (rects: Rect[]): RgbaImage => decodePng(drawPng(200, 60, rects), 'fixture');

test('a grey track turned a darker grey is a change although the diff threshold passes it', () => {
  const before = screen(track(191, 197, 211));
  const after = screen(track(173, 173, 178));
  const analysis = findRegions(diffImages(before, after));
  assert.equal(analysis.regions.filter((r) => !r.noiseOnly).length, 0, 'pixelmatch at 0.1 calls it faint');
  assert.ok(analysis.regions.some((r) => r.noiseOnly));
  const out = withFaintRecolours(analysis, before, after);
  const changed = out.regions.filter((r) => !r.noiseOnly);
  assert.equal(changed.length, 1);
  assert.equal(changed[0].recoloured, true);
  // the track minus the knob: 32x16 - 12x12
  assert.equal(changed[0].diffPixels, 32 * 16 - 12 * 12);
  assert.ok(out.coverage > 0);
});

test('a tint no eye sees, edge noise and a recoloured line stay noise', () => {
  const before = screen(track(191, 197, 211));
  // 3 levels: the data engine's invisible tint
  const tinted = screen(track(188, 194, 208));
  const tintAnalysis = findRegions(diffImages(before, tinted));
  assert.equal(withFaintRecolours(tintAnalysis, before, tinted), tintAnalysis);
  // pixels changed by deltas that differ from pixel to pixel, as re-rendered edges do
  const noisy = screen([
    ...track(191, 197, 211),
    ...Array.from({ length: 16 }, (_, i): Rect => [20 + 2 * i, 36, 21 + 2 * i, 37, 200 - 3 * i, 200 - 3 * i, 200 - 3 * i]),
  ]);
  const base = screen([...track(191, 197, 211), [20, 36, 52, 37, 205, 205, 205]]);
  for (const r of findRegions(diffImages(base, noisy)).regions) assert.equal(faintRecolourPixels(base, noisy, r), 0);
  // a 1 px line recoloured by one delta is not a solid area
  const line = (v: number) => screen([[10, 50, 190, 51, v, v, v]]);
  for (const r of findRegions(diffImages(line(200), line(188))).regions) assert.equal(faintRecolourPixels(line(200), line(188), r), 0);
});

test('options: a higher minLevels or a larger block turns the rule off for the same change', () => {
  const before = screen(track(191, 197, 211));
  const after = screen(track(173, 173, 178));
  const [region] = findRegions(diffImages(before, after)).regions;
  assert.ok(faintRecolourPixels(before, after, region) > 0);
  assert.equal(faintRecolourPixels(before, after, region, { minLevels: 40 }), 0);
  assert.equal(faintRecolourPixels(before, after, region, { block: 20 }), 0);
});
