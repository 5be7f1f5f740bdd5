// npm run --silent bench -- [--json] [--quick] [--reps N] [--models DIR]
// Where the time goes on this machine: every ProCap stage, end to end to the first caption and to
// the full report, at 512x512, 1920x1080 and 3840x2160 with 1, 3 and 10 changed regions; batch
// throughput; model load; peak RSS; 1 vs 2 threads; CUDA when present; and in the same run the
// baseline, pixelmatch alone on the same pairs. Warm-up first, then medians over repeated runs.
// The pairs are drawn here (flat UI-like screens with cards, bars and text-like stripes).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';
import { CACHE_DIR_ENV } from '../core/model-cache.js';
import { MODEL_NAMES, SessionManager } from '../core/session.js';
import { describe, review } from '../core/pipeline.js';
import { decodePng } from '../core/image.js';
import { diffImages } from '../core/diff.js';
import { findRegions } from '../core/regions.js';
import { sampleContext } from '../core/context.js';
import { motionFeatures } from '../core/motion.js';
import { glyphFeatures } from '../core/glyph.js';
import { Reviewer } from '../core/reviewer.js';
import type { ChangeReport } from '../core/report.js';
import { parseOptions } from '../cli/args.js';
import { threadsPerWorker, WorkerPool } from '../cli/pool.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(here, '..', '..', '..');

interface BenchOptions {
  json: boolean;
  quick: boolean;
  reps: number;
  modelsDir: string;
}

const USAGE = 'usage: npm run --silent bench -- [--json] [--quick] [--reps N] [--models DIR]';

function parse(argv: string[]): BenchOptions {
  const { values: v } = parseOptions(
    argv,
    {
      json: { type: 'boolean' },
      quick: { type: 'boolean' },
      reps: { type: 'string' },
      models: { type: 'string' },
    },
    { error: (message) => new Error(`${message}\n${USAGE}`) },
  );
  const o: BenchOptions = {
    json: v.json ?? false,
    quick: v.quick ?? false,
    reps: v.reps === undefined ? 5 : Math.max(1, Number(v.reps) | 0),
    modelsDir: v.models ?? path.join(REPO_ROOT, 'models'),
  };
  if (o.quick) o.reps = Math.min(o.reps, 2);
  return o;
}

/** A deterministic UI-like screen with `changes` elements that differ between before and after. */
export function syntheticPair(width: number, height: number, changes: number): { before: Buffer; after: Buffer } {
  const draw = (variant: 'before' | 'after') => {
    const png = new PNG({ width, height });
    const d = png.data;
    const fill = (x0: number, y0: number, x1: number, y1: number, r: number, g: number, b: number) => {
      for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) {
        let i = (y * width + Math.max(0, x0)) * 4;
        for (let x = Math.max(0, x0); x < Math.min(width, x1); x++, i += 4) {
          d[i] = r;
          d[i + 1] = g;
          d[i + 2] = b;
          d[i + 3] = 255;
        }
      }
    };
    fill(0, 0, width, height, 246, 247, 249);
    fill(0, 0, width, 48, 36, 41, 56); // header
    // a grid of cards with text-like stripes
    const cols = Math.max(2, Math.floor(width / 320)),
      rows = Math.max(2, Math.floor((height - 60) / 200));
    const cw = Math.floor(width / cols),
      ch = Math.floor((height - 60) / rows);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const x0 = c * cw + 12,
          y0 = 60 + r * ch + 12,
          x1 = (c + 1) * cw - 12,
          y1 = 60 + (r + 1) * ch - 12;
        fill(x0, y0, x1, y1, 255, 255, 255);
        for (let s = 0; s < 4; s++)
          fill(x0 + 16, y0 + 20 + s * 22, x1 - 16 - ((r * 7 + c * 3 + s * 5) % 5) * 20, y0 + 30 + s * 22, 90, 96, 110);
      }
    }
    // the changed elements: buttons spread over the screen; in "after" they move down and change colour
    const grid = Math.ceil(Math.sqrt(changes));
    for (let k = 0; k < changes; k++) {
      const gx = k % grid,
        gy = Math.floor(k / grid);
      const x = Math.floor(((gx + 0.5) * width) / grid) - 50;
      const y = Math.floor(60 + ((gy + 0.5) * (height - 100)) / grid) - 16;
      if (variant === 'before') fill(x, y, x + 100, y + 32, 37, 99, 235);
      else if (k % 2 === 0) fill(x, y + 14, x + 100, y + 46, 37, 99, 235);
      else fill(x, y, x + 100, y + 32, 220, 38, 38);
    }
    return PNG.sync.write(png);
  };
  return { before: draw('before'), after: draw('after') };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const r1 = (x: number) => Number(x.toFixed(1));

interface StageRow {
  size: string;
  changes: number;
  regions: number;
  decode_ms: number;
  diff_ms: number;
  regions_ms: number;
  /** the text reader (OCR of the changed regions, matching, shifts): inside first_caption_ms */
  read_ms: number;
  encoder_ms: number;
  decoder_per_caption_ms: number;
  interpolation_per_frame_ms: number;
  imagined_ms: number;
  first_caption_ms: number;
  /** the report without procedure frames (what the CLI, batch and the PR tree wait for) */
  report_ms: number;
  /** the report with the procedure frames (what the panel's player and an HTML report show) */
  full_report_ms: number;
  /** CPU time (all threads of this process) of one full describe: stable when the machine is shared. */
  full_report_cpu_ms: number;
  pixelmatch_ms: number;
  pixelmatch_with_decode_ms: number;
}

async function measurePair(sessions: SessionManager, width: number, height: number, changes: number, reps: number): Promise<StageRow> {
  const { before, after } = syntheticPair(width, height, changes);
  const runs: { report: ChangeReport; first: number; withoutFrames: number; cpu: number }[] = [];
  for (let i = 0; i < reps + 1; i++) {
    let first = NaN;
    const cpu0 = process.cpuUsage();
    const described = await review(sessions, before, after, {
      onCaptions: (_r, ms) => {
        first = ms;
      },
    });
    const report = await described.withProcedure();
    const cpu = process.cpuUsage(cpu0);
    // run 0 is the warm-up
    if (i > 0) runs.push({ report, first, withoutFrames: described.report.timings.totalMs, cpu: (cpu.user + cpu.system) / 1000 });
  }
  // the baseline: what a plain pixel-diff tool does on the same pair (decode + pixelmatch), and pixelmatch alone
  const pm: number[] = [],
    pmDecode: number[] = [];
  for (let i = 0; i < reps + 1; i++) {
    const t0 = performance.now();
    const a = decodePng(before, 'before'),
      b = decodePng(after, 'after');
    const t1 = performance.now();
    pixelmatch(a.data, b.data, new Uint8Array(a.data.length), width, height, { threshold: 0.1, includeAA: false });
    const t2 = performance.now();
    if (i > 0) {
      pm.push(t2 - t1);
      pmDecode.push(t2 - t0);
    }
  }
  const reg = runs[0].report.regions.filter((r) => !r.noiseOnly).length + (runs[0].report.global ? 1 : 0);
  const t = (f: (x: ChangeReport) => number) => median(runs.map((r) => f(r.report)));
  return {
    size: `${width}x${height}`,
    changes,
    regions: reg,
    decode_ms: r1(t((x) => x.timings.decodeMs)),
    diff_ms: r1(t((x) => x.timings.diffMs)),
    regions_ms: r1(t((x) => x.timings.regionsMs)),
    read_ms: r1(t((x) => x.timings.readMs)),
    encoder_ms: r1(t((x) => x.timings.encodeMs)),
    decoder_per_caption_ms: r1(t((x) => x.timings.decodeCaptionMs) / Math.max(1, reg)),
    interpolation_per_frame_ms: r1(t((x) => x.timings.interpolateMs) / Math.max(1, 7 * reg)),
    imagined_ms: r1(t((x) => x.timings.imagineMs)),
    first_caption_ms: r1(median(runs.map((r) => r.first))),
    report_ms: r1(median(runs.map((r) => r.withoutFrames))),
    full_report_ms: r1(t((x) => x.timings.totalMs)),
    full_report_cpu_ms: r1(median(runs.map((r) => r.cpu))),
    pixelmatch_ms: r1(median(pm)),
    pixelmatch_with_decode_ms: r1(median(pmDecode)),
  };
}

interface ContextRow {
  size: string;
  changes: number;
  regions: number;
  /** all layout-context features of every changed region (inside encoder_ms in the pipeline) */
  context_ms: number;
  /** of which the content-motion search (src/core/motion.ts) */
  motion_ms: number;
  /** of which the glyph measures (src/core/glyph.ts, contract v5) */
  glyph_ms: number;
}

/** The layout context's cost on a pair, split by its two costly parts; medians over reps. */
function measureContext(width: number, height: number, changes: number, reps: number): ContextRow {
  const { before, after } = syntheticPair(width, height, changes);
  const a = decodePng(before, 'before'),
    b = decodePng(after, 'after');
  const boxes = findRegions(diffImages(a, b))
    .regions.filter((r) => !r.noiseOnly)
    .map((r) => r.box);
  const time = (f: () => void) => {
    const runs: number[] = [];
    for (let i = 0; i < reps + 1; i++) {
      const t0 = performance.now();
      f();
      if (i > 0) runs.push(performance.now() - t0);
    }
    return r1(median(runs));
  };
  return {
    size: `${width}x${height}`,
    changes,
    regions: boxes.length,
    context_ms: time(() => boxes.forEach((_, i) => sampleContext(a, b, boxes, boxes, i, width, height))),
    motion_ms: time(() => boxes.forEach((box) => motionFeatures(a, b, box))),
    glyph_ms: time(() => boxes.forEach((box) => glyphFeatures(a, b, box))),
  };
}

/**
 * Runs `work` with a model cache of its own (src/core/model-cache.ts): the bench's sessions and the
 * processes it starts fill it on their first load, and the user's cache neither helps nor is touched.
 * Removed afterwards, whether the bench finished or failed.
 */
async function withOwnModelCache<T>(work: (cacheDir: string) => Promise<T>): Promise<T> {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-bench-cache-'));
  const previous = process.env[CACHE_DIR_ENV];
  process.env[CACHE_DIR_ENV] = cacheDir;
  try {
    return await work(cacheDir);
  } finally {
    if (previous === undefined) delete process.env[CACHE_DIR_ENV];
    else process.env[CACHE_DIR_ENV] = previous;
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function run(o: BenchOptions, benchCache: string): Promise<Record<string, unknown>> {
  const started = performance.now();
  const loadAtStart = os.loadavg()[0];
  // model load: fresh session managers, all the ProCap models, median of 3; without the model cache,
  // then from it (filled by a first load that is not counted)
  const loadAllMs = async (cacheDir: string | false) => {
    const s = new SessionManager({ modelsDir: o.modelsDir, provider: 'cpu', cacheDir });
    const t = performance.now();
    await s.loadAll();
    const ms = performance.now() - t;
    await s.dispose();
    return ms;
  };
  const loads: number[] = [];
  for (let i = 0; i < (o.quick ? 1 : 3); i++) loads.push(await loadAllMs(false));
  await loadAllMs(benchCache);
  const cachedLoads: number[] = [];
  for (let i = 0; i < (o.quick ? 1 : 3); i++) cachedLoads.push(await loadAllMs(benchCache));

  // where the load time goes: each model file alone, one after another, in a fresh manager (median of 3)
  const perModel: Record<string, number[]> = {};
  for (let i = 0; i < (o.quick ? 1 : 3); i++) {
    const s = new SessionManager({ modelsDir: o.modelsDir, provider: 'cpu', cacheDir: false });
    for (const name of MODEL_NAMES) {
      const t = performance.now();
      await s.get(name);
      (perModel[name] ??= []).push(performance.now() - t);
    }
    const t = performance.now();
    if (await s.kindMembers()) (perModel.kind_members ??= []).push(performance.now() - t);
    await s.dispose();
  }
  const loadPerModel = Object.fromEntries(Object.entries(perModel).map(([k, v]) => [k, r1(median(v))]));

  const sessions = new SessionManager({ modelsDir: o.modelsDir, provider: 'auto' });
  await sessions.loadAll();
  const sizes: [number, number][] = o.quick
    ? [
        [512, 512],
        [1920, 1080],
      ]
    : [
        [512, 512],
        [1920, 1080],
        [3840, 2160],
      ];
  const counts = o.quick ? [3] : [1, 3, 10];
  const rows: StageRow[] = [];
  for (const [w, h] of sizes) {
    for (const n of counts) rows.push(await measurePair(sessions, w, h, n, o.reps));
  }
  const hd = rows.find((r) => r.size === '1920x1080' && r.changes === 3) as StageRow;
  // the large pages of one change: a 4K screen and a tall full-page capture
  const uhd = rows.find((r) => r.size === '3840x2160' && r.changes === 1) ?? (await measurePair(sessions, 3840, 2160, 1, o.reps));
  const tall = await measurePair(sessions, 1280, 12000, 1, o.reps);
  for (const row of [uhd, tall]) if (!rows.includes(row)) rows.push(row);

  // batch throughput: 1080p pairs with 3 changes, one after another: with frames (as `procap batch
  // --html`) and without (as `procap batch` with JSON, Markdown or JUnit reports)
  const batchPairs = Array.from({ length: o.quick ? 3 : 12 }, (_, i) => syntheticPair(1920, 1080 + 8 * i, 3));
  let t = performance.now();
  for (const p of batchPairs) await describe(sessions, p.before, p.after);
  const pairsPerMinute = (batchPairs.length * 60_000) / (performance.now() - t);
  t = performance.now();
  for (const p of batchPairs) await describe(sessions, p.before, p.after, { procedure: false });
  const pairsPerMinuteNoFrames = (batchPairs.length * 60_000) / (performance.now() - t);
  const providerReport = { provider: sessions.provider, reason: sessions.providerReason };
  await sessions.dispose();

  // the same pairs on a pool of 2 workers (as `procap batch --jobs 2`), each warmed up first
  const pool = new WorkerPool(2, { modelsDir: o.modelsDir, provider: 'auto', threads: threadsPerWorker(2) });
  const warm = syntheticPair(1920, 1080, 3);
  await Promise.all([0, 1].map(() => pool.run(warm.before, warm.after, { procedure: false })));
  t = performance.now();
  await Promise.all(batchPairs.map((p) => pool.run(p.before, p.after, { procedure: false })));
  const pairsPerMinuteNoFramesJobs2 = (batchPairs.length * 60_000) / (performance.now() - t);
  await pool.dispose();

  // 1 vs 2 threads on the 1080p / 3 changes pair
  const threads: Record<string, { first_caption_ms: number; full_report_ms: number }> = {};
  for (const n of [1, 2]) {
    const s = new SessionManager({ modelsDir: o.modelsDir, provider: 'cpu', threads: n });
    await s.loadAll();
    const row = await measurePair(s, 1920, 1080, 3, o.reps);
    threads[`threads_${n}`] = { first_caption_ms: row.first_caption_ms, full_report_ms: row.full_report_ms };
    await s.dispose();
  }

  // through the Reviewer (worker thread), as the extension calls it
  const reviewer = new Reviewer({ modelsDir: o.modelsDir, provider: 'cpu' });
  await reviewer.warmUp();
  const pair = syntheticPair(1920, 1080, 3);
  const viaWorker: number[] = [],
    viaWorkerFirst: number[] = [];
  for (let i = 0; i < o.reps + 1; i++) {
    const t0 = performance.now();
    let first = NaN;
    await reviewer.describe(pair.before, pair.after, {
      onCaptions: () => {
        first = performance.now() - t0;
      },
    });
    if (i > 0) {
      viaWorker.push(performance.now() - t0);
      viaWorkerFirst.push(first);
    }
  }
  // cancellation: abort as soon as the captions exist (the frames are still being computed) and
  // measure how long the worker takes to stop
  const stops: number[] = [];
  for (let i = 0; i < Math.max(2, o.reps); i++) {
    const controller = new AbortController();
    await reviewer
      .describe(pair.before, pair.after, { signal: controller.signal, onCaptions: () => controller.abort() })
      .catch(() => undefined);
    await reviewer.describe(pair.before, pair.after, { procedure: false }); // waits until the cancelled one stopped
    if (reviewer.lastCancel) stops.push(reviewer.lastCancel.stopMs);
  }
  await reviewer.dispose();

  // the region analysis alone on the 1080p pair (pure pixel side, for reference)
  const a = decodePng(pair.before, 'a'),
    b = decodePng(pair.after, 'b');
  const d = diffImages(a, b);
  const regionCount = findRegions(d).regions.length;
  const contextRows = (
    o.quick
      ? [[1920, 1080, 3]]
      : [
          [1920, 1080, 3],
          [1920, 1080, 10],
          [3840, 2160, 10],
        ]
  ).map(([w, h, n]) => measureContext(w, h, n, o.reps));

  const coldStarts = coldStartMs(o.modelsDir, o.quick ? 2 : 3);
  const odiff = odiffMs(o.quick ? 2 : 3);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const describeRss = childPeakRss(o.modelsDir, o.quick ? 2 : 5);
  return {
    machine: {
      load_average_1m_at_start: Number(loadAtStart.toFixed(1)),
      load_average_1m_at_end: Number(os.loadavg()[0].toFixed(1)),
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? 'unknown',
      memory_gb: Number((os.totalmem() / 2 ** 30).toFixed(1)),
      node: process.version,
    },
    reps: o.reps,
    quick: o.quick,
    first_caption_ms_1080p: hd.first_caption_ms,
    full_report_ms_1080p: hd.full_report_ms,
    pixelmatch_ms_1080p: hd.pixelmatch_with_decode_ms,
    pixelmatch_only_ms_1080p: hd.pixelmatch_ms,
    ratio_first_caption_vs_pixelmatch: Number((hd.first_caption_ms / hd.pixelmatch_with_decode_ms).toFixed(2)),
    report_no_frames_ms_1080p: hd.report_ms,
    ratio_report_no_frames_vs_pixelmatch: Number((hd.report_ms / hd.pixelmatch_with_decode_ms).toFixed(2)),
    ratio_full_report_vs_pixelmatch: Number((hd.full_report_ms / hd.pixelmatch_with_decode_ms).toFixed(2)),
    report_no_frames_ms_4k_one_change: uhd.report_ms,
    full_report_ms_4k_one_change: uhd.full_report_ms,
    report_no_frames_ms_1280x12000_one_change: tall.report_ms,
    full_report_ms_1280x12000_one_change: tall.full_report_ms,
    cold_start_first_caption_ms: r1(median(coldStarts.warm)),
    cold_start_no_model_cache_ms: r1(median(coldStarts.off)),
    cold_start_empty_model_cache_ms: r1(coldStarts.emptyCache),
    cold_start_malloc_huge_pages_ms: r1(median(coldStarts.hugePages)),
    // odiff (native, odiff-bin), whole process from spawn to exit, on the same pairs: null where it is not installed
    odiff_ms_1080p: odiff ? r1(median(odiff.hd)) : null,
    odiff_ms_1280x12000_one_change: odiff ? r1(median(odiff.tall)) : null,
    reviewer_first_caption_ms_1080p: r1(median(viaWorkerFirst)),
    reviewer_full_report_ms_1080p: r1(median(viaWorker)),
    cancel_stop_ms_median: stops.length ? r1(median(stops)) : null,
    cancel_stop_ms_max: stops.length ? r1(Math.max(...stops)) : null,
    pairs_per_minute: r1(pairsPerMinute),
    pairs_per_minute_no_frames: r1(pairsPerMinuteNoFrames),
    pairs_per_minute_no_frames_jobs_2: r1(pairsPerMinuteNoFramesJobs2),
    model_load_ms: r1(median(loads)),
    model_load_cached_ms: r1(median(cachedLoads)),
    model_load_sequential_ms: loadPerModel,
    peak_rss_mb: describeRss,
    bench_process_peak_rss_mb: r1(peakRssMb),
    threads,
    provider: providerReport,
    cuda: providerReport.provider === 'cuda' ? 'measured above (provider cuda)' : `not available: ${providerReport.reason}`,
    regions_1080p_pair: regionCount,
    stages: rows,
    layout_context: contextRows,
    seconds: r1((performance.now() - started) / 1000),
  };
}

/**
 * GLIBC_TUNABLES with glibc's malloc asked for transparent huge pages (glibc 2.35 and later on Linux;
 * elsewhere the variable is ignored): far fewer page faults where a first touch of memory is costly,
 * as in a virtual machine (docs/CLI.md, "Speed on Linux").
 */
export function withHugePageMalloc(tunables: string | undefined): string {
  const kept = (tunables ?? '').split(':').filter((t) => t && !t.startsWith('glibc.malloc.hugetlb='));
  return [...kept, 'glibc.malloc.hugetlb=1'].join(':');
}

/**
 * Wall time of fresh `procap describe --json` processes on the 1080p / 3-change pair, from spawn to
 * exit: Node's start, the imports, the models' load and a first (cold) describe without frames, as a
 * user running the CLI once waits for it. With a model cache of the bench's own (src/core/model-cache.ts):
 * the first process fills it (`emptyCache`, what the first run on a machine costs), the others load
 * from it (`warm`, every run after), alternating with processes that run without it (`off`) and with
 * processes that load from it with glibc's malloc on transparent huge pages (`hugePages`).
 */
function coldStartMs(modelsDir: string, count: number): { warm: number[]; off: number[]; emptyCache: number; hugePages: number[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-bench-cold-'));
  const cache = path.join(dir, 'model-cache');
  try {
    const p = syntheticPair(1920, 1080, 3);
    fs.writeFileSync(path.join(dir, 'before.png'), p.before);
    fs.writeFileSync(path.join(dir, 'after.png'), p.after);
    const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url));
    const args = [
      cli,
      'describe',
      path.join(dir, 'before.png'),
      path.join(dir, 'after.png'),
      '--json',
      '--provider',
      'cpu',
      '--models',
      modelsDir,
    ];
    const timed = (cacheDir: string, env: NodeJS.ProcessEnv = {}) => {
      const t = performance.now();
      const run = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env, [CACHE_DIR_ENV]: cacheDir } });
      if (run.status !== 0) throw new Error(`cold start: procap describe failed: ${run.stderr.slice(-1000)}`);
      return performance.now() - t;
    };
    const emptyCache = timed(cache);
    const warm: number[] = [];
    const off: number[] = [];
    const hugePages: number[] = [];
    for (let i = 0; i < count; i++) {
      warm.push(timed(cache));
      off.push(timed('off'));
      hugePages.push(timed(cache, { GLIBC_TUNABLES: withHugePageMalloc(process.env.GLIBC_TUNABLES) }));
    }
    return { warm, off, emptyCache, hugePages };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Wall time of the odiff binary (`npm install --no-save odiff-bin` installs the native build of the
 * platform; not a dependency, see BENCHMARKS.md) comparing the 1080p / 3-change pair and the 1280x12000 / 1-change page, spawn to
 * exit: the fastest pixel-diff tool, as a yardstick for `cold_start_first_caption_ms`. Undefined
 * where odiff-bin is not installed or has no binary for this platform.
 */
function odiffMs(count: number): { hd: number[]; tall: number[] } | undefined {
  let binary: string;
  try {
    const required = createRequire(import.meta.url)('odiff-bin/binary') as { findBinary(): string };
    binary = required.findBinary();
  } catch {
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-bench-odiff-'));
  try {
    const times = (w: number, h: number, changes: number): number[] => {
      const p = syntheticPair(w, h, changes);
      const [a, b, out] = ['before.png', 'after.png', 'diff.png'].map((f) => path.join(dir, `${w}x${h}-${f}`));
      fs.writeFileSync(a, p.before);
      fs.writeFileSync(b, p.after);
      const runs: number[] = [];
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        const run = spawnSync(binary, [a, b, out], { encoding: 'utf8' });
        // odiff exits 0 for same images, 22 for different ones
        if (run.error || (run.status !== 0 && run.status !== 22)) throw new Error(`odiff failed: ${run.error?.message ?? run.stderr}`);
        runs.push(performance.now() - t);
      }
      return runs;
    };
    return { hd: times(1920, 1080, 3), tall: times(1280, 12000, 1) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Peak RSS of a fresh process that loads the models and describes the 1080p / 3-change pair
 * `count` times with full reports: the footprint of the CLI or of the extension's worker (its
 * VmHWM on Linux, getrusage elsewhere).
 */
function childPeakRss(modelsDir: string, count: number): number {
  const url = (rel: string) => JSON.stringify(new URL(`../${rel}`, import.meta.url).href);
  const script = `
    const { SessionManager } = await import(${url('core/session.js')});
    const { describe } = await import(${url('core/pipeline.js')});
    const { syntheticPair } = await import(${url('lab/bench.js')});
    const s = new SessionManager({ modelsDir: ${JSON.stringify(modelsDir)}, provider: 'cpu' });
    const p = syntheticPair(1920, 1080, 3);
    for (let i = 0; i < ${count}; i++) await describe(s, p.before, p.after);
    await s.dispose();
    // VmHWM: this program's own peak. getrusage's maxRSS starts at the parent's peak on Linux (it is
    // inherited through fork and kept across exec), so beside a large bench process it says nothing
    const { readFileSync } = await import('node:fs');
    let kb = process.resourceUsage().maxRSS;
    try { kb = Number(/VmHWM:\\s*(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]); } catch {}
    console.log(JSON.stringify({ maxRss: kb }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`peak RSS child failed: ${run.stderr.slice(-1000)}`);
  return r1(JSON.parse(run.stdout.trim().split('\n').pop() as string).maxRss / 1024);
}

function table(result: Record<string, unknown>): string {
  const rows = result.stages as StageRow[];
  const cols: (keyof StageRow)[] = [
    'size',
    'changes',
    'regions',
    'decode_ms',
    'diff_ms',
    'regions_ms',
    'encoder_ms',
    'decoder_per_caption_ms',
    'interpolation_per_frame_ms',
    'imagined_ms',
    'first_caption_ms',
    'report_ms',
    'full_report_ms',
    'full_report_cpu_ms',
    'pixelmatch_with_decode_ms',
    'pixelmatch_ms',
  ];
  const lines = [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${cols.map((c) => String(r[c])).join(' | ')} |`);
  const rest = Object.entries(result)
    .filter(([k]) => k !== 'stages' && k !== 'layout_context')
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  const ctx = result.layout_context as ContextRow[];
  const ctxLines = [
    '',
    '| size | changes | regions | context_ms | motion_ms | glyph_ms |',
    '|---|---|---|---|---|---|',
    ...ctx.map((r) => `| ${r.size} | ${r.changes} | ${r.regions} | ${r.context_ms} | ${r.motion_ms} | ${r.glyph_ms} |`),
  ];
  return [...lines, ...ctxLines, '', ...rest].join('\n');
}

async function main(): Promise<number> {
  let o: BenchOptions;
  try {
    o = parse(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const result = await withOwnModelCache((cacheDir) => run(o, cacheDir));
    process.stdout.write((o.json ? JSON.stringify(result, null, 2) : table(result)) + '\n');
    return 0;
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).stack ?? err}\n`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then((code) => {
    process.exitCode = code;
  });
}
