// `npm run --silent crops -- --manifest DIR/manifest.jsonl --out PREFIX [--workers N] [--limit N]`
//
// Turns a data-engine manifest into model training samples using the RUNTIME's own region
// detection and crop rule, so training sees exactly what the runtime will show the model.
// For every detected region of every pair: the 96x96 crops of before, after and (when the pair
// has true frames) its 7 intermediate frames, all with the same crop box, labelled by matching the
// region to the pair's change records. Output format: docs/CROPS_FORMAT.md.

import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Box } from '../core/report.js';
import { readPngFile, type RgbaImage } from '../core/image.js';
import { diffImages, differingBox } from '../core/diff.js';
import { changeRegions } from '../core/change-regions.js';
import { CROP_SIZE, cropBoxFor, extractCrop, wholeScreenBox, wholeScreenCrop } from '../core/crop.js';
import { reflowCaptions } from '../data/captions.js';
import { parseOptions } from '../cli/args.js';

/** The caption references of a region that matches no change record. */
export const NO_CHANGE_REFERENCES = ['no visible change'];
const FRAME_COUNT = 7;
const CROP_BYTES = CROP_SIZE * CROP_SIZE * 3;

export interface ManifestChange {
  kind: string;
  role?: string;
  label?: string;
  bbox_before?: Box | null;
  bbox_after?: Box | null;
  from?: unknown;
  to?: unknown;
  /** the part of bbox_before / bbox_after whose pixels differ between the two screenshots (withInk) */
  ink_before?: Box | null;
  ink_after?: Box | null;
}

export interface ManifestPair {
  id: string;
  split?: string;
  before: string;
  after: string;
  frames?: string[];
  width?: number;
  height?: number;
  kind?: string;
  changes?: ManifestChange[];
  captions?: string[];
  region_captions?: string[][];
  /** elements shifted only by the layout reflowing around a change (data engine, may be absent) */
  reflowed?: { bbox_before: Box | null; bbox_after: Box | null }[];
}

export interface CropSample {
  index: number;
  pair_id: string;
  region_index: number;
  box: Box;
  crop_box: Box;
  kind: string;
  captions: string[];
  matched_changes: number[];
  has_frames: boolean;
  frames_index: number;
  whole_screen: boolean;
  /** how the sample arose: a detected region, a detected noise region, or a fallback crop. */
  source: 'region' | 'reflow' | 'unmatched' | 'noise' | 'fallback' | 'whole_screen';
}

/** What one pair contributes: sample records (index/frames_index filled in by the writer). */
export interface PairSamples {
  pairIndex: number;
  samples: CropSample[];
  /** per sample: before crop then after crop, CROP_BYTES each. */
  pairPixels: Uint8Array;
  /** per sample that has frames: 7 crops. */
  framePixels: Uint8Array;
  /** stats for the summary */
  regionsDetected: number;
  regionsUnmatched: number;
  changesTotal: number;
  changesFound: number;
  error?: string;
}

export function boxArea(box: Box): number {
  return Math.max(0, box[2] - box[0]) * Math.max(0, box[3] - box[1]);
}

function intersection(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

export function isBox(value: unknown): value is Box {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    value.every((v) => typeof v === 'number' && Number.isFinite(v)) &&
    value[2] > value[0] &&
    value[3] > value[1]
  );
}

/**
 * A region matches a change when their intersection holds at least a quarter of the smaller of
 * (region box, change box), for the change's before or after box. A quarter, not a half: a region
 * often also holds the content the change pushed aside (text after an edited word), which makes
 * it larger than the change record's box.
 */
export const MATCH_OVERLAP = 0.25;
export function regionMatchesChange(region: Box, change: ManifestChange): boolean {
  for (const candidate of [change.bbox_before, change.bbox_after, change.ink_before, change.ink_after]) {
    if (!isBox(candidate)) continue;
    const overlap = intersection(region, candidate);
    if (overlap > 0 && overlap >= MATCH_OVERLAP * Math.min(boxArea(region), boxArea(candidate))) return true;
  }
  return false;
}

/** A pixel differs for the ink boxes when a channel moved by more than this (rendering noise stays below). */
export const INK_CHANNEL_DELTA = 24;

/** The bounding box of the pixels inside `box` that differ between the two screenshots, or null when none do. */
export function inkBox(before: RgbaImage, after: RgbaImage, box: Box): Box | null {
  return differingBox(before, after, box, INK_CHANNEL_DELTA);
}

/**
 * The pair's changes with the boxes of their visible pixels (ink_before, ink_after). An element's
 * box holds its padding: a nav link is 64 px tall around a 16 px line of text, and the region of
 * its removal (the text, and the links after it that moved into its place) overlapped that box too
 * little to match, so it was labelled as content pushed aside. Matching the ink as well fixes that.
 * No-change and theme records keep their boxes only (their "ink" is noise or the whole screen).
 */
export function withInk(changes: ManifestChange[], before: RgbaImage, after: RgbaImage): ManifestChange[] {
  if (before.width !== after.width || before.height !== after.height) return changes;
  return changes.map((c) =>
    c.kind === 'none' || c.kind === 'theme'
      ? c
      : {
          ...c,
          ink_before: isBox(c.bbox_before) ? inkBox(before, after, c.bbox_before) : null,
          ink_after: isBox(c.bbox_after) ? inkBox(before, after, c.bbox_after) : null,
        },
  );
}

/**
 * The shift of the reflowed elements a region overlaps (after minus before, median over them), or
 * null when the region overlaps none whose box changed: its differences are then unexplained.
 * An element's shift is, per axis, that of its edge that moved most: an element pushed along moves
 * both edges alike, and a container that grew around a change elsewhere (a card stretched by its
 * row, which the data engine lists as reflowed because it paints a background or border) moves one,
 * its border, which is what its region shows. Without that, such a region was labelled "none" (no
 * visible change) although the data engine records why its pixels changed.
 */
export function reflowShiftOf(region: Box, pair: ManifestPair): { dx: number; dy: number } | null {
  const dxs: number[] = [];
  const dys: number[] = [];
  const larger = (p: number, q: number) => (Math.abs(q) > Math.abs(p) ? q : p);
  for (const element of pair.reflowed ?? []) {
    const { bbox_before: b, bbox_after: a } = element;
    if (!isBox(b) || !isBox(a)) continue;
    const dx = larger(a[0] - b[0], a[2] - b[2]);
    const dy = larger(a[1] - b[1], a[3] - b[3]);
    if (dx === 0 && dy === 0) continue;
    if (!regionMatchesChange(region, { kind: 'reflow', bbox_before: b, bbox_after: a })) continue;
    dxs.push(dx);
    dys.push(dy);
  }
  if (dxs.length === 0) return null;
  const median = (v: number[]) => v.slice().sort((p, q) => p - q)[Math.floor(v.length / 2)];
  return { dx: median(dxs), dy: median(dys) };
}

/** The pair's overall kind: its own field, else the first real change's kind, else none. */
export function globalKindOf(pair: ManifestPair): string {
  if (pair.kind) return pair.kind;
  const real = (pair.changes ?? []).find((c) => c.kind !== 'none');
  return real ? real.kind : 'none';
}

function referencesFor(pair: ManifestPair, matched: number[]): string[] {
  const references: string[] = [];
  for (const index of matched) {
    for (const caption of pair.region_captions?.[index] ?? []) {
      if (!references.includes(caption)) references.push(caption);
    }
  }
  return references.length > 0 ? references : (pair.captions ?? []).slice();
}

function resolvePath(manifestDir: string, path: string): string {
  return isAbsolute(path) ? path : resolve(manifestDir, path);
}

/** Detects regions in one pair and builds its labelled samples with their crops. */
export function samplesForPair(pair: ManifestPair, pairIndex: number, manifestDir: string): PairSamples {
  const before = readPngFile(resolvePath(manifestDir, pair.before));
  const after = readPngFile(resolvePath(manifestDir, pair.after));
  const diff = diffImages(before, after);
  const analysis = changeRegions(diff, before, after); // as the runtime finds them (src/core/change-regions.ts)
  const width = diff.width;
  const height = diff.height;
  const changes = withInk(pair.changes ?? [], before, after);
  const frameFiles = pair.frames ?? [];
  const hasFrames = frameFiles.length === FRAME_COUNT;
  if (frameFiles.length !== 0 && !hasFrames) {
    throw new Error(`pair ${pair.id}: expected ${FRAME_COUNT} frames or none, got ${frameFiles.length}`);
  }

  interface Planned {
    box: Box;
    cropBox: Box;
    regionIndex: number;
    kind: string;
    captions: string[];
    matched: number[];
    wholeScreen: boolean;
    source: CropSample['source'];
  }
  const planned: Planned[] = [];
  let regionsUnmatched = 0;
  const found = new Set<number>();

  if (analysis.wholeScreen) {
    const box = wholeScreenBox(width, height);
    planned.push({
      box,
      cropBox: box,
      regionIndex: -1,
      kind: globalKindOf(pair),
      captions: (pair.captions ?? []).slice(),
      matched: changes.map((_, i) => i),
      wholeScreen: true,
      source: 'whole_screen',
    });
    changes.forEach((_, i) => found.add(i));
  } else {
    analysis.regions.forEach((region, regionIndex) => {
      const matched: number[] = [];
      changes.forEach((change, i) => {
        if (regionMatchesChange(region.box, change)) matched.push(i);
      });
      matched.forEach((i) => found.add(i));
      // a region no change explains: content pushed by a change elsewhere (kind "reflow"), or unexplained
      const shift = matched.length === 0 && !region.noiseOnly ? reflowShiftOf(region.box, pair) : null;
      if (matched.length === 0 && !shift) regionsUnmatched++;
      planned.push({
        box: region.box,
        cropBox: cropBoxFor(region.box, width, height),
        regionIndex,
        kind: matched.length > 0 ? changes[matched[0]].kind : shift ? 'reflow' : 'none',
        captions:
          matched.length > 0 ? referencesFor(pair, matched) : shift ? reflowCaptions(shift.dx, shift.dy) : NO_CHANGE_REFERENCES.slice(),
        matched,
        wholeScreen: false,
        source: region.noiseOnly ? 'noise' : matched.length > 0 ? 'region' : shift ? 'reflow' : 'unmatched',
      });
    });
    if (planned.length === 0 && globalKindOf(pair) === 'none') {
      // nothing detected in a no-change pair: still one "none" sample, at the noisy element if known
      const noisy = changes.findIndex((c) => isBox(c.bbox_before) || isBox(c.bbox_after));
      let box: Box;
      if (noisy >= 0) {
        const change = changes[noisy];
        box = (isBox(change.bbox_before) ? change.bbox_before : change.bbox_after) as Box;
      } else {
        const side = Math.min(CROP_SIZE, width, height);
        const x0 = Math.floor((width - side) / 2);
        const y0 = Math.floor((height - side) / 2);
        box = [x0, y0, x0 + side, y0 + side];
      }
      planned.push({
        box,
        cropBox: cropBoxFor(box, width, height),
        regionIndex: -1,
        kind: 'none',
        captions: noisy >= 0 ? referencesFor(pair, [noisy]) : pair.captions?.length ? pair.captions.slice() : NO_CHANGE_REFERENCES.slice(),
        matched: noisy >= 0 ? [noisy] : [],
        wholeScreen: false,
        source: 'fallback',
      });
    }
  }

  const frames: RgbaImage[] = hasFrames ? frameFiles.map((f) => readPngFile(resolvePath(manifestDir, f))) : [];
  const pairPixels = new Uint8Array(planned.length * 2 * CROP_BYTES);
  const framePixels = new Uint8Array(hasFrames ? planned.length * FRAME_COUNT * CROP_BYTES : 0);
  const samples: CropSample[] = planned.map((p, s) => {
    const crop = (image: RgbaImage, out: Uint8Array) =>
      p.wholeScreen ? wholeScreenCrop(image, width, height, out) : extractCrop(image, p.cropBox, out);
    crop(before, pairPixels.subarray(2 * s * CROP_BYTES, (2 * s + 1) * CROP_BYTES));
    crop(after, pairPixels.subarray((2 * s + 1) * CROP_BYTES, (2 * s + 2) * CROP_BYTES));
    frames.forEach((frame, f) => {
      const at = (s * FRAME_COUNT + f) * CROP_BYTES;
      crop(frame, framePixels.subarray(at, at + CROP_BYTES));
    });
    return {
      index: -1,
      pair_id: pair.id,
      region_index: p.regionIndex,
      box: p.box,
      crop_box: p.cropBox,
      kind: p.kind,
      captions: p.captions,
      matched_changes: p.matched,
      has_frames: hasFrames,
      frames_index: -1,
      whole_screen: p.wholeScreen,
      source: p.source,
    };
  });
  const realChanges = changes.filter((c) => c.kind !== 'none').length;
  const realFound = [...found].filter((i) => changes[i].kind !== 'none').length;
  return {
    pairIndex,
    samples,
    pairPixels,
    framePixels,
    regionsDetected: analysis.wholeScreen ? 1 : analysis.regions.length,
    regionsUnmatched,
    changesTotal: realChanges,
    changesFound: realFound,
  };
}

/** Writes a .npy file (uint8 unless `descr` says otherwise) whose first dimension grows as rows are appended. */
export class NpyAppender {
  private readonly fd: number;
  private rows = 0;
  private position: number;
  static readonly HEADER_BYTES = 128;

  constructor(
    readonly path: string,
    private readonly rowShape: number[],
    private readonly descr = '|u1',
  ) {
    this.fd = openSync(path, 'w');
    this.position = NpyAppender.HEADER_BYTES;
    this.writeHeader();
  }

  private writeHeader(): void {
    const shape = [this.rows, ...this.rowShape].join(', ');
    const dict = `{'descr': '${this.descr}', 'fortran_order': False, 'shape': (${shape}), }`;
    // magic (6) + version (2) + header length (2) + dict, space-padded, ending in \n
    const headerLength = NpyAppender.HEADER_BYTES - 10;
    if (dict.length + 1 > headerLength) throw new Error(`npy header too long for ${this.path}`);
    const header = Buffer.alloc(NpyAppender.HEADER_BYTES, 0x20);
    header.write('\x93NUMPY', 0, 'latin1');
    header[6] = 1;
    header[7] = 0;
    header.writeUInt16LE(headerLength, 8);
    header.write(dict, 10, 'latin1');
    header[NpyAppender.HEADER_BYTES - 1] = 0x0a;
    writeSync(this.fd, header, 0, header.length, 0);
  }

  append(bytes: Uint8Array, rows: number): void {
    let offset = 0;
    while (offset < bytes.length) {
      offset += writeSync(this.fd, bytes, offset, bytes.length - offset, this.position + offset);
    }
    this.position += bytes.length;
    this.rows += rows;
  }

  get rowCount(): number {
    return this.rows;
  }

  close(): void {
    this.writeHeader();
    closeSync(this.fd);
  }
}

interface Options {
  manifest: string;
  out: string;
  workers: number;
  limit: number;
}

function parseArgs(argv: string[]): Options {
  const { values } = parseOptions(
    argv,
    {
      manifest: { type: 'string' },
      out: { type: 'string' },
      workers: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    { unknown: (arg) => `unknown argument ${arg}`, error: (message) => new UsageError(message) },
  );
  if (values.help) throw new UsageError('');
  const options: Options = {
    manifest: values.manifest ?? '',
    out: values.out ?? '',
    workers: values.workers === undefined ? Math.min(2, availableParallelism()) : Math.max(1, Number.parseInt(values.workers, 10) || 1),
    limit: values.limit === undefined ? Infinity : Math.max(0, Number.parseInt(values.limit, 10) || 0),
  };
  if (!options.manifest || !options.out) throw new UsageError('--manifest and --out are required');
  return options;
}

class UsageError extends Error {}

const USAGE = 'usage: npm run --silent crops -- --manifest DIR/manifest.jsonl --out PREFIX [--workers N] [--limit N]';

function readManifest(path: string, limit: number): ManifestPair[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read the manifest (${(error as Error).message})`);
  }
  const pairs: ManifestPair[] = [];
  const lines = text.split('\n');
  for (let n = 0; n < lines.length && pairs.length < limit; n++) {
    const line = lines[n].trim();
    if (!line) continue;
    let pair: ManifestPair;
    try {
      pair = JSON.parse(line);
    } catch (error) {
      throw new Error(`${path}:${n + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (!pair || typeof pair.id !== 'string' || typeof pair.before !== 'string' || typeof pair.after !== 'string') {
      throw new Error(`${path}:${n + 1}: a manifest line needs string fields id, before and after`);
    }
    pairs.push(pair);
  }
  return pairs;
}

interface WorkerJob {
  pairIndex: number;
  pair: ManifestPair;
}

function runPairSafely(pair: ManifestPair, pairIndex: number, manifestDir: string): PairSamples {
  try {
    return samplesForPair(pair, pairIndex, manifestDir);
  } catch (error) {
    return {
      pairIndex,
      samples: [],
      pairPixels: new Uint8Array(0),
      framePixels: new Uint8Array(0),
      regionsDetected: 0,
      regionsUnmatched: 0,
      changesTotal: 0,
      changesFound: 0,
      error: `pair ${pair.id}: ${(error as Error).message}`,
    };
  }
}

function workerMain(manifestDir: string): void {
  parentPort!.on('message', (job: WorkerJob) => {
    const result = runPairSafely(job.pair, job.pairIndex, manifestDir);
    parentPort!.postMessage(result, [result.pairPixels.buffer as ArrayBuffer, result.framePixels.buffer as ArrayBuffer]);
  });
}

/** Runs every pair (in worker threads when workers > 1), calling `sink` in manifest order. */
async function processPairs(pairs: ManifestPair[], manifestDir: string, workers: number, sink: (r: PairSamples) => void): Promise<void> {
  if (workers <= 1) {
    pairs.forEach((pair, i) => sink(runPairSafely(pair, i, manifestDir)));
    return;
  }
  const pool = Array.from(
    { length: workers },
    () => new Worker(fileURLToPath(import.meta.url), { workerData: { cropsWorker: true, manifestDir } }),
  );
  const pending = new Map<number, PairSamples>();
  let nextToSend = 0;
  let nextToWrite = 0;
  const inFlightPerWorker = 4;
  await new Promise<void>((resolveAll, rejectAll) => {
    const feed = (worker: Worker) => {
      if (nextToSend < pairs.length) {
        worker.postMessage({ pairIndex: nextToSend, pair: pairs[nextToSend] } satisfies WorkerJob);
        nextToSend++;
      }
    };
    for (const worker of pool) {
      worker.on('message', (result: PairSamples) => {
        pending.set(result.pairIndex, result);
        while (pending.has(nextToWrite)) {
          const ready = pending.get(nextToWrite)!;
          pending.delete(nextToWrite);
          sink(ready);
          nextToWrite++;
        }
        if (nextToWrite === pairs.length) resolveAll();
        else feed(worker);
      });
      worker.on('error', rejectAll);
      for (let k = 0; k < inFlightPerWorker; k++) feed(worker);
    }
    if (pairs.length === 0) resolveAll();
  });
  await Promise.all(pool.map((w) => w.terminate()));
}

async function main(): Promise<void> {
  let options: Options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      if (error.message) console.error(`crops: ${error.message}`);
      console.error(USAGE);
      process.exit(2);
    }
    throw error;
  }
  const started = Date.now();
  const manifestPath = resolve(options.manifest);
  const manifestDir = dirname(manifestPath);
  const pairs = readManifest(manifestPath, options.limit);

  try {
    mkdirSync(dirname(resolve(options.out)), { recursive: true });
  } catch (error) {
    throw new Error(`${options.out}: cannot create the output folder (${(error as Error).message})`);
  }
  const jsonl = openSync(`${options.out}.jsonl`, 'w');
  const pairsNpy = new NpyAppender(`${options.out}.pairs.npy`, [2, CROP_SIZE, CROP_SIZE, 3]);
  const framesNpy = new NpyAppender(`${options.out}.frames.npy`, [FRAME_COUNT, CROP_SIZE, CROP_SIZE, 3]);
  const kindCounts: Record<string, number> = {};
  const sourceCounts: Record<string, number> = {};
  let sampleCount = 0;
  let regionsDetected = 0;
  let regionsUnmatched = 0;
  let changesTotal = 0;
  let changesFound = 0;
  let wholeScreen = 0;
  const errors: string[] = [];

  await processPairs(pairs, manifestDir, options.workers, (result) => {
    if (result.error) {
      errors.push(result.error);
      console.error(`crops: skipped ${result.error}`);
      return;
    }
    regionsDetected += result.regionsDetected;
    regionsUnmatched += result.regionsUnmatched;
    changesTotal += result.changesTotal;
    changesFound += result.changesFound;
    const lines: string[] = [];
    let framedInPair = 0;
    for (const sample of result.samples) {
      sample.index = sampleCount++;
      if (sample.has_frames) sample.frames_index = framesNpy.rowCount + framedInPair++;
      kindCounts[sample.kind] = (kindCounts[sample.kind] ?? 0) + 1;
      sourceCounts[sample.source] = (sourceCounts[sample.source] ?? 0) + 1;
      if (sample.whole_screen) wholeScreen++;
      lines.push(JSON.stringify(sample));
    }
    if (lines.length > 0) writeSync(jsonl, lines.join('\n') + '\n');
    pairsNpy.append(result.pairPixels, result.samples.length);
    const framed = result.samples.filter((s) => s.has_frames).length;
    if (framed > 0) framesNpy.append(result.framePixels, framed);
  });
  closeSync(jsonl);
  pairsNpy.close();
  framesNpy.close();

  const summary = {
    pairs: pairs.length,
    pairs_skipped: errors.length,
    samples: sampleCount,
    samples_with_frames: framesNpy.rowCount,
    whole_screen_samples: wholeScreen,
    per_kind: kindCounts,
    per_source: sourceCounts,
    regions_detected: regionsDetected,
    unmatched_rate: regionsDetected > 0 ? regionsUnmatched / regionsDetected : 0,
    change_recall: changesTotal > 0 ? changesFound / changesTotal : 1,
    seconds: (Date.now() - started) / 1000,
    outputs: [`${options.out}.jsonl`, `${options.out}.pairs.npy`, `${options.out}.frames.npy`],
  };
  console.log(JSON.stringify(summary));
  if (pairs.length > 0 && errors.length === pairs.length) process.exit(1);
}

if (!isMainThread && workerData?.cropsWorker) {
  workerMain(workerData.manifestDir);
} else if (isMainThread && process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`crops: ${(error as Error).message}`);
    process.exit(1);
  });
}
