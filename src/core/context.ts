// Layout context of a model sample: numbers about the region at full resolution and about the other
// changed regions of the pair, which the 96x96 crop loses (its size and place on the screen, how its
// content's extent and position changed, what else changed above or beside it, whether the change is
// a fade, where blocks of its content went: motion.ts, and how thick, tall and wide its changed glyphs
// are: glyph.ts). The kind prior model
// (models/kind_prior.onnx, training/context.py) turns them into change-kind log-probabilities that
// are fused with the procedure encoder's kind head. One implementation: the runtime and the
// `npm run context` CLI (which writes the training features) both call sampleContext.
import type { Box } from './report.js';
import type { RgbaImage } from './image.js';
import { CROP_SIZE } from './crop.js';
import { GLYPH_FEATURES, glyphFeatures } from './glyph.js';
import { MOTION_FEATURES, median, motionFeatures } from './motion.js';

/** Feature names, in order (models/CONTRACT.md, "Kind prior"). */
export const CONTEXT_FEATURES = [
  'width',
  'height',
  'left',
  'top',
  'right',
  'bottom',
  'log_aspect',
  'crop_scale',
  'pair_samples',
  'other_above',
  'other_below',
  'other_beside',
  'changed_fraction',
  'before_fg_cx',
  'before_fg_cy',
  'before_fg_w',
  'before_fg_h',
  'before_fg_fraction',
  'after_fg_cx',
  'after_fg_cy',
  'after_fg_w',
  'after_fg_h',
  'after_fg_fraction',
  'delta_fg_cx',
  'delta_fg_cy',
  'delta_fg_w',
  'delta_fg_h',
  'delta_fg_fraction',
  'mean_colour_change',
  'mean_abs_difference',
  'luma_change',
  'fade_alpha',
  'fade_residual',
  'unfade_alpha',
  'unfade_residual',
  ...MOTION_FEATURES,
  ...GLYPH_FEATURES,
] as const;
export const CONTEXT_SIZE = CONTEXT_FEATURES.length;

/** A pixel differs between the two images when some channel differs by more than this (of 255). */
const CHANGED_LEVEL = 5;
/** A pixel is foreground when some channel differs from the box's border colour by more than this. */
const FOREGROUND_LEVEL = 20;

interface Clipped {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function clip(box: Box, image: RgbaImage): Clipped | null {
  const x0 = Math.max(0, Math.min(image.width, Math.floor(box[0])));
  const y0 = Math.max(0, Math.min(image.height, Math.floor(box[1])));
  const x1 = Math.max(0, Math.min(image.width, Math.ceil(box[2])));
  const y1 = Math.max(0, Math.min(image.height, Math.ceil(box[3])));
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : null;
}

/** The box's border colour (per-channel median of its edge pixels): the background its content sits on. */
function borderColour(image: RgbaImage, c: Clipped): [number, number, number] {
  const channels: number[][] = [[], [], []];
  const take = (x: number, y: number) => {
    const o = (y * image.width + x) * 4;
    for (let k = 0; k < 3; k++) channels[k].push(image.data[o + k]);
  };
  for (let x = c.x0; x < c.x1; x++) {
    take(x, c.y0);
    take(x, c.y1 - 1);
  }
  for (let y = c.y0; y < c.y1; y++) {
    take(c.x0, y);
    take(c.x1 - 1, y);
  }
  return [median(channels[0]), median(channels[1]), median(channels[2])];
}

/** Where the content (pixels unlike the border colour) sits in the box: centre, extent, share. */
function foreground(image: RgbaImage, box: Box): [number, number, number, number, number] {
  const c = clip(box, image);
  if (!c) return [0.5, 0.5, 0, 0, 0];
  const bg = borderColour(image, c);
  let n = 0,
    sx = 0,
    sy = 0,
    minX = Infinity,
    maxX = -1,
    minY = Infinity,
    maxY = -1;
  for (let y = c.y0; y < c.y1; y++) {
    for (let x = c.x0; x < c.x1; x++) {
      const o = (y * image.width + x) * 4;
      const d = Math.max(Math.abs(image.data[o] - bg[0]), Math.abs(image.data[o + 1] - bg[1]), Math.abs(image.data[o + 2] - bg[2]));
      if (d <= FOREGROUND_LEVEL) continue;
      n++;
      sx += x - c.x0 + 0.5;
      sy += y - c.y0 + 0.5;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const w = c.x1 - c.x0,
    h = c.y1 - c.y0;
  if (!n) return [0.5, 0.5, 0, 0, 0];
  return [sx / n / w, sy / n / h, (maxX - minX + 1) / w, (maxY - minY + 1) / h, n / (w * h)];
}

/** The part of the box inside both images (they can differ in size); null when there is none. */
function commonPart(a: RgbaImage, b: RgbaImage, box: Box): Clipped | null {
  const ca = clip(box, a),
    cb = clip(box, b);
  if (!ca || !cb) return null;
  const x0 = Math.max(ca.x0, cb.x0),
    y0 = Math.max(ca.y0, cb.y0);
  const x1 = Math.min(ca.x1, cb.x1),
    y1 = Math.min(ca.y1, cb.y1);
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : null;
}

/** Pixel comparison of the box in both images: changed share, mean colour change, mean |difference|, luma change. */
function comparison(a: RgbaImage, b: RgbaImage, box: Box): [number, number, number, number] {
  const common = commonPart(a, b, box);
  if (!common) return [1, 0, 0, 0];
  const { x0, y0, x1, y1 } = common;
  let changed = 0,
    absSum = 0;
  const meanA = [0, 0, 0],
    meanB = [0, 0, 0];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const oa = (y * a.width + x) * 4,
        ob = (y * b.width + x) * 4;
      let most = 0;
      for (let k = 0; k < 3; k++) {
        const d = Math.abs(a.data[oa + k] - b.data[ob + k]);
        absSum += d;
        if (d > most) most = d;
        meanA[k] += a.data[oa + k];
        meanB[k] += b.data[ob + k];
      }
      if (most > CHANGED_LEVEL) changed++;
    }
  }
  const n = (x1 - x0) * (y1 - y0);
  for (let k = 0; k < 3; k++) {
    meanA[k] /= n * 255;
    meanB[k] /= n * 255;
  }
  const colourChange = Math.abs(meanA[0] - meanB[0]) + Math.abs(meanA[1] - meanB[1]) + Math.abs(meanA[2] - meanB[2]);
  const luma = (m: number[]) => 0.299 * m[0] + 0.587 * m[1] + 0.114 * m[2];
  return [changed / n, colourChange, absSum / (n * 3 * 255), luma(meanB) - luma(meanA)];
}

/**
 * How well the box's changed pixels are one image blended toward the background: after = bg +
 * alpha * (before - bg) (an opacity change; 0 when the content vanished), fitted by least squares over
 * the pixels that differ, and the residual's share of their |difference|; and the same fit with the
 * images swapped (content fading in). bg is the before image's border colour of the box.
 */
function fade(a: RgbaImage, b: RgbaImage, box: Box): [number, number, number, number] {
  const common = commonPart(a, b, box);
  if (!common) return [1, 1, 1, 1];
  const { x0, y0, x1, y1 } = common;
  const bg = borderColour(a, common);
  // a lattice of at most ~40,000 pixels keeps whole-screen regions cheap
  const step = Math.max(1, Math.floor(Math.sqrt(((x1 - x0) * (y1 - y0)) / 40000)));
  let ab = 0,
    bb = 0,
    aa = 0;
  const pixels: number[] = [];
  for (let y = y0; y < y1; y += step) {
    for (let x = x0; x < x1; x += step) {
      const oa = (y * a.width + x) * 4,
        ob = (y * b.width + x) * 4;
      let most = 0;
      for (let k = 0; k < 3; k++) most = Math.max(most, Math.abs(a.data[oa + k] - b.data[ob + k]));
      if (most <= CHANGED_LEVEL) continue;
      for (let k = 0; k < 3; k++) {
        const p = a.data[oa + k] - bg[k],
          q = b.data[ob + k] - bg[k];
        ab += p * q;
        aa += p * p;
        bb += q * q;
        pixels.push(p, q);
      }
    }
  }
  if (!pixels.length) return [1, 1, 1, 1];
  // fit q = alpha * p (after from before) and p = alpha' * q (before from after)
  const fit = (num: number, den: number, from: number) => {
    if (den < 1) return [1, 1];
    const alpha = num / den;
    let residual = 0,
      total = 0;
    for (let i = 0; i < pixels.length; i += 2) {
      const src = pixels[i + from],
        dst = pixels[i + 1 - from];
      residual += Math.abs(dst - alpha * src);
      total += Math.abs(dst - src);
    }
    return [Math.max(0, Math.min(3, alpha)), total ? Math.min(3, residual / total) : 1];
  };
  return [...fit(ab, aa, 0), ...fit(ab, bb, 1)] as [number, number, number, number];
}

/**
 * The layout-context features (CONTEXT_FEATURES) of sample `index` of a pair whose model samples have
 * the boxes `boxes` (in image pixels, [x0, y0, x1, y1) ) and crop boxes `cropBoxes`; width x height
 * is the compared area (the larger of the two images).
 */
export function sampleContext(
  before: RgbaImage,
  after: RgbaImage,
  boxes: Box[],
  cropBoxes: Box[],
  index: number,
  width: number,
  height: number,
): Float32Array {
  const box = boxes[index];
  const [x0, y0, x1, y1] = box;
  const w = x1 - x0,
    h = y1 - y0;
  const others = boxes.filter((_, i) => i !== index);
  const above = others.some((o) => o[3] <= y0);
  const below = others.some((o) => o[1] >= y1);
  const beside = others.some((o) => o[1] < y1 && o[3] > y0 && (o[2] <= x0 || o[0] >= x1));
  const crop = cropBoxes[index];
  const fb = foreground(before, box);
  const fa = foreground(after, box);
  const [changed, colourChange, meanAbs, luma] = comparison(before, after, box);
  const out = new Float32Array(CONTEXT_SIZE);
  out.set([
    w / width,
    h / height,
    x0 / width,
    y0 / height,
    x1 / width,
    y1 / height,
    Math.log((w + 1) / (h + 1)),
    (crop[2] - crop[0]) / CROP_SIZE,
    boxes.length,
    above ? 1 : 0,
    below ? 1 : 0,
    beside ? 1 : 0,
    changed,
    ...fb,
    ...fa,
    ...fa.map((v, k) => v - fb[k]),
    colourChange,
    meanAbs,
    luma,
    ...fade(before, after, box),
    ...motionFeatures(before, after, box),
    ...glyphFeatures(before, after, box),
  ]);
  return out;
}
