import { test } from 'node:test';
import assert from 'node:assert/strict';
import contract from '../../models/contract.json' with { type: 'json' };
import {
  CROP_SIZE,
  cropBoxFor,
  cropsToTensor,
  extractCrop,
  imageToTensor,
  resampleArea,
  tensorToRgb,
  wholeScreenCrop,
} from '../../src/core/crop.js';
import { blankImage, fillRect } from './image-fixtures.js';

const rgbAt = (crop: Uint8Array, x: number, y: number, size = CROP_SIZE) =>
  Array.from(crop.subarray((y * size + x) * 3, (y * size + x) * 3 + 3));

test('the crop size comes from the contract', () => {
  assert.equal(CROP_SIZE, contract.image.size);
  assert.equal(CROP_SIZE, 96);
});

test('crop box: a small box gets the minimum 96 px square centred on it', () => {
  // w=20, h=10: margin 8, side max(96, 20+16) = 96
  assert.deepEqual(cropBoxFor([100, 100, 120, 110], 400, 300), [62, 57, 158, 153]);
});

test('crop box: a large box gets a 15% margin on its longest side', () => {
  // w=200, h=100: margin round(30) = 30, side 260
  assert.deepEqual(cropBoxFor([300, 300, 500, 400], 1000, 1000), [270, 220, 530, 480]);
});

test('crop box: shifted to stay inside the image where it fits', () => {
  assert.deepEqual(cropBoxFor([0, 0, 10, 10], 400, 300), [0, 0, 96, 96]);
  assert.deepEqual(cropBoxFor([390, 290, 400, 300], 400, 300), [304, 204, 400, 300]);
});

test('crop box: larger than the image it stays centred on the box and the edges are replicated', () => {
  const image = blankImage(50, 40, [10, 20, 30, 255]);
  fillRect(image, [0, 0, 1, 1], [200, 0, 0, 255]); // top-left pixel red
  const box = cropBoxFor([10, 10, 20, 20], 50, 40);
  assert.deepEqual(box, [-33, -33, 63, 63]);
  const crop = extractCrop(image, box);
  assert.deepEqual(rgbAt(crop, 0, 0), [200, 0, 0], 'outside the top-left corner replicates the corner pixel');
  assert.deepEqual(rgbAt(crop, 33, 33), [200, 0, 0]);
  assert.deepEqual(rgbAt(crop, 34, 34), [10, 20, 30]);
  assert.deepEqual(rgbAt(crop, 95, 95), [10, 20, 30]);
});

test('a 96 px crop is an exact copy of the pixels', () => {
  const image = blankImage(200, 200);
  for (let i = 0; i < image.data.length; i += 4) image.data.set([i % 251, (i >> 2) % 253, (i >> 4) % 255], i);
  const crop = extractCrop(image, [50, 60, 146, 156]);
  for (const [x, y] of [
    [0, 0],
    [17, 3],
    [95, 95],
    [40, 77],
  ]) {
    const p = ((60 + y) * 200 + 50 + x) * 4;
    assert.deepEqual(rgbAt(crop, x, y), Array.from(image.data.subarray(p, p + 3)));
  }
});

test('area averaging: a 1-px checkerboard shrunk 2x becomes flat grey, a block keeps its colour', () => {
  const image = blankImage(192, 192);
  for (let y = 0; y < 192; y++) for (let x = 0; x < 192; x++) if ((x + y) % 2) image.data.set([0, 0, 0], (y * 192 + x) * 4);
  const crop = resampleArea(image, 0, 0, 192, 192, 96, 96);
  for (let k = 0; k < crop.length; k++) assert.ok(Math.abs(crop[k] - 127.5) <= 0.5, `value ${crop[k]}`);
  const block = fillRect(blankImage(300, 300), [0, 0, 150, 300], [250, 0, 0, 255]);
  const squeezed = resampleArea(block, 0, 0, 300, 300, 96, 96);
  assert.deepEqual(rgbAt(squeezed, 0, 50), [250, 0, 0]);
  assert.deepEqual(rgbAt(squeezed, 47, 50), [250, 0, 0]);
  assert.deepEqual(rgbAt(squeezed, 48, 50), [255, 255, 255]);
  // a non-integer factor: 3 source px per 2 output px; the boundary pixel mixes 2/3 and 1/3... of a 1.5-px window
  const stripes = fillRect(blankImage(144, 144), [0, 0, 1, 144], [0, 0, 0, 255]);
  const mixed = resampleArea(stripes, 0, 0, 144, 144, 96, 96);
  assert.deepEqual(rgbAt(mixed, 0, 10), [85, 85, 85], 'one black px out of a 1.5 px window: 255 * 0.5 / 1.5');
});

test('the whole-screen view squeezes the common area to 96x96 without keeping the aspect', () => {
  const image = fillRect(blankImage(384, 96), [0, 0, 192, 96], [0, 0, 250, 255]);
  const crop = wholeScreenCrop(image);
  assert.deepEqual(rgbAt(crop, 47, 0), [0, 0, 250]);
  assert.deepEqual(rgbAt(crop, 48, 95), [255, 255, 255]);
  // only the common area counts: a wider image compared on its left 192 px is all blue
  const common = wholeScreenCrop(image, 192, 96);
  assert.deepEqual(rgbAt(common, 95, 95), [0, 0, 250]);
});

test('tensors are NCHW float32 RGB/255 and convert back', () => {
  const a = new Uint8Array(96 * 96 * 3).fill(0);
  const b = new Uint8Array(96 * 96 * 3).fill(0);
  a.set([255, 51, 0], 0);
  b.set([0, 102, 255], (95 * 96 + 95) * 3);
  const tensor = cropsToTensor([a, b]);
  const plane = 96 * 96;
  assert.equal(tensor.length, 2 * 3 * plane);
  assert.equal(tensor[0], 1);
  assert.equal(tensor[plane], Math.fround(51 / 255));
  assert.equal(tensor[2 * plane], 0);
  assert.equal(tensor[3 * plane + plane - 1], 0);
  assert.equal(tensor[3 * plane + 2 * plane - 1], Math.fround(102 / 255));
  assert.equal(tensor[3 * plane + 3 * plane - 1], 1);
  assert.deepEqual(tensorToRgb(tensor, 1, 96, 96), b);
  assert.throws(() => cropsToTensor([new Uint8Array(10)]), /expected 27648/);
  const image = fillRect(blankImage(4, 2), [1, 1, 2, 2], [0, 255, 0, 255]);
  const whole = imageToTensor(image);
  assert.equal(whole.length, 3 * 8);
  assert.equal(whole[5], 0, 'red plane at (1,1)');
  assert.equal(whole[8 + 5], 1, 'green plane at (1,1)');
});
