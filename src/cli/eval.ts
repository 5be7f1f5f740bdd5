// npm run --silent eval -- --split test --count N [--seed S] [--beam W] [--json] [--data DIR] [--keep]
// Generates N fresh pairs with the data engine (src/data, headless Chromium) into a temp folder,
// runs the shipped models through this runtime (describe, exactly as the CLI and the extension),
// and scores the pair summaries against the data engine's reference captions (src/core/metrics.ts,
// coco-caption definitions, the same as training/metrics.py). Prints one JSON object with --json.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SessionManager, ModelLoadError, type ProviderChoice } from '../core/session.js';
import { describe } from '../core/pipeline.js';
import { ciderCeiling, scoreCaptions, type CaptionSample } from '../core/metrics.js';
import type { Box, ChangeRegion, ChangeReport } from '../core/report.js';

const USAGE = 'usage: npm run --silent eval -- --split test|val|train --count N [--seed S] [--beam W] [--provider auto|cpu|cuda] [--threads N] [--models DIR] [--data DIR] [--keep] [--json]';

interface ManifestChange {
  kind: string;
  bbox_before: Box | null;
  bbox_after: Box | null;
}
interface ManifestPair {
  id: string;
  before: string;
  after: string;
  changes: ManifestChange[];
  captions: string[];
}

interface EvalOptions {
  split: string;
  count: number;
  seed: number;
  beam: number;
  provider: ProviderChoice;
  threads?: number;
  modelsDir: string;
  dataDir?: string;
  keep: boolean;
  json: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(here, '..', '..', '..');

function parse(argv: string[]): EvalOptions {
  const o: Partial<EvalOptions> = { split: 'test', seed: 424242, beam: 1, provider: 'auto', keep: false, json: false, modelsDir: path.join(REPO_ROOT, 'models') };
  const int = (name: string, v: string | undefined, min: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min} (got ${v})\n${USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value\n${USAGE}`);
      return v;
    };
    switch (a) {
      case '--split': o.split = next(); break;
      case '--count': o.count = int('--count', next(), 1); break;
      case '--seed': o.seed = int('--seed', next(), 0); break;
      case '--beam': o.beam = int('--beam', next(), 1); break;
      case '--provider': o.provider = next() as ProviderChoice; break;
      case '--threads': o.threads = int('--threads', next(), 1); break;
      case '--models': o.modelsDir = next(); break;
      case '--data': o.dataDir = next(); break;
      case '--keep': o.keep = true; break;
      case '--json': o.json = true; break;
      default: throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  if (!['train', 'val', 'test'].includes(o.split as string)) throw new Error(`--split must be train, val or test\n${USAGE}`);
  if (o.count === undefined && !o.dataDir) throw new Error(`--count is required\n${USAGE}`);
  return o as EvalOptions;
}

function generate(options: EvalOptions, outDir: string): void {
  const cli = path.join(REPO_ROOT, 'dist', 'src', 'data', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli}: the data engine is not built (npm run build)`);
  const run = spawnSync(process.execPath, [cli, '--seed', String(options.seed), '--count', String(options.count),
    '--split', options.split, '--out', outDir, '--quiet'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0) throw new Error(`the data engine failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(-2000)}`);
}

function readManifest(dir: string): ManifestPair[] {
  const file = path.join(dir, 'manifest.jsonl');
  if (!fs.existsSync(file)) throw new Error(`${file}: no manifest (was the data generated?)`);
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((line, i) => {
    try {
      return JSON.parse(line) as ManifestPair;
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
  });
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

function unionBox(a: Box | null, b: Box | null): Box | null {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/**
 * The kind predicted for one true change: the kind of the meaningful region that overlaps the
 * change's box (before or after) the most; the whole-screen pass when there is one and no region
 * overlaps (theme); "none" when nothing was found there.
 */
export function predictedKindFor(change: ManifestChange, report: ChangeReport): string {
  const meaningful = report.regions.filter((r) => !r.noiseOnly && r.kind !== 'none');
  const target = unionBox(change.bbox_before, change.bbox_after);
  let best: ChangeRegion | undefined;
  let bestArea = 0;
  if (target) {
    for (const r of meaningful) {
      const area = overlap(r.boxBefore, target);
      if (area > bestArea) {
        best = r;
        bestArea = area;
      }
    }
  }
  if (report.global && report.global.kind !== 'none' && (!best || change.kind === 'theme')) return report.global.kind;
  if (best) return best.kind;
  return meaningful.length === 1 && !target ? meaningful[0].kind : 'none';
}

async function run(options: EvalOptions): Promise<Record<string, unknown>> {
  const started = performance.now();
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'procap-eval-'));
  let generateSeconds = 0;
  if (!options.dataDir) {
    const t = performance.now();
    generate(options, dataDir);
    generateSeconds = (performance.now() - t) / 1000;
  }
  const pairs = readManifest(dataDir).slice(0, options.count ?? Infinity);
  const sessions = new SessionManager({ modelsDir: options.modelsDir, provider: options.provider, threads: options.threads });
  const samples: CaptionSample[] = [];
  let kindCorrect = 0, kindTotal = 0, noneTotal = 0, noneHit = 0;
  const perKind: Record<string, { total: number; correct: number }> = {};
  const describeStart = performance.now();
  try {
    for (const pair of pairs) {
      const report = await describe(sessions, path.join(dataDir, pair.before), path.join(dataDir, pair.after), {
        beamWidth: options.beam, procedure: false,
      });
      samples.push({ candidate: report.summary, references: pair.captions });
      const real = pair.changes.filter((c) => c.kind !== 'none');
      if (real.length === 0) {
        noneTotal++;
        const hit = !report.changed;
        if (hit) noneHit++;
        kindTotal++;
        if (hit) kindCorrect++;
        const k = (perKind.none ??= { total: 0, correct: 0 });
        k.total++;
        if (hit) k.correct++;
        continue;
      }
      for (const change of real) {
        const ok = predictedKindFor(change, report) === change.kind;
        kindTotal++;
        if (ok) kindCorrect++;
        const k = (perKind[change.kind] ??= { total: 0, correct: 0 });
        k.total++;
        if (ok) k.correct++;
      }
    }
  } finally {
    await sessions.dispose();
  }
  const describeSeconds = (performance.now() - describeStart) / 1000;
  const scores = scoreCaptions(samples);
  if (!options.keep && !options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  const round = (x: number, d = 4) => Number(x.toFixed(d));
  return {
    split: options.split,
    seed: options.seed,
    count: samples.length,
    beam: options.beam,
    cider: round(scores.cider, 2),
    cider_ceiling: round(ciderCeiling(samples.map((s) => s.references)), 2),
    bleu4: round(scores.bleu4),
    rougeL: round(scores.rougeL),
    kind_accuracy: kindTotal ? round(kindCorrect / kindTotal) : null,
    nochange_recall: noneTotal ? round(noneHit / noneTotal) : null,
    nochange_pairs: noneTotal,
    per_kind_accuracy: Object.fromEntries(Object.entries(perKind).sort().map(([k, v]) => [k, { count: v.total, accuracy: round(v.correct / v.total) }])),
    provider: sessions.provider,
    seconds: round((performance.now() - started) / 1000, 2),
    generate_seconds: round(generateSeconds, 2),
    describe_seconds: round(describeSeconds, 2),
    ms_per_pair: samples.length ? round((describeSeconds * 1000) / samples.length, 1) : null,
    ...(options.keep && !options.dataDir ? { data_dir: dataDir } : {}),
  };
}

async function main(argv: string[]): Promise<number> {
  let options: EvalOptions;
  try {
    options = parse(argv);
  } catch (err) {
    process.stderr.write(`eval: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const result = await run(options);
    if (options.json) process.stdout.write(JSON.stringify(result) + '\n');
    else {
      for (const [k, v] of Object.entries(result)) process.stdout.write(`${k.padEnd(20)} ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`eval: ${err instanceof ModelLoadError ? 'model error: ' : ''}${(err as Error).message}\n`);
    return err instanceof ModelLoadError ? 4 : 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
