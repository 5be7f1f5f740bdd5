// PNG input and output for the pixel pipeline.
// Every image the pipeline sees is 8-bit RGBA with alpha already composited over white, so
// the diff, the crops and the model all agree on what a half-transparent pixel looks like.
// The header is checked by hand BEFORE pngjs allocates anything, so a hostile or broken file
// is refused with a clear message naming it instead of exhausting memory.

import { closeSync, constants as fsConstants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';
import * as zlib from 'node:zlib';
import { deflateSync, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';

/** A decoded image: width*height*4 bytes of RGBA, alpha always 255. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A clear, expected failure caused by the input file (not a bug in our code). */
export class ImageInputError extends Error {
  readonly file: string;
  constructor(file: string, reason: string) {
    super(`${file}: ${reason}`);
    this.name = 'ImageInputError';
    this.file = file;
  }
}

export interface ImageLimits {
  /** largest accepted width or height in pixels (a fixed bound on the crops' working memory, not a setting). */
  maxSide: number;
  /** largest accepted width*height: the CLI's --max-pixels, the extension's procapReview.maxImagePixels. */
  maxPixels: number;
  /** largest accepted file size in bytes. */
  maxFileBytes: number;
  /**
   * most memory the pixel buffers of one pair may need at their peak (pairMemoryEstimate), in bytes:
   * the CLI's --max-memory, the extension's procapReview.maxMemoryMB.
   */
  maxMemoryBytes: number;
}

/** Longest side read: a full-page capture 65,535 px tall (1920 x 20000, 1280 x 30000) is accepted. */
export const MAX_IMAGE_SIDE = 65_535;
/** Default memory budget of one pair's pixel buffers, in MB (2^20 bytes). */
export const DEFAULT_MAX_MEMORY_MB = 1024;

/**
 * By default 40 megapixels an image (1920 x 20000 is 38.4 Mpx) up to 65,535 px a side, and 1024 MB for
 * the pixel buffers of a pair (two 40 Mpx images of any bit depth fit).
 */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxSide: MAX_IMAGE_SIDE,
  maxPixels: 40_000_000,
  maxFileBytes: 256 * 1024 * 1024,
  maxMemoryBytes: DEFAULT_MAX_MEMORY_MB * 2 ** 20,
};

/** The limits for the settings of a describe (undefined: the default). */
export function imageLimitsFor(options: { maxImagePixels?: number; maxMemoryMB?: number }): ImageLimits {
  return {
    ...DEFAULT_IMAGE_LIMITS,
    ...(options.maxImagePixels ? { maxPixels: options.maxImagePixels } : {}),
    ...(options.maxMemoryMB ? { maxMemoryBytes: options.maxMemoryMB * 2 ** 20 } : {}),
  };
}

export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
}

/** The eight bytes every PNG file starts with. */
export const PNG_SIGNATURE: readonly number[] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

// Valid bit depths for each PNG colour type (PNG spec, table 11.1).
const BIT_DEPTHS_BY_COLOR_TYPE: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const CHANNELS_BY_COLOR_TYPE: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

// node:zlib has crc32 from Node 20.15 (read off the namespace: a named import fails to link before)
const zlibCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
let crcTable: Uint32Array | undefined;
/** CRC-32 of bytes[start, end) as PNG chunks use it: node:zlib's where this Node has it. */
function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (zlibCrc32) return zlibCrc32(bytes.subarray(start, end)) >>> 0;
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function readUint32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0;
}

/**
 * Reads and validates the signature and IHDR chunk only, and checks the size against the
 * limits. Throws ImageInputError naming `file` for anything wrong. No pixel memory is allocated.
 */
export function readPngHeader(bytes: Uint8Array, file: string, limits: ImageLimits = DEFAULT_IMAGE_LIMITS): PngHeader {
  if (bytes.length === 0) throw new ImageInputError(file, 'the file is empty (0 bytes), not a PNG image');
  for (let i = 0; i < PNG_SIGNATURE.length; i++) {
    if (bytes.length <= i || bytes[i] !== PNG_SIGNATURE[i]) {
      throw new ImageInputError(file, 'not a PNG image (the PNG signature is missing)');
    }
  }
  // signature (8) + length (4) + "IHDR" (4) + 13 data bytes + CRC (4)
  if (bytes.length < 33) throw new ImageInputError(file, 'truncated PNG: the file ends inside the IHDR header');
  const ihdrLength = readUint32(bytes, 8);
  const chunkType = String.fromCharCode(bytes[12], bytes[13], bytes[14], bytes[15]);
  if (chunkType !== 'IHDR' || ihdrLength !== 13) {
    throw new ImageInputError(file, 'corrupt PNG: the first chunk is not a 13-byte IHDR header');
  }
  if (crc32(bytes, 12, 29) !== readUint32(bytes, 29)) {
    throw new ImageInputError(file, 'corrupt PNG: bad CRC in the IHDR header');
  }
  const width = readUint32(bytes, 16);
  const height = readUint32(bytes, 20);
  const bitDepth = bytes[24];
  const colorType = bytes[25];
  const compression = bytes[26];
  const filterMethod = bytes[27];
  const interlace = bytes[28];
  if (width === 0 || height === 0) {
    throw new ImageInputError(file, `PNG has zero size (${width} x ${height})`);
  }
  if (width > limits.maxSide || height > limits.maxSide) {
    throw new ImageInputError(
      file,
      `image too tall or wide: ${width} x ${height} is more than ${limits.maxSide} px a side, the most that is read ` +
        `(decoded it would be ${megabytes(width * height * 4)}; a fixed limit: split the capture)`,
    );
  }
  if (width * height > limits.maxPixels) {
    throw new ImageInputError(
      file,
      `image too large: decoded, ${width} x ${height} would be ${megabytes(width * height * 4)}, over the limit of ` +
        `${limits.maxPixels} pixels (${megabytes(limits.maxPixels * 4)}); ${RAISE_MAX_PIXELS}`,
    );
  }
  const depths = BIT_DEPTHS_BY_COLOR_TYPE[colorType];
  if (!depths) throw new ImageInputError(file, `corrupt PNG: unknown colour type ${colorType}`);
  if (!depths.includes(bitDepth)) {
    throw new ImageInputError(file, `corrupt PNG: bit depth ${bitDepth} is not allowed for colour type ${colorType}`);
  }
  if (compression !== 0 || filterMethod !== 0 || (interlace !== 0 && interlace !== 1)) {
    throw new ImageInputError(file, 'corrupt PNG: unknown compression, filter or interlace method in IHDR');
  }
  return { width, height, bitDepth, colorType, interlaced: interlace === 1 };
}

/** How the largest accepted image is raised, in the words of every front end. */
export const RAISE_MAX_PIXELS = 'raise it with --max-pixels (command line) or the procapReview.maxImagePixels setting (VS Code)';

/** `bytes` for a message: "12.5 MB" (MB = 2^20 bytes), or "800 bytes" below 0.1 MB. */
function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb < 0.1 ? `${bytes} bytes` : `${mb >= 100 ? Math.round(mb) : mb.toFixed(1)} MB`;
}

/** Adam7 interlacing: each pass's first column and row, and its column and row steps. */
const ADAM7_PASSES: readonly (readonly [number, number, number, number])[] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/** Bytes of raw (filtered) scanline data a PNG with this header inflates to. */
function inflatedSizeOf(header: PngHeader): number {
  const bitsPerPixel = CHANNELS_BY_COLOR_TYPE[header.colorType] * header.bitDepth;
  const rowBytes = (w: number) => (w === 0 ? 0 : Math.ceil((w * bitsPerPixel) / 8) + 1);
  if (!header.interlaced) return rowBytes(header.width) * header.height;
  // Adam7: seven passes, each a sub-image with its own rows.
  const passes = ADAM7_PASSES;
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((header.width - x0) / dx);
    const h = Math.ceil((header.height - y0) / dy);
    if (w > 0 && h > 0) total += rowBytes(w) * h;
  }
  return total;
}

// zlib cannot expand data by more than about 1032:1, so image data much shorter than the header
// promises is certainly truncated or corrupt: refuse it before the decoder allocates the full
// image buffer (a 60-byte file claiming 16000 x 2500 pixels would otherwise cost 160 MB).
const MAX_DEFLATE_RATIO = 1040;

function checkCompressedSizePlausible(bytes: Uint8Array, header: PngHeader, file: string): void {
  let compressed = 0;
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = readUint32(bytes, offset);
    if (bytes[offset + 4] === 0x49 && bytes[offset + 5] === 0x44 && bytes[offset + 6] === 0x41 && bytes[offset + 7] === 0x54) {
      compressed += Math.min(length, bytes.length - offset - 8);
    }
    offset += 12 + length;
  }
  if (compressed * MAX_DEFLATE_RATIO + 1024 < inflatedSizeOf(header)) {
    throw new ImageInputError(
      file,
      `truncated or corrupt PNG: ${compressed} bytes of image data cannot hold the ${header.width} x ${header.height} pixels the header declares`,
    );
  }
}

/**
 * Inflates the IDAT data once, with a hard output limit, before pngjs sees the file. Three pngjs
 * weaknesses make this necessary: it inflates interlaced images without any limit (a tiny file
 * could expand to gigabytes); on non-interlaced data longer than the header's size it fails with
 * internal messages ("There are some read requests waiting", "have should not go down") that read
 * as a truncated file; and when the data inflates to LESS than the header's size it unfilters past
 * the end of what was inflated, reading stale, uninitialised memory into the pixels (measured: the
 * same bytes decoded 30 times gave different pixels or different errors). Data shorter than the
 * header's size is refused as a truncated file; longer data is refused as a decompression bomb when
 * interlaced, and otherwise returned as the error to report if pngjs then fails (it decodes some).
 */
function checkInflatedSize(bytes: Uint8Array, header: PngHeader, file: string): ImageInputError | undefined {
  const parts: Uint8Array[] = [];
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const length = readUint32(bytes, offset);
    const type = String.fromCharCode(bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7]);
    const dataStart = offset + 8;
    if (dataStart + length + 4 > bytes.length) break;
    if (type === 'IDAT') parts.push(bytes.subarray(dataStart, dataStart + length));
    if (type === 'IEND') break;
    offset = dataStart + length + 4;
  }
  const expected = inflatedSizeOf(header);
  const bomb = () =>
    new ImageInputError(
      file,
      `decompression bomb or corrupt PNG: the compressed image data inflates to more than the ` +
        `${megabytes(expected)} a ${header.width} x ${header.height} image of this type needs`,
    );
  let inflated: Buffer;
  try {
    // Z_SYNC_FLUSH: a stream cut short yields what it holds instead of an error; the length
    // check below decides whether that is enough
    inflated = inflateSync(Buffer.concat(parts), { maxOutputLength: expected + 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      // more data than the header's size: pngjs inflates interlaced data without a limit, and fails
      // on non-interlaced data with internal messages ("have should not go down", "read requests
      // waiting"); neither is a truncated file, so say what it is
      // non-interlaced: pngjs stops at the header's size and decodes some such files; when it
      // fails on them, this is the error to report (returned), not its own
      if (!header.interlaced) return bomb();
      throw bomb();
    }
    throw new ImageInputError(file, `corrupt PNG: the compressed image data cannot be inflated (${(error as Error).message})`);
  }
  if (inflated.length > expected) {
    if (!header.interlaced) return bomb();
    throw bomb();
  }
  if (inflated.length < expected) {
    throw new ImageInputError(
      file,
      `truncated or corrupt PNG: the image data ends after ${inflated.length} of the ${expected} bytes a ${header.width} x ${header.height} image needs`,
    );
  }
  return undefined;
}

function hasChunk(bytes: Uint8Array, wanted: string): boolean {
  let offset = 8;
  while (offset + 8 <= bytes.length) {
    const type = String.fromCharCode(bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7]);
    if (type === wanted) return true;
    if (type === 'IEND') return false;
    offset += 12 + readUint32(bytes, offset);
  }
  return false;
}

/**
 * Bytes the decoder holds at its peak for this image, its RGBA output included (the file's bytes
 * not): the inflated rows and the output for the one-pass decoder; for pngjs (palette, 1-4 bits,
 * interlace, tRNS) the bounded inflate that checks the data, its own inflate (chunks, then joined),
 * the unfiltered copy, and for 16 bits a 16-bit bitmap before the 8-bit output.
 */
export function decodeMemoryBytes(header: PngHeader, bytes?: Uint8Array): number {
  const out = header.width * header.height * 4;
  const raw = inflatedSizeOf(header);
  if (directlyDecodable(header) && !(bytes && hasChunk(bytes, 'tRNS'))) return raw + out;
  return 4 * raw + (header.bitDepth === 16 ? 3 * out : out);
}

/** One image of a pair as the memory estimate sees it. */
export interface PairMemoryInput {
  width: number;
  height: number;
  /** the encoded file's bytes held while the pair is decoded (0 for an image given decoded). */
  fileBytes: number;
  /** decodeMemoryBytes (an image given decoded: its RGBA bytes). */
  decodeBytes: number;
}

/** Rows of the common area the diff compares at a time (src/core/diff.ts). */
export const DIFF_BAND_ROWS = 1024;

/**
 * Estimated peak bytes of the pixel buffers while one pair is described: the larger of decoding (both
 * files read, the before image kept while the after one is decoded) and comparing (both images, the
 * diff mask, the region grid, the diff's bands, and the later stages' per-region planes, counted as if
 * one region covered the whole common area). The fixed memory of the runtime and its models is not
 * included (docs/RELIABILITY.md gives both).
 */
export function pairMemoryEstimate(before: PairMemoryInput, after: PairMemoryInput): number {
  const outBefore = before.width * before.height * 4;
  const outAfter = after.width * after.height * 4;
  const width = Math.min(before.width, after.width);
  const common = width * Math.min(before.height, after.height);
  const decoding = before.fileBytes + after.fileBytes + Math.max(before.decodeBytes, outBefore + after.decodeBytes);
  // mask 1 byte a pixel, region grid ~1, later stages' planes of a region (luma, ink masks) ~10;
  // bands: pixelmatch's output and the two inputs' rows when the widths differ
  const comparing = outBefore + outAfter + 12 * common + 3 * (DIFF_BAND_ROWS + 4) * width * 4;
  return Math.max(decoding, comparing);
}

/**
 * Refuses a pair whose estimated peak memory (pairMemoryEstimate) is above limits.maxMemoryBytes,
 * before any pixel memory exists; the error names the larger file and the setting that helps.
 */
export function checkPairMemory(
  before: PairMemoryInput & { name: string },
  after: PairMemoryInput & { name: string },
  limits: ImageLimits,
): void {
  const need = pairMemoryEstimate(before, after);
  if (need <= limits.maxMemoryBytes) return;
  const mb = (n: number) => Math.ceil(n / 2 ** 20);
  const larger = after.width * after.height > before.width * before.height ? after : before;
  throw new ImageInputError(
    larger.name,
    `comparing ${before.width} x ${before.height} with ${after.width} x ${after.height} needs about ${mb(need)} MB of memory, ` +
      `more than the limit of ${mb(limits.maxMemoryBytes)} MB (raise --max-memory, or the procapReview.maxMemoryMB setting in VS Code)`,
  );
}

/**
 * Decodes PNG bytes of any colour type, bit depth and interlace into 8-bit RGBA with alpha
 * composited over white. `file` names the source in error messages.
 */
export function decodePng(bytes: Uint8Array, file: string, limits: ImageLimits = DEFAULT_IMAGE_LIMITS): RgbaImage {
  const header = readPngHeader(bytes, file, limits);
  checkCompressedSizePlausible(bytes, header, file);
  const fast = decodeDirect(bytes, header);
  if (fast) return fast;
  const tooLong = checkInflatedSize(bytes, header, file);
  let png: { width: number; height: number; data: Buffer };
  try {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    png = PNG.sync.read(buffer, { checkCRC: true });
  } catch (error) {
    if (tooLong) throw tooLong;
    const reason = describePngjsError(error instanceof Error ? error.message : String(error));
    // pngjs handles 16-bit samples on paths of its own; say so, in plain words, when it fails there
    if (header.bitDepth === 16) throw new ImageInputError(file, `16-bit PNG could not be decoded: ${reason}`);
    throw new ImageInputError(file, `not a valid PNG image (${reason})`);
  }
  if (png.width !== header.width || png.height !== header.height || png.data.length !== header.width * header.height * 4) {
    throw new ImageInputError(file, 'corrupt PNG: decoded pixel data does not match the header size');
  }
  const data = new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length);
  compositeOverWhite(data);
  return { width: header.width, height: header.height, data };
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Whether the one-pass decoder (decodeDirect) takes this image: not interlaced, 8 or 16 bits, grey,
 * grey+alpha, RGB or RGBA, no transparency key. Everything else goes through pngjs.
 */
function directlyDecodable(header: PngHeader): boolean {
  return !header.interlaced && (header.bitDepth === 8 || header.bitDepth === 16) && header.colorType !== 3;
}

/** 16-bit sample -> 8 bits, pngjs's rounding (floor(v * 255 / 65535 + 0.5)). */
let depth16To8: Uint8Array | undefined;
function depth16Table(): Uint8Array {
  if (!depth16To8) {
    depth16To8 = new Uint8Array(65536);
    for (let v = 0; v < 65536; v++) depth16To8[v] = Math.floor((v * 255) / 65535 + 0.5);
  }
  return depth16To8;
}

/**
 * One-pass decoder for the usual screenshot formats (8- or 16-bit grey, grey+alpha, RGB or RGBA, not
 * interlaced, no tRNS): the same pixels as pngjs, about 3x faster for 8-bit RGB(A), and holding only
 * the inflated data and the output (pngjs also keeps an unfiltered copy and, for 16 bits, a 16-bit
 * bitmap: 3.5x the memory). Unfiltering, RGBA expansion, depth scaling and compositing over white are
 * done row by row. Anything unusual (other critical chunks, bad CRC, short or long data, an unknown
 * filter) returns undefined and goes through pngjs, which then decodes it or produces the error.
 */
function decodeDirect(bytes: Uint8Array, header: PngHeader): RgbaImage | undefined {
  if (!directlyDecodable(header)) return undefined;
  const idat: Uint8Array[] = [];
  let offset = 8;
  let sawEnd = false;
  while (offset + 12 <= bytes.length) {
    const length = readUint32(bytes, offset);
    const dataStart = offset + 8;
    const dataEnd = dataStart + length;
    if (length > 0x7fffffff || dataEnd + 4 > bytes.length) return undefined;
    if (crc32(bytes, offset + 4, dataEnd) !== readUint32(bytes, dataEnd)) return undefined;
    const t0 = bytes[offset + 4];
    const t1 = bytes[offset + 5];
    const t2 = bytes[offset + 6];
    const t3 = bytes[offset + 7];
    const type = String.fromCharCode(t0, t1, t2, t3);
    if (type === 'IDAT') idat.push(bytes.subarray(dataStart, dataEnd));
    else if (type === 'IEND') {
      sawEnd = true;
      break;
    } else if (type === 'tRNS' || (type !== 'IHDR' && (t0 & 0x20) === 0)) {
      return undefined; // transparency key or an unknown critical chunk: leave it to pngjs
    }
    offset = dataEnd + 4;
  }
  if (!sawEnd || idat.length === 0) return undefined;
  const { width, height } = header;
  const channels = CHANNELS_BY_COLOR_TYPE[header.colorType];
  const sampleBytes = header.bitDepth / 8;
  const bpp = channels * sampleBytes;
  const rowBytes = width * bpp;
  const expected = (rowBytes + 1) * height;
  let raw: Buffer;
  try {
    // one output buffer of the exact size (plus the byte that shows a longer stream): no chunks to concatenate
    raw = zlib.inflateSync(idat.length === 1 ? idat[0] : Buffer.concat(idat), {
      maxOutputLength: expected + 1,
      chunkSize: Math.max(64, expected + 1),
    });
  } catch {
    return undefined;
  }
  if (raw.length !== expected) return undefined;

  const out = new Uint8Array(width * height * 4);
  const out32 = new Uint32Array(out.buffer);
  const scale16 = sampleBytes === 2 ? depth16Table() : undefined;
  let previous = -1; // start of the previous unfiltered row in `raw`
  for (let y = 0; y < height; y++) {
    const rowStart = y * (rowBytes + 1) + 1;
    const filter = raw[rowStart - 1];
    if (filter > 4) return undefined;
    // unfilter in place: raw[rowStart..] becomes the real row. The first pixel has no left
    // neighbour and the first row no upper one; those cases are split off so the hot loops
    // have no branches.
    unfilterRow(raw, rowStart, previous, rowBytes, bpp, filter);
    let o = y * width * 4;
    if (scale16) {
      // 16 bits: each sample big-endian, scaled to 8 bits; grey is copied to R, G and B; no alpha
      // channel means opaque
      for (let i = rowStart, end = rowStart + rowBytes; i < end; i += bpp, o += 4) {
        const first = scale16[(raw[i] << 8) | raw[i + 1]];
        if (channels <= 2) {
          out[o] = first;
          out[o + 1] = first;
          out[o + 2] = first;
          out[o + 3] = channels === 2 ? scale16[(raw[i + 2] << 8) | raw[i + 3]] : 255;
        } else {
          out[o] = first;
          out[o + 1] = scale16[(raw[i + 2] << 8) | raw[i + 3]];
          out[o + 2] = scale16[(raw[i + 4] << 8) | raw[i + 5]];
          out[o + 3] = channels === 4 ? scale16[(raw[i + 6] << 8) | raw[i + 7]] : 255;
        }
      }
    } else if (channels === 3) {
      // one 32-bit store a pixel (alpha 255); the byte order of the store is the platform's
      if (littleEndian) {
        for (let i = rowStart, end = rowStart + rowBytes, p = o >> 2; i < end; i += 3, p++) {
          out32[p] = (raw[i] | (raw[i + 1] << 8) | (raw[i + 2] << 16) | 0xff000000) >>> 0;
        }
      } else {
        for (let i = rowStart, end = rowStart + rowBytes; i < end; i += 3, o += 4) {
          out[o] = raw[i];
          out[o + 1] = raw[i + 1];
          out[o + 2] = raw[i + 2];
          out[o + 3] = 255;
        }
      }
    } else if (channels === 4) {
      out.set(raw.subarray(rowStart, rowStart + rowBytes), o);
    } else {
      // 8-bit grey (with alpha when channels is 2)
      for (let i = rowStart, end = rowStart + rowBytes; i < end; i += channels, o += 4) {
        const v = raw[i];
        out[o] = v;
        out[o + 1] = v;
        out[o + 2] = v;
        out[o + 3] = channels === 2 ? raw[i + 1] : 255;
      }
    }
    previous = rowStart;
  }
  if (channels === 2 || channels === 4) compositeOverWhite(out);
  return { width, height, data: out };
}

/** Reverses one PNG row filter in place (row at `at`, previous unfiltered row at `up`, -1 if none). */
function unfilterRow(raw: Buffer, at: number, up: number, rowBytes: number, bpp: number, filter: number): void {
  const end = at + rowBytes;
  if (filter === 0) return;
  if (filter === 1) {
    for (let i = at + bpp; i < end; i++) raw[i] = (raw[i] + raw[i - bpp]) & 0xff;
    return;
  }
  if (up < 0) {
    // first row: "up" is 0, so Up does nothing, Average and Paeth reduce to Sub-like forms
    if (filter === 3) for (let i = at + bpp; i < end; i++) raw[i] = (raw[i] + (raw[i - bpp] >> 1)) & 0xff;
    else if (filter === 4) for (let i = at + bpp; i < end; i++) raw[i] = (raw[i] + raw[i - bpp]) & 0xff;
    return;
  }
  const shift = up - at; // raw[i + shift] is the byte above raw[i]
  if (filter === 2) {
    for (let i = at; i < end; i++) raw[i] = (raw[i] + raw[i + shift]) & 0xff;
    return;
  }
  if (filter === 3) {
    for (let i = at; i < at + bpp; i++) raw[i] = (raw[i] + (raw[i + shift] >> 1)) & 0xff;
    for (let i = at + bpp; i < end; i++) raw[i] = (raw[i] + ((raw[i - bpp] + raw[i + shift]) >> 1)) & 0xff;
    return;
  }
  // Paeth
  for (let i = at; i < at + bpp; i++) raw[i] = (raw[i] + raw[i + shift]) & 0xff;
  for (let i = at + bpp; i < end; i++) {
    const left = raw[i - bpp];
    const above = raw[i + shift];
    const upLeft = raw[i + shift - bpp];
    const pa = above > upLeft ? above - upLeft : upLeft - above; // |p - left|
    const pb = left > upLeft ? left - upLeft : upLeft - left; // |p - above|
    const pcRaw = left + above - 2 * upLeft; // p - upLeft
    const pc = pcRaw < 0 ? -pcRaw : pcRaw;
    const predictor = pa <= pb && pa <= pc ? left : pb <= pc ? above : upLeft;
    raw[i] = (raw[i] + predictor) & 0xff;
  }
}

/** pngjs's message in plain words (its internal assertions say nothing to a user). */
function describePngjsError(message: string): string {
  if (/unexpected end|read requests wait|ended prematurely/i.test(message)) {
    return 'the file ends before its image data does (truncated, or a chunk length is wrong)';
  }
  if (/crc/i.test(message)) return `bad CRC, the file is corrupt: ${message}`;
  if (/should not go down|zlib binding closed|invalid inflate data/i.test(message)) {
    return 'the image data does not inflate to the size the header declares (corrupt file)';
  }
  if (/unrecogni[sz]ed filter type/i.test(message)) return `corrupt image data: ${message.replace(/ - /, ' ')}`;
  return message;
}

/** In place: RGBA with any alpha -> the same pixels seen over a white page, alpha 255. */
export function compositeOverWhite(data: Uint8Array): void {
  for (let i = 3; i < data.length; i += 4) {
    const alpha = data[i];
    if (alpha === 255) continue;
    const background = 255 * (255 - alpha);
    // (c*a + 255*(255-a)) / 255, rounded
    data[i - 3] = ((data[i - 3] * alpha + background) * 257 + 32896) >>> 16;
    data[i - 2] = ((data[i - 2] * alpha + background) * 257 + 32896) >>> 16;
    data[i - 1] = ((data[i - 1] * alpha + background) * 257 + 32896) >>> 16;
    data[i] = 255;
  }
}

/**
 * The bytes of an input file, opened once: it must be a regular file (not a FIFO, which would block
 * a reader forever, nor a device such as /dev/zero, which never ends), no larger than the limit, and -
 * when `within` is given - a file inside that folder once links are followed (a committed symlink must
 * not make a batch read outside the compared tree). Every failure names the file.
 */
export function readInputBytes(path: string, limits: ImageLimits = DEFAULT_IMAGE_LIMITS, within?: string): Buffer {
  let fd: number;
  try {
    // non-blocking: opening a FIFO for reading must not wait for a writer
    fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    throw new ImageInputError(path, `cannot read the file (${(error as Error).message})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw new ImageInputError(
        path,
        `not a regular file (${stats.isFIFO() ? 'a FIFO' : stats.isDirectory() ? 'a folder' : stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : 'a special file'})`,
      );
    }
    if (within !== undefined) {
      const root = realpathSync(within);
      const real = realpathSync(path);
      if (real !== root && !real.startsWith(root + sep)) throw new ImageInputError(path, `a link to a file outside ${within} (${real})`);
    }
    if (stats.size > limits.maxFileBytes) {
      throw new ImageInputError(path, `file too large: ${stats.size} bytes exceeds the limit of ${limits.maxFileBytes} bytes`);
    }
    // read what fstat promised, and no more (a file that grows while read is cut there)
    const bytes = Buffer.alloc(stats.size);
    let at = 0;
    while (at < bytes.length) {
      const n = readSync(fd, bytes, at, bytes.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (error) {
    if (error instanceof ImageInputError) throw error;
    throw new ImageInputError(path, `cannot read the file (${(error as Error).message})`);
  } finally {
    closeSync(fd);
  }
}

/** Reads and decodes a PNG file; every failure (missing, too big, not a regular file, corrupt) names the file. */
export function readPngFile(path: string, limits: ImageLimits = DEFAULT_IMAGE_LIMITS): RgbaImage {
  return decodePng(readInputBytes(path, limits), path, limits);
}

/** Encodes RGBA (alpha kept as given) to PNG bytes, colour type 6, 8 bits. */
export function encodePng(image: RgbaImage): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length);
  return PNG.sync.write(png);
}

/** Encodes packed RGB (3 bytes a pixel) to an opaque PNG. */
export function encodeRgbPng(rgb: Uint8Array, width: number, height: number): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  for (let p = 0, q = 0; p < rgb.length; p += 3, q += 4) {
    rgba[q] = rgb[p];
    rgba[q + 1] = rgb[p + 1];
    rgba[q + 2] = rgb[p + 2];
    rgba[q + 3] = 255;
  }
  return encodePng({ width, height, data: rgba });
}

/**
 * Packed 8-bit RGB -> an opaque PNG written directly, for the report's many small frames (pngjs's
 * general encoder was the slowest part of the frame stages): rows unfiltered, or filtered "Up" after
 * the first (flat UI areas deflate to little), deflated at `level`.
 */
export function writeRgbPng(rgb: Uint8Array, width: number, height: number, options: { upFilter: boolean; level: number }): Buffer {
  const row = width * 3;
  const stride = row + 1;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const at = y * row;
    const up = options.upFilter && y > 0;
    raw[y * stride] = up ? 2 : 0;
    for (let i = 0; i < row; i++) raw[y * stride + 1 + i] = up ? (rgb[at + i] - rgb[at - row + i]) & 0xff : rgb[at + i];
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  return Buffer.concat([
    Buffer.from(PNG_SIGNATURE),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: options.level })),
    pngChunk('IEND', new Uint8Array(0)),
  ]);
}

/** The top-left `width` x `height` part of an image (a copy), used for the common area. */
export function cropTopLeft(image: RgbaImage, width: number, height: number): RgbaImage {
  if (width === image.width && height === image.height) return image;
  const data = new Uint8Array(width * height * 4);
  const rowBytes = width * 4;
  for (let y = 0; y < height; y++) {
    const from = y * image.width * 4;
    data.set(image.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return { width, height, data };
}

export interface PngVariant {
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. */
  colorType: 0 | 2 | 3 | 4 | 6;
  /** 1, 2, 4, 8 or 16, as the PNG spec allows for the colour type. */
  bitDepth: 1 | 2 | 4 | 8 | 16;
  /** Adam7 interlacing. */
  interlace?: boolean;
}

/** One PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk, 4, 8 + data.length), 8 + data.length);
  return chunk;
}

/** The PNG Paeth predictor of a byte from its left, upper and upper-left neighbours. */
export function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Encodes RGBA pixels as a PNG of any colour type, bit depth and interlace (pngjs writes only a
 * few of them). Used to produce every input variety for tests and the fuzz command. Grey types
 * take the red channel; palette images need at most 2^bitDepth distinct colours; each row uses
 * the filter type (row number mod 5), so all five filters are exercised.
 */
export function encodePngVariant(image: RgbaImage, variant: PngVariant): Buffer {
  const { colorType, bitDepth } = variant;
  if (!BIT_DEPTHS_BY_COLOR_TYPE[colorType]?.includes(bitDepth)) {
    throw new Error(`bit depth ${bitDepth} is not allowed for colour type ${colorType}`);
  }
  const { width, height, data } = image;
  const channels = CHANNELS_BY_COLOR_TYPE[colorType];
  const palette: number[] = [];
  const paletteIndex = new Map<number, number>();
  if (colorType === 3) {
    for (let i = 0; i < width * height; i++) {
      const key = ((data[i * 4] << 24) | (data[i * 4 + 1] << 16) | (data[i * 4 + 2] << 8) | data[i * 4 + 3]) >>> 0;
      if (!paletteIndex.has(key)) {
        if (palette.length >= 1 << bitDepth) throw new Error(`more than ${1 << bitDepth} colours for a ${bitDepth}-bit palette`);
        paletteIndex.set(key, palette.length);
        palette.push(key);
      }
    }
  }
  const maxSample = (1 << bitDepth) - 1;
  const sampleOf = (pixel: number, channel: number): number => {
    const v = data[pixel * 4 + channel];
    if (bitDepth === 16) return v * 257;
    return bitDepth === 8 ? v : Math.round((v * maxSample) / 255);
  };
  // source channels written for each colour type (-1: the palette index)
  const channelOrder =
    colorType === 0 ? [0] : colorType === 2 ? [0, 1, 2] : colorType === 3 ? [-1] : colorType === 4 ? [0, 3] : [0, 1, 2, 3];
  const sampleAt = (pixel: number, channel: number): number => {
    if (channel >= 0) return sampleOf(pixel, channel);
    const key = ((data[pixel * 4] << 24) | (data[pixel * 4 + 1] << 16) | (data[pixel * 4 + 2] << 8) | data[pixel * 4 + 3]) >>> 0;
    return paletteIndex.get(key)!;
  };
  const bytesPerPixel = Math.max(1, (channels * bitDepth) / 8);
  const passes = variant.interlace ? ADAM7_PASSES : [[0, 0, 1, 1]];
  const rows: Uint8Array[] = [];
  let rowNumber = 0;
  for (const [px, py, dx, dy] of passes) {
    const passWidth = Math.ceil((width - px) / dx);
    const passHeight = Math.ceil((height - py) / dy);
    if (passWidth <= 0 || passHeight <= 0) continue;
    const rowBytes = Math.ceil((passWidth * channels * bitDepth) / 8);
    let previous = new Uint8Array(rowBytes);
    for (let r = 0; r < passHeight; r++) {
      const y = py + r * dy;
      const row = new Uint8Array(rowBytes);
      let bitPos = 0;
      for (let c = 0; c < passWidth; c++) {
        const x = px + c * dx;
        for (let k = 0; k < channelOrder.length; k++) {
          const sample = sampleAt(y * width + x, channelOrder[k]);
          if (bitDepth === 16) {
            row[bitPos >> 3] = sample >> 8;
            row[(bitPos >> 3) + 1] = sample & 0xff;
          } else if (bitDepth === 8) {
            row[bitPos >> 3] = sample;
          } else {
            row[bitPos >> 3] |= sample << (8 - bitDepth - (bitPos & 7));
          }
          bitPos += bitDepth;
        }
      }
      const filter = rowNumber++ % 5;
      const filtered = new Uint8Array(rowBytes + 1);
      filtered[0] = filter;
      for (let i = 0; i < rowBytes; i++) {
        const left = i >= bytesPerPixel ? row[i - bytesPerPixel] : 0;
        const up = previous[i];
        const upLeft = i >= bytesPerPixel ? previous[i - bytesPerPixel] : 0;
        const predictor =
          filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : paeth(left, up, upLeft);
        filtered[i + 1] = (row[i] - predictor) & 0xff;
      }
      rows.push(filtered);
      previous = row;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  ihdr[12] = variant.interlace ? 1 : 0;
  const chunks = [Buffer.from(PNG_SIGNATURE), pngChunk('IHDR', ihdr)];
  if (colorType === 3) {
    const plte = new Uint8Array(palette.length * 3);
    const trns = new Uint8Array(palette.length);
    palette.forEach((key, i) => {
      plte[i * 3] = key >>> 24;
      plte[i * 3 + 1] = (key >>> 16) & 0xff;
      plte[i * 3 + 2] = (key >>> 8) & 0xff;
      trns[i] = key & 0xff;
    });
    chunks.push(pngChunk('PLTE', plte));
    if (trns.some((a) => a !== 255)) chunks.push(pngChunk('tRNS', trns));
  }
  chunks.push(pngChunk('IDAT', deflateSync(Buffer.concat(rows))));
  chunks.push(pngChunk('IEND', new Uint8Array(0)));
  return Buffer.concat(chunks);
}
