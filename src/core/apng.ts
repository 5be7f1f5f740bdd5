// Animated PNG (APNG) writer: the procedure as one image a browser, an image viewer or a pull
// request shows playing. Written here rather than taken from a library because it is small: a PNG
// whose first frame is the ordinary image (IDAT), plus an acTL chunk (frame count, loops) and per
// frame an fcTL chunk (size, delay) and, after the first, fdAT chunks (the frame's compressed
// rows behind a sequence number). Viewers without APNG support show the first frame.
// Spec: https://wiki.mozilla.org/APNG_Specification
import * as zlib from 'node:zlib';
import { decodePng, paeth, PNG_SIGNATURE, pngChunk as chunk, type RgbaImage } from './image.js';
import type { ProcedureFrames } from './report.js';
import { PROCEDURE_FRAME_MS, procedureDelaysMs } from './procedure-timing.js';

export { PROCEDURE_FRAME_MS, procedureDelaysMs };

export interface ApngOptions {
  /** display time of each frame in milliseconds (one number for all, or one per frame); 1..65535 */
  delaysMs: number | number[];
  /** times the animation plays; 0 (the default) loops forever */
  loops?: number;
}

/**
 * The zlib stream of one RGBA frame. Each row takes the filter (None, Sub, Up, Average, Paeth)
 * whose output has the smallest sum of absolute values, the usual heuristic: frames scaled up by
 * repeating pixels turn into runs of zeros that deflate to almost nothing.
 */
function compressFrame(image: RgbaImage): Buffer {
  const { width, height, data } = image;
  const stride = width * 4;
  const out = new Uint8Array(height * (stride + 1));
  const candidate = Array.from({ length: 5 }, () => new Uint8Array(stride));
  for (let y = 0; y < height; y++) {
    const row = y * stride;
    const prior = (y - 1) * stride;
    let best = 0;
    let bestCost = Infinity;
    for (let filter = 0; filter < 5; filter++) {
      const line = candidate[filter];
      let cost = 0;
      for (let i = 0; i < stride; i++) {
        const left = i >= 4 ? data[row + i - 4] : 0;
        const up = y > 0 ? data[prior + i] : 0;
        const upLeft = y > 0 && i >= 4 ? data[prior + i - 4] : 0;
        const predictor =
          filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : paeth(left, up, upLeft);
        const value = (data[row + i] - predictor) & 0xff;
        line[i] = value;
        cost += value < 128 ? value : 256 - value;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = filter;
      }
    }
    const at = y * (stride + 1);
    out[at] = best;
    out.set(candidate[best], at + 1);
  }
  return zlib.deflateSync(out, { level: 9 });
}

function frameControl(sequence: number, width: number, height: number, delayMs: number): Buffer {
  const data = Buffer.alloc(26);
  data.writeUInt32BE(sequence, 0);
  data.writeUInt32BE(width, 4);
  data.writeUInt32BE(height, 8);
  data.writeUInt32BE(0, 12); // x offset: every frame covers the whole canvas
  data.writeUInt32BE(0, 16); // y offset
  data.writeUInt16BE(delayMs, 20); // delay numerator…
  data.writeUInt16BE(1000, 22); // …over 1000: milliseconds
  data[24] = 0; // dispose: none (the next frame replaces it whole anyway)
  data[25] = 0; // blend: source (the frame's pixels replace the canvas, alpha included)
  return chunk('fcTL', data);
}

/**
 * Encodes frames of one size as an APNG (8-bit RGBA) that plays `loops` times (0: forever). The
 * first frame is also the still image that a viewer without APNG support shows.
 */
export function encodeApng(frames: readonly RgbaImage[], options: ApngOptions): Buffer {
  if (frames.length === 0) throw new Error('an animation needs at least one frame');
  const { width, height } = frames[0];
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1)) {
    throw new Error(`frame size ${width}x${height} is not a picture`);
  }
  frames.forEach((frame, index) => {
    if (frame.width !== width || frame.height !== height) {
      throw new Error(`frame ${index} is ${frame.width}x${frame.height}, the first is ${width}x${height}: all frames need one size`);
    }
    if (frame.data.length !== width * height * 4) throw new Error(`frame ${index} does not hold ${width}x${height} RGBA pixels`);
  });
  const delays = typeof options.delaysMs === 'number' ? frames.map(() => options.delaysMs as number) : options.delaysMs;
  if (delays.length !== frames.length) throw new Error(`${delays.length} delays for ${frames.length} frames`);
  for (const delay of delays) {
    if (!Number.isInteger(delay) || delay < 1 || delay > 65_535) throw new Error(`a frame delay must be 1..65535 ms (got ${delay})`);
  }
  const loops = options.loops ?? 0;
  if (!Number.isInteger(loops) || loops < 0 || loops > 0x7fffffff) throw new Error(`loops must be a whole number >= 0 (got ${loops})`);

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  // compression, filter method, interlace: 0
  const control = Buffer.alloc(8);
  control.writeUInt32BE(frames.length, 0);
  control.writeUInt32BE(loops, 4);

  const parts: Buffer[] = [Buffer.from(PNG_SIGNATURE), chunk('IHDR', header), chunk('acTL', control)];
  // one sequence across fcTL and fdAT chunks, from 0, in file order
  let sequence = 0;
  frames.forEach((frame, index) => {
    parts.push(frameControl(sequence++, width, height, delays[index]));
    const compressed = compressFrame(frame);
    if (index === 0) {
      parts.push(chunk('IDAT', compressed));
      return;
    }
    const data = Buffer.alloc(4 + compressed.length);
    data.writeUInt32BE(sequence++, 0);
    compressed.copy(data, 4);
    parts.push(chunk('fdAT', data));
  });
  parts.push(chunk('IEND', new Uint8Array(0)));
  return Buffer.concat(parts);
}

/** An image scaled up `factor` times by repeating pixels (crisp: no blur between them). */
export function scaleNearest(image: RgbaImage, factor: number): RgbaImage {
  if (!Number.isInteger(factor) || factor < 1) throw new Error(`scale factor must be a whole number >= 1 (got ${factor})`);
  if (factor === 1) return image;
  const width = image.width * factor;
  const height = image.height * factor;
  const data = new Uint8Array(width * height * 4);
  const pixels = new Uint32Array(data.buffer);
  // (copied: a decoded image may sit at an offset in a shared buffer that a Uint32Array cannot start at)
  const source = new Uint32Array(Uint8Array.from(image.data).buffer);
  for (let y = 0; y < image.height; y++) {
    const row = y * factor * width;
    for (let x = 0; x < image.width; x++) pixels.fill(source[y * image.width + x], row + x * factor, row + (x + 1) * factor);
    for (let k = 1; k < factor; k++) pixels.copyWithin(row + k * width, row, row + width);
  }
  return { width, height, data };
}

/** The largest side of an exported procedure animation: larger regions are shown at this size. */
export const MAX_ANIMATION_SIDE = 768;

/**
 * The whole-number scale that shows a procedure's frames (crops of the square `cropBox`) about the
 * region's size in the screenshot, no larger than MAX_ANIMATION_SIDE.
 */
export function regionScale(frameSide: number, cropBox: readonly number[]): number {
  const side = Math.max(cropBox[2] - cropBox[0], cropBox[3] - cropBox[1]);
  const fits = Math.max(1, Math.floor(MAX_ANIMATION_SIDE / frameSide));
  return Math.min(fits, Math.max(1, Math.round(side / frameSide)));
}

/** The frames an animation shows: the full-resolution ones over the region's box where the report has
 * them, else the model's 96 px frames of its square crop. */
export function animationFrames(procedure: ProcedureFrames): ProcedureFrames['frames'] {
  return procedure.full?.frames.length ? procedure.full.frames : procedure.frames;
}

/** The scale of an exported animation: 1 for the full frames (already at the region's size, or
 * capped), else regionScale of the 96 px frames. */
export function animationScale(procedure: ProcedureFrames, cropBox: readonly number[]): number {
  if (procedure.full?.frames.length) return 1;
  return procedure.frames.length ? regionScale(procedure.frames[0].width, cropBox) : 1;
}

/**
 * A region's procedure (before, the frames in between, after) as an APNG that loops forever,
 * scaled up `scale` times with crisp pixels: its full-resolution frames where present.
 */
export function procedureApng(procedure: ProcedureFrames, options: { scale?: number; frameMs?: number } = {}): Buffer {
  const shown = animationFrames(procedure);
  if (shown.length === 0) throw new Error('the procedure has no frames');
  const scale = options.scale ?? 1;
  const frames = shown.map((frame, index) =>
    scaleNearest(decodePng(Buffer.from(frame.pngBase64, 'base64'), `procedure frame ${index}`), scale),
  );
  return encodeApng(frames, { delaysMs: procedureDelaysMs(frames.length, options.frameMs ?? PROCEDURE_FRAME_MS) });
}
