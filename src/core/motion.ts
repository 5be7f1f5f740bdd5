// Content motion of a changed region, measured at full resolution: small blocks of the region in one
// image are looked up in the other (a coarse search at reduced resolution, refined at full), and each
// block is "the same", "moved by (dx, dy)" or "not found there". The kinds the 96x96 crop confuses
// differ here: a reorder swaps content (blocks move in opposite directions), a reflow or a move shifts
// it one way, new text or an added element has no source, an unchanged region is all "the same".
// Part of the layout context (context.ts); no model, plain arithmetic on luma.
import type { Box } from './report.js';
import type { RgbaImage } from './image.js';

/** Feature names, in order (appended to the layout context; models/CONTRACT.md). */
export const MOTION_FEATURES = [
  'after_content',
  'after_same',
  'after_shifted',
  'after_new',
  'before_content',
  'before_same',
  'before_shifted',
  'before_gone',
  'motion_dx',
  'motion_dy',
  'motion_dist',
  'motion_spread',
  'motion_opposed',
  'motion_common',
] as const;

/** At most this many blocks along a side of the region (so at most 100 per image). */
const BLOCKS_PER_SIDE = 10;
/** Blocks are at least this many pixels a side. */
const MIN_BLOCK = 8;
/** A block is compared on a lattice of at most this many samples a side. */
const SAMPLES_PER_SIDE = 8;
/** A block has content (can be found elsewhere) when its samples' luma spans at least this (of 255). */
const CONTENT_RANGE = 24;
/** Two blocks match when their samples' mean |luma difference| is at most this (of 255). */
const MATCH_LEVEL = 6;
/** Diagonal search radius in pixels (the data engine moves elements up to 110 px on each axis). */
const DIAGONAL_RADIUS = 112;
/** Search along the axes reaches the region's longer side (a swap partner, a reflow's shift), capped. */
const MAX_AXIS_RADIUS = 480;
/** The square search (both axes at once) compares means of this many pixels a side. */
const SQUARE_FACTOR = 4;
/** Candidates of a coarse search refined at full resolution. */
const CANDIDATES = 6;
/** Missed blocks are retried at this many of the region's commonest motions per direction. */
const RETRY_OFFSETS = 4;

/** Luma of a window of an image, [x0, x0 + w) x [y0, y0 + h) in image pixels, optionally averaged f x f. */
interface Plane {
  x0: number;
  y0: number;
  w: number;
  h: number;
  v: Float32Array;
}

function lumaPlane(image: RgbaImage, x0: number, y0: number, x1: number, y1: number): Plane {
  const w = x1 - x0,
    h = y1 - y0;
  const v = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    let o = ((y + y0) * image.width + x0) * 4;
    for (let x = 0; x < w; x++, o += 4) v[y * w + x] = 0.299 * image.data[o] + 0.587 * image.data[o + 1] + 0.114 * image.data[o + 2];
  }
  return { x0, y0, w, h, v };
}

/** f x f means of a plane whose x0, y0 are multiples of f (partial cells at the far edges dropped). */
function shrink(p: Plane, f: number): Plane {
  const w = Math.floor(p.w / f),
    h = Math.floor(p.h / f);
  const v = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let j = 0; j < f; j++) {
        const row = (y * f + j) * p.w + x * f;
        for (let i = 0; i < f; i++) s += p.v[row + i];
      }
      v[y * w + x] = s / (f * f);
    }
  }
  return { x0: p.x0 / f, y0: p.y0 / f, w, h, v };
}

/** Sample positions (plane coordinates) of a lattice over [a, b): at most `count`, evenly spaced. */
function lattice(a: number, b: number, count: number): Int32Array {
  const n = Math.max(1, Math.min(count, b - a));
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = a + Math.floor(((i + 0.5) * (b - a)) / n);
  return out;
}

/** Sum of |src - dst shifted by (dx, dy)| over the lattice xs x ys (plane coordinates of src); Infinity
 *  where the shifted lattice leaves dst; stops early once over `limit`. */
function latticeError(src: Plane, dst: Plane, xs: Int32Array, ys: Int32Array, dx: number, dy: number, limit: number): number {
  const ox = src.x0 + dx - dst.x0,
    oy = src.y0 + dy - dst.y0;
  if (xs[0] + ox < 0 || xs[xs.length - 1] + ox >= dst.w || ys[0] + oy < 0 || ys[ys.length - 1] + oy >= dst.h) return Infinity;
  let sum = 0;
  for (let j = 0; j < ys.length; j++) {
    const sRow = ys[j] * src.w,
      dRow = (ys[j] + oy) * dst.w + ox;
    for (let i = 0; i < xs.length; i++) sum += Math.abs(src.v[sRow + xs[i]] - dst.v[dRow + xs[i]]);
    if (sum > limit) return sum;
  }
  return sum;
}

type Rect = [number, number, number, number];

/** A block's sample lattice in src and the error sum at or under which it matches. */
interface BlockLattice {
  xs: Int32Array;
  ys: Int32Array;
  matchSum: number;
}

function blockLattice(src: Plane, block: Rect): BlockLattice {
  const xs = lattice(block[0] - src.x0, block[2] - src.x0, SAMPLES_PER_SIDE);
  const ys = lattice(block[1] - src.y0, block[3] - src.y0, SAMPLES_PER_SIDE);
  return { xs, ys, matchSum: MATCH_LEVEL * xs.length * ys.length };
}

/** The first of `offsets` at which the block matches, as a result; null when none does. */
function matchAt(s: Search, { xs, ys, matchSum }: BlockLattice, offsets: [number, number][]): BlockResult {
  for (const [dx, dy] of offsets) if (latticeError(s.src, s.dst, xs, ys, dx, dy, matchSum) <= matchSum) return { state: 'shifted', dx, dy };
  return null;
}
type BlockResult = { state: 'same' } | { state: 'shifted'; dx: number; dy: number } | { state: 'new'; block: Rect } | null;

/** src looked up in dst; the axis search runs on planes averaged factor x factor, the square search on
 *  planes averaged SQUARE_FACTOR x SQUARE_FACTOR (it tries the most offsets). */
interface Search {
  src: Plane;
  dst: Plane;
  srcCoarse: Plane;
  dstCoarse: Plane;
  factor: number;
  srcSquare: Plane;
  dstSquare: Plane;
  axisRadius: number;
}

/**
 * Where block [bx0, bx1) x [by0, by1) (image pixels) of src is found in dst; null when it has no content.
 * Cheapest first: in place, at the offsets its neighbours moved by (`recent`), along the axes (reflows,
 * swaps, most moves), then anywhere in a square around it; each coarse search keeps CANDIDATES offsets,
 * refined at full resolution.
 */
function findBlock(s: Search, block: Rect, recent: [number, number][]): BlockResult {
  const [bx0, by0, bx1, by1] = block;
  const at = blockLattice(s.src, block);
  const { xs, ys, matchSum } = at;
  let lo = Infinity,
    hi = -Infinity;
  for (const y of ys)
    for (const x of xs) {
      const v = s.src.v[y * s.src.w + x];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  if (hi - lo < CONTENT_RANGE) return null;
  if (latticeError(s.src, s.dst, xs, ys, 0, 0, matchSum) <= matchSum) return { state: 'same' };
  const nearby = matchAt(s, at, recent);
  if (nearby) return nearby;

  const search = (c: Plane, dstCoarse: Plane, f: number, offsets: (consider: (dx: number, dy: number) => void) => void): BlockResult => {
    const coarseSpan = (a: number, b: number, origin: number, size: number): [number, number] => {
      const top = Math.min(size, Math.max(Math.floor(a / f) + 1, Math.floor(b / f)) - origin);
      return [Math.min(Math.floor(a / f) - origin, top - 1), top];
    };
    const cxs = lattice(...coarseSpan(bx0, bx1, c.x0, c.w), SAMPLES_PER_SIDE);
    const cys = lattice(...coarseSpan(by0, by1, c.y0, c.h), SAMPLES_PER_SIDE);
    if (cxs[0] < 0 || cys[0] < 0) return { state: 'new', block }; // an image a few pixels across: no coarse plane
    const best: { e: number; dx: number; dy: number }[] = [];
    offsets((dx, dy) => {
      const worst = best.length < CANDIDATES ? Infinity : best[best.length - 1].e;
      const e = latticeError(c, dstCoarse, cxs, cys, dx, dy, worst);
      if (e >= worst) return;
      best.push({ e, dx, dy });
      best.sort((p, q) => p.e - q.e);
      if (best.length > CANDIDATES) best.pop();
    });
    let bestE = Infinity,
      bestDx = 0,
      bestDy = 0;
    for (const cand of best) {
      for (let dy = cand.dy * f - f; dy <= cand.dy * f + f; dy++) {
        for (let dx = cand.dx * f - f; dx <= cand.dx * f + f; dx++) {
          if (!dx && !dy) continue;
          const e = latticeError(s.src, s.dst, xs, ys, dx, dy, bestE);
          if (e < bestE) {
            bestE = e;
            bestDx = dx;
            bestDy = dy;
          }
        }
      }
    }
    return bestE <= matchSum ? { state: 'shifted', dx: bestDx, dy: bestDy } : { state: 'new', block };
  };
  const r1 = Math.ceil(s.axisRadius / s.factor),
    r2 = Math.ceil(DIAGONAL_RADIUS / SQUARE_FACTOR);
  const alongAxes = search(s.srcCoarse, s.dstCoarse, s.factor, (consider) => {
    for (let d = 1; d <= r1; d++) {
      consider(d, 0);
      consider(-d, 0);
      consider(0, d);
      consider(0, -d);
    }
  });
  if (alongAxes?.state === 'shifted') return alongAxes;
  return search(s.srcSquare, s.dstSquare, SQUARE_FACTOR, (consider) => {
    for (let dy = -r2; dy <= r2; dy++) for (let dx = -r2; dx <= r2; dx++) if (dx && dy) consider(dx, dy);
  });
}

/** A block the search missed, tried at the offsets other blocks of the region moved by: content with
 *  little texture (the sparse edge of a text line) matches too many places at coarse resolution to be
 *  found alone, but is found when it moved with its neighbours. */
function retryBlock(s: Search, block: Rect, offsets: [number, number][]): BlockResult {
  return matchAt(s, blockLattice(s.src, block), offsets) ?? { state: 'new', block };
}

/** The `count` commonest offsets among the shifted results. */
function commonOffsets(results: BlockResult[], sign: 1 | -1, count: number): Map<string, [number, number]> {
  const tally = new Map<string, { n: number; d: [number, number] }>();
  for (const r of results) {
    if (r?.state !== 'shifted') continue;
    const d: [number, number] = [sign * r.dx, sign * r.dy];
    const key = d.join(',');
    const t = tally.get(key) ?? { n: 0, d };
    t.n++;
    tally.set(key, t);
  }
  const top = [...tally.entries()].sort((p, q) => q[1].n - p[1].n).slice(0, count);
  return new Map(top.map(([k, t]) => [k, t.d]));
}

/** Block results of the region `box` of src looked up in dst, in blocks of `size` pixels a side. */
function trackBlocks(s: Search, box: Rect, size: number): BlockResult[] {
  const [x0, y0, x1, y1] = box;
  const out: BlockResult[] = [];
  const recent: [number, number][] = []; // the last distinct offsets found, newest first
  for (let by = y0; by < y1; by += size) {
    for (let bx = x0; bx < x1; bx += size) {
      const bx1 = Math.min(x1, bx + size),
        by1 = Math.min(y1, by + size);
      if (bx1 - bx < MIN_BLOCK / 2 || by1 - by < MIN_BLOCK / 2) continue;
      const r = findBlock(s, [bx, by, bx1, by1], recent);
      out.push(r);
      if (r?.state !== 'shifted') continue;
      const seen = recent.findIndex(([dx, dy]) => dx === r.dx && dy === r.dy);
      if (seen >= 0) recent.splice(seen, 1);
      recent.unshift([r.dx, r.dy]);
      if (recent.length > RETRY_OFFSETS) recent.pop();
    }
  }
  return out;
}

const signedLog = (v: number) => Math.sign(v) * Math.log1p(Math.abs(v));

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: number[]): number {
  const s = values.slice().sort((p, q) => p - q);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The MOTION_FEATURES of a region (image pixels [x0, y0, x1, y1)) between two images. Per direction
 * (the after image's blocks looked up in before, and the before image's in after): the share of the
 * region's blocks with content, then the shares of those found in place, found moved, and not found.
 * The motions (px, before -> after) of the moved blocks of both directions are summarised as the
 * signed log1p of their median (x, y), the log1p of the median's length and of their mean distance
 * from it, the share moving against the rest along an axis (a swap) and the share within 1 px of the
 * median (one rigid shift); all zero when nothing moved.
 */
export function motionFeatures(before: RgbaImage, after: RgbaImage, box: Box): number[] {
  const width = Math.min(before.width, after.width),
    height = Math.min(before.height, after.height);
  const rx0 = Math.max(0, Math.floor(box[0])),
    ry0 = Math.max(0, Math.floor(box[1]));
  const rx1 = Math.min(width, Math.ceil(box[2])),
    ry1 = Math.min(height, Math.ceil(box[3]));
  if (rx1 - rx0 < MIN_BLOCK / 2 || ry1 - ry0 < MIN_BLOCK / 2) return new Array(MOTION_FEATURES.length).fill(0);
  const longer = Math.max(rx1 - rx0, ry1 - ry0);
  const size = Math.max(MIN_BLOCK, Math.ceil(longer / BLOCKS_PER_SIDE));
  const factor = size >= 32 ? 4 : 2;
  const axisRadius = Math.min(MAX_AXIS_RADIUS, Math.max(DIAGONAL_RADIUS, longer));
  // the window both searches may reach, aligned to the coarse grid
  const wx0 = Math.floor(Math.max(0, rx0 - axisRadius) / SQUARE_FACTOR) * SQUARE_FACTOR;
  const wy0 = Math.floor(Math.max(0, ry0 - axisRadius) / SQUARE_FACTOR) * SQUARE_FACTOR;
  const wx1 = Math.min(width, rx1 + axisRadius),
    wy1 = Math.min(height, ry1 + axisRadius);
  const planeB = lumaPlane(before, wx0, wy0, wx1, wy1),
    planeA = lumaPlane(after, wx0, wy0, wx1, wy1);
  const coarseB = shrink(planeB, factor),
    coarseA = shrink(planeA, factor);
  const squareB = factor === SQUARE_FACTOR ? coarseB : shrink(planeB, SQUARE_FACTOR);
  const squareA = factor === SQUARE_FACTOR ? coarseA : shrink(planeA, SQUARE_FACTOR);
  const region: Rect = [rx0, ry0, rx1, ry1];
  const searchA: Search = {
    src: planeA,
    dst: planeB,
    srcCoarse: coarseA,
    dstCoarse: coarseB,
    factor,
    srcSquare: squareA,
    dstSquare: squareB,
    axisRadius,
  };
  const searchB: Search = {
    src: planeB,
    dst: planeA,
    srcCoarse: coarseB,
    dstCoarse: coarseA,
    factor,
    srcSquare: squareB,
    dstSquare: squareA,
    axisRadius,
  };
  const fromAfter = trackBlocks(searchA, region, size);
  const fromBefore = trackBlocks(searchB, region, size);
  // blocks not found alone, tried at the region's commonest motions (either direction's finds)
  const offsets = new Map([...commonOffsets(fromAfter, 1, RETRY_OFFSETS), ...commonOffsets(fromBefore, -1, RETRY_OFFSETS)]);
  if (offsets.size) {
    const list = [...offsets.values()];
    const back = list.map(([dx, dy]) => [-dx, -dy] as [number, number]);
    fromAfter.forEach((r, i) => {
      if (r?.state === 'new') fromAfter[i] = retryBlock(searchA, r.block, list);
    });
    fromBefore.forEach((r, i) => {
      if (r?.state === 'new') fromBefore[i] = retryBlock(searchB, r.block, back);
    });
  }

  const shares = (results: BlockResult[]) => {
    const content = results.filter((r) => r !== null) as Exclude<BlockResult, null>[];
    const n = Math.max(1, content.length);
    return [
      content.length / Math.max(1, results.length),
      content.filter((r) => r.state === 'same').length / n,
      content.filter((r) => r.state === 'shifted').length / n,
      content.filter((r) => r.state === 'new').length / n,
    ];
  };
  // motion of content from before to after: an after block found at +d in before moved by -d
  const motions: [number, number][] = [];
  for (const r of fromAfter) if (r?.state === 'shifted') motions.push([-r.dx, -r.dy]);
  for (const r of fromBefore) if (r?.state === 'shifted') motions.push([r.dx, r.dy]);
  let summary = [0, 0, 0, 0, 0, 0];
  if (motions.length) {
    const mx = median(motions.map((m) => m[0])),
      my = median(motions.map((m) => m[1]));
    const spread = motions.reduce((s, m) => s + Math.hypot(m[0] - mx, m[1] - my), 0) / motions.length;
    // a swap sends content both ways along an axis, and its median is no direction at all
    const against = (axis: 0 | 1) => Math.min(motions.filter((m) => m[axis] > 0).length, motions.filter((m) => m[axis] < 0).length);
    const opposed = Math.max(against(0), against(1)) / motions.length;
    const common = motions.filter((m) => Math.abs(m[0] - mx) <= 1 && Math.abs(m[1] - my) <= 1).length / motions.length;
    summary = [signedLog(mx), signedLog(my), Math.log1p(Math.hypot(mx, my)), Math.log1p(spread), opposed, common];
  }
  return [...shares(fromAfter), ...shares(fromBefore), ...summary];
}
