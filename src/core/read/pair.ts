// The text reader over one screenshot pair: each changed region read and explained (reading.ts),
// or, when the screenshot changed size (content was inserted or removed and everything after it
// moved), both screenshots read whole and matched as one. Then the verdicts are applied to the
// report's regions: the reader's caption replaces the model's where the reading explains the region,
// and content that only moved because of another region's change is folded under it ("pushed by").
import type { Box, ChangeRegion } from '../report.js';
import type { RgbaImage } from '../image.js';
import type { LineReadings, TextLine, TextReader } from './ocr.js';
import {
  belowBottom,
  captionLead,
  commonShift,
  lettersOf,
  nearestAbove,
  overrunLines,
  paddingVerdict,
  quote,
  quoteList,
  readRegion,
  risenIntoView,
  shiftWords,
  SWAP_CAPTION,
  verdictOf,
  movedByRoomOf,
  blockShiftOf,
  wordsOf,
  type ReadVerdict,
  type RegionReading,
} from './reading.js';
import {
  coreKey,
  editDistance,
  hasDrawing,
  lineShift,
  pushedPastEdge,
  sameGround,
  samePixels,
  similarity,
  textKey,
  type LineChange,
} from './correspond.js';
import { shapeSimilarity, type BlockChange } from './blocks.js';
import { intersects, overlapShare, translate, unionOf } from './box.js';
import { fillCaptionSlots, type SlotText } from './slots.js';
import { elementAround } from './element.js';
import { differingAfterShift } from '../jitter.js';
import type { ElementMotion } from '../procap/compose.js';

/** Largest screenshot read whole (pixels) when the pair changed size; larger ones are read by region. */
const MAX_WHOLE_READ_PIXELS = 1_500_000;

export interface PairReading {
  /** verdict of each changed region given, in order (undefined: the reading explains nothing there). */
  regions: (ReadVerdict | undefined)[];
  /** the pair read whole (it changed size): the change that explains it, with its place in each image. */
  whole?: ReadVerdict & { boxBefore: Box; boxAfter: Box };
  /** per region given, in order: what became of the lines and icons read there (the full procedure
   * frames draw them: procap/compose.ts); absent when the pair was read whole. */
  elements?: ElementMotion[][];
}

/** The boxes of the lines a verdict is about (what changed, not what was pushed), before and after. */
function changedBoxes(changes: LineChange[]): { before?: Box; after?: Box } {
  const before: Box[] = [],
    after: Box[] = [];
  for (const c of changes) {
    if (c.kind === 'reworded') {
      before.push(c.before.box);
      after.push(c.after.box);
    } else if (c.kind === 'added') after.push(c.after.box);
    else if (c.kind === 'removed') before.push(c.before.box);
  }
  return { before: unionOf(before), after: unionOf(after) };
}

export async function readPair(
  reader: TextReader,
  before: RgbaImage,
  after: RgbaImage,
  boxes: Box[],
  checkpoint: () => void = () => undefined,
): Promise<PairReading> {
  // a line drawn the same in both screenshots, or read again by a neighbouring region, is recognized once
  const recognized: LineReadings = new Map();
  const resized = before.width !== after.width || before.height !== after.height;
  if (resized && before.width * before.height <= MAX_WHOLE_READ_PIXELS && after.width * after.height <= MAX_WHOLE_READ_PIXELS) {
    const full = (img: RgbaImage): Box => [0, 0, img.width, img.height];
    const reading = await readRegion(
      reader,
      before,
      after,
      [0, 0, Math.min(before.width, after.width), Math.min(before.height, after.height)],
      { before: full(before), after: full(after) },
      { recognized },
    );
    checkpoint();
    const verdict = verdictOf({ changes: reading.changes });
    const at = changedBoxes(reading.changes);
    const whole =
      verdict && verdict.kind !== 'move' && (at.before || at.after)
        ? { ...verdict, boxBefore: at.before ?? at.after!, boxAfter: at.after ?? at.before! }
        : undefined;
    if (whole) return { regions: boxes.map(() => undefined), whole };
  }
  const readings: RegionReading[] = [];
  for (const box of boxes) {
    readings.push(await readRegion(reader, before, after, box, undefined, { recognized }));
    checkpoint();
  }
  const across = acrossRegions(readings, before, after);
  const verdicts = withSharedPadding(withSymmetricPadding(across.map(verdictOf), boxes), across);
  // (a region showing part of another's change is told by that change: the summary says it once)
  const told = verdicts.map((v, i) => {
    const whole = across[i].partOf;
    return v || whole === undefined || across[whole].partOf !== undefined ? v : verdicts[whole];
  });
  return {
    regions: withSwappedParts(
      withSwappedPixels(withRowPush(withCentredGrowth(told, boxes, before, after), boxes, before, after), boxes, before, after),
      boxes,
      before,
      after,
    ),
    elements: across.map((r) => elementMotions(r, before, after)),
  };
}

/** Whether what was at `here` is now at `there`, (dx, dy) away, and what was at `there` is now at `here`. */
function tradedPlaces(before: RgbaImage, after: RgbaImage, here: Box, there: Box, dx: number, dy: number): boolean {
  return samePixels(before, after, there, dx, dy) && samePixels(before, after, here, -dx, -dy);
}

/** Shortest offset (px) between two regions whose contents traded places that is read as a swap. */
const SWAP_OFFSET = 4;

/**
 * Two regions of the same size whose contents traded places - what was at the first is now at the
 * second and the other way round - are a swap the reader could not read as one (two icons, two
 * labels read as re-worded in place): a `reorder` on both ("two elements swapped places; this one
 * moved 53 px down"), the summary saying it once.
 */
export function withSwappedPixels(
  verdicts: (ReadVerdict | undefined)[],
  boxes: Box[],
  before: RgbaImage,
  after: RgbaImage,
): (ReadVerdict | undefined)[] {
  if (before.width !== after.width || before.height !== after.height) return verdicts;
  const out = [...verdicts];
  // (a region read as re-worded is one too: the words at each place are the other's)
  const open = (k: number) => out[k]?.kind !== 'reorder';
  const size = (b: Box) => [b[2] - b[0], b[3] - b[1]];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length && open(i); j++) {
      if (!open(j)) continue;
      const [p, q] = [size(boxes[i]), size(boxes[j])];
      if (Math.abs(p[0] - q[0]) > 2 || Math.abs(p[1] - q[1]) > 2) continue;
      const dx = boxes[j][0] - boxes[i][0],
        dy = boxes[j][1] - boxes[i][1];
      if (Math.max(Math.abs(dx), Math.abs(dy)) < SWAP_OFFSET) continue;
      if (!tradedPlaces(before, after, boxes[i], boxes[j], dx, dy)) continue;
      // (two like things - the same icon on two notices - trade places without anything changing;
      // flat fills, a coloured bar's inside, match whatever has their colour)
      if (samePixels(before, before, boxes[j], dx, dy) || !hasDrawing(before, boxes[i]) || !hasDrawing(before, boxes[j])) continue;
      // (nor where one push explains both places - each now shows what was one offset back, as in a
      // list of like rows pushed along by one)
      // (`lead`: the place the push comes from, whose place one offset back must have changed too)
      const pushed = (lead: Box, x: number, y: number) =>
        samePixels(before, after, boxes[i], x, y) &&
        samePixels(before, after, boxes[j], x, y) &&
        changedPlace(before, after, translate(lead, -x, -y));
      if (pushed(boxes[i], dx, dy) || pushed(boxes[j], -dx, -dy)) continue;
      // (named where one side read the words that traded places)
      const read = [out[i], out[j]].find((v) => v?.kind === 'text' && v.textBefore && v.textAfter && !v.textBefore.includes('\n'));
      const lead = read ? `${quote(read.textBefore!)} and ${quote(read.textAfter!)} swapped places` : 'two elements swapped places';
      const swapped = (x: number, y: number): ReadVerdict => {
        const detail = `this one moved ${shiftWords(x, y)}`;
        return { kind: 'reorder', caption: `${lead}; ${detail}`, detail, basis: read ? 'words' : 'pixels' };
      };
      out[i] = swapped(dx, dy);
      out[j] = swapped(-dx, -dy);
    }
  }
  return out;
}

/**
 * Regions left to the models (or where the reader saw only shapes or pixels change) that hold
 * the rest of two elements the reader saw trade places - their icons, buttons, second lines: the
 * content at the region is now what was one swap's offset away, and the content that was at the
 * region is now that far the other way. They are part of the swap and told by it (their caption's
 * lead is the swap's, which the summary says once). Both ways must hold: a grid of like cards shows
 * the same icon one card away whether or not anything moved.
 */
export function withSwappedParts(
  verdicts: (ReadVerdict | undefined)[],
  boxes: Box[],
  before: RgbaImage,
  after: RgbaImage,
): (ReadVerdict | undefined)[] {
  if (before.width !== after.width || before.height !== after.height) return verdicts;
  const swaps: { caption: string; places: [Box, Box]; offsets: { dx: number; dy: number }[] }[] = [];
  for (const [i, v] of verdicts.entries()) {
    const a = v?.kind === 'reorder' ? SWAP_CAPTION.exec(v.caption) : null;
    if (!a) continue;
    const j = verdicts.findIndex((w, k) => k > i && w?.kind === 'reorder' && w.caption === `${a[2]} and ${a[1]} swapped places`);
    if (j < 0) continue;
    const [p, q] = [boxes[i], boxes[j]];
    // the two places line up by their left (top) edges, their centres or their right (bottom) edges
    const offsets = [0, 1, 2].map((w) => ({
      dx: Math.round(q[0] + (w / 2) * (q[2] - q[0]) - p[0] - (w / 2) * (p[2] - p[0])),
      dy: Math.round(q[1] + (w / 2) * (q[3] - q[1]) - p[1] - (w / 2) * (p[3] - p[1])),
    }));
    swaps.push({ caption: v!.caption, places: [p, q], offsets });
  }
  if (!swaps.length) return verdicts;
  const within = (b: Box) => b[0] >= 0 && b[1] >= 0 && b[2] <= after.width && b[3] <= after.height;
  const centre = (b: Box) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
  const distance = (a: Box, b: Box) => Math.hypot(centre(a)[0] - centre(b)[0], centre(a)[1] - centre(b)[1]);
  return verdicts.map((v, k) => {
    if (v && v.basis === 'words') return v;
    for (const { caption, places, offsets } of swaps)
      for (const o of offsets) {
        // (from the nearer place toward the other one first)
        const way = distance(boxes[k], places[0]) <= distance(boxes[k], places[1]) ? 1 : -1;
        for (const [dx, dy] of [
          [way * o.dx, way * o.dy],
          [-way * o.dx, -way * o.dy],
        ]) {
          const there = translate(boxes[k], dx, dy);
          if (!within(there) || (dx === 0 && dy === 0)) continue;
          if (tradedPlaces(before, after, boxes[k], there, dx, dy)) {
            const detail = `what was here moved ${shiftWords(dx, dy)}`;
            return { kind: 'reorder', caption: `${caption}; ${detail}`, detail, basis: 'pixels' };
          }
        }
      }
    return v;
  });
}

/** Shortest move (px) of two regions' content toward or away from each other that is read as padding. */
const SYMMETRIC_SHIFT = 4;
/** Longest such move (px): padding changes by a few steps of a spacing scale; farther is something else. */
const MAX_SYMMETRIC_SHIFT = 48;

/**
 * A container given new padding moves all its content by the same diagonal shift, wherever a region
 * cuts it: a region (the reader had no verdict for, or only a move or a misread re-wording) where
 * lines moved by the shift of new padding the reader measured in another region of the pair holds
 * more of that container, and is that change ("less space around 'Export'", the move its detail).
 * (A region of lines moved by other shifts as well - a card below pushed up - is told by the lines
 * that moved with the padding.)
 */
export function withSharedPadding(verdicts: (ReadVerdict | undefined)[], readings: RegionReading[]): (ReadVerdict | undefined)[] {
  const padded = verdicts.flatMap((v) =>
    v?.kind === 'spacing' && v.basis === 'words' && v.shift && v.shift.dx !== 0 && v.shift.dy !== 0 ? [{ ...v.shift, v }] : [],
  );
  if (!padded.length) return verdicts;
  const open = (v: ReadVerdict | undefined) => !v || v.kind === 'move' || (v.kind === 'text' && misreadOnly(v));
  const near = (a: { dx: number; dy: number }, b: { dx: number; dy: number }) => Math.abs(a.dx - b.dx) <= 1 && Math.abs(a.dy - b.dy) <= 1;
  return verdicts.map((v, i) => {
    // (regions that measured the same padding say it with the first one's lead)
    if (v && v.detail && padded.some((p) => p.v === v)) {
      const first = padded.find((p) => near(p, v.shift!))!.v;
      return first === v ? v : { ...v, caption: `${captionLead(first)}; ${v.detail}` };
    }
    if (!open(v)) return v;
    const lines = readings[i].changes.filter(
      (c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved' && padded.some((s) => near(c, s)),
    );
    if (!lines.length) return v ?? rewrappedWith(readings[i], padded);
    const source = padded.find((s) => near(lines[0], s))!;
    const texts = [...new Set(lines.map((l) => l.after.text))];
    const own = paddingVerdict(quoteList(texts).words, source, texts.length === 1 ? texts[0] : undefined);
    // (told as the same change: the summary says it once)
    return own ? { ...own, caption: `${captionLead(source.v)}; ${own.detail}` } : v;
  });
}

/**
 * A paragraph of the re-padded container that re-wrapped (the same words, broken into lines
 * anew, as its width changed with the padding), whose lines' left edge and top moved by that padding's
 * shift (to 2 px: a re-wrapped line's box is measured on other letters).
 */
function rewrappedWith(reading: RegionReading, padded: { dx: number; dy: number; v: ReadVerdict }[]): ReadVerdict | undefined {
  const was: TextLine[] = [],
    now: TextLine[] = [];
  for (const c of reading.changes) {
    if (c.kind === 'moved' || c.kind === 'same') return undefined;
    if (c.kind === 'reworded' || c.kind === 'removed') was.push(c.before);
    if (c.kind === 'reworded' || c.kind === 'added') now.push(c.after);
  }
  if (!was.length || !now.length || wordsOf(was) !== wordsOf(now)) return undefined;
  const [b, a] = [unionOf(was.map((l) => l.box))!, unionOf(now.map((l) => l.box))!];
  const [dx, dy] = [a[0] - b[0], a[1] - b[1]];
  const source = padded.find((s) => Math.abs(dx - s.dx) <= 2 && Math.abs(dy - s.dy) <= 2);
  if (!source) return undefined;
  const first = [...now].sort((p, q) => p.box[1] - q.box[1])[0];
  const detail = `${quote(first.text)} re-wrapped and moved ${shiftWords(dx, dy)}`;
  return {
    kind: 'spacing',
    caption: `${captionLead(source.v)}; ${detail}`,
    detail,
    basis: 'words',
    shift: { dx, dy },
    subject: first.text,
  };
}

/**
 * Content on the left and right of a container moving toward each other (or apart) by the same
 * distance, alike up and down, is the container's padding: its left-aligned title moves right and its
 * right-aligned buttons left by as much ("more space around 'Rename file'"). Each move becomes a
 * spacing verdict, the move its detail. Not when the two traded places (each lands where the other
 * was: a swap reads the same way), nor when anything else that changed lies between them along that
 * axis (an element grown, added or re-worded between them pushes both aside in a centred row).
 */
export function withSymmetricPadding(verdicts: (ReadVerdict | undefined)[], boxes: Box[]): (ReadVerdict | undefined)[] {
  const out = verdicts.slice();
  const moveOf = (i: number) => {
    const v = verdicts[i];
    return v && v.kind === 'move' && v.shift && !v.pushed ? v.shift : undefined;
  };
  const along = (axis: 0 | 1, s: { dx: number; dy: number }) => (axis === 0 ? s.dx : s.dy);
  for (let i = 0; i < verdicts.length; i++) {
    for (let j = 0; j < verdicts.length; j++) {
      const a = moveOf(i),
        b = moveOf(j);
      if (i === j || !a || !b) continue;
      // (across, not up and down: a vertically centred dialog given new padding grows around its
      // content, which stays; its content moves toward each other when something between shrank)
      for (const axis of [0] as (0 | 1)[]) {
        const [da, db] = [along(axis, a), along(axis, b)];
        const [oa, ob] = [along(axis === 0 ? 1 : 0, a), along(axis === 0 ? 1 : 0, b)];
        // i is the one before j along the axis (its centre first), and they move by opposite amounts
        const centre = (k: number) => (boxes[k][axis] + boxes[k][axis + 2]) / 2;
        if (centre(i) >= centre(j) || Math.abs(da + db) > 1 || Math.abs(oa - ob) > 1) continue;
        if (Math.abs(da) < SYMMETRIC_SHIFT || Math.abs(da) > MAX_SYMMETRIC_SHIFT) continue;
        // traded places: i moved onto j's old place (or j onto i's)
        const lands = (k: number, s: { dx: number; dy: number }, other: number) =>
          overlapShare(translate(boxes[k], s.dx, s.dy), boxes[other]) >= 0.5;
        if (lands(i, a, j) || lands(j, b, i)) continue;
        // anything else that changed between them, in the band they span, may have pushed them apart
        const band: [number, number] = [Math.min(boxes[i][1 - axis], boxes[j][1 - axis]), Math.max(boxes[i][3 - axis], boxes[j][3 - axis])];
        const between = boxes.some((box, k) => {
          if (k === i || k === j) return false;
          const c = (box[axis] + box[axis + 2]) / 2;
          const inBand = box[1 - axis] < band[1] && band[0] < box[3 - axis];
          const same = moveOf(k) && [a, b].some((s) => s.dx === moveOf(k)!.dx && s.dy === moveOf(k)!.dy);
          return inBand && c > centre(i) && c < centre(j) && !same;
        });
        if (between) continue;
        const more = da > 0; // moving toward each other: the padding grew
        for (const k of [i, j]) {
          const v = verdicts[k]!;
          const words = v.caption.replace(/ moved [^;]*$/, '');
          out[k] = {
            ...v,
            kind: 'spacing',
            caption: `${more ? 'more' : 'less'} space around ${words}; ${v.caption}`,
            detail: v.caption,
          };
        }
      }
    }
  }
  return out;
}

/**
 * What became of each line and icon a region's reading matched, as boxes in both images: a line that
 * is the text of a button, badge, avatar or field stands for that element's whole box where it moved, came or went (the
 * button travels, not only its label). Lines and icons that stayed are left out.
 */
export function elementMotions(reading: RegionReading, before: RgbaImage, after: RgbaImage): ElementMotion[] {
  const around = (image: RgbaImage, line: TextLine): Box => (line.role ? (elementAround(image, line)?.box ?? line.box) : line.box);
  const out: ElementMotion[] = [];
  for (const c of reading.changes) {
    if (c.kind === 'moved') out.push({ kind: 'moved', before: around(before, c.before), after: around(after, c.after) });
    // (re-worded words change inside their element, which stays)
    else if (c.kind === 'reworded') out.push({ kind: 'reworded', before: c.before.box, after: c.after.box });
    else if (c.kind === 'added') out.push({ kind: 'added', after: around(after, c.after) });
    else if (c.kind === 'removed') out.push({ kind: 'removed', before: around(before, c.before) });
  }
  for (const b of reading.blocks ?? []) {
    if (b.kind === 'moved') out.push({ kind: 'moved', before: b.before.box, after: b.after.box });
    else if (b.kind === 'swapped') out.push({ kind: 'reworded', before: b.before.box, after: b.after.box });
    else if (b.kind === 'added') out.push({ kind: 'added', after: b.after.box });
    else if (b.kind === 'removed') out.push({ kind: 'removed', before: b.before.box });
  }
  return out;
}

/** Whether `box` lies inside both images and its pixels there are not the same in both. */
function changedPlace(before: RgbaImage, after: RgbaImage, box: Box): boolean {
  const inside = (image: RgbaImage) => box[0] >= 0 && box[1] >= 0 && box[2] <= image.width && box[3] <= image.height;
  return inside(before) && inside(after) && !samePixels(before, after, box, 0, 0);
}

/**
 * Two places read as trading words (A -> B at one, B -> A at the other) that one push explains: what
 * is now at each place was one offset back, the offset A travelled. Returns the two places' readings
 * as lines moved by that push, or undefined where only a swap explains them.
 */
function pushedAlong(
  here: Extract<LineChange, { kind: 'reworded' }>,
  there: Extract<LineChange, { kind: 'reworded' }>,
  before?: RgbaImage,
  after?: RgbaImage,
): [LineChange, LineChange] | undefined {
  if (!before || !after) return undefined;
  const { dx, dy } = lineShift(before, after, here.before.box, there.after.box);
  if (Math.max(Math.abs(dx), Math.abs(dy)) < SWAP_OFFSET) return undefined;
  if (!samePixels(before, after, there.after.box, dx, dy) || !samePixels(before, after, here.after.box, dx, dy)) return undefined;
  // (the place one offset back changed too: a push moved what was there; where it stayed, the row
  // back only looks like the one that came - '/files/{id}/status' under two verbs - and they swapped)
  const from: TextLine = { ...here.after, box: translate(here.after.box, -dx, -dy) };
  if (!changedPlace(before, after, from.box)) return undefined;
  return [
    { kind: 'moved', before: from, after: here.after, dx, dy },
    { kind: 'moved', before: here.before, after: there.after, dx, dy },
  ];
}

/**
 * A line that left one region and arrived in another (the same text) moved: the region finder cut the
 * move in two. Each such pair becomes a moved line in the region it arrived in, and leaves the other.
 */
export function acrossRegions(readings: RegionReading[], before?: RgbaImage, after?: RgbaImage): RegionReading[] {
  const out: RegionReading[] = readings.map((r) => ({ ...r, changes: [...r.changes] }));
  // a line one region read cut by the edge of its area, as removed (or added), where a neighbouring
  // region read the whole line at that place: the same line ("lelcome back" in "Welcome back"), told
  // by the region that read it whole
  // (a whole line that stayed where it was is not a change: the cut reading is dropped, and the region
  // is told by whatever else it shows)
  const wholeLine = (o: RegionReading, side: 'before' | 'after', part: TextLine) =>
    o.changes.find((c) => side in c && partOf(part, (c as Record<typeof side, TextLine>)[side]));
  for (const r of out) {
    let told: number | undefined;
    r.changes = r.changes.filter((c) => {
      if (c.kind !== 'removed' && c.kind !== 'added') return true;
      const side = c.kind === 'removed' ? 'before' : 'after';
      const line = c.kind === 'removed' ? c.before : c.after;
      const k = out.findIndex((o) => o !== r && wholeLine(o, side, line));
      if (k < 0) return true;
      if (wholeLine(out[k], side, line)!.kind !== 'same') told ??= k;
      return false;
    });
    if (told !== undefined && r.changes.every((c) => c.kind === 'same')) r.partOf = told;
  }
  // words that traded places between two regions (rows swapped): each region read old -> new, the
  // other new -> old
  for (const [i, a] of out.entries()) {
    for (const c of a.changes) {
      if (c.kind !== 'reworded') continue;
      const [from, to] = [coreKey(c.before.text), coreKey(c.after.text)];
      const back = (x: LineChange): x is Extract<LineChange, { kind: 'reworded' }> =>
        x.kind === 'reworded' && coreKey(x.before.text) === to && coreKey(x.after.text) === from;
      const j = out.findIndex((b, k) => k !== i && b.changes.some(back));
      if (j < 0) continue;
      const d = out[j].changes.find(back)!;
      const pushed = pushedAlong(c, d, before, after);
      if (pushed) {
        // (a list that repeats a name - two "config.yaml" rows - pushed one row along reads at two
        // places as a swap; one push explains both: each place now shows what was one row back)
        a.changes = a.changes.map((x) => (x === c ? pushed[0] : x));
        out[j].changes = out[j].changes.map((x) => (x === d ? pushed[1] : x));
        continue;
      }
      a.swapped ??= [c.before.text, c.after.text];
      out[j].swapped ??= [c.after.text, c.before.text];
    }
  }
  // content that slid past a place reads there as a re-wording (the row below took the place of the
  // row that moved up): when the old words arrived elsewhere and the new ones left elsewhere, the
  // line moved
  const lefts = new Map<string, TextLine>(),
    arrivals = new Map<string, TextLine>();
  const departed = new Map<TextLine, TextLine>(),
    arrived = new Map<TextLine, TextLine>();
  for (const r of out) {
    for (const c of r.changes) {
      if (c.kind === 'reworded' || c.kind === 'removed') lefts.set(coreKey(c.before.text), c.before);
      if (c.kind === 'reworded' || c.kind === 'added') arrivals.set(coreKey(c.after.text), c.after);
    }
  }
  for (const r of out) {
    // a swap (above) is two such lines: the reorder says it better
    if (r.swapped) continue;
    r.changes = r.changes.map((c) => {
      if (c.kind !== 'reworded') return c;
      const source = lefts.get(coreKey(c.after.text));
      const oldArrived = arrivals.get(coreKey(c.before.text));
      if (!source || !oldArrived || source === c.before || oldArrived === c.after) return c;
      departed.set(source, c.after);
      arrived.set(oldArrived, c.before);
      return { kind: 'moved', before: source, after: c.after, ...lineShift(before, after, source.box, c.after.box) };
    });
  }
  // the other ends of those moves: where the new words left (a removal there) and where the old
  // words arrived (an addition there) are the same moves, said once
  for (const r of out) {
    r.changes = r.changes.flatMap((c): LineChange[] => {
      if (c.kind === 'removed' && departed.has(c.before)) return [];
      if (c.kind === 'added' && arrived.has(c.after)) {
        const from = arrived.get(c.after)!;
        return [{ kind: 'moved', before: from, after: c.after, ...lineShift(before, after, from.box, c.after.box) }];
      }
      return [c];
    });
  }
  // a place re-worded A -> B where A arrived elsewhere: B is new here and A moved (a link inserted
  // before the one it pushed); where B left elsewhere: A is gone here and B moved in (the next item
  // took the removed one's place)
  for (const r of out) {
    for (let k = 0; k < r.changes.length; k++) {
      const c = r.changes[k];
      if (c.kind !== 'reworded' || r.swapped) continue;
      const find = (kind: 'added' | 'removed', key: string) => {
        for (const o of out) {
          const i = o.changes.findIndex(
            (d) =>
              d.kind === kind &&
              coreKey(kind === 'added' ? (d as { after: TextLine }).after.text : (d as { before: TextLine }).before.text) === key,
          );
          if (i >= 0) return { o, i };
        }
        return undefined;
      };
      const arrivedOld = find('added', coreKey(c.before.text));
      const leftNew = find('removed', coreKey(c.after.text));
      // (in a chain of places each taken by the next item, the new words left by a re-wording)
      const sourceOfNew = lefts.get(coreKey(c.after.text));
      const oldGoesOn = arrivals.get(coreKey(c.before.text));
      if (arrivedOld && !leftNew && !sourceOfNew) {
        const a = arrivedOld.o.changes[arrivedOld.i] as Extract<LineChange, { kind: 'added' }>;
        arrivedOld.o.changes[arrivedOld.i] = {
          kind: 'moved',
          before: c.before,
          after: a.after,
          ...lineShift(before, after, c.before.box, a.after.box),
        };
        r.changes[k] = { kind: 'added', after: c.after };
      } else if (leftNew && !arrivedOld && !oldGoesOn) {
        const l = leftNew.o.changes[leftNew.i] as Extract<LineChange, { kind: 'removed' }>;
        r.changes[k] = { kind: 'removed', before: c.before };
        leftNew.o.changes.splice(leftNew.i, 1);
        r.changes.push({ kind: 'moved', before: l.before, after: c.after, ...lineShift(before, after, l.before.box, c.after.box) });
      } else if (!leftNew && sourceOfNew && sourceOfNew !== c.before && !arrivedOld && !oldGoesOn) {
        r.changes[k] = { kind: 'removed', before: c.before };
        r.changes.push({ kind: 'moved', before: sourceOfNew, after: c.after, ...lineShift(before, after, sourceOfNew.box, c.after.box) });
      } else if (!arrivedOld && oldGoesOn && oldGoesOn !== c.after && !leftNew && !sourceOfNew) {
        r.changes[k] = { kind: 'added', after: c.after };
        r.changes.push({ kind: 'moved', before: c.before, after: oldGoesOn, ...lineShift(before, after, c.before.box, oldGoesOn.box) });
      }
    }
  }
  // a place one region read as re-worded A -> B, where another region (whose area overlaps) read the
  // same A, at the same place, as moved on: A was pushed along and B is new here (and the other way
  // round: B came from elsewhere and A is gone)
  const movedLines = out.flatMap((r) =>
    r.changes.filter((c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved').map((m) => ({ m, r })),
  );
  const samePlace = (a: TextLine, b: TextLine) =>
    coreKey(a.text) === coreKey(b.text) && Math.abs(a.box[0] - b.box[0]) <= 4 && Math.abs(a.box[1] - b.box[1]) <= 4;
  for (const r of out) {
    if (r.swapped) continue;
    r.changes = r.changes.map((c): LineChange => {
      if (c.kind !== 'reworded') return c;
      if (movedLines.some(({ m, r: o }) => o !== r && samePlace(m.before, c.before))) return { kind: 'added', after: c.after };
      if (movedLines.some(({ m, r: o }) => o !== r && samePlace(m.after, c.after))) return { kind: 'removed', before: c.before };
      return c;
    });
  }
  // a line one region read as moved and a neighbouring region, whose area holds only one end of the
  // move, as added (or removed) is that same move, said once
  const movedEnds = out.flatMap((r) => r.changes.filter((c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved'));
  const near = (a: Box, b: Box) => Math.abs(a[0] - b[0]) <= 4 && Math.abs(a[1] - b[1]) <= 4;
  for (const r of out) {
    r.changes = r.changes.filter(
      (c) =>
        !(
          (c.kind === 'added' &&
            movedEnds.some(
              (m) => coreKey(m.after.text) === coreKey(c.after.text) && near(m.after.box, c.after.box) && !r.changes.includes(m),
            )) ||
          (c.kind === 'removed' &&
            movedEnds.some(
              (m) => coreKey(m.before.text) === coreKey(c.before.text) && near(m.before.box, c.before.box) && !r.changes.includes(m),
            ))
        ),
    );
  }
  for (const [i, from] of out.entries()) {
    for (const removed of [...from.changes]) {
      if (removed.kind !== 'removed') continue;
      const key = coreKey(removed.before.text);
      for (const [j, to] of out.entries()) {
        if (j === i) continue;
        const k = to.changes.findIndex((c) => c.kind === 'added' && coreKey(c.after.text) === key);
        if (k < 0) continue;
        const added = to.changes[k] as Extract<LineChange, { kind: 'added' }>;
        const shift = lineShift(before, after, removed.before.box, added.after.box);
        to.changes[k] = { kind: 'moved', before: removed.before, after: added.after, ...shift };
        from.changes.splice(from.changes.indexOf(removed), 1);
        break;
      }
    }
  }
  // a line pushed out of its region's reading, whose other end no region read, reads as added (or
  // removed): where its pixels are the same as before under a shift other regions' lines moved by
  // (content pushed along by one insertion moves together), it moved
  if (before && after) {
    const counts: { dx: number; dy: number; n: number }[] = [];
    for (const c of out.flatMap((r) => r.changes)) {
      if (c.kind !== 'moved' || Math.max(Math.abs(c.dx), Math.abs(c.dy)) <= SMALL_SHIFT) continue;
      const known = counts.find((v) => v.dx === c.dx && v.dy === c.dy);
      if (known) known.n++;
      else counts.push({ dx: c.dx, dy: c.dy, n: 1 });
    }
    const pairShifts = counts.sort((a, b) => b.n - a.n).slice(0, 4);
    for (const r of out) {
      r.changes = r.changes.map((c): LineChange => {
        if (c.kind === 'added') {
          const s = pairShifts.find((v) => samePixels(before, after, c.after.box, v.dx, v.dy));
          return s
            ? { kind: 'moved', before: { ...c.after, box: translate(c.after.box, -s.dx, -s.dy) }, after: c.after, dx: s.dx, dy: s.dy }
            : c;
        }
        if (c.kind === 'removed') {
          const s = pairShifts.find((v) => samePixels(before, after, translate(c.before.box, v.dx, v.dy), v.dx, v.dy));
          return s
            ? { kind: 'moved', before: c.before, after: { ...c.before, box: translate(c.before.box, s.dx, s.dy) }, dx: s.dx, dy: s.dy }
            : c;
        }
        return c;
      });
    }
  }
  // a line read added where a line that moved up was drawn before (a menu that shrank uncovered the
  // table under it), or read removed where a line that moved down now is (the menu grew over it),
  // came into or went out of view; it was not added or removed
  const moves = out.flatMap((r) => r.changes.filter((c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved'));
  const vertical = (m: { dx: number; dy: number }) => Math.abs(m.dx) <= 2 && Math.abs(m.dy) > SMALL_SHIFT;
  // (or pushed past the bottom edge: a line read removed below a line that moved down, in any region,
  // whose push would carry it out of the screenshot; one read added below a line that moved up, which
  // moved back would lie below the edge, came in from below. Where no line moved, the pixels between
  // the line and the edge - top or bottom - show the push: pushedPastEdge)
  const verticalMoves = moves.filter(vertical);
  const height = after?.height;
  const pastBottom = (c: LineChange): boolean => {
    if (height === undefined) return false;
    if (c.kind === 'removed') {
      const m = nearestAbove(verticalMoves, c.before.box, 'before');
      return (
        (!!m && m.dy > 0 && belowBottom(c.before.box, m.dy, height)) ||
        (!!before && pushedPastEdge(before, after!, c.before.box) !== undefined)
      );
    }
    if (c.kind === 'added') {
      const m = nearestAbove(verticalMoves, c.after.box, 'after');
      // (backwards in time, the content moved the other way and pushed the line out)
      return (
        (!!m && m.dy < 0 && belowBottom(c.after.box, -m.dy, height)) ||
        (!!before && pushedPastEdge(after!, before, c.after.box) !== undefined)
      );
    }
    return false;
  };
  // a line re-worded in place onto another background is another element's words: the re-worded
  // line was removed and the words under it came into view (the last item of a menu went, the page
  // under it shows); not where the words traded places with another region's (rows swapped), nor
  // where they read the same but for a letter or two (a label its shorter button now cuts)
  if (before && after) {
    for (const r of out) {
      if (r.swapped) continue;
      r.changes = r.changes.flatMap((c): LineChange[] =>
        c.kind === 'reworded' &&
        !sameGround(before, c.before.box, after, c.after.box) &&
        similarity(textKey(c.before.text), textKey(c.after.text)) < SAME_WORDS
          ? [
              { kind: 'removed', before: c.before },
              { kind: 'added', after: c.after },
            ]
          : [c],
      );
    }
  }
  // (where each line went: the rows that came into and went out of view, for withRowsInView)
  const inView: RowsInView = { cameIn: [], wentOut: [] };
  for (const r of out) {
    const uncovered: string[] = [],
      covered: string[] = [];
    const cameIn = (c: Extract<LineChange, { kind: 'added' }>) => (uncovered.push(c.after.text), inView.cameIn.push(c.after.box), false);
    const wentOut = (c: Extract<LineChange, { kind: 'removed' }>) => (
      covered.push(c.before.text),
      inView.wentOut.push(c.before.box),
      false
    );
    // (an added line where a removed one was, on another background: what the removed element
    // covered - the page under a menu item that went)
    const gone = r.changes.filter((c): c is Extract<LineChange, { kind: 'removed' }> => c.kind === 'removed');
    const underGone = (c: Extract<LineChange, { kind: 'added' }>) =>
      !!before &&
      !!after &&
      gone.some((x) => intersects(x.before.box, c.after.box) && !sameGround(before, x.before.box, after, c.after.box));
    r.changes = r.changes.filter((c) => {
      if (c.kind === 'added' && (pastBottom(c) || underGone(c))) return cameIn(c);
      if (c.kind === 'removed' && pastBottom(c)) return wentOut(c);
      if (
        c.kind === 'added' &&
        moves.some((m) => vertical(m) && m.dy < 0 && m.after.box[1] < c.after.box[1] && intersects(m.before.box, c.after.box))
      )
        return cameIn(c);
      if (
        c.kind === 'removed' &&
        moves.some((m) => vertical(m) && m.dy > 0 && m.before.box[1] < c.before.box[1] && intersects(m.after.box, c.before.box))
      )
        return wentOut(c);
      return true;
    });
    if (uncovered.length) r.uncovered = uncovered;
    if (covered.length) r.covered = covered;
  }
  withRowsInView(out, inView);
  // the same for icons: one that left a region and arrived, the same shape, in another moved
  for (const to of out) {
    for (const added of [...(to.blocks ?? [])]) {
      if (added.kind !== 'added') continue;
      const from = out.find(
        (o) => o !== to && o.blocks?.some((b) => b.kind === 'removed' && shapeSimilarity(b.before, added.after) >= 0.7),
      );
      if (!from) continue;
      const k = from.blocks!.findIndex((b) => b.kind === 'removed' && shapeSimilarity(b.before, added.after) >= 0.7);
      const removed = from.blocks![k] as Extract<BlockChange, { kind: 'removed' }>;
      from.blocks!.splice(k, 1);
      to.blocks = to.blocks!.map((b) =>
        b === added
          ? {
              kind: 'moved',
              before: removed.before,
              after: added.after,
              dx: added.after.box[0] - removed.before.box[0],
              dy: added.after.box[1] - removed.before.box[1],
            }
          : b,
      );
    }
  }
  // an icon read removed (added) that a push carried past the screenshot's edge, even in part, went
  // out of (came into) view with the content around it: not a removal
  if (before && after)
    for (const r of out)
      r.blocks = r.blocks?.filter((b) =>
        b.kind === 'removed'
          ? pushedPastEdge(before, after, b.before.box, 0) === undefined
          : b.kind === 'added'
            ? pushedPastEdge(after, before, b.after.box, 0) === undefined
            : true,
      );
  return out;
}

/** Whether two boxes lie on one row: they share at least half the shorter one's height (not the next row touching it). */
function onOneRow(a: Box, b: Box): boolean {
  return Math.min(a[3], b[3]) - Math.max(a[1], b[1]) >= 0.5 * Math.min(a[3] - a[1], b[3] - b[1]);
}

/** Changes that make an element on a row wider or narrower, moving what sits beside it (withRowPush). */
const ROW_PUSHERS = new Set(['add', 'remove', 'text', 'font', 'resize', 'spacing']);
/** Largest region (px^2) searched for a push along its row, and the widest push (px) looked for. */
const ROW_PUSH_AREA = 40000;
const ROW_PUSH_WIDTH = 400;
/** Shortest push looked for (px): the reading itself tried shifts up to 4 px. */
const ROW_PUSH_SHORTEST = 5;
/** Share of a region's differing pixels one shift along its row must explain for it to be a push. */
const ROW_PUSH_EXPLAINED = 0.95;

/**
 * A region the reader explained nothing in (no words read, or none changed), on one row with a
 * region whose element changed width (new words, a new size or padding, something put in or taken
 * out), whose pixels one shift along the row, further than a redraw, explains: the element beside the
 * change moved over by the room it gave up or took (a button's neighbour when the button got
 * narrower). It is a move (basis pixels) that applyReading makes that change's push. The shifts
 * tried go as far as the changed region is wide.
 */
export function withRowPush(
  verdicts: (ReadVerdict | undefined)[],
  boxes: Box[],
  before: RgbaImage,
  after: RgbaImage,
): (ReadVerdict | undefined)[] {
  return verdicts.map((v, i) => {
    const box = boxes[i];
    if (v || (box[2] - box[0]) * (box[3] - box[1]) > ROW_PUSH_AREA) return v;
    const beside = boxes.filter((c, j) => j !== i && ROW_PUSHERS.has(verdicts[j]?.kind ?? '') && onOneRow(c, box) && !intersects(c, box));
    if (!beside.length) return v;
    const widest = Math.min(ROW_PUSH_WIDTH, Math.max(...beside.map((c) => c[2] - c[0])));
    const tries: { dx: number; dy: number }[] = [];
    for (let dx = ROW_PUSH_SHORTEST; dx <= widest; dx++) tries.push({ dx, dy: 0 }, { dx: -dx, dy: 0 });
    const shift = blockShiftOf(before, after, box, 0, tries);
    if (!shift || shift.explained < ROW_PUSH_EXPLAINED) return v;
    return {
      kind: 'move',
      caption: `the content here moved ${shiftWords(shift.dx, 0)}`,
      basis: 'pixels',
      shift: { dx: shift.dx, dy: 0 },
      alongRow: true,
    };
  });
}

/** Farthest (px) past a moved region a row moved the other way is looked for: a dialog's height. */
const MIRROR_REACH = 800;
/** Share of a row's pixels a shift must leave different (at most) to explain the row. */
const ROW_EXPLAINED = 0.02;

/**
 * Content that only moved up or down (not across), where rows past it in its columns moved the other
 * way by as much: what holds them is centred on that axis and the change between them grew or shrank
 * it about its centre (a button in a centred dialog made taller moves the title up and the dialog's
 * foot down by half its growth). Not new padding - that moves a left-aligned title across as well -
 * nor a move by itself. The move is marked `centred` with the side the change is on, where
 * applyReading lets a change push it toward itself. One row that shows the other shift is enough
 * (a thin edge is often all that does: rows inside a fill match any nearby shift); rows within one
 * shift of the region are left out, where its own content may have traded places with a neighbour.
 */
export function withCentredGrowth(
  verdicts: (ReadVerdict | undefined)[],
  boxes: Box[],
  before: RgbaImage,
  after: RgbaImage,
): (ReadVerdict | undefined)[] {
  if (before.width !== after.width || before.height !== after.height) return verdicts;
  return verdicts.map((v, i) => {
    if (!v || v.kind !== 'move' || !v.shift || v.pushed || v.shift.dx !== 0) return v;
    const dy = v.shift.dy;
    if (Math.abs(dy) < SYMMETRIC_SHIFT || Math.abs(dy) > MAX_SYMMETRIC_SHIFT) return v;
    const [x0, y0, x1, y1] = boxes[i];
    // rows of another region past this one, across its columns, that moved the other way by as much
    const mirrored = (box: Box) => {
      const width = box[2] - box[0];
      const explainedBy = (y: number, shift: number) =>
        differingAfterShift(before, after, [box[0], y, box[2], y + 1], 0, shift, 40, Math.ceil(ROW_EXPLAINED * width) + 1) <=
        ROW_EXPLAINED * width;
      for (let y = Math.max(0, box[1]); y < Math.min(after.height, box[3]); y++) {
        // (a flat row - blank, or inside a fill - matches rows a few px off as well: no shift shows)
        if (explainedBy(y, 0) || explainedBy(y, dy) || explainedBy(y, -dy - 3) || explainedBy(y, -dy + 3)) continue;
        // (what the row shows came from one shift back and what it showed went one shift on: a row
        // only matched to a blank one, where something faded out, is not moved content; a growth by
        // an odd number of px moves one side a pixel further than the other)
        if ([-dy - 1, -dy, -dy + 1].some((d) => explainedBy(y, d) && y + d < after.height && explainedBy(y + d, d))) return true;
      }
      return false;
    };
    const reach = Math.abs(dy) + 2;
    const past = (side: 'above' | 'below') =>
      mirrored(side === 'below' ? [x0, y1 + reach, x1, y1 + MIRROR_REACH] : [x0, y0 - MIRROR_REACH, x1, y0 - reach]) ||
      boxes.some(
        (b, j) => j !== i && b[0] < x1 && x0 < b[2] && (side === 'below' ? b[1] >= y1 + reach : b[3] <= y0 - reach) && mirrored(b),
      );
    const side = past('below') ? 'below' : past('above') ? 'above' : undefined;
    return side ? { ...v, centred: side } : v;
  });
}

/** Boxes of the lines that came into view (after) and went out of view (before), in a pair. */
interface RowsInView {
  cameIn: Box[];
  wentOut: Box[];
}

/**
 * A row that came into (went out of) view shows (hides) all of itself: a line or icon read added on
 * the rows of a line that came into view - the other cells of a table row uncovered by a menu that
 * shrank, the button beside a name pushed up from below the edge - came into view too, and the same
 * for removals. Both kinds of line: those acrossRegions found (`inView`) and those a region's own
 * push carried past the edge or under its moved lines (verdictOf's overrunLines and risenIntoView).
 */
function withRowsInView(out: RegionReading[], inView: RowsInView): void {
  const { cameIn, wentOut } = inView;
  const own = new Set<LineChange>();
  for (const r of out) {
    const moved = r.changes.filter((c): c is Extract<LineChange, { kind: 'moved' }> => c.kind === 'moved');
    const push = commonShift(moved);
    const added = r.changes.filter((c): c is Extract<LineChange, { kind: 'added' }> => c.kind === 'added');
    const removed = r.changes.filter((c): c is Extract<LineChange, { kind: 'removed' }> => c.kind === 'removed');
    for (const c of push ? overrunLines(removed, moved, push, r.size) : []) {
      own.add(c);
      wentOut.push(c.before.box);
    }
    for (const c of risenIntoView(added, moved, r.size)) {
      own.add(c);
      cameIn.push(c.after.box);
    }
  }
  if (!cameIn.length && !wentOut.length) return;
  for (const r of out) {
    const uncovered = r.uncovered ?? [],
      covered = r.covered ?? [];
    r.changes = r.changes.filter((c) => {
      if (own.has(c)) return true;
      if (c.kind === 'added' && cameIn.some((b) => onOneRow(b, c.after.box))) return (uncovered.push(c.after.text), false);
      if (c.kind === 'removed' && wentOut.some((b) => onOneRow(b, c.before.box))) return (covered.push(c.before.text), false);
      return true;
    });
    if (uncovered.length) r.uncovered = uncovered;
    if (covered.length) r.covered = covered;
    r.blocks = r.blocks?.filter(
      (b) =>
        !(b.kind === 'added' && cameIn.some((x) => onOneRow(x, b.after.box))) &&
        !(b.kind === 'removed' && wentOut.some((x) => onOneRow(x, b.before.box))),
    );
  }
}

/** Whether `part` is `whole` read cut: inside its box, and its letters the whole line's with some cut
 * off and at most two misread. */
function partOf(part: TextLine, whole: TextLine): boolean {
  const [p, w] = [lettersOf(part.text), lettersOf(whole.text)];
  if (!p || p === w || p.length > w.length) return false;
  // (narrower by a letter at least: the same line read whole twice is not cut)
  const width = (b: Box) => b[2] - b[0];
  if (overlapShare(part.box, whole.box) < 0.6 || width(part.box) > width(whole.box) - 4) return false;
  return editDistance(p, w) <= w.length - p.length + 2;
}

const CAUSES = new Set(['add', 'remove', 'text', 'resize', 'spacing', 'font']);
/** Farthest (px) a new font (size, weight, family) moves what follows it. */
const FONT_PUSH = 8;
/** Similarity (correspond.ts) from which two readings are the same words, a letter or two cut or misread. */
const SAME_WORDS = 0.7;
/** Largest shift (px) that is the reader's to call a move whatever the models say: they were trained to
 * call a 1-4 px shift noise or a font change, and the pixels say it moved. */
export const SMALL_SHIFT = 4;

/**
 * Whether a region's reading decides its kind and caption, given the models' kind. The reading decides
 * what it read (words re-worded, added, removed, moved, recoloured), icons that came or went, and
 * small shifts. Where it only saw where unread content went (a shift of the pixels beyond a few px)
 * or that one blob replaced another, and the models say otherwise, the models decide: they see the
 * layout around the region (resize, spacing, reorder, a picture swapped, a fade), which such a
 * reading cannot tell apart.
 */
export function readerDecides(verdict: ReadVerdict, modelKind: string, pair: { themedRegions?: number } = {}): boolean {
  // (words gone on an element recoloured to their colour: where the models see the recolour too,
  // their words name the element as they see it)
  if (verdict.refilled && RECOLOURS.has(modelKind)) return false;
  if (verdict.kind === modelKind) return true;
  // the same words drawn differently, or one blob for another: the models, which see the whole
  // element, say whether it is a font, a resize, a spacing or a picture swapped
  // ... except letters now drawn at another size where the models see the layout move: a move, a
  // resize or new spacing carries text along without changing its size
  if (verdict.kind === 'font' && verdict.glyphsResized && (LAYOUT_KINDS.has(modelKind) || MOVES.has(modelKind))) return true;
  // ... and the same letters read on both sides are not new words, whatever the models see
  if (verdict.kind === 'font' && modelKind === 'text') return true;
  if (verdict.kind === 'icon' || verdict.kind === 'font') return false;
  // words that vanished (or appeared) with nothing around them moving: removed from the layout, or
  // only hidden (shown) in place - the models, which saw the element fade, tell these apart
  if ((verdict.kind === 'remove' || verdict.kind === 'add') && !verdict.pushed && modelKind === 'opacity') return false;
  // a line read whole on one side and cut (or misread by a letter or two) on the other, where the
  // models see the element move, its box change or its font change: the layout moved it across the
  // edge of what was read, and the words did not change
  // (or restyle it: a new font reads a letter differently; or change the icon beside it, read as a letter)
  if (
    verdict.kind === 'text' &&
    (MOVES.has(modelKind) || LAYOUT_KINDS.has(modelKind) || modelKind === 'font' || modelKind === 'icon') &&
    misreadOnly(verdict)
  )
    return false;
  // words read on one side only, where the other side still shows about as much ink at their place:
  // the element is still there, drawn so that it did not read (recoloured, restyled, resized); the
  // models, who see it change, say how
  // ... and so are lines of a single letter: more often an icon read as one (a warning sign as 'A')
  const oneLetter = (t?: string) => !!t && t.split('\n').every((l) => /^\p{L}$/u.test(l.trim()));
  if (
    (verdict.kind === 'remove' || verdict.kind === 'add') &&
    !verdict.pushed &&
    (verdict.stillDrawn || oneLetter(verdict.textBefore ?? verdict.textAfter)) &&
    !['add', 'remove', 'text'].includes(modelKind)
  )
    return false;
  // one recolour among several the models call a theme change is part of that palette change (the
  // reading is its detail); a single recoloured region is just that
  if (modelKind === 'theme' && (verdict.kind === 'color' || verdict.kind === 'opacity') && (pair.themedRegions ?? 0) >= 2) return false;
  // an icon-sized blob that came or went, matched by shape alone, where the models see no element
  // come or go: content that moved or was restyled around it, one of its blobs not matched - unless
  // what moved along moved by about its size (it made room for itself, or its room closed)
  if (
    (verdict.kind === 'add' || verdict.kind === 'remove') &&
    verdict.basis === 'shapes' &&
    !verdict.madeRoom &&
    !['add', 'remove', 'icon', 'text'].includes(modelKind)
  )
    return false;
  // whether a colour measured on pixels (not a text's ink) is another hue or the same one paler is
  // the models' call, who see the whole element against its background
  // (unless its exact colours rule a fade out: neither is the other taken toward the background)
  if (verdict.basis === 'pixels' && RECOLOURS.has(verdict.kind) && RECOLOURS.has(modelKind) && !verdict.unfaded) return false;
  // something unread put in before lines that moved, inferred from what their old place now shows
  // (or taken out, from what their new place showed): where the models see the layout move (a move,
  // a reorder, new spacing or size) or a recolour, the element that now fills that place was more
  // likely moved or restyled there than inserted (or moved away than removed)
  if (
    (verdict.kind === 'add' || verdict.kind === 'remove') &&
    verdict.basis === 'pixels' &&
    (LAYOUT_KINDS.has(modelKind) || ['move', 'reorder'].includes(modelKind) || RECOLOURS.has(modelKind))
  )
    return false;
  // new padding measured on unread pixels alone decides only where the models see the layout change
  if (verdict.kind === 'spacing' && verdict.basis === 'pixels') return LAYOUT_KINDS.has(modelKind) || MOVES.has(modelKind);
  if (verdict.kind === 'move' && verdict.basis === 'pixels' && !LAYOUT_KINDS.has(modelKind) && modelKind !== 'move') {
    const s = verdict.shift ?? { dx: Infinity, dy: Infinity };
    return Math.max(Math.abs(s.dx), Math.abs(s.dy)) <= SMALL_SHIFT;
  }
  return true;
}
const RECOLOURS = new Set(['color', 'opacity']);
const MOVES = new Set(['move', 'reorder']);

/** Whether a re-wording is more likely a reading error: one side's letters are part of the other's
 * (a line cut by the edge of what was read, by what slid over it, or by its own box), or, with the same digits, the
 * letters differ by two or fewer in eight or more (a letter misread or split off). */
export function misreadOnly(verdict: Pick<ReadVerdict, 'textBefore' | 'textAfter'>): boolean {
  const [a, b] = [lettersOf(verdict.textBefore ?? ''), lettersOf(verdict.textAfter ?? '')];
  if (!a || !b || a === b) return false;
  // (a capital I, a small l and a bar are one stroke in most UI fonts: 'lnvite' is 'Invite' misread)
  const stroke = (t: string) => lettersOf(t.replace(/[Il|]/g, 'l'));
  if (stroke(verdict.textBefore!) === stroke(verdict.textAfter!)) return true;
  // (in order, not only side by side: a label cut by its narrower box, or wrapped mid-word, reads
  // as some of its letters - 'Save' as 'a' and 'e')
  if (isSubsequence(b, a) || isSubsequence(a, b)) return true;
  const digits = (t: string) => t.replace(/\D/g, '');
  const words = (t: string) => t.replace(/\d/g, '');
  return digits(a) === digits(b) && Math.min(words(a).length, words(b).length) >= 8 && editDistance(words(a), words(b)) <= 2;
}
/** Whether the letters of `part` all occur in `whole`, in order. */
function isSubsequence(part: string, whole: string): boolean {
  let i = 0;
  for (const ch of whole) if (i < part.length && ch === part[i]) i++;
  return i === part.length;
}
/** kinds whose change moves content without the content itself changing */
const LAYOUT_KINDS = new Set(['resize', 'spacing', 'reflow']);

/** Whether a region's caption will be the reader's (applyReading), given the models' kind: then the
 * decoder's wording is not needed, and no wider second search is run for it. */
export function readerWrites(
  verdict: ReadVerdict | undefined,
  modelKind: string,
  pair: { themedRegions?: number } = {},
  modelCaption?: string,
): boolean {
  return !!verdict && readerDecides(verdict, modelKind, pair) && wording(verdict, modelKind, modelCaption) === 'reader';
}

/**
 * Whose words caption a region the reader decides: the reader's; the models' where both see a font
 * change or an icon swapped (their words say which: bolder, smaller; a bell for a star), and where
 * both see the same kind of change and the reader read no words there (it can only say "the content
 * here" or "an icon", which the models' words name and place: "the icon button in the dialog"); both
 * where the models see a container re-spaced or resized and the reader measured the content it carried.
 */
function wording(verdict: ReadVerdict, modelKind: string, modelCaption = ''): 'reader' | 'model' | 'both' {
  if (verdict.sized) return 'reader';
  // (a font change the models did not see is said in the reader's words, not theirs of a move)
  if (verdict.kind === 'font' && modelKind !== 'font') return 'reader';
  if (verdict.kind === 'font' || verdict.kind === 'icon') return 'model';
  // (new padding the models call a resize is said in the reader's words: a caption claims its kind)
  if (
    (verdict.kind === 'move' && (modelKind === 'spacing' || modelKind === 'resize')) ||
    (verdict.kind === 'spacing' && modelKind === 'spacing')
  )
    return 'both';
  if (verdict.kind === modelKind && !readsWords(verdict)) {
    // "an icon" is a name the models' caption must share to be preferred to it
    const unnamed = /^(the content here|the colour here|the border here)\b/.test(verdict.caption);
    if (unnamed || /\bicon\b/.test(modelCaption)) return 'model';
  }
  return 'reader';
}

/** Whether a verdict quotes words it read (else it rests on shapes or pixels alone). */
function readsWords(v: ReadVerdict): boolean {
  return v.subject !== undefined || v.textBefore !== undefined || v.textAfter !== undefined || v.caption.includes("'");
}

/** readerWrites for every region of a pair, from the models' kinds of its (meaningful) regions in order. */
export function readerWritesAll(reading: PairReading, modelKinds: string[], modelCaptions: string[] = []): boolean[] {
  const themedRegions = modelKinds.filter((k) => k === 'theme').length;
  return modelKinds.map((k, i) => readerWrites(reading.regions[i], k, { themedRegions }, modelCaptions[i]));
}

/** What each region's reading read, for the slot tokens of the decoder's captions (in the regions' order). */
export function slotTextsOf(reading: PairReading): (SlotText | undefined)[] {
  return reading.regions.map((v) => (v ? slotTextOf(v) : undefined));
}

/** What a verdict read, for the slot tokens of a decoder caption. */
function slotTextOf(v: ReadVerdict): SlotText {
  const label = v.subject ?? v.textAfter ?? v.textBefore;
  return {
    ...(label !== undefined && !label.includes('\n') ? { label } : {}),
    ...(v.textBefore !== undefined ? { old: v.textBefore } : {}),
    ...(v.textAfter !== undefined ? { new: v.textAfter } : {}),
  };
}

/**
 * Applies a pair's reading to its regions (the meaningful ones first, in the order read): reader
 * captions where it explains a region; the whole-pair change as a region of its own; and a region that
 * only moved, below or after a region whose change could push it (added, removed, re-worded, resized
 * content), is that change's consequence: kind "reflow", pushedBy the cause.
 */
export function applyReading(regions: ChangeRegion[], reading: PairReading): void {
  const themedRegions = regions.filter((r) => !r.noiseOnly && r.kind === 'theme').length;
  reading.regions.forEach((v, i) => {
    const r = regions[i];
    if (!r) return;
    if (!v || !readerDecides(v, r.kind, { themedRegions })) {
      r.captionSource = 'model';
      if (v) r.caption = fillCaptionSlots(r.caption, slotTextOf(v));
      // (a palette change says which element the reader saw recoloured, and how)
      if (v && r.kind === 'theme' && (v.kind === 'color' || v.kind === 'opacity')) {
        r.caption = `${captionLead(r)}; ${v.caption}`;
        r.detail = v.caption;
      }
      return;
    }
    const words = wording(v, r.kind, r.caption);
    // a move says where content went; whether it moved by itself or a container's new size or
    // spacing carried it is the models' call (they see the layout around it)
    if (!(v.kind === 'move' && LAYOUT_KINDS.has(r.kind))) r.kind = v.kind;
    const setCaption = (lead: string, detail: string | undefined) => {
      r.caption = detail ? `${lead}; ${detail}` : lead;
      if (detail) r.detail = detail;
    };
    if (words === 'model') {
      r.captionSource = 'model';
      // the models' words with what the reader measured: how far it moved, what it pushed along
      const measured = v.kind === 'move' && v.shift && !v.detail ? `measured ${shiftWords(v.shift.dx, v.shift.dy)}` : v.detail;
      setCaption(fillCaptionSlots(r.caption, slotTextOf(v)), v.kind === 'font' || v.kind === 'icon' ? undefined : measured);
      return;
    }
    if (words === 'both') {
      // the models' words say what changed, the reader's how far the content went
      setCaption(fillCaptionSlots(r.caption, slotTextOf(v)), v.kind === 'spacing' ? v.detail : v.caption);
      r.captionSource = 'reader';
      return;
    }
    inReaderWords(r, v);
  });
  removedNotHidden(regions, reading);
  if (reading.whole) {
    const w = reading.whole;
    regions.push({
      id: regions.length + 1,
      boxBefore: w.boxBefore,
      boxAfter: w.boxAfter,
      kind: w.kind,
      caption: w.caption,
      ...(w.detail ? { detail: w.detail } : {}),
      confidence: 1,
      diffPixels: 0,
      noiseOnly: false,
      cropBox: w.boxAfter,
      captionSource: 'reader',
      ...(w.textBefore !== undefined || w.textAfter !== undefined
        ? {
            text: {
              ...(w.textBefore !== undefined ? { before: w.textBefore } : {}),
              ...(w.textAfter !== undefined ? { after: w.textAfter } : {}),
            },
          }
        : {}),
    });
  }
  // consequences: a region that only moved, pushed by a cause before it in reading order
  const causes = regions.filter((r) => !r.noiseOnly && CAUSES.has(r.kind));
  // (a button grown or shrunk around its label changes its container's size, whatever its kind)
  const sized = new Set(regions.filter((r, i) => !r.noiseOnly && reading.regions[i]?.sized && r.captionSource === 'reader'));
  // (a region the models call resized or re-spaced keeps that: its content moved with its container)
  const readMoves = reading.regions
    .map((v, i) => ({ v, r: regions[i] }))
    .filter(
      ({ v, r }) =>
        r &&
        v?.kind === 'move' &&
        // (or in the models' words, where the reader measured it on the pixels alone: withRowPush)
        (r.captionSource === 'reader' || v.alongRow === true) &&
        ['move', 'reflow', 'spacing', 'resize'].includes(r.kind),
    );
  const carried = new Set<ChangeRegion>();
  for (const { r, v } of readMoves) {
    const box = r.boxBefore;
    const shift = v?.shift ?? { dx: 0, dy: 0 };
    // (or below it, or after it on its row, where the content moved away from it: a centred dialog
    // or row that grew around the change moves what is above it up and what is before it left)
    const where = (c: ChangeRegion): string | undefined => {
      const cb = reading.whole && c.id === regions.length ? c.boxAfter : c.boxBefore;
      const overColumns = cb[0] < box[2] && box[0] < cb[2],
        onRow = cb[1] < box[3] && box[1] < cb[3];
      if (cb[1] <= box[1] && overColumns) return 'above';
      if (cb[0] <= box[0] && onRow) return 'before it';
      // (toward a change below as well, where it grew or shrank what holds both about its centre)
      if (cb[1] >= box[3] && overColumns && (shift.dy < 0 || v?.centred === 'below')) return 'below';
      if (cb[0] >= box[2] && onRow && shift.dx < 0 && shift.dy === 0) return 'after it';
      return undefined;
    };
    // (content the models call re-spaced or resized, that the reader saw only move, was pushed where
    // something else in the pair changed size or came or went: a button that grew moves its dialog's
    // content, which the models take for the dialog's new padding or size)
    const respacedOnly = r.kind === 'spacing' || r.kind === 'resize';
    // (lines put in or taken out push what moved only where it moved by their room: movedByRoomOf)
    const byRoom = (c: ChangeRegion) => {
      const w = reading.regions[regions.indexOf(c)];
      if (!w?.linesBox || (c.kind !== 'add' && c.kind !== 'remove') || w.kind !== c.kind) return true;
      return closesRoom(c.kind, w.linesBox, box, shift);
    };
    // (a new font moves what follows by a few px, along its own axis: down (up) from a change above
    // (below), across from one on the row - a larger move, or a diagonal one, moved by itself)
    const byFont = (c: ChangeRegion) => {
      if (c.kind !== 'font') return true;
      // (the restyled control's own side edge is part of its change: edgesAroundChanges)
      if (ownEdge(box, c.boxBefore)) return false;
      const side = where(c);
      const along = side === 'above' || side === 'below' ? shift.dx === 0 : shift.dy === 0;
      return along && Math.max(Math.abs(shift.dx), Math.abs(shift.dy)) <= FONT_PUSH;
    };
    const cause = causes.find(
      (c) => c !== r && !carried.has(c) && (!respacedOnly || c.kind !== 'spacing' || sized.has(c)) && where(c) && byRoom(c) && byFont(c),
    );
    if (!cause) continue;
    const side = where(cause);
    // (content a centred growth carried pushes nothing itself: the growth is the change)
    if (v?.centred) carried.add(r);
    r.kind = 'reflow';
    r.pushedBy = cause.id;
    if (respacedOnly) {
      r.caption = `${v!.caption}, pushed by the change ${side}`;
      delete r.detail;
    } else if (r.captionSource === 'model' && r.detail) r.caption = `${captionLead(r)}, pushed by the change ${side}; ${r.detail}`;
    else r.caption = `${r.caption}, pushed by the change ${side}`;
  }
  sharedRows(regions, reading);
  const gaps = respaced(regions, reading);
  edgesOfRespaced(
    regions,
    // (a button's own new padding is not its container's: the container's edges it moves are its push)
    regions.filter((r, i) => r.kind === 'spacing' && (gaps || (reading.regions[i]?.kind === 'spacing' && !reading.regions[i]?.sized))),
  );
  edgesAroundChanges(regions, sized);
}

/** A region captioned in the reader's words: its caption, detail and the text it read. */
function inReaderWords(r: ChangeRegion, v: ReadVerdict): void {
  r.caption = v.caption;
  if (v.detail) r.detail = v.detail;
  r.captionSource = 'reader';
  if (v.textBefore !== undefined || v.textAfter !== undefined) {
    r.text = {
      ...(v.textBefore !== undefined ? { before: v.textBefore } : {}),
      ...(v.textAfter !== undefined ? { after: v.textAfter } : {}),
    };
  }
}

/**
 * Words that vanished (or appeared) in place where the models saw the element fade out (in), and
 * icons matched by shape that came or went where the models saw no element come or go, are left to
 * the models (readerDecides): hidden and removed look alike, and a blob of content pushed along can
 * go unmatched. But a hidden element keeps its room: where the reader saw content elsewhere in the
 * pair move and nothing else changed to move it, or where another cell of the same row was read
 * removed (added), the element was taken out (put in).
 */
function removedNotHidden(regions: ChangeRegion[], reading: PairReading): void {
  const faded = regions.flatMap((r, i) => {
    const v = reading.regions[i];
    if (!v || r.captionSource !== 'model' || (v.kind !== 'remove' && v.kind !== 'add')) return [];
    return (r.kind === 'opacity' && !v.pushed && v.basis === 'words') || (v.basis === 'shapes' && !readerDecides(v, r.kind))
      ? [{ r, v }]
      : [];
  });
  if (!faded.length) return;
  const others = regions.filter((r) => !r.noiseOnly && !faded.some((f) => f.r === r));
  // (anything else that changed - a new font, a resize - may have moved that content instead; an icon
  // is the cause of content the models alone call pushed along too, words gone only of what the
  // reader saw move: the models call a hidden element's neighbours pushed more readily)
  const onlyMoves = others.every((o) => ['move', 'reflow', 'none'].includes(o.kind));
  // (content that moved the other way, or by less than the element's size, moved by itself: the
  // element's room did not change - movedByRoomOf; a move the reader did not measure is not judged)
  const shiftOf = (o: ChangeRegion) => {
    const w = reading.regions[regions.indexOf(o)];
    return w?.shift ?? w?.pushed;
  };
  const moved = (by: 'reader' | 'anyone', change: 'add' | 'remove', at: Box) =>
    onlyMoves &&
    others.some((o) => {
      if ((by !== 'anyone' && o.captionSource !== 'reader') || (o.kind !== 'move' && o.kind !== 'reflow')) return false;
      const shift = shiftOf(o);
      return !shift || closesRoom(change, at, o.boxBefore, shift);
    });
  for (const { r, v } of faded) {
    const rowMate = others.some((o) => o.captionSource === 'reader' && o.kind === v.kind && onOneRow(o.boxBefore, r.boxBefore));
    if (!moved(v.basis === 'shapes' ? 'anyone' : 'reader', v.kind as 'add' | 'remove', v.linesBox ?? r.boxBefore) && !rowMate) continue;
    r.kind = v.kind;
    inReaderWords(r, v);
  }
}

/** movedByRoomOf for a region's content (`both`: its box on both sides), taken on the side that
 * shows the element added or removed at `at`. */
function closesRoom(change: 'add' | 'remove', at: Box, both: Box, shift: { dx: number; dy: number }): boolean {
  return movedByRoomOf(change, at, sideOf(both, shift, change === 'remove' ? 'before' : 'after'), shift);
}

/** The box on one side of content that moved by `shift`, from the box holding it on both sides. */
function sideOf(both: Box, shift: { dx: number; dy: number }, side: 'before' | 'after'): Box {
  const { dx, dy } = shift;
  return side === 'before'
    ? [both[0] - Math.min(0, dx), both[1] - Math.min(0, dy), both[2] - Math.max(0, dx), both[3] - Math.max(0, dy)]
    : [both[0] + Math.max(0, dx), both[1] + Math.max(0, dy), both[2] + Math.min(0, dx), both[3] + Math.min(0, dy)];
}

/** Changes that take room in a row from the buttons beside them, or give it up (sharedRows). */
const ROW_CAUSES = new Set(['add', 'remove', 'resize', 'spacing', 'font', 'text', 'opacity']);

/**
 * A button that only got wider or narrower, beside a larger change on its row - a button added,
 * removed or resized, a label re-worded or set bold - is a grid or flex row sharing its width anew:
 * the button gave up room or took it, a consequence of that change (a reflow pushed by it). The
 * cause must be at least as wide as the button's region: a narrow region beside a resized button is
 * its neighbour moving, not a cause. (An element that "faded" while its neighbours gave way was put
 * in, not faded in; the models' kind for it stays.)
 */
function sharedRows(regions: ChangeRegion[], reading: PairReading): void {
  const sizedButtons = new Set(regions.filter((r, i) => !r.noiseOnly && r.captionSource === 'reader' && reading.regions[i]?.sized));
  regions.forEach((r, i) => {
    const v = reading.regions[i];
    if (!sizedButtons.has(r) || !['resize', 'spacing'].includes(r.kind) || v?.resized?.along !== 'width' || r.pushedBy !== undefined)
      return;
    const box = r.boxBefore;
    const width = (b: Box) => b[2] - b[0];
    const cause = regions.find(
      (c) =>
        c !== r &&
        !c.noiseOnly &&
        !sizedButtons.has(c) &&
        ROW_CAUSES.has(c.kind) &&
        onOneRow(c.boxBefore, box) &&
        width(c.boxBefore) >= width(box),
    );
    if (!cause) return;
    const where = cause.boxBefore[0] < box[0] ? 'before it' : 'after it';
    r.kind = 'reflow';
    r.pushedBy = cause.id;
    r.caption = `${captionLead(r)}, ${v.resized.by > 0 ? 'stretched' : 'squeezed'} by the change ${where}`;
    if (r.detail) r.caption += `; ${r.detail}`;
  });
}

/** Changes that make the container around them grow or shrink (new spacing: edgesOfRespaced). */
const CONTAINER_CAUSES = new Set(['add', 'remove', 'text', 'resize', 'font']);

/**
 * A thin band (EDGE_BAND) the models call resized, moved or re-spaced, in line with a change that
 * makes its container grow or shrink - a button grown taller, a line added - is that container's edge,
 * moved by the change: a reflow pushed by it ("the card on the left is now taller" was the dialog's
 * bottom border following its button). The summary then says the change once.
 */
function edgesAroundChanges(regions: ChangeRegion[], sized: Set<ChangeRegion> = new Set()): void {
  const causes = regions.filter((c) => !c.noiseOnly && (CONTAINER_CAUSES.has(c.kind) || sized.has(c)) && !thin(c.boxBefore));
  for (const r of regions) {
    if (r.noiseOnly || r.pushedBy !== undefined || !['resize', 'move', 'spacing'].includes(r.kind)) continue;
    if (!thin(r.boxBefore) || !thin(r.boxAfter)) continue;
    const box = r.boxBefore;
    const where = (c: ChangeRegion): string | undefined => {
      const cb = c.boxBefore;
      if (cb[0] < box[2] && box[0] < cb[2]) return cb[1] <= box[1] ? 'above' : 'below';
      if (cb[1] < box[3] && box[1] < cb[3]) return cb[0] <= box[0] ? 'before it' : 'after it';
      return undefined;
    };
    const cause = causes.find((c) => c !== r && where(c));
    if (!cause) continue;
    if (ownEdge(box, cause.boxBefore)) {
      // (the changed element's own side: part of its change, which the summary says once)
      r.kind = cause.kind;
      r.caption = `${captionLead(cause)}; its edge here moved with it`;
      r.detail = 'its edge here moved with it';
      r.captionSource = 'reader';
      continue;
    }
    r.kind = 'reflow';
    r.pushedBy = cause.id;
    r.caption = `an edge here moved with the change ${where(cause)}`;
    r.captionSource = 'reader';
    delete r.detail;
  }
}

/** Tallest side edge (px) that can be a control's own (a button, a field), not a container's. */
const CONTROL_HEIGHT = 80;
/** Farthest (px) a control's label can be from its own side edge: its padding, or a wide button's fill. */
const LABEL_TO_EDGE = 120;

/**
 * Whether a thin upright band beside a changed label is that control's own side edge: as tall as a
 * control, the label's rows inside its rows, not far from it on the row. A button whose label got
 * longer or bolder grows from its kept side, so only its other side moves (a container's side is
 * taller than the control it holds).
 */
function ownEdge(band: Box, label: Box): boolean {
  const upright = band[2] - band[0] <= EDGE_BAND && band[3] - band[1] > EDGE_BAND;
  if (!upright || band[3] - band[1] > CONTROL_HEIGHT) return false;
  if (label[1] < band[1] - 2 || label[3] > band[3] + 2) return false;
  const gap = label[0] >= band[2] ? label[0] - band[2] : band[0] - label[2];
  return gap >= 0 && gap <= LABEL_TO_EDGE;
}

/** Widest (tallest) a region can be to be the edge of a container: its border line and a soft shadow (px). */
const EDGE_BAND = 12;
/** Whether a box is thin enough (EDGE_BAND) to be a container's edge. */
const thin = (b: Box) => Math.min(b[2] - b[0], b[3] - b[1]) <= EDGE_BAND;

/**
 * Where the only changes of a pair are new spacing the reader measured (content moved inward or
 * outward, gaps changed: `measured`) and content it carried, a thin band the models call a reflow - a
 * container's top, bottom or side edge, moved because the container grew or shrank around its new
 * padding - is part of that change: it takes the spacing region's kind and caption (the summary says
 * the change once), its own caption as the detail. (Spacing the models alone see is often a child's
 * new size read as its container's padding: the edges are then that child's push.)
 */
function edgesOfRespaced(regions: ChangeRegion[], measured: ChangeRegion[]): void {
  const changed = regions.filter((r) => !r.noiseOnly && r.kind !== 'none');
  const spaced = measured[0];
  if (!spaced || changed.some((r) => !['spacing', 'reflow', 'move'].includes(r.kind))) return;
  for (const r of changed) {
    if (r.kind !== 'reflow' || r.pushedBy !== undefined || !thin(r.boxBefore) || !thin(r.boxAfter)) continue;
    const detail = r.detail ?? r.caption;
    r.kind = 'spacing';
    r.caption = `${captionLead(spaced)}; ${detail}`;
    r.detail = detail;
  }
}

/** Fewest regions whose content moved apart or together, with nothing changed to push it, read as new spacing. */
const RESPACED_REGIONS = 3;

/**
 * Content that only moved, in three regions or more, by different shifts that all point one way on
 * each axis (the second column 3 px left, the second row 9 px down), with no change anywhere in the
 * pair to push it: the gaps between the elements changed (a grid's gap, a list's spacing). A push
 * moves what follows by one shift; a container that grew around its centre moves content both ways.
 * Each such region is then a spacing change, its move the detail.
 */
function respaced(regions: ChangeRegion[], reading: PairReading): boolean {
  const changed = regions.map((r, i) => ({ r, v: reading.regions[i] })).filter(({ r }) => !r.noiseOnly && r.kind !== 'none');
  if (changed.length < RESPACED_REGIONS || reading.whole) return false;
  if (changed.some(({ r }) => r.pushedBy !== undefined || (r.kind !== 'reflow' && r.kind !== 'move'))) return false;
  const shifts = changed.flatMap(({ v }) => (v?.kind === 'move' && v.shift ? [v.shift] : []));
  if (shifts.length < 2) return false;
  const distinct = shifts.some((s) => Math.abs(s.dx - shifts[0].dx) > 2 || Math.abs(s.dy - shifts[0].dy) > 2);
  const oneWay = (values: number[]) => values.every((d) => d >= -1) || values.every((d) => d <= 1);
  const largest = Math.max(...shifts.map((s) => Math.max(Math.abs(s.dx), Math.abs(s.dy))));
  if (!distinct || !oneWay(shifts.map((s) => s.dx)) || !oneWay(shifts.map((s) => s.dy))) return false;
  if (largest < SYMMETRIC_SHIFT || largest > MAX_SYMMETRIC_SHIFT) return false;
  for (const { r } of changed) {
    const detail = r.detail ?? r.caption;
    r.kind = 'spacing';
    r.caption = `the spacing changed here; ${detail}`;
    r.detail = detail;
  }
  return true;
}
