// `npm run --silent detail-crops -- --crops DIR/crops.jsonl --out OUT_DIR [--force]`
//
// The detail views (src/core/detail.ts, contract "crop.detail") of a crops folder made by `npm run
// crops` and `npm run context`: for every row the runtime feeds to the model (not noise, fallback or
// whole-screen) whose context crop is larger than the rule's limit, the before/after crops of its detail
// window, labelled like the row and carrying the row's own layout context (the detail view of a region
// is read with the region's context, as the runtime does). OUT_DIR gets a crops folder of those rows
// alone (crops.jsonl with `detail_of` = the source row, crops.pairs.npy, an empty crops.frames.npy,
// crops.context.npy, and manifest.jsonl: their pairs, with absolute image paths) that training takes
// as one more --extra-train shard.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Box } from '../core/report.js';
import { readPngFile, type RgbaImage } from '../core/image.js';
import { CROP_SIZE, cropBoxFor, extractCrop } from '../core/crop.js';
import { CONTEXT_SIZE } from '../core/context.js';
import { contractDetailRule, detailBoxFor, type DetailRule } from '../core/detail.js';
import { NpyAppender } from './crops.js';
import { readJsonl } from './context.js';
import { parseOptions } from './args.js';

const USAGE = 'usage: npm run --silent detail-crops -- --crops DIR/crops.jsonl --out OUT_DIR [--force]';

class UsageError extends Error {}

interface Row {
  index: number;
  pair_id: string;
  box: Box;
  crop_box: Box;
  source?: string;
  whole_screen?: boolean;
  [key: string]: unknown;
}
interface Pair {
  id: string;
  before: string;
  after: string;
  frames?: string[];
  [key: string]: unknown;
}

function parseArgs(argv: string[]): { crops: string; out: string; force: boolean } {
  const { values } = parseOptions(
    argv,
    { crops: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' } },
    { unknown: (arg) => `unknown argument ${arg}`, error: (message) => new UsageError(message) },
  );
  const { crops = '', out = '', force = false } = values;
  if (!crops) throw new UsageError('--crops is required');
  if (!out) throw new UsageError('--out is required');
  return { crops: resolve(crops), out: resolve(out), force };
}

/** Reads a float32 .npy of [rows, CONTEXT_SIZE] written by `npm run context`. */
function readContext(path: string, rows: number): Float32Array {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    throw new Error(`${path} missing: run \`npm run --silent context -- --crops ${join(dirname(path), 'crops.jsonl')}\` first`);
  }
  const headerEnd = 10 + bytes.readUInt16LE(8);
  const values = new Float32Array(bytes.buffer.slice(bytes.byteOffset + headerEnd, bytes.byteOffset + bytes.length));
  if (values.length !== rows * CONTEXT_SIZE) {
    throw new Error(`${path}: ${values.length} values, expected ${rows} rows x ${CONTEXT_SIZE}; run npm run context again with --force`);
  }
  return values;
}

/** Whether the runtime feeds this row to the model as a region sample (and so may give it a detail view). */
export const regionSample = (r: Row): boolean => !r.whole_screen && r.source !== 'noise' && r.source !== 'fallback';

export interface DetailCropsSummary {
  rows: number;
  detailed: number;
  out: string;
  seconds: number;
}

export function writeDetailCrops(cropsPath: string, outDir: string, rule: DetailRule): DetailCropsSummary {
  const started = Date.now();
  const dir = dirname(cropsPath);
  const rows = readJsonl<Row>(cropsPath, 'crops file');
  const context = readContext(cropsPath.replace(/\.jsonl$/, '') + '.context.npy', rows.length);
  const manifestPath = join(dir, 'manifest.jsonl');
  const pairs = new Map(readJsonl<Pair>(manifestPath, 'manifest').map((p) => [p.id, p]));
  const path = (p: string) => (isAbsolute(p) ? p : resolve(dir, p));
  mkdirSync(outDir, { recursive: true });
  // replacing a folder (--force): its crops.jsonl goes first, so a run cut short leaves no folder that looks finished
  rmSync(join(outDir, 'crops.jsonl'), { force: true });
  const pairsNpy = new NpyAppender(join(outDir, 'crops.pairs.npy'), [2, CROP_SIZE, CROP_SIZE, 3]);
  const contextNpy = new NpyAppender(join(outDir, 'crops.context.npy'), [CONTEXT_SIZE], '<f4');
  new NpyAppender(join(outDir, 'crops.frames.npy'), [7, CROP_SIZE, CROP_SIZE, 3]).close();
  const lines: string[] = [];
  const used = new Set<string>();
  const crop = new Uint8Array(2 * CROP_SIZE * CROP_SIZE * 3);
  let images: { id: string; before: RgbaImage; after: RgbaImage } | undefined;
  rows.forEach((r, n) => {
    if (!regionSample(r)) return;
    const side = r.crop_box[2] - r.crop_box[0];
    if (side <= rule.minCropSide) return;
    const pair = pairs.get(r.pair_id);
    if (!pair) throw new Error(`${cropsPath}:${n + 1}: pair ${r.pair_id} is not in ${manifestPath}`);
    if (images?.id !== pair.id) images = { id: pair.id, before: readPngFile(path(pair.before)), after: readPngFile(path(pair.after)) };
    const box = detailBoxFor(images.before, images.after, r.box, rule);
    if (!box) return;
    const width = Math.min(images.before.width, images.after.width);
    const height = Math.min(images.before.height, images.after.height);
    const cropBox = cropBoxFor(box, width, height);
    extractCrop(images.before, cropBox, crop.subarray(0, crop.length / 2));
    extractCrop(images.after, cropBox, crop.subarray(crop.length / 2));
    pairsNpy.append(crop, 1);
    used.add(pair.id);
    const values = context.subarray(n * CONTEXT_SIZE, (n + 1) * CONTEXT_SIZE);
    contextNpy.append(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), 1);
    lines.push(
      JSON.stringify({
        ...r,
        index: lines.length,
        box,
        crop_box: cropBox,
        has_frames: false,
        frames_index: -1,
        detail_of: n,
      }),
    );
  });
  pairsNpy.close();
  contextNpy.close();
  // the pairs the views come from, their image paths made absolute: training reads each shard's
  // manifest (pair-level references, the vocabulary)
  const manifest = [...pairs.values()]
    .filter((p) => used.has(p.id))
    .map((p) =>
      JSON.stringify({
        ...p,
        before: path(p.before),
        after: path(p.after),
        ...(Array.isArray(p.frames) ? { frames: p.frames.map(path) } : {}),
      }),
    );
  writeFileSync(join(outDir, 'manifest.jsonl'), manifest.length ? manifest.join('\n') + '\n' : '');
  writeFileSyncAtomic(join(outDir, 'crops.jsonl'), lines.length ? lines.join('\n') + '\n' : '');
  return { rows: rows.length, detailed: lines.length, out: outDir, seconds: (Date.now() - started) / 1000 };
}

function writeFileSyncAtomic(file: string, text: string): void {
  // written last and renamed into place: a folder without crops.jsonl is visibly unfinished
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

function main(): void {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`detail-crops: ${error.message}\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  const rule = contractDetailRule();
  if (!rule) {
    console.error('detail-crops: models/contract.json has no crop.detail rule');
    process.exit(2);
  }
  if (existsSync(join(options.out, 'crops.jsonl')) && !options.force) {
    console.error(`detail-crops: ${join(options.out, 'crops.jsonl')} exists; pass --force to replace that folder's crops`);
    process.exit(2);
  }
  console.log(JSON.stringify(writeDetailCrops(options.crops, options.out, rule)));
}

if (process.argv[1] && resolve(process.argv[1]).endsWith(join('cli', 'detail-crops.js'))) {
  try {
    main();
  } catch (error) {
    console.error(`detail-crops: ${(error as Error).message}`);
    process.exit(1);
  }
}
