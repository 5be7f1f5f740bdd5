import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  motionsForKind,
  blendByGrid,
  captureBox,
  composeFrames,
  fullBoxFor,
  fullFramesInput,
  fullScaleFor,
  rasterToReportImage,
  stepTimes,
  type ElementMotion,
  type Raster,
} from '../../src/core/procap/compose.js';
import { imaginedShares } from '../../src/core/procap/imagine.js';
import { decodePng, type RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';

const BG = [240, 240, 240];
const INK = [20, 90, 200];

/** A w x h screenshot of background with filled rectangles [box, colour]. */
function screen(w: number, h: number, rects: [Box, number[]][]): RgbaImage {
  const data = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set([...BG, 255], i * 4);
  for (const [[x0, y0, x1, y1], c] of rects) {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set([...c, 255], (y * w + x) * 4);
  }
  return { width: w, height: h, data };
}

/** Pixels of a frame that are not the background (more than 40 levels away on a channel). */
function inked(r: Raster, level = 40): { count: number; box?: [number, number, number, number] } {
  let count = 0;
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const i = (y * r.width + x) * 3;
      if (Math.max(...[0, 1, 2].map((c) => Math.abs(r.rgb[i + c] - BG[c]))) <= level) continue;
      count++;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x + 1);
      y1 = Math.max(y1, y + 1);
    }
  }
  return count ? { count, box: [x0, y0, x1, y1] } : { count };
}

/** Intensity-weighted centre of the ink (how far each pixel is from the background). */
function inkCentre(r: Raster): [number, number] {
  let sx = 0,
    sy = 0,
    sw = 0;
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const i = (y * r.width + x) * 3;
      const w = Math.abs(r.rgb[i] - BG[0]) + Math.abs(r.rgb[i + 1] - BG[1]) + Math.abs(r.rgb[i + 2] - BG[2]);
      sx += w * (x + 0.5);
      sy += w * (y + 0.5);
      sw += w;
    }
  }
  return [sx / sw, sy / sw];
}

test('a moved block travels: at t = 1/2 it is halfway along its path, within a pixel, whole and alone', () => {
  const before = screen(200, 120, [[[20, 30, 60, 50], INK]]);
  const after = screen(200, 120, [[[97, 71, 137, 91], INK]]);
  const elements: ElementMotion[] = [{ kind: 'moved', before: [20, 30, 60, 50], after: [97, 71, 137, 91] }];
  const input = fullFramesInput(before, after, [0, 0, 200, 120], elements);
  const frames = composeFrames(input);
  assert.equal(frames.length, 9);
  const mid = frames[4];
  const [cx, cy] = inkCentre(mid);
  // from centre (40, 40) to (117, 81): halfway is (78.5, 60.5)
  assert.ok(Math.abs(cx - 78.5) <= 1, `centre x ${cx}`);
  assert.ok(Math.abs(cy - 60.5) <= 1, `centre y ${cy}`);
  // one block of the element's size, not two half-faded ones (a cross-fade would show both ends)
  const ink = inked(mid);
  assert.ok(ink.box && ink.box[2] - ink.box[0] <= 41 && ink.box[3] - ink.box[1] <= 21, `ink box ${ink.box}`);
  assert.ok(Math.abs(ink.count - 800) <= 60, `ink pixels ${ink.count}`);
  // every step is on the path: its centre advances by 1/8 of the way each frame
  frames.forEach((f, k) => {
    const [x, y] = inkCentre(f);
    assert.ok(Math.abs(x - (40 + (77 * k) / 8)) <= 1 && Math.abs(y - (40 + (41 * k) / 8)) <= 1, `frame ${k} at ${x}, ${y}`);
  });
  // the ends are the two images
  assert.deepEqual(frames[0].rgb, captureBox(before, [0, 0, 200, 120], 1).rgb);
  assert.deepEqual(frames[8].rgb, captureBox(after, [0, 0, 200, 120], 1).rgb);
});

test('an added block grows in at its place; a removed one shrinks away', () => {
  const box: Box = [60, 40, 100, 80];
  const before = screen(160, 120, []);
  const after = screen(160, 120, [[box, INK]]);
  const frames = composeFrames(fullFramesInput(before, after, [0, 0, 160, 120], [{ kind: 'added', after: box }]));
  const sizes = frames.map((f) => inked(f, 8).count);
  assert.equal(sizes[0], 0);
  for (let k = 1; k < 9; k++) assert.ok(sizes[k] > sizes[k - 1], `ink grows: ${sizes.join(', ')}`);
  // at t = 1/2 it is half its size each way, centred at its place
  const half = inked(frames[4]).box!;
  assert.ok(Math.abs(half[2] - half[0] - 20) <= 1 && Math.abs(half[3] - half[1] - 20) <= 1, `half-time box ${half}`);
  const [cx, cy] = inkCentre(frames[4]);
  assert.ok(Math.abs(cx - 80) <= 0.5 && Math.abs(cy - 60) <= 0.5);

  const gone = composeFrames(fullFramesInput(after, before, [0, 0, 160, 120], [{ kind: 'removed', before: box }]));
  const left = gone.map((f) => inked(f, 8).count);
  for (let k = 1; k < 9; k++) assert.ok(left[k] < left[k - 1], `ink shrinks: ${left.join(', ')}`);
});

test('a colour changed in place (no correspondence) is a cross-fade', () => {
  const box: Box = [10, 10, 50, 30];
  const before = screen(64, 40, [[box, [0, 0, 0]]]);
  const after = screen(64, 40, [[box, [200, 40, 40]]]);
  const frames = composeFrames(fullFramesInput(before, after, [0, 0, 64, 40], []));
  const times = stepTimes();
  frames.forEach((f, k) => {
    const i = (20 * 64 + 30) * 3;
    const want = [0, 0, 0].map((v, c) => Math.round(v + ([200, 40, 40][c] - v) * times[k]));
    assert.deepEqual([...f.rgb.subarray(i, i + 3)], want, `frame ${k}`);
    // the background stays
    assert.deepEqual([...f.rgb.subarray(0, 3)], BG);
  });
});

test('a re-worded element fades its old content out, then the new one in, at its place', () => {
  const box: Box = [10, 10, 50, 30];
  const before = screen(64, 40, [[box, [0, 0, 0]]]);
  const after = screen(64, 40, [
    [
      [10, 10, 40, 30],
      [200, 40, 40],
    ],
  ]);
  const frames = composeFrames(
    fullFramesInput(before, after, [0, 0, 64, 40], [{ kind: 'reworded', before: box, after: [10, 10, 40, 30] }]),
  );
  const at = (f: Raster, x: number, y: number) => [...f.rgb.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
  // half-way: neither (the background shows); at 3/4 the new colour half drawn over the background
  assert.deepEqual(at(frames[4], 20, 20), BG);
  assert.deepEqual(at(frames[6], 20, 20), [220, 140, 140]);
  // the old content never shows beside the new: past its new end, only background after t = 1/2
  assert.deepEqual(at(frames[5], 45, 20), BG);
});

test('the full box: union of the region boxes and the elements with an end touching it, with margin, clipped; the scale caps the side', () => {
  const elements: ElementMotion[] = [
    { kind: 'moved', before: [100, 100, 140, 120], after: [100, 160, 140, 180] },
    { kind: 'added', after: [900, 900, 950, 950] },
  ];
  assert.deepEqual(fullBoxFor([[100, 100, 140, 150]], elements, 1000, 1000, 24), [76, 76, 164, 204]);
  assert.deepEqual(fullBoxFor([[5, 5, 20, 20]], [], 30, 30, 24), [0, 0, 30, 30]);
  // a line that moved in from afar: both its ends are shown
  const far: ElementMotion[] = [{ kind: 'moved', before: [600, 600, 640, 620], after: [100, 100, 140, 120] }];
  assert.deepEqual(fullBoxFor([[100, 100, 140, 150]], far, 1000, 1000, 24), [76, 76, 664, 644]);
  assert.equal(fullScaleFor([0, 0, 1920, 1080]), 640 / 1920);
  assert.equal(fullScaleFor([0, 0, 300, 200]), 1);
  const input = fullFramesInput(screen(1920, 1080, []), screen(1920, 1080, []), [0, 0, 1920, 1080], []);
  assert.deepEqual([input.before.width, input.before.height], [640, 360]);
  assert.throws(() => fullBoxFor([], [], 10, 10), /no box/);
});

test('frames are opaque PNGs of the box size', () => {
  const r: Raster = { width: 3, height: 2, rgb: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 200, 201, 202, 0, 0, 0]) };
  const image = rasterToReportImage(r);
  const decoded = decodePng(Buffer.from(image.pngBase64, 'base64'), 'frame');
  assert.deepEqual([decoded.width, decoded.height], [3, 2]);
  assert.deepEqual([...decoded.data.subarray(12, 20)], [10, 11, 12, 255, 200, 201, 202, 255]);
});

test('imagined shares: an imagined frame a quarter of the way between the decoded ends reads 0.25; a patch that does not change takes the crop share', () => {
  const size = 4,
    plane = size * size;
  const before = new Float32Array(3 * plane),
    after = new Float32Array(3 * plane),
    imagined = new Float32Array(3 * plane);
  // left half changes from 0 to 1; the imagined frame is at 0.25 there
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < size; y++)
      for (let x = 0; x < 2; x++) {
        after[c * plane + y * size + x] = 1;
        imagined[c * plane + y * size + x] = 0.25;
      }
  const s = imaginedShares(imagined, 0, before, 0, after, 0, size, 2);
  assert.equal(s.side, 2);
  assert.ok(Math.abs(s.share - 0.25) < 1e-6);
  assert.deepEqual(
    [...s.grid].map((v) => Math.round(v * 100) / 100),
    [0.25, 0.25, 0.25, 0.25],
  );
  // applied to the real images: a quarter of the way
  const base: Raster = { width: 2, height: 1, rgb: Uint8Array.from([0, 0, 0, 0, 0, 0]) };
  const target: Raster = { width: 2, height: 1, rgb: Uint8Array.from([200, 200, 200, 100, 100, 100]) };
  const blended = blendByGrid(base, target, Float32Array.from([0.25, 1]), 2, 1, [0, 0, 2, 1]);
  assert.deepEqual([...blended.rgb], [50, 50, 50, 100, 100, 100]);
});

test('a colour, opacity or theme change is a cross-fade: what the reader matched there does not move or re-fade', () => {
  const elements = [
    { kind: 'reworded' as const, before: [10, 10, 60, 24] as Box, after: [10, 10, 60, 24] as Box },
    { kind: 'moved' as const, before: [10, 40, 60, 54] as Box, after: [10, 48, 60, 62] as Box },
  ];
  for (const kind of ['color', 'opacity', 'theme']) assert.deepEqual(motionsForKind(kind, elements), [], kind);
  for (const kind of ['move', 'text', 'add', 'reflow', undefined]) assert.deepEqual(motionsForKind(kind, elements), elements, String(kind));
});
