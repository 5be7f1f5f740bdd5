// npm run --silent eval -- --split test --count N [--seed S] [--beam W] [--json] [--data DIR] [--keep] [--samples FILE]
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
import { captionWords, ciderCeiling, ciderD, scoreCaptions, type CaptionSample } from '../core/metrics.js';
import type { PairSample } from './compare.js';
import { describe as describePair, DEFAULT_BEAM_WIDTH, NO_CHANGE_CAPTION, NONE_MIN_PROBABILITY } from '../core/pipeline.js';
import { boxArea, globalKindOf, isBox, reflowShiftOf, regionMatchesChange, withInk } from './crops.js';
import { readPngFile } from '../core/image.js';
import type { Box, ChangeRegion, ChangeReport } from '../core/report.js';
import { similarity } from '../core/read/correspond.js';
import { integerValue, parseOptions } from '../cli/args.js';

const USAGE =
  'usage: npm run --silent eval -- --split test|val|train --count N [--seed S] [--beam W] [--provider auto|cpu|cuda] [--threads N] [--models DIR] [--data DIR] [--none-min P] [--no-read] [--keep] [--samples FILE] [--json]';

interface ManifestChange {
  kind: string;
  from?: string | null;
  to?: string | null;
  bbox_before: Box | null;
  bbox_after: Box | null;
  ink_before?: Box | null;
  ink_after?: Box | null;
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
  noneMin?: number;
  keep: boolean;
  json: boolean;
  /** describe without the text reader (the models' captions alone), to compare */
  noRead: boolean;
  /** where to write one line per pair (summary, CIDEr-D, kinds) for `npm run compare` */
  samplesFile?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(here, '..', '..', '..');

function parse(argv: string[]): EvalOptions {
  const fail = (message: string) => new Error(`${message}\n${USAGE}`);
  const { values: v } = parseOptions(
    argv,
    {
      split: { type: 'string' },
      count: { type: 'string' },
      seed: { type: 'string' },
      beam: { type: 'string' },
      provider: { type: 'string' },
      threads: { type: 'string' },
      models: { type: 'string' },
      data: { type: 'string' },
      'none-min': { type: 'string' },
      samples: { type: 'string' },
      keep: { type: 'boolean' },
      'no-read': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    { error: fail },
  );
  const int = (name: string, text: string | undefined, min: number) => {
    if (text === undefined) return undefined;
    const n = integerValue(text);
    if (n === undefined || n < min) throw fail(`${name} must be an integer >= ${min} (got ${text})`);
    return n;
  };
  const o: Partial<EvalOptions> = {
    split: v.split ?? 'test',
    count: int('--count', v.count, 1),
    seed: int('--seed', v.seed, 0) ?? 424242,
    beam: int('--beam', v.beam, 1) ?? DEFAULT_BEAM_WIDTH,
    provider: (v.provider ?? 'auto') as ProviderChoice,
    threads: int('--threads', v.threads, 1),
    modelsDir: v.models ?? path.join(REPO_ROOT, 'models'),
    dataDir: v.data,
    noneMin: v['none-min'] === undefined ? undefined : Number(v['none-min']),
    keep: v.keep ?? false,
    noRead: v['no-read'] ?? false,
    samplesFile: v.samples,
    json: v.json ?? false,
  };
  if (!['train', 'val', 'test'].includes(o.split as string)) throw new Error(`--split must be train, val or test\n${USAGE}`);
  if (o.count === undefined && !o.dataDir) throw new Error(`--count is required\n${USAGE}`);
  if (o.samplesFile !== undefined) {
    // checked before any work: the file is written at the end of a run that can take an hour
    if (fs.existsSync(o.samplesFile))
      throw new Error(`--samples ${o.samplesFile}: the file exists; remove it or name another (eval does not overwrite it)`);
    if (!fs.existsSync(path.dirname(path.resolve(o.samplesFile)))) throw new Error(`--samples ${o.samplesFile}: its folder does not exist`);
  }
  return o as EvalOptions;
}

function generate(options: EvalOptions, outDir: string): void {
  const cli = path.join(REPO_ROOT, 'dist', 'src', 'data', 'cli.js');
  if (!fs.existsSync(cli)) throw new Error(`${cli}: the data engine is not built (npm run build)`);
  const run = spawnSync(
    process.execPath,
    [cli, '--seed', String(options.seed), '--count', String(options.count), '--split', options.split, '--out', outDir, '--quiet'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (run.status !== 0) throw new Error(`the data engine failed (exit ${run.status}): ${(run.stderr || run.stdout).trim().slice(-2000)}`);
}

function readManifest(dir: string): ManifestPair[] {
  const file = path.join(dir, 'manifest.jsonl');
  if (!fs.existsSync(file)) throw new Error(`${file}: no manifest (was the data generated?)`);
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

/**
 * The model samples of one pair with their labelled and predicted kinds, labelled exactly as the
 * training crops are (src/lab/crops.ts, used by training/evaluate.py): the whole-screen sample
 * gets the pair's kind; a region gets the kind of the first change record it matches, else reflow
 * when it overlaps elements the change pushed aside (the manifest's reflowed list), else none;
 * noise-only regions are not model samples, and neither is anything in a pair where nothing was
 * detected (the runtime says "no visible change" there without running the model; the crops CLI
 * writes a "fallback" training crop for such pairs, which the runtime never sees). Each sample also
 * says which REGION_GROUPS group it is in (regionGroup).
 */
export function kindSamples(pair: ManifestPair, report: ChangeReport): KindSample[] {
  if (report.global) return [{ truth: globalKindOf(pair), predicted: report.global.kind, group: 'whole_screen' }];
  const regions = report.regions.filter((r: ChangeRegion) => !r.noiseOnly);
  return regions.map((r) => {
    const matches = pair.changes.filter((c) => regionMatchesChange(r.boxBefore, c as never));
    const truth = matches.length ? matches[0].kind : reflowShiftOf(r.boxBefore, pair) ? 'reflow' : 'none';
    return { truth, predicted: r.kind, group: regionGroup(r.boxBefore, matches) };
  });
}

/**
 * What a model sample holds, by the change records it matches (`kind_accuracy_by_region`): one change
 * (one_change), one change in a region more than PUSHED_AREA_FACTOR times the change's own box (the
 * change merged with the content it pushed along: change_and_pushed), several changes merged into one
 * region (several_changes; labelled by the first, as the training crops are), none (no_change_record:
 * reflow or noise), or the whole-screen sample. Why: the kind head errs most on merged regions, and
 * a figure per group says whether a model got better at them or at the plain ones.
 */
export const REGION_GROUPS = ['one_change', 'change_and_pushed', 'several_changes', 'no_change_record', 'whole_screen'] as const;
export type RegionGroup = (typeof REGION_GROUPS)[number];
export interface KindSample {
  truth: string;
  predicted: string;
  group?: RegionGroup;
}

/** A region at most this many times the area of its one change's box (before and after boxes together) is that change. */
export const PUSHED_AREA_FACTOR = 3;

/** The REGION_GROUPS group of a region (not whole-screen) box that matches the change records `matches`. */
export function regionGroup(box: Box, matches: ManifestChange[]): RegionGroup {
  if (matches.length === 0) return 'no_change_record';
  if (matches.length > 1) return 'several_changes';
  const boxes = [matches[0].bbox_before, matches[0].bbox_after].filter(isBox); // the boxes regionMatchesChange reads
  if (!boxes.length) return 'one_change';
  const union: Box = [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
  return boxArea(box) > PUSHED_AREA_FACTOR * boxArea(union) ? 'change_and_pushed' : 'one_change';
}

export interface KindTally {
  total: number;
  correct: number;
  /** per labelled kind: its samples and how many were predicted right */
  perKind: Record<string, { total: number; correct: number }>;
  /** the mistakes only: labelled kind -> predicted kind -> count (what to look at to improve a kind) */
  confusion: Record<string, Record<string, number>>;
  /** per REGION_GROUPS group (samples that carry one): its samples and how many were predicted right */
  perGroup: Partial<Record<RegionGroup, { total: number; correct: number }>>;
}

/** Adds one pair's model samples to the running kind counts. */
export function tallyKinds(tally: KindTally, samples: KindSample[]): KindTally {
  for (const { truth, predicted, group } of samples) {
    tally.total++;
    const k = (tally.perKind[truth] ??= { total: 0, correct: 0 });
    k.total++;
    const g = group ? (tally.perGroup[group] ??= { total: 0, correct: 0 }) : undefined;
    if (g) g.total++;
    if (truth === predicted) {
      tally.correct++;
      k.correct++;
      if (g) g.correct++;
    } else {
      const row = (tally.confusion[truth] ??= {});
      row[predicted] = (row[predicted] ?? 0) + 1;
    }
  }
  return tally;
}

/** The confusion rows sorted by kind, each row's mistakes most frequent first. */
export function sortedConfusion(confusion: KindTally['confusion']): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.keys(confusion)
      .sort()
      .map((truth) => [
        truth,
        Object.fromEntries(Object.entries(confusion[truth]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
      ]),
  );
}

/** How often the report quotes a text change's words exactly (src/core/read/: ChangeRegion.text). */
export interface QuoteTally {
  /** text changes with literal old and new text in the manifest */
  changes: number;
  newExact: number;
  oldExact: number;
  bothExact: number;
  /** sum over changes of the best 1 - (edit distance / length) between the new text and a region's after text */
  charAccuracy: number;
}

const squash = (t: string) => t.replace(/\s+/g, ' ').trim();

/** Adds one pair's text changes: is the new (old) text quoted exactly by some region of the report? */
export function tallyQuotes(tally: QuoteTally, pair: ManifestPair, report: ChangeReport): QuoteTally {
  const regions = report.regions.filter((r) => !r.noiseOnly && r.text);
  for (const c of pair.changes) {
    if (c.kind !== 'text' || typeof c.from !== 'string' || typeof c.to !== 'string') continue;
    tally.changes++;
    const to = squash(c.to),
      from = squash(c.from);
    const newExact = regions.some((r) => r.text?.after !== undefined && squash(r.text.after) === to);
    const oldExact = regions.some((r) => r.text?.before !== undefined && squash(r.text.before) === from);
    if (newExact) tally.newExact++;
    if (oldExact) tally.oldExact++;
    if (
      regions.some(
        (r) => r.text?.after !== undefined && r.text.before !== undefined && squash(r.text.after) === to && squash(r.text.before) === from,
      )
    )
      tally.bothExact++;
    tally.charAccuracy += Math.max(0, ...regions.map((r) => (r.text?.after !== undefined ? similarity(squash(r.text.after), to) : 0)));
  }
  return tally;
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
  const pairSamples: PairSample[] = [];
  let noneTotal = 0,
    noneHit = 0;
  const kinds: KindTally = { total: 0, correct: 0, perKind: {}, confusion: {}, perGroup: {} };
  const quotes: QuoteTally = { changes: 0, newExact: 0, oldExact: 0, bothExact: 0, charAccuracy: 0 };
  const describeStart = performance.now();
  try {
    for (const pair of pairs) {
      const report = await describePair(sessions, path.join(dataDir, pair.before), path.join(dataDir, pair.after), {
        beamWidth: options.beam,
        procedure: false,
        noneMinProbability: options.noneMin,
        read: !options.noRead,
      });
      tallyQuotes(quotes, pair, report);
      // scored as caption words: the reader's quotes and punctuation are not words of the references
      samples.push({ candidate: captionWords(report.summary), references: pair.captions });
      const trulyNone = pair.changes.every((c) => c.kind === 'none');
      if (trulyNone) {
        noneTotal++;
        if (report.summary === NO_CHANGE_CAPTION) noneHit++;
      }
      // labelled as the training crops are: the changes' boxes and the boxes of their visible pixels
      const inked = withInk(pair.changes, readPngFile(path.join(dataDir, pair.before)), readPngFile(path.join(dataDir, pair.after)));
      const pairKinds = kindSamples({ ...pair, changes: inked as ManifestChange[] }, report);
      tallyKinds(kinds, pairKinds);
      pairSamples.push({ pair: pair.id, summary: report.summary, cider: 0, kinds: pairKinds });
    }
  } finally {
    await sessions.dispose();
  }
  const describeSeconds = (performance.now() - describeStart) / 1000;
  const scores = scoreCaptions(samples);
  if (options.samplesFile) {
    const perPair = ciderD(samples).perSample;
    const lines = pairSamples.map((p, i) => JSON.stringify({ ...p, cider: perPair[i] * 100 }));
    fs.writeFileSync(options.samplesFile, lines.join('\n') + '\n');
  }
  if (!options.keep && !options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  const round = (x: number, d = 4) => Number(x.toFixed(d));
  return {
    split: options.split,
    seed: options.seed,
    count: samples.length,
    beam: options.beam,
    none_min_probability: options.noneMin ?? NONE_MIN_PROBABILITY,
    cider: round(scores.cider, 2),
    cider_ceiling: round(ciderCeiling(samples.map((s) => s.references)), 2),
    bleu4: round(scores.bleu4),
    rougeL: round(scores.rougeL),
    kind_accuracy: kinds.total ? round(kinds.correct / kinds.total) : null,
    nochange_recall: noneTotal ? round(noneHit / noneTotal) : null,
    nochange_pairs: noneTotal,
    per_kind_accuracy: Object.fromEntries(
      Object.entries(kinds.perKind)
        .sort()
        .map(([k, v]) => [k, { count: v.total, accuracy: round(v.correct / v.total) }]),
    ),
    kind_confusion: sortedConfusion(kinds.confusion),
    text_quotes: quotes.changes
      ? {
          changes: quotes.changes,
          new_exact: round(quotes.newExact / quotes.changes),
          old_exact: round(quotes.oldExact / quotes.changes),
          both_exact: round(quotes.bothExact / quotes.changes),
          new_char_accuracy: round(quotes.charAccuracy / quotes.changes),
        }
      : null,
    read: !options.noRead,
    kind_accuracy_by_region: Object.fromEntries(
      REGION_GROUPS.filter((g) => kinds.perGroup[g]).map((g) => {
        const v = kinds.perGroup[g]!;
        return [g, { count: v.total, accuracy: round(v.correct / v.total) }];
      }),
    ),
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
      for (const [k, v] of Object.entries(result))
        process.stdout.write(`${k.padEnd(20)} ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`eval: ${err instanceof ModelLoadError ? 'model error: ' : ''}${(err as Error).message}\n`);
    return err instanceof ModelLoadError ? 4 : 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
