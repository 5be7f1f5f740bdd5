// Picture measures and baseline frames for the frames evaluation (frames-eval.ts): PSNR and SSIM,
// a cross-fade and a pure warp of the before image, bilinear resizing. Images here are RGB floats
// (0..255), so that frames from any source (PNG, the runtime's 96 px crops scaled up, a baseline)
// are compared the same way.
import type { RgbaImage } from '../core/image.js';
import type { Box } from '../core/report.js';

/** An RGB picture, 3 floats (0..255) per pixel, row-major. */
export interface Rgb {
  width: number;
  height: number;
  data: Float32Array;
}

/** PSNR of identical pictures is infinite; it is reported as this many dB so that means stay finite. */
export const PSNR_CAP_DB = 100;

/** The part `box` of an RGBA image as RGB; the box must lie inside the image. */
export function cropRgb(image: RgbaImage, box: Box): Rgb {
  const [x0, y0, x1, y1] = box;
  if (x0 < 0 || y0 < 0 || x1 > image.width || y1 > image.height || x1 <= x0 || y1 <= y0)
    throw new RangeError(`box [${box.join(', ')}] is not inside the ${image.width}x${image.height} image`);
  const width = x1 - x0;
  const height = y1 - y0;
  const data = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = ((y0 + y) * image.width + (x0 + x)) * 4;
      const d = (y * width + x) * 3;
      data[d] = image.data[s];
      data[d + 1] = image.data[s + 1];
      data[d + 2] = image.data[s + 2];
    }
  }
  return { width, height, data };
}

function sameSize(a: Rgb, b: Rgb): void {
  if (a.width !== b.width || a.height !== b.height)
    throw new RangeError(`pictures differ in size: ${a.width}x${a.height} and ${b.width}x${b.height}`);
}

/** Mean squared error over all pixels and the three channels. */
export function mse(a: Rgb, b: Rgb): number {
  sameSize(a, b);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = a.data[i] - b.data[i];
    sum += d * d;
  }
  return sum / a.data.length;
}

/**
 * PSNR in dB (peak 255) of a sequence of frames against their truth, from the MSE pooled over all
 * frames (one figure per sequence: a frame that happens to be exact cannot make the mean infinite);
 * capped at PSNR_CAP_DB.
 */
export function psnr(frames: Rgb[], truth: Rgb[]): number {
  if (frames.length !== truth.length || !frames.length) throw new RangeError('psnr: needs as many frames as true frames, at least one');
  const m = frames.reduce((s, f, i) => s + mse(f, truth[i]), 0) / frames.length;
  return m <= 0 ? PSNR_CAP_DB : Math.min(PSNR_CAP_DB, 10 * Math.log10((255 * 255) / m));
}

/** ITU-R BT.601 luma of each pixel */
function luma(a: Rgb): Float64Array {
  const out = new Float64Array(a.width * a.height);
  for (let i = 0; i < out.length; i++) out[i] = 0.299 * a.data[3 * i] + 0.587 * a.data[3 * i + 1] + 0.114 * a.data[3 * i + 2];
  return out;
}

/** SSIM window: 11 taps, Gaussian sigma 1.5 (Wang, Bovik, Sheikh, Simoncelli 2004) */
const SSIM_TAPS = 11;
const SSIM_SIGMA = 1.5;
const GAUSS: Float64Array = (() => {
  const g = new Float64Array(SSIM_TAPS);
  const c = (SSIM_TAPS - 1) / 2;
  let sum = 0;
  for (let i = 0; i < SSIM_TAPS; i++) sum += g[i] = Math.exp(-((i - c) ** 2) / (2 * SSIM_SIGMA * SSIM_SIGMA));
  for (let i = 0; i < SSIM_TAPS; i++) g[i] /= sum;
  return g;
})();

/** separable Gaussian filter, "valid" part only: (w-10) x (h-10) */
function blurValid(v: Float64Array, w: number, h: number): Float64Array {
  const ow = w - SSIM_TAPS + 1;
  const oh = h - SSIM_TAPS + 1;
  const rows = new Float64Array(ow * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let k = 0; k < SSIM_TAPS; k++) s += GAUSS[k] * v[y * w + x + k];
      rows[y * ow + x] = s;
    }
  const out = new Float64Array(ow * oh);
  for (let y = 0; y < oh; y++)
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let k = 0; k < SSIM_TAPS; k++) s += GAUSS[k] * rows[(y + k) * ow + x];
      out[y * ow + x] = s;
    }
  return out;
}

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

/**
 * SSIM of two pictures on their luma (BT.601), with the standard constants (K1 0.01, K2 0.03, L 255)
 * and an 11x11 Gaussian window of sigma 1.5, averaged over the window positions that lie wholly
 * inside the picture. A picture under 11 px on a side is one window (uniform weights) over all of it.
 */
export function ssim(a: Rgb, b: Rgb): number {
  sameSize(a, b);
  const x = luma(a);
  const y = luma(b);
  const { width: w, height: h } = a;
  if (w < SSIM_TAPS || h < SSIM_TAPS) {
    const n = x.length;
    let mx = 0,
      my = 0;
    for (let i = 0; i < n; i++) {
      mx += x[i];
      my += y[i];
    }
    mx /= n;
    my /= n;
    let vx = 0,
      vy = 0,
      cxy = 0;
    for (let i = 0; i < n; i++) {
      vx += (x[i] - mx) ** 2;
      vy += (y[i] - my) ** 2;
      cxy += (x[i] - mx) * (y[i] - my);
    }
    [vx, vy, cxy] = [vx / n, vy / n, cxy / n];
    return ((2 * mx * my + C1) * (2 * cxy + C2)) / ((mx * mx + my * my + C1) * (vx + vy + C2));
  }
  const xx = x.map((v) => v * v);
  const yy = y.map((v) => v * v);
  const xy = x.map((v, i) => v * y[i]);
  const [mx, my, sxx, syy, sxy] = [x, y, xx, yy, xy].map((v) => blurValid(v, w, h));
  let sum = 0;
  for (let i = 0; i < mx.length; i++) {
    const vx = sxx[i] - mx[i] * mx[i];
    const vy = syy[i] - my[i] * my[i];
    const cxy = sxy[i] - mx[i] * my[i];
    sum += ((2 * mx[i] * my[i] + C1) * (2 * cxy + C2)) / ((mx[i] * mx[i] + my[i] * my[i] + C1) * (vx + vy + C2));
  }
  return sum / mx.length;
}

/** Mean SSIM over a sequence of frames against their truth. */
export function meanSsim(frames: Rgb[], truth: Rgb[]): number {
  if (frames.length !== truth.length || !frames.length) throw new RangeError('ssim: needs as many frames as true frames, at least one');
  return frames.reduce((s, f, i) => s + ssim(f, truth[i]), 0) / frames.length;
}

/** (1 - t) * before + t * after, pixel by pixel. */
export function crossfade(before: Rgb, after: Rgb, t: number): Rgb {
  sameSize(before, after);
  const data = new Float32Array(before.data.length);
  for (let i = 0; i < data.length; i++) data[i] = (1 - t) * before.data[i] + t * after.data[i];
  return { width: before.width, height: before.height, data };
}

/** Bilinear sample of channel c at (x, y) in pixel-centre coordinates, edges clamped. */
function sample(image: RgbaImage, x: number, y: number, c: number): number {
  const fx = Math.min(Math.max(x, 0), image.width - 1);
  const fy = Math.min(Math.max(y, 0), image.height - 1);
  const x0 = Math.floor(fx),
    y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, image.width - 1),
    y1 = Math.min(y0 + 1, image.height - 1);
  const ax = fx - x0,
    ay = fy - y0;
  const p = (xx: number, yy: number) => image.data[(yy * image.width + xx) * 4 + c];
  return (1 - ay) * ((1 - ax) * p(x0, y0) + ax * p(x1, y0)) + ay * ((1 - ax) * p(x0, y1) + ax * p(x1, y1));
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

/** A box carried from `from` (in the before image) to `to` (in the after image). */
export interface Carried {
  from: Box;
  to: Box;
}

/**
 * A pure warp of the before image at time t, over `box`: the before image, with each carried box's
 * before pixels drawn at the box lerp(from, to, t) (translated, and scaled where the box changes
 * size; bilinear), in the order given. Nothing else changes: what a box leaves keeps its before
 * pixels, and nothing appears or fades.
 */
export function warp(before: RgbaImage, box: Box, carried: Carried[], t: number): Rgb {
  const out = cropRgb(before, box);
  const [bx0, by0] = box;
  for (const { from, to } of carried) {
    const at: Box = [lerp(from[0], to[0], t), lerp(from[1], to[1], t), lerp(from[2], to[2], t), lerp(from[3], to[3], t)];
    const sx = (from[2] - from[0]) / (at[2] - at[0]);
    const sy = (from[3] - from[1]) / (at[3] - at[1]);
    if (!Number.isFinite(sx) || !Number.isFinite(sy) || sx <= 0 || sy <= 0) continue;
    // output pixels whose centres fall in the carried box, inside the scored box
    const xa = Math.max(bx0, Math.ceil(at[0] - 0.5)),
      xb = Math.min(box[2], Math.ceil(at[2] - 0.5));
    const ya = Math.max(by0, Math.ceil(at[1] - 0.5)),
      yb = Math.min(box[3], Math.ceil(at[3] - 0.5));
    for (let y = ya; y < yb; y++) {
      const srcY = from[1] + (y + 0.5 - at[1]) * sy - 0.5;
      for (let x = xa; x < xb; x++) {
        const srcX = from[0] + (x + 0.5 - at[0]) * sx - 0.5;
        const d = ((y - by0) * out.width + (x - bx0)) * 3;
        for (let c = 0; c < 3; c++) out.data[d + c] = sample(before, srcX, srcY, c);
      }
    }
  }
  return out;
}

/** Bilinear resize (pixel centres aligned, edges clamped) of an RGBA picture to width x height, as RGB. */
export function resizeRgba(image: RgbaImage, width: number, height: number): Rgb {
  const data = new Float32Array(width * height * 3);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    const srcY = (y + 0.5) * sy - 0.5;
    for (let x = 0; x < width; x++) {
      const srcX = (x + 0.5) * sx - 0.5;
      const d = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) data[d + c] = sample(image, srcX, srcY, c);
    }
  }
  return { width, height, data };
}

/** The part [x0, y0, x1, y1) of an RGB picture (coordinates in the picture). */
export function subRgb(a: Rgb, x0: number, y0: number, x1: number, y1: number): Rgb {
  if (x0 < 0 || y0 < 0 || x1 > a.width || y1 > a.height || x1 <= x0 || y1 <= y0)
    throw new RangeError(`[${x0}, ${y0}, ${x1}, ${y1}] is not inside the ${a.width}x${a.height} picture`);
  const width = x1 - x0;
  const data = new Float32Array(width * (y1 - y0) * 3);
  for (let y = y0; y < y1; y++) data.set(a.data.subarray((y * a.width + x0) * 3, (y * a.width + x1) * 3), (y - y0) * width * 3);
  return { width, height: y1 - y0, data };
}
