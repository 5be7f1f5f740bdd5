// Whether two readings of a line are the same letters drawn in another colour. The recognizer reads
// a line faded to a third of its contrast, or recoloured, as other words ("file" -> "fle", "Website"
// -> "Websitel"); the shapes of its letters are what tell.
import type { RgbaImage } from '../image.js';
import type { Box } from '../report.js';
import { borderColour } from './ocr.js';

/** How far (px) the letters may sit from where they were, each way (the detector's boxes wobble). */
const REACH = 2;
/** Ink (distance from the line's background) below which a line shows nothing to compare. */
const MIN_CONTRAST = 10;
/** Share of the letters' pixels that may differ over the whole line ... */
const MAX_LINE_MISMATCH = 0.1;
/** ... and in any one letter-wide window (one letter changed is a new word). */
const MAX_WINDOW_MISMATCH = 0.2;

/** A line's letters as a mask: pixels at least half as far from its background as its strongest ink
 * (outside the image: background). */
function letterMask(image: RgbaImage, area: Box, background: [number, number, number]): Uint8Array | undefined {
  const [x0, y0, x1, y1] = area;
  const w = x1 - x0;
  const distance = new Uint8Array(w * (y1 - y0));
  const histogram = new Uint32Array(256);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (x < 0 || y < 0 || x >= image.width || y >= image.height) {
        histogram[0]++;
        continue;
      }
      const i = (y * image.width + x) * 4;
      // (the background is an average: not a whole number)
      const d = Math.round(
        Math.max(
          Math.abs(image.data[i] - background[0]),
          Math.abs(image.data[i + 1] - background[1]),
          Math.abs(image.data[i + 2] - background[2]),
        ),
      );
      distance[(y - y0) * w + (x - x0)] = d;
      histogram[d]++;
    }
  }
  // the line's ink strength: the distance a few of its pixels reach (not the one darkest pixel)
  let left = Math.max(1, Math.round(0.02 * distance.length));
  let strongest = 255;
  while (strongest > 0 && (left -= histogram[strongest]) > 0) strongest--;
  if (strongest < MIN_CONTRAST) return undefined;
  const cut = strongest / 2;
  return distance.map((d) => (d >= cut ? 1 : 0));
}

/** How far apart two lines' letter shapes are at their best alignment: the share of the letters'
 * pixels that differ over the line and in its worst letter-wide window (undefined: nothing to compare). */
export interface ShapeMismatch {
  line: number;
  window: number;
  /** how far the letters moved in the image at that alignment (after minus before, px) */
  shiftX: number;
  shiftY: number;
}

/**
 * The two lines' letter masks (each line's pixels cut at half its own contrast against its own
 * background) compared at every alignment within REACH: the alignment that differs least over the
 * line, and its worst letter-wide window.
 */
export function letterShapeMismatch(before: RgbaImage, boxBefore: Box, after: RgbaImage, boxAfter: Box): ShapeMismatch | undefined {
  const r = REACH;
  const w = Math.max(boxBefore[2] - boxBefore[0], boxAfter[2] - boxAfter[0]);
  const h = Math.max(boxBefore[3] - boxBefore[1], boxAfter[3] - boxAfter[1]);
  if (Math.abs(boxBefore[2] - boxBefore[0] - (boxAfter[2] - boxAfter[0])) > 2 * r) return undefined;
  if (Math.abs(boxBefore[3] - boxBefore[1] - (boxAfter[3] - boxAfter[1])) > 2 * r) return undefined;
  // both sides over one area the size of the larger box, margin REACH around it on the after side
  const area = (box: Box, margin: number): Box => [box[0] - margin, box[1] - margin, box[0] + w + margin, box[1] + h + margin];
  const areaBefore = area(boxBefore, 0),
    areaAfter = area(boxAfter, r);
  const maskBefore = letterMask(before, areaBefore, borderColour(before, boxBefore));
  const maskAfter = letterMask(after, areaAfter, borderColour(after, boxAfter));
  if (!maskBefore || !maskAfter) return undefined;
  const wa = w + 2 * r;
  let inkBefore = 0;
  for (const v of maskBefore) inkBefore += v;
  if (!inkBefore) return undefined;
  // the window: about one letter (the line's height)
  const win = Math.min(w, Math.max(4, h));
  let best: ShapeMismatch | undefined;
  for (let sy = -r; sy <= r; sy++) {
    for (let sx = -r; sx <= r; sx++) {
      // per column: differing pixels and ink of either, for the whole line and its windows
      const differ = new Uint32Array(w),
        ink = new Uint32Array(w);
      let differing = 0,
        inkAfter = 0;
      for (let y = 0; y < h; y++) {
        const rowB = y * w,
          rowA = (y + r + sy) * wa + r + sx;
        for (let x = 0; x < w; x++) {
          const b = maskBefore[rowB + x],
            a = maskAfter[rowA + x];
          inkAfter += a;
          ink[x] += b | a;
          if (a !== b) differ[x]++;
        }
      }
      for (let x = 0; x < w; x++) differing += differ[x];
      const line = differing / Math.max(inkBefore, inkAfter, 1);
      if (best && line >= best.line) continue;
      let worst = 0,
        d = 0,
        k = 0;
      for (let x = 0; x < w; x++) {
        d += differ[x];
        k += ink[x];
        if (x >= win) {
          d -= differ[x - win];
          k -= ink[x - win];
        }
        // (a window of a pixel or two differing is anti-aliasing, whatever its ink)
        if (x >= win - 1 && d > 2) worst = Math.max(worst, d / Math.max(k, 1));
      }
      best = { line, window: worst, shiftX: boxAfter[0] + sx - boxBefore[0], shiftY: boxAfter[1] + sy - boxBefore[1] };
    }
  }
  return best;
}

/** Whether a mismatch is small enough for the same letters: few pixels differ over the line, and no
 * letter-wide window differs much (one letter changed is another word). */
export function sameShapes(m: ShapeMismatch): boolean {
  return m.line <= MAX_LINE_MISMATCH && m.window <= MAX_WINDOW_MISMATCH;
}
