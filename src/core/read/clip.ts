// A label cut off by its element: the element got smaller than its text (overflow hidden, or the
// text spilling onto a background it does not show on), so the letters left are the same pixels as
// before and the rest is gone past one straight edge that runs through letters. The text reader
// reads the part left as other words ('Log out' -> 'Loaout') or the same words drawn narrower; the
// change is the element's size.
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import { borderColour } from './ocr.js';
import { lineShift } from './correspond.js';

export type ClipSide = 'left' | 'right' | 'both sides' | 'top' | 'bottom' | 'top and bottom';

/** A pixel is the label's ink when a channel is this far (levels) from the colour around the label. */
const INK_LEVELS = 64;
/** A pixel changed when a channel moved by more than this (rendering noise stays below). */
const CHANGED_LEVELS = 40;
/** Least share of the label's ink kept, unchanged, on the near side of the edge. */
const KEPT_INK = 0.3;
/** Least share of the label's ink past the edge. */
const PAST_INK = 0.1;
/** Least share of what was behind the letters past the edge that changed: the element's own fill
 * gave way there (to the page, or to what the letters now spill onto), not only letters. */
const GROUND_CHANGED = 0.5;
/** Most pixels of the part left that may differ (a letter's edge drawn a little differently). */
const NEAR_SIDE_CHANGES = 0.05;
/** Least share of the ground (not the letters) of a column (row) of a part cut off that changed. */
const OUTER_CHANGED = 0.5;

/**
 * The side at which the label whose line box is `beforeBox` (before) and `afterBox` (after) was cut
 * off, or undefined. Its pixels, aligned by the shift of what is left, stayed (within a pixel, but
 * for 5% of them) between one or two straight edges (columns or rows), past which at least half of
 * what was behind the letters changed and at least 10% of its ink lay; the part left holds at least
 * 30% of the ink, and each edge runs through letters (ink on both sides of it on one line across
 * it) - a word gap there is a shorter label, not a cut one.
 */
export function clippedSide(before: RgbaImage, after: RgbaImage, beforeBox: Box, afterBox: Box): ClipSide | undefined {
  const { dx, dy } = lineShift(before, after, beforeBox, afterBox);
  const [x0, y0] = [Math.max(0, beforeBox[0]), Math.max(0, beforeBox[1])];
  const [x1, y1] = [Math.min(before.width, beforeBox[2]), Math.min(before.height, beforeBox[3])];
  const w = x1 - x0,
    h = y1 - y0;
  if (w < 4 || h < 4) return undefined;
  const ground = borderColour(before, [x0, y0, x1, y1]);
  const ink = new Uint8Array(w * h),
    changed = new Uint8Array(w * h);
  let inkTotal = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const b = ((y0 + y) * before.width + x0 + x) * 4;
      const isInk =
        Math.max(Math.abs(before.data[b] - ground[0]), Math.abs(before.data[b + 1] - ground[1]), Math.abs(before.data[b + 2] - ground[2])) >
        INK_LEVELS;
      ink[y * w + x] = isInk ? 1 : 0;
      inkTotal += isInk ? 1 : 0;
      const ax = x0 + x + dx,
        ay = y0 + y + dy;
      if (ax < 0 || ay < 0 || ax >= after.width || ay >= after.height) {
        changed[y * w + x] = 1;
        continue;
      }
      // (the same pixel within a pixel of its place: text drawn again a fraction of a pixel over
      // differs along its letters' edges)
      let same = false;
      for (let oy = -1; oy <= 1 && !same; oy++) {
        for (let ox = -1; ox <= 1 && !same; ox++) {
          const [sx, sy] = [ax + ox, ay + oy];
          if (sx < 0 || sy < 0 || sx >= after.width || sy >= after.height) continue;
          const a = (sy * after.width + sx) * 4;
          same =
            Math.max(
              Math.abs(after.data[a] - before.data[b]),
              Math.abs(after.data[a + 1] - before.data[b + 1]),
              Math.abs(after.data[a + 2] - before.data[b + 2]),
            ) <= CHANGED_LEVELS;
        }
      }
      changed[y * w + x] = same ? 0 : 1;
    }
  }
  if (inkTotal < 20) return undefined;
  for (const across of [true, false]) {
    const length = across ? w : h; // positions along the cut's normal: columns, or rows
    const span = across ? h : w; // pixels along one edge
    const at = (pos: number, k: number) => (across ? k * w + pos : pos * w + k);
    const changedAt = Array.from({ length }, (_, pos) => {
      let n = 0;
      for (let k = 0; k < span; k++) n += changed[at(pos, k)];
      return n;
    });
    // a position of a part cut off: what was behind the letters there gave way (letters spilling onto
    // a page of their own colour look the same, so the ground tells)
    const cutOff = (pos: number) => {
      let ground = 0,
        gone = 0;
      for (let k = 0; k < span; k++) {
        const p = at(pos, k);
        if (ink[p]) continue;
        ground++;
        gone += changed[p];
      }
      return ground ? gone >= OUTER_CHANGED * ground : changedAt[pos] >= OUTER_CHANGED * span;
    };
    // the parts cut off are the runs of such positions at either end; the part left between them
    // must have stayed, but for a few pixels
    let from = 0,
      to = length;
    while (from < length && cutOff(from)) from++;
    while (to > from && cutOff(to - 1)) to--;
    if (to - from < 2 || (from === 0 && to === length)) continue;
    let keptChanged = 0;
    for (let pos = from; pos < to; pos++) keptChanged += changedAt[pos];
    if (keptChanged > NEAR_SIDE_CHANGES * span * (to - from)) continue;
    let kept = 0,
      past = 0,
      ground = 0,
      groundChanged = 0;
    for (let pos = 0; pos < length; pos++) {
      const inside = pos >= from && pos < to;
      for (let k = 0; k < span; k++) {
        const p = at(pos, k);
        if (ink[p] && inside) kept += changed[p] ? 0 : 1;
        else if (ink[p]) past++;
        else if (!inside) {
          ground++;
          groundChanged += changed[p];
        }
      }
    }
    if (kept < KEPT_INK * inkTotal || past < PAST_INK * inkTotal || groundChanged < GROUND_CHANGED * ground) continue;
    // each edge runs through letters: ink on both sides of it on one line across it
    const through = (inner: number, outer: number) => {
      for (let k = 0; k < span; k++) if (ink[at(inner, k)] && ink[at(outer, k)]) return true;
      return false;
    };
    const cutBefore = from > 0 && through(from, from - 1);
    const cutAfter = to < length && through(to - 1, to);
    if ((from > 0 && !cutBefore) || (to < length && !cutAfter)) continue;
    if (cutBefore && cutAfter) return across ? 'both sides' : 'top and bottom';
    return across ? (cutBefore ? 'left' : 'right') : cutBefore ? 'top' : 'bottom';
  }
  return undefined;
}
