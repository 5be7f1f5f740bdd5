// Pixel diff of two screenshots with pixelmatch (anti-aliasing detection on).
// Besides the real differences we keep the pixels pixelmatch classified as anti-aliasing and the
// pixels that differ by less than its threshold, so that a region made only of such noise can be
// reported as "no visible change" instead of silently disappearing.

import pixelmatch from 'pixelmatch';
import { DIFF_BAND_ROWS, type RgbaImage } from './image.js';
import type { Box } from './report.js';

/** Values of DiffResult.mask. */
export const MASK_SAME = 0;
/** A real difference (pixelmatch counts it). */
export const MASK_DIFF = 1;
/** pixelmatch saw a difference but classified it as anti-aliasing. */
export const MASK_AA = 2;
/** the bytes differ but by less than the colour threshold (sub-pixel / rendering noise). */
export const MASK_FAINT = 3;

/** pixelmatch's own default colour threshold, the runtime's too. */
export const DEFAULT_DIFF_THRESHOLD = 0.1;

export interface DiffOptions {
  /** pixelmatch colour threshold (0..1, OKLab HyAB distance); 0.1 is pixelmatch's default. */
  threshold?: number;
  /** rows compared at a time (default DIFF_BAND_ROWS); any value gives the same result. */
  bandRows?: number;
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

// pixelmatch decides whether a pixel is anti-aliasing from its neighbours and theirs: two rows
// either side. A band is compared with that many more rows above and below it, so every pixel of
// the band is classified exactly as a comparison of the whole images would.
const BAND_MARGIN = 2;

/** Rows [from, to) of the first `width` columns of an image: a view when the widths agree, else a copy. */
function rowsOf(image: RgbaImage, width: number, from: number, to: number, scratch: Uint8Array): Uint8Array {
  if (image.width === width) return image.data.subarray(from * width * 4, to * width * 4);
  const rowBytes = width * 4;
  for (let y = from; y < to; y++) {
    const at = y * image.width * 4;
    scratch.set(image.data.subarray(at, at + rowBytes), (y - from) * rowBytes);
  }
  return scratch.subarray(0, (to - from) * rowBytes);
}

/** Runs of rows closer than this are compared together (fewer, larger pixelmatch calls). */
const RUN_GAP = 8;

/**
 * The runs of rows [y0, y1) of the common area that hold a changed pixel, each at most `bandRows`
 * long: one pass of 32-bit compares that stops in a row at its first change. An identical pixel is
 * always MASK_SAME, so only these rows need pixelmatch; a page with one change costs one pass over
 * its pixels, not pixelmatch over all of them. The pixel data must be 4-byte aligned.
 */
function changedRowRuns(before: RgbaImage, after: RgbaImage, width: number, height: number, bandRows: number): [number, number][] {
  const a32 = new Uint32Array(before.data.buffer, before.data.byteOffset, before.width * before.height);
  const b32 = new Uint32Array(after.data.buffer, after.data.byteOffset, after.width * after.height);
  const runs: [number, number][] = [];
  for (let y = 0; y < height; y++) {
    let i = y * before.width;
    let j = y * after.width;
    const end = i + width;
    while (i < end && a32[i] === b32[j]) {
      i++;
      j++;
    }
    if (i === end) continue;
    const last = runs[runs.length - 1];
    if (last && y - last[1] <= RUN_GAP && y + 1 - last[0] <= bandRows) last[1] = y + 1;
    else runs.push([y, y + 1]);
  }
  return runs;
}

/**
 * Compares two images on their common (top-left) area. Images of different sizes are allowed:
 * the size change itself is described by regions.describeSizeChange. Only the rows that hold a
 * changed pixel go through pixelmatch, in bands of at most `bandRows` rows (with the two rows either
 * side its anti-aliasing test reads), so besides the mask only a band's worth of memory is used.
 */
export function diffImages(beforeImage: RgbaImage, afterImage: RgbaImage, options: DiffOptions = {}): DiffResult {
  // the pixels are read as 32-bit words: a caller's unaligned view is copied first
  const aligned = (image: RgbaImage): RgbaImage => (image.data.byteOffset % 4 === 0 ? image : { ...image, data: image.data.slice() });
  const before = aligned(beforeImage);
  const after = aligned(afterImage);
  const width = Math.min(before.width, after.width);
  const height = Math.min(before.height, after.height);
  const bandRows = Math.max(1, Math.floor(options.bandRows ?? DIFF_BAND_ROWS));
  const mask = new Uint8Array(width * height);
  const bandBytes = Math.min(height, bandRows + 2 * BAND_MARGIN) * width * 4;
  const output = new Uint8Array(bandBytes);
  const scratchBefore = before.width === width ? output.subarray(0, 0) : new Uint8Array(bandBytes);
  const scratchAfter = after.width === width ? output.subarray(0, 0) : new Uint8Array(bandBytes);
  let diffPixels = 0;
  let aaPixels = 0;
  let faintPixels = 0;
  for (const [y0, y1] of changedRowRuns(before, after, width, height, bandRows)) {
    const from = Math.max(0, y0 - BAND_MARGIN);
    const to = Math.min(height, y1 + BAND_MARGIN);
    const rows = to - from;
    const a = rowsOf(before, width, from, to, scratchBefore);
    const b = rowsOf(after, width, from, to, scratchAfter);
    const out = output.subarray(0, rows * width * 4);
    const bandDiff = pixelmatch(a, b, out, width, rows, {
      threshold: options.threshold ?? DEFAULT_DIFF_THRESHOLD,
      includeAA: false,
      alpha: 0,
      diffColor: DIFF_COLOUR,
      diffColorAlt: DIFF_COLOUR,
      aaColor: AA_COLOUR,
      checkerboard: false,
    });
    const a32 = new Uint32Array(a.buffer, a.byteOffset, rows * width);
    const b32 = new Uint32Array(b.buffer, b.byteOffset, rows * width);
    let bandCounted = 0;
    for (let j = 0, pos = 0; j < rows * width; j++, pos += 4) {
      if (a32[j] === b32[j]) continue;
      const red = out[pos];
      const green = out[pos + 1];
      const blue = out[pos + 2];
      const isDiff = red === 255 && green === 0 && blue === 0;
      if (isDiff) bandCounted++;
      const y = from + ((j / width) | 0);
      if (y < y0 || y >= y1) continue; // a margin row: classified in its own band
      const i = y * width + (j % width);
      if (isDiff) {
        mask[i] = MASK_DIFF;
        diffPixels++;
      } else if (red === 0 && green === 0 && blue === 255) {
        mask[i] = MASK_AA;
        aaPixels++;
      } else {
        mask[i] = MASK_FAINT;
        faintPixels++;
      }
    }
    if (bandCounted !== bandDiff) {
      // Guards the colour-coding trick above against a pixelmatch change in how it draws.
      throw new Error(`internal error: pixelmatch counted ${bandDiff} differing pixels but the mask has ${bandCounted}`);
    }
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

/**
 * The bounding box of the pixels inside `box` where a colour channel of the two images differs by
 * more than `level`, or null when none does. The images may differ in size: the box is cut to both.
 */
export function differingBox(a: RgbaImage, b: RgbaImage, box: Box, level: number): Box | null {
  const x0 = Math.max(0, Math.floor(box[0])),
    y0 = Math.max(0, Math.floor(box[1]));
  const x1 = Math.min(a.width, b.width, Math.ceil(box[2])),
    y1 = Math.min(a.height, b.height, Math.ceil(box[3]));
  let minX = Infinity,
    minY = Infinity,
    maxX = -1,
    maxY = -1;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const oa = (y * a.width + x) * 4,
        ob = (y * b.width + x) * 4;
      if (
        Math.abs(a.data[oa] - b.data[ob]) <= level &&
        Math.abs(a.data[oa + 1] - b.data[ob + 1]) <= level &&
        Math.abs(a.data[oa + 2] - b.data[ob + 2]) <= level
      )
        continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  return maxX < 0 ? null : [minX, minY, maxX + 1, maxY + 1];
}
