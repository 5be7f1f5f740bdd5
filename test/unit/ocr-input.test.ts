// The text reader's model inputs and the shifted-pixel count, against plain per-pixel statements of
// what they compute: their fast loops (tables per column and per byte value, rows split at the image's
// edge) must give the same numbers, bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';
import { detectorInput, recognizerInput, OCR } from '../../src/core/read/ocr.js';
import { differingAfterShift } from '../../src/core/jitter.js';

/** A noisy picture with flat patches, from a fixed seed. */
function picture(width: number, height: number, seed: number): RgbaImage {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const flat = (Math.floor(i / 7) + Math.floor(i / width / 5)) % 3 === 0;
    for (let c = 0; c < 3; c++) data[i * 4 + c] = flat ? 200 : Math.floor(next() * 256);
    data[i * 4 + 3] = 255;
  }
  return { width, height, data };
}

const MEAN = [0.406, 0.456, 0.485],
  STD = [0.225, 0.224, 0.229];

function detectorReference(image: RgbaImage, [x0, y0, x1, y1]: Box, scale: number) {
  const sw = Math.max(1, Math.round((x1 - x0) * scale)),
    sh = Math.max(1, Math.round((y1 - y0) * scale));
  const width = Math.max(32, Math.ceil(sw / 32) * 32),
    height = Math.max(32, Math.ceil(sh / 32) * 32);
  const plane = width * height;
  const tensor = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) tensor.fill((1 - MEAN[c]) / STD[c], c * plane, (c + 1) * plane);
  for (let y = 0; y < sh; y++) {
    const sy = Math.min(y1 - 1, y0 + Math.floor((y + 0.5) / scale));
    for (let x = 0; x < sw; x++) {
      const sx = Math.min(x1 - 1, x0 + Math.floor((x + 0.5) / scale));
      const i = (sy * image.width + sx) * 4;
      for (let c = 0; c < 3; c++) tensor[c * plane + y * width + x] = (image.data[i + 2 - c] / 255 - MEAN[c]) / STD[c];
    }
  }
  return { tensor, width, height };
}

function recognizerReference(image: RgbaImage, [x0, y0, x1, y1]: Box) {
  const H = OCR.recognizer.height;
  const bw = x1 - x0,
    bh = y1 - y0;
  const width = Math.max(8, Math.min(3200, Math.round((H * bw) / bh)));
  const plane = H * width;
  const data = new Float32Array(3 * plane);
  for (let y = 0; y < H; y++) {
    const fy = y0 + ((y + 0.5) * bh) / H - 0.5;
    const ya = Math.max(y0, Math.min(y1 - 1, Math.floor(fy))),
      yb = Math.min(y1 - 1, ya + 1),
      ty = Math.max(0, Math.min(1, fy - ya));
    for (let x = 0; x < width; x++) {
      const fx = x0 + ((x + 0.5) * bw) / width - 0.5;
      const xa = Math.max(x0, Math.min(x1 - 1, Math.floor(fx))),
        xb = Math.min(x1 - 1, xa + 1),
        tx = Math.max(0, Math.min(1, fx - xa));
      for (let c = 0; c < 3; c++) {
        const at = (xx: number, yy: number) => image.data[(yy * image.width + xx) * 4 + (2 - c)];
        const v = (at(xa, ya) * (1 - tx) + at(xb, ya) * tx) * (1 - ty) + (at(xa, yb) * (1 - tx) + at(xb, yb) * tx) * ty;
        data[c * plane + y * width + x] = (v / 255) * 2 - 1;
      }
    }
  }
  return { data, width };
}

function differingReference(before: RgbaImage, after: RgbaImage, [x0, y0, x1, y1]: Box, dx: number, dy: number, tolerance: number): number {
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const sx = x - dx,
        sy = y - dy;
      if (sx < 0 || sy < 0 || sx >= before.width || sy >= before.height) {
        count++;
        continue;
      }
      const a = (y * after.width + x) * 4,
        b = (sy * before.width + sx) * 4;
      if ([0, 1, 2].some((c) => Math.abs(after.data[a + c] - before.data[b + c]) > tolerance)) count++;
    }
  }
  return count;
}

const BOXES: Box[] = [
  [0, 0, 90, 40],
  [13, 7, 77, 29],
  [50, 30, 90, 40],
  [3, 3, 7, 8],
];

test('detectorInput and recognizerInput: the same tensors as the per-pixel statement, at every scale', () => {
  const image = picture(90, 40, 3);
  for (const box of BOXES) {
    for (const scale of [2, 1.5, 1, 0.7]) {
      const fast = detectorInput(image, box, scale),
        plain = detectorReference(image, box, scale);
      assert.deepEqual([fast.width, fast.height], [plain.width, plain.height]);
      assert.deepEqual(fast.tensor, plain.tensor, `detector ${box} x${scale}`);
    }
    const fast = recognizerInput(image, box),
      plain = recognizerReference(image, box);
    assert.equal(fast.width, plain.width);
    assert.deepEqual(fast.data, plain.data, `recognizer ${box}`);
  }
});

test('differingAfterShift: the per-pixel count for every shift, sources outside the image included', () => {
  const before = picture(90, 40, 5),
    after = picture(80, 44, 5);
  for (const box of [[0, 0, 80, 40] as Box, [10, 5, 60, 44] as Box, [70, 0, 80, 10] as Box]) {
    for (const [dx, dy] of [
      [0, 0],
      [3, -2],
      [-7, 4],
      [85, 0],
      [0, -50],
      [-100, 3],
    ]) {
      for (const tolerance of [0, 40]) {
        assert.equal(
          differingAfterShift(before, after, box, dx, dy, tolerance),
          differingReference(before, after, box, dx, dy, tolerance),
          `${box} by ${dx},${dy} at ${tolerance}`,
        );
      }
    }
  }
});
