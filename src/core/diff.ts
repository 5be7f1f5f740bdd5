// Pixel diff of two screenshots with pixelmatch (anti-aliasing detection on).
// Besides the real differences we keep the pixels pixelmatch classified as anti-aliasing and the
// pixels that differ by less than its threshold, so that a region made only of such noise can be
// reported as "no visible change" instead of silently disappearing.

import pixelmatch from 'pixelmatch';
import { cropTopLeft, type RgbaImage } from './image.js';

/** Values of DiffResult.mask. */
export const MASK_SAME = 0;
/** A real difference (pixelmatch counts it). */
export const MASK_DIFF = 1;
/** pixelmatch saw a difference but classified it as anti-aliasing. */
export const MASK_AA = 2;
/** the bytes differ but by less than the colour threshold (sub-pixel / rendering noise). */
export const MASK_FAINT = 3;

export interface DiffOptions {
  /** pixelmatch colour threshold (0..1, OKLab HyAB distance); 0.1 is pixelmatch's default. */
  threshold?: number;
}

export interface DiffResult {
  /** the common area compared (top-left aligned). */
  width: number;
  height: number;
  /** one byte per pixel of the common area: MASK_SAME / MASK_DIFF / MASK_AA / MASK_FAINT. */
  mask: Uint8Array;
  diffPixels: number;
  aaPixels: number;
  faintPixels: number;
  before: { width: number; height: number };
  after: { width: number; height: number };
}

// Colours written into pixelmatch's output image to tell the classes apart. The background of
// that output is grey (r = g = b), so neither of these colours can be confused with it.
const DIFF_COLOUR: [number, number, number] = [255, 0, 0];
const AA_COLOUR: [number, number, number] = [0, 0, 255];

/**
 * Compares two images on their common (top-left) area. Images of different sizes are allowed:
 * the size change itself is described by regions.describeSizeChange.
 */
export function diffImages(before: RgbaImage, after: RgbaImage, options: DiffOptions = {}): DiffResult {
  const width = Math.min(before.width, after.width);
  const height = Math.min(before.height, after.height);
  const a = cropTopLeft(before, width, height);
  const b = cropTopLeft(after, width, height);
  const pixelCount = width * height;
  const output = new Uint8Array(pixelCount * 4);
  const diffPixels = pixelmatch(a.data, b.data, output, width, height, {
    threshold: options.threshold ?? 0.1,
    includeAA: false,
    alpha: 0,
    diffColor: DIFF_COLOUR,
    diffColorAlt: DIFF_COLOUR,
    aaColor: AA_COLOUR,
    checkerboard: false,
  });

  const mask = new Uint8Array(pixelCount);
  let aaPixels = 0;
  let faintPixels = 0;
  let countedDiff = 0;
  const a32 = new Uint32Array(a.data.buffer, a.data.byteOffset, pixelCount);
  const b32 = new Uint32Array(b.data.buffer, b.data.byteOffset, pixelCount);
  for (let i = 0, pos = 0; i < pixelCount; i++, pos += 4) {
    if (a32[i] === b32[i]) continue;
    const red = output[pos];
    const green = output[pos + 1];
    const blue = output[pos + 2];
    if (red === 255 && green === 0 && blue === 0) {
      mask[i] = MASK_DIFF;
      countedDiff++;
    } else if (red === 0 && green === 0 && blue === 255) {
      mask[i] = MASK_AA;
      aaPixels++;
    } else {
      mask[i] = MASK_FAINT;
      faintPixels++;
    }
  }
  if (countedDiff !== diffPixels) {
    // Guards the colour-coding trick above against a pixelmatch change in how it draws.
    throw new Error(`internal error: pixelmatch counted ${diffPixels} differing pixels but the mask has ${countedDiff}`);
  }
  return {
    width,
    height,
    mask,
    diffPixels,
    aaPixels,
    faintPixels,
    before: { width: before.width, height: before.height },
    after: { width: after.width, height: after.height },
  };
}
