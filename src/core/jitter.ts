// One-pixel jitter: a region whose differences are all explained by the same pixels moved by at
// most one pixel (layout rounding nudged an element) is noise, like anti-aliasing. The runtime applies
// it only without the text reader, as the models were first trained; with the reader a 1 px shift
// is a move it reports, and the data engine's "no visible change" pairs never contain one
// (src/data/generate.ts drawnAsWholePixelShift).
//
// Test: inside the region box, count the pixels that differ by more than `tolerance` (largest
// channel difference) between after(x, y) and before(x - dx, y - dy). With no shift that count is
// the region's difference; if one of the eight 1-pixel shifts leaves at most `maxResidual` of it,
// the shift explains the region.

import type { Box } from './report.js';
import type { RgbaImage } from './image.js';
import { DEFAULT_REGION_OPTIONS, withRegions, type PixelRegion, type RegionAnalysis } from './regions.js';
import { isRerendered, type RerenderOptions } from './rerender.js';

export interface JitterOptions {
  /** largest shift in pixels, per axis, that counts as jitter (default 1; 0 turns the test off). */
  maxShift?: number;
  /** a pixel pair differs when a channel differs by more than this (0..255, default 40). */
  tolerance?: number;
  /** a shift explains the region when it leaves at most this fraction of the differing pixels (default 0.05). */
  maxResidual?: number;
}

export const DEFAULT_JITTER_OPTIONS: Required<JitterOptions> = { maxShift: 1, tolerance: 40, maxResidual: 0.05 };

/**
 * Pixels of `box` where after(x, y) and before(x - dx, y - dy) differ (pixels shifted outside `before`
 * count). Counting stops as soon as the count exceeds `stopAbove` (the caller only needs to know that).
 * `withinAPixel`: a pixel also counts as the same when each of its channels lies within `tolerance`
 * of the range its 3x3 neighbourhood spans in `before` around (x - dx, y - dy): text moved by a
 * fraction of a pixel is re-rasterised, which blends neighbouring values but draws no colour that
 * was not there.
 */
export function differingAfterShift(
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  dx: number,
  dy: number,
  tolerance: number,
  stopAbove = Infinity,
  withinAPixel = false,
): number {
  const [x0, y0, x1, y1] = box;
  const A = after.data,
    B = before.data;
  // the columns whose shifted source lies inside `before`; the others count as differing
  const inFrom = Math.max(x0, dx),
    inTo = Math.max(inFrom, Math.min(x1, before.width + dx));
  const outside = Math.max(0, x1 - x0) - (inTo - inFrom);
  let count = 0;
  for (let y = y0; y < y1; y++) {
    const sy = y - dy;
    if (sy < 0 || sy >= before.height) count += Math.max(0, x1 - x0);
    else {
      count += outside;
      let a = (y * after.width + inFrom) * 4,
        b = (sy * before.width + inFrom - dx) * 4;
      for (let x = inFrom; x < inTo; x++, a += 4, b += 4) {
        const d0 = A[a] - B[b],
          d1 = A[a + 1] - B[b + 1],
          d2 = A[a + 2] - B[b + 2];
        if (
          (d0 > tolerance || -d0 > tolerance || d1 > tolerance || -d1 > tolerance || d2 > tolerance || -d2 > tolerance) &&
          (!withinAPixel || outsideNeighbourhood(before, A, a, x - dx, sy, tolerance))
        )
          count++;
      }
    }
    if (count > stopAbove) return count;
  }
  return count;
}

/** Whether a channel of the after pixel at `a` lies beyond `tolerance` of the range of before's 3x3 neighbourhood of (sx, sy). */
function outsideNeighbourhood(before: RgbaImage, afterData: Uint8Array, a: number, sx: number, sy: number, tolerance: number): boolean {
  for (let c = 0; c < 3; c++) {
    const v = afterData[a + c];
    let lo = 255,
      hi = 0;
    for (let ny = Math.max(0, sy - 1); ny <= Math.min(before.height - 1, sy + 1); ny++) {
      for (let nx = Math.max(0, sx - 1); nx <= Math.min(before.width - 1, sx + 1); nx++) {
        const u = before.data[(ny * before.width + nx) * 4 + c];
        if (u < lo) lo = u;
        if (u > hi) hi = u;
      }
    }
    if (v < lo - tolerance || v > hi + tolerance) return true;
  }
  return false;
}

/** The shift (|dx|, |dy| <= maxShift, not both 0) that explains the region's differences, if one does. */
export function jitterShiftOf(
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  options: JitterOptions = {},
): { dx: number; dy: number } | undefined {
  const { maxShift, tolerance, maxResidual } = { ...DEFAULT_JITTER_OPTIONS, ...options };
  if (maxShift < 1) return undefined;
  // the box grown by the shift, so the moved edge is inside it, clipped to both images
  const grown: Box = [
    Math.max(0, box[0] - maxShift),
    Math.max(0, box[1] - maxShift),
    Math.min(after.width, before.width, box[2] + maxShift),
    Math.min(after.height, before.height, box[3] + maxShift),
  ];
  const unshifted = differingAfterShift(before, after, grown, 0, 0, tolerance);
  if (unshifted === 0) return undefined;
  const allowed = maxResidual * unshifted;
  let best: { dx: number; dy: number; count: number } | undefined;
  for (let dy = -maxShift; dy <= maxShift; dy++) {
    for (let dx = -maxShift; dx <= maxShift; dx++) {
      if (dx === 0 && dy === 0) continue;
      // pixels near the image edge have no shifted source: only the inner box is compared
      const inner: Box = [
        Math.max(grown[0], dx),
        Math.max(grown[1], dy),
        Math.min(grown[2], before.width + dx),
        Math.min(grown[3], before.height + dy),
      ];
      const count = differingAfterShift(before, after, inner, dx, dy, tolerance, best ? Math.min(best.count, allowed) : allowed);
      if (!best || count < best.count) best = { dx, dy, count };
    }
  }
  return best && best.count <= allowed ? { dx: best.dx, dy: best.dy } : undefined;
}

export interface RenderingNoiseOptions {
  jitter?: JitterOptions;
  rerender?: RerenderOptions;
}

/**
 * The analysis with every meaningful region that is only rendering noise - its pixels nudged by one
 * pixel (jitter) or its content re-rendered in place (src/core/rerender.ts) - turned into a noise
 * region, and the coverage and whole-screen rule recomputed from the regions left.
 */
export function withRenderingNoise(
  analysis: RegionAnalysis,
  before: RgbaImage,
  after: RgbaImage,
  options: RenderingNoiseOptions = {},
  wholeScreenCoverage = DEFAULT_REGION_OPTIONS.wholeScreenCoverage,
): RegionAnalysis {
  const meaningful: PixelRegion[] = [];
  const noise: PixelRegion[] = [];
  let changed = false;
  for (const r of analysis.regions) {
    if (r.noiseOnly) noise.push(r);
    else if (jitterShiftOf(before, after, r.box, options.jitter)) {
      noise.push({ ...r, noiseOnly: true, jitter: true });
      changed = true;
    } else if (isRerendered(before, after, r.box, options.rerender)) {
      noise.push({ ...r, noiseOnly: true, rerendered: true });
      changed = true;
    } else meaningful.push(r);
  }
  return changed ? withRegions(analysis, meaningful, noise, wholeScreenCoverage) : analysis;
}
