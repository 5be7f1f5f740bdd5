// The procedure at the screenshot's resolution: 9 frames (before, 7 in between, after) over a changed
// region's box, composed from the element correspondences the text reader measured (read/pair.ts:
// lines matched by correspond.ts, icon-sized blocks by blocks.ts) rather than from pixels alone. A moved
// element travels along the straight path from its old box to its new one, an added one grows in at its
// place, a removed one shrinks away, a re-worded one fades its old words out and its new ones in at its
// place; content pushed along by an insertion is a moved element of the same frames, so it slides while
// the insertion grows. Everything no correspondence covers (a colour or opacity changed in place) is a
// cross-fade of the two images there, which is what a linear colour transition is.
// Pure arithmetic on packed RGB; no model runs here (the ProCap interpolator's 96 px frames still pick
// the keyframes: pipeline.ts).
import { writeRgbPng, type RgbaImage } from '../image.js';
import { resampleArea } from '../crop.js';
import type { Box, ReportImage } from '../report.js';
import { commonBorderColour } from '../read/colour.js';

/** What became of one element between the two images; boxes in image pixels [x0, y0, x1, y1). */
export type ElementMotion =
  | { kind: 'moved'; before: Box; after: Box }
  | { kind: 'reworded'; before: Box; after: Box }
  | { kind: 'added'; after: Box }
  | { kind: 'removed'; before: Box };

/** Packed RGB, 3 bytes a pixel, row-major. */
export interface Raster {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** The longer side of a full frame; a larger box is scaled down to it. */
/**
 * The correspondences that drive a region's frames, given its kind: a colour, opacity or theme change
 * moves nothing, and a linear cross-fade is its procedure (what the reader matched there, words re-read
 * in another colour, would fade out and in instead).
 */
export function motionsForKind(kind: string | undefined, elements: ElementMotion[]): ElementMotion[] {
  return kind === 'color' || kind === 'opacity' || kind === 'theme' ? [] : elements;
}

export const FULL_FRAME_MAX_SIDE = 640;
/** Context shown around a region's box, in image pixels. */
export const FULL_CONTEXT_MARGIN = 24;
/** Frames of a procedure: before, 7 in between, after (the interpolator's time steps). */
export const PROCEDURE_STEPS = 9;

/**
 * The box the full frames show: the union of the region's boxes and of the elements with an end
 * that touches them (both ends), grown by the context margin and clipped to the image.
 */
export function fullBoxFor(boxes: Box[], elements: ElementMotion[], width: number, height: number, margin = FULL_CONTEXT_MARGIN): Box {
  if (!boxes.length) throw new Error('fullBoxFor: no box given');
  let [x0, y0, x1, y1] = boxes[0];
  for (const b of boxes) [x0, y0, x1, y1] = [Math.min(x0, b[0]), Math.min(y0, b[1]), Math.max(x1, b[2]), Math.max(y1, b[3])];
  // an element one end of which is here is shown whole, both ends (a line that moved in from afar)
  const touches = (b: Box) => b[0] < x1 + margin && x0 - margin < b[2] && b[1] < y1 + margin && y0 - margin < b[3];
  const here = elements.map(boxesOf).filter((ends) => ends.some(touches));
  for (const b of here.flat()) [x0, y0, x1, y1] = [Math.min(x0, b[0]), Math.min(y0, b[1]), Math.max(x1, b[2]), Math.max(y1, b[3])];
  const box: Box = [
    Math.max(0, Math.floor(x0 - margin)),
    Math.max(0, Math.floor(y0 - margin)),
    Math.min(width, Math.ceil(x1 + margin)),
    Math.min(height, Math.ceil(y1 + margin)),
  ];
  if (box[2] <= box[0] || box[3] <= box[1]) throw new Error(`fullBoxFor: the box [${box.join(', ')}] is empty inside ${width}x${height}`);
  return box;
}

function boxesOf(e: ElementMotion): Box[] {
  return e.kind === 'added' ? [e.after] : e.kind === 'removed' ? [e.before] : [e.before, e.after];
}

/** Frame pixels per image pixel for a box: 1, or less so that its longer side fits `maxSide`. */
export function fullScaleFor(box: Box, maxSide = FULL_FRAME_MAX_SIDE): number {
  const longer = Math.max(box[2] - box[0], box[3] - box[1]);
  return longer > maxSide ? maxSide / longer : 1;
}

/** The part of an image under `box` at `scale` (area-averaged when scaled down), as packed RGB. */
export function captureBox(image: RgbaImage, box: Box, scale: number): Raster {
  const w = box[2] - box[0],
    h = box[3] - box[1];
  const width = Math.max(1, Math.round(w * scale)),
    height = Math.max(1, Math.round(h * scale));
  return { width, height, rgb: resampleArea(image, box[0], box[1], w, h, width, height) };
}

/** Everything the full frames of one region need, kept until they are asked for: two small crops. */
export interface FullFramesInput {
  box: Box;
  scale: number;
  before: Raster;
  after: Raster;
  /** the correspondences, in image pixels */
  elements: ElementMotion[];
}

export function fullFramesInput(
  before: RgbaImage,
  after: RgbaImage,
  box: Box,
  elements: ElementMotion[],
  maxSide = FULL_FRAME_MAX_SIDE,
): FullFramesInput {
  const scale = fullScaleFor(box, maxSide);
  return { box, scale, before: captureBox(before, box, scale), after: captureBox(after, box, scale), elements };
}

/** A box in frame coordinates (floats) from image pixels. */
type FBox = [number, number, number, number];

function toFrame(b: Box, origin: Box, scale: number): FBox {
  return [(b[0] - origin[0]) * scale, (b[1] - origin[1]) * scale, (b[2] - origin[0]) * scale, (b[3] - origin[1]) * scale];
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const lerpBox = (a: FBox, b: FBox, t: number): FBox => [lerp(a[0], b[0], t), lerp(a[1], b[1], t), lerp(a[2], b[2], t), lerp(a[3], b[3], t)];

/** The pixels [x0, x1) x [y0, y1) a float box covers (a pixel whose centre is inside), clipped. */
function pixelSpan(b: FBox, width: number, height: number): [number, number, number, number] {
  return [
    Math.max(0, Math.round(b[0])),
    Math.max(0, Math.round(b[1])),
    Math.min(width, Math.round(b[2])),
    Math.min(height, Math.round(b[3])),
  ];
}

/** Bilinear sample of channel values at (x, y) (pixel centres at +0.5), edges clamped, into out[o..o+2]. */
function sample(r: Raster, x: number, y: number, out: Float32Array, o: number): void {
  const fx = Math.min(r.width - 1, Math.max(0, x - 0.5)),
    fy = Math.min(r.height - 1, Math.max(0, y - 0.5));
  const x0 = Math.floor(fx),
    y0 = Math.floor(fy);
  const x1 = Math.min(r.width - 1, x0 + 1),
    y1 = Math.min(r.height - 1, y0 + 1);
  const ax = fx - x0,
    ay = fy - y0;
  const i00 = (y0 * r.width + x0) * 3,
    i10 = (y0 * r.width + x1) * 3,
    i01 = (y1 * r.width + x0) * 3,
    i11 = (y1 * r.width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = r.rgb[i00 + c] + (r.rgb[i10 + c] - r.rgb[i00 + c]) * ax;
    const bottom = r.rgb[i01 + c] + (r.rgb[i11 + c] - r.rgb[i01 + c]) * ax;
    out[o + c] = top + (bottom - top) * ay;
  }
}

/** One element's motion in frame coordinates, with the backgrounds its place is filled with. */
interface Placed {
  kind: ElementMotion['kind'];
  before?: FBox;
  after?: FBox;
}

/** Pixels of a span, padded by one pixel (anti-aliased edges go with the element). */
function paddedSpan(b: FBox, r: Raster): [number, number, number, number] {
  const s = pixelSpan(b, r.width, r.height);
  return [Math.max(0, s[0] - 1), Math.max(0, s[1] - 1), Math.min(r.width, s[2] + 1), Math.min(r.height, s[3] + 1)];
}

/**
 * The two images with their elements taken out: where an element was (in that image), what the
 * other image shows there, unless an element is there too (then the element's own background).
 */
function cleanPlates(before: Raster, after: Raster, placed: Placed[]): { before: Float32Array; after: Float32Array } {
  const n = before.width * before.height;
  const maskB = new Uint8Array(n),
    maskA = new Uint8Array(n);
  const mark = (mask: Uint8Array, b: FBox) => {
    const [x0, y0, x1, y1] = paddedSpan(b, before);
    for (let y = y0; y < y1; y++) mask.fill(1, y * before.width + x0, y * before.width + x1);
  };
  for (const p of placed) {
    if (p.before) mark(maskB, p.before);
    if (p.after) mark(maskA, p.after);
  }
  const plate = (own: Raster, other: Raster, mask: Uint8Array, otherMask: Uint8Array, side: 'before' | 'after') => {
    const out = Float32Array.from(own.rgb);
    for (let i = 0; i < n; i++) {
      if (mask[i] && !otherMask[i]) for (let c = 0; c < 3; c++) out[i * 3 + c] = other.rgb[i * 3 + c];
    }
    // where both images hold an element, its own background (the border of its box in this image)
    for (const p of placed) {
      const b = p[side];
      if (!b) continue;
      const span = paddedSpan(b, own);
      // the commonest colour on the border of the span: the element's background
      const fill = commonBorderColour(own.rgb, own.width, own.height, 3, [span[0] - 1, span[1] - 1, span[2] + 1, span[3] + 1]);
      for (let y = span[1]; y < span[3]; y++) {
        for (let x = span[0]; x < span[2]; x++) {
          const i = y * own.width + x;
          if (otherMask[i]) for (let c = 0; c < 3; c++) out[i * 3 + c] = fill[c];
        }
      }
    }
    return out;
  };
  return { before: plate(before, after, maskB, maskA, 'before'), after: plate(after, before, maskA, maskB, 'after') };
}

/**
 * Draws into `frame` the picture of `src` under `srcBox`, stretched to `dest`, with opacity `alpha`
 * (and, where `src2` is given, cross-faded towards its `srcBox2` by `mix`).
 */
function drawSprite(
  frame: Float32Array,
  width: number,
  height: number,
  dest: FBox,
  alpha: number,
  src: Raster,
  srcBox: FBox,
  src2?: Raster,
  srcBox2?: FBox,
  mix = 0,
): void {
  if (alpha <= 0) return;
  const dw = dest[2] - dest[0],
    dh = dest[3] - dest[1];
  if (dw <= 0 || dh <= 0) return;
  const [x0, y0, x1, y1] = pixelSpan(dest, width, height);
  const a = new Float32Array(3),
    b = new Float32Array(3);
  for (let y = y0; y < y1; y++) {
    const v = (y + 0.5 - dest[1]) / dh;
    for (let x = x0; x < x1; x++) {
      const u = (x + 0.5 - dest[0]) / dw;
      sample(src, lerp(srcBox[0], srcBox[2], u), lerp(srcBox[1], srcBox[3], v), a, 0);
      if (src2 && srcBox2 && mix > 0) {
        sample(src2, lerp(srcBox2[0], srcBox2[2], u), lerp(srcBox2[1], srcBox2[3], v), b, 0);
        for (let c = 0; c < 3; c++) a[c] = lerp(a[c], b[c], mix);
      }
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) frame[i + c] = lerp(frame[i + c], a[c], alpha);
    }
  }
}

/** A box scaled by `s` about its centre. */
function scaledAbout(b: FBox, s: number): FBox {
  const cx = (b[0] + b[2]) / 2,
    cy = (b[1] + b[3]) / 2;
  const hw = ((b[2] - b[0]) / 2) * s,
    hh = ((b[3] - b[1]) / 2) * s;
  return [cx - hw, cy - hh, cx + hw, cy + hh];
}

/** An added element at time t: its size (about its centre) and its opacity. */
export function growth(t: number): { size: number; alpha: number } {
  const k = Math.min(1, Math.max(0, t));
  return { size: k, alpha: Math.min(1, 1.5 * k) };
}

/**
 * The frames at times `times` (0 = before, 1 = after) of the change from `before` to `after` (rasters
 * of the same size, the full box at `scale`), given the elements' motions in image pixels.
 */
export function composeFrames(input: FullFramesInput, times: number[] = stepTimes()): Raster[] {
  const { before, after, box, scale } = input;
  if (before.width !== after.width || before.height !== after.height) {
    throw new Error(`composeFrames: before is ${before.width}x${before.height}, after ${after.width}x${after.height}`);
  }
  const { width, height } = before;
  const inside = (b: FBox) => b[2] > 0 && b[3] > 0 && b[0] < width && b[1] < height && b[2] - b[0] >= 0.5 && b[3] - b[1] >= 0.5;
  const placed: Placed[] = [];
  for (const e of input.elements) {
    const p: Placed = {
      kind: e.kind,
      ...(e.kind !== 'added' ? { before: toFrame(e.before, box, scale) } : {}),
      ...(e.kind !== 'removed' ? { after: toFrame(e.after, box, scale) } : {}),
    };
    // an element with an end outside the frames is not drawn: its picture there is not in the crops
    // (fullBoxFor takes in both ends of the elements it is given)
    if ((p.before && !inside(p.before)) || (p.after && !inside(p.after))) continue;
    placed.push(p);
  }
  const plates = cleanPlates(before, after, placed);
  const n = width * height * 3;
  return times.map((t) => {
    if (t <= 0) return { width, height, rgb: Uint8Array.from(before.rgb) };
    if (t >= 1) return { width, height, rgb: Uint8Array.from(after.rgb) };
    const frame = new Float32Array(n);
    for (let i = 0; i < n; i++) frame[i] = lerp(plates.before[i], plates.after[i], t);
    // leaving and re-worded elements first, then the ones that travel, then the ones that arrive
    const order = { removed: 0, reworded: 1, moved: 2, added: 3 } as const;
    for (const p of [...placed].sort((x, y) => order[x.kind] - order[y.kind])) {
      if (p.kind === 'moved') {
        drawSprite(frame, width, height, lerpBox(p.before!, p.after!, t), 1, before, p.before!, after, p.after!, t);
      } else if (p.kind === 'reworded') {
        // the old words fade out, then the new ones in, on a box whose size goes from one to the other
        const dest = lerpBox(p.before!, p.after!, t);
        if (t < 0.5) drawSprite(frame, width, height, dest, 1 - 2 * t, before, p.before!);
        else drawSprite(frame, width, height, dest, 2 * t - 1, after, p.after!);
      } else if (p.kind === 'added') {
        const g = growth(t);
        drawSprite(frame, width, height, scaledAbout(p.after!, g.size), g.alpha, after, p.after!);
      } else {
        const g = growth(1 - t);
        drawSprite(frame, width, height, scaledAbout(p.before!, g.size), g.alpha, before, p.before!);
      }
    }
    const rgb = new Uint8Array(n);
    for (let i = 0; i < n; i++) rgb[i] = Math.round(frame[i]);
    return { width, height, rgb };
  });
}

/** The 9 time steps of a procedure: 0, 1/8, ..., 1. */
export function stepTimes(steps = PROCEDURE_STEPS): number[] {
  return Array.from({ length: steps }, (_, i) => i / (steps - 1));
}

/**
 * Per-pixel blend of two rasters by a coarse weight grid (gw x gh cells over `area`, a part of the
 * raster in its pixels; bilinear between cell centres): lerp(base, target, weight). Outside `area`, base.
 */
export function blendByGrid(base: Raster, target: Raster, grid: Float32Array, gw: number, gh: number, area: FBox): Raster {
  const rgb = Uint8Array.from(base.rgb);
  const [x0, y0, x1, y1] = pixelSpan(area, base.width, base.height);
  const aw = area[2] - area[0],
    ah = area[3] - area[1];
  for (let y = y0; y < y1; y++) {
    const gy = Math.min(gh - 1, Math.max(0, ((y + 0.5 - area[1]) / ah) * gh - 0.5));
    const j0 = Math.floor(gy),
      j1 = Math.min(gh - 1, j0 + 1),
      fy = gy - j0;
    for (let x = x0; x < x1; x++) {
      const gx = Math.min(gw - 1, Math.max(0, ((x + 0.5 - area[0]) / aw) * gw - 0.5));
      const i0 = Math.floor(gx),
        i1 = Math.min(gw - 1, i0 + 1),
        fx = gx - i0;
      const top = lerp(grid[j0 * gw + i0], grid[j0 * gw + i1], fx);
      const w = lerp(top, lerp(grid[j1 * gw + i0], grid[j1 * gw + i1], fx), fy);
      const i = (y * base.width + x) * 3;
      for (let c = 0; c < 3; c++) rgb[i + c] = Math.round(lerp(base.rgb[i + c], target.rgb[i + c], w));
    }
  }
  return { width: base.width, height: base.height, rgb };
}

export { toFrame as frameBoxOf };

/** Packed RGB -> an opaque 8-bit PNG (rows filtered "Up": flat UI areas deflate to little), as a ReportImage. */
export function rasterToReportImage(r: Raster): ReportImage {
  const png = writeRgbPng(r.rgb, r.width, r.height, { upFilter: true, level: 3 });
  return { width: r.width, height: r.height, pngBase64: png.toString('base64') };
}
