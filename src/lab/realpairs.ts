// npm run --silent realpairs -- [--dir DIR] [--json] [--provider auto|cpu|cuda] [--models DIR] [--only NAME,...] [--no-read]
// Describes every real screenshot pair under DIR (default ../shared/realpairs: folders holding
// before.png, after.png and meta.json) with the shipped runtime, exactly as the CLI does, and scores
// each pair's `checks` (the format is in that folder's README): per pair pass/fail with the reason,
// then the total. Exit 0 whatever the score (it is a measurement, not a gate); 2 for bad arguments.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SessionManager, type ProviderChoice } from '../core/session.js';
import { describe as describePair } from '../core/pipeline.js';
import type { ChangeReport } from '../core/report.js';
import { parseOptions } from '../cli/args.js';

const USAGE =
  'usage: npm run --silent realpairs -- [--dir DIR] [--json] [--provider auto|cpu|cuda] [--models DIR] [--only NAME,...] [--no-read]';
const here = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(here, '..', '..', '..');

/** A pair's automatic acceptance test (../shared/realpairs/README.md). */
export interface PairChecks {
  /** true: some region of a kind other than "none" must be reported; false: none may be; null: either. */
  change: boolean | null;
  /** each inner list needs one case-insensitive match over the summary and the changed regions' captions. */
  all: string[][];
  /** none of these may match there. */
  none: string[];
}

export interface CheckResult {
  pass: boolean;
  /** why it failed (empty when it passed). */
  reasons: string[];
}

/** The text the checks read: the summary plus the caption of every reported region whose kind is not "none". */
export function checkedText(report: Pick<ChangeReport, 'summary' | 'regions' | 'global'>): { text: string; changedRegions: number } {
  const regions = [...report.regions, ...(report.global ? [report.global] : [])].filter((r) => r.kind !== 'none' && !r.noiseOnly);
  return { text: [report.summary, ...regions.map((r) => r.caption)].join('\n'), changedRegions: regions.length };
}

/** Scores one report against one pair's checks. */
export function scoreChecks(report: Pick<ChangeReport, 'summary' | 'regions' | 'global'>, checks: PairChecks): CheckResult {
  const { text, changedRegions } = checkedText(report);
  const reasons: string[] = [];
  if (checks.change === true && changedRegions === 0) reasons.push('expected a change, none reported');
  if (checks.change === false && changedRegions > 0) reasons.push(`expected no change, ${changedRegions} changed region(s) reported`);
  for (const alternatives of checks.all ?? []) {
    if (!alternatives.some((re) => new RegExp(re, 'i').test(text))) reasons.push(`no match for /${alternatives.join('|')}/`);
  }
  for (const re of checks.none ?? []) {
    if (new RegExp(re, 'i').test(text)) reasons.push(`forbidden match /${re}/`);
  }
  return { pass: reasons.length === 0, reasons };
}

/** Reads and validates a pair's checks from its meta.json. */
export function readChecks(metaFile: string): PairChecks {
  const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as { checks?: unknown };
  const c = meta.checks as Partial<PairChecks> | undefined;
  const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
  if (!c || typeof c !== 'object') throw new Error(`${metaFile}: no "checks" object`);
  if (!(c.change === true || c.change === false || c.change === null))
    throw new Error(`${metaFile}: checks.change must be true, false or null`);
  if (!Array.isArray(c.all) || !c.all.every(isStrings)) throw new Error(`${metaFile}: checks.all must be a list of lists of regexes`);
  if (!isStrings(c.none)) throw new Error(`${metaFile}: checks.none must be a list of regexes`);
  for (const re of [...c.all.flat(), ...c.none]) {
    try {
      new RegExp(re, 'i');
    } catch (err) {
      throw new Error(`${metaFile}: bad regex ${JSON.stringify(re)}: ${(err as Error).message}`);
    }
  }
  return { change: c.change, all: c.all, none: c.none };
}

interface PairOutcome {
  name: string;
  pass: boolean;
  reasons: string[];
  summary: string;
  captions: string[];
  ms: number;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseOptions(process.argv.slice(2), {
      dir: { type: 'string', default: path.resolve(REPO_ROOT, '..', 'shared', 'realpairs') },
      json: { type: 'boolean', default: false },
      provider: { type: 'string', default: 'auto' },
      models: { type: 'string', default: path.join(REPO_ROOT, 'models') },
      only: { type: 'string' },
      // the models' captions alone, without the text reader (to compare)
      'no-read': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dir = path.resolve(values.dir);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    process.stderr.write(`${dir}: no such folder of real pairs\n${USAGE}\n`);
    process.exit(2);
  }
  const only = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : undefined;
  const names = fs
    .readdirSync(dir)
    .filter((d) => fs.existsSync(path.join(dir, d, 'meta.json')) && fs.existsSync(path.join(dir, d, 'before.png')))
    .filter((d) => !only || only.has(d))
    .sort();
  if (names.length === 0) {
    process.stderr.write(`${dir}: no pair folders (before.png, after.png, meta.json)\n`);
    process.exit(2);
  }
  const sessions = new SessionManager({ modelsDir: values.models, provider: values.provider as ProviderChoice });
  const outcomes: PairOutcome[] = [];
  try {
    for (const name of names) {
      const folder = path.join(dir, name);
      const checks = readChecks(path.join(folder, 'meta.json'));
      const started = performance.now();
      const report = await describePair(sessions, path.join(folder, 'before.png'), path.join(folder, 'after.png'), {
        procedure: false,
        read: !values['no-read'],
      });
      const score = scoreChecks(report, checks);
      const captions = report.regions.filter((r) => r.kind !== 'none' && !r.noiseOnly).map((r) => `[${r.kind}] ${r.caption}`);
      outcomes.push({ name, ...score, summary: report.summary, captions, ms: Math.round(performance.now() - started) });
      if (!values.json) {
        const o = outcomes[outcomes.length - 1];
        process.stdout.write(`${o.pass ? 'PASS' : 'FAIL'} ${name}: ${o.summary}${o.pass ? '' : `  <- ${o.reasons.join('; ')}`}\n`);
      }
    }
  } finally {
    await sessions.dispose();
  }
  const passed = outcomes.filter((o) => o.pass).length;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ dir, passed, total: outcomes.length, pairs: outcomes }, null, 1)}\n`);
  } else {
    process.stdout.write(
      `realpairs: ${passed} of ${outcomes.length} pairs pass their checks (${((100 * passed) / outcomes.length).toFixed(0)}%)\n`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`realpairs: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
