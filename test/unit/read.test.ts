// The text reader (src/core/read/): OCR on real PNGs through onnxruntime, line matching, verdicts
// and the captions they write, and the realpairs scorer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { readPngFile, type RgbaImage } from '../../src/core/image.js';
import { TextReader, ctcDecode, isReadable, normaliseText, withoutIconGlyphs } from '../../src/core/read/ocr.js';
import { matchLines, changedWords, coreKey, pushedPastEdge, textKey, type LineChange } from '../../src/core/read/correspond.js';
import { verdictOf, rewordingCaption, shiftWords, movedByRoomOf, faintInk, type ReadVerdict } from '../../src/core/read/reading.js';
import { summaryCaptions } from '../../src/core/pipeline.js';
import {
  readPair,
  acrossRegions,
  applyReading,
  misreadOnly,
  readerDecides,
  readerWrites,
  readerWritesAll,
  elementMotions,
  withSharedPadding,
  withSymmetricPadding,
  withSwappedParts,
  withSwappedPixels,
  withRowPush,
  withCentredGrowth,
} from '../../src/core/read/pair.js';
import { colourChangeOf, colourName, isFade, isInkFade, neitherFaded, otherShade } from '../../src/core/read/colour.js';
import { findBlocks, matchBlocks } from '../../src/core/read/blocks.js';
import { elementAround, elementOf } from '../../src/core/read/element.js';
import { clippedSide } from '../../src/core/read/clip.js';
import { fillCaptionSlots, hasSlots, unreadSlots } from '../../src/core/read/slots.js';
import { blankImage, cloneImage, fillRect, type Rgba } from './image-fixtures.js';
import { scoreChecks } from '../../src/lab/realpairs.js';
import { quotedLabels, wordAccuracy } from '../../src/lab/ocr-eval.js';
import { SessionManager } from '../../src/core/session.js';
import { describe as describePair } from '../../src/core/pipeline.js';
import type { Box, ChangeRegion } from '../../src/core/report.js';
import type { TextLine } from '../../src/core/read/ocr.js';
import { MODELS_DIR, REPO_ROOT } from './runtime-fixtures.js';

const EXAMPLE_BEFORE = path.join(REPO_ROOT, 'examples', 'before.png');
const EXAMPLE_AFTER = path.join(REPO_ROOT, 'examples', 'after.png');
const line = (text: string, box: Box): TextLine => ({ text, box, confidence: 1 });

/** `image` with the pixels of `from` copied over `to` (same size): text pasted in another place. */
function pasted(image: RgbaImage, from: Box, to: [number, number]): RgbaImage {
  const out = { width: image.width, height: image.height, data: Uint8Array.from(image.data) };
  for (let y = from[1]; y < from[3]; y++) {
    for (let x = from[0]; x < from[2]; x++) {
      const s = (y * image.width + x) * 4,
        d = ((to[1] + y - from[1]) * image.width + to[0] + x - from[0]) * 4;
      out.data.set(image.data.subarray(s, s + 4), d);
    }
  }
  return out;
}

/** A model region of applyReading's tests: the id-th row of a list, 40 px apart. */
const region = (kind: ChangeRegion['kind'], caption: string, id: number): ChangeRegion => ({
  id,
  boxBefore: [10, 10 + 40 * id, 90, 30 + 40 * id],
  boxAfter: [10, 10 + 40 * id, 90, 30 + 40 * id],
  kind,
  caption,
  confidence: 0.9,
  diffPixels: 50,
  noiseOnly: false,
  cropBox: [0, 0, 96, 96],
});

test("OCR reads the example screenshot's UI text exactly, spaces included", async () => {
  const reader = new TextReader();
  try {
    const lines = await reader.read(readPngFile(EXAMPLE_BEFORE));
    const texts = lines.map((l) => l.text);
    for (const expected of [
      'Team members',
      'Two-factor login',
      'Get started',
      'Log out',
      'Enter country',
      'Review issue plan from meeting data fix',
    ]) {
      assert.ok(texts.includes(expected), `read ${JSON.stringify(expected)} among ${JSON.stringify(texts)}`);
    }
    const started = lines.find((l) => l.text === 'Get started')!;
    assert.ok(started.box[0] >= 20 && started.box[2] <= 110 && started.box[1] >= 340 && started.box[3] <= 372, `box ${started.box}`);
  } finally {
    await reader.dispose();
  }
});

test('a re-worded label in a real PNG is quoted old and new, with its words in the reading', async () => {
  const reader = new TextReader();
  try {
    const before = readPngFile(EXAMPLE_BEFORE);
    // "Overview" pasted over "Orders" (same tab background): the tab now reads Overview
    const after = pasted(before, [96, 95, 166, 119], [180, 95]);
    const reading = await readPair(reader, before, after, [[180, 95, 250, 119]]);
    const verdict = reading.regions[0];
    assert.ok(verdict, 'the reading explains the region');
    assert.equal(verdict.kind, 'text');
    assert.equal(verdict.caption, "the text 'Orders' now reads 'Overview'");
    assert.equal(verdict.textBefore, 'Orders');
    assert.equal(verdict.textAfter, 'Overview');
  } finally {
    await reader.dispose();
  }
});

test("describe: the example pair's moved button is named and measured by the reader; reversed, it moved up", async () => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const report = await describePair(sessions, EXAMPLE_BEFORE, EXAMPLE_AFTER, { procedure: false });
    const moved = report.regions.find((r) => r.caption === "the 'Get started' button moved 39 px down");
    assert.ok(moved, `a region says the button moved: ${report.regions.map((r) => r.caption).join(' | ')}`);
    assert.equal(moved.kind, 'move');
    assert.equal(moved.captionSource, 'reader');
    assert.match(report.summary, /the 'Get started' button moved 39 px down/);
    assert.ok(report.timings.readMs > 0);
    const reversed = await describePair(sessions, EXAMPLE_AFTER, EXAMPLE_BEFORE, { procedure: false });
    assert.match(reversed.summary, /the 'Get started' button moved 39 px up/);
    const withoutReader = await describePair(sessions, EXAMPLE_BEFORE, EXAMPLE_AFTER, { procedure: false, read: false });
    assert.ok(
      withoutReader.regions.every((r) => r.captionSource === undefined),
      "read: false leaves the model's captions",
    );
  } finally {
    await sessions.dispose();
  }
});

test('matchLines: same text moved, re-worded in place, added and removed', () => {
  const before = [
    line('Open Files', [30, 60, 100, 78]),
    line('Show Header', [30, 84, 118, 100]),
    line('Debugger Panel', [30, 108, 136, 124]),
  ];
  const after = [
    line('File Browser', [30, 60, 112, 78]),
    line('Table of Contents', [30, 84, 144, 100]),
    line('Show Header', [30, 108, 118, 124]),
    line('Debugger Panel', [30, 132, 136, 148]),
  ];
  const changes = matchLines(before, after);
  const kinds = changes.map((c) => c.kind).sort();
  assert.deepEqual(kinds, ['added', 'moved', 'moved', 'reworded']);
  const reworded = changes.find((c) => c.kind === 'reworded');
  assert.ok(reworded && reworded.kind === 'reworded');
  assert.equal(reworded.before.text, 'Open Files');
  assert.equal(reworded.after.text, 'File Browser');
  const moved = changes.filter((c) => c.kind === 'moved');
  for (const m of moved) if (m.kind === 'moved') assert.deepEqual([m.dx, m.dy], [0, 24]);
});

test('verdictOf: an insertion is one change with its consequence; numbers are read as numbers', () => {
  const before = [line('Show Header', [30, 84, 118, 100]), line('Debugger Panel', [30, 108, 136, 124])];
  const after = [
    line('Table of Contents', [30, 84, 144, 100]),
    line('Show Header', [30, 108, 118, 124]),
    line('Debugger Panel', [30, 132, 136, 148]),
  ];
  const inserted = verdictOf({ changes: matchLines([], after.slice(0, 1)).concat(matchLines(before, after.slice(1))) });
  assert.ok(inserted);
  assert.equal(inserted.kind, 'add');
  assert.equal(inserted.caption, "'Table of Contents' was added; 2 lines moved 24 px down");
  assert.deepEqual(inserted.pushed, { lines: 2, dx: 0, dy: 24 });
  const removed = verdictOf({ changes: matchLines([line('0', [0, 30, 10, 44]), line('1', [0, 60, 10, 74])], []) });
  assert.equal(removed?.caption, 'the numbers 0 and 1 were removed');
  assert.equal(verdictOf({ changes: matchLines(before, before) }), undefined, 'nothing changed: no verdict');
});

test('verdictOf: a label drawn larger beside a line it now covers is a font change, never the same words "now reading" themselves', () => {
  const verdict = verdictOf({
    changes: [
      { kind: 'reworded', before: line('Close', [145, 321, 199, 343]), after: line('Close', [128, 325, 198, 351]) },
      { kind: 'removed', before: line('Your launch shipping', [39, 374, 214, 398]) },
    ],
  });
  assert.equal(verdict?.kind, 'font');
  assert.equal(verdict?.caption, "the font of the text 'Close' changed: it is 16 px wider; 'Your launch shipping' disappeared");
  assert.equal(verdict?.detail, "'Your launch shipping' disappeared");
});

test('verdictOf: content moved as far right as down is new padding around it, other moves are moves', () => {
  const at = (dx: number, dy: number) => [
    line('Tickets', [44 + dx, 179 + dy, 106 + dx, 193 + dy]),
    line('Open', [44 + dx, 210 + dy, 90 + dx, 224 + dy]),
  ];
  const grown = verdictOf({ changes: matchLines(at(0, 0), at(13, 13)) });
  assert.equal(grown?.kind, 'spacing');
  assert.equal(grown?.caption, "more space around 'Tickets' and 'Open'; 'Tickets' and 'Open' moved 13 px right and 13 px down");
  assert.equal(grown?.detail, "'Tickets' and 'Open' moved 13 px right and 13 px down");
  const shrunk = verdictOf({ changes: matchLines(at(0, 0), at(-15, -15)) });
  assert.equal(shrunk?.kind, 'spacing');
  assert.ok(shrunk?.caption.startsWith("less space around 'Tickets' and 'Open'"));
  // a pixel apart (a padding drawn at a zoom) is still padding
  assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(11, 12)) })?.kind, 'spacing');
  // the container's own edges, redrawn, leave pixels no move explains: padding needs half explained,
  // a move four in five
  const edges = (explained: number) => ({ dx: -15, dy: -15, explained });
  assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(-15, -15)), shift: edges(0.6) })?.kind, 'spacing');
  assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(-15, -15)), shift: edges(0.3) }), undefined);
  assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(0, -15)), shift: { dx: 0, dy: -15, explained: 0.6 } }), undefined);
  // a straight move, a diagonal of unequal steps, one the other way (right and up) and a small
  // diagonal step stay moves
  for (const [dx, dy] of [
    [0, 13],
    [13, 9],
    [13, -13],
    [13, -12],
    [3, 3],
    [3, 4],
  ])
    assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(dx, dy)) })?.kind, 'move', `${dx},${dy}`);
  // where the models see the container re-spaced, their words lead and the reader's measure follows
  const regions = [region('spacing', 'the padding of the white card increased', 1)];
  applyReading(regions, { regions: [grown] });
  assert.equal(regions[0].kind, 'spacing');
  assert.equal(regions[0].caption, "the padding of the white card increased; 'Tickets' and 'Open' moved 13 px right and 13 px down");
  // measured on unread pixels only, new padding overrides only a layout kind or a move of the models
  const unread = { kind: 'spacing' as const, caption: 'more space around the content here', basis: 'pixels' as const };
  assert.equal(readerDecides(unread, 'color'), false);
  assert.equal(readerDecides(unread, 'move'), true);
});

test('faintInk: letters recoloured to about their background are still drawn; removed or tinted ones are not', () => {
  const card: Rgba = [251, 252, 252, 255];
  const box: Box = [10, 10, 70, 24];
  // three strokes of a word, drawn dark before
  const word = (image: RgbaImage, ink: Rgba) => {
    for (const x of [14, 30, 46]) fillRect(image, [x, 12, x + 8, 22], ink);
    return image;
  };
  const before = word(fillRect(blankImage(80, 40), [0, 0, 80, 40], card), [55, 60, 68, 255]);
  const ghost = word(fillRect(blankImage(80, 40), [0, 0, 80, 40], card), [248, 250, 252, 255]);
  const found = faintInk(before, ghost, box);
  assert.deepEqual(found?.own, [55, 60, 68]);
  assert.deepEqual(found?.other, [248, 250, 252]);
  // removed: the card is plain there
  const plain = fillRect(blankImage(80, 40), [0, 0, 80, 40], card);
  assert.equal(faintInk(before, plain, box), undefined);
  // the whole card tinted by as much: no shape of the letters
  const tinted = fillRect(blankImage(80, 40), [0, 0, 80, 40], [248, 250, 252, 255]);
  assert.equal(faintInk(before, tinted, box), undefined);
  // a verdict: the words' colour changed, not the words removed
  const gone = line('Visitors', box);
  const faded = verdictOf({
    changes: [{ kind: 'removed', before: gone }],
    faint: { Visitors: { before: 'dark grey', after: 'white', faded: true } },
  });
  assert.equal(faded?.kind, 'color');
  assert.equal(faded?.caption, "'Visitors' changed colour from dark grey to white, close to its background now");
  assert.equal(verdictOf({ changes: [{ kind: 'removed', before: gone }] })?.kind, 'remove');
});

test('verdictOf: text whose ink went toward its background (or back) faded; another hue is a recolour', () => {
  const kept = matchLines([line('Dashboard', [40, 20, 130, 36])], [line('Dashboard', [40, 20, 130, 36])]);
  const faded = verdictOf({ changes: kept, recoloured: [{ text: 'Dashboard', before: 'blue', after: 'light blue', fade: 'out' }] });
  assert.equal(faded?.kind, 'opacity');
  assert.equal(faded?.caption, "'Dashboard' faded: its text is now light blue, was blue");
  const fadedIn = verdictOf({ changes: kept, recoloured: [{ text: 'Dashboard', before: 'light grey', after: 'blue', fade: 'in' }] });
  assert.equal(fadedIn?.kind, 'opacity');
  assert.equal(fadedIn?.caption, "'Dashboard' faded in: its text is now blue, was light grey");
  const recoloured = verdictOf({ changes: kept, recoloured: [{ text: 'Dashboard', before: 'blue', after: 'red' }] });
  assert.equal(recoloured?.kind, 'color');
  assert.equal(recoloured?.caption, "the text 'Dashboard' changed colour from blue to red");
  // composited at a lower opacity, ink lies on the line to the background; a darker hue on a dark page does not
  assert.equal(isInkFade([1, 114, 173], [193, 220, 234], [255, 255, 255]), true, 'blue at 25% on white');
  assert.equal(isInkFade([192, 197, 206], [27, 94, 32], [24, 28, 37]), false, 'light grey to dark green on a dark page');
  assert.equal(isInkFade([1, 168, 252], [19, 23, 31], [19, 23, 31]), false, 'gone into the background: nothing left drawn');
  assert.equal(isFade([192, 197, 206], [27, 94, 32], [24, 28, 37]), true, 'the 4-bit colours of a region allow more');
});

test('verdictOf: two shades of one named colour are a recolour ("a lighter blue") unless one is the other faded toward the background', () => {
  const dark: Rgba = [24, 28, 37, 255];
  const page = fillRect(blankImage(200, 100, dark), [20, 20, 140, 70], [82, 95, 122, 255]);
  const lighter = fillRect(cloneImage(page), [20, 20, 140, 70], [96, 165, 250, 255]);
  const change = colourChangeOf(page, lighter, [20, 20, 140, 70])!;
  assert.deepEqual([change.before, change.after], ['blue', 'blue'], 'both are "blue" by name');
  assert.deepEqual(change.beforeMean, [82, 95, 122], 'exact colours, not the 4-bit bins');
  assert.deepEqual(change.afterMean, [96, 165, 250]);
  assert.equal(otherShade(change, [24, 28, 37]), 'a lighter blue');
  assert.equal(otherShade({ after: 'blue', beforeMean: [96, 165, 250], afterMean: [82, 95, 122] }, [24, 28, 37]), 'a darker blue');
  // the same blue at 40% over white lies on the line to the background: a fade, for the models to judge
  const faded: [number, number, number] = [153, 201, 221];
  assert.equal(neitherFaded([0, 119, 170], faded, [255, 255, 255]), false);
  assert.equal(otherShade({ after: 'blue', beforeMean: [0, 119, 170], afterMean: faded }, [255, 255, 255]), undefined);
  assert.equal(
    otherShade({ after: 'blue', beforeMean: [0, 119, 170], afterMean: [10, 130, 190] }, [255, 255, 255]),
    undefined,
    'one shade redrawn',
  );

  const kept = matchLines([line('Publish', [40, 35, 100, 52])], [line('Publish', [40, 35, 100, 52])]);
  const colour = { ...change, background: 'dark grey', backgroundRgb: [24, 28, 37] as [number, number, number] };
  const verdict = verdictOf({ changes: kept, colour });
  assert.equal(verdict?.kind, 'color');
  assert.equal(verdict?.caption, "'Publish' changed colour from blue to a lighter blue");
  assert.equal(verdict?.unfaded, true);
  // measured off the fade line both ways, the recolour is not the models' fade to judge
  assert.equal(readerDecides(verdict!, 'opacity'), true);
  assert.equal(readerDecides({ ...verdict!, unfaded: undefined }, 'opacity'), false);
  const sameShade = verdictOf({ changes: kept, colour: { ...colour, afterMean: [90, 100, 125] as [number, number, number] } });
  assert.equal(sameShade, undefined, 'no shade apart: nothing to say');
});

test('verdictOf: lines a push ran over went out of view (past the edge, or under what moved onto them); removed before the push, they were removed', () => {
  const rows = (texts: string[], y0: number, step = 24) => texts.map((t, i) => line(t, [40, y0 + i * step, 120, y0 + i * step + 16]));
  const size = { width: 640, height: 480 };
  // a card above grew 33 px: the form moved down, and the buttons at the bottom left the screenshot
  const before = rows(['Project name', 'Remember me', 'Continue'], 400);
  const after = rows(['Project name', 'Remember me'], 433);
  const out = verdictOf({ changes: matchLines(before, after), size });
  assert.equal(out?.kind, 'move');
  assert.equal(out?.caption, "'Project name' and 'Remember me' moved 33 px down; 'Continue' went out of view");
  // a menu grew over the table under it: its items moved down onto the first row's name
  const menu = rows(['Cut', 'Redo', 'Select all'], 100);
  const covered = verdictOf({
    changes: matchLines([...menu, line('Alice Larsen', [40, 172, 120, 188])], rows(['Cut', 'Redo', 'Select all'], 124)),
    size,
  });
  assert.equal(covered?.kind, 'move');
  assert.ok(covered?.caption.endsWith("; 'Alice Larsen' went out of view"), covered?.caption);
  // with something added, the push is its detail
  const added = verdictOf({ changes: matchLines(before, [line('Notes', [40, 400, 120, 416]), ...after]), size });
  assert.equal(added?.kind, 'add');
  assert.equal(added?.caption, "'Notes' was added; 2 lines moved 33 px down and 'Continue' went out of view");
  // a line removed above the lines that moved up into its place was removed
  const removed = verdictOf({ changes: matchLines(rows(['Alpha', 'Beta', 'Gamma'], 100), rows(['Beta', 'Gamma'], 100)), size });
  assert.equal(removed?.kind, 'remove');
  // nothing moved onto it and it stays in view: still a removal
  const apart = verdictOf({
    changes: matchLines([...rows(['Cut', 'Redo'], 100), line('Total', [300, 300, 360, 316])], rows(['Cut', 'Redo'], 110)),
    size,
  });
  assert.equal(apart?.kind, 'remove');
  // along a row the links before a removed one move right onto its place (a right-aligned nav): removed
  const nav = (texts: string[], x0: number) => texts.map((t, i) => line(t, [x0 + i * 60, 20, x0 + i * 60 + 50, 36]));
  const closed = verdictOf({ changes: matchLines(nav(['Docs', 'Blog', 'Home'], 400), nav(['Docs', 'Blog'], 460)), size });
  assert.equal(closed?.kind, 'remove');
});

test('applyReading: a move is pushed by a change above or before it, or below (after) it when it moved away from it', () => {
  const at = (kind: ChangeRegion['kind'], box: Box, id: number): ChangeRegion => ({
    ...region(kind, 'the model says', id),
    boxBefore: box,
    boxAfter: box,
  });
  const moved = (dx: number, dy: number) => ({
    kind: 'move' as const,
    caption: `'Rename file' moved ${shiftWords(dx, dy)}`,
    basis: 'words' as const,
    shift: { dx, dy },
  });
  const grown = { kind: 'resize' as const, caption: 'the button grew taller', basis: 'pixels' as const };
  const run = (cause: Box, dx: number, dy: number) => {
    const regions = [at('move', [40, 60, 220, 100], 1), at('resize', cause, 2)];
    applyReading(regions, { regions: [moved(dx, dy), grown] });
    return regions[0];
  };
  // a dialog grew at its bottom and, centred, moved its title up
  const up = run([40, 200, 440, 300], 0, -18);
  assert.equal(up.kind, 'reflow');
  assert.equal(up.pushedBy, 2);
  assert.equal(up.caption, "'Rename file' moved 18 px up, pushed by the change below");
  assert.equal(run([40, 0, 440, 40], 0, 18).caption, "'Rename file' moved 18 px down, pushed by the change above");
  assert.equal(run([300, 60, 400, 100], -12, 0).caption, "'Rename file' moved 12 px left, pushed by the change after it");
  // moving toward a change below or after it is not its push
  assert.equal(run([40, 200, 440, 300], 0, 18).kind, 'move');
  assert.equal(run([300, 60, 400, 100], 12, 0).kind, 'move');
  // content the models call re-spaced that the reader saw only move is pushed by a change that grew,
  // in the reader's words; by another region's spacing alone it is not
  const respaced = (causeKind: ChangeRegion['kind']) => {
    const regions = [
      { ...at('spacing', [40, 60, 220, 100], 1), caption: 'the dialog got more padding' },
      at(causeKind, [40, 200, 440, 300], 2),
    ];
    applyReading(regions, { regions: [moved(0, -18), undefined] });
    return regions[0];
  };
  const pushedUp = respaced('resize');
  assert.equal(pushedUp.kind, 'reflow');
  assert.equal(pushedUp.caption, "'Rename file' moved 18 px up, pushed by the change below");
  assert.equal(pushedUp.detail, undefined);
  assert.equal(respaced('spacing').kind, 'spacing');
});

test('applyReading: a new font pushes what follows by a few px along its own axis; a larger or crossways move was by itself', () => {
  const at = (kind: ChangeRegion['kind'], box: Box, id: number): ChangeRegion => ({
    ...region(kind, 'the model says', id),
    boxBefore: box,
    boxAfter: box,
  });
  const run = (cause: Box, dx: number, dy: number) => {
    const regions = [at('move', [40, 60, 220, 100], 1), at('font', cause, 2)];
    const moved = { kind: 'move' as const, caption: `'Help' moved ${shiftWords(dx, dy)}`, basis: 'words' as const, shift: { dx, dy } };
    applyReading(regions, { regions: [moved, undefined] });
    return regions[0];
  };
  // a heading above drawn larger moves the paragraph under it down; a bolder logo before it moves the links over
  assert.equal(run([40, 0, 440, 40], 0, 5).caption, "'Help' moved 5 px down, pushed by the change above");
  assert.equal(run([0, 60, 30, 100], -3, 0).caption, "'Help' moved 3 px left, pushed by the change before it");
  // 17 px down is more than a new font moves anything; a vertical move beside it is not its push
  assert.equal(run([40, 0, 440, 40], 0, 17).kind, 'move');
  assert.equal(run([0, 60, 30, 100], 0, -7).kind, 'move');
  assert.equal(run([40, 0, 440, 40], 4, 4).kind, 'move');
  // the thin side edge of the button whose label was made bold moved with it: part of its change
  const edge = at('move', [374, 345, 384, 407], 1);
  const label = { ...at('font', [397, 368, 490, 383], 2), caption: 'the text of the button was made bold' };
  const edgeMoved = {
    kind: 'move' as const,
    caption: 'the content here moved 6 px left',
    basis: 'pixels' as const,
    shift: { dx: -6, dy: 0 },
  };
  applyReading([edge, label], { regions: [edgeMoved, undefined] });
  assert.equal(edge.kind, 'font');
  assert.equal(edge.pushedBy, undefined);
});

test('a line that came where a removed one was, on another background, came into view: the last item of a menu went', () => {
  // a dark menu (fill 24,28,37) over a dark page (18,22,30) lost its last item, "Find"; the page's
  // "Wen Kowalski" shows where it was
  const before = fillRect(blankImage(400, 200, [18, 22, 30, 255]), [20, 20, 300, 160], [24, 28, 37, 255]);
  const after = fillRect(blankImage(400, 200, [18, 22, 30, 255]), [20, 20, 300, 120], [24, 28, 37, 255]);
  const find = line('Find', [44, 130, 82, 150]);
  const wen = line('Wen Kowalski', [44, 128, 158, 150]);
  const [read] = acrossRegions([{ changes: matchLines([find], [wen], { before, after }) }], before, after);
  assert.deepEqual(
    read.changes.map((c) => c.kind),
    ['removed'],
    'not one item re-worded',
  );
  assert.deepEqual(read.uncovered, ['Wen Kowalski']);
  assert.equal(verdictOf(read)?.kind, 'remove');
  assert.equal(verdictOf(read)?.caption, "'Find' was removed");
  // on the item's own background the new words are the item re-worded
  const same = fillRect(blankImage(400, 200, [18, 22, 30, 255]), [20, 20, 300, 160], [24, 28, 37, 255]);
  const [renamed] = acrossRegions(
    [{ changes: matchLines([find], [line('Search', [44, 130, 100, 150])], { before, after: same }) }],
    before,
    same,
  );
  assert.deepEqual(
    renamed.changes.map((c) => c.kind),
    ['reworded'],
  );
  // nor a label read the same but for a letter, half of it now off its shorter button
  const [cut] = acrossRegions(
    [{ changes: [{ kind: 'reworded', before: line('Cancel', [44, 130, 100, 150]), after: line('Cance', [44, 128, 98, 150]) }] }],
    before,
    after,
  );
  assert.deepEqual(
    cut.changes.map((c) => c.kind),
    ['reworded'],
  );
});

test('acrossRegions: a line that appeared where content that moved up was drawn came into view; one gone under content that moved down went out of view', () => {
  // a menu lost an item: its last items moved up (one region) and the table row under it shows (another)
  const menu = acrossRegions([
    {
      changes: matchLines(
        [line('Delete', [52, 430, 112, 446]), line('Export', [52, 478, 112, 494])],
        [line('Delete', [52, 381, 112, 397]), line('Export', [52, 429, 112, 445])],
      ),
    },
    { changes: matchLines([], [line('Zoe Berg', [50, 477, 133, 493])]) },
  ]);
  assert.deepEqual(menu[1].uncovered, ['Zoe Berg']);
  assert.equal(verdictOf(menu[1])?.kind, 'reflow');
  assert.equal(verdictOf(menu[1])?.caption, "'Zoe Berg' came into view");
  // the menu grew over it
  const grew = acrossRegions([
    { changes: matchLines([line('Select all', [40, 230, 120, 246])], [line('Select all', [40, 270, 120, 286])]) },
    { changes: matchLines([line('Alice Larsen', [40, 268, 130, 284])], []) },
  ]);
  assert.deepEqual(grew[1].covered, ['Alice Larsen']);
  assert.equal(verdictOf(grew[1])?.caption, "'Alice Larsen' went out of view");
  // a line added below content that moved down, or where nothing moved from, was added
  const added = acrossRegions([
    { changes: matchLines([line('Delete', [52, 430, 112, 446])], [line('Delete', [52, 480, 112, 496])]) },
    { changes: matchLines([], [line('Zoe Berg', [50, 430, 133, 446])]) },
  ]);
  assert.equal(added[1].uncovered, undefined);
  assert.equal(verdictOf(added[1])?.kind, 'add');
  // fields above grew: a line near the bottom, in another region, was pushed past the bottom edge
  const size = { before: blankImage(600, 480), after: blankImage(600, 480) };
  const pushed = acrossRegions(
    [
      { changes: matchLines([line('Project name', [40, 380, 160, 396])], [line('Project name', [40, 406, 160, 422])]) },
      { changes: matchLines([line('Remember me', [75, 447, 180, 465])], []) },
    ],
    size.before,
    size.after,
  );
  assert.deepEqual(pushed[1].covered, ['Remember me']);
  // higher up, the same push keeps it in view
  const kept = acrossRegions(
    [
      { changes: matchLines([line('Project name', [40, 300, 160, 316])], [line('Project name', [40, 326, 160, 342])]) },
      { changes: matchLines([line('Remember me', [75, 400, 180, 418])], []) },
    ],
    size.before,
    size.after,
  );
  assert.equal(kept[1].covered, undefined);
});

test('acrossRegions: the rest of a row that came into (went out of) view came too; a line on the next row was added', () => {
  // a menu lost an item: the table row under it shows, its name read as uncovered, its badge and count as added
  const uncovered = acrossRegions([
    {
      changes: matchLines(
        [line('Delete', [52, 430, 112, 446]), line('Export', [52, 478, 112, 494])],
        [line('Delete', [52, 381, 112, 397]), line('Export', [52, 429, 112, 445])],
      ),
    },
    { changes: matchLines([], [line('Zoe Berg', [50, 477, 133, 493]), line('Live', [198, 478, 248, 494])]) },
    { changes: matchLines([], [line('649', [313, 479, 346, 493]), line('Archived', [313, 520, 380, 536])]) },
  ]);
  assert.deepEqual(uncovered[1].uncovered, ['Zoe Berg', 'Live']);
  assert.deepEqual(uncovered[2].uncovered, ['649']);
  assert.equal(verdictOf(uncovered[2])?.kind, 'add');
  assert.equal(verdictOf(uncovered[2])?.caption, "'Archived' was added");
  // the menu grew over a row: its other cells, read removed in another region, went out of view too
  const covered = acrossRegions([
    { changes: matchLines([line('Select all', [40, 230, 120, 246])], [line('Select all', [40, 270, 120, 286])]) },
    { changes: matchLines([line('Alice Larsen', [40, 268, 130, 284])], []) },
    { changes: matchLines([line('Active', [300, 270, 350, 284])], []) },
  ]);
  assert.deepEqual(covered[2].covered, ['Active']);
  assert.equal(verdictOf(covered[2])?.kind, 'reflow');
  // nothing came into view: a line added beside a line that moved is added
  const added = acrossRegions([
    { changes: matchLines([line('Delete', [52, 430, 112, 446])], [line('Delete', [52, 480, 112, 496])]) },
    { changes: matchLines([], [line('Live', [198, 480, 248, 496])]) },
  ]);
  assert.equal(verdictOf(added[1])?.kind, 'add');
});

test('applyReading: a button that only got wider (narrower) beside a larger change on its row gave up or took room: a reflow', () => {
  const sized = (text: string, by: number): ReadVerdict => ({
    kind: 'resize',
    caption: `the '${text}' button got ${by > 0 ? 'wider' : 'narrower'}; it is now ${100 + by} x 62 px, was 100 x 62`,
    detail: `it is now ${100 + by} x 62 px, was 100 x 62`,
    basis: 'pixels',
    subject: text,
    sized: true,
    resized: { along: 'width', by },
  });
  const at = (r: ChangeRegion, box: Box) => ({ ...r, boxBefore: box, boxAfter: box });
  // the button before it shrank (the models): 'Back' took the room
  const shrank = [
    at(region('resize', 'the button at the bottom left shrank', 1), [20, 429, 296, 491]),
    at(region('resize', 'the button was resized', 2), [380, 452, 468, 469]),
  ];
  applyReading(shrank, { regions: [undefined, sized('Back', 58)] });
  assert.equal(shrank[1].kind, 'reflow');
  assert.equal(shrank[1].pushedBy, 1);
  assert.equal(shrank[1].caption, "the 'Back' button got wider, stretched by the change before it; it is now 158 x 62 px, was 100 x 62");
  // a narrow region beside it is its neighbour moving, not a cause; a change on another row is not either
  const narrow = [
    at(region('resize', "the 'Update' button got narrower", 1), [47, 274, 166, 336]),
    at(region('resize', 'something changed size here', 2), [182, 274, 218, 336]),
    at(region('add', 'a card was added', 3), [20, 400, 600, 460]),
  ];
  applyReading(narrow, { regions: [sized('Update', -30), undefined, undefined] });
  assert.equal(narrow[0].kind, 'resize');
  // two buttons of one row that changed together: which one was re-padded is not told; both stay
  const pair = [at(region('resize', 'x', 1), [144, 562, 237, 586]), at(region('resize', 'y', 2), [453, 562, 626, 586])];
  applyReading(pair, { regions: [sized('Sign in', 40), sized('Save changes', -40)] });
  assert.deepEqual(
    pair.map((r) => r.kind),
    ['resize', 'resize'],
  );
});

test('applyReading: words gone where the models saw a fade were removed, not hidden, where the layout around them moved or their row went', () => {
  const gone: ReadVerdict = { kind: 'remove', caption: "'Pricing' was removed", textBefore: 'Pricing', basis: 'words' };
  const moved: ReadVerdict = { kind: 'move', caption: "'Nimbus' moved 24 px up", basis: 'words', shift: { dx: 0, dy: -24 } };
  // content elsewhere moved, and nothing else changed to move it: the link was taken out
  const pulled = [region('opacity', 'the white link became invisible', 1), region('move', 'the content here shifted up', 2)];
  applyReading(pulled, { regions: [gone, moved] });
  assert.equal(pulled[0].kind, 'remove');
  assert.equal(pulled[0].caption, "'Pricing' was removed");
  assert.equal(pulled[1].kind, 'reflow');
  // nothing else moved: hidden and removed look alike, the models' fade stands
  const alone = [region('opacity', 'the white link became invisible', 1)];
  applyReading(alone, { regions: [gone] });
  assert.equal(alone[0].kind, 'opacity');
  // what moved went by less than the link's own height, or away from it: it moved by itself, the link's room stayed
  for (const shift of [
    { dx: 0, dy: -7 },
    { dx: 0, dy: 24 },
  ]) {
    const apart = [region('opacity', 'the white link became invisible', 1), region('move', 'the content here shifted', 2)];
    applyReading(apart, { regions: [gone, { ...moved, caption: `'Nimbus' moved ${shiftWords(shift.dx, shift.dy)}`, shift }] });
    assert.equal(apart[0].kind, 'opacity', JSON.stringify(shift));
  }
  // another change in the pair can have moved that content: the fade stands
  const caused = [
    region('opacity', 'the white link became invisible', 1),
    region('move', 'the content here shifted up', 2),
    region('resize', 'the card got shorter', 3),
  ];
  applyReading(caused, { regions: [gone, moved, undefined] });
  assert.equal(caused[0].kind, 'opacity');
  // another cell of its row was read removed: the row went
  const row = [
    { ...region('remove', "the 'Failed' button was removed", 1), boxBefore: [325, 290, 379, 317] as Box },
    { ...region('opacity', 'the row in the middle became invisible', 2), boxBefore: [41, 297, 143, 312] as Box },
  ];
  applyReading(row, { regions: [{ ...gone, caption: "the 'Failed' button was removed", textBefore: 'Failed' }, gone] });
  assert.deepEqual(
    row.map((r) => r.kind),
    ['remove', 'remove'],
  );
  // icons read gone where the models saw content shift: theirs, unless nothing else can have moved what moved
  const icons: ReadVerdict = { kind: 'remove', caption: '2 icons were removed', basis: 'shapes' };
  const shifted = [region('reflow', 'the elements here shifted far right', 1), region('move', 'the content here shifted up', 2)];
  applyReading(shifted, { regions: [icons, moved] });
  assert.equal(shifted[0].kind, 'remove');
  assert.equal(shifted[0].caption, '2 icons were removed');
  // ... also where only the models call the other content pushed (for icons; words gone need the reader's move)
  const modelsMoved = [
    region('reflow', 'the elements here shifted far right', 1),
    region('reflow', 'the content here shifted far right', 2),
  ];
  applyReading(modelsMoved, { regions: [icons, undefined] });
  assert.equal(modelsMoved[0].kind, 'remove');
  const hiddenWords = [region('opacity', 'the white link became invisible', 1), region('reflow', 'the content here shifted up', 2)];
  applyReading(hiddenWords, { regions: [gone, undefined] });
  assert.equal(hiddenWords[0].kind, 'opacity');
  const pushedAlong = [region('reflow', 'the elements here shifted far right', 1), region('add', 'a card was added', 2)];
  applyReading(pushedAlong, { regions: [icons, undefined] });
  assert.equal(pushedAlong[0].kind, 'reflow');
});

test('movedByRoomOf: content after an element taken out closes its room, toward it and by its size; before it, by half (a centred layout)', () => {
  const at: Box = [100, 100, 200, 120];
  // below, moved up by the element's height (its box within 2 px): a removal; down: an insertion
  assert.equal(movedByRoomOf('remove', at, [100, 130, 200, 150], { dx: 0, dy: -20 }), true);
  assert.equal(movedByRoomOf('remove', at, [100, 130, 200, 150], { dx: 0, dy: -18 }), true);
  assert.equal(movedByRoomOf('remove', at, [100, 130, 200, 150], { dx: 0, dy: -7 }), false);
  assert.equal(movedByRoomOf('remove', at, [100, 130, 200, 150], { dx: 0, dy: 20 }), false);
  assert.equal(movedByRoomOf('add', at, [100, 130, 200, 150], { dx: 0, dy: 20 }), true);
  assert.equal(movedByRoomOf('add', at, [100, 130, 200, 150], { dx: 0, dy: -20 }), false);
  // above it, in a centred dialog: down by half the room for a removal
  assert.equal(movedByRoomOf('remove', at, [100, 40, 200, 60], { dx: 0, dy: 10 }), true);
  assert.equal(movedByRoomOf('remove', at, [100, 40, 200, 60], { dx: 0, dy: -10 }), false);
  // along a row: only content on the row, after it by its width
  assert.equal(movedByRoomOf('remove', at, [220, 100, 300, 120], { dx: -100, dy: 0 }), true);
  assert.equal(movedByRoomOf('remove', at, [220, 100, 300, 120], { dx: 30, dy: 0 }), false);
  assert.equal(movedByRoomOf('remove', at, [220, 300, 300, 320], { dx: -100, dy: 0 }), false);
  // a diagonal move (items wrapping anew) is not judged
  assert.equal(movedByRoomOf('remove', at, [220, 100, 300, 120], { dx: -90, dy: 40 }), true);
});

test('verdictOf: lines that moved away from words taken out (or by less than their room) were not pushed by it', () => {
  const removed = (dx: number, dy: number): LineChange[] => [
    { kind: 'removed', before: line('Export', [400, 365, 445, 381]) },
    {
      kind: 'moved',
      before: line('Subscribe', [530, 365, 600, 381]),
      after: line('Subscribe', [530 + dx, 365 + dy, 600 + dx, 381 + dy]),
      dx,
      dy,
    },
  ];
  const closed = verdictOf({ changes: removed(-60, 0) });
  assert.equal(closed?.kind, 'remove');
  assert.deepEqual(closed?.pushed, { lines: 1, dx: -60, dy: 0 });
  assert.deepEqual(closed?.linesBox, [400, 365, 445, 381]);
  const away = verdictOf({ changes: removed(30, 0) });
  assert.equal(away?.kind, 'remove');
  assert.equal(away?.pushed, undefined);
  assert.equal(away?.caption, "'Export' was removed; 'Subscribe' moved 30 px right");
});

test('applyReading: a move by less than the room of the words taken out beside it was not pushed by that removal', () => {
  const gone: ReadVerdict = {
    kind: 'remove',
    caption: "'Sessions' was removed",
    textBefore: 'Sessions',
    basis: 'words',
    linesBox: [10, 52, 90, 64],
  };
  const moved = (dy: number): ReadVerdict => ({
    kind: 'move',
    caption: `'Learn more' moved ${-dy} px up`,
    basis: 'words',
    shift: { dx: 0, dy },
  });
  const pair = (dy: number) => {
    const regions = [region('remove', 'the heading was removed', 1), region('move', 'the button moved up', 2)];
    applyReading(regions, { regions: [gone, moved(dy)] });
    return regions[1];
  };
  assert.equal(pair(-16).kind, 'reflow');
  assert.equal(pair(-16).caption, "'Learn more' moved 16 px up, pushed by the change above");
  assert.equal(pair(-7).kind, 'move');
  assert.equal(pair(-7).caption, "'Learn more' moved 7 px up");
});

test('withCentredGrowth: content moved up with rows past it moved down by as much is a growth about the centre', () => {
  const ink: Rgba = [40, 40, 50, 255],
    fill: Rgba = [30, 90, 200, 255],
    edge: Rgba = [150, 150, 160, 255];
  // a centred dialog with a 1 px edge at its foot: a title, a button and a footer line; the button
  // `grow` px taller moves the title up and the footer and the foot down by half of it (`foot` says
  // how far the footer and the foot went instead)
  const dialog = (grow: number, foot = grow / 2, titleDx = 0) => {
    let image = fillRect(blankImage(400, 320), [40, 20, 360, 280 + foot], [246, 246, 248, 255]);
    image = fillRect(image, [40, 279 + foot, 360, 280 + foot], edge);
    image = fillRect(image, [60 + titleDx, 60 - grow / 2, 160 + titleDx, 72 - grow / 2], ink);
    image = fillRect(image, [120, 130 - grow / 2, 220, 160 + grow / 2], fill);
    image = fillRect(image, [150, 140, 190, 150], [250, 250, 250, 255]);
    return fillRect(image, [60, 220 + foot, 340, 226 + foot], ink);
  };
  const before = dialog(0);
  const title: Box = [60, 50, 160, 72],
    footer: Box = [60, 220, 340, 236];
  const moved = (dx: number, dy: number): ReadVerdict => ({
    kind: 'move',
    caption: `'Delete project?' moved ${shiftWords(dx, dy)}`,
    basis: 'words',
    shift: { dx, dy },
  });
  const run = (after: RgbaImage, verdict: ReadVerdict) => withCentredGrowth([verdict, undefined], [title, footer], before, after)[0];
  assert.equal(run(dialog(20), moved(0, -10))?.centred, 'below');
  // an odd growth moves one side a pixel further
  assert.equal(run(dialog(21, 11), moved(0, -10))?.centred, 'below');
  // shrunk: the title came down, the foot up
  assert.equal(withCentredGrowth([moved(0, 10)], [[60, 60, 160, 82]], before, dialog(-20))[0]?.centred, 'below');
  // the foot moved the same way (the whole dialog moved), or stayed: no growth about a centre
  assert.equal(run(dialog(20, -10), moved(0, -10))?.centred, undefined);
  assert.equal(run(dialog(20, 0), moved(0, -10))?.centred, undefined);
  // a title moved across as well is the dialog's new padding, not its growth
  assert.equal(run(dialog(20, 10, 10), moved(10, -10))?.centred, undefined);
});

test('applyReading: content a centred growth moved is pushed by the change on its side, whichever way it moved', () => {
  const at = (kind: ChangeRegion['kind'], box: Box, id: number): ChangeRegion => ({
    ...region(kind, 'the dialog got more padding', id),
    boxBefore: box,
    boxAfter: box,
  });
  const moved = (dy: number, centred?: 'above' | 'below'): ReadVerdict => ({
    kind: 'move',
    caption: `'Invite people' moved ${shiftWords(0, dy)}`,
    basis: 'words',
    shift: { dx: 0, dy },
    ...(centred ? { centred } : {}),
  });
  // toward a button below that shrank: its push only where the growth was about a centre
  const shrank = (centred?: 'below') => {
    const regions = [at('spacing', [40, 60, 220, 100], 1), at('resize', [40, 200, 440, 300], 2)];
    applyReading(regions, { regions: [moved(15, centred), undefined] });
    return regions[0];
  };
  assert.equal(shrank().kind, 'spacing');
  const pushed = shrank('below');
  assert.equal(pushed.kind, 'reflow');
  assert.equal(pushed.pushedBy, 2);
  assert.equal(pushed.caption, "'Invite people' moved 15 px down, pushed by the change below");
  // with no change of its own between (its pixels went with the moved content) there is nothing to
  // say it was pushed by: the models' call stands
  const alone = [at('spacing', [40, 60, 220, 100], 1)];
  applyReading(alone, { regions: [moved(-13, 'below')] });
  assert.equal(alone[0].kind, 'spacing');
  // what the growth carried pushes nothing itself: a field below it moved across by its own padding
  const across: ReadVerdict = { kind: 'move', caption: "the 'Address' input moved 17 px right", basis: 'words', shift: { dx: 17, dy: 0 } };
  const form = [
    at('spacing', [40, 60, 220, 100], 1),
    { ...at('spacing', [40, 140, 220, 180], 2), caption: 'more space inside the form' },
    at('resize', [40, 260, 440, 300], 3),
  ];
  applyReading(form, { regions: [moved(-18, 'below'), across, undefined] });
  assert.equal(form[0].kind, 'reflow');
  assert.equal(form[0].pushedBy, 3);
  assert.equal(form[1].kind, 'spacing');
});

test('clippedSide: a label cut off by its element that got smaller, not a shorter or restyled label', () => {
  const page: Rgba = [250, 250, 250, 255],
    fill: Rgba = [30, 90, 200, 255],
    ink: Rgba = [255, 255, 255, 255];
  // a button with two "words" of bar-shaped letters; `fillFrom`..`fillTo` is its fill after the
  // change, letters past it are drawn on the page (white on white: gone); `letters` says which bars
  // are drawn and `stroke` how thick
  const button = (fillFrom = 20, fillTo = 180, letters = 10, stroke = 3) => {
    let image = fillRect(blankImage(220, 60, page), [fillFrom, 10, fillTo, 50], fill);
    for (let i = 0; i < letters; i++) {
      const x = 40 + i * 12 + (i >= 5 ? 8 : 0); // a word gap after the fifth letter
      for (let y = 20; y < 40; y++) {
        for (let dx = 0; dx < stroke; dx++) {
          const inside = x + dx >= fillFrom && x + dx < fillTo;
          image = fillRect(image, [x + dx, y, x + dx + 1, y + 1], inside ? ink : page);
        }
      }
      // a cross-bar, so that a letter is wider than its stroke
      image = fillRect(image, [x, 29, Math.min(x + 8, fillTo), 31], x < fillTo && x >= fillFrom ? ink : page);
    }
    return image;
  };
  const before = button();
  const label: Box = [38, 18, 170, 42];
  // narrower on both sides, through letters: cut off at both sides
  assert.equal(clippedSide(before, button(56, 148), label, [56, 18, 148, 42]), 'both sides');
  assert.equal(clippedSide(before, button(20, 110), label, [38, 18, 110, 42]), 'right');
  // the same button with the second word gone (a shorter label): not cut
  assert.equal(clippedSide(before, button(20, 180, 5), label, [38, 18, 100, 42]), undefined);
  // its last letters re-worded into one that touches the letter before, the button shrunk to fit
  // the new word: the new letter is on the fill that stayed, which changed there - not cut
  let reworded = fillRect(button(20, 164, 7), [130, 20, 144, 40], ink);
  reworded = fillRect(reworded, [164, 10, 180, 50], page);
  assert.equal(clippedSide(before, reworded, label, [38, 18, 144, 42]), undefined);
  // thinner letters (another weight) and an unchanged button: not cut
  assert.equal(clippedSide(before, button(20, 180, 10, 2), label, label), undefined);
  assert.equal(clippedSide(before, before, label, label), undefined);
  // the reading of such a label: the element's new size, not new words
  const cut: LineChange = { kind: 'reworded', before: line('Log out', [381, 367, 457, 390]), after: line('Loaout', [385, 381, 455, 395]) };
  const verdict = verdictOf({ changes: [cut], clipped: { 'Log out': { side: 'bottom', role: 'button' } } });
  assert.equal(verdict?.kind, 'resize');
  assert.equal(verdict?.caption, "the 'Log out' button got shorter: its text is cut off at the bottom");
  assert.equal(verdictOf({ changes: [cut] })?.kind, 'text');
});

test('withRowPush: the element beside a button that got narrower moved over by the room it gave up', () => {
  const fill: Rgba = [30, 90, 200, 255],
    ink: Rgba = [250, 250, 250, 255],
    edge: Rgba = [90, 90, 100, 255];
  // a filled button 112 px wide, then an outlined one 60 px wide with a label, 40 px apart
  const row = (width: number) => {
    let image = fillRect(blankImage(400, 100), [20, 30, 20 + width, 80], fill);
    image = fillRect(image, [40, 50, 40 + width - 40, 58], ink);
    const x = 20 + width + 40;
    image = fillRect(image, [x, 30, x + 60, 80], edge);
    image = fillRect(image, [x + 2, 32, x + 58, 78], [255, 255, 255, 255]);
    return fillRect(image, [x + 10, 50, x + 40, 58], edge);
  };
  const before = row(112),
    after = row(82);
  const narrower: ReadVerdict = { kind: 'spacing', caption: "the 'Update' button got less padding at its sides", basis: 'words' };
  const boxes: Box[] = [
    [102, 30, 132, 80],
    [142, 30, 232, 80],
  ];
  const out = withRowPush([narrower, undefined], boxes, before, after);
  assert.equal(out[1]?.kind, 'move');
  assert.deepEqual(out[1]?.shift, { dx: -30, dy: 0 });
  assert.equal(out[1]?.caption, 'the content here moved 30 px left');
  // nothing changed beside it on its row: not looked for
  assert.deepEqual(withRowPush([undefined, undefined], boxes, before, after), [undefined, undefined]);
  // a change on another row is not beside it
  assert.equal(withRowPush([narrower, undefined], [[102, 85, 132, 99], boxes[1]], before, after)[1], undefined);
});

test('applyReading: content the models call resized that only moved, below a change that pushed it, is its push', () => {
  const moved: ReadVerdict = {
    kind: 'move',
    caption: "'Visitors' and 6 more lines moved 36 px down",
    basis: 'words',
    shift: { dx: 0, dy: 36 },
  };
  const pushed = [region('resize', 'the white button shrank', 1), region('resize', 'the white card got taller', 2)];
  applyReading(pushed, { regions: [undefined, moved] });
  assert.equal(pushed[1].kind, 'reflow');
  assert.equal(pushed[1].pushedBy, 1);
  assert.equal(pushed[1].caption, "'Visitors' and 6 more lines moved 36 px down, pushed by the change above");
  // nothing above it changed: the models' resize stands, with the reader's measure
  const alone = [region('resize', 'the white card got taller', 1)];
  applyReading(alone, { regions: [moved] });
  assert.equal(alone[0].kind, 'resize');
});

test('pushedPastEdge: the strip between a vanished line and the edge is what that far up (down) held; a line removed in place is not pushed', () => {
  const border: [number, number, number, number] = [229, 231, 235, 255];
  const text: [number, number, number, number] = [40, 40, 48, 255];
  const visitors: Box = [44, 452, 110, 466];
  // a card's faint top border at y 430 and the 'Visitors' line below it; a change above pushed both down 28 px
  const before = fillRect(fillRect(blankImage(600, 480), [20, 430, 580, 431], border), visitors, text);
  const after = fillRect(blankImage(600, 480), [20, 458, 580, 459], border);
  assert.equal(pushedPastEdge(before, after, visitors), 28);
  // read backwards, the line came into view from below as content moved up
  assert.equal(pushedPastEdge(after, before, visitors), undefined, 'the line is not drawn in the earlier screenshot');
  const risen = acrossRegions([{ changes: matchLines([], [line('Visitors', visitors)]) }], after, before);
  assert.deepEqual(risen[0].uncovered, ['Visitors']);
  assert.equal(verdictOf(risen[0])?.caption, "'Visitors' came into view");
  // removed in place: the border stays, nothing lines up under a push
  const removed = fillRect(blankImage(600, 480), [20, 430, 580, 431], border);
  assert.equal(pushedPastEdge(before, removed, visitors), undefined);
  const gone = acrossRegions([{ changes: matchLines([line('Visitors', visitors)], []) }], before, removed);
  assert.equal(verdictOf(gone[0])?.kind, 'remove');
  // a blank strip lines up under any push: no evidence, still a removal
  assert.equal(pushedPastEdge(fillRect(blankImage(600, 480), visitors, text), blankImage(600, 480), visitors), undefined);
  // the top edge: content moved up 30 px and carried the first line out
  const title: Box = [44, 10, 110, 24];
  const top = fillRect(fillRect(blankImage(600, 480), [20, 40, 580, 41], border), title, text);
  const scrolled = fillRect(blankImage(600, 480), [20, 10, 580, 11], border);
  assert.equal(pushedPastEdge(top, scrolled, title), -30);
  // an icon cut by the edge under the same push went out of view with it; one gone in place was removed
  const icon: Box = [200, 440, 216, 456];
  const withIcon = fillRect(cloneImage(before), icon, text);
  const iconCut = fillRect(cloneImage(after), [200, 468, 216, 480], text);
  const block = { box: icon, mask: new Uint8Array(256).fill(1) };
  const [cut] = acrossRegions([{ changes: [], blocks: [{ kind: 'removed', before: block }] }], withIcon, iconCut);
  assert.deepEqual(cut.blocks, []);
  const [kept] = acrossRegions([{ changes: [], blocks: [{ kind: 'removed', before: block }] }], withIcon, removed);
  assert.equal(kept.blocks?.length, 1);
  // far from both edges, no push is looked for
  const middle: Box = [44, 200, 110, 214];
  assert.equal(pushedPastEdge(fillRect(blankImage(600, 480), middle, text), after, middle), undefined);
});

test('withSwappedParts: the rest of two elements that traded places (their icons) is part of the swap; a change in place is not', () => {
  const ink: [number, number, number, number] = [40, 40, 48, 255];
  const card = (image: RgbaImage, x: number, label: number, icon: 'bar' | 'box' | 'dot') => {
    fillRect(image, [x + 10, 20, x + 10 + label, 34], ink);
    if (icon === 'bar') fillRect(image, [x + 80, 22, x + 92, 26], ink);
    else if (icon === 'dot') fillRect(image, [x + 84, 24, x + 88, 28], ink);
    else fillRect(fillRect(image, [x + 80, 20, x + 92, 32], ink), [x + 83, 23, x + 89, 29], [255, 255, 255, 255]);
    return image;
  };
  // two cards 200 px apart, each a label and an icon, a third card whose icon changes in place
  const before = card(card(card(blankImage(600, 60), 0, 50, 'bar'), 200, 60, 'box'), 400, 50, 'bar');
  const after = card(card(card(blankImage(600, 60), 0, 60, 'box'), 200, 50, 'bar'), 400, 50, 'dot');
  const swap = (a: string, b: string): ReadVerdict => ({ kind: 'reorder', caption: `'${a}' and '${b}' swapped places`, basis: 'words' });
  const boxes: Box[] = [
    [10, 20, 70, 34],
    [210, 20, 270, 34],
    [80, 20, 92, 32],
    [280, 20, 292, 32],
    [480, 20, 492, 32],
  ];
  // (the reader saw one icon swapped for another at the second card: its shapes, not words)
  const iconSwapped: ReadVerdict = { kind: 'icon', caption: 'an icon was replaced by another', basis: 'shapes' };
  const out = withSwappedParts(
    [swap('Storage', 'Conversion'), swap('Conversion', 'Storage'), undefined, iconSwapped, undefined],
    boxes,
    before,
    after,
  );
  assert.equal(out[2]?.kind, 'reorder');
  assert.equal(out[2]?.caption, "'Storage' and 'Conversion' swapped places; what was here moved 200 px right");
  assert.equal(out[3]?.detail, 'what was here moved 200 px left');
  assert.equal(out[4], undefined, 'the third card had the icon now one card away, but nothing traded places with it');
  // without a swap the reader saw, nothing is looked for
  assert.deepEqual(withSwappedParts([undefined, undefined], boxes.slice(2, 4), before, after), [undefined, undefined]);
  // the summary says the swap once
  assert.deepEqual(
    summaryCaptions(
      out.slice(0, 4).map((v) => ({ kind: v!.kind, caption: v!.caption, detail: v!.detail, noiseOnly: false, captionSource: 'reader' })),
    ),
    ["'Storage' and 'Conversion' swapped places"],
  );
});

test('withSwappedPixels: two regions whose contents traded places are a swap, named where one read the words; one that moved alone is not', () => {
  const ink: [number, number, number, number] = [40, 40, 48, 255];
  const upper: Box = [20, 20, 80, 32],
    lower: Box = [20, 73, 80, 85];
  const mark = (image: RgbaImage, box: Box, long: boolean) => fillRect(image, [box[0], box[1], box[0] + (long ? 50 : 30), box[3]], ink);
  const before = mark(mark(blankImage(200, 120), upper, false), lower, true);
  const after = mark(mark(blankImage(200, 120), upper, true), lower, false);
  const out = withSwappedPixels([undefined, undefined], [upper, lower], before, after);
  assert.equal(out[0]?.kind, 'reorder');
  assert.equal(out[0]?.caption, 'two elements swapped places; this one moved 53 px down');
  assert.equal(out[1]?.detail, 'this one moved 53 px up');
  const reworded: ReadVerdict = {
    kind: 'text',
    caption: "the text '/users' now reads '/users/search'",
    textBefore: '/users',
    textAfter: '/users/search',
    basis: 'words',
  };
  assert.equal(
    withSwappedPixels([reworded, undefined], [upper, lower], before, after)[1]?.caption,
    "'/users' and '/users/search' swapped places; this one moved 53 px up",
  );
  // two like marks trade places without anything changing
  const twins = mark(mark(blankImage(200, 120), upper, true), lower, true);
  assert.deepEqual(withSwappedPixels([undefined, undefined], [upper, lower], twins, twins), [undefined, undefined]);
  // flat fills (a notice's coloured bar) match whatever has their colour: no evidence of a swap
  const bars = (top: Rgba, bottom: Rgba) => fillRect(fillRect(blankImage(200, 120), upper, top), lower, bottom);
  const [red, green]: Rgba[] = [
    [200, 40, 40, 255],
    [40, 160, 60, 255],
  ];
  assert.deepEqual(withSwappedPixels([undefined, undefined], [upper, lower], bars(red, green), bars(green, red)), [undefined, undefined]);
  // the long one moved up over the short one's place, which is now empty below: not a swap
  const moved = mark(blankImage(200, 120), upper, true);
  assert.deepEqual(withSwappedPixels([undefined, undefined], [upper, lower], before, moved), [undefined, undefined]);
});

test('a list that repeats a row, pushed one row along, is a push at the two places that read as a swap', () => {
  // rows 40 px apart: long, short, long (the same row twice); a new row at the top pushes them down
  const ink: Rgba = [40, 40, 48, 255];
  const row = (image: RgbaImage, y: number, long: boolean) => fillRect(image, [20, y, long ? 70 : 45, y + 12], ink);
  const before = row(row(row(blankImage(200, 200), 60, true), 100, false), 140, true);
  const after = row(row(row(row(blankImage(200, 200), 60, false), 100, true), 140, false), 180, true);
  fillRect(after, [20, 60, 30, 72], [200, 40, 40, 255]); // the new row is unlike the others
  const [second, third]: Box[] = [
    [20, 100, 80, 112],
    [20, 140, 80, 152],
  ];
  // each place now shows what was one row back: no swap
  assert.deepEqual(withSwappedPixels([undefined, undefined], [second, third], before, after), [undefined, undefined]);
  // the reader's words at those places: 'schema.sql' -> 'config.yaml' and 'config.yaml' -> 'schema.sql'
  const reworded = (from: string, to: string, box: Box): LineChange => ({
    kind: 'reworded',
    before: line(from, box),
    after: line(to, box),
  });
  const readings = [
    { changes: [reworded('schema.sql', 'config.yaml', second)] },
    { changes: [reworded('config.yaml', 'schema.sql', third)] },
  ];
  const across = acrossRegions(readings, before, after);
  assert.equal(across[0].swapped, undefined);
  assert.deepEqual(
    across.map((r) => r.changes.map((c) => (c.kind === 'moved' ? `${c.after.text} ${c.dx},${c.dy}` : c.kind))),
    [['config.yaml 0,40'], ['schema.sql 0,40']],
  );
  // rows that really traded places, the row before them unlike either, stay a swap
  const first = (image: RgbaImage) => fillRect(row(image, 60, true), [20, 60, 30, 72], [40, 60, 200, 255]);
  const unpushed = row(row(first(blankImage(200, 200)), 100, false), 140, true);
  const swapped = row(row(first(blankImage(200, 200)), 100, true), 140, false);
  assert.equal(acrossRegions(readings, unpushed, swapped)[0].swapped?.join(' -> '), 'schema.sql -> config.yaml');
  assert.equal(withSwappedPixels([undefined, undefined], [second, third], unpushed, swapped)[0]?.kind, 'reorder');
});

test('withSharedPadding: lines moved by the shift of new padding measured elsewhere in the pair are that padding', () => {
  const moved = (text: string, box: Box, dx: number, dy: number): LineChange => ({
    kind: 'moved',
    before: line(text, box),
    after: line(text, [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy]),
    dx,
    dy,
  });
  const padding: ReadVerdict = {
    kind: 'spacing',
    caption: "less space around 'Orders'; 'Orders' moved 15 px left and 15 px up",
    detail: "'Orders' moved 15 px left and 15 px up",
    basis: 'words',
    shift: { dx: -15, dy: -15 },
  };
  const pushedUp: ReadVerdict = { kind: 'move', caption: "'Errors' moved 22 px up", basis: 'words', shift: { dx: 0, dy: -22 } };
  const readings = [
    { changes: [moved('Orders', [345, 147, 394, 158], -15, -15)] },
    // the card's button row, and the card below it pushed up
    { changes: [moved('Export', [360, 310, 420, 328], -15, -14), moved('Errors', [345, 392, 390, 404], 0, -22)] },
    { changes: [moved('Errors', [345, 392, 390, 404], 0, -22)] },
  ];
  const out = withSharedPadding([padding, undefined, pushedUp], readings);
  assert.equal(out[0], padding);
  assert.equal(out[1]?.kind, 'spacing');
  assert.equal(out[1]?.caption, "less space around 'Orders'; 'Export' moved 15 px left and 15 px up");
  assert.equal(out[2], pushedUp);
  // a second region that measured the same padding says it with the first one's lead
  const again: ReadVerdict = {
    ...padding,
    caption: "less space around 'Export'; 'Export' moved 15 px left and 15 px up",
    detail: "'Export' moved 15 px left and 15 px up",
  };
  assert.equal(
    withSharedPadding([padding, again], readings.slice(0, 2))[1]?.caption,
    "less space around 'Orders'; 'Export' moved 15 px left and 15 px up",
  );
  // no padding measured in the pair: nothing to share
  assert.deepEqual(withSharedPadding([undefined, pushedUp], readings.slice(1)), [undefined, pushedUp]);
  // a paragraph of the card re-wrapped (the same words broken anew), its left edge and top moved by
  // about the padding's shift: the same change
  const rewrapped = {
    changes: [
      ...matchLines([], [line('Issue invoice plan update for fix sync team', [21, 184, 311, 199])]),
      {
        kind: 'reworded' as const,
        before: line('Issue invoice plan update for fix sync', [35, 197, 289, 214]),
        after: line('and from.', [21, 206, 88, 221]),
      },
      ...matchLines([line('team and from.', [35, 220, 140, 235])], []),
    ],
  };
  const wrapped = withSharedPadding([padding, undefined], [readings[0], rewrapped])[1];
  assert.equal(wrapped?.kind, 'spacing');
  assert.equal(
    wrapped?.caption,
    "less space around 'Orders'; 'Issue invoice plan update for fix sync team' re-wrapped and moved 14 px left and 13 px up",
  );
  // ... not where words came or went
  const reworded2 = { changes: [...rewrapped.changes.slice(0, 2), ...matchLines([line('team and more.', [35, 220, 140, 235])], [])] };
  assert.equal(withSharedPadding([padding, undefined], [readings[0], reworded2])[1], undefined);
  // a region the reader read as words re-worded keeps its verdict
  const reworded: ReadVerdict = {
    kind: 'text',
    caption: "the text 'Export' now reads 'Share'",
    basis: 'words',
    textBefore: 'Export',
    textAfter: 'Share',
  };
  assert.equal(withSharedPadding([padding, reworded], readings.slice(0, 2))[1], reworded);
});

test('withSymmetricPadding: content moving toward (or away from) each other by as much is new padding, not a swap or a push', () => {
  const move = (words: string, dx: number, dy: number) => ({
    kind: 'move' as const,
    caption: `${words} moved ${shiftWords(dx, dy)}`,
    basis: 'words' as const,
    shift: { dx, dy },
  });
  const title = move("'Rename file'", 17, 0),
    buttons = move("'Update' and 'Reset'", -17, 0);
  const boxes: Box[] = [
    [161, 211, 541, 297],
    [400, 333, 640, 395],
  ];
  const grown = withSymmetricPadding([title, buttons], boxes);
  assert.deepEqual(
    grown.map((v) => v?.kind),
    ['spacing', 'spacing'],
  );
  assert.equal(grown[0]?.caption, "more space around 'Rename file'; 'Rename file' moved 17 px right");
  assert.equal(grown[1]?.detail, "'Update' and 'Reset' moved 17 px left");
  // apart: less space; the same along the other axis
  const shrunk = withSymmetricPadding([move("'A'", -8, 3), move("'B'", 8, 3)], boxes);
  assert.ok(shrunk[0]?.caption.startsWith("less space around 'A'"), shrunk[0]?.caption);
  const vertical = withSymmetricPadding(
    [move("'Top'", 0, 9), move("'Bottom'", 0, -9)],
    [
      [10, 10, 100, 30],
      [10, 200, 100, 220],
    ],
  );
  const unchanged = (vs: ReturnType<typeof move>[], bs: Box[], why: string) => assert.deepEqual(withSymmetricPadding(vs, bs), vs, why);
  // up and down: a centred dialog's content closing in is something between them that shrank (new
  // padding grows the dialog around content that stays)
  assert.deepEqual(
    vertical.map((v) => v?.kind),
    ['move', 'move'],
  );
  unchanged([title, move("'Update'", -17, 4)], boxes, 'the other axis differs');
  unchanged([title, move("'Update'", -12, 0)], boxes, 'not as far');
  unchanged([move("'A'", 2, 0), move("'B'", -2, 0)], boxes, 'too small to tell from a nudge');
  // the regions' order does not matter: the right one moving right and the left one left is less padding
  const apart = withSymmetricPadding([move("'B'", 17, 0), move("'A'", -17, 0)], boxes.slice().reverse());
  assert.deepEqual(
    apart.map((v) => v?.caption.split(';')[0]),
    ["less space around 'B'", "less space around 'A'"],
  );
  unchanged(
    [move("'Share'", 40, 0), move("'Find'", -40, 0)],
    [
      [100, 10, 140, 30],
      [140, 10, 180, 30],
    ],
    'each landed where the other was: a swap',
  );
  unchanged(
    [title, buttons, { kind: 'add' as const, caption: "'Copy' was added", basis: 'words' as const }] as ReturnType<typeof move>[],
    [...boxes, [380, 300, 420, 320]],
    'something that changed between them pushed them apart',
  );
});

test('captions of re-wordings: whole labels, or the changed words inside a sentence', () => {
  assert.equal(rewordingCaption('Select...', 'Choose an option'), "the text 'Select...' now reads 'Choose an option'");
  assert.equal(
    rewordingCaption(
      'Images in markdown should keep inside the container width:',
      'Images in markdown should stay inside the container width:',
    ),
    "'keep' now reads 'stay' in the text 'Images in markdown should stay inside the conta…'",
  );
  assert.deepEqual(changedWords('a b c d', 'a b d'), { before: 'c', after: '', partial: true });
  assert.equal(shiftWords(-16, 12), '16 px left and 12 px down');
  assert.equal(textKey('Open  Files'), textKey('open files'));
});

test('OCR post-processing: CTC collapse and blanks, NFKC folding, icon-like reads dropped', () => {
  const dictionary = ['', 'a', 'b', ' '];
  // steps: a a blank a b b -> "aab"
  const probs = new Float32Array([0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const decoded = ctcDecode(probs, 0, 6, 4, dictionary);
  assert.equal(decoded.text, 'aab');
  assert.deepEqual(decoded.steps, [
    [0, 1],
    [3, 3],
    [4, 5],
  ]);
  assert.equal(normaliseText('@st.cache，  @st.cache_data ,'), '@st.cache, @st.cache_data,');
  assert.equal(isReadable({ text: '○', confidence: 0.99 }), false);
  assert.equal(isReadable({ text: 'b', confidence: 0.7 }), false);
  assert.equal(isReadable({ text: '0', confidence: 0.95 }), true);
  assert.equal(isReadable({ text: 'Deploy', confidence: 0.4 }), false);
  // icons read as one Han character: alone on a line, or beside Latin words
  assert.equal(isReadable({ text: '口', confidence: 0.98 }), false);
  assert.equal(isReadable({ text: 'x', confidence: 0.99 }), false, 'a close icon');
  assert.equal(isReadable({ text: 'X', confidence: 0.99 }), false, 'a close icon');
  assert.equal(isReadable({ text: 'Q', confidence: 0.99 }), false, 'a search magnifier');
  assert.equal(isReadable({ text: '三三', confidence: 0.99 }), false, 'a hamburger read twice');
  assert.equal(isReadable({ text: 'QA', confidence: 0.99 }), true, 'initials are text');
  assert.equal(isReadable({ text: '日本語', confidence: 0.99 }), true, 'Japanese words are text');
  assert.equal(withoutIconGlyphs('三 Send'), 'Send');
  assert.equal(withoutIconGlyphs('十 Update now'), 'Update now');
  assert.equal(withoutIconGlyphs('三Share'), 'Share');
  assert.equal(withoutIconGlyphs('设置 中心'), '设置 中心');
});

test('readerDecides: what the reader read decides; where it saw only unread pixels move or a blob swapped, the models do', () => {
  const words = { kind: 'text' as const, caption: "the text 'A' now reads 'B'", basis: 'words' as const };
  assert.equal(readerDecides(words, 'font'), true);
  assert.equal(
    readerDecides({ kind: 'add', caption: 'an icon was added', basis: 'shapes' }, 'reflow'),
    false,
    'a blob of content pushed along',
  );
  assert.equal(readerDecides({ kind: 'add', caption: 'an icon was added', basis: 'shapes' }, 'add'), true);
  assert.equal(readerDecides({ kind: 'remove', caption: 'an icon was removed', basis: 'shapes' }, 'icon'), true);
  assert.equal(readerDecides({ kind: 'icon', caption: 'an icon was replaced by another', basis: 'shapes' }, 'opacity'), false);
  assert.equal(readerDecides({ kind: 'icon', caption: 'an icon was replaced by another', basis: 'shapes' }, 'icon'), true);
  assert.equal(readerDecides({ kind: 'font', caption: "the font of the text 'Open' changed", basis: 'words' }, 'spacing'), false);
  const gone = { kind: 'remove' as const, caption: "'Log out' was removed", basis: 'words' as const };
  assert.equal(readerDecides(gone, 'opacity'), false, 'gone in place, the models saw it fade out: hidden');
  assert.equal(readerDecides({ ...gone, pushed: { lines: 3, dx: 0, dy: -30 } }, 'opacity'), true, 'what followed moved up: removed');
  assert.equal(readerDecides(gone, 'remove'), true);
  // whose wording the report shows: the reader's where it decides, except a font change (the models'
  // words say which) - the decoder's second, wider search is skipped for the others
  assert.equal(readerWrites(gone, 'remove'), true);
  assert.equal(readerWrites(gone, 'opacity'), false);
  assert.equal(readerWrites({ kind: 'font', caption: "the font of the text 'Open' changed", basis: 'words' }, 'font'), false);
  assert.equal(readerWrites(undefined, 'move'), false);
  // the same letters read on both sides: whatever else the models see, the words did not change
  const restyledWords = { kind: 'font' as const, caption: "the font of the text 'Pricing' changed", basis: 'words' as const };
  assert.equal(readerDecides(restyledWords, 'text'), true);
  assert.equal(readerDecides(restyledWords, 'color'), false, 'a new colour or weight is for the models to tell');
  const shifted = (dx: number, dy: number) => ({
    kind: 'move' as const,
    caption: 'the content here moved',
    basis: 'pixels' as const,
    shift: { dx, dy },
  });
  assert.equal(readerDecides(shifted(0, 2), 'font'), true, 'a 2 px shift is a move, never a font change');
  assert.equal(readerDecides(shifted(0, 30), 'reorder'), false, 'a far shift of unread content: the models see the layout');
  assert.equal(readerDecides(shifted(0, 30), 'spacing'), true, 'the models keep their layout kind, the reader gives the distance');
  assert.equal(
    readerDecides({ kind: 'move', caption: "'Save' moved 30 px down", basis: 'words', shift: { dx: 0, dy: 30 } }, 'remove'),
    true,
  );
  const recolour = { kind: 'color' as const, caption: "'Sign in' changed colour from blue to red", basis: 'words' as const };
  assert.equal(readerDecides(recolour, 'theme', { themedRegions: 1 }), true, 'one recoloured button is not a theme change');
  assert.equal(readerDecides(recolour, 'theme', { themedRegions: 3 }), false, 'one recolour of several the models call a theme');
  const themed = [region('theme', 'the accent colour changed from blue to red', 1), region('theme', 'the accent colour changed', 2)];
  applyReading(themed, { regions: [recolour, undefined] });
  assert.equal(themed[0].kind, 'theme');
  assert.equal(themed[0].caption, "the accent colour changed from blue to red; 'Sign in' changed colour from blue to red");
  assert.equal(themed[0].detail, "'Sign in' changed colour from blue to red");
  // another hue or the same one paler, measured on pixels rather than a text's ink: the models say which
  const paler = {
    kind: 'opacity' as const,
    caption: "'Board' faded: it is now paler, closer to the white background",
    basis: 'pixels' as const,
  };
  assert.equal(readerDecides(paler, 'color'), false);
  assert.equal(readerDecides({ ...paler, kind: 'color' }, 'opacity'), false);
  assert.equal(readerDecides(paler, 'move'), true);
  assert.equal(readerDecides(recolour, 'opacity'), true, "a text's ink colour read on its words decides");
});

test('colour names', () => {
  assert.equal(colourName(255, 255, 255), 'white');
  assert.equal(colourName(128, 128, 128), 'grey');
  assert.equal(colourName(220, 38, 38), 'red');
  assert.equal(colourName(30, 100, 230), 'blue');
  assert.equal(colourName(0, 200, 220), 'cyan');
});

test('realpairs scoring: change, all and none over the summary and changed regions', () => {
  const region = (kind: string, caption: string) => ({ kind, caption, noiseOnly: false }) as unknown as ChangeRegion;
  const report = {
    summary: "the text 'Open Files' now reads 'File Browser'",
    regions: [region('text', "the text 'Open Files' now reads 'File Browser'"), region('none', 'the font changed')],
  };
  assert.deepEqual(scoreChecks(report, { change: true, all: [['File Browser'], ['renam|reads']], none: ['font'] }), {
    pass: true,
    reasons: [],
  });
  const failed = scoreChecks(report, { change: false, all: [['Recents']], none: ['open files'] });
  assert.equal(failed.pass, false);
  assert.equal(failed.reasons.length, 3);
  const unchanged = { summary: 'no visible change', regions: [region('none', 'no visible change')] };
  assert.equal(scoreChecks(unchanged, { change: true, all: [], none: [] }).pass, false);
  assert.equal(scoreChecks(unchanged, { change: false, all: [], none: [] }).pass, true);
});

test('ocr-eval: labels quoted in a reference, not apostrophes', () => {
  assert.deepEqual(quotedLabels("The third menu item's label changed from 'Open Files' to 'File Browser'; everything else is unchanged."), [
    'Open Files',
    'File Browser',
  ]);
  assert.deepEqual(quotedLabels("the 'Deploy' button and the ⋮ icon ('a', 'b')"), ['Deploy', 'a', 'b']);
  assert.equal(wordAccuracy('Save changes', 'Save changes'), 1);
  assert.equal(wordAccuracy('Save changes', 'Save'), 0.5);
});

test('blocks: an icon added to a toolbar is found by its shape and named', async () => {
  const toolbar = (icons: number[]) => {
    const image = blankImage(200, 40);
    for (const x of icons) {
      fillRect(image, [x, 12, x + 14, 26], [90, 90, 90, 255]);
      fillRect(image, [x + 4, 16, x + 10, 22], [255, 255, 255, 255]); // a hole, so the shape is an outline
    }
    return image;
  };
  const before = toolbar([100, 124, 148]);
  const after = toolbar([76, 100, 124, 148]);
  const found = matchBlocks(findBlocks(before, [60, 4, 180, 36]), findBlocks(after, [60, 4, 180, 36]));
  assert.deepEqual(found.map((b) => b.kind).sort(), ['added', 'same', 'same', 'same']);
  const reader = new TextReader();
  try {
    const reading = await readPair(reader, before, after, [[70, 8, 170, 30]]);
    assert.ok(reading.regions[0], 'the reading explains the region');
    assert.equal(reading.regions[0].kind, 'add');
    assert.match(reading.regions[0].caption, /^an icon was added/);
  } finally {
    await reader.dispose();
  }
});

test('readPair: lines pulled up onto the place of a picture that is gone: the picture was removed; onto empty space, they moved', async () => {
  const example = readPngFile(EXAMPLE_BEFORE);
  const page: Rgba = [245, 246, 248, 255];
  // a card: a picture, and its title ("Team members", cut from the example screenshot) under it
  const card = (picture: Box | undefined, titleAt: [number, number]) => {
    const image = blankImage(400, 300, page);
    if (picture) {
      fillRect(image, picture, [120, 60, 200, 255]);
      fillRect(image, [picture[0] + 20, picture[1] + 20, picture[0] + 60, picture[1] + 50], [250, 200, 40, 255]);
    }
    const from: Box = [16, 20, 172, 41];
    for (let y = from[1]; y < from[3]; y++)
      for (let x = from[0]; x < from[2]; x++) {
        const s = (y * example.width + x) * 4;
        image.data.set(example.data.subarray(s, s + 4), ((titleAt[1] + y - from[1]) * image.width + titleAt[0] + x - from[0]) * 4);
      }
    return image;
  };
  const reader = new TextReader();
  try {
    const removed = await readPair(reader, card([20, 40, 180, 120], [20, 130]), card(undefined, [20, 40]), [[16, 36, 184, 152]]);
    assert.equal(removed.regions[0]?.kind, 'remove');
    assert.equal(removed.regions[0]?.caption, "an image or icon before 'Team members' was removed, and it moved 90 px up");
    // nothing was drawn where the title went: a move
    const moved = await readPair(reader, card(undefined, [20, 130]), card(undefined, [20, 40]), [[16, 36, 184, 152]]);
    assert.equal(moved.regions[0]?.kind, 'move');
  } finally {
    await reader.dispose();
  }
});

test('readPair: words gone from a badge still there in the colour of its text were recoloured; gone with the badge, removed', async () => {
  const example = readPngFile(EXAMPLE_BEFORE);
  const page: Rgba = [20, 23, 31, 255];
  // a dark page with a badge whose words ("Team members", the example's ink) are drawn in white
  const badge = (fill: Rgba | undefined) => {
    const image = blankImage(320, 160, page);
    if (!fill) return image;
    fillRect(image, [40, 50, 220, 96], fill);
    const from: Box = [16, 20, 172, 41];
    for (let y = from[1]; y < from[3]; y++)
      for (let x = from[0]; x < from[2]; x++) {
        const s = (y * example.width + x) * 4;
        const ink = example.data[s] + example.data[s + 1] + example.data[s + 2] < 3 * 140;
        if (ink) image.data.set([250, 250, 250, 255], ((62 + y - from[1]) * image.width + 52 + x - from[0]) * 4);
      }
    return image;
  };
  const reader = new TextReader();
  try {
    const area: Box = [38, 48, 222, 98];
    const recoloured = await readPair(reader, badge([10, 60, 110, 255]), badge([250, 250, 250, 255]), [area]);
    assert.equal(recoloured.regions[0]?.kind, 'color');
    assert.equal(recoloured.regions[0]?.caption, "the 'Team members' button changed colour from dark blue to white");
    // it decides where the models saw the words go; where they saw the recolour, their words stand
    assert.equal(readerDecides(recoloured.regions[0]!, 'remove'), true);
    assert.equal(readerDecides(recoloured.regions[0]!, 'color'), false);
    // the same words, the badge gone with them: removed
    const removed = await readPair(reader, badge([10, 60, 110, 255]), badge(undefined), [area]);
    assert.equal(removed.regions[0]?.kind, 'remove');
  } finally {
    await reader.dispose();
  }
});

test('blocks: an icon that moved from one region to another moved; a blob filled in around digits is not an added icon', async () => {
  const ring = (image: RgbaImage, x: number, y: number) => {
    fillRect(image, [x, y, x + 14, y + 14], [90, 90, 90, 255]);
    fillRect(image, [x + 4, y + 4, x + 10, y + 10], [255, 255, 255, 255]);
  };
  const before = blankImage(300, 60),
    after = blankImage(300, 60);
  ring(before, 240, 20);
  ring(after, 30, 20);
  const reader = new TextReader();
  try {
    const moved = await readPair(reader, before, after, [
      [20, 10, 60, 44],
      [230, 10, 270, 44],
    ]);
    assert.ok(!moved.regions.some((v) => v && /icon was (added|removed)/.test(v.caption)), JSON.stringify(moved.regions));
    // a small mark (digits, say) that a filled badge now surrounds
    const plain = blankImage(120, 60),
      filled = blankImage(120, 60);
    for (const img of [plain, filled]) fillRect(img, [55, 26, 61, 34], [60, 60, 60, 255]);
    fillRect(filled, [44, 14, 72, 46], [150, 220, 170, 255]);
    fillRect(filled, [55, 26, 61, 34], [60, 60, 60, 255]);
    const restyled = await readPair(reader, plain, filled, [[40, 10, 76, 50]]);
    assert.ok(!(restyled.regions[0] && /icon was added/.test(restyled.regions[0].caption)), restyled.regions[0]?.caption);
  } finally {
    await reader.dispose();
  }
});

test('matchLines: the same words drawn wider in place are a restyle (font), not a move; drawn 1 px lower, a move', () => {
  // twelve strokes of uneven widths across the box: drawn wider, every stroke widens with it
  const draw = (box: Box) => {
    const image = blankImage(200, 80);
    const scale = (box[2] - box[0]) / 60;
    [0, 5, 9, 16, 20, 27, 31, 36, 42, 47, 51, 56].forEach((x, i) => {
      const x0 = box[0] + Math.round(x * scale),
        w = Math.max(2, Math.round((i % 3 === 0 ? 3 : 2) * scale));
      fillRect(image, [x0, box[1] + 2, x0 + w, box[3] - 2], [40, 40, 40, 255]);
    });
    return image;
  };
  const wider = matchLines([line('Integrations', [20, 30, 80, 46])], [line('Integrations', [20, 30, 100, 46])], {
    before: draw([20, 30, 80, 46]),
    after: draw([20, 30, 100, 46]),
  });
  assert.deepEqual(
    wider.map((c) => c.kind),
    ['reworded'],
  );
  assert.equal(verdictOf({ changes: wider })?.kind, 'font');
  const lower = matchLines([line('Integrations', [20, 30, 80, 46])], [line('Integrations', [20, 31, 80, 47])], {
    before: draw([20, 30, 80, 46]),
    after: draw([20, 31, 80, 47]),
  });
  assert.deepEqual(
    lower.map((c) => c.kind),
    ['moved'],
  );
});

test('verdictOf: a paragraph broken into lines at other places, its lines as tall, re-wrapped (padding where it moved diagonally), not a new font', () => {
  const run = (after: TextLine[]) =>
    verdictOf({
      changes: matchLines(
        [line('Team update invoice review with shipping', [44, 242, 570, 264]), line('page task new data weekly', [44, 268, 268, 288])],
        after,
      ),
    });
  // the card's padding grew: the paragraph moved 13 px right and 12 px down and wraps one word earlier
  const padded = run([
    line('Team update invoice review with', [57, 254, 507, 274]),
    line('shipping page task new data weekly.', [57, 280, 359, 302]),
  ]);
  assert.equal(padded?.kind, 'spacing');
  assert.equal(
    padded?.caption,
    "more space around 'Team update invoice review with shipping page t…'; 'Team update invoice review with shipping page t…' moved 13 px right and 12 px down",
  );
  // only narrower, in place: a layout change the models describe
  assert.equal(
    run([line('Team update invoice review with', [44, 242, 490, 264]), line('shipping page task new data weekly', [44, 268, 350, 288])]),
    undefined,
  );
  // lines farther apart: a bigger font that wraps earlier
  assert.equal(
    run([line('Team update invoice review with', [57, 252, 507, 275]), line('shipping page task new data weekly.', [57, 281, 359, 304])])
      ?.kind,
    'font',
  );
});

test('verdictOf: lines that kept their size and moved together, re-drawn at a new sub-pixel place, moved; grown, they did not', () => {
  const at = (dx: number, dy: number, grow = 0) => [
    line('Analytics', [103 + dx, 22 + dy, 179 + dx + grow, 43 + dy]),
    line('Settings', [201 + dx, 22 + dy, 271 + dx + grow, 45 + dy]),
  ];
  // four pixels in ten a whole-pixel move leaves, all of them within a pixel of the moved text
  const redrawn = { dx: 4, dy: -5, explained: 0.63, explainedWithinAPixel: 0.98 };
  const moved = verdictOf({ changes: matchLines(at(0, 0), at(4, -5)), shift: redrawn, movesIntact: true });
  assert.equal(moved?.kind, 'move');
  assert.equal(moved?.caption, "'Analytics' and 'Settings' moved 4 px right and 5 px up");
  // more pixels than a re-drawing leaves, lines drawn wider, or their ink another colour or amount
  // (a restyle, recolour or fade that also moved): the models say
  const changes = matchLines(at(0, 0), at(4, -5));
  assert.equal(verdictOf({ changes, shift: { ...redrawn, explainedWithinAPixel: 0.8 }, movesIntact: true }), undefined);
  assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(4, -5, 4)), shift: redrawn, movesIntact: true }), undefined);
  assert.equal(verdictOf({ changes, shift: redrawn, movesIntact: false }), undefined);
  // a pixel or two is within the tolerance itself: another font's letters are as close
  const near = { dx: 2, dy: 0, explained: 0.63, explainedWithinAPixel: 0.98 };
  assert.equal(verdictOf({ changes: matchLines(at(0, 0), at(2, 0)), shift: near, movesIntact: true }), undefined);
});

test('verdictOf: a label and an icon that moved opposite ways and crossed swapped places; an icon moving along with it did not', () => {
  const icon = (box: Box) => ({ box, mask: new Uint8Array((box[2] - box[0]) * (box[3] - box[1])).fill(1) });
  const changes = matchLines([line('Apply', [232, 18, 280, 34])], [line('Apply', [272, 18, 320, 34])]);
  const crossed = verdictOf({
    changes,
    blocks: [{ kind: 'moved', before: icon([300, 19, 314, 33]), after: icon([222, 19, 236, 33]), dx: -78, dy: 0 }],
  });
  assert.equal(crossed?.kind, 'reorder');
  assert.equal(crossed?.caption, "'Apply' and an icon swapped places");
  // the icon after the label moved the same way: the two moved together
  const along = verdictOf({
    changes,
    blocks: [{ kind: 'moved', before: icon([300, 19, 314, 33]), after: icon([340, 19, 354, 33]), dx: 40, dy: 0 }],
  });
  assert.notEqual(along?.kind, 'reorder');
  // an icon on another row moving back: not a crossing
  const elsewhere = verdictOf({
    changes,
    blocks: [{ kind: 'moved', before: icon([300, 60, 314, 74]), after: icon([222, 66, 236, 80]), dx: -78, dy: 6 }],
  });
  assert.notEqual(elsewhere?.kind, 'reorder');
});

test('verdictOf: an icon added whose neighbours moved by about its size made room for itself; pushed further, it was carried', () => {
  const icon = (box: Box) => ({ box, mask: new Uint8Array((box[2] - box[0]) * (box[3] - box[1])).fill(1) });
  const toolbar = (dx: number) =>
    verdictOf({
      changes: [],
      blocks: [
        { kind: 'added', after: icon([100, 12, 114, 26]) },
        ...[124, 148, 172].map((x) => ({
          kind: 'moved' as const,
          before: icon([x, 12, x + 14, 26]),
          after: icon([x + dx, 12, x + dx + 14, 26]),
          dx,
          dy: 0,
        })),
      ],
    });
  const room = toolbar(24);
  assert.equal(room?.caption, 'an icon was added; 3 icons moved 24 px right');
  assert.equal(room?.madeRoom, true);
  assert.equal(readerDecides(room!, 'move'), true, 'the icon made room: an insertion, whatever the models see');
  const carried = toolbar(90);
  assert.equal(carried?.madeRoom, undefined);
  assert.equal(readerDecides(carried!, 'reflow'), false, 'pushed far by something else: the models say');
});

test('verdictOf: a button grown both ways around the same label got more padding; grown one way, it was resized', () => {
  const label: Box = [86, 404, 139, 430];
  const reading = (after: Box, labelAfter: Box, others: { text: string; before: Box; after: Box }[] = []) => ({
    changes: matchLines([line('Apply', label)], [line('Apply', labelAfter)]),
    buttons: [
      { text: 'Apply', before: [18, 386, 206, 442] as Box, after, labelBefore: label, labelAfter },
      ...others.map((o) => ({ ...o, labelBefore: label, labelAfter: label })),
    ],
  });
  // 16 px more on every side: the label stays as far from the centre
  const padded = verdictOf(reading([2, 370, 222, 458], label));
  assert.equal(padded?.kind, 'spacing');
  assert.equal(padded?.caption, "the 'Apply' button got more padding; it is now 220 x 88 px, was 188 x 56");
  assert.equal(padded?.sized, true);
  assert.equal(verdictOf(reading([26, 394, 198, 434], label))?.caption.startsWith("the 'Apply' button got less padding"), true);
  // 40 px wider and 16 px taller: a padding written on every side grows a button (padded wider than
  // tall) at least as much in height as in width, so it was given a new size
  const larger = verdictOf(reading([0, 378, 228, 450], [88, 404, 141, 430]));
  assert.equal(larger?.kind, 'resize');
  assert.equal(larger?.caption, "the 'Apply' button got larger; it is now 228 x 72 px, was 188 x 56");
  // only its width or its height changed: resized
  const wider = verdictOf(reading([18, 386, 240, 442], [103, 404, 156, 430]));
  assert.equal(wider?.kind, 'resize');
  assert.equal(wider?.caption, "the 'Apply' button got wider; it is now 222 x 56 px, was 188 x 56");
  assert.equal(verdictOf(reading([18, 386, 206, 420], [86, 393, 139, 419]))?.caption.startsWith("the 'Apply' button got shorter"), true);
  // taller, its width moved by 2 px (a padding written anew moves every edge) and not by a pixel
  // (a height set keeps the width, but for rounding): new padding, and a resize
  assert.equal(verdictOf(reading([17, 386, 207, 456], [86, 411, 139, 437]))?.kind, 'spacing');
  assert.equal(verdictOf(reading([18, 386, 207, 456], [86, 411, 139, 437]))?.kind, 'resize');
  // narrower from a kept edge around its whole label, still centred: less padding at its sides
  const narrower = verdictOf(reading([18, 386, 170, 442], [68, 404, 121, 430]));
  assert.equal(narrower?.kind, 'spacing');
  assert.equal(narrower?.caption, "the 'Apply' button got less padding at its sides; it is now 152 x 56 px, was 188 x 56");
  assert.equal(verdictOf(reading([18, 386, 170, 442], [40, 404, 93, 430]))?.kind, 'resize', 'its label no longer centred');
  // a line above it moved as well: its container changed (a card's new padding stretched it)
  const carried = reading([2, 370, 222, 458], label);
  carried.changes.push(...matchLines([line('Order summary', [40, 330, 160, 350])], [line('Order summary', [30, 330, 150, 350])]));
  assert.notEqual(verdictOf(carried)?.kind, 'spacing');
  // taller by as much up as down, its width kept: given a height in a vertically centred dialog, which
  // moved up what is above it by as much as the button's top
  const centred = verdictOf(reading([18, 372, 206, 456], label));
  assert.equal(centred?.caption, "the 'Apply' button got taller; it is now 188 x 84 px, was 188 x 56");
  const dialog = reading([18, 372, 206, 456], label);
  dialog.changes.push(
    ...matchLines([line('Confirm your action', [40, 290, 340, 312])], [line('Confirm your action', [40, 276, 340, 298])]),
  );
  assert.equal(verdictOf(dialog)?.kind, 'resize');
  // ... not where what is above moved otherwise, or the width changed as well
  const other = reading([18, 372, 206, 456], label);
  other.changes.push(...matchLines([line('Confirm your action', [40, 290, 340, 312])], [line('Confirm your action', [40, 282, 340, 304])]));
  assert.notEqual(verdictOf(other)?.kind, 'resize');
  assert.notEqual(verdictOf(reading([16, 372, 208, 456], label))?.kind, 'resize');
  // narrower on both sides (squeezed by its container's new padding), not set a width: not the reader's
  assert.equal(verdictOf(reading([28, 386, 196, 442], label))?.kind, undefined);
  // grown both ways with its label left at the top (a height set on a box that does not centre it): not padding
  assert.notEqual(verdictOf(reading([18, 386, 230, 480], [98, 404, 151, 430]))?.kind, 'spacing');
  // two buttons in a row that changed together: both named, the one grown both ways measured
  const row = verdictOf(
    reading([18, 386, 214, 458], [90, 412, 143, 438], [{ text: 'Reset', before: [206, 386, 394, 442], after: [214, 386, 394, 458] }]),
  );
  assert.equal(row?.caption, "the 'Apply' and 'Reset' buttons got more padding; 'Apply' is now 196 x 72 px, was 188 x 56");
  // the reader names the button and its size: its words caption the region
  const regions = [region('resize', 'the button on the left side was resized', 1)];
  applyReading(regions, { regions: [padded] });
  assert.equal(regions[0].kind, 'spacing');
  assert.equal(regions[0].caption, padded?.caption);
});

test('elementOf: a filled button, a badge, a bordered input; a table cell and plain text are not named', () => {
  const glyphs = (image: RgbaImage, box: Box) => {
    for (let x = box[0] + 1; x + 3 <= box[2]; x += 6) fillRect(image, [x, box[1] + 2, x + 3, box[3] - 2], [30, 30, 30, 255]);
  };
  const page = () => blankImage(400, 200);
  const outline = (image: RgbaImage, b: Box, c: [number, number, number, number]) => {
    fillRect(image, [b[0], b[1], b[2], b[1] + 1], c);
    fillRect(image, [b[0], b[3] - 1, b[2], b[3]], c);
    fillRect(image, [b[0], b[1], b[0] + 1, b[3]], c);
    fillRect(image, [b[2] - 1, b[1], b[2], b[3]], c);
  };
  const text = { text: 'Save changes' };
  // text on a filled box with even padding
  const button = page();
  fillRect(button, [40, 40, 160, 76], [40, 120, 220, 255]);
  glyphs(button, [56, 50, 144, 66]);
  assert.equal(elementOf(button, { ...text, box: [56, 50, 144, 66] }), 'button');
  // ... and its box is the button's (the full-resolution frames move the button, not only its label)
  assert.deepEqual(elementAround(button, { ...text, box: [56, 50, 144, 66] }), { role: 'button', box: [40, 40, 160, 76] });
  const moved = page();
  fillRect(moved, [40, 100, 160, 136], [40, 120, 220, 255]);
  glyphs(moved, [56, 110, 144, 126]);
  const line = (box: Box) => ({ text: 'Save changes', confidence: 1, box, role: 'button' as const });
  assert.deepEqual(
    elementMotions(
      { changes: [{ kind: 'moved', before: line([56, 50, 144, 66]), after: line([56, 110, 144, 126]), dx: 0, dy: 60 }] },
      button,
      moved,
    ),
    [{ kind: 'moved', before: [40, 40, 160, 76], after: [40, 100, 160, 136] }],
  );
  // padding taller than a line's usual is found where it is looked for (a button whose padding grew)
  const tall = page();
  fillRect(tall, [40, 20, 160, 96], [40, 120, 220, 255]);
  glyphs(tall, [56, 50, 144, 66]);
  assert.equal(elementAround(tall, { ...text, box: [56, 50, 144, 66] }), undefined);
  assert.deepEqual(elementAround(tall, { ...text, box: [56, 50, 144, 66] }, { side: 160, end: 40 }), {
    role: 'button',
    box: [40, 20, 160, 96],
  });
  // a small filled pill
  const badge = page();
  fillRect(badge, [40, 40, 92, 60], [220, 60, 60, 255]);
  glyphs(badge, [48, 44, 84, 56]);
  assert.equal(elementOf(badge, { text: 'New', box: [48, 44, 84, 56] }), 'badge');
  // a bordered field much wider than its text, the text at its left
  const input = page();
  outline(input, [20, 40, 360, 76], [180, 180, 190, 255]);
  glyphs(input, [30, 50, 130, 66]);
  assert.equal(elementOf(input, { text: 'Enter email', box: [30, 50, 130, 66] }), 'input');
  // the same box in a grid: its borders run on past the corner
  const cell = page();
  outline(cell, [20, 40, 360, 76], [180, 180, 190, 255]);
  fillRect(cell, [0, 40, 400, 41], [180, 180, 190, 255]);
  fillRect(cell, [20, 0, 21, 200], [180, 180, 190, 255]);
  glyphs(cell, [30, 50, 130, 66]);
  assert.equal(elementOf(cell, { text: 'Enter email', box: [30, 50, 130, 66] }), undefined);
  // a heading at the top of a bordered column, a card's border just below it: the column's side runs
  // on past that edge, so this is no field
  const column = page();
  outline(column, [20, 30, 360, 200], [180, 180, 190, 255]);
  outline(column, [28, 64, 352, 120], [180, 180, 190, 255]);
  glyphs(column, [30, 40, 130, 56]);
  assert.equal(elementOf(column, { text: 'In progress', box: [30, 40, 130, 56] }), undefined);
  // text on the page
  const plain = page();
  glyphs(plain, [30, 50, 130, 66]);
  assert.equal(elementOf(plain, { text: 'Enter email', box: [30, 50, 130, 66] }), undefined);
});

test('verdictOf: a re-worded line that now wraps is quoted whole', () => {
  const changes = matchLines(
    [line('Data page feature update the', [20, 40, 260, 56])],
    [line('Task version weekly build', [20, 40, 230, 56]), line('from issue account', [20, 58, 170, 74])],
  );
  const verdict = verdictOf({ changes });
  assert.equal(verdict?.kind, 'text');
  assert.equal(verdict?.textAfter, 'Task version weekly build from issue account');
  assert.equal(verdict?.caption, "the text 'Data page feature update the' now reads 'Task version weekly build from issue account'");
});

test('acrossRegions: an inserted link that pushed another, rows swapped, a move seen from both regions', () => {
  const reading = (changes: LineChange[]) => ({ changes });
  // region 1 read 'Docs' -> 'Analytics' in place; region 2 read 'Docs' arriving: a link inserted, Docs pushed
  const inserted = acrossRegions([
    reading(matchLines([line('Docs', [10, 10, 50, 24])], [line('Analytics', [10, 10, 80, 24])])),
    reading(matchLines([], [line('Docs', [90, 10, 130, 24])])),
  ]);
  assert.equal(verdictOf(inserted[0])?.caption, "'Analytics' was added");
  assert.deepEqual(
    inserted[1].changes.map((c) => c.kind),
    ['moved'],
  );
  // two rows that traded places across two regions: a reorder in both
  const swapped = acrossRegions([
    reading(matchLines([line('Wen Schmidt', [10, 10, 90, 24])], [line('Liam Silva', [10, 10, 80, 24])])),
    reading(matchLines([line('Liam Silva', [10, 40, 80, 54])], [line('Wen Schmidt', [10, 40, 90, 54])])),
  ]);
  assert.equal(verdictOf(swapped[0])?.kind, 'reorder');
  assert.equal(verdictOf(swapped[1])?.caption, "'Liam Silva' and 'Wen Schmidt' swapped places");
  // a line one region saw move, and the neighbouring region saw arrive: said once
  const once = acrossRegions([
    reading(matchLines([line('Save', [10, 100, 50, 114])], [line('Save', [10, 140, 50, 154])])),
    reading(matchLines([], [line('Save', [10, 140, 50, 154])])),
  ]);
  assert.deepEqual(once[1].changes, []);
  // a row inserted at the top of a list: the region over the new row read the old first row's words
  // replaced in place, the region below read that same row moved down - the row was pushed, not re-worded
  const pushedRow = acrossRegions([
    reading(matchLines([line('Account change', [10, 10, 120, 24])], [line('Final build', [10, 10, 90, 24])])),
    reading(matchLines([line('Account change', [10, 10, 120, 24])], [line('Account change', [10, 103, 120, 117])])),
  ]);
  assert.equal(verdictOf(pushedRow[0])?.caption, "'Final build' was added");
  assert.deepEqual(
    pushedRow[1].changes.map((c) => c.kind),
    ['moved'],
  );
  // a menu item inserted: each item took the place of the one above it, their icons read as glyphs
  // on one side only ("= Pin", "三Share" -> "Share")
  const menu = acrossRegions([
    reading(matchLines([line('Share', [10, 10, 60, 24])], [line('Rename', [10, 10, 70, 24])])),
    reading(matchLines([line('= Pin', [10, 44, 50, 58])], [line('Share', [10, 44, 60, 58])])),
    reading(matchLines([], [line('Pin', [10, 78, 40, 92])])),
  ]);
  assert.equal(verdictOf(menu[0])?.kind, 'add');
  assert.deepEqual(
    menu.slice(1).map((r) => r.changes.map((c) => c.kind)),
    [['moved'], ['moved']],
  );
});

test('matchLines: an icon read as a character on one side only does not make other words', () => {
  assert.equal(coreKey('> Add item'), coreKey('→ Add item'));
  assert.equal(coreKey('Q Get started'), 'getstarted');
  assert.equal(coreKey('三Share'), 'share');
  assert.equal(coreKey('A'), 'a', 'a lone letter is kept');
  assert.notEqual(coreKey('-5 items'), coreKey('5 items'), 'a sign before a number is not an icon');
  // a button inserted before another: the old one (its arrow icon read as ">" before, "→" after) moved
  const changes = matchLines(
    [line('> Add item', [158, 502, 242, 518])],
    [line('Invite', [153, 501, 200, 519]), line('→ Add item', [239, 502, 323, 518])],
  );
  assert.deepEqual(changes.map((c) => c.kind).sort(), ['added', 'moved']);
  assert.equal(verdictOf({ changes })?.caption, "'Invite' was added; '→ Add item' moved 81 px right");
});

test('slot tokens of a decoder caption are filled with the text read there, or said without it', () => {
  assert.equal(fillCaptionSlots('a button <label> was added', { label: 'Sign in' }), "a button 'Sign in' was added");
  assert.equal(
    fillCaptionSlots('<old> now reads <new>', { old: 'Open Files', new: 'File Browser' }),
    "'Open Files' now reads 'File Browser'",
  );
  assert.equal(fillCaptionSlots('the <label> button moved down', {}), 'the button moved down');
  assert.equal(fillCaptionSlots('<label> faded', {}), 'the element faded');
  assert.equal(fillCaptionSlots('the icon of <label> changed', {}), 'the icon of the element changed');
  assert.equal(fillCaptionSlots('<old> now reads <new>', { old: 'A' }), 'the text changed');
  assert.equal(fillCaptionSlots('<old> and <new> swapped places', {}), 'two elements swapped places');
  assert.equal(fillCaptionSlots('the menu items <old> and <new> switched places', {}), 'two elements switched places');
  assert.equal(fillCaptionSlots('<old> and <new> swapped places', { old: 'Help', new: 'Docs' }), "'Help' and 'Docs' swapped places");
  assert.equal(fillCaptionSlots('the blue button moved down', {}), 'the blue button moved down');
  assert.equal(hasSlots('the <label> tab became bold'), true);
  // the decoder may write a slot only where the reader read its text
  const vocab = { words: ['<pad>', '<bos>', '<eos>', '<unk>', 'the', '<label>', '<old>', '<new>'], pad: 0, bos: 1, eos: 2, unk: 3 };
  assert.deepEqual(unreadSlots(vocab, undefined), [5, 6, 7]);
  assert.deepEqual(unreadSlots(vocab, { label: 'Save' }), [6, 7]);
  assert.deepEqual(unreadSlots(vocab, { label: 'B', old: 'A', new: 'B' }), []);
  assert.deepEqual(unreadSlots({ ...vocab, words: vocab.words.slice(0, 5) }, undefined), [], 'a vocabulary without slots bans nothing');
});

test('verdictOf: the same words re-wrapped are left to the models; a removal that scrolled new lines into view is a removal', () => {
  const rewrapped = matchLines(
    [line('meeting page', [10, 10, 110, 24]), line('Feature mobile server', [10, 30, 170, 44])],
    [line('Feature mobile server meeting', [10, 10, 230, 24]), line('page', [10, 30, 45, 44])],
  );
  assert.equal(verdictOf({ changes: rewrapped }), undefined);
  // a row removed from a list of fixed height: the rows below moved up, a new one came into view at the end
  const removed = matchLines(
    [line('Chen Dubois', [10, 10, 100, 24]), line('Ada Berg', [10, 40, 80, 54]), line('Liam Silva', [10, 70, 90, 84])],
    [line('Ada Berg', [10, 10, 80, 24]), line('Liam Silva', [10, 40, 90, 54]), line('Kemi Larsen', [10, 70, 100, 84])],
  );
  const v = verdictOf({ changes: removed });
  assert.equal(v?.kind, 'remove');
  assert.equal(v?.caption, "'Chen Dubois' was removed; 2 lines moved 30 px up and 'Kemi Larsen' came into view");
  // in one place, other words: a replacement
  const replaced = matchLines(
    [line('Chen Dubois', [10, 10, 100, 24]), line('Ada Berg', [10, 40, 80, 54])],
    [line('Kemi Larsen', [10, 10, 100, 24]), line('Ada Berg', [10, 40, 80, 54])],
  );
  assert.equal(verdictOf({ changes: replaced })?.kind, 'text');
});

test("applyReading: where the models' caption stands, its slots take the words the reader read there", () => {
  const regions = [
    region('font', 'the <label> tab became bold', 1),
    region('opacity', 'the <label> badge faded', 2),
    region('icon', 'the icon of <label> changed', 3),
  ];
  applyReading(regions, {
    regions: [
      { kind: 'font', caption: "the font of the text 'Billing' changed", basis: 'words', subject: 'Billing' },
      { kind: 'remove', caption: "'Beta' was removed", textBefore: 'Beta', basis: 'words' },
      undefined,
    ],
  });
  assert.deepEqual(
    regions.map((r) => [r.kind, r.captionSource, r.caption]),
    [
      ['font', 'model', "the 'Billing' tab became bold"],
      ['opacity', 'model', "the 'Beta' badge faded"],
      ['icon', 'model', 'the icon of <label> changed'],
    ],
  );
});

test("applyReading: an icon swap both see keeps the models' words; content a re-spaced container carried gets both", () => {
  const regions = [
    region('icon', 'the icon button in the nav bar now shows a cloud icon', 1),
    region('spacing', 'more space between the buttons', 2),
  ];
  const reading = {
    regions: [
      { kind: 'icon' as const, caption: 'an icon was replaced by another', basis: 'shapes' as const },
      {
        kind: 'move' as const,
        caption: "the 'Filter' button moved 11 px right",
        basis: 'words' as const,
        shift: { dx: 11, dy: 0 },
        subject: 'Filter',
      },
    ],
  };
  assert.deepEqual(readerWritesAll(reading, ['icon', 'spacing']), [false, false], "the decoder's words are needed for both");
  applyReading(regions, reading);
  assert.deepEqual(
    regions.map((r) => [r.kind, r.caption]),
    [
      ['icon', 'the icon button in the nav bar now shows a cloud icon'],
      ['spacing', "more space between the buttons; the 'Filter' button moved 11 px right"],
    ],
  );
});

test("applyReading: where the reader read no words, the models' words name the element; what was pushed is the region's detail", () => {
  const regions = [
    region('move', 'the icon button in the dialog moved slightly left', 1),
    region('remove', 'the grey icon button in the dialog no longer appears', 2),
    region('add', 'a tab was added', 3),
    region('remove', 'a card was removed', 4),
  ];
  const reading = {
    regions: [
      { kind: 'move' as const, caption: 'the content here moved 3 px left', basis: 'pixels' as const, shift: { dx: -3, dy: 0 } },
      { kind: 'remove' as const, caption: 'an icon was removed', basis: 'shapes' as const },
      {
        kind: 'add' as const,
        caption: "'Recents' was added; 2 lines moved 80 px right",
        detail: '2 lines moved 80 px right',
        textAfter: 'Recents',
        pushed: { lines: 2, dx: 80, dy: 0 },
        basis: 'words' as const,
      },
      // "an icon" where the models name no icon: the reader's words stand
      { kind: 'remove' as const, caption: 'an icon was removed', basis: 'shapes' as const },
    ],
  };
  assert.deepEqual(
    readerWritesAll(
      reading,
      ['move', 'remove', 'add', 'remove'],
      regions.map((r) => r.caption),
    ),
    [false, false, true, true],
  );
  applyReading(regions, reading);
  assert.deepEqual(
    regions.map((r) => [r.kind, r.caption, r.detail]),
    [
      ['move', 'the icon button in the dialog moved slightly left; measured 3 px left', 'measured 3 px left'],
      ['remove', 'the grey icon button in the dialog no longer appears', undefined],
      ['add', "'Recents' was added; 2 lines moved 80 px right", '2 lines moved 80 px right'],
      ['remove', 'an icon was removed', undefined],
    ],
  );
  assert.deepEqual(summaryCaptions(regions), [
    'the icon button in the dialog moved slightly left',
    'the grey icon button in the dialog no longer appears',
    "'Recents' was added",
    'an icon was removed',
  ]);
});

test("readerDecides: a line still drawn where it was said to go, or read cut, is the models' call when they see it restyled or moved", () => {
  const gone = { kind: 'remove' as const, caption: "'JG' was removed", textBefore: 'JG', basis: 'words' as const };
  assert.equal(readerDecides({ ...gone, stillDrawn: true }, 'color'), false, 'the avatar is still there, recoloured');
  assert.equal(readerDecides({ ...gone, stillDrawn: true }, 'remove'), true);
  assert.equal(readerDecides(gone, 'color'), true, 'its place is empty now: removed');
  const cut = { kind: 'text' as const, caption: "the text 'Download' now reads 'ownloa'", basis: 'words' as const };
  assert.equal(readerDecides({ ...cut, textBefore: 'Download', textAfter: 'ownloa' }, 'resize'), false);
  assert.equal(readerDecides({ ...cut, textBefore: 'Websit', textAfter: 'Website Order summary' }, 'move'), false);
  assert.equal(readerDecides({ ...cut, textBefore: 'Netificationc', textAfter: 'Notifications' }, 'reflow'), false);
  assert.equal(readerDecides({ ...cut, textBefore: 'Download', textAfter: 'ownloa' }, 'text'), true, 'the models see new words too');
  assert.equal(readerDecides({ ...cut, textBefore: 'Open Files', textAfter: 'File Browser' }, 'move'), true, 'other words');
  assert.equal(misreadOnly({ textBefore: 'page 6', textAfter: 'page 7' }), false, 'a short change is a change');
  assert.equal(misreadOnly({ textBefore: 'Save', textAfter: 'a\ne' }), true, 'some of its letters, in order: cut by a narrower button');
  assert.equal(misreadOnly({ textBefore: 'Save', textAfter: 'Sent' }), false);
  assert.equal(misreadOnly({ textBefore: 'lnvite', textAfter: 'Invite' }), true, 'a capital I read as a small l');
  assert.equal(misreadOnly({ textBefore: 'Iist', textAfter: 'last' }), false);
  // an icon beside a label, read as a letter, where the models see the icon change
  assert.equal(readerDecides({ ...cut, textBefore: 'Lea rn', textAfter: 'OLea rn' }, 'icon'), false);
});

test('elementOf: capital initials on a filled disc are an avatar; the same in a filled square are not named', () => {
  const glyphs = (image: RgbaImage, box: Box) => {
    for (let x = box[0] + 1; x + 3 <= box[2]; x += 6) fillRect(image, [x, box[1] + 2, x + 3, box[3] - 2], [255, 255, 255, 255]);
  };
  const disc = blankImage(120, 120);
  const [cx, cy, r] = [60, 60, 16];
  for (let y = cy - r; y < cy + r; y++)
    for (let x = cx - r; x < cx + r; x++)
      if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) fillRect(disc, [x, y, x + 1, y + 1], [40, 120, 220, 255]);
  glyphs(disc, [52, 53, 68, 67]);
  assert.equal(elementOf(disc, { text: 'JG', box: [52, 53, 68, 67] }), 'avatar');
  assert.equal(elementOf(disc, { text: 'ok', box: [52, 53, 68, 67] }), undefined, 'initials are capitals');
  const square = blankImage(120, 120);
  fillRect(square, [44, 44, 76, 76], [40, 120, 220, 255]);
  glyphs(square, [52, 53, 68, 67]);
  assert.equal(elementOf(square, { text: 'JG', box: [52, 53, 68, 67] }), undefined);
});

test('matchLines: a label that wraps in its narrower box, or that the screenshot edge cuts, is laid out anew, not added', () => {
  const size = { width: 420, height: 300 };
  // a button inserted into a row of two: the row overflowed, 'Sign in' wraps onto two lines
  const wraps = matchLines(
    [line('Export', [60, 110, 120, 130]), line('Sign in', [250, 110, 320, 130])],
    [
      line('Export', [40, 125, 100, 145]),
      line('Open', [180, 125, 230, 145]),
      line('Sign', [330, 110, 372, 130]),
      line('in', [342, 140, 360, 160]),
    ],
  );
  const relaid = wraps.find((c) => c.kind === 'rewrapped');
  assert.ok(relaid && relaid.kind === 'rewrapped' && !relaid.cut);
  assert.equal(relaid.after.text, 'Sign in');
  assert.deepEqual(relaid.after.box, [330, 110, 372, 160]);
  const v = verdictOf({ changes: wraps, size });
  assert.equal(v?.kind, 'add');
  assert.ok(v?.caption.startsWith("'Open' was added"), v?.caption);
  // ... and one that the right edge now cuts ('Inv' of 'Invite'); without the images there is no edge
  const images = { before: blankImage(size.width, size.height), after: blankImage(size.width, size.height) };
  const before = [line('Preview', [60, 110, 140, 130]), line('Invite', [250, 110, 320, 130])];
  const after = [line('Preview', [60, 110, 140, 130]), line('Edit', [200, 110, 250, 130]), line('Inv', [385, 110, 419, 130])];
  const cut = matchLines(before, after, images).find((c) => c.kind === 'rewrapped');
  assert.ok(cut && cut.kind === 'rewrapped' && cut.cut);
  assert.deepEqual([cut.before.text, cut.after.text], ['Invite', 'Inv']);
  assert.equal(verdictOf({ changes: matchLines(before, after, images), size })?.kind, 'add');
  assert.ok(!matchLines(before, after).some((c) => c.kind === 'rewrapped'));
  // a short line at the edge, or letters that are not the whole line's, are not cut parts of it
  const other = matchLines(before, [line('Preview', [60, 110, 140, 130]), line('Log', [385, 110, 419, 130])], images);
  assert.ok(!other.some((c) => c.kind === 'rewrapped'));
  // the same words re-wrapped with nothing added stay the models' call
  const alone = matchLines(
    [line('Save changes', [300, 110, 400, 130])],
    [line('Save', [330, 100, 370, 120]), line('changes', [315, 126, 385, 146])],
  );
  assert.equal(verdictOf({ changes: alone, size }), undefined);
});

test('verdictOf: lines that content moving up brought in from below the bottom edge came into view', () => {
  const size = { width: 400, height: 300 };
  const before = [line('Latency', [20, 200, 90, 216]), line('Budget team mobile', [20, 240, 200, 256])];
  const after = [line('Latency', [20, 140, 90, 156]), line('Budget team mobile', [20, 180, 200, 196]), line('Apply', [20, 262, 70, 280])];
  const v = verdictOf({ changes: matchLines(before, after), size });
  assert.equal(v?.kind, 'move');
  assert.equal(v?.caption, "'Latency' and 'Budget team mobile' moved 60 px up; 'Apply' came into view");
  // far enough from the bottom that it was in view before: added
  const inView = [...after.slice(0, 2), line('Apply', [20, 200, 70, 218])];
  assert.equal(verdictOf({ changes: matchLines(before, inView), size })?.kind, 'add');
});

test('acrossRegions: a line one region read cut by the edge of its area, where another read it whole, is part of that change', () => {
  const across = acrossRegions([
    { changes: matchLines([line('Welcome back', [22, 99, 298, 129])], [line('Profile', [22, 99, 148, 129])]) },
    { changes: matchLines([line('lelcome back', [210, 99, 298, 129])], []) },
    { changes: matchLines([line('Orders', [400, 99, 460, 129])], []) },
  ]);
  assert.deepEqual(across[1].changes, []);
  assert.equal(across[1].partOf, 0);
  // a line removed elsewhere, or read whole by both, stays
  assert.equal(across[2].changes.length, 1);
  const twice = acrossRegions([
    { changes: matchLines([line('Welcome back', [22, 99, 298, 129])], []) },
    { changes: matchLines([line('Welcome back', [22, 99, 298, 129])], []) },
  ]);
  assert.equal(twice[1].changes.length, 1);
});

test('applyReading: content that moved apart or together by different shifts, one way on each axis, with nothing to push it, is new spacing', () => {
  const moved = (dx: number, dy: number) => ({
    kind: 'move' as const,
    caption: `the content here moved ${shiftWords(dx, dy)}`,
    basis: 'pixels' as const,
    shift: { dx, dy },
  });
  const run = (shifts: [number, number][], kinds: ChangeRegion['kind'][] = shifts.map(() => 'reflow')) => {
    const regions = kinds.map((k, i) => region(k, 'the layout here moved', i + 1));
    applyReading(regions, { regions: shifts.map(([dx, dy]) => moved(dx, dy)) });
    return regions;
  };
  // a card grid's gap: the second column 3 px left, the second row 9 px down
  const grid = run([
    [-3, 0],
    [-3, 0],
    [0, 9],
    [-3, 9],
  ]);
  assert.deepEqual(
    grid.map((r) => r.kind),
    ['spacing', 'spacing', 'spacing', 'spacing'],
  );
  assert.equal(grid[0].caption, 'the spacing changed here; the content here moved 3 px left');
  assert.equal(grid[0].detail, 'the content here moved 3 px left');
  // content both ways (a centred dialog that grew), one shift for all (a push), a cause in the pair: unchanged
  assert.ok(
    run([
      [0, -11],
      [0, -11],
      [0, 12],
    ]).every((r) => r.kind === 'reflow'),
  );
  assert.ok(
    run([
      [0, 9],
      [0, 9],
      [0, 9],
    ]).every((r) => r.kind === 'reflow'),
  );
  assert.ok(
    run(
      [
        [0, 9],
        [-3, 9],
        [0, 0],
      ],
      ['reflow', 'reflow', 'resize'],
    ).some((r) => r.kind !== 'spacing'),
  );
});

test("applyReading: a container's thin edge the models call a reflow, where the pair's only change is spacing the reader measured, is part of it", () => {
  const band = (kind: ChangeRegion['kind'], box: Box, id: number, caption: string): ChangeRegion => ({
    ...region(kind, caption, id),
    boxBefore: box,
    boxAfter: box,
  });
  const padding = {
    kind: 'spacing' as const,
    caption: "more space around 'Rename file'; 'Rename file' moved 17 px right",
    detail: "'Rename file' moved 17 px right",
    basis: 'words' as const,
    shift: { dx: 17, dy: 0 },
  };
  const run = (others: ChangeRegion[], measured = true) => {
    const regions = [
      band('spacing', [160, 210, 540, 300], 1, 'the dialog got more padding'),
      band('reflow', [160, 191, 545, 193], 2, 'the content here shifted with the layout'),
      ...others,
    ];
    applyReading(regions, { regions: measured ? [padding] : [] });
    return regions;
  };
  const edge = run([])[1];
  assert.equal(edge.kind, 'spacing');
  assert.equal(edge.caption, 'the dialog got more padding; the content here shifted with the layout');
  assert.equal(edge.detail, 'the content here shifted with the layout');
  // spacing only the models see may be a child's new size: its edges are that child's push
  assert.equal(run([], false)[1].kind, 'reflow');
  // a thick region is content, not an edge; with another change in the pair the edge may be its push
  assert.equal(run([band('reflow', [160, 320, 545, 360], 3, 'the layout here moved down')])[2].kind, 'reflow');
  assert.equal(run([band('resize', [160, 320, 545, 360], 3, 'the button got taller')])[1].kind, 'reflow');
});

test("applyReading: a thin edge the models call resized, in line with a change that grows its container, is that change's push", () => {
  const at = (kind: ChangeRegion['kind'], box: Box, id: number, caption: string): ChangeRegion => ({
    ...region(kind, caption, id),
    boxBefore: box,
    boxAfter: box,
  });
  const run = (cause: ChangeRegion, edge: Box, kind: ChangeRegion['kind'] = 'resize') => {
    const regions = [cause, at(kind, edge, 2, 'the white card on the left was resized')];
    applyReading(regions, { regions: [undefined, undefined] });
    return regions[1];
  };
  const button = at('resize', [210, 334, 646, 421], 1, 'the blue button was resized');
  // the dialog's bottom border, 1 px tall, below the button that grew
  const edge = run(button, [158, 420, 460, 421]);
  assert.equal(edge.kind, 'reflow');
  assert.equal(edge.pushedBy, 1);
  assert.equal(edge.caption, 'an edge here moved with the change above');
  assert.equal(run(button, [650, 360, 658, 400], 'spacing').caption, 'an edge here moved with the change before it');
  // not in line with the change, thick, or no change that grows a container: the models' call stands
  assert.equal(run(button, [20, 500, 100, 502]).kind, 'resize');
  assert.equal(run(button, [158, 420, 460, 440]).kind, 'resize');
  assert.equal(run(at('color', [210, 334, 646, 421], 1, 'the button turned red'), [158, 420, 460, 421]).kind, 'resize');
  assert.equal(run(at('spacing', [210, 334, 646, 421], 1, 'the dialog got more padding'), [158, 420, 460, 421]).kind, 'resize');
  // ... but a button's own new padding, as the reader measured it, grows its container like a resize
  const padded: ReadVerdict = {
    kind: 'spacing',
    caption: "the 'Apply' button got more padding; it is now 220 x 88 px, was 188 x 56",
    detail: 'it is now 220 x 88 px, was 188 x 56',
    basis: 'pixels',
    subject: 'Apply',
    sized: true,
  };
  const regions = [button, at('resize', [158, 420, 460, 421], 2, 'the white card on the left was resized')];
  applyReading(regions, { regions: [padded, undefined] });
  assert.equal(regions[0].kind, 'spacing');
  assert.equal(regions[0].caption, padded.caption);
  assert.equal(regions[1].kind, 'reflow');
  assert.equal(regions[1].pushedBy, 1);
});

test("applyReading: a control's own side edge beside its changed label is part of that change, not a push", () => {
  const at = (kind: ChangeRegion['kind'], box: Box, id: number, caption: string): ChangeRegion => ({
    ...region(kind, caption, id),
    boxBefore: box,
    boxAfter: box,
  });
  const run = (edge: Box, label: Box = [397, 368, 490, 383]) => {
    const regions = [at('resize', edge, 1, 'the button was resized'), at('font', label, 2, 'the text of the button was made bold')];
    applyReading(regions, { regions: [undefined, undefined] });
    return regions[0];
  };
  // a button 62 px tall whose label was set bold grew from its right side: its left edge moved
  const own = run([374, 345, 384, 407]);
  assert.equal(own.kind, 'font');
  assert.equal(own.pushedBy, undefined);
  assert.equal(own.caption, 'the text of the button was made bold; its edge here moved with it');
  // a side as tall as a dialog, one whose rows do not hold the label's, or one far along the row, is a container's
  assert.equal(run([374, 200, 384, 500]).kind, 'reflow');
  assert.equal(run([374, 375, 384, 437]).kind, 'reflow');
  assert.equal(run([150, 345, 160, 407]).kind, 'reflow');
});

test('matchLines: the same words on two lines, both moved, keep their order (not matched crosswise)', () => {
  const before = [
    line('Project name', [26, 310, 150, 331]),
    line('Send me updates', [93, 434, 258, 456]),
    line('Send me updates', [93, 475, 257, 496]),
  ];
  const after = [
    line('Project name', [26, 289, 150, 310]),
    line('Send me updates', [93, 413, 257, 434]),
    line('Send me updates', [93, 453, 258, 474]),
  ];
  const moves = matchLines(before, after).map((c) => (c.kind === 'moved' ? c.dy : c.kind));
  assert.deepEqual(moves, [-21, -21, -22]);
  assert.equal(verdictOf({ changes: matchLines(before, after) })?.caption, "'Project name' and 2 more lines moved 21 px up");
});

test('acrossRegions: a cut reading of a line that stayed where it was is dropped, and tells nothing', () => {
  const across = acrossRegions([
    { changes: matchLines([line('Welcome back', [22, 99, 298, 129])], [line('Welcome back', [22, 99, 298, 129])]) },
    { changes: matchLines([line('lcome back', [210, 99, 298, 129])], []) },
  ]);
  assert.deepEqual(across[1].changes, []);
  assert.equal(across[1].partOf, undefined);
});
