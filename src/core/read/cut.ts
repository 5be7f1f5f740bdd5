// An element that a region's top edge cuts: its top and sides lie above the region, unchanged, and its
// bottom edge lies inside it, moved. A field or button given a new height keeps its top and moves its
// bottom, and what follows it moves with that bottom; the changed pixels start at the old or new
// bottom, so the region holds only the element's lower edge and what it pushed. Read from the pixels
// alone: the two side edges, straight down from above the region, ending at the element's bottom.
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import { differingAfterShift } from '../jitter.js';
import { APART, apart, pixel } from './element.js';

/** Rows above the region over which the side edges must run straight (text's strokes do not). */
const ABOVE = 5;
/** How far above the region (px) the side edges are looked for and followed from. */
const START_ABOVE = 6;
/** Narrowest element looked for (px): a small icon's edges are not a box's. */
const MIN_WIDTH = 16;
/** Smallest move of the bottom edge (px) that is a new height, not a re-rendered corner. */
const MIN_HEIGHT_CHANGE = 3;

export interface CutElement {
  /** the element's box on each side (its top found above the region, its bottom inside it) */
  before: Box;
  after: Box;
}

/** Whether a side edge of the element is drawn at column `x` on row `y`: the element's pixel there
 * differs from the page's just outside it (`out` steps away). */
function edgeAt(img: RgbaImage, x: number, y: number, out: number): boolean {
  const xo = x + out;
  if (xo < 0 || xo >= img.width || y < 0 || y >= img.height) return false;
  return apart(pixel(img, x, y), pixel(img, xo, y));
}

/** The last row, walking from `y` by `dy` (at most `limit` rows), on which both side edges are drawn. */
function edgesEnd(img: RgbaImage, left: number, right: number, y: number, dy: number, limit: number): number | undefined {
  let last: number | undefined;
  for (let s = 0; s <= limit; s++) {
    const yy = y + dy * s;
    if (yy < 0 || yy >= img.height) return undefined;
    if (!edgeAt(img, left, yy, -2) || !edgeAt(img, right, yy, 2)) return last;
    last = yy;
  }
  return undefined;
}

/** The first column from `from` toward `to` whose pixel on row `y` differs from the page at `from`. */
function firstApart(img: RgbaImage, y: number, from: number, to: number): number | undefined {
  const page = pixel(img, from, y);
  const step = to > from ? 1 : -1;
  for (let x = from; x !== to + step; x += step) if (apart(pixel(img, x, y), page)) return x;
  return undefined;
}

/** Pixels of a box that may differ (a caret, a stray anti-aliased one) for it to be unchanged: a
 * digit re-worded is a change, however large the box. */
const CHANGED_INSIDE = 4;

/**
 * The element cut by the top edge of `box` whose bottom edge moved (a new height), or undefined. Its
 * side edges are found on the rows just above the region (where both images are the same) and must run
 * straight there; each image is then followed down those edges to the element's bottom.
 */
export function elementCutAtTop(before: RgbaImage, after: RgbaImage, box: Box): CutElement | undefined {
  const [x0, y0, x1, y1] = box;
  // (a few rows up: a bottom edge that moved up ends, rounded corner and all, just above the region)
  const y = y0 - START_ABOVE;
  const from = x0 - 3,
    to = x1 + 2;
  if (y - ABOVE < 0 || from < 2 || to > Math.min(before.width, after.width) - 3) return undefined;
  // the side edges, the same column on every row just above the region
  let left: number | undefined, right: number | undefined;
  for (let r = y - ABOVE; r <= y; r++) {
    const l = firstApart(before, r, from, to),
      rr = firstApart(before, r, to, from);
    if (l === undefined || rr === undefined) return undefined;
    if (left === undefined || right === undefined) [left, right] = [l, rr];
    else if (Math.abs(l - left) > 1 || Math.abs(rr - right) > 1) return undefined;
  }
  if (left === undefined || right === undefined || right - left < MIN_WIDTH) return undefined;
  const limit = y1 - y + 4;
  const bottomBefore = edgesEnd(before, left, right, y, 1, limit),
    bottomAfter = edgesEnd(after, left, right, y, 1, limit);
  // both bottoms inside the region (a side that runs on past it is a panel or a column, not a box)
  if (bottomBefore === undefined || bottomAfter === undefined) return undefined;
  if (Math.abs(bottomAfter - bottomBefore) < MIN_HEIGHT_CHANGE) return undefined;
  // its top where it was: an element that moved down whole is not one given a new height
  const top = edgesEnd(before, left, right, y, -1, before.height);
  if (top === undefined || edgesEnd(after, left, right, y, -1, after.height) !== top) return undefined;
  // nothing inside it above the region changed: a container that grew because content was put in it
  // (or taken out, or re-padded) higher up is not one given a new height
  if (differingAfterShift(before, after, [left + 1, top + 1, right, y], 0, 0, APART, CHANGED_INSIDE) > CHANGED_INSIDE) return undefined;
  return { before: [left, top, right + 1, bottomBefore + 1], after: [left, top, right + 1, bottomAfter + 1] };
}
