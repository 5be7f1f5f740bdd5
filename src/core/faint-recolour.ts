// A recolour under the diff threshold is a change. pixelmatch's colour threshold (0.1 by default)
// passes colour changes a designer sees - a grey switch track turned a darker grey, a border one
// shade lighter - as sub-threshold ("faint") pixels, which the region finder keeps as noise.
// Rendering noise is faint too, but it lies on glyph and shape edges with deltas that vary from
// pixel to pixel; a deliberate recolour moves a solid area by one colour delta. So a noise region
// becomes a change when enough of its pixels, a solid square among them, changed by the same delta
// and that delta is large enough to see (the data engine's "no visible change" tint is 1.2%, about 3
// levels; `minLevels` is well above it).
import type { RgbaImage } from './image.js';
import { DEFAULT_REGION_OPTIONS, withRegions, type PixelRegion, type RegionAnalysis } from './regions.js';

export interface FaintRecolourOptions {
  /** the shared delta's largest channel change, in levels of 255 (default 8, about 3%). */
  minLevels?: number;
  /** pixels that must share the delta (default 24). */
  minPixels?: number;
  /** side of a square whose pixels all share the delta: a solid area, not a line of edge pixels (default 4). */
  block?: number;
  /** per-channel slack when comparing a pixel's delta with the shared one (default 1). */
  slack?: number;
  /** regions larger than this many pixels are not examined, which bounds the work (default 2,000,000). */
  maxArea?: number;
}

export const DEFAULT_FAINT_RECOLOUR_OPTIONS: Required<FaintRecolourOptions> = {
  minLevels: 8,
  minPixels: 24,
  block: 4,
  slack: 1,
  maxArea: 2_000_000,
};

/** The number of pixels of `region` recoloured by one visible delta over a solid area, or 0. */
export function faintRecolourPixels(before: RgbaImage, after: RgbaImage, region: PixelRegion, options: FaintRecolourOptions = {}): number {
  const o = { ...DEFAULT_FAINT_RECOLOUR_OPTIONS, ...options };
  const [x0, y0, x1, y1] = region.box;
  const w = x1 - x0,
    h = y1 - y0;
  if (w < o.block || h < o.block || w * h > o.maxArea) return 0;
  // the commonest delta among the pixels that differ (two passes over the pixels rather than a
  // stored delta per pixel: a noise region can be large)
  const counts = new Map<number, number>();
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const a = (y * before.width + x) * 4,
        b = (y * after.width + x) * 4;
      const dr = after.data[b] - before.data[a],
        dg = after.data[b + 1] - before.data[a + 1],
        db = after.data[b + 2] - before.data[a + 2];
      if (dr === 0 && dg === 0 && db === 0) continue;
      const key = ((dr + 255) * 511 + (dg + 255)) * 511 + (db + 255);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  let mode = -1,
    modeCount = 0;
  for (const [key, n] of counts) if (n > modeCount) [mode, modeCount] = [key, n];
  if (modeCount < o.minPixels / 4) return 0;
  const mr = Math.floor(mode / (511 * 511)) - 255,
    mg = (Math.floor(mode / 511) % 511) - 255,
    mb = (mode % 511) - 255;
  if (Math.max(Math.abs(mr), Math.abs(mg), Math.abs(mb)) < o.minLevels) return 0;
  // pixels within the slack of that delta, and whether a block x block square of them exists
  // (column run lengths, then runs of columns tall enough along each row)
  const shared = new Uint8Array(w * h);
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const a = (y * before.width + x) * 4,
        b = (y * after.width + x) * 4;
      if (
        Math.abs(after.data[b] - before.data[a] - mr) <= o.slack &&
        Math.abs(after.data[b + 1] - before.data[a + 1] - mg) <= o.slack &&
        Math.abs(after.data[b + 2] - before.data[a + 2] - mb) <= o.slack
      ) {
        shared[(y - y0) * w + (x - x0)] = 1;
        count++;
      }
    }
  }
  if (count < o.minPixels) return 0;
  const tall = new Uint16Array(w);
  for (let y = 0; y < h; y++) {
    let run = 0;
    for (let x = 0; x < w; x++) {
      tall[x] = shared[y * w + x] ? tall[x] + 1 : 0;
      run = tall[x] >= o.block ? run + 1 : 0;
      if (run >= o.block) return count;
    }
  }
  return 0;
}

/**
 * The analysis with every noise region the diff threshold hid a visible recolour in turned into a
 * meaningful region (`recoloured: true`; its recoloured pixels count as differing), the coverage and
 * whole-screen rule recomputed.
 */
export function withFaintRecolours(
  analysis: RegionAnalysis,
  before: RgbaImage,
  after: RgbaImage,
  options: FaintRecolourOptions = {},
  wholeScreenCoverage = DEFAULT_REGION_OPTIONS.wholeScreenCoverage,
): RegionAnalysis {
  const meaningful: PixelRegion[] = [];
  const noise: PixelRegion[] = [];
  let changed = false;
  for (const r of analysis.regions) {
    // only what the diff called faint or anti-aliasing: a region the jitter or re-render tests
    // turned into noise had its differences explained already
    const recoloured = r.noiseOnly && !r.jitter && !r.rerendered ? faintRecolourPixels(before, after, r, options) : 0;
    if (recoloured) {
      meaningful.push({
        ...r,
        noiseOnly: false,
        recoloured: true,
        diffPixels: r.diffPixels + recoloured,
        faintPixels: Math.max(0, r.faintPixels - recoloured),
      });
      changed = true;
    } else (r.noiseOnly ? noise : meaningful).push(r);
  }
  return changed ? withRegions(analysis, meaningful, noise, wholeScreenCoverage) : analysis;
}
