import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { decodePng, encodePng, type RgbaImage } from '../../src/core/image.js';
import { encodeApng, procedureApng, procedureDelaysMs, regionScale, scaleNearest } from '../../src/core/apng.js';
import type { ProcedureFrames } from '../../src/core/report.js';

/** A w x h opaque frame whose colours depend on the frame number, so frames differ everywhere. */
function frame(width: number, height: number, n: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      data.set([(x * 37 + n * 50) & 255, (y * 23 + n * 80) & 255, (x * y + n * 17) & 255, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

// CRC-32 written out again here, so the test does not check the encoder with its own code
const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface Chunk {
  type: string;
  data: Buffer;
}

function chunks(file: Buffer): Chunk[] {
  assert.deepEqual([...file.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  const out: Chunk[] = [];
  for (let at = 8; at < file.length;) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const data = file.subarray(at + 8, at + 8 + length);
    assert.equal(file.readUInt32BE(at + 8 + length), crc(file.subarray(at + 4, at + 8 + length)), `CRC of ${type} at ${at}`);
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

/** One frame's compressed rows put in a PNG of their own, decoded by pngjs. */
function decodeAlone(ihdr: Buffer, rows: Buffer): Buffer {
  const part = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, tail]);
  };
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    part('IHDR', ihdr),
    part('IDAT', rows),
    part('IEND', Buffer.alloc(0)),
  ]);
  return PNG.sync.read(png).data;
}

test('APNG: chunk order, sequence numbers, frame count, loops, delays and every frame read back', () => {
  const frames = [0, 1, 2, 3].map((n) => frame(13, 7, n));
  const delays = [750, 250, 250, 1000];
  const file = encodeApng(frames, { delaysMs: delays });
  const list = chunks(file);
  assert.deepEqual(
    list.map((c) => c.type),
    ['IHDR', 'acTL', 'fcTL', 'IDAT', 'fcTL', 'fdAT', 'fcTL', 'fdAT', 'fcTL', 'fdAT', 'IEND'],
  );
  const actl = list[1].data;
  assert.equal(actl.readUInt32BE(0), 4, 'num_frames');
  assert.equal(actl.readUInt32BE(4), 0, 'num_plays 0: loops forever');
  const sequence = list.filter((c) => c.type === 'fcTL' || c.type === 'fdAT').map((c) => c.data.readUInt32BE(0));
  assert.deepEqual(sequence, [0, 1, 2, 3, 4, 5, 6], 'one sequence over fcTL and fdAT, from 0, no gaps');
  const controls = list.filter((c) => c.type === 'fcTL').map((c) => c.data);
  assert.deepEqual(
    controls.map((d) => [d.readUInt32BE(4), d.readUInt32BE(8), d.readUInt32BE(12), d.readUInt32BE(16)]),
    frames.map(() => [13, 7, 0, 0]),
    'each frame covers the canvas',
  );
  assert.deepEqual(
    controls.map((d) => (1000 * d.readUInt16BE(20)) / d.readUInt16BE(22)),
    delays,
    'delays in ms',
  );
  // the still image (first frame) through the project's decoder and pngjs
  assert.deepEqual([...decodePng(file, 'animation.png').data], [...frames[0].data]);
  assert.deepEqual([...PNG.sync.read(file).data], [...frames[0].data]);
  // the other frames: each fdAT's rows (after its sequence number) decode to that frame
  const ihdr = list[0].data;
  list
    .filter((c) => c.type === 'fdAT')
    .forEach((c, i) => assert.deepEqual([...decodeAlone(ihdr, c.data.subarray(4))], [...frames[i + 1].data], `frame ${i + 1}`));
});

test('APNG: a single frame, a number of plays, one delay for all', () => {
  const file = encodeApng([frame(3, 3, 0)], { delaysMs: 100, loops: 2 });
  const list = chunks(file);
  assert.deepEqual(
    list.map((c) => c.type),
    ['IHDR', 'acTL', 'fcTL', 'IDAT', 'IEND'],
  );
  assert.equal(list[1].data.readUInt32BE(4), 2);
});

test('APNG: frames of other sizes, bad delays and no frames are refused with a reason', () => {
  assert.throws(() => encodeApng([], { delaysMs: 100 }), /at least one frame/);
  assert.throws(() => encodeApng([frame(4, 4, 0), frame(5, 4, 1)], { delaysMs: 100 }), /frame 1 is 5x4, the first is 4x4/);
  assert.throws(() => encodeApng([frame(4, 4, 0)], { delaysMs: 0 }), /delay must be 1\.\.65535/);
  assert.throws(() => encodeApng([frame(4, 4, 0)], { delaysMs: [100, 100] }), /2 delays for 1 frames/);
});

test('scaleNearest repeats each pixel factor x factor times', () => {
  const small = frame(3, 2, 1);
  const big = scaleNearest(small, 3);
  assert.equal(big.width, 9);
  assert.equal(big.height, 6);
  for (let y = 0; y < 6; y++) {
    for (let x = 0; x < 9; x++) {
      const from = (Math.floor(y / 3) * 3 + Math.floor(x / 3)) * 4;
      assert.deepEqual([...big.data.subarray((y * 9 + x) * 4, (y * 9 + x) * 4 + 4)], [...small.data.subarray(from, from + 4)]);
    }
  }
  assert.throws(() => scaleNearest(small, 1.5), /whole number/);
});

test('a procedure as an APNG: 9 frames at the region scale, before and after held longer', () => {
  const images = Array.from({ length: 9 }, (_, n) => frame(8, 8, n));
  const procedure: ProcedureFrames = {
    frames: images.map((image) => ({ width: 8, height: 8, pngBase64: encodePng(image).toString('base64') })),
    scores: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7],
    keyframes: [2, 5],
    imagined: [],
  };
  const scale = regionScale(8, [10, 10, 42, 42]);
  assert.equal(scale, 4, 'a 32 px crop box of 8 px frames: 4x');
  const file = procedureApng(procedure, { scale, frameMs: 200 });
  const list = chunks(file);
  assert.equal(list[0].data.readUInt32BE(0), 32);
  assert.equal(list[1].data.readUInt32BE(0), 9);
  const delays = list.filter((c) => c.type === 'fcTL').map((c) => c.data.readUInt16BE(20));
  assert.deepEqual(delays, procedureDelaysMs(9, 200));
  assert.deepEqual(delays, [600, 200, 200, 200, 200, 200, 200, 200, 600]);
  assert.deepEqual([...decodePng(file, 'p.png').data], [...scaleNearest(images[0], 4).data]);
  // a huge region stays within the largest side
  assert.ok(regionScale(96, [0, 0, 5000, 5000]) * 96 <= 768);
  assert.equal(regionScale(96, [0, 0, 40, 40]), 1, 'never smaller than the frames');
});
