// Colour words for captions ("turned red", "from grey to blue"), and the colour change of a region:
// the most common colour of its changed pixels before and after.
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import { clipTo } from './box.js';

/**
 * The most common colour on a box's border (its background), per channel quantised to 8 levels of 32,
 * over pixels of `channels` bytes each (RGBA images, packed RGB frames); the box is clipped to the
 * picture, and an empty one is white.
 */
export function commonBorderColour(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: number,
  box: Box,
): [number, number, number] {
  const [x0, y0, x1, y1] = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(width, box[2]), Math.min(height, box[3])];
  if (x1 <= x0 || y1 <= y0) return [255, 255, 255];
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  const add = (x: number, y: number) => {
    const i = (y * width + x) * channels;
    const key = ((pixels[i] >> 5) << 6) | ((pixels[i + 1] >> 5) << 3) | (pixels[i + 2] >> 5);
    const e = counts.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    e.n++;
    e.r += pixels[i];
    e.g += pixels[i + 1];
    e.b += pixels[i + 2];
    counts.set(key, e);
  };
  for (let x = x0; x < x1; x++) {
    add(x, y0);
    add(x, y1 - 1);
  }
  for (let y = y0; y < y1; y++) {
    add(x0, y);
    add(x1 - 1, y);
  }
  let best = { n: 0, r: 255, g: 255, b: 255 };
  for (const e of counts.values()) if (e.n > best.n) best = e;
  return best.n ? [best.r / best.n, best.g / best.n, best.b / best.n] : [255, 255, 255];
}

/** A plain English name for an sRGB colour: greys by lightness, others by hue, with light/dark where clear. */
export function colourName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b);
  const lightness = (max + min) / 510;
  const chroma = (max - min) / 255;
  if (chroma < 0.12 || (lightness > 0.94 && chroma < 0.2)) {
    if (lightness > 0.93) return 'white';
    if (lightness > 0.75) return 'light grey';
    if (lightness > 0.45) return 'grey';
    if (lightness > 0.15) return 'dark grey';
    return 'black';
  }
  let hue: number;
  if (max === r) hue = ((g - b) / (max - min) + 6) % 6;
  else if (max === g) hue = (b - r) / (max - min) + 2;
  else hue = (r - g) / (max - min) + 4;
  hue *= 60;
  const base =
    hue < 15 || hue >= 340
      ? 'red'
      : hue < 40
        ? lightness < 0.35
          ? 'brown'
          : 'orange'
        : hue < 65
          ? 'yellow'
          : hue < 160
            ? 'green'
            : hue < 185
              ? 'teal'
              : hue < 200
                ? 'cyan'
                : hue < 255
                  ? 'blue'
                  : hue < 290
                    ? 'purple'
                    : 'pink';
  if (base === 'brown') return base;
  if (lightness > 0.8) return `light ${base}`;
  if (lightness < 0.25) return `dark ${base}`;
  return base;
}

export interface ColourChange {
  before: string;
  after: string;
  /** the most common before and after colours (4 bits a channel, scaled back to 0..255) */
  beforeRgb: [number, number, number];
  afterRgb: [number, number, number];
  /** share of the changed pixels whose before colour maps to one after colour (a recolour is near 1). */
  consistency: number;
  /** share of the pixels that took the new colour lying within 3 px of their bounding box's edge (a border is near 1). */
  onEdge: number;
  /** changed pixels counted. */
  pixels: number;
  /** the exact mean colours of the pixels in beforeRgb's and afterRgb's bins (what a fade test needs) */
  beforeMean: [number, number, number];
  afterMean: [number, number, number];
}

const quantise = (d: Uint8Array, i: number) => ((d[i] >> 4) << 8) | ((d[i + 1] >> 4) << 4) | (d[i + 2] >> 4);

/**
 * The colour change inside `box` (common-area pixels): over the pixels that differ by more than
 * `tolerance`, the most common before and after colours (4 bits a channel), how consistently one
 * before colour becomes one after colour, and how much of the change lies on the edge of its extent.
 */
export function colourChangeOf(before: RgbaImage, after: RgbaImage, box: Box, tolerance = 40): ColourChange | undefined {
  const [x0, y0, x1, y1] = box;
  const beforeCounts = new Map<number, number>(),
    afterCounts = new Map<number, number>();
  const mapping = new Map<number, Map<number, number>>();
  const points: number[] = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const a = (y * before.width + x) * 4,
        b = (y * after.width + x) * 4;
      const d = Math.max(
        Math.abs(before.data[a] - after.data[b]),
        Math.abs(before.data[a + 1] - after.data[b + 1]),
        Math.abs(before.data[a + 2] - after.data[b + 2]),
      );
      if (d <= tolerance) continue;
      const qa = quantise(before.data, a),
        qb = quantise(after.data, b);
      beforeCounts.set(qa, (beforeCounts.get(qa) ?? 0) + 1);
      afterCounts.set(qb, (afterCounts.get(qb) ?? 0) + 1);
      let m = mapping.get(qa);
      if (!m) mapping.set(qa, (m = new Map()));
      m.set(qb, (m.get(qb) ?? 0) + 1);
      points.push(x, y, qb, qa);
    }
  }
  const pixels = points.length / 4;
  if (pixels === 0) return undefined;
  const top = (counts: Map<number, number>) => [...counts.entries()].sort((p, q) => q[1] - p[1])[0][0];
  const rgb = (q: number): [number, number, number] => [((q >> 8) & 15) * 17, ((q >> 4) & 15) * 17, (q & 15) * 17];
  const name = (q: number) => colourName(...rgb(q));
  let consistent = 0;
  for (const m of mapping.values()) consistent += Math.max(...m.values());
  // a border: the pixels that took the new colour lie on the edges of their own extent
  const newColour = top(afterCounts);
  const topBefore = top(beforeCounts);
  let minX = Infinity,
    minY = Infinity,
    maxX = -1,
    maxY = -1,
    recoloured = 0,
    edge = 0;
  // (with the exact mean colours of the two top bins: 17 levels wide, too coarse to tell a fade)
  const beforeSum = [0, 0, 0],
    afterSum = [0, 0, 0];
  for (let i = 0; i < points.length; i += 4) {
    const x = points[i],
      y = points[i + 1];
    if (points[i + 3] === topBefore) for (let c = 0; c < 3; c++) beforeSum[c] += before.data[(y * before.width + x) * 4 + c];
    if (points[i + 2] !== newColour) continue;
    for (let c = 0; c < 3; c++) afterSum[c] += after.data[(y * after.width + x) * 4 + c];
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  for (let i = 0; i < points.length; i += 4) {
    if (points[i + 2] !== newColour) continue;
    recoloured++;
    const x = points[i],
      y = points[i + 1];
    if (x - minX < 3 || maxX - x < 3 || y - minY < 3 || maxY - y < 3) edge++;
  }
  const mean = (sum: number[], n: number) => sum.map((v) => v / n) as [number, number, number];
  return {
    before: name(topBefore),
    after: name(newColour),
    beforeRgb: rgb(topBefore),
    afterRgb: rgb(newColour),
    consistency: consistent / pixels,
    onEdge: recoloured ? edge / recoloured : 0,
    pixels,
    beforeMean: mean(beforeSum, beforeCounts.get(topBefore)!),
    afterMean: mean(afterSum, afterCounts.get(newColour)!),
  };
}

/** RGB distance (levels) past which two colours of one name are two shades, not one redrawn. */
const SHADE_DISTANCE = 40;
/** Luma difference (levels) past which another shade is called lighter or darker. */
const SHADE_LUMA = 16;

/**
 * Whether neither colour is the other drawn partly transparent over `background`: compositing puts
 * the paler one on the straight line from the other to the background, off it only by rounding (5%
 * of the distance and a few levels, on exact mean colours). Undefined where the background is too
 * close to the colours to tell.
 */
export function neitherFaded(
  a: [number, number, number],
  b: [number, number, number],
  background: [number, number, number],
): boolean | undefined {
  const [ab, ba] = [fadeFit(a, b, background), fadeFit(b, a, background)];
  if (!ab || !ba) return undefined;
  const onLine = (f: { t: number; residual: number; length: number }) => f.t >= 0.1 && f.t <= 1.05 && f.residual <= 0.05 * f.length + 6;
  return !onLine(ab) && !onLine(ba);
}

/**
 * The words for the new colour of a recolour that keeps its colour's name (a blue button made a
 * darker blue): "a darker blue", "a lighter grey", "another shade of green". Undefined where the two
 * are one shade, or where one may be the other faded toward the background (the models judge fades).
 */
export function otherShade(
  change: Pick<ColourChange, 'after' | 'beforeMean' | 'afterMean'>,
  background: [number, number, number],
): string | undefined {
  const [p, q] = [change.beforeMean, change.afterMean];
  if (Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) < SHADE_DISTANCE) return undefined;
  if (neitherFaded(p, q, background) !== true) return undefined;
  const luma = (c: [number, number, number]) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
  const d = luma(q) - luma(p);
  const base = change.after.replace(/^(light|dark) /, '');
  return d >= SHADE_LUMA ? `a lighter ${base}` : d <= -SHADE_LUMA ? `a darker ${base}` : `another shade of ${base}`;
}

/**
 * The ink colour of a text line: the mean of the fifth of its pixels furthest from the background
 * (glyph cores, not their anti-aliased edges), named.
 */
export function inkColour(image: RgbaImage, box: Box, background: [number, number, number]): string {
  return colourName(...inkRgb(image, box, background));
}

/** The ink colour of a text line as inkColour measures it, unnamed (the background where nothing is drawn). */
export function inkRgb(image: RgbaImage, box: Box, background: [number, number, number]): [number, number, number] {
  const [x0, y0, x1, y1] = clipTo(image, box);
  const pixels: { d: number; i: number }[] = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * 4;
      const d =
        Math.abs(image.data[i] - background[0]) + Math.abs(image.data[i + 1] - background[1]) + Math.abs(image.data[i + 2] - background[2]);
      if (d > 60) pixels.push({ d, i });
    }
  }
  if (!pixels.length) return background;
  pixels.sort((a, b) => b.d - a.d);
  const top = pixels.slice(0, Math.max(1, Math.ceil(pixels.length / 5)));
  return [0, 1, 2].map((c) => top.reduce((s, p) => s + image.data[p.i + c], 0) / top.length) as [number, number, number];
}

/**
 * True when `after` is `before` taken part of the way towards `background` (what lowering the
 * opacity of something drawn on that background does): on the line from before to the background,
 * 15-100% of the way, and close to it.
 */
export function isFade(before: [number, number, number], after: [number, number, number], background: [number, number, number]): boolean {
  const fit = fadeFit(before, after, background);
  return !!fit && fit.t >= 0.15 && fit.t <= 1.05 && fit.residual <= 0.15 * fit.length + 12;
}

/**
 * isFade for the ink of text, measured exactly (the mean of its glyphs' cores, not 4-bit bins): a new
 * opacity composites the ink with the background, which puts the new ink on the straight line to the
 * background (within 5% of the distance: anti-aliasing), and some of it still drawn. A new hue that
 * happens to be darker on a dark page, or paler on a light one, lies off that line.
 */
export function isInkFade(
  before: [number, number, number],
  after: [number, number, number],
  background: [number, number, number],
): boolean {
  const fit = fadeFit(before, after, background);
  return !!fit && fit.t >= 0.15 && fit.t <= 0.95 && fit.residual <= 0.05 * fit.length;
}

/** How far along the line from `before` to `background` `after` lies (t), and how far off it (px of RGB). */
function fadeFit(
  before: [number, number, number],
  after: [number, number, number],
  background: [number, number, number],
): { t: number; residual: number; length: number } | undefined {
  const v = background.map((b, i) => b - before[i]);
  const len2 = v.reduce((s, x) => s + x * x, 0);
  if (len2 < 30 * 30) return undefined;
  const t = v.reduce((s, x, i) => s + x * (after[i] - before[i]), 0) / len2;
  const residual = Math.sqrt(after.reduce((s, a, i) => s + (a - (before[i] + t * v[i])) ** 2, 0));
  return { t, residual, length: Math.sqrt(len2) };
}
