// The ProCap Review command line: `describe` one pair, or `batch` over two folders, a folder of
// pair folders, or two git refs, writing JSON and a self-contained HTML gallery. For CI:
// --fail-on-change and --shard i/n. Exit codes are listed in USAGE and docs/CLI.md.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SessionManager, ModelLoadError, type ProviderChoice } from '../core/session.js';
import { describe, DEFAULT_BEAM_WIDTH, type DescribeOptions } from '../core/pipeline.js';
import { renderGallery, type GalleryEntry } from '../core/html-report.js';
import { animationScale, procedureApng } from '../core/apng.js';
import { DEFAULT_IMAGE_LIMITS, ImageInputError, readInputBytes } from '../core/image.js';
import type { ChangeRegion, ChangeReport, ReportImage } from '../core/report.js';
import { parseOptions } from './args.js';
import { threadsPerWorker, WorkerPool } from './pool.js';
import { ConfigError, findConfig, globMatcher, loadConfig, screenshotName, settingsFor, type ProcapConfig } from '../core/config.js';
import { MergeError, mergeReports, renderJunit, renderMarkdown, type BatchPair, type BatchResult } from './ci-report.js';

export type { BatchResult } from './ci-report.js';

export const EXIT = {
  OK: 0,
  /** --fail-on-change and at least one meaningful change (or added/removed screenshot) */
  CHANGES: 1,
  USAGE: 2,
  /** an input image is missing, unreadable or not a valid PNG (describe), or a batch pair failed */
  INPUT: 3,
  /** a model file is missing, corrupt or of another contract version */
  MODEL: 4,
  INTERNAL: 5,
  /** an output file or folder cannot be written (checked before the work) */
  OUTPUT: 6,
} as const;

const USAGE = `usage:
  procap describe BEFORE.png AFTER.png [--json] [--html FILE] [--frames DIR] [--procedure FILE.png] [options]
  procap batch BEFORE_DIR AFTER_DIR [--out DIR] [--json] [--json-file FILE] [--html FILE] [--fail-on-change] [--shard i/n] [--jobs N] [options]
  procap batch --pairs DIR        (DIR/<name>/before.png + after.png)
  procap batch --git REF_A REF_B [--paths GLOB]   (PNG files of the repository at two refs)
  procap merge SHARD.json... [--out DIR] [--json-file FILE] [--html FILE] [--markdown FILE] [--junit FILE]
                                  (joins the JSON reports of --shard i/n runs into one report)
  procap --version | --help
batch and merge reports:
  --markdown FILE     pull-request summary (also appended to $GITHUB_STEP_SUMMARY when set)
  --junit FILE        JUnit XML, one test case per screenshot (changed = failure)
  --report-url URL    the link to the HTML report in the Markdown (default: the --html file's path)
options:
  --beam N            beam search width (default 3; 1 = greedy)
  --provider P        auto (default: CUDA, else CPU) | cpu | cuda
  --threads N         inference threads per model (default: the cores, at most 4; batch: the cores / --jobs)
  --jobs N            batch: pairs described in parallel, each in its own worker thread (default: the cores)
  --models DIR        model folder (default: the package's models/)
  --procedure FILE    describe: the first changed region's procedure as an animated PNG (APNG);
                      {region} in FILE writes one per region (region1, ..., global)
  --no-procedure      no procedure frames even in --html, --frames and --procedure (computed only for those)
  --threshold X       pixel diff colour threshold 0..1 (default 0.1)
  --max-pixels N      largest accepted image, width*height (default 40000000)
  --max-memory MB     memory budget of a pair's pixel buffers, checked before decoding (default 1024)
  --config FILE       ignore regions and thresholds per screenshot glob (default: ./procap.config.json if there)
  --min-diff-pixels N fewer differing pixels than N is "no visible change" (overrides the config)
  --min-diff-ratio R  differing pixels under R (0..1) of the image area is "no visible change" (overrides the config)
environment:
  PROCAP_CACHE_DIR    where the models, optimised for this CPU, are kept between runs (default
                      ~/.cache/procap-review/models; off: not kept)
exit codes: 0 ok, 1 changes found with --fail-on-change, 2 usage (or reports merge cannot join), 3 bad input image / failed pair,
            4 model files missing or corrupt, 5 internal error, 6 an output cannot be written`;

/**
 * Writes a report file whole or not at all: into a temporary file beside it, then renamed over it. A
 * full disk or a kill leaves the previous file (or none), never a truncated one; a link at `file` is
 * replaced, not followed (its target is left alone).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  unfinished.add(tmp);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // (no folder, no temporary file)
    }
    throw new OutputError(file, (e as Error).message);
  } finally {
    unfinished.delete(tmp);
  }
}

/** Temporary files and folders being written now: a signal removes them before the process exits. */
const unfinished = new Set<string>();

/**
 * Work in worker threads (batch --jobs): a signal stops it before the process exits, since exiting
 * while a worker runs a model aborts the process.
 */
const stoppers = new Set<{ stop(): Promise<void> }>();

/**
 * On SIGINT, SIGTERM or SIGHUP: remove what is half written, say so, and exit 128 + the signal's
 * number (model sessions in this process stop with it; worker threads are stopped first, at their
 * next stage boundary, and answer nothing more). Outputs are written only
 * at the end (and a previous run's are removed at the start), so a stopped run leaves none. Started
 * by `npm run`, it also stops when npm is killed: npm does not pass the signal on, and the process
 * would otherwise go on alone (its parent gone) and write its report later.
 */
export function installSignalHandlers(): void {
  const stop = (why: string, code: number) => {
    for (const file of unfinished) fs.rmSync(file, { recursive: true, force: true });
    process.stderr.write(`procap: stopped by ${why}; no output was written\n`);
    if (!stoppers.size) process.exit(code);
    void Promise.all([...stoppers].map((s) => s.stop())).then(() => process.exit(code));
  };
  const codes: Record<string, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
  for (const [signal, code] of Object.entries(codes)) process.once(signal, () => stop(signal, code));
  if (process.env.npm_lifecycle_event !== undefined) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop('the end of the npm run that started it', 129);
    }, 250).unref();
  }
}

/** An output that cannot be written: exit 6, naming it. */
export class OutputError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`cannot write ${file}: ${problem}`);
    this.name = 'OutputError';
  }
}

/**
 * Checks before any work that `file` can be written (its folder made, a file created there and
 * removed), so a bad output path fails in a second rather than after the whole run. With `folder`,
 * `file` is itself the folder to write into.
 */
export function checkWritable(file: string, folder = false): void {
  const dir = folder ? path.resolve(file) : path.dirname(path.resolve(file));
  const probe = path.join(dir, `.procap-write-check.${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
    if (!folder && fs.existsSync(file) && fs.statSync(file).isDirectory()) throw new Error('a folder is in the way');
  } catch (e) {
    try {
      fs.rmSync(probe, { force: true });
    } catch {
      // (the folder could not be made: nothing to remove)
    }
    throw new OutputError(file, (e as Error).message);
  }
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

interface ParsedArgs {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = [
  '--html',
  '--frames',
  '--procedure',
  '--beam',
  '--provider',
  '--threads',
  '--models',
  '--out',
  '--json-file',
  '--shard',
  '--paths',
  '--pairs',
  '--threshold',
  '--max-pixels',
  '--max-memory',
  '--config',
  '--min-diff-pixels',
  '--min-diff-ratio',
  '--markdown',
  '--junit',
  '--report-url',
  '--jobs',
];
const BOOL_FLAGS = ['--json', '--fail-on-change', '--no-procedure', '--git', '--help', '--version'];
const OPTIONS = Object.fromEntries([
  ...VALUE_FLAGS.map((f) => [f.slice(2), { type: 'string' as const }]),
  ...BOOL_FLAGS.map((f) => [f.slice(2), { type: 'boolean' as const }]),
]);

/**
 * The command's options and operands (node:util parseArgs, strict): an option that takes a value
 * never takes the next option as it (`--html --json` is an error, not a file named "--json"); `--`
 * ends the options; `--json=FILE` is `--json-file FILE` (batch).
 */
export function parseArgs(argv: string[], command = 'batch'): ParsedArgs {
  const end = argv.indexOf('--');
  const options = (end < 0 ? argv : argv.slice(0, end)).map((a) =>
    a.startsWith('--json=') ? `--json-file=${a.slice('--json='.length)}` : a,
  );
  if (command === 'describe' && options.some((a) => a === '--json-file' || a.startsWith('--json-file='))) {
    throw new UsageError('describe prints its JSON report with --json (redirect it to a file: --json > FILE)');
  }
  const parsed = parseOptions(end < 0 ? options : [...options, ...argv.slice(end)], OPTIONS, {
    positionals: true,
    error: (m) => new UsageError(m),
  });
  const flags = new Map<string, string | true>();
  for (const [k, v] of Object.entries(parsed.values))
    if (v !== undefined && v !== false) flags.set(`--${k}`, v === true ? true : String(v));
  return { positional: parsed.positionals, flags };
}

function intFlag(flags: ParsedArgs['flags'], name: string, min: number, max: number): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${name} must be an integer from ${min} to ${max} (got ${String(v)})`);
  return n;
}

export function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) throw new UsageError(`--shard must look like i/n, e.g. 2/4 (got ${text})`);
  const index = Number(m[1]),
    count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UsageError(`--shard ${text}: need 1 <= i <= n`);
  return { index, count };
}

/** --paths GLOB: matched over whole relative paths by the matcher of procap.config.json's globs (core/config.ts). */
export function pathsFilter(glob: string): (name: string) => boolean {
  if (glob.trim() === '') throw new UsageError('--paths needs a glob, e.g. --paths "tests/__screenshots__/**"');
  return globMatcher(glob);
}

function defaultModelsDir(): string {
  // dist/src/cli/main.js -> repository root /models
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '..', '..', '..', 'models');
}

/** The models folder, provider and threads the options ask for (for sessions here or in workers). */
function engineFrom(flags: ParsedArgs['flags']): { modelsDir: string; provider: ProviderChoice; threads?: number } {
  const provider = (flags.get('--provider') ?? 'auto') as string;
  if (!['auto', 'cpu', 'cuda'].includes(provider)) throw new UsageError(`--provider must be auto, cpu or cuda (got ${provider})`);
  return {
    modelsDir: String(flags.get('--models') ?? defaultModelsDir()),
    provider: provider as ProviderChoice,
    threads: intFlag(flags, '--threads', 1, 256),
  };
}

function sessionsFrom(flags: ParsedArgs['flags']): SessionManager {
  return new SessionManager(engineFrom(flags));
}

/**
 * The describe options of the command line. The procedure frames cost about a third of a report and
 * only the picture outputs show them, so they are computed only when `framesShown` (an HTML report
 * or a frames folder is written) and --no-procedure is absent.
 */
function describeOptionsFrom(flags: ParsedArgs['flags'], framesShown: boolean): DescribeOptions {
  const threshold = flags.get('--threshold');
  let diffThreshold: number | undefined;
  if (threshold !== undefined) {
    diffThreshold = Number(threshold);
    if (!(diffThreshold >= 0 && diffThreshold <= 1)) throw new UsageError(`--threshold must be between 0 and 1 (got ${String(threshold)})`);
  }
  return {
    beamWidth: intFlag(flags, '--beam', 1, 16) ?? DEFAULT_BEAM_WIDTH,
    procedure: framesShown && !flags.has('--no-procedure'),
    diffThreshold,
    maxImagePixels: intFlag(flags, '--max-pixels', 1, 2 ** 31),
    maxMemoryMB: intFlag(flags, '--max-memory', 64, 1024 * 1024),
  };
}

/** The project config: --config FILE, else procap.config.json in the current folder, else none. */
function configFrom(flags: ParsedArgs['flags']): { config?: ProcapConfig; root: string } {
  const file = flags.get('--config');
  if (typeof file === 'string') return { config: loadConfig(file), root: path.dirname(path.resolve(file)) };
  return { config: findConfig(process.cwd()), root: process.cwd() };
}

/** The command line's thresholds, which replace the config's. */
function thresholdFlags(flags: ParsedArgs['flags']): { minDiffPixels?: number; minDiffRatio?: number } {
  const out: { minDiffPixels?: number; minDiffRatio?: number } = {};
  const px = intFlag(flags, '--min-diff-pixels', 0, Number.MAX_SAFE_INTEGER);
  if (px !== undefined) out.minDiffPixels = px;
  const ratio = flags.get('--min-diff-ratio');
  if (ratio !== undefined) {
    const r = Number(ratio);
    if (String(ratio).trim() === '' || !(r >= 0 && r <= 1))
      throw new UsageError(`--min-diff-ratio must be a number from 0 to 1 (got ${String(ratio)})`);
    out.minDiffRatio = r;
  }
  return out;
}

/** Masks and thresholds for the screenshot `name`: the config's, the command line's thresholds over them. */
function screenshotOptions(config: ProcapConfig | undefined, name: string, flags: ParsedArgs['flags']): DescribeOptions {
  const settings = settingsFor(config, name);
  return { ...settings, ...thresholdFlags(flags) };
}

/** The file every frames folder gets: a folder holding it (or only frames) is procap's to replace. */
export const FRAMES_MARKER = '.procap-frames';
const FRAME_FILE = /^(region\d+|global)-(frame\d+(-key)?|imagined\d+|full\d+(-key)?|full-imagined\d+)\.png$/;

/**
 * Whether `dir` may be (re)placed by a frames folder: it does not exist, or it is an empty folder or
 * one procap wrote (the marker, or nothing but frame files). Anything else is an OutputError, checked
 * before the work: a link, a file, or a folder holding other files (never deleted, never mixed with).
 */
export function checkFramesDir(dir: string): void {
  const stats = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (stats !== undefined) {
    if (stats.isSymbolicLink()) throw new OutputError(dir, 'it is a link; give the folder itself (--frames REAL_DIR)');
    if (!stats.isDirectory()) throw new OutputError(dir, 'it is a file, not a folder');
    const names = fs.readdirSync(dir);
    if (!names.includes(FRAMES_MARKER) && !names.every((name) => FRAME_FILE.test(name))) {
      throw new OutputError(
        dir,
        `the folder holds files that are not procap frames (${names
          .filter((n) => !FRAME_FILE.test(n))
          .slice(0, 3)
          .join(', ')}); ` + 'frames replace the whole folder, so give a new or empty folder',
      );
    }
  }
  checkWritable(path.dirname(path.resolve(dir)), true);
}

/**
 * Writes every region's 9 procedure frames and imagined frames (96 px, and at full resolution where
 * the report has them) as PNG files, into a fresh folder
 * beside `dir` that then replaces it: `dir` holds this run's frames only, all of them or (stopped,
 * failed) none.
 */
export function writeFrames(report: ChangeReport, dir: string): string[] {
  const target = path.resolve(dir);
  const staging = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
  const old = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.old`);
  unfinished.add(staging);
  unfinished.add(old);
  try {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, FRAMES_MARKER), 'procap describe --frames: this folder is replaced by the next run\n');
    const written = writeFramesInto(report, staging).map((file) => path.join(target, path.basename(file)));
    if (fs.existsSync(target)) {
      checkFramesDir(target); // (made again while the run went on: still ours to replace?)
      fs.renameSync(target, old);
    }
    fs.renameSync(staging, target);
    fs.rmSync(old, { recursive: true, force: true });
    return written;
  } catch (e) {
    fs.rmSync(staging, { recursive: true, force: true });
    if (e instanceof OutputError) throw e;
    throw new OutputError(dir, (e as Error).message);
  } finally {
    unfinished.delete(staging);
    unfinished.delete(old);
  }
}

function writeFramesInto(report: ChangeReport, dir: string): string[] {
  const written: string[] = [];
  const save = (name: string, image: ReportImage) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, Buffer.from(image.pngBase64, 'base64'));
    written.push(file);
  };
  const regions: [string, ChangeRegion][] = report.regions.map((r) => [`region${r.id}`, r]);
  if (report.global) regions.push(['global', report.global]);
  for (const [label, r] of regions) {
    if (!r.procedure) continue;
    r.procedure.frames.forEach((f, i) => save(`${label}-frame${i}${r.procedure?.keyframes.includes(i) ? '-key' : ''}.png`, f));
    r.procedure.imagined.forEach((f, i) => save(`${label}-imagined${i + 1}.png`, f));
    const full = r.procedure.full;
    full?.frames.forEach((f, i) => save(`${label}-full${i}${r.procedure?.keyframes.includes(i) ? '-key' : ''}.png`, f));
    full?.imagined?.forEach((f, i) => save(`${label}-full-imagined${i + 1}.png`, f));
  }
  return written;
}

/** `--procedure FILE`: FILE itself, or with `{region}` replaced by the region's name (region1, global). */
function procedureFileName(template: string, name: string): string {
  return template.includes('{region}') ? template.split('{region}').join(name) : template;
}

/** The files an earlier `--procedure` run with this FILE wrote (all regions' files when it holds `{region}`). */
function removeProcedureFiles(template: string): void {
  if (!template.includes('{region}')) {
    fs.rmSync(template, { force: true });
    return;
  }
  const dir = path.dirname(path.resolve(template));
  const escaped = path.basename(template).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${escaped.split('\\{region\\}').join('(?:region\\d+|global)')}$`);
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (pattern.test(name)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * Writes the procedure as an animated PNG (src/core/apng.ts) at about the region's size: of the
 * first changed region (the whole screen when only it has frames), or of every region when FILE
 * holds `{region}`. Returns what it wrote; nothing when no region has frames (no visible change).
 */
export function writeProcedureAnimations(report: ChangeReport, template: string): Array<{ file: string; label: string }> {
  const all: Array<[string, ChangeRegion]> = report.regions.map((r) => [`region${r.id}`, r]);
  if (report.global) all.push(['global', report.global]);
  const withFrames = all.filter(([, r]) => r.procedure !== undefined && r.procedure.frames.length > 0);
  const changed = withFrames.find(([, r]) => !r.noiseOnly && r.kind !== 'none') ?? withFrames[0];
  const chosen = template.includes('{region}') ? withFrames : changed ? [changed] : [];
  return chosen.map(([name, r]) => {
    const procedure = r.procedure as NonNullable<ChangeRegion['procedure']>;
    const file = procedureFileName(template, name);
    const bytes = procedureApng(procedure, { scale: animationScale(procedure, r.cropBox) });
    writeFileAtomic(file, bytes);
    return { file, label: name === 'global' ? 'whole screen' : `region ${r.id}` };
  });
}

function textReport(report: ChangeReport): string {
  const lines = [`summary: ${report.summary}`];
  if (report.sizeChange) lines.push(`size: ${report.sizeChange}`);
  if (report.global) lines.push(`whole screen: [${report.global.kind}] ${report.global.caption}`);
  for (const r of report.regions) {
    lines.push(
      `  #${r.id} [${r.kind}${r.noiseOnly ? ', noise' : ''}] ${r.caption}  box ${JSON.stringify(r.boxBefore)} confidence ${r.confidence.toFixed(2)}` +
        (r.procedure ? `  keyframes ${r.procedure.keyframes.join(',')}` : ''),
    );
  }
  if (report.masked.length) lines.push(`masked: ${report.masked.map((b) => JSON.stringify(b)).join(' ')}`);
  if (report.belowThreshold) lines.push(`under the threshold: ${report.belowThreshold.reason}`);
  lines.push(`provider: ${report.provider} (${report.providerReason}); ${Math.round(report.timings.totalMs)} ms`);
  return lines.join('\n');
}

function stripFrames(report: ChangeReport): ChangeReport {
  // JSON to stdout keeps the scores and keyframe indices but not the base64 pictures unless asked
  const strip = (r: ChangeRegion): ChangeRegion => {
    if (!r.procedure) return r;
    const { full, ...procedure } = r.procedure;
    return {
      ...r,
      procedure: {
        ...procedure,
        frames: [],
        imagined: [],
        ...(full ? { full: { ...full, frames: [], ...(full.imagined ? { imagined: [] } : {}) } } : {}),
      },
    };
  };
  return { ...report, regions: report.regions.map(strip), ...(report.global ? { global: strip(report.global) } : {}) };
}

async function commandDescribe(args: ParsedArgs, out: (s: string) => void): Promise<number> {
  for (const flag of ['--markdown', '--junit', '--report-url'])
    if (args.flags.has(flag)) throw new UsageError(`${flag} is a report of batch and merge; describe writes --json, --html and --frames`);
  if (args.flags.has('--jobs')) throw new UsageError('--jobs is an option of batch (pairs described in parallel)');
  if (args.positional.length !== 2) throw new UsageError('describe needs exactly two PNG files: BEFORE AFTER');
  const [beforePath, afterPath] = args.positional;
  const html = args.flags.get('--html');
  const frames = args.flags.get('--frames');
  const animation = args.flags.get('--procedure');
  if (typeof animation === 'string' && path.dirname(animation).includes('{region}'))
    throw new UsageError('--procedure: {region} goes in the file name, not in its folder');
  if (typeof animation === 'string' && args.flags.has('--no-procedure'))
    throw new UsageError('--procedure writes the procedure frames that --no-procedure leaves out: give one of them');
  if (typeof html === 'string') checkWritable(html);
  if (typeof frames === 'string') checkFramesDir(frames);
  if (typeof animation === 'string') checkWritable(procedureFileName(animation, 'region1'));
  const project = configFrom(args.flags);
  const perScreenshot = screenshotOptions(project.config, screenshotName(afterPath, project.root), args.flags);
  const sessions = sessionsFrom(args.flags);
  // a previous run's outputs are removed now, so that a run that is stopped or fails does not leave
  // them looking like this run's; the new ones appear whole at the end
  if (typeof html === 'string') fs.rmSync(html, { force: true });
  if (typeof frames === 'string') fs.rmSync(frames, { recursive: true, force: true });
  if (typeof animation === 'string') removeProcedureFiles(animation);
  try {
    const report = await describe(sessions, beforePath, afterPath, {
      ...describeOptionsFrom(args.flags, typeof html === 'string' || typeof frames === 'string' || typeof animation === 'string'),
      ...perScreenshot,
    });
    const htmlFile = args.flags.get('--html');
    if (typeof htmlFile === 'string') {
      writeFileAtomic(
        htmlFile,
        renderGallery(
          [
            {
              name: `${beforePath} -> ${afterPath}`,
              status: 'compared',
              report,
              beforePng: readInputBytes(beforePath),
              afterPng: readInputBytes(afterPath),
            },
          ],
          { title: 'ProCap Review' },
        ),
      );
    }
    if (typeof frames === 'string') writeFrames(report, frames);
    const animations = typeof animation === 'string' ? writeProcedureAnimations(report, animation) : [];
    let text = textReport(report);
    if (typeof animation === 'string') {
      text += animations.length
        ? animations.map((a) => `\nprocedure: ${a.file} (${a.label})`).join('')
        : '\nprocedure: none written (no region with procedure frames)';
    }
    out(args.flags.has('--json') ? JSON.stringify(stripFrames(report), null, 2) : text);
    return args.flags.has('--fail-on-change') && report.changed ? EXIT.CHANGES : EXIT.OK;
  } finally {
    await sessions.dispose();
  }
}

interface PairSource {
  name: string;
  /** loads the PNG bytes; undefined when that side does not exist */
  before?: () => Uint8Array;
  after?: () => Uint8Array;
  beforeLabel: string;
  afterLabel: string;
}

function listPngs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      // links, FIFOs and devices named *.png are listed too: reading them fails with a clear error for
      // that pair (readInputBytes) rather than their other side passing for added or removed
      else if (e.name.toLowerCase().endsWith('.png')) found.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  walk(root);
  return found.sort();
}

function folderPairs(beforeDir: string, afterDir: string, filter?: (name: string) => boolean): PairSource[] {
  for (const d of [beforeDir, afterDir]) {
    if (!fs.existsSync(d) || !fs.statSync(d).isDirectory()) throw new UsageError(`${d}: not a folder`);
  }
  const a = new Set(listPngs(beforeDir)),
    b = new Set(listPngs(afterDir));
  const names = [...new Set([...a, ...b])].filter((n) => !filter || filter(n)).sort();
  return names.map((name) => ({
    name,
    before: a.has(name) ? () => readInputBytes(path.join(beforeDir, name), DEFAULT_IMAGE_LIMITS, beforeDir) : undefined,
    after: b.has(name) ? () => readInputBytes(path.join(afterDir, name), DEFAULT_IMAGE_LIMITS, afterDir) : undefined,
    beforeLabel: path.join(beforeDir, name),
    afterLabel: path.join(afterDir, name),
  }));
}

function pairFolders(root: string): PairSource[] {
  if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new UsageError(`${root}: not a folder`);
  // (lstat: a dangling link or a FIFO is there, and fails as that pair's error when read)
  const there = (file: string) => fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && (there(path.join(root, e.name, 'before.png')) || there(path.join(root, e.name, 'after.png'))))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const b = path.join(root, name, 'before.png'),
        a = path.join(root, name, 'after.png');
      return {
        name,
        before: there(b) ? () => readInputBytes(b, DEFAULT_IMAGE_LIMITS, root) : undefined,
        after: there(a) ? () => readInputBytes(a, DEFAULT_IMAGE_LIMITS, root) : undefined,
        beforeLabel: b,
        afterLabel: a,
      };
    });
}

function gitPairs(refA: string, refB: string, filter?: (name: string) => boolean): PairSource[] {
  const git = (args: string[], encoding: 'utf8' | 'buffer') => {
    try {
      return execFileSync('git', args, {
        encoding: encoding === 'utf8' ? 'utf8' : undefined,
        maxBuffer: 512 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim();
      throw new UsageError(`git ${args.join(' ')} failed: ${stderr || (err as Error).message}`);
    }
  };
  const list = (ref: string) =>
    new Set(
      (git(['ls-tree', '-r', '--name-only', '-z', ref], 'utf8') as string)
        .split('\0')
        .filter((n) => n.toLowerCase().endsWith('.png') && (!filter || filter(n))),
    );
  const a = list(refA),
    b = list(refB);
  const names = [...new Set([...a, ...b])].sort();
  const show = (ref: string, name: string) => () => new Uint8Array(git(['show', `${ref}:${name}`], 'buffer') as Buffer);
  return names.map((name) => ({
    name,
    before: a.has(name) ? show(refA, name) : undefined,
    after: b.has(name) ? show(refB, name) : undefined,
    beforeLabel: `${refA}:${name}`,
    afterLabel: `${refB}:${name}`,
  }));
}

async function commandBatch(args: ParsedArgs, out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const flags = args.flags;
  if (flags.has('--procedure')) throw new UsageError('--procedure is an option of describe (batch --html embeds each animation)');
  const jobs = intFlag(flags, '--jobs', 1, 1024) ?? os.availableParallelism();
  const filter = typeof flags.get('--paths') === 'string' ? pathsFilter(String(flags.get('--paths'))) : undefined;
  let sources: PairSource[];
  let subtitle: string;
  if (flags.has('--git')) {
    if (args.positional.length !== 2) throw new UsageError('batch --git needs two refs: REF_A REF_B');
    sources = gitPairs(args.positional[0], args.positional[1], filter);
    subtitle = `git ${args.positional[0]} -> ${args.positional[1]}`;
  } else if (typeof flags.get('--pairs') === 'string') {
    if (args.positional.length) throw new UsageError('batch --pairs DIR takes no other folders');
    sources = pairFolders(String(flags.get('--pairs')));
    subtitle = `pairs in ${String(flags.get('--pairs'))}`;
  } else {
    if (args.positional.length !== 2)
      throw new UsageError('batch needs two folders (BEFORE_DIR AFTER_DIR), --pairs DIR, or --git REF_A REF_B');
    sources = folderPairs(args.positional[0], args.positional[1], filter);
    subtitle = `${args.positional[0]} -> ${args.positional[1]}`;
  }
  const shard = typeof flags.get('--shard') === 'string' ? parseShard(String(flags.get('--shard'))) : undefined;
  if (shard) {
    sources = sources.filter((_, i) => i % shard.count === shard.index - 1);
    subtitle += ` (shard ${shard.index}/${shard.count})`;
  }
  // the frames are shown only in the HTML report (--html, or report.html in --out)
  const options = describeOptionsFrom(flags, typeof flags.get('--html') === 'string' || typeof flags.get('--out') === 'string');
  const project = configFrom(flags);
  thresholdFlags(flags); // a bad threshold is a usage error before any work
  const outputs = reportOutputs(flags);

  const engine = engineFrom(flags);

  const started = performance.now();
  const entries: GalleryEntry[] = [];
  const result: BatchResult = {
    ...(shard ? { shard } : {}),
    summary: { pairs: sources.length, compared: 0, changed: 0, unchanged: 0, added: 0, removed: 0, errors: 0, seconds: 0 },
    pairs: [],
  };
  /** Records one pair's outcome; called in input order whatever order the pairs finish in. */
  const record = (o: PairOutcome) => {
    if (o.compared) result.summary.compared++;
    result.summary[o.count]++;
    entries.push(o.entry);
    result.pairs.push(o.pair);
    if (o.line) err(o.line);
  };
  const pairOptions = (source: PairSource): DescribeOptions => ({
    ...options,
    ...screenshotOptions(project.config, source.name, flags),
    beforeName: source.beforeLabel,
    afterName: source.afterLabel,
  });
  // one worker per pair to describe at most; with one, the pairs run in this process as ever
  const workers = Math.min(jobs, sources.filter((s) => s.before && s.after).length);
  if (workers <= 1) {
    const sessions = new SessionManager(engine);
    try {
      const run: Describer = (before, after, o) => describe(sessions, before, after, o);
      for (const source of sources) record(await describePair(source, run, pairOptions(source)));
    } finally {
      await sessions.dispose();
    }
  } else {
    // N workers, each with its own sessions and a share of the cores; a pair's files are read only
    // when a worker is free for it (at most N pairs in memory at once), and the outcomes are recorded
    // in input order as the run's prefix completes
    const pool = new WorkerPool(workers, { ...engine, threads: engine.threads ?? threadsPerWorker(workers) });
    stoppers.add(pool);
    const outcomes: (PairOutcome | undefined)[] = new Array(sources.length);
    let recorded = 0;
    let failure: unknown;
    const inFlight = new Set<Promise<void>>();
    const run: Describer = (before, after, o) => pool.run(before, after, o);
    try {
      for (let i = 0; i < sources.length && failure === undefined; i++) {
        while (inFlight.size >= workers) await Promise.race(inFlight);
        if (failure !== undefined) break;
        const source = sources[i];
        const task = describePair(source, run, pairOptions(source)).then(
          (outcome) => {
            outcomes[i] = outcome;
            while (recorded < outcomes.length && outcomes[recorded]) {
              record(outcomes[recorded]!);
              outcomes[recorded++] = undefined;
            }
          },
          (e: unknown) => {
            failure ??= e;
          },
        );
        inFlight.add(task);
        void task.finally(() => inFlight.delete(task));
      }
      await Promise.all(inFlight);
      if (failure !== undefined) throw failure;
    } finally {
      await pool.dispose();
      stoppers.delete(pool);
    }
  }
  result.summary.seconds = Number(((performance.now() - started) / 1000).toFixed(3));
  writeReports(result, entries, outputs, subtitle, flags, out);
  return batchExitCode(result, flags);
}

type Describer = (before: Uint8Array, after: Uint8Array, options: DescribeOptions) => Promise<ChangeReport>;

/** What one pair adds to a batch result: its gallery entry, its JSON record, its counter and its console line. */
interface PairOutcome {
  entry: GalleryEntry;
  pair: BatchPair;
  count: 'changed' | 'unchanged' | 'added' | 'removed' | 'errors';
  compared: boolean;
  line?: string;
}

/**
 * One pair of a batch: an added or removed screenshot read, or both sides read and described with
 * `run`. A pair that fails is that pair's error and the run goes on; a model that cannot be loaded
 * stops the run (exit 4).
 */
async function describePair(source: PairSource, run: Describer, options: DescribeOptions): Promise<PairOutcome> {
  const failed = (e: unknown): PairOutcome => {
    const message = e instanceof Error ? e.message : String(e);
    return {
      entry: { name: source.name, status: 'error', error: message },
      pair: { name: source.name, status: 'error', changed: false, error: message, ...labels(source) },
      count: 'errors',
      compared: false,
      line: `ERROR     ${source.name}: ${message}`,
    };
  };
  if (!source.before || !source.after) {
    const status = source.before ? 'removed' : 'added';
    let png: Uint8Array;
    try {
      png = (source.after ?? source.before)!();
    } catch (e) {
      return failed(e);
    }
    return {
      entry: { name: source.name, status, ...(status === 'added' ? { afterPng: png } : { beforePng: png }) },
      pair: { name: source.name, status, changed: true, ...labels(source) },
      count: status,
      compared: false,
    };
  }
  try {
    const beforePng = source.before();
    const afterPng = source.after();
    const report = await run(beforePng, afterPng, options);
    return {
      // screenshots are embedded only where something changed: keeps a big suite's gallery small
      entry: report.changed
        ? { name: source.name, status: 'compared', report, beforePng, afterPng }
        : { name: source.name, status: 'compared', report },
      pair: {
        name: source.name,
        status: 'compared',
        changed: report.changed,
        summary: report.summary,
        ...labels(source),
        report: stripFrames(report),
      },
      count: report.changed ? 'changed' : 'unchanged',
      compared: true,
      line: `${report.changed ? 'CHANGED  ' : 'unchanged'} ${source.name}: ${report.summary}`,
    };
  } catch (e) {
    // (a ModelLoadError, or one from a worker rebuilt with its name)
    if (e instanceof Error && e.name === 'ModelLoadError') throw e;
    return failed(e);
  }
}

/** Where a pair's screenshots were read, as the JSON report records them. */
function labels(source: PairSource): Pick<BatchPair, 'before' | 'after'> {
  return { ...(source.before ? { before: source.beforeLabel } : {}), ...(source.after ? { after: source.afterLabel } : {}) };
}

interface ReportFiles {
  json?: string;
  html?: string;
  markdown?: string;
  junit?: string;
  /** $GITHUB_STEP_SUMMARY, appended to when set and Markdown is asked for */
  stepSummary?: string;
}

/**
 * The report files the options ask for (`--out DIR` = DIR/report.json + DIR/report.html), checked
 * writable before any work. A report of an earlier run is removed now, so that a run that is stopped
 * or fails does not leave it looking like this run's.
 */
function reportOutputs(flags: ParsedArgs['flags']): ReportFiles {
  const value = (name: string) => (typeof flags.get(name) === 'string' ? String(flags.get(name)) : undefined);
  const outDir = value('--out');
  const files: ReportFiles = {
    json: value('--json-file') ?? (outDir ? path.join(outDir, 'report.json') : undefined),
    html: value('--html') ?? (outDir ? path.join(outDir, 'report.html') : undefined),
    markdown: value('--markdown'),
    junit: value('--junit'),
  };
  for (const file of [files.json, files.html, files.markdown, files.junit]) {
    if (!file) continue;
    checkWritable(file);
    fs.rmSync(file, { force: true });
  }
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (files.markdown && summary) {
    checkWritable(summary);
    files.stepSummary = summary;
  }
  return files;
}

/** Writes the asked-for reports of a batch (or merged) result, each whole or not at all, and prints its summary. */
function writeReports(
  result: BatchResult,
  entries: GalleryEntry[],
  files: ReportFiles,
  subtitle: string,
  flags: ParsedArgs['flags'],
  out: (s: string) => void,
): void {
  if (files.json) writeFileAtomic(files.json, JSON.stringify(result, null, 2));
  if (files.html) writeFileAtomic(files.html, renderGallery(entries, { title: 'ProCap Review batch report', subtitle }));
  if (files.junit) writeFileAtomic(files.junit, renderJunit(result));
  if (files.markdown) {
    const url = flags.get('--report-url');
    const htmlLink =
      typeof url === 'string'
        ? url
        : files.html
          ? path
              .relative(path.dirname(path.resolve(files.markdown)), path.resolve(files.html))
              .split(path.sep)
              .join('/')
          : undefined;
    const markdown = renderMarkdown(result, { htmlLink });
    writeFileAtomic(files.markdown, markdown);
    if (files.stepSummary) {
      try {
        fs.appendFileSync(files.stepSummary, markdown + '\n');
      } catch (e) {
        throw new OutputError(files.stepSummary, (e as Error).message);
      }
    }
  }
  if (flags.has('--json')) out(JSON.stringify(result, null, 2));
  else {
    const s = result.summary;
    out(
      `${s.pairs} pair(s): ${s.changed} changed, ${s.unchanged} unchanged, ${s.added} added, ${s.removed} removed, ${s.errors} error(s) in ${s.seconds} s` +
        (files.json ? `\nJSON: ${files.json}` : '') +
        (files.html ? `\nHTML: ${files.html}` : '') +
        (files.markdown ? `\nMarkdown: ${files.markdown}` : '') +
        (files.junit ? `\nJUnit: ${files.junit}` : ''),
    );
  }
}

function batchExitCode(result: BatchResult, flags: ParsedArgs['flags']): number {
  if (result.summary.errors) return EXIT.INPUT;
  const anyChange = result.summary.changed + result.summary.added + result.summary.removed > 0;
  return flags.has('--fail-on-change') && anyChange ? EXIT.CHANGES : EXIT.OK;
}

/** The screenshot a report names (`FILE` or `REF:path` of the repository in the working folder), if it can be read. */
function readLabelled(label: string | undefined): Uint8Array | undefined {
  if (!label) return undefined;
  try {
    if (fs.existsSync(label)) return readInputBytes(label);
    if (!label.includes(':')) return undefined;
    return new Uint8Array(execFileSync('git', ['show', label], { maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] }));
  } catch {
    return undefined;
  }
}

/**
 * `procap merge REPORT.json...`: joins the JSON reports of the shards of one batch into the report of
 * the whole run and writes it as JSON, HTML, Markdown or JUnit. The HTML embeds the screenshots of
 * changed, added and removed pairs where the paths the reports name can still be read (files, or
 * `REF:path` in the git repository of the working folder); otherwise it shows the captions alone.
 */
async function commandMerge(args: ParsedArgs, out: (s: string) => void): Promise<number> {
  if (!args.positional.length) throw new UsageError('merge needs the JSON reports of the shards: procap merge A.json B.json ...');
  const reports = args.positional.map((file) => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
    try {
      return { file, data: JSON.parse(text) as unknown };
    } catch (e) {
      throw new UsageError(`${file} is not JSON: ${(e as Error).message}`);
    }
  });
  let result: BatchResult;
  try {
    result = mergeReports(reports);
  } catch (e) {
    if (e instanceof MergeError) throw new UsageError(e.message);
    throw e;
  }
  const outputs = reportOutputs(args.flags);
  const entries: GalleryEntry[] = result.pairs.map((p) => {
    const show = p.changed || p.status === 'added' || p.status === 'removed';
    const beforePng = show && p.status !== 'added' ? readLabelled(p.before) : undefined;
    const afterPng = show && p.status !== 'removed' ? readLabelled(p.after) : undefined;
    return {
      name: p.name,
      status: p.status,
      ...(p.report ? { report: p.report } : {}),
      ...(p.error ? { error: p.error } : {}),
      ...(beforePng ? { beforePng } : {}),
      ...(afterPng ? { afterPng } : {}),
    };
  });
  writeReports(result, entries, outputs, `${args.positional.length} report(s) merged`, args.flags, out);
  return batchExitCode(result, args.flags);
}

/** The package's version (package.json beside dist/). */
function packageVersion(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const manifest = JSON.parse(fs.readFileSync(path.resolve(here, '..', '..', '..', 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/** Runs the CLI; returns the exit code (never calls process.exit, so tests can call it). */
export async function main(
  argv: string[],
  out: (s: string) => void = (s) => void process.stdout.write(s + '\n'),
  err: (s: string) => void = (s) => void process.stderr.write(s + '\n'),
): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (!command || command === '--help' || command === 'help') {
      out(USAGE);
      return command ? EXIT.OK : EXIT.USAGE;
    }
    if (command === '--version' || command === 'version') {
      out(packageVersion());
      return EXIT.OK;
    }
    const args = parseArgs(rest, command);
    if (args.flags.has('--help')) {
      out(USAGE);
      return EXIT.OK;
    }
    if (args.flags.has('--version')) {
      out(packageVersion());
      return EXIT.OK;
    }
    if (command === 'describe') return await commandDescribe(args, out);
    if (command === 'batch') return await commandBatch(args, out, err);
    if (command === 'merge') return await commandMerge(args, out);
    throw new UsageError(`unknown command "${command}" (use describe, batch or merge)`);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`procap: ${e.message}\n${USAGE}`);
      return EXIT.USAGE;
    }
    if (e instanceof ConfigError) {
      err(`procap: ${e.message}`);
      return EXIT.USAGE;
    }
    if (e instanceof ImageInputError) {
      err(`procap: ${e.message}`);
      return EXIT.INPUT;
    }
    if (e instanceof ModelLoadError || (e instanceof Error && e.name === 'ModelLoadError')) {
      err(`procap: model error: ${e.message}`);
      return EXIT.MODEL;
    }
    if (e instanceof OutputError) {
      err(`procap: ${e.message}`);
      return EXIT.OUTPUT;
    }
    err(`procap: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.INTERNAL;
  }
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  installSignalHandlers();
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
