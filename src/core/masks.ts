// Ignore regions and difference thresholds: what a project declares is not a change.
// Masks are applied to the pixel diff before regions are found, so a clock that ticks inside a
// masked box never becomes a region; thresholds turn a pair whose remaining real differences are
// too few into "no visible change", with the reason said in the report.
import { MASK_AA, MASK_DIFF, MASK_FAINT, MASK_SAME, type DiffResult } from './diff.js';
import type { Box } from './report.js';

/** Whether `box` is four integers with x0 < x1 and y0 < y1, all 0 or more. */
export function isValidBox(box: unknown): box is Box {
  return (
    Array.isArray(box) &&
    box.length === 4 &&
    box.every((v) => Number.isSafeInteger(v) && v >= 0) &&
    (box[0] as number) < (box[2] as number) &&
    (box[1] as number) < (box[3] as number)
  );
}

/**
 * Clears the diff's pixels inside the boxes (clipped to the compared area): they count as the same.
 * Returns the boxes as clipped, in the order given, leaving out those wholly outside the area, and
 * updates the diff's pixel counts. Throws RangeError on a box that is not [x0, y0, x1, y1) in order.
 */
export function applyMasks(diff: DiffResult, masks: readonly Box[]): Box[] {
  const applied: Box[] = [];
  for (const box of masks) {
    if (!isValidBox(box))
      throw new RangeError(`a mask must be [x0, y0, x1, y1] with integers 0 <= x0 < x1 and 0 <= y0 < y1 (got ${JSON.stringify(box)})`);
    const x0 = Math.min(box[0], diff.width);
    const y0 = Math.min(box[1], diff.height);
    const x1 = Math.min(box[2], diff.width);
    const y1 = Math.min(box[3], diff.height);
    if (x0 >= x1 || y0 >= y1) continue;
    applied.push([x0, y0, x1, y1]);
    for (let y = y0; y < y1; y++) {
      for (let i = y * diff.width + x0, end = y * diff.width + x1; i < end; i++) {
        const m = diff.mask[i];
        if (m === MASK_SAME) continue;
        if (m === MASK_DIFF) diff.diffPixels--;
        else if (m === MASK_AA) diff.aaPixels--;
        else if (m === MASK_FAINT) diff.faintPixels--;
        diff.mask[i] = MASK_SAME;
      }
    }
  }
  return applied;
}

export interface DiffThresholds {
  /** fewer real differing pixels than this is not a change. */
  minDiffPixels?: number;
  /** a share of the compared area (0..1) below which the differing pixels are not a change. */
  minDiffRatio?: number;
}

export interface BelowThreshold {
  /** real differing pixels left after masking (pixelmatch, anti-aliasing excluded). */
  diffPixels: number;
  /** diffPixels over the compared area. */
  ratio: number;
  /** e.g. "12 differing pixels (0.0100% of the image) are fewer than the 50 pixels of minDiffPixels". */
  reason: string;
}

/** Throws RangeError unless minDiffPixels is an integer >= 0 and minDiffRatio a number in [0, 1]. */
export function checkThresholds(t: DiffThresholds): void {
  if (t.minDiffPixels !== undefined && !(Number.isSafeInteger(t.minDiffPixels) && t.minDiffPixels >= 0))
    throw new RangeError(`minDiffPixels must be an integer of 0 or more (got ${String(t.minDiffPixels)})`);
  if (t.minDiffRatio !== undefined && !(typeof t.minDiffRatio === 'number' && t.minDiffRatio >= 0 && t.minDiffRatio <= 1))
    throw new RangeError(`minDiffRatio must be a number from 0 to 1 (got ${String(t.minDiffRatio)})`);
}

function percent(ratio: number): string {
  return `${(ratio * 100).toPrecision(2).replace(/\.?0+$/, '')}%`;
}

/**
 * Why a pair with `diffPixels` real differences over `area` pixels is not a change under the
 * thresholds, or undefined when it is one (or there is no difference at all: nothing to explain).
 */
export function belowThreshold(diffPixels: number, area: number, t: DiffThresholds): BelowThreshold | undefined {
  if (diffPixels === 0) return undefined;
  const ratio = area > 0 ? diffPixels / area : 0;
  const what = `${diffPixels} differing pixel${diffPixels === 1 ? '' : 's'} (${percent(ratio)} of the image)`;
  if (t.minDiffPixels !== undefined && diffPixels < t.minDiffPixels)
    return { diffPixels, ratio, reason: `${what}: fewer than minDiffPixels ${t.minDiffPixels}` };
  if (t.minDiffRatio !== undefined && ratio < t.minDiffRatio)
    return { diffPixels, ratio, reason: `${what}: less than minDiffRatio ${t.minDiffRatio} (${percent(t.minDiffRatio)})` };
  return undefined;
}
