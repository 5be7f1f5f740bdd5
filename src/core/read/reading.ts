// Reading a changed region: its text lines before and after (ocr.ts), their correspondence
// (correspond.ts), the shift that explains its pixels, and its colour change (colour.ts); then the
// verdict a reviewer reads: a kind and a caption that quotes the words ("'Open Files' now reads
// 'File Browser'", "'Recents' was added; 3 lines below moved down 24 px"). A region the reading cannot
// explain keeps the model's caption.
import type { Box, ChangeKind } from '../report.js';
import type { RgbaImage } from '../image.js';
import type { ReadOptions, TextLine, TextReader } from './ocr.js';
import { matchLines, changedWords, samePixels, textKey, type LineChange } from './correspond.js';
import { colourChangeOf, colourName, inkRgb, isFade, isInkFade, neitherFaded, otherShade, type ColourChange } from './colour.js';
import { borderColour } from './ocr.js';
import { differingAfterShift } from '../jitter.js';
import { findBlocks, matchBlocks, type BlockChange } from './blocks.js';
import { elementAround, elementOf, fieldAround, isFieldBox, type ElementRole } from './element.js';
import { elementCutAtTop, type CutElement } from './cut.js';
import { clippedSide, type ClipSide } from './clip.js';
import { letterShapeMismatch, sameShapes } from './glyph-shape.js';
import { centreIn, clipTo, grow, intersects, translate, unionOf } from './box.js';

export interface BlockShift {
  dx: number;
  dy: number;
  /** share of the region's differing pixels the shift explains. */
  explained: number;
  /** the same share where a pixel within a pixel of its shifted place counts (differingAfterShift's withinAPixel):
   * measured only when `explained` is below MOVE_EXPLAINED, for a shift of REDRAWN_SHIFT or
   * more, and only up to the share a move needs (below it, the figure is a bound) */
  explainedWithinAPixel?: number;
}

export interface RegionReading {
  changes: LineChange[];
  /** the region's icon-sized blobs that are not text, matched (only those that changed) */
  blocks?: BlockChange[];
  shift?: BlockShift;
  /** every moved line kept its ink's colour and amount (INTACT_COVERAGE): the same drawing, moved
   * (a fade, a recolour or a new weight changes one or the other); absent where no line moved */
  movesIntact?: boolean;
  /** buttons whose label stayed or moved, kept its words and its size, while the button's box
   * (elementAround) changed size: the button before and after, and its label on each side */
  buttons?: { text: string; before: Box; after: Box; labelBefore: Box; labelAfter: Box }[];
  /** input fields whose text stayed in place while the field's box, its top left corner kept,
   * changed size: the field before and after, and its text */
  fields?: { text: string; before: Box; after: Box }[];
  /** share of non-background pixels, in the after image, where the first moved line used to start:
   * something was put in its place (content pushed along by an insertion that is not text). */
  vacatedInk?: number;
  /** the same backwards: share of non-background pixels, in the before image, where the first line
   * pulled up or left now starts, that did not move along with it (something not text was removed
   * from before it); absent where no line was pulled, or a read line was drawn there */
  filledInk?: number;
  /** per line read as added or removed (by its text on that side): how much of its ink the other
   * image still shows at its place (ink share there over its own, against each side's background;
   * 1 where the place is filled by something other than the background around the region). Near 0:
   * the place is empty there; near 1 or more: something is still drawn there, and the line went
   * unread rather than away (a recoloured avatar, a menu item whose icon changed). */
  inPlace?: Record<string, number>;
  /** per added or removed line (by its text) that sat on a filled element (a button, a badge) which
   * is still there on the other side in another colour, the fill's colour before and after: the text
   * went unread because it now has its fill's colour (white on white), not because it went away */
  refilled?: Record<string, { before: string; after: string }>;
  /** per added or removed line (by its text) whose glyphs the other image still draws, faintly, at
   * the same place: the text took (or left) a colour close to its background (white on white), and
   * the ink colour before and after */
  faint?: Record<string, { before: string; after: string; faded: boolean }>;
  /** per re-worded line (by its text before) that is the same label cut off by its element, which got
   * smaller than it (clip.ts): the side it is cut at */
  clipped?: Record<string, { side: ClipSide; role: ElementRole }>;
  /** an element the region's top edge cuts whose bottom edge moved (cut.ts): given a new height, it
   * pushed what follows; its box on each side, and its first line of text and what that is part of */
  cut?: CutElement & { text?: string; role?: ElementRole };
  /** set when this region's words and another region's traded places (the first pair of them) */
  swapped?: [string, string];
  /** lines whose text and place stayed (within a pixel) but whose ink colour changed; `fade` where
   * the new ink is the old taken toward the background (out) or the other way (in), as a lower or
   * higher opacity draws it. */
  recoloured?: { text: string; before: string; after: string; fade?: 'in' | 'out' }[];
  /** the recolour of the changed pixels, and the region's background colour (name and RGB). */
  colour?: ColourChange & { background: string; backgroundRgb: [number, number, number] };
  /** the after screenshot's size: where content pushed along leaves the view */
  size?: { width: number; height: number };
  /** lines read added here where content that moved up (in any region) was drawn before, and lines
   * read removed where content that moved down now is (acrossRegions): uncovered and covered */
  uncovered?: string[];
  covered?: string[];
  /** the index of another region (in the order read) that read whole a line this region read cut,
   * where nothing else changed here: this region shows part of that region's change (acrossRegions) */
  partOf?: number;
}

export interface ReadVerdict {
  kind: ChangeKind;
  caption: string;
  /** the words before and after, where text was re-worded, added or removed. */
  textBefore?: string;
  textAfter?: string;
  /** the shift of content this change pushed along (an insertion pushing what follows). */
  pushed?: { lines: number; dx: number; dy: number };
  /** the box holding the lines an addition put in (after) or a removal took out (before) */
  linesBox?: Box;
  /** a move along the row of a change beside it, measured on the pixels (pair.ts withRowPush) */
  alongRow?: boolean;
  /** what the verdict rests on: lines read and matched (words), icon-sized blobs matched by shape
   * (shapes), or the region's pixels alone - a shift or a recolour (pixels). */
  basis: 'words' | 'shapes' | 'pixels';
  /** a move's shift in px (after minus before), where the verdict is a move */
  shift?: { dx: number; dy: number };
  /** the one line of text the verdict is about (moved, recoloured, restyled, faded), where it is one */
  subject?: string;
  /** an addition or removal whose place still shows as much ink on the other side (RegionReading.inPlace) */
  stillDrawn?: boolean;
  /** the caption's last clause, after "; ", where it says what the change carried along (the content
   * it pushed): the region's caption says it, the pair's summary names only the change. */
  detail?: string;
  /** a font verdict whose line's box grew or shrank (RESIZED_GLYPHS): the letters themselves were
   * drawn larger, smaller, wider or narrower, which no move, resize or spacing of their element does */
  glyphsResized?: boolean;
  /** an icon added (removed) whose neighbours moved by about its own size: it made (closed) its room */
  madeRoom?: boolean;
  /** a verdict on an element's own size (a button grown or shrunk around its label): its words name
   * the element and its size, which the models' caption does not */
  sized?: boolean;
  /** a button's size verdict where one side changed: which, and by how much (px, + grew) */
  resized?: { along: 'width' | 'height'; by: number };
  /** a colour verdict for words gone on an element recoloured to their colour (RegionReading.refilled),
   * or drawn on in a colour close to their background (RegionReading.faint) */
  refilled?: boolean;
  /** a colour verdict whose exact colours are off the line to the background both ways: no fade made it */
  unfaded?: boolean;
  /** a move up or down mirrored past it by the other way (pair.ts withCentredGrowth): what holds it grew or
   * shrank about its centre, by a change on this side of it */
  centred?: 'above' | 'below';
}

/** A label cut off at a side, in words: how its element got smaller, and where the text is cut. */
const CLIP_WORDS: Record<ClipSide, { size: string; where: string }> = {
  left: { size: 'narrower', where: 'at the left' },
  right: { size: 'narrower', where: 'at the right' },
  'both sides': { size: 'narrower', where: 'at both sides' },
  top: { size: 'shorter', where: 'at the top' },
  bottom: { size: 'shorter', where: 'at the bottom' },
  'top and bottom': { size: 'shorter', where: 'at the top and bottom' },
};

/** How much a line's box must change (px, width or height) for its same letters to be drawn at
 * another size rather than re-rendered where they were (a sub-pixel move redraws the edges only). */
export const RESIZED_GLYPHS = { width: 4, height: 3 };
/** Lines of a paragraph re-wrapped at the same size: their height and spacing the same within this (px). */
const REWRAP_HEIGHT = 2;

/** A caption with its trailing detail clause ("'A' was added" + "3 lines moved 24 px down"). */
function withDetail(caption: string, detail: string | undefined): { caption: string; detail?: string } {
  return detail ? { caption: `${caption}; ${detail}`, detail } : { caption };
}

/** A caption without its trailing detail clause (the inverse of withDetail): what the summary names. */
export function captionLead(r: { caption: string; detail?: string }): string {
  return r.detail && r.caption.endsWith(`; ${r.detail}`) ? r.caption.slice(0, -r.detail.length - 2) : r.caption;
}

/** The moved line whose box ends nearest above `box` on the given side (within 2 px of its top). */
export function nearestAbove<M extends Extract<LineChange, { kind: 'moved' }>>(
  moved: M[],
  box: Box,
  side: 'before' | 'after',
): M | undefined {
  return moved.filter((m) => m[side].box[3] <= box[1] + 2).sort((p, q) => q[side].box[3] - p[side].box[3])[0];
}

/** Whether a line's box, moved down by `dy` (up where negative), lies at least half below the bottom edge. */
export function belowBottom(box: Box, dy: number, height: number): boolean {
  return box[1] + dy + 0.5 * (box[3] - box[1]) >= height;
}

/** Context read around a region, in pixels, so lines cut by the box are read whole. */
const READ_MARGIN = 24;
/** Farthest move of a region's lines along which its icons are looked for (px). */
const MAX_BLOCK_SEARCH_SHIFT = 240;
/** Share of a line's ink that, still drawn at its place on the other side, makes its addition or removal doubtful. */
const STILL_DRAWN = 0.5;
/** Share of a region's differing pixels that text moved diagonally must explain to be read as new padding. */
const PADDING_EXPLAINED = 0.5;
/** Content that moved as far right as down (or left as up), by at least this many px, sits in a
 * container whose padding changed on every side: the space around it changed, not its place. The
 * two distances may differ by a pixel (a padding drawn at a zoom rounds differently on each axis). */
const PADDING_SHIFT = 4;
/** Share of a region's differing pixels a shift of its lines must explain to make it a move. */
const MOVE_EXPLAINED = 0.8;
/** The same share within a pixel (text moved by a fraction of a pixel is drawn anew), where every
 * moved line kept its size, its ink's colour and its amount of ink (RegionReading.movesIntact): a
 * restyle, a recolour or a fade that also moved changes one of them. */
const MOVE_EXPLAINED_WITHIN_A_PIXEL = 0.9;
/** Shortest move (px) told by its pixels within a pixel: a pixel or two is no further than the
 * tolerance itself, and another font's letters are as close to the old ones. */
const REDRAWN_SHIFT = 3;
/** Longest quote kept whole; longer ones are cut with an ellipsis. */
const MAX_QUOTE = 48;

/** The shift (|dx|, |dy| <= range, plus the candidates given) that best explains the region's differences. */
export function blockShiftOf(
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  range = 4,
  candidates: { dx: number; dy: number }[] = [],
): BlockShift | undefined {
  const w = Math.min(before.width, after.width),
    h = Math.min(before.height, after.height);
  const inner = clipTo({ width: w, height: h }, box);
  const unshifted = differingAfterShift(before, after, inner, 0, 0, 40);
  if (unshifted === 0) return undefined;
  const tries = [...candidates];
  for (let dy = -range; dy <= range; dy++) for (let dx = -range; dx <= range; dx++) if (dx || dy) tries.push({ dx, dy });
  let best: { dx: number; dy: number; count: number; clip: Box } | undefined;
  const seen = new Set<string>();
  for (const { dx, dy } of tries) {
    const key = `${dx},${dy}`;
    if (seen.has(key) || (!dx && !dy)) continue;
    seen.add(key);
    const clip: Box = [
      Math.max(inner[0], dx),
      Math.max(inner[1], dy),
      Math.min(inner[2], before.width + dx),
      Math.min(inner[3], before.height + dy),
    ];
    if (clip[2] - clip[0] < 2 || clip[3] - clip[1] < 2) continue;
    const count = differingAfterShift(before, after, clip, dx, dy, 40, best ? best.count : unshifted);
    if (!best || count < best.count) best = { dx, dy, count, clip };
  }
  if (!best) return undefined;
  const explained = Math.max(0, 1 - best.count / unshifted);
  // (within a pixel only counts for a move of 3 px or more; past the share it needs, the
  // count stops: the figure is then only known to fall short)
  if (explained >= MOVE_EXPLAINED || Math.max(Math.abs(best.dx), Math.abs(best.dy)) < REDRAWN_SHIFT)
    return { dx: best.dx, dy: best.dy, explained };
  const loose = differingAfterShift(before, after, best.clip, best.dx, best.dy, 40, (1 - MOVE_EXPLAINED_WITHIN_A_PIXEL) * unshifted, true);
  return { dx: best.dx, dy: best.dy, explained, explainedWithinAPixel: Math.max(0, 1 - loose / unshifted) };
}

/** Read on each side of a region, so that lines the region cuts are read whole (a changed word in a sentence). */
const READ_SIDE = 160;
/**
 * A region is read first this far on each side: most regions' lines end inside it, and detection's
 * cost grows with the area. Where a line of the region reaches a side of it (within CUT_LINE_EDGE),
 * both images are read again over READ_SIDE.
 */
const FIRST_READ_SIDE = 32;
const CUT_LINE_EDGE = 8;

/** The area read around a region: the box grown by the margin, and widened towards whole lines. */
function readArea(box: Box, image: RgbaImage, side = READ_SIDE): Box {
  const width = Math.min(image.width, box[2] - box[0] + 2 * side);
  const cx = (box[0] + box[2]) / 2;
  const x0 = Math.max(0, Math.min(image.width - width, Math.round(cx - width / 2)));
  return [x0, Math.max(0, box[1] - READ_MARGIN), x0 + width, Math.min(image.height, box[3] + READ_MARGIN)];
}

/**
 * A line read as other words whose letters kept their shapes in another colour or opacity (a faded
 * line read "fle" for "file"): the same line, in place or moved by as much as its letters, read
 * with the more confident of its two readings.
 */
function recolouredLine(c: Extract<LineChange, { kind: 'reworded' }>, before: RgbaImage, after: RgbaImage): LineChange | undefined {
  const shapes = letterShapeMismatch(before, c.before.box, after, c.after.box);
  if (!shapes || !sameShapes(shapes)) return undefined;
  const read = c.before.confidence >= c.after.confidence ? c.before : c.after;
  const lines = { before: { ...c.before, text: read.text }, after: { ...c.after, text: read.text } };
  return shapes.shiftX || shapes.shiftY ? { kind: 'moved', ...lines, dx: shapes.shiftX, dy: shapes.shiftY } : { kind: 'same', ...lines };
}

/**
 * Text changes the pixels do not bear out - a line read two ways, or read whole on one side and cut
 * on the other, whose pixels are the same unmoved or moved by the block's shift - become unchanged or
 * moved lines.
 */
function verifiedChanges(changes: LineChange[], before: RgbaImage, after: RgbaImage, shift?: BlockShift): LineChange[] {
  // candidate shifts: none, the region's, and each shift a matched line moved by (content pushed
  // along moves together)
  const shifts = [{ dx: 0, dy: 0 }, ...(shift && shift.explained >= 0.5 ? [{ dx: shift.dx, dy: shift.dy }] : [])];
  for (const c of changes) {
    if (c.kind === 'moved' && !shifts.some((s) => s.dx === c.dx && s.dy === c.dy)) shifts.push({ dx: c.dx, dy: c.dy });
  }
  // the shift most moved lines share (two at least): the one that can carry a line out of view
  const counts = new Map<string, { dx: number; dy: number; n: number }>();
  for (const c of changes) {
    if (c.kind !== 'moved') continue;
    const k = `${c.dx},${c.dy}`;
    counts.set(k, { dx: c.dx, dy: c.dy, n: (counts.get(k)?.n ?? 0) + 1 });
  }
  const common = [...counts.values()].sort((a, b) => b.n - a.n).filter((v) => v.n >= 2)[0];
  const out: LineChange[] = [];
  for (const c of changes) {
    if (c.kind === 'same' || c.kind === 'moved' || c.kind === 'rewrapped') {
      out.push(c);
      continue;
    }
    const afterBox = c.kind === 'removed' ? undefined : c.after.box;
    const beforeBox = c.kind === 'added' ? undefined : c.before.box;
    // a re-worded line's two boxes both: the words of the longer side (ink gone past the end of the
    // shorter side's box, "/pets/{id}/items" -> "/pets") are a change even where the shorter box's
    // pixels stayed; the before box where it is still in view (a line pushed past the bottom)
    const explained = shifts.find(({ dx, dy }) => {
      if (!afterBox) return samePixels(before, after, translate(beforeBox!, dx, dy), dx, dy);
      if (!samePixels(before, after, afterBox, dx, dy)) return false;
      if (!beforeBox) return true;
      const inView = clipTo(after, translate(beforeBox, dx, dy));
      return inView[2] <= inView[0] || inView[3] <= inView[1] || samePixels(before, after, inView, dx, dy);
    });
    // a line the content's common vertical shift carried past the top or bottom of the screenshot
    // (pushed out of view below, or in from above): the part still in view is the same pixels moved
    const outOfView =
      !explained &&
      common &&
      common.dx === 0 &&
      [common].find(({ dx, dy }) => {
        const box =
          c.kind === 'removed' ? translate(c.before.box, dx, dy) : c.kind === 'added' ? translate(c.after.box, -dx, -dy) : undefined;
        const image = c.kind === 'removed' ? after : before;
        if (!box) return false;
        const inView = clipTo(image, box);
        const cut = (inView[2] - inView[0]) * (inView[3] - inView[1]) < 0.9 * (box[2] - box[0]) * (box[3] - box[1]);
        if (!cut) return false;
        if (inView[2] <= inView[0] || inView[3] <= inView[1]) return false;
        return c.kind === 'removed'
          ? samePixels(before, after, inView, dx, dy)
          : samePixels(before, after, translate(inView, dx, dy), dx, dy);
      });
    if (outOfView && (c.kind === 'removed' || c.kind === 'added')) {
      const { dx, dy } = outOfView;
      out.push(
        c.kind === 'removed'
          ? { kind: 'moved', before: c.before, after: { ...c.before, box: translate(c.before.box, dx, dy) }, dx, dy }
          : { kind: 'moved', before: { ...c.after, box: translate(c.after.box, -dx, -dy) }, after: c.after, dx, dy },
      );
      continue;
    }
    if (!explained) {
      out.push(c.kind === 'reworded' ? (recolouredLine(c, before, after) ?? c) : c);
      continue;
    }
    const moved = explained.dx || explained.dy;
    if (c.kind === 'reworded')
      out.push(
        moved ? { kind: 'moved', before: c.before, after: c.after, ...explained } : { kind: 'same', before: c.before, after: c.after },
      );
    // an added or removed line whose pixels only moved: its other side was not read (outside the
    // area, or cut); it moved with the rest
    else if (moved && c.kind === 'added')
      out.push({
        kind: 'moved',
        before: { ...c.after, box: translate(c.after.box, -explained.dx, -explained.dy) },
        after: c.after,
        ...explained,
      });
    else if (moved && c.kind === 'removed')
      out.push({
        kind: 'moved',
        before: c.before,
        after: { ...c.before, box: translate(c.before.box, explained.dx, explained.dy) },
        ...explained,
      });
  }
  return out;
}

/**
 * The ink of `box` against `background`: the share of its pixels whose largest channel difference
 * exceeds `threshold`, and its coverage, the sum of those differences over all its pixels (in 0..1).
 */
function inkOf(image: RgbaImage, box: Box, background: [number, number, number], threshold = 40): { share: number; coverage: number } {
  const [x0, y0, x1, y1] = clipTo(image, box);
  let ink = 0,
    all = 0,
    sum = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * 4;
      const d = Math.max(
        Math.abs(image.data[i] - background[0]),
        Math.abs(image.data[i + 1] - background[1]),
        Math.abs(image.data[i + 2] - background[2]),
      );
      all++;
      sum += d;
      if (d > threshold) ink++;
    }
  }
  return { share: all ? ink / all : 0, coverage: sum / 255 };
}

/** Share of the pixels of `box` that differ from `background` by more than `threshold` in a channel. */
const inkShare = (image: RgbaImage, box: Box, background: [number, number, number], threshold = 40): number =>
  inkOf(image, box, background, threshold).share;

/** Ink that differs from the background by more than this (largest channel) is a glyph's core. */
const FAINT_CORE = 48;
/** Least mean difference (levels) from its background, over the glyphs' cores, of text still drawn faintly. */
const FAINT_LEVELS = 1.5;

/** The commonest colour of `box` (a line's background: most of its pixels are between the strokes). */
function commonestColour(image: RgbaImage, box: Box): [number, number, number] {
  const [x0, y0, x1, y1] = clipTo(image, box);
  const counts = new Map<number, number>();
  let best = 0,
    bestCount = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * image.width + x) * 4;
      const key = (image.data[i] << 16) | (image.data[i + 1] << 8) | image.data[i + 2];
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      if (n > bestCount) [best, bestCount] = [key, n];
    }
  }
  return [(best >> 16) & 255, (best >> 8) & 255, best & 255];
}

/**
 * Whether the glyphs `own` draws in `box` are still drawn in `other` at the same place, faintly: at
 * the cores of the strokes on `own` (FAINT_CORE from its background), `other` differs from its own
 * background (each side's commonest colour in the box) by FAINT_LEVELS or more on average, at 80% of
 * them at all, and three times as much as between the strokes. A recolour to about the background's
 * colour keeps the letters' shape to the level; a removal leaves the background, and re-rendering
 * noise or a tint is spread over the whole box. Returns the two ink colours (the cores' mean on
 * `own`, the most different pixel among them on `other`), or undefined.
 */
export function faintInk(
  own: RgbaImage,
  other: RgbaImage,
  box: Box,
): { own: [number, number, number]; other: [number, number, number] } | undefined {
  if (own.width !== other.width || own.height !== other.height) return undefined;
  const [x0, y0, x1, y1] = clipTo(own, box);
  const [fillOwn, fillOther] = [commonestColour(own, box), commonestColour(other, box)];
  const far = (image: RgbaImage, i: number, fill: [number, number, number]) =>
    Math.max(Math.abs(image.data[i] - fill[0]), Math.abs(image.data[i + 1] - fill[1]), Math.abs(image.data[i + 2] - fill[2]));
  let cores = 0,
    drawn = 0,
    coreSum = 0,
    between = 0,
    betweenSum = 0,
    top = -1;
  const ownInk = [0, 0, 0];
  const otherInk: [number, number, number] = [0, 0, 0];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * own.width + x) * 4;
      const d = far(own, i, fillOwn);
      const e = far(other, i, fillOther);
      if (d > FAINT_CORE) {
        cores++;
        coreSum += e;
        if (e > 0) drawn++;
        for (let c = 0; c < 3; c++) ownInk[c] += own.data[i + c];
        if (e > top) {
          top = e;
          for (let c = 0; c < 3; c++) otherInk[c] = other.data[i + c];
        }
      } else if (d === 0) {
        between++;
        betweenSum += e;
      }
    }
  }
  if (cores < 20) return undefined;
  const core = coreSum / cores;
  if (core < FAINT_LEVELS || drawn < 0.8 * cores || (between && betweenSum / between > core / 3)) return undefined;
  return { own: ownInk.map((v) => Math.round(v / cores)) as [number, number, number], other: otherInk };
}

/** How far a moved line's ink coverage may change (a share of it) for the line to be the same
 * drawing at a new sub-pixel place: anti-aliasing spreads ink, it does not add or take it away. */
const INTACT_COVERAGE = 0.1;

/** Space looked for beside, above and below a button's label (px): a padding that grew, a button
 * as wide as its column. */
const BUTTON_PADDING = { side: 160, end: 60 };
/** Change of a button's width or height (px) that makes it resized; a label's box may wobble by a pixel. */
const BUTTON_RESIZED = 3;
/** Change of a button's other side (px) that makes a resize along one side new padding: a width or
 * a height set keeps the other side to a pixel (rounding), while a padding written anew on every side
 * changes it as well, 2 px at least (a button's measured box is exact: its edges are found on rows and
 * columns through its label, clear of its rounded corners). */
const PADDED_TOO = 2;
/** How much more (px) a button must grow in width than in height to be resized, not re-padded (a
 * padding written on every side grows the height as much as the width, or more). */
const WIDER_THAN_PADDED = 10;

const sizeOf = (b: Box) => [b[2] - b[0], b[3] - b[1]];
/** Whether two text lines' boxes have the same size, to the detector's wobble of two pixels. */
const sameSize = (a: Box, b: Box) => Math.abs(sizeOf(a)[0] - sizeOf(b)[0]) <= 2 && Math.abs(sizeOf(a)[1] - sizeOf(b)[1]) <= 2;

/**
 * Buttons that grew or shrank around the same label: where no line was re-worded, added or removed,
 * each line that stayed or moved with its size, the text of a button on both sides, whose button
 * changed width or height.
 */
function resizedButtons(changes: LineChange[], before: RgbaImage, after: RgbaImage): NonNullable<RegionReading['buttons']> {
  if (changes.some((c) => c.kind !== 'same' && c.kind !== 'moved')) return [];
  const out: NonNullable<RegionReading['buttons']> = [];
  for (const c of changes) {
    if ((c.kind !== 'same' && c.kind !== 'moved') || !sameSize(c.before.box, c.after.box)) continue;
    const b = elementAround(before, c.before, BUTTON_PADDING),
      a = elementAround(after, c.after, BUTTON_PADDING);
    if (b?.role !== 'button' || a?.role !== 'button') continue;
    const [wb, hb] = sizeOf(b.box),
      [wa, ha] = sizeOf(a.box);
    if (Math.abs(wa - wb) < BUTTON_RESIZED && Math.abs(ha - hb) < BUTTON_RESIZED) continue;
    out.push({ text: c.after.text, before: b.box, after: a.box, labelBefore: c.before.box, labelAfter: c.after.box });
  }
  return out;
}

/**
 * Input fields given a new size: where no line was re-worded, each line that stayed
 * in place, the text of an input on one side (on the other it may fill its field), whose field kept
 * its top left corner and changed width or height. (A field's text sits at its start: a new padding
 * would move it; a new size does not.)
 */
function resizedFields(changes: LineChange[], before: RgbaImage, after: RgbaImage): NonNullable<RegionReading['fields']> {
  if (changes.some((c) => c.kind === 'reworded')) return [];
  const out: NonNullable<RegionReading['fields']> = [];
  for (const c of changes) {
    if (c.kind !== 'same') continue;
    const b = fieldAround(before, c.before),
      a = fieldAround(after, c.after);
    if (!a || !b || (!isFieldBox(b, c.before) && !isFieldBox(a, c.after))) continue;
    if (Math.abs(a[0] - b[0]) > 1 || Math.abs(a[1] - b[1]) > 1) continue;
    const [wb, hb] = sizeOf(b),
      [wa, ha] = sizeOf(a);
    if (Math.abs(wa - wb) < BUTTON_RESIZED && Math.abs(ha - hb) < BUTTON_RESIZED) continue;
    out.push({ text: c.after.text, before: b, after: a });
  }
  return out;
}

/**
 * The lines in both images around a region: read FIRST_READ_SIDE to each side, then READ_SIDE where a
 * line the region touches reaches a side of the first area on either image (a sentence the region
 * cuts is read whole, and both images are read over the same area).
 */
async function readAround(
  reader: TextReader,
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  readOptions: ReadOptions,
): Promise<{ linesBefore: TextLine[]; linesAfter: TextLine[] }> {
  const touch = grow(box, 2);
  const first = { before: readArea(box, before, FIRST_READ_SIDE), after: readArea(box, after, FIRST_READ_SIDE) };
  const full = { before: readArea(box, before), after: readArea(box, after) };
  const linesBefore = await reader.read(before, first.before, readOptions);
  const linesAfter = await reader.read(after, first.after, readOptions);
  const cut = (lines: TextLine[], area: Box, wider: Box) =>
    lines.some(
      (l) =>
        intersects(l.box, touch) &&
        ((area[0] > wider[0] && l.box[0] <= area[0] + CUT_LINE_EDGE) || (area[2] < wider[2] && l.box[2] >= area[2] - CUT_LINE_EDGE)),
    );
  if (!cut(linesBefore, first.before, full.before) && !cut(linesAfter, first.after, full.after)) return { linesBefore, linesAfter };
  return {
    linesBefore: await reader.read(before, full.before, readOptions),
    linesAfter: await reader.read(after, full.after, readOptions),
  };
}

/** Reads one region: lines in both images around `box` (common-area pixels), matched; shift; colour. */
export async function readRegion(
  reader: TextReader,
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  areas?: { before: Box; after: Box },
  readOptions: ReadOptions = {},
): Promise<RegionReading> {
  const touch = grow(box, 2);
  const { linesBefore, linesAfter } = areas
    ? { linesBefore: await reader.read(before, areas.before, readOptions), linesAfter: await reader.read(after, areas.after, readOptions) }
    : await readAround(reader, before, after, box, readOptions);
  const keep = (lines: TextLine[], limit?: Box) => lines.filter((l) => intersects(l.box, limit ?? touch));
  const matched = matchLines(keep(linesBefore, areas?.before), keep(linesAfter, areas?.after), { before, after });
  const moved = matched.filter((c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved').map((c) => ({ dx: c.dx, dy: c.dy }));
  const shift = blockShiftOf(before, after, box, 4, moved);
  const changes = verifiedChanges(matched, before, after, shift);
  // name the element of each line that changed, on the side the caption quotes
  for (const c of changes) {
    if (c.kind === 'same') continue;
    if (c.kind !== 'added') c.before.role = elementOf(before, c.before);
    if (c.kind !== 'removed') c.after.role = elementOf(after, c.after);
  }
  const buttons = resizedButtons(changes, before, after);
  const fields = resizedFields(changes, before, after);
  const common: Box = [box[0], box[1], Math.min(box[2], before.width, after.width), Math.min(box[3], before.height, after.height)];
  const colour = colourChangeOf(before, after, common);
  const background = borderColour(before, clipTo(before, grow(common, 2)));
  const recoloured: NonNullable<RegionReading['recoloured']> = [];
  let movesIntact = true;
  for (const c of changes) {
    if (c.kind !== 'same' && c.kind !== 'moved') continue;
    const bgBefore = borderColour(before, c.before.box),
      bgAfter = borderColour(after, c.after.box);
    const rgbBefore = inkRgb(before, c.before.box, bgBefore),
      rgbAfter = inkRgb(after, c.after.box, bgAfter);
    const [inkBefore, inkAfter] = [colourName(...rgbBefore), colourName(...rgbAfter)];
    if (c.kind === 'moved' && movesIntact) {
      const [cb, ca] = [inkOf(before, c.before.box, bgBefore).coverage, inkOf(after, c.after.box, bgAfter).coverage];
      movesIntact = inkBefore === inkAfter && Math.abs(ca - cb) <= INTACT_COVERAGE * Math.max(cb, ca);
    }
    // grey to a neighbouring grey is how a line reads when an icon or caret beside it changed: a
    // recolour of text names a hue on at least one side
    const grey = (name: string) => /^(white|light grey|grey|dark grey|black)$/.test(name);
    if (inkBefore !== inkAfter && !(grey(inkBefore) && grey(inkAfter)) && colourName(...bgBefore) === colourName(...bgAfter)) {
      const fade = isInkFade(rgbBefore, rgbAfter, bgBefore) ? 'out' : isInkFade(rgbAfter, rgbBefore, bgBefore) ? 'in' : undefined;
      recoloured.push({ text: c.after.text, before: inkBefore, after: inkAfter, ...(fade ? { fade } : {}) });
    }
  }
  const firstMoved = changes.find(
    (c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved' && (Math.abs(c.dx) > 4 || Math.abs(c.dy) > 4),
  );
  let vacatedInk: number | undefined;
  if (firstMoved) {
    const b = firstMoved.before.box,
      { dx, dy } = firstMoved;
    // the strip the line left: before its new start along the move
    const strip: Box =
      dx > 0
        ? [b[0], b[1], Math.min(b[2], b[0] + dx), b[3]]
        : dx < 0
          ? [Math.max(b[0], b[2] + dx), b[1], b[2], b[3]]
          : dy > 0
            ? [b[0], b[1], b[2], Math.min(b[3], b[1] + dy)]
            : [b[0], Math.max(b[1], b[3] + dy), b[2], b[3]];
    // against the background around the region in the after image (a moved button leaves the page's
    // background behind it, not its own colour)
    const around = clipTo(after, grow(box, 2));
    // ... and against the line's own background before (text that moved inside its button, which
    // grew padding or a wider font, leaves the button's colour behind: nothing was put there)
    vacatedInk = Math.min(inkShare(after, strip, borderColour(after, around)), inkShare(after, strip, borderColour(before, b)));
  }
  // the same backwards in time: content pulled up or left (dx or dy < 0), where its first line now
  // starts, showed something that is not text and did not move along (a picture that was removed)
  const firstPulled = firstMoved && (firstMoved.dx < 0 || firstMoved.dy < 0) ? firstMoved : undefined;
  let filledInk: number | undefined;
  if (firstPulled) {
    const a = firstPulled.after.box,
      [dx, dy] = [-firstPulled.dx, -firstPulled.dy];
    const strip: Box = dx > 0 ? [a[0], a[1], Math.min(a[2], a[0] + dx), a[3]] : [a[0], a[1], a[2], Math.min(a[3], a[1] + dy)];
    const unread = !linesBefore.some((l) => intersects(l.box, strip));
    const stayed = samePixels(before, after, translate(strip, firstPulled.dx, firstPulled.dy), firstPulled.dx, firstPulled.dy);
    if (unread && !stayed) {
      const around = clipTo(before, grow(box, 2));
      filledInk = Math.min(inkShare(before, strip, borderColour(before, around)), inkShare(before, strip, borderColour(after, a)));
    }
  }
  // icons: only on a background that stayed (a theme change makes every blob look new), and an added
  // (removed) icon only where the other image shows that background (not a recoloured or reshaped one)
  const blockArea = grow(box, 6);
  const bgBefore = borderColour(before, clipTo(before, blockArea)),
    bgAfter = borderColour(after, clipTo(after, blockArea));
  const sameBackground = colourName(...bgBefore) === colourName(...bgAfter);
  // content pushed further than the margin took its icons along: they are looked for where the
  // region's moved lines came from (before) and went to (after), and kept when one end is here
  const lineShifts: { dx: number; dy: number }[] = [];
  for (const c of changes) {
    if (
      c.kind !== 'moved' ||
      Math.max(Math.abs(c.dx), Math.abs(c.dy)) <= 6 ||
      Math.max(Math.abs(c.dx), Math.abs(c.dy)) > MAX_BLOCK_SEARCH_SHIFT
    )
      continue;
    if (lineShifts.length < 3 && !lineShifts.some((v) => Math.abs(v.dx - c.dx) <= 2 && Math.abs(v.dy - c.dy) <= 2))
      lineShifts.push({ dx: c.dx, dy: c.dy });
  }
  const searchBefore = unionOf([blockArea, ...lineShifts.map((v) => translate(blockArea, -v.dx, -v.dy))])!;
  const searchAfter = unionOf([blockArea, ...lineShifts.map((v) => translate(blockArea, v.dx, v.dy))])!;
  const blocksBefore = !sameBackground
    ? []
    : findBlocks(
        before,
        searchBefore,
        linesBefore.map((l) => l.box),
      );
  const blocksAfter = !sameBackground
    ? []
    : findBlocks(
        after,
        searchAfter,
        linesAfter.map((l) => l.box),
      );
  const here = (b: Box) => intersects(b, blockArea);
  const matchedBlocks = matchBlocks(blocksBefore, blocksAfter).filter((m) =>
    m.kind === 'added' ? here(m.after.box) : m.kind === 'removed' ? here(m.before.box) : here(m.before.box) || here(m.after.box),
  );
  // a blob that appears around another (a date whose circle filled in, a badge behind its digits) is
  // that element restyled, not an icon added (removed)
  // (not one that moved away: an icon inserted takes the place of the one it pushed)
  const movedAway = new Set(matchedBlocks.flatMap((m) => (m.kind === 'moved' ? [m.before, m.after] : [])));
  const restyled = (m: BlockChange) =>
    m.kind === 'added'
      ? blocksBefore.some((b) => !movedAway.has(b) && centreIn(b.box, m.after.box))
      : m.kind === 'removed'
        ? blocksAfter.some((a) => !movedAway.has(a) && centreIn(a.box, m.before.box))
        : false;
  // ... or where what was there moved away (an icon inserted into a toolbar takes the place of the one it pushed)
  const vacated = (b: Box, side: 'before' | 'after') =>
    matchedBlocks.some((m) => m.kind === 'moved' && intersects(side === 'before' ? m.before.box : m.after.box, b));
  const blocks = matchedBlocks
    .filter((b) => b.kind !== 'same' && !restyled(b))
    .filter((b) =>
      b.kind === 'added'
        ? inkShare(before, b.after.box, bgBefore) < 0.1 || vacated(b.after.box, 'before')
        : b.kind === 'removed'
          ? inkShare(after, b.before.box, bgAfter) < 0.1 || vacated(b.before.box, 'after')
          : true,
    );
  const inPlace: Record<string, number> = {};
  const refilled: Record<string, { before: string; after: string }> = {};
  const faint: Record<string, { before: string; after: string; faded: boolean }> = {};
  // the background around the region on each side (the same for every line of it)
  const around = new Map<RgbaImage, [number, number, number]>();
  const aroundOf = (image: RgbaImage): [number, number, number] => {
    let colour = around.get(image);
    if (!colour) around.set(image, (colour = borderColour(image, clipTo(image, grow(box, 2)))));
    return colour;
  };
  for (const c of changes) {
    if (c.kind !== 'added' && c.kind !== 'removed') continue;
    const [line, own, other] = c.kind === 'added' ? [c.after, after, before] : [c.before, before, after];
    const fillOwn = borderColour(own, line.box);
    const fillOther = borderColour(other, line.box);
    const ink = inkShare(own, line.box, fillOwn);
    // its own ink drawn again there (text that did not read), or the place filled by something that
    // is not the background around the region (the element it sat on, recoloured so that its text no
    // longer stands out)
    const again = ink > 0 ? inkShare(other, line.box, fillOther) / ink : 0;
    const filled = inkShare(other, line.box, aroundOf(other), 16);
    inPlace[line.text] = Math.max(again, filled >= 0.6 ? 1 : 0);
    // the line sat on a fill of its own (not the background around the region), and its place on the
    // other side is one flat fill of another colour with no ink of its own
    const [own0, other0] = [colourName(...fillOwn), colourName(...fillOther)];
    if (filled >= 0.9 && again < 0.1 && own0 !== other0 && own0 !== colourName(...aroundOf(own)))
      refilled[line.text] = c.kind === 'removed' ? { before: own0, after: other0 } : { before: other0, after: own0 };
    // (or its letters still drawn there, faintly: recoloured to about their background's colour)
    const ghost = again < 0.1 ? faintInk(own, other, line.box) : undefined;
    if (ghost) {
      const [inkOwn, inkOther] = [colourName(...ghost.own), colourName(...ghost.other)];
      faint[line.text] =
        c.kind === 'removed' ? { before: inkOwn, after: inkOther, faded: true } : { before: inkOther, after: inkOwn, faded: false };
    }
  }
  // labels cut off by their element, read as other words or narrower letters
  const clipped: Record<string, { side: ClipSide; role: ElementRole }> = {};
  for (const c of changes) {
    if (c.kind !== 'reworded') continue;
    const side = clippedSide(before, after, c.before.box, c.after.box);
    // (on an element of its own - text of the page cut by something that grew over it was covered)
    const role = side ? elementAround(before, c.before, BUTTON_PADDING)?.role : undefined;
    if (side && role) clipped[c.before.text] = { side, role };
  }
  // (only where no line came, went or changed words: those are the region's change)
  const cutBox = changes.every((c) => c.kind === 'same' || c.kind === 'moved') ? elementCutAtTop(before, after, box) : undefined;
  let cut: RegionReading['cut'];
  if (cutBox) {
    const first = (await reader.read(before, cutBox.before, readOptions))[0];
    const role = first ? elementAround(before, first, BUTTON_PADDING)?.role : undefined;
    cut = { ...cutBox, ...(first ? { text: first.text } : {}), ...(role ? { role } : {}) };
  }
  return {
    changes,
    ...(cut ? { cut } : {}),
    size: { width: after.width, height: after.height },
    ...(Object.keys(inPlace).length ? { inPlace } : {}),
    ...(Object.keys(refilled).length ? { refilled } : {}),
    ...(Object.keys(faint).length ? { faint } : {}),
    ...(Object.keys(clipped).length ? { clipped } : {}),
    ...(blocks.length ? { blocks } : {}),
    ...(shift ? { shift } : {}),
    ...(buttons.length ? { buttons } : {}),
    ...(fields.length ? { fields } : {}),
    ...(changes.some((c) => c.kind === 'moved') ? { movesIntact } : {}),
    ...(recoloured.length ? { recoloured } : {}),
    ...(vacatedInk !== undefined ? { vacatedInk } : {}),
    ...(filledInk !== undefined ? { filledInk } : {}),
    ...(colour ? { colour: { ...colour, background: colourName(...background), backgroundRgb: background } } : {}),
  };
}

/** `line` with the lines that continue it below (left edges aligned, the next row, same height) joined on. */
function withContinuation(line: TextLine, candidates: TextLine[]): { line: TextLine; used: TextLine[] } {
  const used: TextLine[] = [];
  let current = line;
  for (;;) {
    const h = current.box[3] - current.box[1];
    const next = candidates.find(
      (c) =>
        !used.includes(c) &&
        Math.abs(c.box[0] - line.box[0]) <= 4 &&
        c.box[1] - current.box[3] >= -0.3 * h &&
        c.box[1] - current.box[3] <= 0.6 * h &&
        Math.abs(c.box[3] - c.box[1] - h) <= 0.3 * h,
    );
    if (!next) return { line: current, used };
    used.push(next);
    current = {
      text: `${current.text} ${next.text}`,
      confidence: Math.min(current.confidence, next.confidence),
      box: [Math.min(current.box[0], next.box[0]), current.box[1], Math.max(current.box[2], next.box[2]), next.box[3]],
    };
  }
}

/** Largest gap (px) between an icon and what it pushed along, for that push to be the icon's own room. */
const ICON_GAP = 16;

/**
 * Icons added, removed or swapped (blocks.ts), with what moved along: "an icon was added; 4 icons
 * moved 24 px left". Undefined when no icon came, went or changed, or when they did several of these.
 */
function iconVerdict(
  allBlocks: BlockChange[],
  movedLines: Extract<LineChange, { kind: 'moved' }>[],
  sameLines: Extract<LineChange, { kind: 'same' }>[] = [],
): ReadVerdict | undefined {
  // a blob around text that moved went with it (an avatar and its initials), and one around text
  // that stayed is that text's background restyled (a date whose circle filled in): neither came or went
  const holds = (blob: Box, side: 'before' | 'after') =>
    [...movedLines, ...sameLines].some((l) => centreIn((side === 'before' ? l.before : l.after).box, blob));
  const blocks = allBlocks.filter((b) =>
    b.kind === 'added' ? !holds(b.after.box, 'after') : b.kind === 'removed' ? !holds(b.before.box, 'before') : true,
  );
  const count = (kind: BlockChange['kind']) => blocks.filter((b) => b.kind === kind).length;
  const added = count('added'),
    removed = count('removed'),
    swapped = count('swapped');
  if ([added, removed, swapped].filter((n) => n > 0).length !== 1) return undefined;
  // (a shift of a pixel or two is how a faded or restyled line matches best, not a push)
  const far = (v: { dx: number; dy: number }) => Math.max(Math.abs(v.dx), Math.abs(v.dy)) > 2;
  const movedBlocks = blocks.filter((b): b is Extract<BlockChange, { kind: 'same' | 'moved' }> => b.kind === 'moved').filter(far);
  movedLines = movedLines.filter(far);
  const shifts = [...movedBlocks.map((b) => ({ dx: b.dx, dy: b.dy })), ...movedLines.map((m) => ({ dx: m.dx, dy: m.dy }))];
  const common =
    shifts.length && shifts.every((v) => Math.abs(v.dx - shifts[0].dx) <= 2 && Math.abs(v.dy - shifts[0].dy) <= 2) ? shifts[0] : undefined;
  // content moving several ways around an icon that came or went (blocks traded places): a
  // rearrangement the models describe, in which one blob was not matched
  if (shifts.length && !common && (added || removed)) return undefined;
  const alongParts = [
    ...(movedBlocks.length ? [`${movedBlocks.length === 1 ? 'an icon' : `${movedBlocks.length} icons`}`] : []),
    ...(movedLines.length ? [quoteList(movedLines.map((m) => m.after.text)).words] : []),
  ];
  const along = common && alongParts.length ? `${alongParts.join(' and ')} moved ${shiftWords(common.dx, common.dy)}` : undefined;
  const pushed = common && shifts.length ? { pushed: { lines: shifts.length, ...common } } : {};
  // (what moved along moved by about the icon's own size, plus a gap: the icon made room for itself,
  // or its room closed - content pushed by something else moves by any distance)
  const roomOf = (b: Box) => {
    if (!common) return false;
    const [d, size] = Math.abs(common.dx) >= Math.abs(common.dy) ? [Math.abs(common.dx), b[2] - b[0]] : [Math.abs(common.dy), b[3] - b[1]];
    return d >= 0.8 * size && d <= size + ICON_GAP;
  };
  const came = added + removed === 1 ? blocks.find((b) => b.kind === 'added' || b.kind === 'removed') : undefined;
  const madeRoom = came?.kind === 'added' ? roomOf(came.after.box) : came?.kind === 'removed' ? roomOf(came.before.box) : false;
  if (added)
    return {
      kind: 'add',
      ...withDetail(`${added === 1 ? 'an icon was' : `${added} icons were`} added`, along),
      ...pushed,
      ...(madeRoom ? { madeRoom: true } : {}),
      basis: 'shapes',
    };
  if (removed)
    return {
      kind: 'remove',
      ...withDetail(`${removed === 1 ? 'an icon was' : `${removed} icons were`} removed`, along),
      ...pushed,
      ...(madeRoom ? { madeRoom: true } : {}),
      basis: 'shapes',
    };
  return {
    kind: 'icon',
    caption: swapped === 1 ? 'an icon was replaced by another' : `${swapped} icons were replaced by others`,
    basis: 'shapes',
  };
}

/** The reader's caption of two quoted elements that traded places ("'A' and 'B' swapped places"). */
export const SWAP_CAPTION = /^('[^']*') and ('[^']*') swapped places$/;

/** The letters and digits of a text, case folded: what stays when only the font changed. */
export function lettersOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** 'text', cut to MAX_QUOTE characters. */
export function quote(text: string): string {
  const t = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1).trimEnd()}…` : text;
  return `'${t}'`;
}

/** "16 px left and 12 px down", "1 px down". */
export function shiftWords(dx: number, dy: number): string {
  const parts: string[] = [];
  if (dx) parts.push(`${Math.abs(dx)} px ${dx < 0 ? 'left' : 'right'}`);
  if (dy) parts.push(`${Math.abs(dy)} px ${dy < 0 ? 'up' : 'down'}`);
  return parts.join(' and ');
}

/** The words of some lines, whatever line each is on (sorted keys): the same for a paragraph re-wrapped. */
export function wordsOf(lines: TextLine[]): string {
  return lines
    .flatMap((l) => l.text.split(' '))
    .map(textKey)
    .filter(Boolean)
    .sort()
    .join(' ');
}

/** A list of quotes: "'a'", "'a' and 'b'", "'a' and 3 more lines". */
export function quoteList(texts: string[]): { words: string; plural: boolean } {
  // numbers read as numbers: "the numbers 0 and 1" (row indices, counters)
  if (texts.length >= 2 && texts.length <= 4 && texts.every((t) => /^[-+]?[\d.,]+$/.test(t))) {
    return { words: `the numbers ${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`, plural: true };
  }
  if (texts.length === 1) return { words: quote(texts[0]), plural: false };
  if (texts.length === 2) return { words: `${quote(texts[0])} and ${quote(texts[1])}`, plural: true };
  return { words: `${quote(texts[0])} and ${texts.length - 1} more lines`, plural: true };
}

/** The common shift of moved lines, when they all moved the same way (within 2 px). */
export function commonShift(moved: Extract<LineChange, { kind: 'moved' }>[]): { dx: number; dy: number } | undefined {
  if (!moved.length) return undefined;
  const { dx, dy } = moved[0];
  return moved.every((m) => Math.abs(m.dx - dx) <= 2 && Math.abs(m.dy - dy) <= 2) ? { dx, dy } : undefined;
}

/**
 * Whether content at `moved` that moved by `shift` is what taking out an element at `at` (change
 * 'remove') or putting one in there ('add') moves, both boxes on the side that shows the element:
 * toward the room a removal frees, away from an insertion, by about the element's size along the
 * move - all of it for content after the element, half of it for content before (a centred dialog
 * or row closes or opens the room on both sides). A diagonal move (a grid's items wrapping anew) is
 * not judged.
 */
export function movedByRoomOf(change: 'add' | 'remove', at: Box, moved: Box, shift: { dx: number; dy: number }): boolean {
  const sign = change === 'remove' ? -1 : 1;
  const judge = (d: number, size: number, after: boolean, before: boolean): boolean => {
    if (after) return sign * d > 0 && Math.abs(d) >= size - ROOM_TOLERANCE;
    if (before) return sign * d < 0 && Math.abs(d) >= size / 2 - ROOM_TOLERANCE;
    return false;
  };
  const cx = (at[0] + at[2]) / 2,
    cy = (at[1] + at[3]) / 2;
  if (Math.abs(shift.dx) <= 1 && shift.dy !== 0) return judge(shift.dy, at[3] - at[1], moved[1] >= cy, moved[3] <= cy);
  if (Math.abs(shift.dy) <= 1 && shift.dx !== 0) {
    const onRow = moved[1] < at[3] && at[1] < moved[3];
    return onRow && judge(shift.dx, at[2] - at[0], moved[0] >= cx, moved[2] <= cx);
  }
  return true;
}
/** Whether lines that moved together (`moved`, by `shift`) made room for lines put in or took the
 * room of lines taken out (movedByRoomOf): content moving the other way moved by itself, and the
 * words went only from view - the models, which see the element, say whether it was hidden. */
function pushedByRoom(change: 'add' | 'remove', at: Box | undefined, moved: Box[], shift: { dx: number; dy: number }): boolean {
  const by = unionOf(moved);
  return !at || !by || movedByRoomOf(change, at, by, shift);
}
/** How much less (px) than the element's size the content it pushed may move (its box is its ink's). */
const ROOM_TOLERANCE = 2;

/** "the 'Save' button" ("a button 'Save'") where one line's element is known, else the quote alone. */
function named(lines: TextLine[], words: string, article: 'the' | 'a' = 'the'): string {
  const role = lines.length === 1 ? lines[0].role : undefined;
  if (!role) return words;
  return article === 'the' ? `the ${words} ${role}` : `${role === 'input' ? 'an' : 'a'} ${role} ${words}`;
}

/** Words gone (come) whose letters the other side still draws faintly (RegionReading.faint): their colour changed to about their background's. */
function faintVerdict(reading: RegionReading, lines: TextLine[]): ReadVerdict | undefined {
  const faint = lines.map((l) => reading.faint?.[l.text]);
  if (!lines.length || !faint.every((f) => f)) return undefined;
  // the words are still there, in a colour that hardly stands out from their background (or in one
  // that now does)
  const { before: from, after: to, faded } = faint[0]!;
  const words = quoteList(lines.map((l) => l.text)).words;
  const alike = faint.every((f) => f!.before === from && f!.after === to && f!.faded === faded);
  const how = faded ? 'close to its background now' : 'standing out from its background now';
  return {
    kind: 'color',
    caption:
      alike && from !== to
        ? `${named(lines, words)} changed colour from ${from} to ${to}, ${how}`
        : `${named(lines, words)} changed colour, ${how}`,
    basis: 'pixels',
    refilled: true,
    ...(lines.length === 1 ? { subject: lines[0].text } : {}),
  };
}

/** A colour verdict for lines that vanished (or appeared) on an element recoloured to their own
 * colour (RegionReading.refilled): every line's fill changed the same way. */
function refilledVerdict(reading: RegionReading, lines: TextLine[]): ReadVerdict | undefined {
  const fills = lines.map((l) => reading.refilled?.[l.text]);
  const first = fills[0];
  if (!first || fills.some((f) => !f || f.before !== first.before || f.after !== first.after)) return faintVerdict(reading, lines);
  const words = quoteList(lines.map((l) => l.text)).words;
  return {
    kind: 'color',
    caption: `${named(lines, words)} changed colour from ${first.before} to ${first.after}`,
    basis: 'pixels',
    refilled: true,
    ...(lines.length === 1 ? { subject: lines[0].text } : {}),
  };
}

/** The one sentence for a re-wording: "'Select...' now reads 'Choose an option'", or the changed words inside a longer line. */
export function rewordingCaption(before: string, after: string, role?: TextLine['role']): string {
  const words = changedWords(before, after);
  if (!words.partial) return `the ${role ?? 'text'} ${quote(before)} now reads ${quote(after)}`;
  if (!words.before) return `${quote(words.after)} was added to the text ${quote(after)}`;
  if (!words.after) return `${quote(words.before)} was removed from the text ${quote(before)}`;
  return `${quote(words.before)} now reads ${quote(words.after)} in the text ${quote(after)}`;
}

/**
 * The removed lines that content pushed down ran over: each lies below lines that moved, and either
 * the push would carry it past the bottom of the screenshot, or a moved line now sits on its place (a
 * menu that grew over a table, a scrolled list whose last item left its frame): it went out of view.
 * A line removed above the moved ones, or with the content moving up or sideways, is a removal.
 */
export function overrunLines(
  removed: Extract<LineChange, { kind: 'removed' }>[],
  moved: Extract<LineChange, { kind: 'moved' }>[],
  push: { dx: number; dy: number },
  size: { width: number; height: number } | undefined,
): Extract<LineChange, { kind: 'removed' }>[] {
  // (down only: along a row, a right-aligned or centred group closes the gap of a removed item by
  // moving the items before it right, onto its place)
  if (!(push.dy > 0 && Math.abs(push.dx) <= 2) || !moved.length) return [];
  return removed.filter((r) => {
    const b = r.before.box;
    if (!moved.some((m) => m.before.box[1] < b[1])) return false;
    return (size && translate(b, push.dx, push.dy)[3] > size.height) || moved.some((m) => intersects(m.after.box, b));
  });
}

/** Shortest move up (px) that can bring a line in from below the screenshot's bottom edge. */
const RISE_SHIFT = 4;

/**
 * The added lines that content moving up brought in from below the screenshot's bottom edge: each
 * lies below a line that moved up, and moved back by that line's shift it would sit (mostly) below the
 * bottom of the screenshot (the same size before and after): it came into view, it was not added.
 */
export function risenIntoView(
  added: Extract<LineChange, { kind: 'added' }>[],
  moved: Extract<LineChange, { kind: 'moved' }>[],
  size: { width: number; height: number } | undefined,
): Extract<LineChange, { kind: 'added' }>[] {
  if (!size) return [];
  return added.filter((a) => {
    const above = nearestAbove(moved, a.after.box, 'after');
    return !!above && above.dy <= -RISE_SHIFT && belowBottom(a.after.box, -above.dy, size.height);
  });
}

/**
 * Content moved diagonally by the same distance on both axes (right and down, or left and up): the
 * padding of what holds it grew or shrank on every side ("more space around 'Tickets'"); the move
 * is the detail. Undefined for any other shift.
 */
export function paddingVerdict(words: string, shift: { dx: number; dy: number }, subject?: string): ReadVerdict | undefined {
  const sameWay = Math.sign(shift.dx) === Math.sign(shift.dy);
  if (!sameWay || Math.abs(shift.dx - shift.dy) > 1 || Math.min(Math.abs(shift.dx), Math.abs(shift.dy)) < PADDING_SHIFT) return undefined;
  const detail = `${words} moved ${shiftWords(shift.dx, shift.dy)}`;
  return {
    kind: 'spacing',
    ...withDetail(`${shift.dx > 0 ? 'more' : 'less'} space around ${words}`, detail),
    basis: 'words',
    shift: { dx: shift.dx, dy: shift.dy },
    ...(subject !== undefined ? { subject } : {}),
  };
}

/**
 * A button that grew or shrank around the same label. Both its width and height changed, the label
 * as far from the button's centre as before: its padding changed (padding is set around a label on every side;
 * a width or a height is set one at a time). One of the two changed: it was resized.
 */
function buttonVerdict(reading: RegionReading): ReadVerdict | undefined {
  // of several buttons in one row, the one that grew (or shrank) both ways is the one re-padded; the
  // others only stretch or give way
  const change = (x: { before: Box; after: Box }) => [sizeOf(x.after)[0] - sizeOf(x.before)[0], sizeOf(x.after)[1] - sizeOf(x.before)[1]];
  const bothWays = ([w, h]: number[]) => Number(Math.abs(w) >= BUTTON_RESIZED && Math.abs(h) >= BUTTON_RESIZED && w * h > 0);
  const b = [...(reading.buttons ?? [])].sort((p, q) => {
    const [cp, cq] = [change(p), change(q)];
    return bothWays(cq) - bothWays(cp) || Math.abs(cq[0]) + Math.abs(cq[1]) - Math.abs(cp[0]) - Math.abs(cp[1]);
  })[0];
  if (!b) return undefined;
  // content above the buttons that moved too was carried by their container, which changed (a card's
  // new padding stretches the button in it); what a button pushes lies after it
  const labels = new Set((reading.buttons ?? []).map((x) => x.labelBefore));
  const top = Math.min(...(reading.buttons ?? []).map((x) => x.before[1]));
  // (... unless it moved straight up with the button's top: a centred dialog grew around the button,
  // moving up everything above it by as much as the button's top)
  const risen = b.after[1] - b.before[1];
  const carried = (c: LineChange) =>
    c.kind === 'moved' && !labels.has(c.before.box) && c.before.box[3] <= top && !(risen < 0 && c.dx === 0 && Math.abs(c.dy - risen) <= 1);
  if (reading.changes.some(carried)) return undefined;
  const [wb, hb] = sizeOf(b.before),
    [wa, ha] = sizeOf(b.after);
  const [dw, dh] = change(b);
  // where the label sits against the button's centre (its ink is seldom centred: descenders)
  const offCentre = (box: Box, label: Box) => [label[0] - box[0] - (box[2] - label[2]), label[1] - box[1] - (box[3] - label[3])];
  const [xb, yb] = offCentre(b.before, b.labelBefore),
    [xa, ya] = offCentre(b.after, b.labelAfter);
  const centred = Math.abs(xa - xb) <= BUTTON_RESIZED && Math.abs(ya - yb) <= BUTTON_RESIZED;
  // (buttons side by side change together, one re-padded, the others giving way: which one is not
  // told by the pixels, so all are named)
  const others = (reading.buttons ?? []).filter((x) => x !== b).map((x) => x.text);
  const name = others.length ? `the ${quoteList([b.text, ...others]).words} buttons` : `the ${quote(b.text)} button`;
  const detail = `${others.length ? quote(b.text) : 'it'} is now ${wa} x ${ha} px, was ${wb} x ${hb}`;
  // (2 px on the other side is a padding only where the button grew from a kept edge: one grown
  // about its centre - in a centred dialog - may be a pixel wider or narrower by rounding alone)
  const keptEdge =
    Math.abs(dh) > Math.abs(dw)
      ? Math.abs(b.after[1] - b.before[1]) <= 1 || Math.abs(b.after[3] - b.before[3]) <= 1
      : Math.abs(b.after[0] - b.before[0]) <= 1 || Math.abs(b.after[2] - b.before[2]) <= 1;
  const paddedToo = Math.min(Math.abs(dw), Math.abs(dh)) >= PADDED_TOO && keptEdge;
  // a button is padded wider than tall, so one padding written on every side grows it at least as
  // much in height as in width: grown far more in width than in height, it was given a new size
  if (dw > 0 && dh >= BUTTON_RESIZED && dw - dh >= WIDER_THAN_PADDED)
    return {
      kind: 'resize',
      ...withDetail(`${name} got larger`, detail),
      basis: 'pixels',
      subject: b.text,
      sized: true,
    };
  if ((Math.abs(dw) >= BUTTON_RESIZED || paddedToo) && (Math.abs(dh) >= BUTTON_RESIZED || paddedToo)) {
    if (!centred) return undefined;
    return {
      kind: 'spacing',
      ...withDetail(`${name} got ${dw + dh > 0 ? 'more' : 'less'} padding`, detail),
      basis: 'pixels',
      subject: b.text,
      sized: true,
    };
  }
  // a width or height set on a button keeps one of its edges (it grows from its start or its end);
  // one that moved on both sides was stretched or squeezed by its container (a card's new padding)
  const wide = Math.abs(dw) >= BUTTON_RESIZED;
  // (a button given a height in a vertically centred dialog grows up and down by as much, its width
  // kept: the dialog grew around it; one stretched by its container's new padding changes width too)
  const aboutCentre = !wide && Math.abs(dw) <= 1 && Math.abs(b.before[1] - b.after[1] - (b.after[3] - b.before[3])) <= 1;
  const anchored = wide
    ? Math.abs(b.after[0] - b.before[0]) <= 1 || Math.abs(b.after[2] - b.before[2]) <= 1
    : Math.abs(b.after[1] - b.before[1]) <= 1 || Math.abs(b.after[3] - b.before[3]) <= 1 || aboutCentre;
  if (!anchored) return undefined;
  const resized = { along: wide ? 'width' : 'height', by: wide ? dw : dh } as const;
  // narrower around its whole label, still centred, its height kept: it lost padding at its sides
  // (a padding cannot cut into the label; a width set smaller often does, so a narrower button with
  // its label whole and centred was more often re-padded than given a width)
  if (wide && dw < 0 && centred)
    return {
      kind: 'spacing',
      ...withDetail(`${name} got less padding at its sides`, detail),
      basis: 'pixels',
      subject: b.text,
      sized: true,
      resized,
    };
  const word = wide ? (dw > 0 ? 'wider' : 'narrower') : dh > 0 ? 'taller' : 'shorter';
  return {
    kind: 'resize',
    ...withDetail(`${name} got ${word}`, detail),
    basis: 'pixels',
    subject: b.text,
    sized: true,
    resized,
  };
}

/**
 * An input field given a new size around the text it kept in place (RegionReading.fields). The lines
 * that moved lie below or beside it (it pushed them), and a move down or up is the change of its
 * height; content above it that moved was moved by something else.
 */
function fieldVerdict(
  reading: RegionReading,
  moved: Extract<LineChange, { kind: 'moved' }>[],
  pushedShift: { dx: number; dy: number } | undefined,
  overrunWords: string,
): ReadVerdict | undefined {
  const f = reading.fields?.[0];
  if (!f) return undefined;
  if (moved.some((m) => m.before.box[3] <= f.before[1])) return undefined;
  const [wb, hb] = sizeOf(f.before),
    [wa, ha] = sizeOf(f.after);
  const [dw, dh] = [wa - wb, ha - hb];
  if (moved.length && (!pushedShift || (pushedShift.dy !== 0 && Math.abs(pushedShift.dy - dh) > 2))) return undefined;
  const wide = Math.abs(dw) >= BUTTON_RESIZED,
    tall = Math.abs(dh) >= BUTTON_RESIZED;
  const word =
    wide && tall && dw * dh > 0
      ? dw > 0
        ? 'larger'
        : 'smaller'
      : [...(wide ? [dw > 0 ? 'wider' : 'narrower'] : []), ...(tall ? [dh > 0 ? 'taller' : 'shorter'] : [])].join(' and ');
  const s = moved.length ? quoteList(moved.map((m) => m.after.text)) : undefined;
  return {
    kind: 'resize',
    ...withDetail(
      `the ${quote(f.text)} input got ${word}`,
      `it is now ${wa} x ${ha} px, was ${wb} x ${hb}` +
        (s ? `; ${s.words} moved ${shiftWords(pushedShift!.dx, pushedShift!.dy)}` : '') +
        (overrunWords ? `; ${overrunWords}` : ''),
    ),
    basis: 'pixels',
    subject: f.text,
    sized: true,
    ...(wide !== tall ? { resized: { along: wide ? 'width' : 'height', by: wide ? dw : dh } } : {}),
  };
}

/**
 * An element cut by the region's top edge whose bottom moved (RegionReading.cut): it was given a new
 * height, and the lines that moved, moved with its bottom edge (by the same shift, within a pixel or
 * two) - content that moved otherwise was moved by something else.
 */
function cutVerdict(
  reading: RegionReading,
  moved: Extract<LineChange, { kind: 'moved' }>[],
  pushedShift: { dx: number; dy: number } | undefined,
): ReadVerdict | undefined {
  const cut = reading.cut;
  if (!cut) return undefined;
  const dh = cut.after[3] - cut.before[3];
  if (moved.length && (!pushedShift || Math.abs(pushedShift.dx) > 1 || Math.abs(pushedShift.dy - dh) > 2)) return undefined;
  const name = cut.text ? (cut.role ? `the ${quote(cut.text)} ${cut.role}` : `the box of ${quote(cut.text)}`) : 'the box above';
  const s = moved.length ? quoteList(moved.map((m) => m.after.text)) : undefined;
  return {
    kind: 'resize',
    ...withDetail(
      `${name} got ${dh > 0 ? 'taller' : 'shorter'}`,
      `its bottom edge moved ${shiftWords(0, dh)}${s ? `, and ${s.words} with it` : ''}`,
    ),
    basis: 'pixels',
    ...(cut.text ? { subject: cut.text } : {}),
    sized: true,
    resized: { along: 'height', by: dh },
  };
}

/** Shortest move (px) of a line or an icon that trades places with the other (iconCrossing). */
const CROSSING_SHIFT = 6;

/**
 * The icon of `blocks` that moved the opposite way to `line` along the same row (or column) and
 * crossed it: after it before and before it after (or the other way round).
 */
function iconCrossing(line: Extract<LineChange, { kind: 'moved' }>, blocks: BlockChange[]): BlockChange | undefined {
  const alongX = Math.abs(line.dx) >= CROSSING_SHIFT && Math.abs(line.dy) <= 2;
  const alongY = Math.abs(line.dy) >= CROSSING_SHIFT && Math.abs(line.dx) <= 2;
  if (!alongX && !alongY) return undefined;
  const [lo, hi] = alongX ? [0, 2] : [1, 3];
  return blocks.find((b) => {
    if (b.kind !== 'moved') return false;
    const [d, other] = alongX ? [b.dx, b.dy] : [b.dy, b.dx];
    if (Math.abs(other) > 2 || Math.abs(d) < CROSSING_SHIFT || Math.sign(d) === Math.sign(alongX ? line.dx : line.dy)) return false;
    // (the line moved forward: the icon was past its end and is now before its start; or backward)
    return Math.sign(d) < 0
      ? b.before.box[lo] >= line.before.box[hi] - 2 && b.after.box[hi] <= line.after.box[lo] + 2
      : b.before.box[hi] <= line.before.box[lo] + 2 && b.after.box[lo] >= line.after.box[hi] - 2;
  });
}

/**
 * The verdict of a reading: text first (re-worded, added, removed lines, with the lines they pushed),
 * then moves of the region's content (lines or pixels), then a recolour. Undefined when the reading
 * explains nothing (no text difference, no clean shift, no consistent recolour): the model's caption stands.
 */
export function verdictOf(reading: RegionReading): ReadVerdict | undefined {
  const { changes, shift, colour } = reading;
  // every line said added (removed) still has half its ink or more drawn at its place on the other side
  const stillDrawn = (texts: string[]) => texts.every((t) => (reading.inPlace?.[t] ?? 0) >= STILL_DRAWN);
  let reworded = changes.filter((c): c is Extract<LineChange, { kind: 'reworded' }> => c.kind === 'reworded');
  let added = changes.filter((c): c is Extract<LineChange, { kind: 'added' }> => c.kind === 'added');
  let removed = changes.filter((c): c is Extract<LineChange, { kind: 'removed' }> => c.kind === 'removed');
  // a re-worded line that now wraps (or wrapped before) continues on the added (removed) line just below it
  // (broken elsewhere: its first line's words differ while the whole paragraph's are the same)
  const brokenElsewhere = new Set<LineChange>();
  reworded = reworded.map((r) => {
    const after = withContinuation(
      r.after,
      added.map((a) => a.after),
    );
    const before = withContinuation(
      r.before,
      removed.map((x) => x.before),
    );
    added = added.filter((a) => !after.used.includes(a.after));
    removed = removed.filter((x) => !before.used.includes(x.before));
    const joined = { ...r, before: before.line, after: after.line };
    const pitch = (first: TextLine, used: TextLine[]) => (used.length ? used[0].box[1] - first.box[1] : undefined);
    const [pb, pa] = [pitch(r.before, before.used), pitch(r.after, after.used)];
    if (
      (before.used.length || after.used.length) &&
      lettersOf(r.before.text) !== lettersOf(r.after.text) &&
      Math.abs(r.before.box[3] - r.before.box[1] - (r.after.box[3] - r.after.box[1])) <= REWRAP_HEIGHT &&
      (pb === undefined || pa === undefined || Math.abs(pb - pa) <= REWRAP_HEIGHT)
    )
      brokenElsewhere.add(joined);
    return joined;
  });
  const moved = changes.filter((c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved');
  const same = changes.filter((c): c is Extract<LineChange, { kind: 'same' }> => c.kind === 'same');
  const pushedShift = commonShift(moved);
  const pushed = pushedShift && moved.length ? { lines: moved.length, ...pushedShift } : undefined;
  // lines below content pushed down went out of view (past the bottom edge, or under what moved onto
  // them), and lines another region's content uncovered or covered (acrossRegions): consequences of a
  // push, not removals or additions
  const overrun = pushed ? overrunLines(removed, moved, pushed, reading.size) : [];
  if (overrun.length) removed = removed.filter((x) => !overrun.includes(x));
  const risen = risenIntoView(added, moved, reading.size);
  if (risen.length) added = added.filter((x) => !risen.includes(x));
  const wentOut = [...overrun.map((x) => x.before.text), ...(reading.covered ?? [])];
  const cameIn = [...risen.map((x) => x.after.text), ...(reading.uncovered ?? [])];
  const overrunWords = [
    ...(wentOut.length ? [`${quoteList(wentOut).words} went out of view`] : []),
    ...(cameIn.length ? [`${quoteList(cameIn).words} came into view`] : []),
  ].join(' and ');
  const pushClause = pushed
    ? `${moved.length === 1 ? `${quote(moved[0].after.text)}` : `${moved.length} lines`} moved ${shiftWords(pushed.dx, pushed.dy)}` +
      (overrunWords ? ` and ${overrunWords}` : '')
    : undefined;

  // lines that traded places read as re-wordings whose old and new words are the same set: a reorder
  // (reading.swapped: the same across regions, found by acrossRegions)
  const keys = (texts: string[]) => texts.map(textKey).sort().join('\n');
  const permuted =
    reworded.length >= 2 &&
    reworded.some((r) => textKey(r.before.text) !== textKey(r.after.text)) &&
    keys(reworded.map((r) => r.before.text)) === keys(reworded.map((r) => r.after.text));
  if (permuted || reading.swapped) {
    const [a, b] = reading.swapped ?? [reworded[0].before.text, reworded[0].after.text];
    return { kind: 'reorder', caption: `${quote(a)} and ${quote(b)} swapped places`, basis: 'words' };
  }
  // labels cut off where their element got smaller than them: that element's new size
  const clippedAt = reworded.map((r) => reading.clipped?.[r.before.text]);
  if (reworded.length && !added.length && !removed.length && clippedAt.every((c) => c)) {
    const first = reworded[0].before;
    const { size, where } = CLIP_WORDS[clippedAt[0]!.side];
    return {
      kind: 'resize',
      ...withDetail(`the ${quote(first.text)} ${clippedAt[0]!.role} got ${size}: its text is cut off ${where}`, pushClause),
      basis: 'words',
      subject: first.text,
      sized: true,
    };
  }
  // the same letters drawn differently (another font, size or weight) are a restyle, not new words
  const restyled = reworded.filter((r) => lettersOf(r.before.text) === lettersOf(r.after.text) && lettersOf(r.after.text).length >= 2);
  // ... unless they are a paragraph broken into lines at other places, its lines as tall and as far
  // apart as before: the text re-wrapped in a box that changed width or padding (a new font size
  // changes the lines' height and spacing). New padding where the paragraph moved as far right as
  // down; otherwise a layout change the models describe
  if (
    reworded.length &&
    restyled.length === reworded.length &&
    restyled.every((r) => brokenElsewhere.has(r)) &&
    !added.length &&
    !removed.length
  ) {
    const first = restyled[0];
    const shift = { dx: first.after.box[0] - first.before.box[0], dy: first.after.box[1] - first.before.box[1] };
    return paddingVerdict(quote(first.after.text), shift, first.after.text);
  }
  // (lines that came or went beside it are what the restyled element, grown or shrunk, covered or
  // uncovered: the detail, not new words - the same words never "now read" as themselves)
  if (reworded.length && restyled.length === reworded.length) {
    const r = restyled[0];
    const wb = r.before.box[2] - r.before.box[0],
      wa = r.after.box[2] - r.after.box[0];
    const width = Math.abs(wa - wb) >= 3 ? `: it is ${Math.abs(wa - wb)} px ${wa > wb ? 'wider' : 'narrower'}` : '';
    const hb = r.before.box[3] - r.before.box[1],
      ha = r.after.box[3] - r.after.box[1];
    const cameOrWent = [
      ...(added.length ? [`${quoteList(added.map((a) => a.after.text)).words} appeared`] : []),
      ...(removed.length ? [`${quoteList(removed.map((x) => x.before.text)).words} disappeared`] : []),
    ].join(' and ');
    return {
      kind: 'font',
      ...withDetail(`the font of the text ${quote(r.after.text)} changed${width}`, cameOrWent || undefined),
      basis: 'words',
      subject: r.after.text,
      ...(Math.abs(wa - wb) >= RESIZED_GLYPHS.width || Math.abs(ha - hb) >= RESIZED_GLYPHS.height ? { glyphsResized: true } : {}),
    };
  }
  // beside new words, a line only drawn differently is not what the caption quotes
  if (restyled.length < reworded.length) reworded = reworded.filter((r) => !restyled.includes(r));
  // the same words on both sides, broken into lines differently ("meeting page" / "Feature mobile
  // server" -> "Feature mobile server meeting" / "page"): the text re-wrapped because its box changed
  // size or padding - a layout change, which the models describe
  const oldLines = [...reworded.map((r) => r.before), ...removed.map((r) => r.before)];
  const newLines = [...reworded.map((r) => r.after), ...added.map((a) => a.after)];
  if (oldLines.length + newLines.length >= 3 && oldLines.length && newLines.length && wordsOf(oldLines) === wordsOf(newLines))
    return undefined;
  // (so is a region where text wrapped anew and no words came or went; a line only cut by the
  // screenshot's edge, with nothing else changed, is for the models to describe too)
  const rewrapped = changes.filter((c) => c.kind === 'rewrapped');
  const wrapped = rewrapped.some((c) => !c.cut);
  if (rewrapped.length && !reworded.length && !added.length && !removed.length && (wrapped || !moved.length)) return undefined;
  if (reworded.length) {
    const first = reworded[0];
    let caption = rewordingCaption(first.before.text, first.after.text, first.after.role ?? first.before.role);
    if (reworded.length === 2) caption += ` and ${rewordingCaption(reworded[1].before.text, reworded[1].after.text)}`;
    else if (reworded.length > 2) caption += ` and ${reworded.length - 1} more lines changed`;
    if (added.length) caption += `; ${quoteList(added.map((a) => a.after.text)).words} appeared`;
    if (removed.length) caption += `; ${quoteList(removed.map((r) => r.before.text)).words} disappeared`;
    return {
      kind: 'text',
      ...withDetail(caption, pushClause),
      textBefore: first.before.text,
      textAfter: first.after.text,
      ...(pushed ? { pushed } : {}),
      basis: 'words',
    };
  }
  if (added.length && removed.length && pushed) {
    // lines gone in one place and others come in another, with the lines between moving toward
    // where the first went: that is a removal (what followed moved up or left, and the end of a
    // scrolled list brought new lines into view) or an insertion (the other way), not a replacement
    const gone = unionOf(removed.map((x) => x.before.box))!,
      come = unionOf(added.map((x) => x.after.box))!;
    if (!intersects(gone, come)) {
      const a = quoteList(added.map((x) => x.after.text)),
        r = quoteList(removed.map((x) => x.before.text));
      const pulled = pushed.dy < 0 || (pushed.dy === 0 && pushed.dx < 0);
      const movedWords = `${moved.length === 1 ? quote(moved[0].after.text) : `${moved.length} lines`} moved ${shiftWords(pushed.dx, pushed.dy)}`;
      return pulled
        ? {
            kind: 'remove',
            ...withDetail(`${r.words} ${r.plural ? 'were' : 'was'} removed`, `${movedWords} and ${a.words} came into view`),
            textBefore: removed.map((x) => x.before.text).join('\n'),
            pushed,
            basis: 'words',
          }
        : {
            kind: 'add',
            ...withDetail(`${a.words} ${a.plural ? 'were' : 'was'} added`, `${movedWords} and ${r.words} went out of view`),
            textAfter: added.map((x) => x.after.text).join('\n'),
            pushed,
            basis: 'words',
          };
    }
  }
  if (added.length && removed.length) {
    const a = quoteList(added.map((x) => x.after.text)),
      r = quoteList(removed.map((x) => x.before.text));
    return {
      kind: 'text',
      ...withDetail(`the text ${r.words} ${r.plural ? 'were' : 'was'} replaced by ${a.words}`, pushClause),
      textBefore: removed.map((x) => x.before.text).join('\n'),
      textAfter: added.map((x) => x.after.text).join('\n'),
      ...(pushed ? { pushed } : {}),
      basis: 'words',
    };
  }
  // words gone (come) where the element they sat on is still there, filled with another colour: the
  // element was recoloured, its text now the colour of its fill
  const refill = refilledVerdict(reading, added.length ? added.map((x) => x.after) : removed.map((x) => x.before));
  if (refill && !pushed && !moved.length && !reworded.length && !(added.length && removed.length)) return refill;
  if (added.length) {
    const a = quoteList(added.map((x) => x.after.text));
    const linesBox = unionOf(added.map((x) => x.after.box));
    return {
      kind: 'add',
      ...withDetail(
        `${named(
          added.map((x) => x.after),
          a.words,
          'a',
        )} ${a.plural ? 'were' : 'was'} added`,
        pushClause,
      ),
      textAfter: added.map((x) => x.after.text).join('\n'),
      linesBox,
      ...(pushed &&
      pushedByRoom(
        'add',
        linesBox,
        moved.map((m) => m.after.box),
        pushed,
      )
        ? { pushed }
        : {}),
      ...(stillDrawn(added.map((x) => x.after.text)) ? { stillDrawn: true } : {}),
      basis: 'words',
    };
  }
  if (removed.length) {
    const r = quoteList(removed.map((x) => x.before.text));
    const linesBox = unionOf(removed.map((x) => x.before.box));
    return {
      kind: 'remove',
      ...withDetail(
        `${named(
          removed.map((x) => x.before),
          r.words,
        )} ${r.plural ? 'were' : 'was'} removed`,
        pushClause,
      ),
      textBefore: removed.map((x) => x.before.text).join('\n'),
      linesBox,
      ...(pushed &&
      pushedByRoom(
        'remove',
        linesBox,
        moved.map((m) => m.before.box),
        pushed,
      )
        ? { pushed }
        : {}),
      ...(stillDrawn(removed.map((x) => x.before.text)) ? { stillDrawn: true } : {}),
      basis: 'words',
    };
  }
  // (lines the field's new height pushed out of view or brought into it are its detail)
  const field = fieldVerdict(reading, moved, pushedShift, overrunWords);
  if (field) return field;
  // only lines the push ran over vanished: the region's content moved (the pixels they leave
  // behind are not explained by the shift, so this is said before the shift is checked)
  if (overrunWords && pushed && !added.length && !reworded.length) {
    return {
      kind: 'move',
      ...withDetail(
        `${named(
          moved.map((m) => m.after),
          quoteList(moved.map((m) => m.after.text)).words,
        )} moved ${shiftWords(pushed.dx, pushed.dy)}`,
        overrunWords,
      ),
      basis: 'words',
      shift: { dx: pushed.dx, dy: pushed.dy },
    };
  }
  // only lines that came into or went out of view, nothing moved here: the region is a consequence
  if (overrunWords && !moved.length && !added.length && !removed.length && !reworded.length)
    return { kind: 'reflow', caption: overrunWords, basis: 'words' };
  // nothing re-worded, added or removed: an icon came, went or was swapped, the text changed colour,
  // or the content moved
  const subject = (texts: string[]) => (texts.length ? quoteList(texts) : undefined);
  const recoloured = reading.recoloured ?? [];
  const lines = same.length + moved.length;
  if (recoloured.length && recoloured.length >= 0.5 * lines) {
    const s = subject(recoloured.map((r) => r.text))!;
    const r = recoloured[0];
    const movedToo = pushedShift && moved.length >= 0.5 * lines ? ` and moved ${shiftWords(pushedShift.dx, pushedShift.dy)}` : '';
    // (ink taken toward the background, or back from it, is what a new opacity draws: a fade)
    const fade = recoloured.every((x) => x.fade === r.fade) ? r.fade : undefined;
    if (fade)
      return {
        kind: 'opacity',
        caption:
          fade === 'out'
            ? `${s.words} faded: its text is now ${r.after}, was ${r.before}${movedToo}`
            : `${s.words} faded in: its text is now ${r.after}, was ${r.before}${movedToo}`,
        basis: 'words',
        ...(recoloured.length === 1 ? { subject: r.text } : {}),
      };
    return {
      kind: 'color',
      caption: `the text ${s.words} changed colour from ${r.before} to ${r.after}${movedToo}`,
      basis: 'words',
      ...(recoloured.length === 1 ? { subject: r.text } : {}),
    };
  }
  const blockVerdict = iconVerdict(reading.blocks ?? [], moved, same);
  if (blockVerdict) return blockVerdict;
  // (before the inference from what a moved line left behind: a button that shrank leaves its own
  // old background there)
  const button = buttonVerdict(reading);
  if (button) return button;
  if (moved.length && pushedShift && (pushedShift.dx > 0 || pushedShift.dy > 0) && (reading.vacatedInk ?? 0) >= 0.15) {
    // the lines moved together, no text was added, and where they started there is now something
    // that is not text (a picture, an icon): it was put in before them (an inference from the
    // pixels left behind, hence basis "pixels")
    const s = subject(moved.map((m) => m.after.text))!;
    return {
      kind: 'add',
      caption: `an image or icon was inserted before ${s.words}, which moved ${shiftWords(pushedShift.dx, pushedShift.dy)}`,
      pushed: { lines: moved.length, ...pushedShift },
      basis: 'pixels',
    };
  }
  if (moved.length && pushedShift && (pushedShift.dx < 0 || pushedShift.dy < 0) && (reading.filledInk ?? 0) >= 0.15) {
    // the lines moved together, no text was removed, and where they now start there was something
    // that is not text, which did not move with them: it was removed before them
    const s = subject(moved.map((m) => m.after.text))!;
    return {
      kind: 'remove',
      caption: `an image or icon before ${s.words} was removed, and ${s.plural ? 'they' : 'it'} moved ${shiftWords(pushedShift.dx, pushedShift.dy)}`,
      pushed: { lines: moved.length, ...pushedShift },
      basis: 'pixels',
    };
  }
  const cut = cutVerdict(reading, moved, pushedShift);
  if (cut) return cut;
  // the lines moved and their move explains the region's pixels (a resized or re-spaced container
  // also moves its text, but leaves pixels the move does not explain: the model describes those)
  // (a container whose padding changed moves its text diagonally and redraws its own edges, which
  // no move explains: new padding needs only half the pixels explained)
  const paddedBy = moved.length && pushedShift && (!shift || shift.explained >= PADDING_EXPLAINED);
  const padding = paddedBy
    ? paddingVerdict(subject(moved.map((m) => m.after.text))!.words, pushedShift, moved.length === 1 ? moved[0].after.text : undefined)
    : undefined;
  if (padding) return padding;
  const movedWhole =
    !shift ||
    shift.explained >= MOVE_EXPLAINED ||
    (Math.max(Math.abs(shift.dx), Math.abs(shift.dy)) >= REDRAWN_SHIFT &&
      (shift.explainedWithinAPixel ?? 0) >= MOVE_EXPLAINED_WITHIN_A_PIXEL &&
      moved.every((m) => sameSize(m.before.box, m.after.box)) &&
      reading.movesIntact === true);
  // a line and an icon that moved opposite ways along one row (or column) and crossed - the icon was
  // after the line and is now before it - traded places: a reorder ("'Apply' and an icon swapped places")
  const crossed = moved.length === 1 && pushedShift ? iconCrossing(moved[0], reading.blocks ?? []) : undefined;
  if (crossed) {
    return {
      kind: 'reorder',
      caption: `${quote(moved[0].after.text)} and an icon swapped places`,
      basis: 'words',
      subject: moved[0].after.text,
    };
  }
  if (moved.length && pushedShift && movedWhole) {
    const s = subject(moved.map((m) => m.after.text))!;
    return {
      kind: 'move',
      caption: `${named(
        moved.map((m) => m.after),
        s.words,
      )} moved ${shiftWords(pushedShift.dx, pushedShift.dy)}`,
      basis: 'words',
      shift: { dx: pushedShift.dx, dy: pushedShift.dy },
      ...(moved.length === 1 ? { subject: moved[0].after.text } : {}),
    };
  }
  if (shift && shift.explained >= 0.9 && (shift.dx || shift.dy)) {
    const s = subject(same.map((m) => m.after.text));
    const padding = paddingVerdict(s ? s.words : 'the content here', shift, same.length === 1 ? same[0].after.text : undefined);
    if (padding) return { ...padding, basis: s ? 'words' : 'pixels' };
    return {
      kind: 'move',
      caption: `${s ? s.words : 'the content here'} moved ${shiftWords(shift.dx, shift.dy)}`,
      basis: s ? 'words' : 'pixels',
      shift: { dx: shift.dx, dy: shift.dy },
      ...(same.length === 1 ? { subject: same[0].after.text } : {}),
    };
  }
  // a recolour changes something that is there on both sides: pixels that were or became the
  // background are something added or removed, which the model's caption describes better
  // (two shades of one named colour - a blue button made a darker blue - are a recolour too, unless
  // one is the other taken toward the background, which the models judge as for any fade)
  const shade = colour && colour.before === colour.after ? otherShade(colour, colour.backgroundRgb) : undefined;
  if (
    colour &&
    (colour.before !== colour.after || shade) &&
    colour.consistency >= 0.8 &&
    colour.pixels >= 12 &&
    colour.before !== colour.background &&
    colour.after !== colour.background
  ) {
    const s = subject(same.map((m) => m.after.text));
    const one = same.length === 1 ? { subject: same[0].after.text } : {};
    const afterName = shade ?? colour.after;
    if (!shade && isFade(colour.beforeRgb, colour.afterRgb, colour.backgroundRgb)) {
      return {
        kind: 'opacity',
        caption: `${s ? s.words : 'the content here'} faded: it is now paler, closer to the ${colour.background} background`,
        basis: 'pixels',
        ...one,
      };
    }
    if (colour.onEdge >= 0.7) {
      return {
        kind: 'color',
        caption: `the border${s ? ` around ${s.words}` : ' here'} changed colour from ${colour.before} to ${afterName}`,
        basis: 'pixels',
        ...one,
      };
    }
    return {
      kind: 'color',
      caption: `${s ? s.words : 'the colour here'} changed ${s ? 'colour ' : ''}from ${colour.before} to ${afterName}`,
      basis: 'pixels',
      ...one,
      ...(neitherFaded(colour.beforeMean, colour.afterMean, colour.backgroundRgb) ? { unfaded: true } : {}),
    };
  }
  return undefined;
}
