// Re-rendered text: a region whose pixels differ only because the same content was rasterised a
// little differently (another font hinting or anti-aliasing, a sub-pixel layout offset - the
// commonest cause of a snapshot test failing after a browser or OS update) is noise, not a change.
//
// Test, on the region box grown by 2 px: (1) after a 5x5 box blur the two images differ by at most
// `maxBlurredDifference` in every channel (a glyph redrawn in place moves its ink by a fraction of a
// pixel; a real move of 2 px or more, new text, a colour change or a new line do not blur away), and
// (2) the ink is conserved: the signed luma differences cancel, |sum(d)| <= maxImbalance * sum(|d|)
// (a thin line appearing or text turning lighter adds or removes ink all one way, even when it is
// faint enough to blur away).
// A second test catches what the ink test cannot: the anti-aliasing mode switched between grey-scale
// and LCD sub-pixel (coloured fringes; a headless vs a headed browser, another OS font setting). The
// new mode draws the glyphs a little heavier, so ink is not conserved, but (1) still holds, the
// differing pixels are neutral grey on one side and coloured on the other, and the colours balance:
// sub-pixel fringes are reddish on one edge of a stroke and bluish on the other, so the red-minus-blue
// of the coloured side sums to about zero (|sum(R-B)| <= maxHueImbalance * sum(|R-B|)), where a
// recolour to any one hue sums one way. Measured (`node scripts/measure-noise.mjs` on the two
// validation splits, 3,000 pairs, 4,197 regions): it changes no region's verdict there (the synthetic
// renders are all grey-scale); on the real pair whose text went sub-pixel (../shared/realpairs/011) it
// turns the one region the other rules left into noise, so that pair is "no visible change".
//
// Measured on the synthetic test split (`node scripts/measure-noise.mjs CORPUS/test`, 1,200
// pairs): of the regions the jitter rule leaves, it takes 24 of the 57 in pairs or places with no
// change and 10 of 138 sub-pixel reflows, and 3 of the 1,401 regions of real changes (2 resize, 1
// reorder); on the template-set-2 validation split 6, 1 and 1 (a font change).

import type { Box } from './report.js';
import type { RgbaImage } from './image.js';

export interface RerenderOptions {
  /** blur radius in pixels (default 2: a 5x5 box; 0 turns the test off) */
  radius?: number;
  /** largest channel difference (0..255) of the blurred images that still counts as re-rendering (default 24) */
  maxBlurredDifference?: number;
  /** largest |sum of signed luma differences| / sum of |luma differences| (0..1, default 0.1) */
  maxImbalance?: number;
  /** the anti-aliasing-mode test (grey-scale <-> sub-pixel) on or off (default on) */
  antialiasMode?: boolean;
  /** that test: largest |sum(R-B)| / sum(|R-B|) of the coloured side's differing pixels (default 0.3) */
  maxHueImbalance?: number;
}

export const DEFAULT_RERENDER_OPTIONS: Required<RerenderOptions> = {
  radius: 2,
  maxBlurredDifference: 24,
  maxImbalance: 0.1,
  antialiasMode: true,
  maxHueImbalance: 0.3,
};

/** A pixel differs, for the anti-aliasing-mode test, when |dR|+|dG|+|dB| is at least this. */
const AA_DIFF_THRESHOLD = 24;
/** The coloured side's mean chroma (max - min channel) over the differing pixels is at least this ... */
const AA_MIN_CHROMA = 24;
/** ... and the grey side's at most this fraction of it. */
const AA_GREY_FRACTION = 0.25;
/** Fewer differing pixels than this say too little about fringes. */
const AA_MIN_PIXELS = 20;

export interface AntialiasModeStats {
  /** differing pixels in the box */
  pixels: number;
  /** mean chroma (max - min channel) of those pixels in before and in after */
  chromaBefore: number;
  chromaAfter: number;
  /** |sum(R-B)| / sum(|R-B|) over those pixels on the more coloured side (0 when it has no colour) */
  hueImbalance: number;
}

/** The fringe measures of the anti-aliasing-mode test over `box` (clipped to the common area). */
export function antialiasModeStats(before: RgbaImage, after: RgbaImage, box: Box): AntialiasModeStats {
  const width = Math.min(before.width, after.width),
    height = Math.min(before.height, after.height);
  const x0 = Math.max(0, Math.floor(box[0])),
    y0 = Math.max(0, Math.floor(box[1]));
  const x1 = Math.min(width, Math.ceil(box[2])),
    y1 = Math.min(height, Math.ceil(box[3]));
  const p = before.data,
    q = after.data;
  let pixels = 0,
    chromaB = 0,
    chromaA = 0,
    hueB = 0,
    hueAbsB = 0,
    hueA = 0,
    hueAbsA = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const b = (y * before.width + x) * 4,
        a = (y * after.width + x) * 4;
      if (Math.abs(q[a] - p[b]) + Math.abs(q[a + 1] - p[b + 1]) + Math.abs(q[a + 2] - p[b + 2]) < AA_DIFF_THRESHOLD) continue;
      pixels++;
      chromaB += Math.max(p[b], p[b + 1], p[b + 2]) - Math.min(p[b], p[b + 1], p[b + 2]);
      chromaA += Math.max(q[a], q[a + 1], q[a + 2]) - Math.min(q[a], q[a + 1], q[a + 2]);
      hueB += p[b] - p[b + 2];
      hueAbsB += Math.abs(p[b] - p[b + 2]);
      hueA += q[a] - q[a + 2];
      hueAbsA += Math.abs(q[a] - q[a + 2]);
    }
  }
  if (pixels === 0) return { pixels: 0, chromaBefore: 0, chromaAfter: 0, hueImbalance: 0 };
  const [hue, hueAbs] = chromaA >= chromaB ? [hueA, hueAbsA] : [hueB, hueAbsB];
  return { pixels, chromaBefore: chromaB / pixels, chromaAfter: chromaA / pixels, hueImbalance: hueAbs ? Math.abs(hue) / hueAbs : 0 };
}

/** The anti-aliasing-mode part of the verdict: neutral grey on one side, balanced colour fringes on the other. */
function isAntialiasModeSwitch(stats: AntialiasModeStats, maxHueImbalance: number): boolean {
  const coloured = Math.max(stats.chromaBefore, stats.chromaAfter),
    grey = Math.min(stats.chromaBefore, stats.chromaAfter);
  return (
    stats.pixels >= AA_MIN_PIXELS &&
    coloured >= AA_MIN_CHROMA &&
    grey <= AA_GREY_FRACTION * coloured &&
    stats.hueImbalance <= maxHueImbalance
  );
}

export interface RerenderStats {
  /** largest channel difference of the box-blurred images inside the grown box */
  blurredDifference: number;
  /** |sum of signed luma differences| / sum of |luma differences| (0 when nothing differs) */
  imbalance: number;
}

/**
 * The two measures of the test for `box` (grown by the radius, clipped to the common area). The blur
 * runs row by row over column sums, so memory stays O(width) however large the region; once the
 * blurred difference exceeds `stopAbove` the scan stops (the caller only needs to know that).
 */
export function rerenderStats(
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  radius = DEFAULT_RERENDER_OPTIONS.radius,
  stopAbove = Infinity,
): RerenderStats {
  const width = Math.min(before.width, after.width),
    height = Math.min(before.height, after.height);
  const x0 = Math.max(0, Math.floor(box[0]) - radius),
    y0 = Math.max(0, Math.floor(box[1]) - radius);
  const x1 = Math.min(width, Math.ceil(box[2]) + radius),
    y1 = Math.min(height, Math.ceil(box[3]) + radius);
  if (x1 <= x0 || y1 <= y0) return { blurredDifference: 0, imbalance: 0 };
  // columns ox..ex feed the horizontal window of x0..x1
  const ox = Math.max(0, x0 - radius),
    ex = Math.min(width, x1 + radius);
  const n = ex - ox;
  const columns = new Float64Array(3 * n); // per column and channel: the sum of (after - before) over the window's rows
  const prefix = new Float64Array(3 * (n + 1)); // per channel: running sums of `columns` along the row
  const addRow = (y: number, sign: number) => {
    for (let x = ox; x < ex; x++) {
      const b = (y * before.width + x) * 4,
        a = (y * after.width + x) * 4,
        c = (x - ox) * 3;
      for (let k = 0; k < 3; k++) columns[c + k] += sign * (after.data[a + k] - before.data[b + k]);
    }
  };
  let top = Math.max(0, y0 - radius),
    bottom = top; // rows [top, bottom) are in `columns`
  let blurred = 0,
    signed = 0,
    absolute = 0;
  for (let y = y0; y < y1; y++) {
    const wantTop = Math.max(0, y - radius),
      wantBottom = Math.min(height, y + radius + 1);
    for (; bottom < wantBottom; bottom++) addRow(bottom, 1);
    for (; top < wantTop; top++) addRow(top, -1);
    for (let x = 0; x < n; x++) {
      for (let k = 0; k < 3; k++) prefix[(x + 1) * 3 + k] = prefix[x * 3 + k] + columns[x * 3 + k];
    }
    const rows = bottom - top;
    for (let x = x0; x < x1; x++) {
      const left = Math.max(ox, x - radius) - ox,
        right = Math.min(ex, x + radius + 1) - ox;
      const count = (right - left) * rows;
      for (let k = 0; k < 3; k++) {
        const mean = Math.abs(prefix[right * 3 + k] - prefix[left * 3 + k]) / count;
        if (mean > blurred) blurred = mean;
      }
      const b = (y * before.width + x) * 4,
        a = (y * after.width + x) * 4;
      const luma =
        0.299 * (after.data[a] - before.data[b]) +
        0.587 * (after.data[a + 1] - before.data[b + 1]) +
        0.114 * (after.data[a + 2] - before.data[b + 2]);
      signed += luma;
      absolute += Math.abs(luma);
    }
    if (blurred > stopAbove) break;
  }
  return { blurredDifference: blurred, imbalance: absolute ? Math.abs(signed) / absolute : 0 };
}

/** True when the region's differences are the same content re-rendered (see the top of this file). */
export function isRerendered(before: RgbaImage, after: RgbaImage, box: Box, options: RerenderOptions = {}): boolean {
  const { radius, maxBlurredDifference, maxImbalance, antialiasMode, maxHueImbalance } = { ...DEFAULT_RERENDER_OPTIONS, ...options };
  if (radius < 1) return false;
  const { blurredDifference, imbalance } = rerenderStats(before, after, box, radius, maxBlurredDifference);
  if (!(blurredDifference > 0 && blurredDifference <= maxBlurredDifference)) return false;
  if (imbalance <= maxImbalance) return true;
  return antialiasMode && isAntialiasModeSwitch(antialiasModeStats(before, after, box), maxHueImbalance);
}
