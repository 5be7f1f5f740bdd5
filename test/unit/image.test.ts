import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import {
  DEFAULT_IMAGE_LIMITS,
  ImageInputError,
  decodeMemoryBytes,
  decodePng,
  encodePng,
  pairMemoryEstimate,
  encodePngVariant,
  readPngFile,
  readPngHeader,
  type PngVariant,
  type RgbaImage,
} from '../../src/core/image.js';
import { blankImage, pixelAt, tempDir, writePng } from './image-fixtures.js';

/** A 13x11 image with varied colours and alphas (odd sizes exercise partial interlace passes). */
function colourful(alpha: boolean): RgbaImage {
  const image = blankImage(13, 11);
  for (let y = 0; y < 11; y++) {
    for (let x = 0; x < 13; x++) {
      image.data.set([(x * 19) & 255, (y * 23) & 255, (x * y * 7) & 255, alpha ? (x * 20 + y * 3) & 255 : 255], (y * 13 + x) * 4);
    }
  }
  return image;
}

/** What a decoder must produce for a variant: quantised like the encoder, then over white. */
function expectedPixel(source: RgbaImage, x: number, y: number, variant: PngVariant): number[] {
  let [r, g, b, a] = pixelAt(source, x, y);
  const depth = variant.bitDepth;
  const quantise = (v: number) =>
    depth >= 8 ? v : Math.floor((Math.round((v * ((1 << depth) - 1)) / 255) * 255) / ((1 << depth) - 1) + 0.5);
  if (variant.colorType === 0 || variant.colorType === 4) g = b = r;
  if (variant.colorType !== 3) [r, g, b] = [quantise(r), quantise(g), quantise(b)];
  if (variant.colorType === 0 || variant.colorType === 2) a = 255;
  const over = (c: number) => Math.round((c * a + 255 * (255 - a)) / 255);
  return [over(r), over(g), over(b), 255];
}

const variants: PngVariant[] = [];
for (const [colorType, depths] of [
  [0, [1, 2, 4, 8, 16]],
  [2, [8, 16]],
  [3, [1, 2, 4, 8]],
  [4, [8, 16]],
  [6, [8, 16]],
] as const) {
  for (const bitDepth of depths) {
    for (const interlace of [false, true]) variants.push({ colorType, bitDepth, interlace } as PngVariant);
  }
}

test('decodes every PNG colour type, bit depth and interlace, alpha composited over white', () => {
  for (const variant of variants) {
    let source = colourful(variant.colorType === 4 || variant.colorType === 6 || variant.colorType === 3);
    if (variant.colorType === 3) {
      // a palette holds at most 2^depth colours: use that many distinct ones
      const count = 1 << variant.bitDepth;
      source = blankImage(13, 11);
      for (let i = 0; i < 13 * 11; i++) {
        const k = i % count;
        source.data.set([(k * 37) & 255, (k * 91) & 255, (k * 13) & 255, k % 3 === 0 ? 128 : 255], i * 4);
      }
    }
    const decoded = decodePng(encodePngVariant(source, variant), 'variant.png');
    assert.equal(decoded.width, 13);
    assert.equal(decoded.height, 11);
    for (let y = 0; y < 11; y++) {
      for (let x = 0; x < 13; x++) {
        assert.deepEqual(
          Array.from(pixelAt(decoded, x, y)),
          expectedPixel(source, x, y, variant),
          `${JSON.stringify(variant)} at ${x},${y}`,
        );
      }
    }
  }
});

test('half-transparent black over white becomes mid grey, fully transparent becomes white', () => {
  const image = blankImage(2, 1, [0, 0, 0, 128]);
  image.data.set([10, 200, 30, 0], 4);
  const decoded = decodePng(encodePng(image), 'alpha.png');
  assert.deepEqual(pixelAt(decoded, 0, 0), [127, 127, 127, 255]);
  assert.deepEqual(pixelAt(decoded, 1, 0), [255, 255, 255, 255]);
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** A PNG whose header claims any size, with a valid CRC, and `idat` as its only data. */
function pngClaiming(width: number, height: number, idat: Uint8Array, interlace = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  ihdr[12] = interlace;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

test('a header claiming 100000 x 100000 is refused from the header, naming the file', () => {
  const bytes = pngClaiming(100000, 100000, deflateSync(Buffer.alloc(10)));
  assert.throws(
    () => readPngHeader(bytes, 'huge.png'),
    (e: Error) => e instanceof ImageInputError && /huge\.png/.test(e.message) && /too tall or wide/.test(e.message),
  );
  assert.throws(
    () => decodePng(bytes, 'huge.png'),
    (e: Error) => e instanceof ImageInputError && /too tall or wide/.test(e.message),
  );
  // sides within the limit, too many pixels in all
  assert.throws(() => readPngHeader(pngClaiming(60000, 60000, deflateSync(Buffer.alloc(10))), 'many.png'), /many\.png: image too large/);
});

test('a tiny file whose header claims a big (allowed) size is refused before decoding', () => {
  // 16000 x 2500 is within the limits, but 20 bytes of data cannot hold 160 MB of pixels
  const bytes = pngClaiming(16000, 2500, deflateSync(Buffer.alloc(10)));
  assert.throws(
    () => decodePng(bytes, 'liar.png'),
    (e: Error) => e instanceof ImageInputError && /liar\.png/.test(e.message) && /cannot hold/.test(e.message),
  );
});

test('the largest accepted image is configurable', () => {
  const bytes = encodePng(blankImage(300, 200));
  assert.equal(decodePng(bytes, 'ok.png').width, 300);
  const limits = { ...DEFAULT_IMAGE_LIMITS, maxPixels: 50_000 };
  assert.throws(
    () => decodePng(bytes, 'big.png', limits),
    (e: Error) => e instanceof ImageInputError && /big\.png.*too large/.test(e.message),
  );
  assert.throws(() => decodePng(bytes, 'big.png', limits), /raise it with --max-pixels .* procapReview\.maxImagePixels setting/);
  assert.throws(
    () => decodePng(bytes, 'wide.png', { ...DEFAULT_IMAGE_LIMITS, maxSide: 256 }),
    /wide\.png.*too tall or wide.*256 px a side/,
  );
});

test('a full-page capture taller than 16,384 px is read; a side over 65,535 px is refused from the header', () => {
  const tall = blankImage(3, 20_000, [250, 250, 250, 255]);
  tall.data.set([255, 0, 0, 255], (19_990 * 3 + 1) * 4);
  const decoded = decodePng(encodePng(tall), 'tall.png');
  assert.equal(decoded.height, 20_000);
  assert.deepEqual(pixelAt(decoded, 1, 19_990), [255, 0, 0, 255]);
  const header = Buffer.from(encodePng(blankImage(2, 2)));
  header.writeUInt32BE(65_536, 20);
  header.writeUInt32BE(crc32(header.subarray(12, 29)), 29);
  assert.throws(() => readPngHeader(header, 'strip.png'), /strip\.png: image too tall or wide: 2 x 65536 is more than 65535 px a side/);
});

test('a truncated PNG, cut anywhere, gives a clear error naming the file', () => {
  const bytes = encodePng(blankImage(40, 30, [200, 10, 10, 255]));
  for (let cut = 0; cut < bytes.length; cut++) {
    assert.throws(
      () => decodePng(bytes.subarray(0, cut), 'cut.png'),
      (e: Error) => e instanceof ImageInputError && e.message.startsWith('cut.png: '),
      `cut at ${cut}`,
    );
  }
});

test('a bad CRC is reported as a corrupt file', () => {
  const bytes = Buffer.from(encodePng(blankImage(40, 30, [200, 10, 10, 255])));
  const idat = bytes.indexOf('IDAT', 0, 'latin1');
  bytes[idat + 6] ^= 0x01; // one bit inside the compressed data
  assert.throws(
    () => decodePng(bytes, 'crc.png'),
    (e: Error) => e instanceof ImageInputError && /crc\.png/.test(e.message) && /CRC/i.test(e.message),
  );
  const header = Buffer.from(encodePng(blankImage(4, 4)));
  header[17] ^= 0x01; // inside IHDR width
  assert.throws(() => decodePng(header, 'ihdr.png'), /ihdr\.png: corrupt PNG: bad CRC in the IHDR/);
});

test('non-PNG bytes, an empty file and a zero-size header are refused clearly', () => {
  assert.throws(() => decodePng(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70]), 'photo.jpg'), /photo\.jpg: not a PNG image/);
  assert.throws(() => decodePng(Buffer.from('hello world, this is not an image at all'), 'notes.txt'), /notes\.txt: not a PNG image/);
  assert.throws(() => decodePng(Buffer.alloc(0), 'empty.png'), /empty\.png: the file is empty/);
  assert.throws(() => decodePng(pngClaiming(0, 10, deflateSync(Buffer.alloc(1))), 'zero.png'), /zero\.png: PNG has zero size/);
});

test('an interlaced PNG whose data inflates far beyond its header is refused', () => {
  // 64 MB of zeros compress to ~64 KB; the header promises only 100 x 100 pixels
  const bomb = pngClaiming(100, 100, deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }), 1);
  assert.throws(
    () => decodePng(bomb, 'bomb.png'),
    (e: Error) => e instanceof ImageInputError && /bomb\.png: decompression bomb/.test(e.message),
  );
});

/** A PNG built by hand (chunks with their CRCs): `idat` as its only image data. */
function pngOf(width: number, height: number, bitDepth: number, colorType: number, idat: Uint8Array, interlace = 0): Buffer {
  const bytes = pngClaiming(width, height, idat, interlace);
  bytes[24] = bitDepth;
  bytes[25] = colorType;
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

test('a decompression bomb is reported as one, not as a truncated file, at any bit depth', () => {
  // data that inflates beyond the header's size, non-interlaced: pngjs said "the file is truncated"
  // for a small excess and "have should not go down" for a big one
  const cases: Array<[string, number, number, number]> = [
    // name, bit depth, colour type, bytes per row (with the filter byte)
    ['rgb8', 8, 2, 100 * 3 + 1],
    ['grey8', 8, 0, 100 + 1],
    ['rgba16', 16, 6, 100 * 8 + 1],
  ];
  for (const [name, depth, type, row] of cases) {
    for (const extra of [1, 64 * 1024 * 1024]) {
      const bytes = pngOf(100, 100, depth, type, deflateSync(Buffer.alloc(row * 100 + extra), { level: 9 }));
      assert.throws(
        () => decodePng(bytes, `${name}.png`),
        (e: Error) =>
          e instanceof ImageInputError &&
          e.message.startsWith(`${name}.png: decompression bomb or corrupt PNG: the compressed image data inflates to more than the `) &&
          !/truncated|should not go down/.test(e.message),
        `${name} + ${extra} bytes`,
      );
    }
  }
});

test('a header over the pixel limit says how big the decoded image would be and which setting raises the limit', () => {
  const bytes = pngOf(8000, 8000, 16, 6, deflateSync(Buffer.alloc(1000)));
  assert.throws(
    () => decodePng(bytes, 'tall16.png'),
    (e: Error) =>
      e instanceof ImageInputError &&
      e.message ===
        'tall16.png: image too large: decoded, 8000 x 8000 would be 244 MB, over the limit of 40000000 pixels (153 MB); ' +
          'raise it with --max-pixels (command line) or the procapReview.maxImagePixels setting (VS Code)',
  );
  assert.throws(
    () => decodePng(pngOf(70000, 100, 8, 2, deflateSync(Buffer.alloc(10))), 'wide.png'),
    /^ImageInputError: wide\.png: image too tall or wide: 70000 x 100 is more than 65535 px a side, the most that is read \(decoded it would be 26\.7 MB; a fixed limit: split the capture\)$/,
  );
});

test('a 16-bit PNG decodes exactly, and one pngjs cannot decode says so in plain words', () => {
  // 2 x 2 RGBA, 16 bits a sample: red, green / blue, half-transparent black
  const samples = [
    [65535, 0, 0, 65535, 0, 65535, 0, 65535],
    [0, 0, 65535, 65535, 0, 0, 0, 32896],
  ];
  const rows = samples.map((row) => {
    const out = Buffer.alloc(1 + row.length * 2);
    row.forEach((v, i) => out.writeUInt16BE(v, 1 + i * 2));
    return out;
  });
  const image = decodePng(pngOf(2, 2, 16, 6, deflateSync(Buffer.concat(rows))), 'deep.png');
  assert.deepEqual([...image.data], [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 127, 127, 127, 255]);
  // the same pixels with an unknown row filter (7): pngjs's "Unrecognised filter type - 7"
  rows[1][0] = 7;
  assert.throws(
    () => decodePng(pngOf(2, 2, 16, 6, deflateSync(Buffer.concat(rows))), 'deep.png'),
    (e: Error) =>
      e instanceof ImageInputError &&
      e.message === 'deep.png: 16-bit PNG could not be decoded: corrupt image data: Unrecognised filter type 7',
  );
});

test('image data that inflates to less than the header needs is refused, the same way every time', () => {
  // pngjs alone unfilters past the end of such data and reads stale memory: a different result per call
  const ihdrGrey = (bytes: Buffer) => {
    bytes[24] = 8; // bit depth
    bytes[25] = 0; // grey: not the fast RGB/RGBA path
    bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
    return bytes;
  };
  const short = ihdrGrey(pngClaiming(40, 30, deflateSync(Buffer.from([0, 1, 2, 3, 4, 5]))));
  const messages = new Set<string>();
  for (let i = 0; i < 20; i++) {
    Buffer.allocUnsafe(65536).fill(i * 13); // leave different stale bytes behind between calls
    assert.throws(
      () => decodePng(short, 'short.png'),
      (e: Error) => {
        messages.add(e.message);
        return (
          e instanceof ImageInputError &&
          /short\.png: truncated or corrupt PNG: the image data ends after 6 of the 1230 bytes/.test(e.message)
        );
      },
    );
  }
  assert.equal(messages.size, 1);
});

test('reading files: missing and oversized files name the path', () => {
  const dir = tempDir();
  const path = writePng(join(dir, 'screen.png'), blankImage(20, 10, [1, 2, 3, 255]));
  assert.deepEqual(pixelAt(readPngFile(path), 5, 5), [1, 2, 3, 255]);
  assert.throws(
    () => readPngFile(join(dir, 'missing.png')),
    (e: Error) => e instanceof ImageInputError && /missing\.png: cannot read/.test(e.message),
  );
  assert.throws(() => readPngFile(path, { ...DEFAULT_IMAGE_LIMITS, maxFileBytes: 10 }), /screen\.png: file too large/);
  writeFileSync(join(dir, 'empty.png'), '');
  assert.throws(() => readPngFile(join(dir, 'empty.png')), /empty\.png: the file is empty/);
  assert.throws(() => readPngFile(dir), /not a regular file/);
});

test('the one-pass decoder (8 and 16 bits, grey, grey+alpha, RGB, RGBA) decodes exactly like pngjs, for every filter type', async () => {
  const { PNG } = await import('pngjs');
  const { compositeOverWhite } = await import('../../src/core/image.js');
  for (const colorType of [0, 2, 4, 6] as const) {
    for (const bitDepth of [8, 16] as const) {
      const source = colourful(colorType === 4 || colorType === 6);
      // 16-bit samples that are not v * 257, so the scaling to 8 bits is exercised
      const bytes = Buffer.from(encodePngVariant(source, { colorType, bitDepth }));
      const variants: Buffer[] = [bytes];
      if (colorType === 2 || colorType === 6) variants.push(bitDepth === 8 ? encodePng(source) : bytes);
      for (const variant of variants) {
        const reference = PNG.sync.read(variant);
        const expected = new Uint8Array(reference.data);
        compositeOverWhite(expected);
        assert.deepEqual(decodePng(variant, 'fast.png').data, expected, `colour type ${colorType}, ${bitDepth} bits`);
      }
    }
  }
});

test('16-bit samples are scaled to 8 bits as pngjs rounds them', async () => {
  const { PNG } = await import('pngjs');
  // a 1 x 256 16-bit grey image whose samples cover the rounding edges (v*255/65535 near k + 0.5)
  const raw = Buffer.alloc(256 * 3);
  for (let y = 0; y < 256; y++) raw.writeUInt16BE(Math.min(65535, y * 257 + 128), y * 3 + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(256, 4);
  ihdr[8] = 16;
  const bytes = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  assert.deepEqual(decodePng(bytes, 'grey16.png').data, new Uint8Array(PNG.sync.read(bytes).data));
});

test('the memory estimate of a pair is made from the headers: the one-pass decoder needs less than pngjs', () => {
  const header = (bitDepth: number, colorType: number, interlaced = false) => ({
    width: 1000,
    height: 1000,
    bitDepth,
    colorType,
    interlaced,
  });
  const out = 4_000_000;
  // 16-bit RGBA, one pass: the inflated rows (8 bytes a pixel and a filter byte a row) and the output
  assert.equal(decodeMemoryBytes(header(16, 6)), 8_001_000 + out);
  // the same interlaced goes through pngjs: several copies of the rows and a 16-bit bitmap
  assert.ok(decodeMemoryBytes(header(16, 6, true)) > 3 * decodeMemoryBytes(header(16, 6)));
  const image = {
    width: 1280,
    height: 20_000,
    fileBytes: 100_000,
    decodeBytes: decodeMemoryBytes({ ...header(8, 2), width: 1280, height: 20_000 }),
  };
  const need = pairMemoryEstimate(image, image);
  // both images (4 bytes a pixel each) are held while they are compared
  assert.ok(need >= 2 * 4 * 1280 * 20_000 && need < 700 * 2 ** 20, `${need}`);
});

test('the decode thread gives the pixels decodePng gives; a file it cannot decode is left to the caller', async () => {
  const { decodeElsewhere, decodeInParallel, PARALLEL_DECODE_MIN_PIXELS } = await import('../../src/core/parallel-decode.js');
  const { decodePng: decode, DEFAULT_IMAGE_LIMITS: limits } = await import('../../src/core/image.js');
  const { drawPng } = await import('./runtime-fixtures.js');
  const png = drawPng(300, 200, [
    [10, 10, 120, 60, 0, 0, 200],
    [150, 90, 290, 180, 220, 40, 40],
  ]);
  const there = await decodeElsewhere(png, 'a.png', limits);
  assert.ok(there, 'decoded on the decode thread');
  const here = decode(png, 'a.png');
  assert.deepEqual([there.width, there.height], [here.width, here.height]);
  assert.ok(Buffer.from(there.data).equals(Buffer.from(here.data)), 'the same pixels');
  assert.equal(await decodeElsewhere(png.subarray(0, 100), 'cut.png', limits), undefined);
  // two threads only for large pairs, and only within the memory budget
  const side = Math.ceil(Math.sqrt(PARALLEL_DECODE_MIN_PIXELS));
  const large = { width: side, height: side, fileBytes: 1e6, decodeBytes: 8 * side * side };
  const small = { ...large, width: 100, height: 100 };
  const parallel = decodeInParallel(large, large, limits);
  assert.equal(parallel, (await import('node:os')).availableParallelism() > 1);
  assert.equal(decodeInParallel(small, large, limits), false);
  assert.equal(decodeInParallel(large, large, { ...limits, maxMemoryBytes: 16 * side * side }), false);
  // a cold start sends both images there, any size, when memory holds both files' copies and both decodes
  const { decodeBothElsewhere } = await import('../../src/core/parallel-decode.js');
  assert.equal(decodeBothElsewhere(small, small, limits), (await import('node:os')).availableParallelism() > 1);
  const need = 2 * (small.fileBytes + small.fileBytes) + 2 * small.decodeBytes;
  assert.equal(decodeBothElsewhere(small, small, { ...limits, maxMemoryBytes: need - 1 }), false);
});
