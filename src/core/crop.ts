// The model's view of a region: the crop rule of models/contract.json, and the tensors fed to
// the ONNX models. Training samples (src/lab/crops.ts) and the runtime both crop through this
// file, so the model is trained on exactly the pixels it is later shown.
//
// Contract rule: region box [x0,y0,x1,y1); margin m = max(8, round(0.15*max(w,h))); square
// side S = max(96, max(w,h) + 2m), centred on the box, shifted to stay inside the image where it
// fits, pixels outside the image replicate the nearest edge; then resized to 96x96 by area
// averaging when S > 96. Whole screen: the whole common area resized to 96x96 (aspect not kept).

import contract from '../../models/contract.json' with { type: 'json' };
import type { Box } from './report.js';
import type { RgbaImage } from './image.js';

/** Side of the model's input image (96). */
export const CROP_SIZE: number = contract.image.size;

/**
 * The square crop box for a region box, in image pixels. It may extend past the image only
 * when the square is larger than the image in that direction (then it stays centred on the box).
 */
export function cropBoxFor(box: Box, imageWidth: number, imageHeight: number): Box {
  const [x0, y0, x1, y1] = box;
  const w = x1 - x0;
  const h = y1 - y0;
  const longest = Math.max(w, h);
  const margin = Math.max(8, Math.round(0.15 * longest));
  const side = Math.max(CROP_SIZE, longest + 2 * margin);
  const place = (start: number, length: number, imageLength: number): number => {
    // centred: the box's extra room split evenly, the odd pixel going after the box
    let from = start - Math.floor((side - length) / 2);
    if (side <= imageLength) from = Math.min(Math.max(from, 0), imageLength - side);
    return from;
  };
  const cx0 = place(x0, w, imageWidth);
  const cy0 = place(y0, h, imageHeight);
  return [cx0, cy0, cx0 + side, cy0 + side];
}

/**
 * Precomputed area-average weights for resizing `sourceLength` samples starting at `sourceStart`
 * to `targetLength` samples; source indices are clamped into [0, imageLength) (edge replicate).
 * Output i averages the source interval [i*scale, (i+1)*scale) weighted by overlap.
 */
interface ResizeTaps {
  /** for output i, its taps are offsets[i] .. offsets[i+1] in indices/weights. */
  offsets: Int32Array;
  indices: Int32Array;
  weights: Float32Array;
}

function resizeTaps(sourceStart: number, sourceLength: number, targetLength: number, imageLength: number): ResizeTaps {
  const scale = sourceLength / targetLength;
  const offsets = new Int32Array(targetLength + 1);
  const indexList: number[] = [];
  const weightList: number[] = [];
  for (let i = 0; i < targetLength; i++) {
    const from = i * scale;
    const to = (i + 1) * scale;
    const first = Math.floor(from);
    const last = Math.min(Math.ceil(to), sourceLength) - 1;
    for (let s = first; s <= last; s++) {
      const overlap = Math.min(to, s + 1) - Math.max(from, s);
      if (overlap <= 0) continue;
      indexList.push(Math.min(Math.max(sourceStart + s, 0), imageLength - 1));
      weightList.push(overlap / scale);
    }
    offsets[i + 1] = indexList.length;
  }
  return { offsets, indices: Int32Array.from(indexList), weights: Float32Array.from(weightList) };
}

/**
 * Area-average resize of the rectangle [x0, x0+sw) x [y0, y0+sh) of `image` (which may reach
 * outside the image: edge pixels are replicated) to a packed RGB target of tw x th pixels.
 */
export function resampleArea(
  image: RgbaImage,
  x0: number,
  y0: number,
  sw: number,
  sh: number,
  tw: number,
  th: number,
  out?: Uint8Array,
): Uint8Array {
  const target = out ?? new Uint8Array(tw * th * 3);
  const xTaps = resizeTaps(x0, sw, tw, image.width);
  const yTaps = resizeTaps(y0, sh, th, image.height);
  // Pass 1: every source row the vertical taps use (a contiguous range, clamped indices are
  // monotonic) resized horizontally once, even when two output rows share it.
  const firstRow = yTaps.indices[0];
  const lastRow = yTaps.indices[yTaps.indices.length - 1];
  const rowLength = tw * 3;
  const rows = new Float32Array((lastRow - firstRow + 1) * rowLength);
  const data = image.data;
  const stride = image.width * 4;
  for (let row = firstRow; row <= lastRow; row++) {
    const rowStart = row * stride;
    const base = (row - firstRow) * rowLength;
    for (let ox = 0; ox < tw; ox++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let u = xTaps.offsets[ox]; u < xTaps.offsets[ox + 1]; u++) {
        const p = rowStart + xTaps.indices[u] * 4;
        const wgt = xTaps.weights[u];
        r += data[p] * wgt;
        g += data[p + 1] * wgt;
        b += data[p + 2] * wgt;
      }
      rows[base + ox * 3] = r;
      rows[base + ox * 3 + 1] = g;
      rows[base + ox * 3 + 2] = b;
    }
  }
  // Pass 2: vertical weights.
  const accumulator = new Float32Array(rowLength);
  for (let oy = 0; oy < th; oy++) {
    accumulator.fill(0);
    for (let t = yTaps.offsets[oy]; t < yTaps.offsets[oy + 1]; t++) {
      const base = (yTaps.indices[t] - firstRow) * rowLength;
      const rowWeight = yTaps.weights[t];
      for (let k = 0; k < rowLength; k++) accumulator[k] += rows[base + k] * rowWeight;
    }
    const base = oy * rowLength;
    for (let k = 0; k < rowLength; k++) {
      const v = Math.round(accumulator[k]);
      target[base + k] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return target;
}

/** The 96x96 packed RGB crop of `image` for a crop box from cropBoxFor. */
export function extractCrop(image: RgbaImage, cropBox: Box, out?: Uint8Array): Uint8Array {
  const [x0, y0, x1, y1] = cropBox;
  return resampleArea(image, x0, y0, x1 - x0, y1 - y0, CROP_SIZE, CROP_SIZE, out);
}

/** The whole-screen view: the common area (top-left width x height) squeezed to 96x96. */
export function wholeScreenCrop(image: RgbaImage, width = image.width, height = image.height, out?: Uint8Array): Uint8Array {
  return resampleArea(image, 0, 0, width, height, CROP_SIZE, CROP_SIZE, out);
}

/** The crop box recorded for the whole-screen pass: the common area. */
export function wholeScreenBox(width: number, height: number): Box {
  return [0, 0, width, height];
}

/**
 * Packed RGB crops (each size*size*3 bytes) -> one Float32 NCHW tensor [B, 3, size, size] with
 * values RGB/255, the contract's model input.
 */
export function cropsToTensor(crops: Uint8Array[], size = CROP_SIZE): Float32Array {
  const plane = size * size;
  const tensor = new Float32Array(crops.length * 3 * plane);
  crops.forEach((crop, b) => {
    if (crop.length !== plane * 3) throw new Error(`crop ${b} has ${crop.length} bytes, expected ${plane * 3}`);
    const base = b * 3 * plane;
    for (let p = 0, q = 0; p < plane; p++, q += 3) {
      tensor[base + p] = crop[q] / 255;
      tensor[base + plane + p] = crop[q + 1] / 255;
      tensor[base + 2 * plane + p] = crop[q + 2] / 255;
    }
  });
  return tensor;
}

/** One image of a Float32 NCHW tensor (values 0..1) -> packed RGB bytes, e.g. to save a frame. */
export function tensorToRgb(tensor: Float32Array, index: number, width: number, height: number): Uint8Array {
  const plane = width * height;
  const base = index * 3 * plane;
  if (base + 3 * plane > tensor.length) throw new Error(`tensor has no image ${index} of ${width}x${height}`);
  const rgb = new Uint8Array(plane * 3);
  for (let p = 0, q = 0; p < plane; p++, q += 3) {
    for (let c = 0; c < 3; c++) {
      const v = Math.round(tensor[base + c * plane + p] * 255);
      rgb[q + c] = v < 0 ? 0 : v > 255 ? 255 : Number.isNaN(v) ? 0 : v;
    }
  }
  return rgb;
}

/** A whole RGBA image as a Float32 NCHW tensor [1, 3, H, W] (RGB/255), e.g. for the interpolator. */
export function imageToTensor(image: RgbaImage): Float32Array {
  const plane = image.width * image.height;
  const tensor = new Float32Array(3 * plane);
  const data = image.data;
  for (let p = 0, q = 0; p < plane; p++, q += 4) {
    tensor[p] = data[q] / 255;
    tensor[plane + p] = data[q + 1] / 255;
    tensor[2 * plane + p] = data[q + 2] / 255;
  }
  return tensor;
}
