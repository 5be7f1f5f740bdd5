// Visual blocks: what a region holds besides text - icons, small pictures, badges - as connected
// blobs of non-background pixels, matched before <-> after by their shape, so that a region with
// no words to read can still say "an icon was added; 4 icons moved 24 px left".
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import { borderColour } from './ocr.js';
import { clipTo } from './box.js';

export interface Block {
  box: Box;
  /** ink mask of the box, row-major, 1 where the pixel differs from the background */
  mask: Uint8Array;
}

export type BlockChange =
  | { kind: 'same' | 'moved'; before: Block; after: Block; dx: number; dy: number }
  | { kind: 'swapped'; before: Block; after: Block }
  | { kind: 'added'; after: Block }
  | { kind: 'removed'; before: Block };

/** Largest side of a block called an icon; larger blobs are pictures, panels or text the reader missed. */
export const MAX_ICON_SIDE = 64;
const MIN_ICON_SIDE = 6;

/**
 * The icon-sized blobs of `area`: pixels that differ from the area's border colour by more than 40,
 * joined when within 2 px of each other (an icon's strokes), away from the `exclude` boxes (text).
 */
export function findBlocks(image: RgbaImage, area: Box, exclude: Box[] = []): Block[] {
  const [x0, y0, x1, y1] = clipTo(image, area);
  const w = x1 - x0,
    h = y1 - y0;
  if (w < MIN_ICON_SIDE || h < MIN_ICON_SIDE) return [];
  const bg = borderColour(image, [x0, y0, x1, y1]);
  const ink = new Uint8Array(w * h);
  const excluded = (x: number, y: number) => exclude.some((b) => x >= b[0] && x < b[2] && y >= b[1] && y < b[3]);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = ((y0 + y) * image.width + x0 + x) * 4;
      const d = Math.max(Math.abs(image.data[i] - bg[0]), Math.abs(image.data[i + 1] - bg[1]), Math.abs(image.data[i + 2] - bg[2]));
      if (d > 40 && !excluded(x0 + x, y0 + y)) ink[y * w + x] = 1;
    }
  }
  const seen = new Uint8Array(w * h);
  const blocks: Block[] = [];
  for (let start = 0; start < w * h; start++) {
    if (!ink[start] || seen[start]) continue;
    const stack = [start];
    seen[start] = 1;
    let bx0 = w,
      by0 = h,
      bx1 = -1,
      by1 = -1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w,
        y = (p - x) / w;
      bx0 = Math.min(bx0, x);
      bx1 = Math.max(bx1, x);
      by0 = Math.min(by0, y);
      by1 = Math.max(by1, y);
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          const nx = x + dx,
            ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (ink[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    const bw = bx1 - bx0 + 1,
      bh = by1 - by0 + 1;
    // icons are compact: bars, rules and borders are not
    if (Math.min(bw, bh) < MIN_ICON_SIDE || Math.max(bw, bh) > MAX_ICON_SIDE || Math.max(bw, bh) > 3 * Math.min(bw, bh)) continue;
    // a blob touching the area's edge may be cut: its shape cannot be compared
    if (bx0 === 0 || by0 === 0 || bx1 === w - 1 || by1 === h - 1) continue;
    const mask = new Uint8Array(bw * bh);
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) mask[y * bw + x] = ink[(by0 + y) * w + bx0 + x];
    blocks.push({ box: [x0 + bx0, y0 + by0, x0 + bx1 + 1, y0 + by1 + 1], mask });
  }
  return blocks;
}

/** Overlap of two blocks' ink masks aligned at their top-left corners (intersection over union). */
export function shapeSimilarity(a: Block, b: Block): number {
  const aw = a.box[2] - a.box[0],
    ah = a.box[3] - a.box[1],
    bw = b.box[2] - b.box[0],
    bh = b.box[3] - b.box[1];
  if (Math.abs(aw - bw) > 2 || Math.abs(ah - bh) > 2) return 0;
  let both = 0,
    either = 0;
  for (let y = 0; y < Math.max(ah, bh); y++) {
    for (let x = 0; x < Math.max(aw, bw); x++) {
      const p = x < aw && y < ah ? a.mask[y * aw + x] : 0;
      const q = x < bw && y < bh ? b.mask[y * bw + x] : 0;
      if (p && q) both++;
      if (p || q) either++;
    }
  }
  return either ? both / either : 0;
}

/** Matches blocks by shape (similarity >= 0.7, nearest first); unmatched ones in the same place were swapped. */
export function matchBlocks(before: Block[], after: Block[]): BlockChange[] {
  const pairs: { i: number; j: number; d: number }[] = [];
  before.forEach((b, i) =>
    after.forEach((a, j) => {
      if (shapeSimilarity(b, a) >= 0.7) pairs.push({ i, j, d: Math.hypot(a.box[0] - b.box[0], a.box[1] - b.box[1]) });
    }),
  );
  pairs.sort((p, q) => p.d - q.d);
  const usedB = new Set<number>(),
    usedA = new Set<number>();
  const out: BlockChange[] = [];
  for (const { i, j } of pairs) {
    if (usedB.has(i) || usedA.has(j)) continue;
    usedB.add(i);
    usedA.add(j);
    const dx = after[j].box[0] - before[i].box[0],
      dy = after[j].box[1] - before[i].box[1];
    out.push({ kind: dx || dy ? 'moved' : 'same', before: before[i], after: after[j], dx, dy });
  }
  before.forEach((b, i) => {
    if (usedB.has(i)) return;
    const j = after.findIndex(
      (a, k) =>
        !usedA.has(k) &&
        Math.abs(a.box[0] - b.box[0]) <= 3 &&
        Math.abs(a.box[1] - b.box[1]) <= 3 &&
        Math.abs(a.box[2] - b.box[2]) <= 4 &&
        Math.abs(a.box[3] - b.box[3]) <= 4,
    );
    if (j >= 0) {
      usedB.add(i);
      usedA.add(j);
      out.push({ kind: 'swapped', before: b, after: after[j] });
    }
  });
  before.forEach((b, i) => {
    if (!usedB.has(i)) out.push({ kind: 'removed', before: b });
  });
  after.forEach((a, j) => {
    if (!usedA.has(j)) out.push({ kind: 'added', after: a });
  });
  return out;
}
