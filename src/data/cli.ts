// npm run --silent data -- --seed S --count N --split train|val|test --out DIR [--templates 1..8] [--origins templates|all|ID,...] [--browsers B] [--pages P] [--start I] [--resume] [--all-frames]
// Renders N pairs into DIR and writes DIR/manifest.jsonl in index order (whatever order the
// concurrent pages finish in), so the same arguments always give byte-identical files.
import { mkdir, open, readFile, rm, truncate } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { SPLITS, generatePair, pairId, type PairRecord, type Split } from './generate.js';
import { RenderPage, launchBrowser } from './render.js';
import { DEFAULT_TEMPLATE_SET, TEMPLATE_SETS, type TemplateSet } from './templates.js';
import { TEMPLATES_ORIGIN, originById, originSheet, parseOrigins } from './origins/index.js';
import { integerValue, parseOptions } from '../cli/args.js';

export interface DataOptions {
  seed: number;
  count: number;
  split: Split;
  out: string;
  browsers: number;
  pages: number;
  start: number;
  quiet: boolean;
  /** keep the pairs already in DIR/manifest.jsonl (from a run with the same arguments) and make the rest */
  resume: boolean;
  /** templates.ts TEMPLATE_SETS: each earlier set still remakes the shards made with it */
  templates: TemplateSet;
  /** origins/index.ts: which looks the pairs draw from; default the templates only */
  origins?: string[];
  /** true frames also for add and remove pairs (generate.ts PairOverrides.allFrames) */
  allFrames?: boolean;
}

const USAGE =
  'usage: npm run --silent data -- --seed S --count N --split train|val|test --out DIR [--templates 1|2|3|4|5|6|7|8] [--origins templates|all|ID,...] [--browsers 2] [--pages 2] [--start 0] [--resume] [--all-frames] [--quiet]';

export function parseArgs(argv: string[]): DataOptions {
  const fail = (message: string) => new Error(`${message}\n${USAGE}`);
  const { values } = parseOptions(
    argv,
    {
      seed: { type: 'string' },
      count: { type: 'string' },
      split: { type: 'string' },
      out: { type: 'string' },
      templates: { type: 'string' },
      origins: { type: 'string' },
      browsers: { type: 'string' },
      pages: { type: 'string' },
      start: { type: 'string' },
      quiet: { type: 'boolean' },
      resume: { type: 'boolean' },
      'all-frames': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    { unknown: (arg) => `unknown argument "${arg}"`, error: fail },
  );
  if (values.help) throw new Error(USAGE);
  const int = (name: 'seed' | 'count' | 'browsers' | 'pages' | 'start', min: number, fallback?: number) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = integerValue(raw);
    if (n === undefined || n < min) throw fail(`--${name} must be an integer >= ${min}, got "${raw}"`);
    return n;
  };
  const opts: Partial<DataOptions> = {};
  const seed = int('seed', 0),
    count = int('count', 1);
  if (seed !== undefined) opts.seed = seed;
  if (count !== undefined) opts.count = count;
  if (values.split !== undefined) {
    if (!SPLITS.includes(values.split as Split)) throw fail(`--split must be train, val or test, got "${values.split}"`);
    opts.split = values.split as Split;
  }
  if (values.out !== undefined) opts.out = values.out;
  opts.templates = DEFAULT_TEMPLATE_SET;
  if (values.templates !== undefined) {
    const t = Number(values.templates);
    if (!TEMPLATE_SETS.includes(t as TemplateSet))
      throw fail(`--templates must be one of ${TEMPLATE_SETS.join(', ')}, got "${values.templates}"`);
    opts.templates = t as TemplateSet;
  }
  opts.origins = [TEMPLATES_ORIGIN];
  if (values.origins !== undefined) {
    if (!opts.split) throw fail('--origins needs --split');
    try {
      opts.origins = parseOrigins(values.origins, opts.split);
    } catch (err) {
      throw fail((err as Error).message);
    }
  }
  opts.browsers = int('browsers', 1, 2);
  opts.pages = int('pages', 1, 2);
  opts.start = int('start', 0, 0);
  opts.quiet = values.quiet ?? false;
  opts.resume = values.resume ?? false;
  // only set when given: option objects of runs without it stay as they were
  if (values['all-frames']) opts.allFrames = true;
  for (const required of ['seed', 'count', 'split', 'out'] as const) {
    if (opts[required] === undefined) throw fail(`--${required} is required`);
  }
  return opts as DataOptions;
}

/** Pairs already complete in an existing manifest (for --resume); a torn last line is cut off. */
async function completedPairs(manifestPath: string, opts: DataOptions): Promise<number> {
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    return 0;
  }
  const lines = text.split('\n');
  let done = 0;
  let keepBytes = 0;
  for (const line of lines.slice(0, -1)) {
    let id: string | undefined;
    try {
      id = (JSON.parse(line) as PairRecord).id;
    } catch {
      break;
    }
    if (id !== pairId(opts.split, opts.seed, opts.start + done)) {
      throw new Error(
        `--resume: ${manifestPath} line ${done + 1} is pair ${id}, expected ${pairId(opts.split, opts.seed, opts.start + done)}: not the same --seed/--split/--start`,
      );
    }
    done++;
    keepBytes += Buffer.byteLength(line, 'utf8') + 1;
  }
  await truncate(manifestPath, keepBytes);
  return Math.min(done, opts.count);
}

export async function runData(opts: DataOptions): Promise<{ pairs: number; seconds: number }> {
  const out = path.resolve(opts.out);
  await mkdir(out, { recursive: true });
  const manifestPath = path.join(out, 'manifest.jsonl');
  const already = opts.resume ? await completedPairs(manifestPath, opts) : 0;
  if (!opts.resume) await rm(manifestPath, { force: true });
  const manifest = await open(manifestPath, opts.resume ? 'a' : 'w');
  if (already && !opts.quiet) process.stderr.write(`data: resuming after ${already} pairs already in ${manifestPath}\n`);
  const started = performance.now();
  const browsers: Browser[] = [];
  try {
    // one slot per concurrent page; a slot whose page or browser dies gets a fresh one
    const slots: { browser: number; page: RenderPage }[] = [];
    // every page holds the stylesheets of the run's origins (read once from their packages)
    const origins = opts.origins ?? [TEMPLATES_ORIGIN];
    const sheets = origins.filter((o) => o !== TEMPLATES_ORIGIN).map((o) => originSheet(originById(o)));
    for (let b = 0; b < opts.browsers; b++) {
      const browser = await launchBrowser();
      browsers.push(browser);
      for (let p = 0; p < opts.pages; p++) slots.push({ browser: b, page: await RenderPage.open(browser, sheets) });
    }
    const revive = async (slot: { browser: number; page: RenderPage }) => {
      if (!browsers[slot.browser].isConnected()) browsers[slot.browser] = await launchBrowser();
      slot.page = await RenderPage.open(browsers[slot.browser], sheets);
    };
    // finished records wait here until every earlier index is written
    const done = new Map<number, PairRecord>();
    let nextToWrite = already;
    let nextToTake = already;
    let written = 0;
    const toMake = opts.count - already;
    const flush = async () => {
      while (done.has(nextToWrite)) {
        const rec = done.get(nextToWrite)!;
        done.delete(nextToWrite);
        nextToWrite++;
        await manifest.write(JSON.stringify(rec) + '\n');
        written++;
        if (!opts.quiet && (written % 200 === 0 || written === toMake)) {
          const s = (performance.now() - started) / 1000;
          process.stderr.write(`data: ${already + written}/${opts.count} pairs, ${((written / s) * 60).toFixed(0)} pairs/min\n`);
        }
      }
    };
    let writing = Promise.resolve();
    const worker = async (slot: { browser: number; page: RenderPage }) => {
      while (nextToTake < opts.count) {
        const i = nextToTake++;
        let rec: PairRecord | null = null;
        for (let tries = 0; !rec; tries++) {
          try {
            rec = await generatePair(slot.page, opts.split, opts.seed, opts.start + i, out, {
              templateSet: opts.templates,
              ...(opts.allFrames ? { allFrames: true } : {}),
              ...(origins.length === 1 && origins[0] === TEMPLATES_ORIGIN ? {} : { origins }),
            });
          } catch (err) {
            // a crashed page or browser is replaced; the pair is deterministic, so a retry gives the same bytes
            if (tries >= 2) throw err;
            process.stderr.write(
              `data: pair ${pairId(opts.split, opts.seed, opts.start + i)} failed (${(err as Error).message.split('\n')[0]}); retrying on a fresh page\n`,
            );
            await revive(slot);
          }
        }
        done.set(i, rec);
        writing = writing.then(flush);
        await writing;
      }
    };
    await Promise.all(slots.map(worker));
    await writing;
  } finally {
    await manifest.close();
    await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
  }
  const seconds = (performance.now() - started) / 1000;
  return { pairs: opts.count - already, seconds };
}

async function main(): Promise<void> {
  let opts: DataOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`data: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const { pairs, seconds } = await runData(opts);
  if (!opts.quiet)
    process.stderr.write(
      `data: wrote ${pairs} pairs to ${path.join(opts.out, 'manifest.jsonl')} in ${seconds.toFixed(1)} s (${((pairs / seconds) * 60).toFixed(0)} pairs/min)\n`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`data: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
