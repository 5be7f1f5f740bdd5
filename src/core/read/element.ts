// What a line of text is part of, from the pixels around it: a button (text on a filled box, or in
// an outlined box that fits it), a badge (a small filled pill), an input (a bordered field much wider
// than its text, the text at its left), an avatar (capital initials on a filled disc). Anything else
// has no name here - headings, labels, tabs, menu items and links look alike by their surroundings -
// and a caption says less rather than misname ("'Recents' was added", not "a new tag appeared"). Measured on the data engine's screens,
// where the DOM gives the truth, by `npm run ocr-eval` (docs/API.md, "The text reader").
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import { borderColour } from './ocr.js';
import { clipTo } from './box.js';

export type ElementRole = 'button' | 'badge' | 'input' | 'avatar';

/** Padding around a line beyond which its background is a panel or the page, not its own box (px). */
const MAX_SIDE_PADDING = 40;
const MAX_END_PADDING = 14;
/** Colours this far apart (largest channel difference) are different (a field's border can be faint). */
export const APART = 18;

type Rgb = [number, number, number];
export const pixel = (img: RgbaImage, x: number, y: number): Rgb => {
  const i = (y * img.width + x) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2]];
};
export const apart = (a: Rgb, b: Rgb) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2])) > APART;

/** Where, walking from (x, y) by (dx, dy), the colour first leaves `inside`: the steps, and the colours at and beyond that edge. */
function edgeFrom(
  img: RgbaImage,
  x: number,
  y: number,
  dx: number,
  dy: number,
  limit: number,
  inside: Rgb,
): { steps: number; at: Rgb; beyond: Rgb } | undefined {
  for (let s = 0; s <= limit; s++) {
    const px = x + dx * s,
      py = y + dy * s;
    if (px < 0 || py < 0 || px >= img.width || py >= img.height) return undefined;
    const c = pixel(img, px, py);
    if (!apart(c, inside)) continue;
    const bx = Math.min(img.width - 1, Math.max(0, px + dx * 3)),
      by = Math.min(img.height - 1, Math.max(0, py + dy * 3));
    return { steps: s, at: c, beyond: pixel(img, bx, by) };
  }
  return undefined;
}

/** A straight edge: found from every start, within a pixel of one another (text nearby is not). */
function straightEdge(edges: ({ steps: number; at: Rgb; beyond: Rgb } | undefined)[]): { steps: number; at: Rgb; beyond: Rgb } | undefined {
  if (edges.some((e) => e === undefined)) return undefined;
  const found = edges as { steps: number; at: Rgb; beyond: Rgb }[];
  const steps = found.map((e) => e.steps);
  return Math.max(...steps) - Math.min(...steps) <= 1 ? found[1] : undefined;
}

/** Whether the four corners of `box` (just inside it) are not `inside`'s colour: the box is a disc. */
function cornersOutside(image: RgbaImage, box: Box, inside: Rgb): boolean {
  const [x0, y0, x1, y1] = box;
  const inset = Math.max(1, Math.round(0.08 * Math.min(x1 - x0, y1 - y0)));
  const corners: [number, number][] = [
    [x0 + inset, y0 + inset],
    [x1 - 1 - inset, y0 + inset],
    [x0 + inset, y1 - 1 - inset],
    [x1 - 1 - inset, y1 - 1 - inset],
  ];
  return corners.every(([x, y]) => x >= 0 && y >= 0 && x < image.width && y < image.height && apart(pixel(image, x, y), inside));
}

/** The element the text line `line` (its box in `image`) belongs to, where its surroundings say so. */
export function elementOf(image: RgbaImage, line: { box: Box; text: string }): ElementRole | undefined {
  return elementAround(image, line)?.role;
}

/** The element of a text line (elementOf) with its box: the line's box out to the element's edges.
 * `padding` is the most space looked for beside and above or below the text (a button whose padding grew). */
export function elementAround(
  image: RgbaImage,
  line: { box: Box; text: string },
  padding: { side: number; end: number } = { side: MAX_SIDE_PADDING, end: MAX_END_PADDING },
): { role: ElementRole; box: Box } | undefined {
  const [x0, y0, x1, y1] = clipTo(image, line.box);
  const w = x1 - x0,
    h = y1 - y0;
  if (w < 4 || h < 6) return undefined;
  const inside = borderColour(image, [x0, y0, x1, y1]);
  const rows = [y0 + Math.floor(h / 4), y0 + Math.floor(h / 2), y0 + Math.floor((3 * h) / 4)];
  const cols = [x0 + Math.floor(w / 4), x0 + Math.floor(w / 2), x0 + Math.floor((3 * w) / 4)];
  const left = straightEdge(rows.map((y) => edgeFrom(image, x0 - 1, y, -1, 0, padding.side, inside)));
  const right = straightEdge(rows.map((y) => edgeFrom(image, x1, y, 1, 0, image.width, inside)));
  const up = straightEdge(cols.map((x) => edgeFrom(image, x, y0 - 1, 0, -1, padding.end, inside)));
  const down = straightEdge(cols.map((x) => edgeFrom(image, x, y1, 0, 1, padding.end, inside)));
  if (!left || !right || !up || !down) return undefined;
  const sides = [left, right, up, down];
  // a filled box: past its edge the colour stays another; an outlined one: past a thin border the
  // colour is the inside's again
  const filled = sides.filter((e) => apart(e.beyond, inside)).length >= 3;
  const outlined = sides.filter((e) => !apart(e.beyond, inside)).length >= 3;
  // a border: a line of its own colour between the inside and what is beyond it
  const bordered = sides.filter((e) => apart(e.at, e.beyond) || !apart(e.beyond, inside)).length >= 3;
  const boxWidth = w + left.steps + right.steps,
    boxHeight = h + up.steps + down.steps;
  const outer: Box = [x0 - left.steps, y0 - up.steps, x1 + right.steps, y1 + down.steps];
  // a short text in a square box: initials in a disc (an avatar) when the box's corners show what is
  // beyond it, else a short label in a square - nothing more here tells those apart
  if ([...line.text.replace(/\s/g, '')].length <= 3 && Math.abs(boxWidth - boxHeight) <= 0.25 * boxHeight) {
    return filled && /^\p{Lu}{1,3}$/u.test(line.text.trim()) && cornersOutside(image, outer, inside)
      ? { role: 'avatar', box: outer }
      : undefined;
  }
  // a border that runs on past the box's corner is a grid line: a table cell, not a field or button
  const lx = x0 - 1 - left.steps,
    ty = y0 - 1 - up.steps;
  const inImage = (x: number, y: number) => x >= 0 && y >= 0 && x < image.width && y < image.height;
  // (or a side that runs on below the bottom edge: that edge belongs to the next box, as a card's
  // top under a column's heading)
  const by = y1 + down.steps;
  const gridLine =
    (inImage(lx - 3, ty) && !apart(pixel(image, lx - 3, ty), up.at) && apart(up.at, up.beyond)) ||
    (inImage(lx, ty - 3) && !apart(pixel(image, lx, ty - 3), left.at) && apart(left.at, left.beyond)) ||
    (inImage(lx, by + 3) && !apart(pixel(image, lx, by + 3), left.at) && apart(left.at, left.beyond));
  if (gridLine) return undefined;
  // the text at the left of a bordered field much wider than it (a placeholder or a typed value): an input
  if (bordered && left.steps <= 20 && right.steps >= Math.max(40, w) && Math.abs(up.steps - down.steps) <= 3)
    return { role: 'input', box: outer };
  if (right.steps > padding.side || Math.abs(right.steps - left.steps) > Math.max(8, 0.3 * (left.steps + right.steps))) return undefined;
  if (filled) return { role: boxHeight <= 26 && h <= 16 ? 'badge' : 'button', box: outer };
  if (outlined) return { role: 'button', box: outer };
  return undefined;
}

/** A field's text starts this close to its left border (px) and leaves this much free on its right in
 * the wider of its two states; and a field is this short at most (px): a panel is not a field. */
const FIELD_LEFT_PADDING = 32;
const FIELD_FREE_RIGHT = 40;
const FIELD_MAX_HEIGHT = 120;
/** Radius of a field's corners (px) at most: its top and bottom borders are looked for past it. */
const FIELD_CORNER = 6;

/**
 * The bordered box a line of text sits at the start of (a field, a search box), found from its left
 * border: the border left of the text's upper rows, then up and down just inside that border, then
 * right just below the top border, past its corner (the padding above the text, clear of it even where the text now
 * fills or overflows the box, which elementAround's walk outward from the text cannot see past).
 */
export function fieldAround(image: RgbaImage, line: { box: Box }): Box | undefined {
  const [x0, y0, x1, y1] = clipTo(image, line.box);
  if (x1 - x0 < 4 || y1 - y0 < 6) return undefined;
  const inside = borderColour(image, [x0, y0, x1, y1]);
  // (a row near the text's top: a field made shorter than its text has its bottom border across
  // the text's lower half)
  const mid = Math.min(y0 + 3, (y0 + y1) >> 1);
  const left = edgeFrom(image, x0 - 1, mid, -1, 0, FIELD_LEFT_PADDING, inside);
  if (!left) return undefined;
  const xl = x0 - 1 - left.steps;
  // (a few pixels in from the border, past its rounded corners, where the top and bottom borders are
  // drawn whole)
  const col = Math.min(xl + FIELD_CORNER, (xl + x0) >> 1);
  if (col <= xl) return undefined;
  const up = edgeFrom(image, col, mid, 0, -1, FIELD_MAX_HEIGHT, inside),
    down = edgeFrom(image, col, mid, 0, 1, FIELD_MAX_HEIGHT, inside);
  if (!up || !down) return undefined;
  const top = mid - up.steps,
    bottom = mid + down.steps;
  const right = edgeFrom(image, col, Math.min(top + FIELD_CORNER, (top + y0) >> 1), 1, 0, image.width, inside);
  if (!right) return undefined;
  const xr = col + right.steps;
  // a straight left border from top to bottom (not the end of a word or a picture's edge)
  for (let y = top + FIELD_CORNER; y <= bottom - FIELD_CORNER; y += 2) if (!apart(pixel(image, xl, y), inside)) return undefined;
  return xr > x1 ? [xl, top, xr + 1, bottom + 1] : undefined;
}

/** Whether a field box (fieldAround) holding `line` looks like a field: its text at its left, at
 * least twice as much free space on its right (a button's label is centred). */
export function isFieldBox(box: Box, line: { box: Box }): boolean {
  return (
    line.box[0] - box[0] <= FIELD_LEFT_PADDING &&
    box[2] - line.box[2] >= Math.max(FIELD_FREE_RIGHT, 2 * (line.box[0] - box[0])) &&
    box[3] - box[1] <= FIELD_MAX_HEIGHT
  );
}
