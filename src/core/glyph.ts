// Glyph statistics of a changed region, measured at full resolution on the part that changed: how thick
// the strokes are, how tall and wide the ink is, and how the ink is spread over the rows. The 96x96
// crop blurs exactly these, and they are what tells a font change (bolder strokes, taller or wider
// glyphs of the same words, a new row profile) from new words in the same font (same strokes, same row
// profile, another width). Part of the layout context (context.ts); no model, plain arithmetic.
import type { Box } from './report.js';
import type { RgbaImage } from './image.js';
import { differingBox } from './diff.js';

/** Feature names, in order (appended to the layout context; models/CONTRACT.md). */
export const GLYPH_FEATURES = [
  'glyph_stroke_before',
  'glyph_stroke_log_ratio',
  'glyph_height_log_ratio',
  'glyph_width_log_ratio',
  'glyph_ink_log_ratio',
  'glyph_rows_correlation',
] as const;

/** A pixel differs between the two images when some channel differs by more than this (of 255). */
const CHANGED_LEVEL = 5;
/** A pixel is ink when some channel differs from the window's border colour by more than this. */
const INK_LEVEL = 40;
/** The changed pixels' bounding box grows by this many pixels, so that its border is background. */
const MARGIN = 2;
/** Strokes thicker than this (pixels) are blocks, not glyphs: the estimate is capped here. */
const MAX_STROKE = 24;
/** The ink's extent is taken between these quantiles of its mass (a stray pixel does not stretch it). */
const EXTENT_QUANTILE = 0.03;

interface Window {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The bounding box of the pixels that differ inside box (both images), grown by MARGIN; null if none. */
function changedWindow(a: RgbaImage, b: RgbaImage, box: Box): Window | null {
  const changed = differingBox(a, b, box, CHANGED_LEVEL);
  if (!changed) return null;
  const x0 = Math.max(0, Math.floor(box[0])),
    y0 = Math.max(0, Math.floor(box[1]));
  const x1 = Math.min(a.width, b.width, Math.ceil(box[2])),
    y1 = Math.min(a.height, b.height, Math.ceil(box[3]));
  return {
    x0: Math.max(x0, changed[0] - MARGIN),
    y0: Math.max(y0, changed[1] - MARGIN),
    x1: Math.min(x1, changed[2] + MARGIN),
    y1: Math.min(y1, changed[3] + MARGIN),
  };
}

interface Ink {
  count: number;
  edges: number;
  rows: Float64Array;
  cols: Float64Array;
}

/** Ink of one image in the window: pixels unlike the window's border colour. Full resolution (a lattice
 * would alias strokes of one or two pixels; one pass over the window costs no more than the diff's). */
function inkOf(image: RgbaImage, win: Window): Ink {
  const w = win.x1 - win.x0,
    h = win.y1 - win.y0;
  const border: number[][] = [[], [], []];
  const take = (x: number, y: number) => {
    const o = (y * image.width + x) * 4;
    for (let k = 0; k < 3; k++) border[k].push(image.data[o + k]);
  };
  for (let x = win.x0; x < win.x1; x++) {
    take(x, win.y0);
    take(x, win.y1 - 1);
  }
  for (let y = win.y0; y < win.y1; y++) {
    take(win.x0, y);
    take(win.x1 - 1, y);
  }
  const bg = border.map((c) => c.sort((p, q) => p - q)[c.length >> 1]);
  const mask = new Uint8Array(w * h);
  const rows = new Float64Array(h),
    cols = new Float64Array(w);
  let count = 0;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const o = ((win.y0 + j) * image.width + win.x0 + i) * 4;
      const d = Math.max(Math.abs(image.data[o] - bg[0]), Math.abs(image.data[o + 1] - bg[1]), Math.abs(image.data[o + 2] - bg[2]));
      if (d <= INK_LEVEL) continue;
      mask[j * w + i] = 1;
      rows[j]++;
      cols[i]++;
      count++;
    }
  }
  // an edge pixel is ink with a 4-neighbour that is not (outside the window counts as not)
  let edges = 0;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      if (!mask[j * w + i]) continue;
      if (
        i === 0 ||
        j === 0 ||
        i === w - 1 ||
        j === h - 1 ||
        !mask[j * w + i - 1] ||
        !mask[j * w + i + 1] ||
        !mask[(j - 1) * w + i] ||
        !mask[(j + 1) * w + i]
      )
        edges++;
    }
  }
  return { count, edges, rows, cols };
}

/** Stroke thickness in pixels: a stroke of width t and length L has t*L ink and about 2L edge pixels. */
function stroke(ink: Ink): number {
  return ink.count ? Math.min(MAX_STROKE, (2 * ink.count) / Math.max(1, ink.edges)) : 0;
}

/** Length of the span that holds the middle of a profile's mass (EXTENT_QUANTILE cut off at each end). */
function extent(profile: Float64Array): number {
  let total = 0;
  for (const v of profile) total += v;
  if (!total) return 0;
  let acc = 0,
    lo = 0,
    hi = profile.length - 1;
  for (let i = 0; i < profile.length; i++) {
    acc += profile[i];
    if (acc > EXTENT_QUANTILE * total) {
      lo = i;
      break;
    }
  }
  acc = 0;
  for (let i = profile.length - 1; i >= 0; i--) {
    acc += profile[i];
    if (acc > EXTENT_QUANTILE * total) {
      hi = i;
      break;
    }
  }
  return hi - lo + 1;
}

/** Pearson correlation of two profiles; 1 when both are flat and equal, 0 when one alone is flat. */
function correlation(p: Float64Array, q: Float64Array): number {
  const n = p.length;
  let mp = 0,
    mq = 0;
  for (let i = 0; i < n; i++) {
    mp += p[i];
    mq += q[i];
  }
  mp /= n;
  mq /= n;
  let pq = 0,
    pp = 0,
    qq = 0;
  for (let i = 0; i < n; i++) {
    pq += (p[i] - mp) * (q[i] - mq);
    pp += (p[i] - mp) ** 2;
    qq += (q[i] - mq) ** 2;
  }
  if (pp < 1e-9 || qq < 1e-9) return pp < 1e-9 && qq < 1e-9 && Math.abs(mp - mq) < 1e-9 ? 1 : 0;
  return pq / Math.sqrt(pp * qq);
}

const logRatio = (after: number, before: number) => Math.log((after + 1) / (before + 1));

/** GLYPH_FEATURES of the region `box` (image pixels) of a before/after pair. */
export function glyphFeatures(before: RgbaImage, after: RgbaImage, box: Box): number[] {
  const win = changedWindow(before, after, box);
  if (!win) return [0, 0, 0, 0, 0, 1];
  const b = inkOf(before, win),
    a = inkOf(after, win);
  const strokeBefore = stroke(b),
    strokeAfter = stroke(a);
  return [
    strokeBefore,
    logRatio(strokeAfter, strokeBefore),
    logRatio(extent(a.rows), extent(b.rows)),
    logRatio(extent(a.cols), extent(b.cols)),
    logRatio(a.count, b.count),
    correlation(b.rows, a.rows),
  ];
}
