// `npm run --silent fuzz -- --count N [--json] [--seed S] [--timeout-ms T] [--workers W] [--real DIR] [--save DIR] [--describe]`
//
// Mutates real and generated PNG pairs (bit flips, truncation, IHDR edits, chunk shuffles, absurd
// dimensions, every colour type and bit depth, mismatched sizes) and runs each pair through the core
// pixel pipeline: decode -> diff -> regions -> crops -> tensors (with --describe also the runtime's full
// describe() with the ONNX models of models/, CPU). Each case runs in a worker thread:
//   crash = an exception that is not our clear ImageInputError, or the worker dying;
//   hang  = a case still running after --timeout-ms (the worker is terminated and replaced).
// Prints {cases, crashes, hangs, max_rss_mb, ...}; exits 1 when there is any crash or hang.
// Every case is a pure function of (seed, case number), so `--only K` reruns case K.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { ImageInputError, decodePng, encodePng, encodePngVariant, type PngVariant, type RgbaImage } from '../core/image.js';
import { diffImages } from '../core/diff.js';
import { findRegions } from '../core/regions.js';
import { cropBoxFor, cropsToTensor, extractCrop, wholeScreenCrop } from '../core/crop.js';
import { givenLater, parseOptions } from '../cli/args.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const DEFAULT_REAL_DIR = resolve(REPO_ROOT, '../shared/realpairs');

/** mulberry32: small, fast, deterministic. */
function rngFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
const intBelow = (rng: Rng, n: number) => Math.floor(rng() * n);

// ---------------------------------------------------------------- seed corpus

/** A small synthetic screen with a few blocks; `variantSeed` changes one block. */
function syntheticScreen(width: number, height: number, seed: number, alpha: boolean): RgbaImage {
  const rng = rngFrom(seed);
  const data = new Uint8Array(width * height * 4);
  const background = [240 + intBelow(rng, 16), 240 + intBelow(rng, 16), 240 + intBelow(rng, 16)];
  for (let i = 0; i < width * height; i++) data.set([background[0], background[1], background[2], 255], i * 4);
  const blocks = 2 + intBelow(rng, 5);
  for (let b = 0; b < blocks; b++) {
    const x0 = intBelow(rng, width);
    const y0 = intBelow(rng, height);
    const x1 = Math.min(width, x0 + 1 + intBelow(rng, Math.max(1, width / 3)));
    const y1 = Math.min(height, y0 + 1 + intBelow(rng, Math.max(1, height / 4)));
    const colour = [intBelow(rng, 256), intBelow(rng, 256), intBelow(rng, 256), alpha ? intBelow(rng, 256) : 255];
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set(colour, (y * width + x) * 4);
  }
  return { width, height, data };
}

/** Reduces an image to at most `count` colours (for palette encodings). */
function posterise(image: RgbaImage, count: number): RgbaImage {
  const data = image.data.slice();
  // 4 levels a channel = 64 colours (8-bit palettes), 2 levels = 8 colours (4-bit palettes)
  const levels = count >= 64 ? [0, 85, 170, 255] : [0, 255];
  for (let i = 0; i < data.length; i += 4) {
    const grey = (data[i] + data[i + 1] + data[i + 2]) / 3;
    if (count === 2) data.set(grey > 127 ? [255, 255, 255, 255] : [0, 0, 0, 255], i);
    else if (count === 4) data.set([data[i] > 127 ? 255 : 0, data[i + 1] > 127 ? 255 : 0, 0, 255], i);
    else
      data.set(
        [
          levels[Math.round((data[i] / 255) * (levels.length - 1))],
          levels[Math.round((data[i + 1] / 255) * (levels.length - 1))],
          levels[Math.round((data[i + 2] / 255) * (levels.length - 1))],
          255,
        ],
        i,
      );
  }
  return { width: image.width, height: image.height, data };
}

const ALL_VARIANTS: PngVariant[] = [];
for (const [colorType, depths] of [
  [0, [1, 2, 4, 8, 16]],
  [2, [8, 16]],
  [3, [1, 2, 4, 8]],
  [4, [8, 16]],
  [6, [8, 16]],
] as const) {
  for (const bitDepth of depths) for (const interlace of [false, true]) ALL_VARIANTS.push({ colorType, bitDepth, interlace } as PngVariant);
}

function encodeAs(image: RgbaImage, variant: PngVariant): Uint8Array {
  const source = variant.colorType === 3 ? posterise(image, 1 << variant.bitDepth) : image;
  return encodePngVariant(source, variant);
}

export interface SeedPair {
  name: string;
  before: Uint8Array;
  after: Uint8Array;
}

/** Generated pairs: many sizes (1x1 up to 400x300), every colour type / depth / interlace, mismatched sizes. */
export function generatedPairs(): SeedPair[] {
  const pairs: SeedPair[] = [];
  const sizes: [number, number][] = [
    [1, 1],
    [2, 3],
    [7, 5],
    [17, 9],
    [64, 48],
    [97, 96],
    [160, 100],
    [320, 200],
    [400, 300],
  ];
  ALL_VARIANTS.forEach((variant, v) => {
    const [w, h] = sizes[v % sizes.length];
    const alpha = variant.colorType === 4 || variant.colorType === 6;
    const before = syntheticScreen(w, h, 1000 + v, alpha);
    const after = syntheticScreen(w, h, 1000 + v, alpha);
    // change one block in the after image
    const x0 = Math.floor(w / 3);
    const y0 = Math.floor(h / 3);
    for (let y = y0; y < Math.min(h, y0 + Math.max(1, h / 4)); y++) {
      for (let x = x0; x < Math.min(w, x0 + Math.max(1, w / 4)); x++) after.data.set([200, 20, 20, 255], (y * w + x) * 4);
    }
    pairs.push({
      name: `generated-${v}-ct${variant.colorType}-d${variant.bitDepth}${variant.interlace ? '-i' : ''}`,
      before: encodeAs(before, variant),
      after: encodeAs(after, variant),
    });
  });
  // mismatched sizes
  pairs.push({
    name: 'generated-taller',
    before: encodeAs(syntheticScreen(320, 200, 7, false), ALL_VARIANTS[12]),
    after: encodeAs(syntheticScreen(320, 266, 7, false), ALL_VARIANTS[12]),
  });
  pairs.push({
    name: 'generated-narrower',
    before: encodeAs(syntheticScreen(300, 120, 8, true), ALL_VARIANTS[22]),
    after: encodeAs(syntheticScreen(200, 140, 9, true), ALL_VARIANTS[6]),
  });
  return pairs;
}

export function realPairs(dir: string): SeedPair[] {
  if (!dir || !existsSync(dir)) return [];
  const pairs: SeedPair[] = [];
  for (const name of readdirSync(dir).sort()) {
    const before = join(dir, name, 'before.png');
    const after = join(dir, name, 'after.png');
    if (existsSync(before) && existsSync(after))
      pairs.push({ name: `real-${name}`, before: readFileSync(before), after: readFileSync(after) });
  }
  return pairs;
}

// ---------------------------------------------------------------- mutations

interface Chunk {
  type: string;
  data: Uint8Array;
}

function parseChunks(bytes: Uint8Array): Chunk[] | undefined {
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset + 12 <= bytes.length) {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const length = view.readUInt32BE(offset);
    if (offset + 12 + length > bytes.length) return undefined;
    chunks.push({ type: view.toString('latin1', offset + 4, offset + 8), data: bytes.subarray(offset + 8, offset + 8 + length) });
    offset += 12 + length;
  }
  return chunks;
}

let crcTable: Int32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c;
    }
  }
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** Chunks back to a PNG file with correct lengths and CRCs (so the edit itself is what is tested). */
function buildPng(chunks: Chunk[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
  for (const chunk of chunks) {
    const out = Buffer.alloc(12 + chunk.data.length);
    out.writeUInt32BE(chunk.data.length, 0);
    out.write(chunk.type.padEnd(4, ' ').slice(0, 4), 4, 'latin1');
    out.set(chunk.data, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + chunk.data.length)), 8 + chunk.data.length);
    parts.push(out);
  }
  return Buffer.concat(parts);
}

const ABSURD_SIDES = [0, 1, 2, 255, 4096, 16384, 16385, 65535, 100000, 0x7fffffff, 0x80000000, 0xffffffff];

type Mutation = (bytes: Uint8Array, rng: Rng) => Uint8Array;

const MUTATIONS: Record<string, Mutation> = {
  bitFlips: (bytes, rng) => {
    const out = Uint8Array.from(bytes);
    const flips = 1 + intBelow(rng, 8);
    for (let k = 0; k < flips && out.length > 0; k++) out[intBelow(rng, out.length)] ^= 1 << intBelow(rng, 8);
    return out;
  },
  byteOverwrite: (bytes, rng) => {
    const out = Uint8Array.from(bytes);
    const count = 1 + intBelow(rng, 16);
    for (let k = 0; k < count && out.length > 0; k++) out[intBelow(rng, out.length)] = pick(rng, [0, 0xff, 0x7f, 0x80, intBelow(rng, 256)]);
    return out;
  },
  truncate: (bytes, rng) => bytes.subarray(0, intBelow(rng, bytes.length)),
  truncateTail: (bytes, rng) => bytes.subarray(0, Math.max(0, bytes.length - 1 - intBelow(rng, 64))),
  absurdDimensions: (bytes, rng) => {
    const chunks = parseChunks(bytes);
    if (!chunks || chunks[0]?.type !== 'IHDR') return bytes;
    const ihdr = Buffer.from(chunks[0].data);
    if (rng() < 0.7) ihdr.writeUInt32BE(pick(rng, ABSURD_SIDES), 0);
    if (rng() < 0.7) ihdr.writeUInt32BE(pick(rng, ABSURD_SIDES), 4);
    if (rng() < 0.3) ihdr.writeUInt32BE(1 + intBelow(rng, 3000), intBelow(rng, 2) * 4);
    return buildPng([{ type: 'IHDR', data: ihdr }, ...chunks.slice(1)]);
  },
  colourTypeDepth: (bytes, rng) => {
    const chunks = parseChunks(bytes);
    if (!chunks || chunks[0]?.type !== 'IHDR') return bytes;
    const ihdr = Buffer.from(chunks[0].data);
    ihdr[8] = pick(rng, [1, 2, 4, 8, 16, 0, 3, 32, 255]);
    ihdr[9] = pick(rng, [0, 2, 3, 4, 6, 1, 5, 7, 255]);
    if (rng() < 0.2) ihdr[10 + intBelow(rng, 3)] = intBelow(rng, 3);
    return buildPng([{ type: 'IHDR', data: ihdr }, ...chunks.slice(1)]);
  },
  interlaceToggle: (bytes, _rng) => {
    const chunks = parseChunks(bytes);
    if (!chunks || chunks[0]?.type !== 'IHDR') return bytes;
    const ihdr = Buffer.from(chunks[0].data);
    ihdr[12] ^= 1;
    return buildPng([{ type: 'IHDR', data: ihdr }, ...chunks.slice(1)]);
  },
  chunkShuffle: (bytes, rng) => {
    const chunks = parseChunks(bytes);
    if (!chunks) return bytes;
    const out = chunks.slice();
    const operation = intBelow(rng, 4);
    if (operation === 0) {
      for (let i = out.length - 1; i > 0; i--) {
        const j = intBelow(rng, i + 1);
        [out[i], out[j]] = [out[j], out[i]];
      }
    } else if (operation === 1 && out.length > 0) {
      out.splice(intBelow(rng, out.length), 1);
    } else if (operation === 2 && out.length > 0) {
      const at = intBelow(rng, out.length);
      out.splice(at, 0, out[intBelow(rng, out.length)]);
    } else {
      out.splice(intBelow(rng, out.length + 1), 0, {
        type: pick(rng, ['PLTE', 'tRNS', 'gAMA', 'ZZZZ', 'zzzz', 'IDAT', 'IHDR', 'IEND']),
        data: Uint8Array.from({ length: intBelow(rng, 40) }, () => intBelow(rng, 256)),
      });
    }
    return buildPng(out);
  },
  idatReplace: (bytes, rng) => {
    const chunks = parseChunks(bytes);
    if (!chunks) return bytes;
    const idat = chunks.findIndex((c) => c.type === 'IDAT');
    if (idat < 0) return bytes;
    const length = pick(rng, [0, 1, 10, 1000, 100000, 2_000_000]);
    const raw = rng() < 0.5 ? new Uint8Array(length) : Uint8Array.from({ length: Math.min(length, 20000) }, () => intBelow(rng, 256));
    const data = rng() < 0.8 ? deflateSync(raw) : raw;
    return buildPng([...chunks.slice(0, idat), { type: 'IDAT', data }, ...chunks.slice(idat + 1).filter((c) => c.type !== 'IDAT')]);
  },
  hugeChunkLength: (bytes, rng) => {
    const out = Uint8Array.from(bytes);
    if (out.length < 41) return out;
    const view = Buffer.from(out.buffer);
    // the chunk after IHDR claims an enormous length
    view.writeUInt32BE(pick(rng, [0x7fffffff, 0xffffffff, out.length, 0x10000000]), 33);
    return out;
  },
  notPng: (bytes, rng) => {
    const kind = intBelow(rng, 4);
    if (kind === 0) return new Uint8Array(0);
    if (kind === 1) return Buffer.from('<!doctype html><p>not an image</p>');
    if (kind === 2) return Uint8Array.from({ length: intBelow(rng, 500) }, () => intBelow(rng, 256));
    return Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, ...bytes.subarray(4, 200)]);
  },
  none: (bytes) => bytes,
};
const MUTATION_NAMES = Object.keys(MUTATIONS);

export interface FuzzCase {
  index: number;
  seedPair: string;
  mutations: string[];
  before: Uint8Array;
  after: Uint8Array;
}

/** Case `index` of a run: a seed pair (real pairs for about a quarter of cases) with mutations. */
export function makeCase(seed: number, index: number, generated: SeedPair[], real: SeedPair[]): FuzzCase {
  const rng = rngFrom((seed * 0x9e3779b1 + index * 0x85ebca6b) >>> 0);
  const useReal = real.length > 0 && rng() < 0.25;
  const base = useReal ? pick(rng, real) : pick(rng, generated);
  let before = base.before;
  let after = base.after;
  const mutations: string[] = [];
  if (rng() < 0.1) {
    // mismatched pair: the after image of another seed pair
    after = pick(rng, useReal ? real : generated).after;
    mutations.push('swapAfter');
  }
  if (rng() < 0.35) {
    // a valid pair that exercises diff, regions and crops: painted changes, a size change,
    // another colour type / bit depth / interlace
    const image = decodePng(after, 'seed.png');
    const painted = { width: image.width, height: image.height, data: image.data };
    const paints = intBelow(rng, 6);
    for (let k = 0; k < paints; k++) {
      const x0 = intBelow(rng, painted.width);
      const y0 = intBelow(rng, painted.height);
      const x1 = Math.min(painted.width, x0 + 1 + intBelow(rng, painted.width));
      const y1 = Math.min(painted.height, y0 + 1 + intBelow(rng, painted.height / 2 + 1));
      const colour = [intBelow(rng, 256), intBelow(rng, 256), intBelow(rng, 256), 255];
      const speckle = rng() < 0.3;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) if (!speckle || rng() < 0.05) painted.data.set(colour, (y * painted.width + x) * 4);
      }
    }
    let result: RgbaImage = painted;
    if (rng() < 0.3) {
      // grow or shrink the canvas
      const width = Math.max(1, painted.width + intBelow(rng, 81) - 40);
      const height = Math.max(1, painted.height + intBelow(rng, 81) - 40);
      const data = new Uint8Array(width * height * 4).fill(255);
      for (let y = 0; y < Math.min(height, painted.height); y++) {
        const row = painted.data.subarray(y * painted.width * 4, (y * painted.width + Math.min(width, painted.width)) * 4);
        data.set(row, y * width * 4);
      }
      result = { width, height, data };
      mutations.push(`valid:resize:${width}x${height}`);
    }
    const small = result.width * result.height <= 200_000;
    const variant = small ? pick(rng, ALL_VARIANTS) : undefined;
    after = variant ? encodeAs(result, variant) : encodePng(result);
    mutations.push(`valid:paint${paints}${variant ? `:ct${variant.colorType}d${variant.bitDepth}${variant.interlace ? 'i' : ''}` : ''}`);
    return { index, seedPair: base.name, mutations, before, after };
  }
  const which = intBelow(rng, 3); // 0: before, 1: after, 2: both
  const count = 1 + intBelow(rng, 2);
  for (let k = 0; k < count; k++) {
    const name = pick(rng, MUTATION_NAMES);
    mutations.push(`${which === 1 ? 'after' : which === 0 ? 'before' : 'both'}:${name}`);
    if (which !== 1) before = MUTATIONS[name](before, rng);
    if (which !== 0) after = MUTATIONS[name](after, rng);
  }
  return { index, seedPair: base.name, mutations, before, after };
}

export type CaseOutcome = 'ok' | 'clear-error' | 'crash';

/**
 * Decodes small images twice and insists on the same pixels: a decoder that reads uninitialised
 * memory (as pngjs does on short image data) gives different results, which counts as a crash.
 */
function decodeTwice(bytes: Uint8Array, name: string): RgbaImage {
  const image = decodePng(bytes, name);
  if (image.width * image.height > 250_000) return image;
  let second: RgbaImage | undefined;
  try {
    second = decodePng(bytes, name);
  } catch (error) {
    throw new Error(`non-deterministic decode of ${name}: decoded once, then failed with: ${(error as Error).message}`);
  }
  if (!Buffer.from(second.data).equals(Buffer.from(image.data))) throw new Error(`non-deterministic decode of ${name}: two decodes differ`);
  return image;
}

/** The core pixel pipeline on one pair of PNG byte strings. */
export function runPixelPipeline(before: Uint8Array, after: Uint8Array): { regions: number } {
  const a = decodeTwice(before, 'before.png');
  const b = decodeTwice(after, 'after.png');
  const diff = diffImages(a, b);
  const analysis = findRegions(diff);
  const crops: Uint8Array[] = [];
  for (const region of analysis.regions) {
    const box = cropBoxFor(region.box, diff.width, diff.height);
    crops.push(extractCrop(a, box), extractCrop(b, box));
  }
  if (analysis.wholeScreen) crops.push(wholeScreenCrop(a, diff.width, diff.height), wholeScreenCrop(b, diff.width, diff.height));
  if (crops.length > 0) cropsToTensor(crops);
  return { regions: analysis.regions.length };
}

// ---------------------------------------------------------------- worker side

interface WorkerSetup {
  fuzzWorker: true;
  seed: number;
  realDir: string;
  injectFaults: boolean;
  /** also run the runtime's full describe() (ONNX models from models/) on every case. */
  describe: boolean;
}

type DescribeRunner = (before: Uint8Array, after: Uint8Array) => Promise<unknown>;

/** Loads the runtime lazily (it pulls in onnxruntime-node), one CPU session set per worker. */
async function loadDescribe(): Promise<DescribeRunner> {
  const { SessionManager } = await import('../core/session.js');
  const { describe } = await import('../core/pipeline.js');
  const sessions = new SessionManager({ modelsDir: join(REPO_ROOT, 'models'), provider: 'cpu', threads: 1 });
  return (before, after) => describe(sessions, before, after, { beforeName: 'before.png', afterName: 'after.png' });
}

interface CaseResult {
  index: number;
  outcome: CaseOutcome;
  message?: string;
  seedPair: string;
  mutations: string[];
  /** time the case took in the worker (generation included). */
  ms: number;
}

function workerMain(setup: WorkerSetup): void {
  const generated = generatedPairs();
  const real = realPairs(setup.realDir);
  let describeRunner: Promise<DescribeRunner> | undefined;
  parentPort!.on('message', async (index: number) => {
    const caseStarted = performance.now();
    const fuzzCase = makeCase(setup.seed, index, generated, real);
    let outcome: CaseOutcome = 'ok';
    let message: string | undefined;
    try {
      if (setup.injectFaults && index % 50 === 7) throw new TypeError('injected fault (self-check of the crash detector)');
      if (setup.injectFaults && index % 50 === 31) for (;;);
      if (setup.injectFaults && index % 50 === 19) process.exit(3); // ends this worker thread only
      runPixelPipeline(fuzzCase.before, fuzzCase.after);
      if (setup.describe) {
        describeRunner ??= loadDescribe();
        await (
          await describeRunner
        )(fuzzCase.before, fuzzCase.after);
      }
    } catch (error) {
      if (error instanceof ImageInputError) {
        outcome = 'clear-error';
        message = error.message;
      } else {
        outcome = 'crash';
        message = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
      }
    }
    const result: CaseResult = {
      index,
      outcome,
      message,
      seedPair: fuzzCase.seedPair,
      mutations: fuzzCase.mutations,
      ms: performance.now() - caseStarted,
    };
    parentPort!.postMessage(result);
  });
  parentPort!.postMessage({ ready: true, seeds: generated.length + real.length, real: real.length });
}

// ---------------------------------------------------------------- main side

interface Options {
  count: number;
  json: boolean;
  seed: number;
  timeoutMs: number;
  workers: number;
  realDir: string;
  save?: string;
  only?: number;
  injectFaults: boolean;
  describe: boolean;
}

function parseArgs(argv: string[]): Options {
  const { values, tokens } = parseOptions(
    argv,
    {
      count: { type: 'string' },
      json: { type: 'boolean' },
      seed: { type: 'string' },
      'timeout-ms': { type: 'string' },
      workers: { type: 'string' },
      real: { type: 'string' },
      'no-real': { type: 'boolean' },
      save: { type: 'string' },
      only: { type: 'string' },
      'inject-faults': { type: 'boolean' },
      describe: { type: 'boolean' },
    },
    { unknown: (arg) => `unknown argument ${arg}` },
  );
  const integer = (name: 'count' | 'seed' | 'timeout-ms' | 'workers' | 'only') => {
    const text = values[name];
    if (text === undefined) return undefined;
    const n = Number.parseInt(text, 10);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a non-negative integer, got ${text}`);
    return n;
  };
  const count = integer('count'),
    seed = integer('seed'),
    timeoutMs = integer('timeout-ms'),
    workers = integer('workers');
  const options: Options = {
    count: count ?? 1000,
    json: values.json ?? false,
    seed: seed ?? 1,
    timeoutMs: timeoutMs === undefined ? 20000 : Math.max(1, timeoutMs),
    workers: workers === undefined ? Math.min(2, availableParallelism()) : Math.max(1, workers),
    // --real DIR and --no-real: the later one wins
    realDir: values['no-real'] && !givenLater(tokens, 'real', 'no-real') ? '' : (values.real ?? DEFAULT_REAL_DIR),
    injectFaults: values['inject-faults'] ?? false,
    describe: values.describe ?? false,
  };
  if (values.save !== undefined) options.save = values.save;
  const only = integer('only');
  if (only !== undefined) options.only = only;
  return options;
}

const USAGE =
  'usage: npm run --silent fuzz -- --count N [--json] [--seed S] [--timeout-ms T] [--workers W] [--real DIR | --no-real] [--save DIR] [--only K] [--describe]';

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`fuzz: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const started = Date.now();
  const indices = options.only !== undefined ? [options.only] : Array.from({ length: options.count }, (_, i) => i);
  const counts = { ok: 0, 'clear-error': 0, crash: 0, hang: 0 };
  const examples: object[] = [];
  let maxRss = process.memoryUsage().rss;
  let seedInfo = { seeds: 0, real: 0 };
  const rssTimer = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 100);

  let slowest = { index: -1, ms: 0 };
  const record = (result: CaseResult | { index: number; outcome: 'hang' | 'crash'; message: string }) => {
    counts[result.outcome]++;
    if ('ms' in result && result.ms > slowest.ms) slowest = { index: result.index, ms: Math.round(result.ms) };
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
    if (result.outcome === 'crash' || result.outcome === 'hang') {
      if (examples.length < 20) examples.push(result);
      if (!options.json) console.error(`fuzz: case ${result.index}: ${result.outcome}: ${'message' in result ? result.message : ''}`);
      if (options.save) saveCase(options, result.index);
    }
  };

  let next = 0;
  await new Promise<void>((done) => {
    let active = 0;
    const startWorker = () => {
      if (next >= indices.length) {
        if (active === 0) done();
        return;
      }
      active++;
      const worker = new Worker(fileURLToPath(import.meta.url), {
        workerData: {
          fuzzWorker: true,
          seed: options.seed,
          realDir: options.realDir,
          injectFaults: options.injectFaults,
          describe: options.describe,
        } satisfies WorkerSetup,
        resourceLimits: { maxOldGenerationSizeMb: 1024 },
      });
      let current = -1;
      let timer: NodeJS.Timeout | undefined;
      let finished = false;
      const retire = (replace: boolean) => {
        if (finished) return;
        finished = true;
        if (timer) clearTimeout(timer);
        active--;
        void worker.terminate();
        if (replace) startWorker();
        else if (active === 0 && next >= indices.length) done();
      };
      const sendNext = () => {
        if (next >= indices.length) {
          retire(false);
          return;
        }
        current = indices[next++];
        const index = current;
        timer = setTimeout(() => {
          record({ index, outcome: 'hang', message: `still running after ${options.timeoutMs} ms` });
          current = -1;
          retire(true);
        }, options.timeoutMs);
        worker.postMessage(index);
      };
      worker.on('message', (message: CaseResult | { ready: true; seeds: number; real: number }) => {
        if ('ready' in message) {
          seedInfo = { seeds: message.seeds, real: message.real };
          sendNext();
          return;
        }
        if (timer) clearTimeout(timer);
        current = -1;
        record(message);
        sendNext();
      });
      const died = (reason: string) => {
        if (finished) return;
        if (current >= 0) record({ index: current, outcome: 'crash', message: `worker died: ${reason}` });
        current = -1;
        retire(true);
      };
      worker.on('error', (error) => died(error.message));
      worker.on('exit', (code) => died(`exit code ${code}`));
    };
    for (let w = 0; w < Math.min(options.workers, Math.max(1, indices.length)); w++) startWorker();
  });
  clearInterval(rssTimer);

  const summary = {
    cases: indices.length,
    crashes: counts.crash,
    hangs: counts.hang,
    max_rss_mb: Math.round(maxRss / 1048576),
    clear_errors: counts['clear-error'],
    decoded_ok: counts.ok,
    seed: options.seed,
    seed_pairs: seedInfo.seeds,
    real_seed_pairs: seedInfo.real,
    timeout_ms: options.timeoutMs,
    describe: options.describe,
    slowest_case: slowest,
    seconds: (Date.now() - started) / 1000,
    failures: examples,
  };
  if (options.json) console.log(JSON.stringify(summary));
  else {
    console.log(
      `fuzz: ${summary.cases} cases, ${summary.crashes} crashes, ${summary.hangs} hangs, max RSS ${summary.max_rss_mb} MB ` +
        `(${summary.decoded_ok} ran through, ${summary.clear_errors} refused with a clear error; ${summary.seed_pairs} seed pairs, ${summary.real_seed_pairs} real) in ${summary.seconds} s`,
    );
  }
  process.exit(summary.crashes + summary.hangs > 0 ? 1 : 0);
}

/** Writes a failing case's two files so it can be replayed outside the fuzzer. */
function saveCase(options: Options, index: number): void {
  const fuzzCase = makeCase(options.seed, index, generatedPairs(), realPairs(options.realDir));
  mkdirSync(options.save!, { recursive: true });
  writeFileSync(join(options.save!, `case-${index}-before.png`), fuzzCase.before);
  writeFileSync(join(options.save!, `case-${index}-after.png`), fuzzCase.after);
  writeFileSync(
    join(options.save!, `case-${index}.json`),
    JSON.stringify({ index, seed: options.seed, seedPair: fuzzCase.seedPair, mutations: fuzzCase.mutations }) + '\n',
  );
}

if (!isMainThread && (workerData as WorkerSetup | undefined)?.fuzzWorker) {
  workerMain(workerData as WorkerSetup);
} else if (isMainThread && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`fuzz: ${(error as Error).stack ?? error}`);
    process.exit(1);
  });
}
