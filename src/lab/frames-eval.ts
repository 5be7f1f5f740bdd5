// npm run --silent frames-eval -- [--count N] [--seed S] [--split test|val|train] [--data DIR] [--out FILE] [--json]
// How close are the procedure's frames to what really happens between the two screenshots? Renders
// single-change pairs with the data engine's true intermediate frames (`npm run data -- --all-frames`:
// add and remove too), runs the runtime on each pair as the CLI does (review(), then withProcedure()),
// and scores each region matched to the pair's change (or, kind "reflow", to content it pushed) against
// the true frames over the same box: PSNR and SSIM (frame-metrics.ts) of the runtime's frames, of a
// cross-fade and of a pure warp of the before image, per change kind, with 95% bootstrap intervals
// over pairs.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SessionManager, ModelLoadError, type ProviderChoice } from '../core/session.js';
import { review } from '../core/pipeline.js';
import { decodePng, readPngFile, type RgbaImage } from '../core/image.js';
import type { Box, ChangeRegion, ProcedureFrames, ReportImage } from '../core/report.js';
import { isBox, regionMatchesChange, reflowShiftOf, boxArea } from './crops.js';
import { bootstrapRatio, type Interval } from './compare.js';
import { cropRgb, crossfade, meanSsim, psnr, resizeRgba, subRgb, warp, type Carried, type Rgb } from './frame-metrics.js';
import { integerValue, parseOptions } from '../cli/args.js';

const USAGE =
  'usage: npm run --silent frames-eval -- [--count N] [--seed S] [--split test|val|train] [--data DIR] [--out FILE] [--models DIR] [--provider auto|cpu|cuda] [--threads N] [--resamples N] [--keep] [--json]';

export const DEFAULT_SEED = 4242;
export const DEFAULT_COUNT = 150;
const DEFAULT_RESAMPLES = 2000;
/** the order of the kinds in the table; kinds without true frames (text, icon, font, reorder) never appear */
const KIND_ORDER = ['move', 'add', 'remove', 'resize', 'reflow', 'spacing', 'color', 'opacity', 'theme'];

interface ManifestChange {
  kind: string;
  bbox_before: Box | null;
  bbox_after: Box | null;
}
interface ManifestPair {
  id: string;
  before: string;
  after: string;
  frames: string[];
  changes: ManifestChange[];
  reflowed?: { bbox_before: Box | null; bbox_after: Box | null }[];
}

/** The full-resolution frames a region's procedure may carry (ProcedureFrames.full, where the runtime makes them). */
interface FullFrames {
  box: Box;
  scale: number;
  frames: ReportImage[];
}

export interface FramesEvalOptions {
  split: string;
  seed: number;
  count: number;
  dataDir?: string;
  out?: string;
  modelsDir: string;
  provider: ProviderChoice;
  threads?: number;
  resamples: number;
  keep: boolean;
  json: boolean;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(here, '..', '..', '..');

export function parseFramesEvalArgs(argv: string[]): FramesEvalOptions {
  const fail = (message: string) => new Error(`${message}\n${USAGE}`);
  const { values: v } = parseOptions(
    argv,
    {
      split: { type: 'string' },
      seed: { type: 'string' },
      count: { type: 'string' },
      data: { type: 'string' },
      out: { type: 'string' },
      models: { type: 'string' },
      provider: { type: 'string' },
      threads: { type: 'string' },
      resamples: { type: 'string' },
      keep: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    { error: fail },
  );
  const int = (name: string, text: string | undefined, min: number) => {
    if (text === undefined) return undefined;
    const n = integerValue(text);
    if (n === undefined || n < min) throw fail(`--${name} must be an integer >= ${min} (got "${text}")`);
    return n;
  };
  const split = v.split ?? 'test';
  if (!['train', 'val', 'test'].includes(split)) throw fail(`--split must be train, val or test (got "${split}")`);
  const provider = v.provider ?? 'auto';
  if (!['auto', 'cpu', 'cuda'].includes(provider)) throw fail(`--provider must be auto, cpu or cuda (got "${provider}")`);
  if (v.data !== undefined && !fs.existsSync(path.join(v.data, 'manifest.jsonl')))
    throw fail(`--data ${v.data}: no manifest.jsonl there (make one with npm run data -- ... --all-frames)`);
  if (v.out !== undefined && !fs.existsSync(path.dirname(path.resolve(v.out)))) throw fail(`--out ${v.out}: its folder does not exist`);
  if (v.keep && v.data !== undefined) throw fail('--keep keeps the pairs frames-eval renders; with --data nothing is rendered');
  return {
    split,
    seed: int('seed', v.seed, 0) ?? DEFAULT_SEED,
    count: int('count', v.count, 1) ?? DEFAULT_COUNT,
    dataDir: v.data,
    out: v.out,
    modelsDir: v.models ?? path.join(REPO_ROOT, 'models'),
    provider: provider as ProviderChoice,
    threads: int('threads', v.threads, 1),
    resamples: int('resamples', v.resamples, 100) ?? DEFAULT_RESAMPLES,
    keep: v.keep ?? false,
    json: v.json ?? false,
  };
}

function generate(o: FramesEvalOptions, outDir: string): void {
  const cli = path.join(REPO_ROOT, 'dist', 'src', 'data', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli}: the data engine is not built (npm run build)`);
  const args = [cli, '--seed', String(o.seed), '--count', String(o.count), '--split', o.split, '--out', outDir, '--all-frames', '--quiet'];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0) throw new Error(`the data engine failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(-2000)}`);
}

function readManifest(dir: string): ManifestPair[] {
  const file = path.join(dir, 'manifest.jsonl');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((line, i) => {
      try {
        return JSON.parse(line) as ManifestPair;
      } catch (err) {
        throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
      }
    });
}

/** the part of a box inside a width x height image, or null */
function clip(box: Box, width: number, height: number): Box | null {
  const b: Box = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(width, box[2]), Math.min(height, box[3])];
  return b[2] > b[0] && b[3] > b[1] ? b : null;
}

/** What a region is, for scoring: its kind and the boxes a pure warp carries. null: not scored. */
export function regionTruth(region: Box, pair: ManifestPair): { kind: string; carried: Carried[] } | null {
  const matches = pair.changes.filter((c) => regionMatchesChange(region, c as never));
  if (matches.length === 1) {
    const c = matches[0];
    return { kind: c.kind, carried: isBox(c.bbox_before) && isBox(c.bbox_after) ? [{ from: c.bbox_before, to: c.bbox_after }] : [] };
  }
  if (matches.length > 1 || !reflowShiftOf(region, pair as never)) return null;
  // content a change pushed along: its elements slide, containers first so that what they hold is drawn over them
  const carried = (pair.reflowed ?? [])
    .filter((e): e is { bbox_before: Box; bbox_after: Box } => isBox(e.bbox_before) && isBox(e.bbox_after))
    .filter((e) => regionMatchesChange(region, { kind: 'reflow', bbox_before: e.bbox_before, bbox_after: e.bbox_after }))
    .sort((a, b) => boxArea(b.bbox_before) - boxArea(a.bbox_before))
    .map((e) => ({ from: e.bbox_before, to: e.bbox_after }));
  return { kind: 'reflow', carried };
}

/** One scored region: PSNR and SSIM per method. */
export interface RegionScore {
  pair: string;
  kind: string;
  box: Box;
  scores: Record<string, { psnr: number; ssim: number }>;
}

const T = [1, 2, 3, 4, 5, 6, 7].map((k) => k / 8);

function decode(image: ReportImage, name: string): RgbaImage {
  return decodePng(Buffer.from(image.pngBase64, 'base64'), name);
}

/** Frames of a picture that covers `covers` (they may be smaller: scaled up), over `box` inside it. */
function runtimeFrames(frames: ReportImage[], covers: Box, box: Box, name: string): Rgb[] {
  const w = covers[2] - covers[0],
    h = covers[3] - covers[1];
  return frames.map((f, i) => {
    const img = decode(f, `${name} frame ${i}`);
    const full = resizeRgba(img, w, h);
    return subRgb(full, box[0] - covers[0], box[1] - covers[1], box[2] - covers[0], box[3] - covers[1]);
  });
}

/** Scores of the baselines and of the runtime's frames over one box. */
function scoreBox(
  imgs: { before: RgbaImage; after: RgbaImage; truth: RgbaImage[] },
  box: Box,
  carried: Carried[],
  runtime: Rgb[] | null,
  ends?: [Rgb, Rgb],
): Record<string, { psnr: number; ssim: number }> {
  const truth = imgs.truth.map((t) => cropRgb(t, box));
  const before = cropRgb(imgs.before, box);
  const after = cropRgb(imgs.after, box);
  const score = (frames: Rgb[]) => ({ psnr: psnr(frames, truth), ssim: meanSsim(frames, truth) });
  const out: Record<string, { psnr: number; ssim: number }> = {
    crossfade: score(T.map((t) => crossfade(before, after, t))),
    warp: score(T.map((t) => warp(imgs.before, box, carried, t))),
  };
  if (runtime) out.runtime = score(runtime);
  if (ends) out.crossfade_small = score(T.map((t) => crossfade(ends[0], ends[1], t)));
  return out;
}

/** Every scored region of one pair (single-change pairs with true frames). */
export function scorePair(pair: ManifestPair, dir: string, regions: ChangeRegion[]): RegionScore[] {
  const before = readPngFile(path.join(dir, pair.before));
  const after = readPngFile(path.join(dir, pair.after));
  const truth = pair.frames.map((f) => readPngFile(path.join(dir, f)));
  const imgs = { before, after, truth };
  const out: RegionScore[] = [];
  for (const r of regions) {
    if (r.noiseOnly || !r.procedure) continue;
    const what = regionTruth(r.boxBefore, pair);
    if (!what) continue;
    const box = clip(r.cropBox, before.width, before.height);
    if (!box) continue;
    const name = `${pair.id} region ${r.id}`;
    const small = runtimeFrames(r.procedure.frames, r.cropBox, box, name);
    const at96 = scoreBox(imgs, box, what.carried, small.slice(1, 8), [small[0], small[8]]);
    const scores: RegionScore['scores'] = {
      runtime_96: at96.runtime,
      crossfade: at96.crossfade,
      warp: at96.warp,
      crossfade_96: at96.crossfade_small,
    };
    const full = (r.procedure as ProcedureFrames & { full?: FullFrames }).full;
    const fullBox = full ? clip(full.box, before.width, before.height) : null;
    if (full && fullBox && full.frames.length === 9) {
      const atFull = scoreBox(imgs, fullBox, what.carried, runtimeFrames(full.frames, full.box, fullBox, name + ' (full)').slice(1, 8));
      scores.runtime_full = atFull.runtime;
      scores.crossfade_full = atFull.crossfade;
      scores.warp_full = atFull.warp;
    }
    out.push({ pair: pair.id, kind: what.kind, box, scores });
  }
  return out;
}

/** method -> the cross-fade it is compared with (over the same box) */
const BASELINE_OF: Record<string, string> = {
  runtime_96: 'crossfade',
  warp: 'crossfade',
  crossfade_96: 'crossfade',
  runtime_full: 'crossfade_full',
  warp_full: 'crossfade_full',
};
const METHOD_ORDER = ['runtime_full', 'runtime_96', 'crossfade', 'warp', 'crossfade_96', 'crossfade_full', 'warp_full'];

export interface MethodSummary {
  regions: number;
  psnr: Interval;
  ssim: Interval;
  /** the method minus the cross-fade over the same box, per region, then averaged */
  psnr_minus_crossfade?: Interval;
  ssim_minus_crossfade?: Interval;
  /** both differences' intervals above zero */
  beats_crossfade?: boolean;
  /** runtime_96 only: minus the cross-fade of its own 96 px ends, scaled up the same way (the interpolator's own gain) */
  psnr_minus_crossfade_96?: Interval;
  ssim_minus_crossfade_96?: Interval;
}

/** Means with 95% percentile-bootstrap intervals (pairs resampled; each pair weighs by its regions). */
export function summarise(scores: RegionScore[], resamples: number, seed: number): Record<string, MethodSummary> {
  const pairs = [...new Set(scores.map((s) => s.pair))];
  const byPair = pairs.map((p) => scores.filter((s) => s.pair === p));
  const out: Record<string, MethodSummary> = {};
  const methods = METHOD_ORDER.filter((m) => scores.some((s) => s.scores[m]));
  for (const m of methods) {
    const having = byPair.map((rs) => rs.filter((r) => r.scores[m])).filter((rs) => rs.length);
    const regions = having.reduce((n, rs) => n + rs.length, 0);
    const den = having.map((rs) => rs.length);
    const sums = (f: (r: RegionScore) => number) => having.map((rs) => rs.reduce((s, r) => s + f(r), 0));
    const iv = (f: (r: RegionScore) => number, k: number) => round(bootstrapRatio(sums(f), den, resamples, seed + k));
    const summary: MethodSummary = { regions, psnr: iv((r) => r.scores[m].psnr, 0), ssim: iv((r) => r.scores[m].ssim, 1) };
    const base = BASELINE_OF[m];
    if (base) {
      summary.psnr_minus_crossfade = iv((r) => r.scores[m].psnr - r.scores[base].psnr, 2);
      summary.ssim_minus_crossfade = iv((r) => r.scores[m].ssim - r.scores[base].ssim, 3);
      summary.beats_crossfade = summary.psnr_minus_crossfade.lo > 0 && summary.ssim_minus_crossfade.lo > 0;
    }
    if (m === 'runtime_96' && scores.some((s) => s.scores.crossfade_96)) {
      summary.psnr_minus_crossfade_96 = iv((r) => r.scores[m].psnr - r.scores.crossfade_96.psnr, 4);
      summary.ssim_minus_crossfade_96 = iv((r) => r.scores[m].ssim - r.scores.crossfade_96.ssim, 5);
    }
    out[m] = summary;
  }
  return out;
}

function round(i: Interval): Interval {
  const r = (x: number) => Number(x.toFixed(4));
  return { mean: r(i.mean), lo: r(i.lo), hi: r(i.hi) };
}

export interface FramesEvalResult {
  command: string;
  split: string;
  seed: number;
  pairs: number;
  pairs_scored: number;
  regions: number;
  psnr: string;
  ssim: string;
  interval: string;
  methods: Record<string, string>;
  per_kind: Record<string, { pairs: number } & Record<string, MethodSummary | number>>;
  skipped: Record<string, number>;
  provider: string;
  seconds: number;
}

export const METHOD_NOTES: Record<string, string> = {
  runtime_full: "the report's full-resolution frames (procedure.full) over their own box",
  runtime_96: "the report's 96 px frames (procedure.frames) scaled up bilinearly to the region's crop box",
  crossfade: '(1 - t) before + t after over the crop box',
  warp: "the before image with the change's before box carried to its after box by t (reflow: the pushed elements' boxes; add and remove: none), bilinear, over the crop box",
  crossfade_96: "the cross-fade of the report's 96 px before and after frames, scaled up as runtime_96 is (what 96 px costs)",
  crossfade_full: "the cross-fade over the full-resolution frames' box",
  warp_full: "the warp over the full-resolution frames' box",
};

export function commandOf(o: FramesEvalOptions): string {
  const parts = ['npm run --silent frames-eval --'];
  if (o.dataDir) parts.push('--data', o.dataDir);
  if (o.split !== 'test') parts.push('--split', o.split);
  if (!o.dataDir || o.seed !== DEFAULT_SEED) parts.push('--seed', String(o.seed));
  parts.push('--count', String(o.count));
  if (o.resamples !== DEFAULT_RESAMPLES) parts.push('--resamples', String(o.resamples));
  if (o.out) parts.push('--out', o.out);
  return parts.join(' ');
}

export async function runFramesEval(o: FramesEvalOptions, progress: (line: string) => void = () => {}): Promise<FramesEvalResult> {
  const started = performance.now();
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'procap-frames-'));
  try {
    if (!o.dataDir) {
      progress(`frames-eval: rendering ${o.count} ${o.split} pairs (seed ${o.seed}) with true frames`);
      generate(o, dataDir);
    }
    const pairs = readManifest(dataDir).slice(0, o.count);
    const skipped: Record<string, number> = { no_true_frames: 0, several_changes: 0, no_change: 0 };
    const usable = pairs.filter((p) => {
      const why = p.changes.every((c) => c.kind === 'none')
        ? 'no_change'
        : p.changes.length !== 1
          ? 'several_changes'
          : p.frames.length !== 7
            ? 'no_true_frames'
            : null;
      if (why) skipped[why]++;
      return !why;
    });
    const sessions = new SessionManager({ modelsDir: o.modelsDir, provider: o.provider, threads: o.threads });
    const scores: RegionScore[] = [];
    let pairsScored = 0;
    try {
      for (const [i, pair] of usable.entries()) {
        const described = await review(sessions, path.join(dataDir, pair.before), path.join(dataDir, pair.after), {});
        const report = await described.withProcedure();
        const got = scorePair(pair, dataDir, report.regions);
        if (got.length) pairsScored++;
        scores.push(...got);
        if ((i + 1) % 25 === 0) progress(`frames-eval: ${i + 1}/${usable.length} pairs`);
      }
    } finally {
      await sessions.dispose();
    }
    const kinds = [...new Set(scores.map((s) => s.kind))].sort(
      (a, b) => (KIND_ORDER.indexOf(a) + 1 || 99) - (KIND_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
    );
    const per_kind: FramesEvalResult['per_kind'] = {};
    for (const [j, k] of [...kinds, 'all'].entries()) {
      const these = k === 'all' ? scores : scores.filter((s) => s.kind === k);
      per_kind[k] = { pairs: new Set(these.map((s) => s.pair)).size, ...summarise(these, o.resamples, 1000 * (j + 1)) };
    }
    const methods = Object.fromEntries(METHOD_ORDER.filter((m) => scores.some((s) => s.scores[m])).map((m) => [m, METHOD_NOTES[m]]));
    return {
      command: commandOf(o),
      split: o.split,
      seed: o.seed,
      pairs: pairs.length,
      pairs_scored: pairsScored,
      regions: scores.length,
      psnr: 'dB, peak 255, from the MSE over the 7 frames and RGB of a region (capped at 100 dB)',
      ssim: 'on BT.601 luma, 11x11 Gaussian window (sigma 1.5), K1 0.01, K2 0.03, mean over window positions and the 7 frames',
      interval: `95% percentile bootstrap over pairs (${o.resamples} resamples), regions weighted equally`,
      methods,
      per_kind,
      skipped,
      provider: sessions.provider,
      seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    };
  } finally {
    if (!o.dataDir && !o.keep) fs.rmSync(dataDir, { recursive: true, force: true });
    else if (!o.dataDir) progress(`frames-eval: pairs kept in ${dataDir}`);
  }
}

/** The readable table: per kind, each method's PSNR and SSIM, and its difference to the cross-fade. */
export function formatTable(r: FramesEvalResult): string {
  const iv = (i: Interval | undefined, d: number, sign = false) =>
    i ? `${sign && i.mean >= 0 ? '+' : ''}${i.mean.toFixed(d)} [${i.lo.toFixed(d)}, ${i.hi.toFixed(d)}]` : '-';
  const lines = [
    `${r.command}`,
    `${r.pairs} pairs, ${r.pairs_scored} scored, ${r.regions} regions; skipped: ${Object.entries(r.skipped)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `PSNR ${r.psnr}; SSIM ${r.ssim}; intervals: ${r.interval}`,
    '',
  ];
  const header = ['kind', 'n', 'method', 'PSNR dB', 'SSIM', 'PSNR - crossfade', 'SSIM - crossfade', 'PSNR - crossfade_96'];
  const rows: string[][] = [header];
  for (const [kind, s] of Object.entries(r.per_kind)) {
    for (const m of Object.keys(r.methods)) {
      const v = s[m] as MethodSummary | undefined;
      if (!v) continue;
      rows.push([
        kind,
        String(v.regions),
        m,
        iv(v.psnr, 2),
        iv(v.ssim, 4),
        iv(v.psnr_minus_crossfade, 2, true),
        iv(v.ssim_minus_crossfade, 4, true),
        iv(v.psnr_minus_crossfade_96, 2, true),
      ]);
    }
  }
  const widths = header.map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const row of rows) lines.push(row.map((cell, c) => cell.padEnd(widths[c])).join('  '));
  return lines.join('\n') + '\n';
}

async function main(argv: string[]): Promise<number> {
  let o: FramesEvalOptions;
  try {
    o = parseFramesEvalArgs(argv);
  } catch (err) {
    process.stderr.write(`frames-eval: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const result = await runFramesEval(o, (line) => process.stderr.write(line + '\n'));
    if (o.out) fs.writeFileSync(o.out, JSON.stringify(result, null, 2) + '\n');
    process.stdout.write(o.json ? JSON.stringify(result) + '\n' : formatTable(result));
    return 0;
  } catch (err) {
    process.stderr.write(`frames-eval: ${err instanceof ModelLoadError ? 'model error: ' : ''}${(err as Error).message}\n`);
    return err instanceof ModelLoadError ? 4 : 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
