// `npm run --silent context -- --crops DIR/crops.jsonl [--manifest DIR/manifest.jsonl] [--out FILE] [--force]`
//
// Writes the layout-context features (src/core/context.ts) of every row of a crops file, in row
// order, as float32 [rows, CONTEXT_SIZE] .npy (default: crops.context.npy next to crops.jsonl): the
// kind prior's training and evaluation inputs, computed by the same function the runtime uses.
// A pair's other samples are its rows the runtime feeds to the model (not noise, not fallback).
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Box } from '../core/report.js';
import { readPngFile, type RgbaImage } from '../core/image.js';
import { CONTEXT_SIZE, sampleContext } from '../core/context.js';
import { NpyAppender } from './crops.js';
import { parseOptions } from '../cli/args.js';

const USAGE = 'usage: npm run --silent context -- --crops DIR/crops.jsonl [--manifest DIR/manifest.jsonl] [--out FILE] [--force]';

interface Row {
  index: number;
  pair_id: string;
  box: Box;
  crop_box: Box;
  source?: string;
}
interface Pair {
  id: string;
  before: string;
  after: string;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): { crops: string; manifest: string; out: string; force: boolean } {
  const { values } = parseOptions(
    argv,
    {
      crops: { type: 'string' },
      manifest: { type: 'string' },
      out: { type: 'string' },
      force: { type: 'boolean' },
    },
    { unknown: (arg) => `unknown argument ${arg}`, error: (message) => new UsageError(message) },
  );
  const { crops = '', manifest = '', out = '', force = false } = values;
  if (!crops) throw new UsageError('--crops is required');
  const dir = dirname(resolve(crops));
  return {
    crops: resolve(crops),
    manifest: resolve(manifest || join(dir, 'manifest.jsonl')),
    out: resolve(out || resolve(crops).replace(/\.jsonl$/, '') + '.context.npy'),
    force,
  };
}

/** The objects of a JSON-lines file; errors name the file (and the line). */
export function readJsonl<T>(path: string, what: string): T[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${path}: cannot read the ${what} (${(error as Error).message})`);
  }
  return text.split('\n').flatMap((line, n) => {
    if (!line.trim()) return [];
    try {
      return [JSON.parse(line) as T];
    } catch (error) {
      throw new Error(`${path}:${n + 1}: not valid JSON (${(error as Error).message})`);
    }
  });
}

const usedByModel = (r: Row) => r.source !== 'noise' && r.source !== 'fallback';

export function contextRows(rows: Row[], pairs: Map<string, Pair>, manifestDir: string): Float32Array {
  const out = new Float32Array(rows.length * CONTEXT_SIZE);
  const byPair = new Map<string, number[]>();
  rows.forEach((r, i) => {
    if (!Array.isArray(r.box) || !Array.isArray(r.crop_box)) throw new Error(`crops row ${i}: needs box and crop_box`);
    const list = byPair.get(r.pair_id) ?? [];
    list.push(i);
    byPair.set(r.pair_id, list);
  });
  const path = (p: string) => (isAbsolute(p) ? p : resolve(manifestDir, p));
  for (const [pairId, indices] of byPair) {
    const pair = pairs.get(pairId);
    if (!pair) throw new Error(`crops rows name pair ${pairId}, which the manifest does not have`);
    const before: RgbaImage = readPngFile(path(pair.before));
    const after: RgbaImage = readPngFile(path(pair.after));
    const width = Math.max(before.width, after.width),
      height = Math.max(before.height, after.height);
    const model = indices.filter((i) => usedByModel(rows[i]));
    for (const i of indices) {
      const group = model.includes(i) ? model : [...model, i];
      const features = sampleContext(
        before,
        after,
        group.map((j) => rows[j].box),
        group.map((j) => rows[j].crop_box),
        group.indexOf(i),
        width,
        height,
      );
      out.set(features, i * CONTEXT_SIZE);
    }
  }
  return out;
}

function main(): void {
  let options: ReturnType<typeof parseArgs>;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`context: ${error.message}\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  if (existsSync(options.out) && !options.force) {
    console.error(`context: ${options.out} exists; pass --force to replace it`);
    process.exit(2);
  }
  const started = Date.now();
  const rows = readJsonl<Row>(options.crops, 'crops file');
  const pairs = new Map(readJsonl<Pair>(options.manifest, 'manifest').map((p) => [p.id, p]));
  const features = contextRows(rows, pairs, dirname(options.manifest));
  const tmp = `${options.out}.tmp`;
  const npy = new NpyAppender(tmp, [CONTEXT_SIZE], '<f4');
  npy.append(new Uint8Array(features.buffer, features.byteOffset, features.byteLength), rows.length);
  npy.close();
  renameSync(tmp, options.out);
  console.log(JSON.stringify({ rows: rows.length, features: CONTEXT_SIZE, out: options.out, seconds: (Date.now() - started) / 1000 }));
}

if (process.argv[1] && resolve(process.argv[1]).endsWith(join('lab', 'context.js'))) {
  try {
    main();
  } catch (error) {
    console.error(`context: ${(error as Error).message}`);
    process.exit(1);
  }
}
