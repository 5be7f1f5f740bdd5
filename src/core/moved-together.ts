// Regions that moved together are one region. An element with a flat inside (an input, a card, a
// button) that moves by a few pixels leaves separate islands of differing pixels - its top edge, its
// text, its bottom edge - because its flat inside looks the same after the move. The region finder
// sees three changes; a reviewer sees one element that moved. Here two nearby regions become one when
// the same shift explains each of them and also everything between them (the box that holds both),
// so content that stayed put between them keeps them apart.
//
// A region's shift: the (dx, dy) with after(x, y) = before(x - dx, y - dy) over its box for all but
// a few of its differing pixels (as src/core/jitter.ts tests one-pixel shifts). Candidates come
// from the box's row and column luma profiles compared at every offset up to `maxShift`; the best
// few are checked pixel by pixel.

import type { Box } from './report.js';
import type { RgbaImage } from './image.js';
import { differingAfterShift } from './jitter.js';
import { DEFAULT_REGION_OPTIONS, withRegions, type RegionAnalysis } from './regions.js';

export interface MovedTogetherOptions {
  /** largest shift searched, in pixels per axis (default 64). */
  maxShift?: number;
  /** two regions are candidates when the gap between their boxes is at most this on both axes (default 48). */
  maxGap?: number;
  /** a pixel pair differs when a channel differs by more than this (0..255, default 40). */
  tolerance?: number;
  /** a shift explains a box when it leaves at most this fraction of its differing pixels (default 0.05). */
  maxResidual?: number;
  /** regions and merged boxes larger than this many pixels are left alone, which bounds the work (default 1,000,000). */
  maxArea?: number;
}

export const DEFAULT_MOVED_TOGETHER_OPTIONS: Required<MovedTogetherOptions> = {
  maxShift: 64,
  maxGap: 48,
  tolerance: 40,
  maxResidual: 0.05,
  maxArea: 1_000_000,
};

/** Candidate offsets tried pixel by pixel per axis (the profile's best few). */
const CANDIDATES_PER_AXIS = 2;

function lumaAt(image: RgbaImage, x: number, y: number): number {
  const i = (y * image.width + x) * 4;
  return 0.299 * image.data[i] + 0.587 * image.data[i + 1] + 0.114 * image.data[i + 2];
}

/**
 * The `count` offsets d (|d| <= maxShift, d != 0) whose profile of `before` shifted by d is closest to
 * the profile of `after`, along rows (vertical) or columns (horizontal).
 */
function profileOffsets(before: RgbaImage, after: RgbaImage, box: Box, vertical: boolean, maxShift: number, count: number): number[] {
  const [x0, y0, x1, y1] = box;
  const width = Math.min(before.width, after.width);
  const height = Math.min(before.height, after.height);
  // the profile runs along the shift's axis; each entry sums the box across the other axis
  const [a0, a1, b0, b1] = vertical ? [y0, y1, x0, x1] : [x0, x1, y0, y1];
  const limit = vertical ? height : width;
  const sum = (image: RgbaImage, along: number) => {
    let s = 0;
    for (let across = b0; across < b1; across++) s += vertical ? lumaAt(image, across, along) : lumaAt(image, along, across);
    return s / (b1 - b0);
  };
  const afterProfile = new Float64Array(a1 - a0);
  for (let p = a0; p < a1; p++) afterProfile[p - a0] = sum(after, p);
  const lo = Math.max(0, a0 - maxShift);
  const hi = Math.min(limit, a1 + maxShift);
  const beforeProfile = new Float64Array(hi - lo);
  for (let p = lo; p < hi; p++) beforeProfile[p - lo] = sum(before, p);
  const scored: { d: number; score: number }[] = [];
  for (let d = -maxShift; d <= maxShift; d++) {
    if (d === 0) continue;
    let score = 0;
    let compared = 0;
    for (let p = a0; p < a1; p++) {
      const q = p - d;
      if (q < lo || q >= hi) continue;
      score += Math.abs(afterProfile[p - a0] - beforeProfile[q - lo]);
      compared++;
    }
    // at least half the box must have a source inside the image
    if (compared * 2 < a1 - a0) continue;
    scored.push({ d, score: score / compared });
  }
  scored.sort((p, q) => p.score - q.score || Math.abs(p.d) - Math.abs(q.d));
  return scored.slice(0, count).map((s) => s.d);
}

/** The box cut to where the shift's source lies inside the before image. */
function sourced(box: Box, dx: number, dy: number, before: RgbaImage, after: RgbaImage): Box {
  return [
    Math.max(box[0], dx),
    Math.max(box[1], dy),
    Math.min(box[2], before.width + dx, after.width),
    Math.min(box[3], before.height + dy, after.height),
  ];
}

/** Whether after(x, y) = before(x - dx, y - dy) over `box` for all but `maxResidual` of its differing pixels. */
function explains(before: RgbaImage, after: RgbaImage, box: Box, dx: number, dy: number, o: Required<MovedTogetherOptions>): boolean {
  const inner = sourced(box, dx, dy, before, after);
  if (inner[2] <= inner[0] || inner[3] <= inner[1]) return false;
  const unshifted = differingAfterShift(before, after, inner, 0, 0, o.tolerance);
  if (unshifted === 0) return false;
  const allowed = o.maxResidual * unshifted;
  return differingAfterShift(before, after, inner, dx, dy, o.tolerance, allowed) <= allowed;
}

/** The whole-pixel shift that explains the region's box, if one does (|dx|, |dy| <= maxShift). */
export function rigidShiftOf(
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  options: MovedTogetherOptions = {},
): { dx: number; dy: number } | undefined {
  const o = { ...DEFAULT_MOVED_TOGETHER_OPTIONS, ...options };
  if (box[2] - box[0] < 1 || box[3] - box[1] < 1 || (box[2] - box[0]) * (box[3] - box[1]) > o.maxArea) return undefined;
  const dys = profileOffsets(before, after, box, true, o.maxShift, CANDIDATES_PER_AXIS);
  const dxs = profileOffsets(before, after, box, false, o.maxShift, CANDIDATES_PER_AXIS);
  // straight moves first (the commonest in a layout), then the best diagonal
  const candidates: [number, number][] = [...dys.map((dy): [number, number] => [0, dy]), ...dxs.map((dx): [number, number] => [dx, 0])];
  if (dxs.length && dys.length) candidates.push([dxs[0], dys[0]]);
  for (const [dx, dy] of candidates) if (explains(before, after, box, dx, dy, o)) return { dx, dy };
  return undefined;
}

function gap(a: Box, b: Box): number {
  const gapX = Math.max(0, Math.max(a[0], b[0]) - Math.min(a[2], b[2]));
  const gapY = Math.max(0, Math.max(a[1], b[1]) - Math.min(a[3], b[3]));
  return Math.max(gapX, gapY);
}

const union = (a: Box, b: Box): Box => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];

/**
 * The analysis with nearby meaningful regions that one shift explains together merged into one
 * region (box: the union; pixel counts: the sums), the coverage and whole-screen rule recomputed.
 */
export function withMovedTogether(
  analysis: RegionAnalysis,
  before: RgbaImage,
  after: RgbaImage,
  options: MovedTogetherOptions = {},
  wholeScreenCoverage = DEFAULT_REGION_OPTIONS.wholeScreenCoverage,
): RegionAnalysis {
  const o = { ...DEFAULT_MOVED_TOGETHER_OPTIONS, ...options };
  const groups = analysis.regions
    .filter((r) => !r.noiseOnly)
    .map((r) => ({ region: { ...r }, shift: rigidShiftOf(before, after, r.box, o) }));
  const moving = groups.filter((g) => g.shift).length;
  if (moving < 2) return analysis;
  let merged = false;
  for (let changed = true; changed;) {
    changed = false;
    // the closest candidates first, so a chain of edges joins in order
    const pairs: { i: number; j: number; gap: number }[] = [];
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const a = groups[i].shift,
          b = groups[j].shift;
        if (!a || !b || a.dx !== b.dx || a.dy !== b.dy) continue;
        const g = gap(groups[i].region.box, groups[j].region.box);
        if (g <= o.maxGap) pairs.push({ i, j, gap: g });
      }
    }
    pairs.sort((p, q) => p.gap - q.gap);
    for (const { i, j } of pairs) {
      const a = groups[i],
        b = groups[j];
      const box = union(a.region.box, b.region.box);
      if ((box[2] - box[0]) * (box[3] - box[1]) > o.maxArea || !explains(before, after, box, a.shift!.dx, a.shift!.dy, o)) continue;
      a.region = {
        ...a.region,
        box,
        diffPixels: a.region.diffPixels + b.region.diffPixels,
        aaPixels: a.region.aaPixels + b.region.aaPixels,
        faintPixels: a.region.faintPixels + b.region.faintPixels,
      };
      groups.splice(j, 1);
      changed = merged = true;
      break;
    }
  }
  if (!merged) return analysis;
  return withRegions(
    analysis,
    groups.map((g) => g.region),
    analysis.regions.filter((r) => r.noiseOnly),
    wholeScreenCoverage,
  );
}
