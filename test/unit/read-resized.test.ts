// Elements given a new size that the reader measures from pixels: one cut by a region's top edge whose
// bottom moved (src/core/read/cut.ts), and an input field around the text it kept in place
// (fieldAround, element.ts), on small drawn screens; and the verdicts the reader gives them (reading.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementCutAtTop } from '../../src/core/read/cut.js';
import { fieldAround, isFieldBox } from '../../src/core/read/element.js';
import { verdictOf } from '../../src/core/read/reading.js';
import { matchLines } from '../../src/core/read/correspond.js';
import type { TextLine } from '../../src/core/read/ocr.js';
import type { Box } from '../../src/core/report.js';
import { blankImage, fillRect, type Rgba } from './image-fixtures.js';

const PAGE: Rgba = [19, 23, 31, 255];
const BORDER: Rgba = [42, 49, 64, 255];
const FILL: Rgba = [28, 33, 44, 255];
const INK: Rgba = [220, 220, 220, 255];

/** A dark page: an outlined field [20, top, 200, bottom], and a block of "text" below it at `below`. */
function screen(top: number, bottom: number, below: number): ReturnType<typeof blankImage> {
  const image = blankImage(240, 200, PAGE);
  fillRect(image, [20, top, 200, bottom], BORDER);
  fillRect(image, [21, top + 1, 199, bottom - 1], FILL);
  fillRect(image, [30, top + 8, 90, top + 18], INK);
  fillRect(image, [20, below, 120, below + 12], INK);
  return image;
}

test('elementCutAtTop: a field given a smaller height, its bottom inside the region, is found on both sides', () => {
  const before = screen(30, 90, 110);
  const after = screen(30, 68, 88);
  // the changed pixels start at the field's new bottom
  const cut = elementCutAtTop(before, after, [18, 66, 202, 124]);
  assert.deepEqual(cut, { before: [20, 30, 200, 90], after: [20, 30, 200, 68] });
});

test('elementCutAtTop: a field moved down whole, a panel past the region, a container filled above, text: none', () => {
  // its top moved too (above the region): moved, not given a height
  assert.equal(elementCutAtTop(screen(30, 90, 110), screen(36, 96, 116), [18, 60, 202, 130]), undefined);
  // sides that run on below the region: a column or panel, whose bottom is not here
  assert.equal(elementCutAtTop(screen(30, 190, 150), screen(30, 180, 150), [18, 60, 202, 120]), undefined);
  // a container that grew because a line was put in it higher up: its inside above the region changed
  const filled = screen(30, 110, 130);
  fillRect(filled, [30, 50, 90, 58], INK);
  assert.equal(elementCutAtTop(screen(30, 90, 110), filled, [18, 86, 202, 144]), undefined);
  // ragged ink above (a line of text), no straight sides
  const text = (dy: number) => {
    const image = blankImage(240, 200, PAGE);
    for (let r = 0; r < 12; r++) fillRect(image, [20 + ((r * 7) % 5), 40 + r, 150 - ((r * 5) % 7), 41 + r], INK);
    fillRect(image, [20, 80 + dy, 120, 92 + dy], INK);
    return image;
  };
  assert.equal(elementCutAtTop(text(0), text(-10), [18, 52, 202, 100]), undefined);
});

const line = (text: string, box: Box): TextLine => ({ text, box, confidence: 1 });

test('verdictOf: a field cut by the region whose bottom moved as far as the lines below is resized', () => {
  const below = [line('Project name', [20, 110, 120, 122])];
  const reading = (dy: number) => ({
    changes: matchLines(below, [line('Project name', [20, 110 + dy, 120, 122 + dy])]),
    cut: { before: [20, 30, 200, 90] as Box, after: [20, 30, 200, 68] as Box, text: 'Alice Moreau', role: 'input' as const },
  });
  const v = verdictOf(reading(-22));
  assert.equal(v?.kind, 'resize');
  assert.equal(v?.caption, "the 'Alice Moreau' input got shorter; its bottom edge moved 22 px up, and 'Project name' with it");
  assert.deepEqual(v?.resized, { along: 'height', by: -22 });
  // the lines moved another way: something else moved them
  assert.notEqual(verdictOf(reading(-40))?.kind, 'resize');
});

/** A light page with an outlined field [20, 30, right, bottom] and its text at [32, 42, 120, 56]. */
function field(right: number, bottom: number): ReturnType<typeof blankImage> {
  const image = blankImage(300, 160, [255, 255, 255, 255]);
  fillRect(image, [20, 30, right, bottom], [207, 213, 226, 255]);
  fillRect(image, [21, 31, right - 1, bottom - 1], [251, 252, 252, 255]);
  fillRect(image, [34, 44, 118, 54], [40, 40, 40, 255]);
  return image;
}

test('fieldAround: the field a line starts, found from its left border, even where its text overflows it', () => {
  const text = { box: [32, 42, 120, 56] as Box };
  assert.deepEqual(fieldAround(field(260, 80), text), [20, 30, 260, 80]);
  assert.equal(isFieldBox([20, 30, 260, 80], text), true);
  // made shorter than its text: the bottom border crosses the text's lower half
  assert.deepEqual(fieldAround(field(180, 50), text), [20, 30, 180, 50]);
  // a label centred in its box is a button's, not a field's
  assert.equal(isFieldBox([20, 30, 132, 68], text), false);
  // no border within reach to the left
  assert.equal(fieldAround(blankImage(300, 160, [255, 255, 255, 255]), text), undefined);
});

test('verdictOf: a field whose box changed size around the text it kept in place was resized', () => {
  const text = line('hello@example.com', [44, 251, 215, 273]);
  const reading = (dy: number) => ({
    changes: matchLines([text, line('Email', [21, 317, 69, 337])], [text, line('Email', [21, 317 + dy, 69, 337 + dy])]),
    fields: [{ text: text.text, before: [22, 230, 338, 290] as Box, after: [22, 230, 255, 270] as Box }],
  });
  const v = verdictOf(reading(-20));
  assert.equal(v?.kind, 'resize');
  assert.equal(v?.caption, "the 'hello@example.com' input got smaller; it is now 233 x 40 px, was 316 x 60; 'Email' moved 20 px up");
  // the line below moved by other than the field's change of height: not this field's doing
  assert.notEqual(verdictOf(reading(-44))?.kind, 'resize');
});
