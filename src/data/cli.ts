// npm run --silent data -- --seed S --count N --split train|val|test --out DIR [--browsers B] [--pages P] [--start I]
// Renders N pairs into DIR and writes DIR/manifest.jsonl in index order (whatever order the
// concurrent pages finish in), so the same arguments always give byte-identical files.
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { SPLITS, generatePair, type PairRecord, type Split } from './generate.js';
import { RenderPage, launchBrowser } from './render.js';

export interface DataOptions {
  seed: number;
  count: number;
  split: Split;
  out: string;
  browsers: number;
  pages: number;
  start: number;
  quiet: boolean;
}

const USAGE = 'usage: npm run --silent data -- --seed S --count N --split train|val|test --out DIR [--browsers 2] [--pages 2] [--start 0] [--quiet]';

export function parseArgs(argv: string[]): DataOptions {
  const opts: Partial<DataOptions> = { browsers: 2, pages: 2, start: 0, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    const int = (name: string, min: number) => {
      const raw = value();
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"\n${USAGE}`);
      return n;
    };
    switch (arg) {
      case '--seed': opts.seed = int('--seed', 0); break;
      case '--count': opts.count = int('--count', 1); break;
      case '--split': {
        const s = value();
        if (!SPLITS.includes(s as Split)) throw new Error(`--split must be train, val or test, got "${s}"\n${USAGE}`);
        opts.split = s as Split;
        break;
      }
      case '--out': opts.out = value(); break;
      case '--browsers': opts.browsers = int('--browsers', 1); break;
      case '--pages': opts.pages = int('--pages', 1); break;
      case '--start': opts.start = int('--start', 0); break;
      case '--quiet': opts.quiet = true; break;
      case '--help': case '-h': throw new Error(USAGE);
      default: throw new Error(`unknown argument "${arg}"\n${USAGE}`);
    }
  }
  for (const required of ['seed', 'count', 'split', 'out'] as const) {
    if (opts[required] === undefined) throw new Error(`--${required} is required\n${USAGE}`);
  }
  return opts as DataOptions;
}

export async function runData(opts: DataOptions): Promise<{ pairs: number; seconds: number }> {
  const out = path.resolve(opts.out);
  await mkdir(out, { recursive: true });
  const manifestPath = path.join(out, 'manifest.jsonl');
  await rm(manifestPath, { force: true });
  const manifest = await open(manifestPath, 'w');
  const started = performance.now();
  const browsers: Browser[] = [];
  try {
    const pages: RenderPage[] = [];
    for (let b = 0; b < opts.browsers; b++) {
      const browser = await launchBrowser();
      browsers.push(browser);
      for (let p = 0; p < opts.pages; p++) pages.push(await RenderPage.open(browser));
    }
    // finished records wait here until every earlier index is written
    const done = new Map<number, PairRecord>();
    let nextToWrite = 0;
    let nextToTake = 0;
    let written = 0;
    const flush = async () => {
      while (done.has(nextToWrite)) {
        const rec = done.get(nextToWrite)!;
        done.delete(nextToWrite);
        nextToWrite++;
        await manifest.write(JSON.stringify(rec) + '\n');
        written++;
        if (!opts.quiet && (written % 200 === 0 || written === opts.count)) {
          const s = (performance.now() - started) / 1000;
          process.stderr.write(`data: ${written}/${opts.count} pairs, ${(written / s * 60).toFixed(0)} pairs/min\n`);
        }
      }
    };
    let writing = Promise.resolve();
    const worker = async (page: RenderPage) => {
      while (nextToTake < opts.count) {
        const i = nextToTake++;
        const rec = await generatePair(page, opts.split, opts.seed, opts.start + i, out);
        done.set(i, rec);
        writing = writing.then(flush);
        await writing;
      }
    };
    await Promise.all(pages.map(worker));
    await writing;
  } finally {
    await manifest.close();
    await Promise.all(browsers.map((b) => b.close()));
  }
  const seconds = (performance.now() - started) / 1000;
  return { pairs: opts.count, seconds };
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
  if (!opts.quiet) process.stderr.write(`data: wrote ${pairs} pairs to ${path.join(opts.out, 'manifest.jsonl')} in ${seconds.toFixed(1)} s (${(pairs / seconds * 60).toFixed(0)} pairs/min)\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`data: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
