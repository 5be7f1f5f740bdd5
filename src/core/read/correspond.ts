// Correspondence of text lines before <-> after: every line read in either image is unchanged, moved
// (dx, dy), re-worded (old -> new), added or removed. Pure code over the reader's lines and the
// pixels (for exact shifts); no model runs here.
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import type { TextLine } from './ocr.js';
import { differingAfterShift } from '../jitter.js';
import { borderColour } from './ocr.js';
import { inkColour } from './colour.js';
import { clipTo } from './box.js';

export type LineChange =
  | { kind: 'same'; before: TextLine; after: TextLine }
  | { kind: 'moved'; before: TextLine; after: TextLine; dx: number; dy: number }
  | { kind: 'reworded'; before: TextLine; after: TextLine }
  | { kind: 'added'; after: TextLine }
  | { kind: 'removed'; before: TextLine }
  /** the same words laid out anew: wrapped onto more lines (or fewer), or cut by the screenshot's
   * edge; a side of several lines is given as one line (their words joined, their boxes' union) */
  | { kind: 'rewrapped'; before: TextLine; after: TextLine; cut?: true };

/** Text compared for identity: case, spaces, quotes and the look-alikes of l the reader confuses are folded. */
export function textKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s'"`’‘“”]/g, '')
    .replace(/[|!]/g, 'l');
}

/**
 * Text compared for identity when an icon beside it may have been read as a character: a leading
 * symbol ("> Add item", "→ Add item", "三Share") or a lone letter before a word ("Q Get started": a
 * magnifier) is dropped.
 */
export function coreKey(text: string): string {
  const core = text.trim().replace(/^(?:[^A-Za-z0-9À-ɏ\s]+\s*(?=[A-Za-z])|[A-Za-z]\s+(?=[A-Za-z]{2}))/, '');
  return textKey(core);
}

/** Levenshtein distance between two sequences (characters of a string, or words). */
export function editDistance<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Levenshtein similarity of two strings, 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (!a.length || !b.length) return 0;
  return 1 - editDistance(a, b) / Math.max(a.length, b.length);
}

const centre = (b: Box) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * The exact shift of a line's pixels: around the shift of its boxes (the detector's boxes wobble by a
 * pixel or two, and may take in a neighbour on one side), the (dx, dy) within +-`search` of the shift of
 * their centres, left or right edges that leaves the fewest differing pixels inside the after box.
 * Returns the shift of the centres when the images are not given.
 */
export function lineShift(
  before: RgbaImage | undefined,
  after: RgbaImage | undefined,
  b: Box,
  a: Box,
  search = 3,
): { dx: number; dy: number } {
  const [cbx, cby] = centre(b),
    [cax, cay] = centre(a);
  const ex = Math.round(cax - cbx),
    ey = Math.round(cay - cby);
  if (!before || !after) return { dx: ex, dy: ey };
  const inner = clipTo(after, a);
  // the boxes' centres, left edges or right edges may be the ones that moved with the text (a box
  // can take in a neighbour on one side only)
  const starts = [
    [ex, ey],
    [a[0] - b[0], a[1] - b[1]],
    [a[2] - b[2], a[3] - b[3]],
  ];
  let best = { dx: ex, dy: ey, count: Infinity };
  const tried = new Set<string>();
  for (const [sx, sy] of starts) {
    for (let dy = sy - search; dy <= sy + search; dy++) {
      for (let dx = sx - search; dx <= sx + search; dx++) {
        if (tried.has(`${dx},${dy}`)) continue;
        tried.add(`${dx},${dy}`);
        const clip: Box = [
          Math.max(inner[0], dx),
          Math.max(inner[1], dy),
          Math.min(inner[2], before.width + dx),
          Math.min(inner[3], before.height + dy),
        ];
        if (clip[2] <= clip[0] || clip[3] <= clip[1]) continue;
        const count = differingAfterShift(before, after, clip, dx, dy, 40, best.count);
        const penalised = count + 0.01 * (Math.abs(dx - ex) + Math.abs(dy - ey));
        if (penalised < best.count) best = { dx, dy, count: penalised };
      }
    }
  }
  return { dx: best.dx, dy: best.dy };
}

/** True when the pixels of `afterBox` are the same in both images once moved by (dx, dy): at most 8% differ (a glyph re-rasterised at a new sub-pixel offset). */
export function samePixels(before: RgbaImage, after: RgbaImage, afterBox: Box, dx: number, dy: number): boolean {
  const clip: Box = [
    Math.max(0, afterBox[0], dx),
    Math.max(0, afterBox[1], dy),
    Math.min(after.width, afterBox[2], before.width + dx),
    Math.min(after.height, afterBox[3], before.height + dy),
  ];
  const area = (clip[2] - clip[0]) * (clip[3] - clip[1]);
  // a box mostly outside the other image (content in the part a taller screenshot added) is not the same
  if (area <= 0.8 * (afterBox[2] - afterBox[0]) * (afterBox[3] - afterBox[1])) return false;
  return differingAfterShift(before, after, clip, dx, dy, 40, Math.ceil(0.08 * area)) <= 0.08 * area;
}

/**
 * The detector may box a row as one line on one side and as two on the other ("Bold Text" + "Code
 * Block"): neighbours on one row of `lines` whose joined text is a line of `other` are joined.
 */
export function harmonised(lines: TextLine[], other: TextLine[]): TextLine[] {
  const keys = new Set(other.map((l) => textKey(l.text)));
  const near = (k: string) => keys.has(k) || (k.length >= 8 && [...keys].some((o) => similarity(k, o) >= 0.9));
  const out = [...lines].sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
  for (let i = 0; i < out.length; i++) {
    const a = out[i];
    if (keys.has(textKey(a.text))) continue;
    const h = a.box[3] - a.box[1];
    const j = out.findIndex(
      (b, k) =>
        k !== i &&
        Math.abs(b.box[1] - a.box[1]) <= 0.3 * h &&
        b.box[0] > a.box[0] &&
        b.box[0] - a.box[2] <= 3 * h &&
        !keys.has(textKey(b.text)) &&
        near(textKey(`${a.text}${b.text}`)),
    );
    if (j < 0) continue;
    const b = out[j];
    out[i] = {
      text: `${a.text} ${b.text}`,
      confidence: Math.min(a.confidence, b.confidence),
      box: [Math.min(a.box[0], b.box[0]), Math.min(a.box[1], b.box[1]), Math.max(a.box[2], b.box[2]), Math.max(a.box[3], b.box[3])],
    };
    out.splice(j, 1);
    i--;
  }
  return out;
}

/** Two boxes of one line that share most of their area but differ in width or height by a few px. */
function restyledInPlace(b: Box, a: Box): boolean {
  const ox = overlap(b[0], b[2], a[0], a[2]),
    oy = overlap(b[1], b[3], a[1], a[3]);
  const area = (x: Box) => (x[2] - x[0]) * (x[3] - x[1]);
  // (the detector's boxes of one unchanged line differ by a px or two)
  const dw = Math.abs(a[2] - a[0] - (b[2] - b[0])),
    dh = Math.abs(a[3] - a[1] - (b[3] - b[1]));
  const resized = (dw >= 4 && dw >= 0.05 * Math.max(a[2] - a[0], b[2] - b[0])) || dh >= 3;
  return resized && (ox * oy) / Math.min(area(a), area(b)) >= 0.6;
}

/**
 * Matches the lines read before and after. Same text (textKey) is matched first, nearest first; then
 * an unmatched pair of lines in the same place (they overlap by half the smaller box, or sit on the
 * same row at the same left edge) is one line re-worded; whatever is left was added or removed.
 * A matched line whose pixels moved is "moved" (exact shift from the pixels when they are given),
 * unless its box grew or shrank in place and no shift explains its pixels: then it is "re-worded"
 * with the same words (a restyle; verdictOf calls it a font change).
 */
export function matchLines(
  beforeLines: TextLine[],
  afterLines: TextLine[],
  images?: { before: RgbaImage; after: RgbaImage },
): LineChange[] {
  [beforeLines, afterLines] = [harmonised(beforeLines, afterLines), harmonised(afterLines, beforeLines)];
  const usedB = new Set<number>(),
    usedA = new Set<number>();
  const changes: LineChange[] = [];
  const candidates: { i: number; j: number; d: number }[] = [];
  beforeLines.forEach((b, i) =>
    afterLines.forEach((a, j) => {
      const kb = textKey(b.text),
        ka = textKey(a.text);
      // one character misread in a longer line is the same line, where its pixels are the same
      // an icon beside the words read as a character on one side only: the same words
      const glyph = kb !== ka && ((cb, ca) => cb === ca && cb.length >= 4)(coreKey(b.text), coreKey(a.text));
      // one character misread in a longer line is the same line, where its pixels are the same
      const misread =
        kb !== ka &&
        !glyph &&
        kb.length >= 6 &&
        similarity(kb, ka) >= 1 - 1.5 / Math.max(kb.length, ka.length) &&
        (!images ||
          ((s) => samePixels(images.before, images.after, a.box, s.dx, s.dy))(lineShift(images.before, images.after, b.box, a.box)));
      if (kb === ka || glyph || misread) {
        const [bx, by] = centre(b.box),
          [ax, ay] = centre(a.box);
        candidates.push({ i, j, d: Math.hypot(ax - bx, ay - by) });
      }
    }),
  );
  candidates.sort((p, q) => p.d - q.d);
  for (const { i, j } of [...inOrder(beforeLines, afterLines), ...candidates]) {
    if (usedB.has(i) || usedA.has(j)) continue;
    usedB.add(i);
    usedA.add(j);
    const b = beforeLines[i],
      a = afterLines[j];
    const shift = lineShift(images?.before, images?.after, b.box, a.box);
    if (shift.dx === 0 && shift.dy === 0) changes.push({ kind: 'same', before: b, after: a });
    else if (
      images &&
      restyledInPlace(b.box, a.box) &&
      !samePixels(images.before, images.after, a.box, shift.dx, shift.dy) &&
      inkColour(images.before, b.box, borderColour(images.before, b.box)) ===
        inkColour(images.after, a.box, borderColour(images.after, a.box))
    ) {
      // the same words in the same place and colour, drawn wider or narrower, which no shift
      // explains: another font or weight (verdictOf says so), not a move (nor a fade)
      changes.push({ kind: 'reworded', before: b, after: a });
    } else changes.push({ kind: 'moved', before: b, after: a, ...shift });
  }
  for (const r of relaidOut(beforeLines, afterLines, usedB, usedA, images)) changes.push(r);
  // re-worded: the same place, other words
  const places: { i: number; j: number; score: number }[] = [];
  beforeLines.forEach((b, i) => {
    if (usedB.has(i)) return;
    afterLines.forEach((a, j) => {
      if (usedA.has(j)) return;
      const bb = b.box,
        ab = a.box;
      const ox = overlap(bb[0], bb[2], ab[0], ab[2]),
        oy = overlap(bb[1], bb[3], ab[1], ab[3]);
      const area = (box: Box) => (box[2] - box[0]) * (box[3] - box[1]);
      const shared = (ox * oy) / Math.min(area(bb), area(ab));
      const hb = bb[3] - bb[1],
        ha = ab[3] - ab[1];
      const sameRow =
        oy >= 0.5 * Math.min(hb, ha) &&
        (Math.abs(bb[0] - ab[0]) <= 0.6 * Math.max(hb, ha) || Math.abs(bb[2] - ab[2]) <= 0.6 * Math.max(hb, ha) || ox > 0);
      if (shared >= 0.5 || sameRow) places.push({ i, j, score: shared + (sameRow ? 1 : 0) });
    });
  });
  places.sort((p, q) => q.score - p.score);
  for (const { i, j } of places) {
    if (usedB.has(i) || usedA.has(j)) continue;
    usedB.add(i);
    usedA.add(j);
    changes.push({ kind: 'reworded', before: beforeLines[i], after: afterLines[j] });
  }
  beforeLines.forEach((b, i) => {
    if (!usedB.has(i)) changes.push({ kind: 'removed', before: b });
  });
  afterLines.forEach((a, j) => {
    if (!usedA.has(j)) changes.push({ kind: 'added', after: a });
  });
  const top = (c: LineChange) => ('after' in c ? c.after.box[1] : c.before.box[1]);
  return changes.sort((p, q) => top(p) - top(q));
}

/**
 * The same words on more than one line, as many times before as after (two 'Send me updates'
 * toggles, an 'Edit' in every row): matched in reading order, the first to the first. Matched nearest
 * first instead, lines that all moved up by 21 px can pair crosswise (one 62 px up, one 18 px down);
 * identical lines that traded places look the same as lines that stayed.
 */
function inOrder(beforeLines: TextLine[], afterLines: TextLine[]): { i: number; j: number }[] {
  const groups = new Map<string, { b: number[]; a: number[] }>();
  const group = (k: string) => groups.get(k) ?? groups.set(k, { b: [], a: [] }).get(k)!;
  beforeLines.forEach((l, i) => group(textKey(l.text)).b.push(i));
  afterLines.forEach((l, j) => group(textKey(l.text)).a.push(j));
  const reading = (lines: TextLine[]) => (p: number, q: number) =>
    Math.abs(lines[p].box[1] - lines[q].box[1]) > 4 ? lines[p].box[1] - lines[q].box[1] : lines[p].box[0] - lines[q].box[0];
  const pairs: { i: number; j: number }[] = [];
  for (const [key, { b, a }] of groups) {
    if (!key || b.length < 2 || b.length !== a.length) continue;
    const ob = [...b].sort(reading(beforeLines)),
      oa = [...a].sort(reading(afterLines));
    ob.forEach((i, k) => pairs.push({ i, j: oa[k] }));
  }
  return pairs;
}

/** Channel sum difference between two lines' backgrounds past which they are not one element's
 * (a dark menu's fill and the dark page under it differ by about 20). */
const OTHER_GROUND = 12;

/** Whether a line at `beforeBox` and one at `afterBox` are drawn on the same background colour. */
export function sameGround(before: RgbaImage, beforeBox: Box, after: RgbaImage, afterBox: Box): boolean {
  const [p, q] = [borderColour(before, beforeBox), borderColour(after, afterBox)];
  return Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) <= OTHER_GROUND;
}

/** Fewest letters of a line cut by the edge for it to be recognised as part of a whole line. */
const MIN_CUT_LETTERS = 3;

/**
 * Unmatched lines whose words are another unmatched line's, laid out anew: one line on one side, two
 * or three lines stacked on the other with the same words in order (a label that wraps in its
 * narrower box: "Sign in" -> "Sign" / "in"), or a line the screenshot's left or right edge now cuts
 * (or no longer cuts), its letters part of the whole line's ("Invite" -> "Inv" where a row grew past
 * the edge). Such a line was neither added nor removed. Marks what it matches as used.
 */
function relaidOut(
  beforeLines: TextLine[],
  afterLines: TextLine[],
  usedB: Set<number>,
  usedA: Set<number>,
  images?: { before: RgbaImage; after: RgbaImage },
): LineChange[] {
  const out: LineChange[] = [];
  const sides = [
    { lines: beforeLines, used: usedB, image: images?.before },
    { lines: afterLines, used: usedA, image: images?.after },
  ];
  for (const [one, many] of [
    [0, 1],
    [1, 0],
  ] as const) {
    const from = sides[one],
      to = sides[many];
    from.lines.forEach((line, i) => {
      if (from.used.has(i)) return;
      const key = textKey(line.text);
      if (key.length < 4) return;
      const free = to.lines.map((l, j) => ({ l, j })).filter(({ j }) => !to.used.has(j));
      const stack = wrappedAs(key, free);
      if (!stack) return;
      from.used.add(i);
      stack.forEach(({ j }) => to.used.add(j));
      const joined = joinLines(stack.map(({ l }) => l));
      out.push(one === 0 ? { kind: 'rewrapped', before: line, after: joined } : { kind: 'rewrapped', before: joined, after: line });
    });
  }
  // cut by the edge: only where the images are known (their width says where the edge is)
  if (!images) return out;
  const atEdge = (l: TextLine, image: RgbaImage) => l.box[0] <= 1 || l.box[2] >= image.width - 2;
  for (const [cutSide, wholeSide] of [
    [1, 0],
    [0, 1],
  ] as const) {
    const cut = sides[cutSide],
      whole = sides[wholeSide];
    cut.lines.forEach((line, i) => {
      if (cut.used.has(i) || !atEdge(line, cut.image!)) return;
      const key = coreKey(line.text);
      if ([...key].filter((ch) => /\p{L}/u.test(ch)).length < MIN_CUT_LETTERS) return;
      const j = whole.lines.findIndex(
        (w, k) => !whole.used.has(k) && !atEdge(w, whole.image!) && textKey(w.text).length > key.length && textKey(w.text).includes(key),
      );
      if (j < 0) return;
      cut.used.add(i);
      whole.used.add(j);
      out.push(
        cutSide === 1
          ? { kind: 'rewrapped', before: whole.lines[j], after: line, cut: true }
          : { kind: 'rewrapped', before: line, after: whole.lines[j], cut: true },
      );
    });
  }
  return out;
}

/** Two or three of `free` stacked as one paragraph (each just below the one before, overlapping it
 * across) whose words, in order, are `key`; the shortest such stack. */
function wrappedAs(key: string, free: { l: TextLine; j: number }[]): { l: TextLine; j: number }[] | undefined {
  const sorted = [...free].sort((p, q) => p.l.box[1] - q.l.box[1]);
  const below = (upper: TextLine, lower: TextLine) => {
    const h = upper.box[3] - upper.box[1];
    return (
      lower.box[1] >= upper.box[1] + 0.5 * h &&
      lower.box[1] - upper.box[3] <= 0.8 * h &&
      overlap(upper.box[0], upper.box[2], lower.box[0], lower.box[2]) > 0
    );
  };
  const extend = (stack: { l: TextLine; j: number }[]): { l: TextLine; j: number }[] | undefined => {
    const joined = textKey(stack.map((s) => s.l.text).join(''));
    if (stack.length >= 2 && joined === key) return stack;
    if (stack.length === 3 || !key.startsWith(joined)) return undefined;
    for (const next of sorted) {
      if (stack.includes(next) || !below(stack[stack.length - 1].l, next.l)) continue;
      const found = extend([...stack, next]);
      if (found) return found;
    }
    return undefined;
  };
  for (const start of sorted) {
    const found = extend([start]);
    if (found) return found;
  }
  return undefined;
}

/** Lines of one paragraph as one line: their words joined in order, their boxes' union. */
function joinLines(lines: TextLine[]): TextLine {
  return {
    text: lines.map((l) => l.text).join(' '),
    confidence: Math.min(...lines.map((l) => l.confidence)),
    box: [
      Math.min(...lines.map((l) => l.box[0])),
      Math.min(...lines.map((l) => l.box[1])),
      Math.max(...lines.map((l) => l.box[2])),
      Math.max(...lines.map((l) => l.box[3])),
    ],
  };
}

/**
 * The words that differ between two versions of a line, with the words around them kept when the
 * change is inside a longer line: "keep" -> "stay" in "Images in markdown should keep inside ...".
 * Returns the whole lines when they share too little.
 */
export function changedWords(before: string, after: string): { before: string; after: string; partial: boolean } {
  const wb = before.split(' '),
    wa = after.split(' ');
  if (wb.length < 4 && wa.length < 4) return { before, after, partial: false };
  let p = 0;
  while (p < wb.length && p < wa.length && textKey(wb[p]) === textKey(wa[p])) p++;
  let s = 0;
  while (s < wb.length - p && s < wa.length - p && textKey(wb[wb.length - 1 - s]) === textKey(wa[wa.length - 1 - s])) s++;
  const kept = p + s;
  if (kept < 2 || kept < 0.4 * Math.max(wb.length, wa.length)) return { before, after, partial: false };
  const midB = wb.slice(p, wb.length - s).join(' '),
    midA = wa.slice(p, wa.length - s).join(' ');
  return { before: midB, after: midA, partial: true };
}

/** Farthest push (px) looked for that carries a line past the screenshot's top or bottom edge. */
const MAX_EDGE_PUSH = 240;
/** A channel difference above this counts when content pushed past an edge is matched: faint borders and shadows must line up too. */
const EDGE_TOLERANCE = 8;
/** Largest share of the compared strip that may differ under the push. */
const EDGE_RESIDUAL = 0.01;
/** Smallest share of the compared strip that must be drawn (not the strip's own background): a blank strip matches any push. */
const EDGE_STRUCTURE = 0.01;

/**
 * How far content was pushed down (positive) or up (negative) to carry the line at `box` - drawn in
 * `from`, gone from `to` - past the screenshot's bottom (top) edge (at least `share` of its height:
 * half for a line, which the reader can no longer read then; any part for an icon, whose shape a cut
 * changes), read from the pixels
 * around it: the strip from the line's place to that edge, in the line's columns, is in `to` what
 * `from` held that far up (down), and that strip has drawn content to line up. Undefined when no
 * push does that. Why: a line pushed out of a viewport-sized screenshot leaves no moved line to
 * measure the push by (the content between it and the change that pushed it may be blank), and read
 * alone it looks removed. A line removed in place leaves background there, which matches nothing.
 */
export function pushedPastEdge(from: RgbaImage, to: RgbaImage, box: Box, share = 0.5): number | undefined {
  if (from.width !== to.width || from.height !== to.height) return undefined;
  const { width, height } = to;
  const past = share * (box[3] - box[1]);
  const x0 = Math.max(0, box[0] - 16),
    x1 = Math.min(width, box[2] + 16);
  // down: to(x, y) = from(x, y - d) for y from the line's top to the bottom edge
  const down: Box = [x0, Math.max(0, box[1]), x1, height];
  const [downFrom, downTo] = [Math.max(1, Math.ceil(height - box[3] + past)), Math.min(MAX_EDGE_PUSH, down[1])];
  if (downFrom <= downTo && hasDrawing(to, down)) for (let d = downFrom; d <= downTo; d++) if (sameUnderPush(from, to, down, d)) return d;
  // up: to(x, y) = from(x, y + d) for y from the top edge to the line's bottom
  const up: Box = [x0, 0, x1, Math.min(height, box[3])];
  const [upFrom, upTo] = [Math.max(1, Math.ceil(box[1] + past)), Math.min(MAX_EDGE_PUSH, height - up[3])];
  if (upFrom <= upTo && hasDrawing(to, up)) for (let d = upFrom; d <= upTo; d++) if (sameUnderPush(from, to, up, -d)) return -d;
  return undefined;
}

function sameUnderPush(from: RgbaImage, to: RgbaImage, strip: Box, dy: number): boolean {
  const allowed = EDGE_RESIDUAL * (strip[2] - strip[0]) * (strip[3] - strip[1]);
  return differingAfterShift(from, to, strip, 0, dy, EDGE_TOLERANCE, allowed) <= allowed;
}

/** Whether at least `share` of a box's pixels lie farther than EDGE_TOLERANCE (largest channel) from its
 * most common colour: something is drawn there on a background, not one flat fill. */
export function hasDrawing(image: RgbaImage, box: Box, share = EDGE_STRUCTURE): boolean {
  if (box[2] <= box[0] || box[3] <= box[1]) return false;
  const counts = new Map<number, number>();
  for (let y = box[1]; y < box[3]; y++)
    for (let x = box[0]; x < box[2]; x++) {
      const i = (y * image.width + x) * 4;
      const key = (image.data[i] << 16) | (image.data[i + 1] << 8) | image.data[i + 2];
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  let mode = 0,
    most = -1;
  for (const [key, n] of counts)
    if (n > most) {
      most = n;
      mode = key;
    }
  const [r, g, b] = [mode >> 16, (mode >> 8) & 255, mode & 255];
  let count = 0;
  for (let y = box[1]; y < box[3]; y++)
    for (let x = box[0]; x < box[2]; x++) {
      const i = (y * image.width + x) * 4;
      if (Math.max(Math.abs(image.data[i] - r), Math.abs(image.data[i + 1] - g), Math.abs(image.data[i + 2] - b)) > EDGE_TOLERANCE) count++;
    }
  return count >= share * (box[2] - box[0]) * (box[3] - box[1]);
}
