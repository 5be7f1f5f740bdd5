// npm run --silent ocr-eval -- [--data DIR | --count N --split S --seed S] [--realpairs DIR] [--limit N] [--json]
// How well the text reader (src/core/read/ocr.ts) reads UI text, measured two ways:
//  - on screens rendered by the data engine, where the DOM gives the truth: every change record
//    whose element draws text (`label`) is read in its box (the before image; the after image for
//    additions), and the text read is compared with the label: exact lines, character accuracy
//    (1 - edit distance / length, spaces included) and word accuracy (the same over words);
//  - on real screenshots (../shared/realpairs by default): the labels a person quoted in each
//    pair's reference ('Open Files') are looked for among the lines read in the whole screenshot
//    (before and after); recall of exact labels and the best character accuracy per label.
// Also the reader's time per region read, and how element names (element.ts: button, badge, input)
// match the DOM's roles: precision per name and coverage per role. Exit 0 (a measurement), 2 for bad
// arguments.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readPngFile } from '../core/image.js';
import { TextReader } from '../core/read/ocr.js';
import { elementOf, type ElementRole } from '../core/read/element.js';
import { editDistance, similarity } from '../core/read/correspond.js';
import type { Box } from '../core/report.js';
import { integerValue, parseOptions } from '../cli/args.js';

const USAGE =
  'usage: npm run --silent ocr-eval -- [--data DIR | --count N [--split test] [--seed S]] [--realpairs DIR] [--limit N] [--json] [--out FILE]';
const here = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(here, '..', '..', '..');
/** roles whose element draws its label as one piece of text (containers hold other text too; icons, pictures and inputs draw
 * none; an avatar's initials are a name's letters, not a label, and are left to the element figures) */
const TEXT_ROLES = new Set(['button', 'link', 'tab', 'badge', 'tag', 'heading', 'text', 'label', 'menu item', 'number', 'cell', 'date']);

/** 1 - word edit distance / the longer word count. */
export function wordAccuracy(truth: string, read: string): number {
  const a = truth.split(/\s+/).filter(Boolean),
    b = read.split(/\s+/).filter(Boolean);
  if (!a.length && !b.length) return 1;
  return 1 - editDistance(a, b) / Math.max(a.length, b.length);
}

/** The labels a person quoted in a reference: 'Open Files', 'page 6'. */
export function quotedLabels(reference: string): string[] {
  // a quote opens after a space or bracket and closes before one (not the apostrophe of "item's")
  return [...reference.matchAll(/(?:^|[\s(])'([^']{1,60})'(?=[\s,.;:)]|$)/g)].map((m) => m[1]);
}

interface SyntheticChange {
  kind: string;
  role: string;
  label: string;
  bbox_before: Box | null;
  bbox_after: Box | null;
}

/** The pairs of a data-engine folder (its manifest.jsonl). */
function manifestPairs(dir: string): { before: string; after: string; changes: SyntheticChange[] }[] {
  return fs
    .readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { before: string; after: string; changes: SyntheticChange[] });
}

async function syntheticFigures(reader: TextReader, dir: string, limit: number) {
  const pairs = manifestPairs(dir);
  let items = 0,
    exact = 0,
    chars = 0,
    words = 0,
    ms = 0;
  const misses: { truth: string; read: string }[] = [];
  for (const pair of pairs) {
    for (const c of pair.changes) {
      if (items >= limit) break;
      if (!c.label || !TEXT_ROLES.has(c.role) || c.kind === 'reorder' || c.label.length > 80) continue;
      const onAfter = c.kind === 'add';
      const box = onAfter ? c.bbox_after : c.bbox_before;
      if (!box || box[2] - box[0] < 4 || box[3] - box[1] < 4) continue;
      const image = readPngFile(path.join(dir, onAfter ? pair.after : pair.before));
      const t = performance.now();
      const lines = await reader.read(image, [box[0] - 6, box[1] - 6, box[2] + 6, box[3] + 6]);
      ms += performance.now() - t;
      const read = lines.map((l) => l.text).join(' ');
      const truth = c.label.replace(/\s+/g, ' ').trim();
      items++;
      if (read === truth) exact++;
      else if (misses.length < 12) misses.push({ truth, read });
      chars += similarity(truth, read);
      words += wordAccuracy(truth, read);
    }
  }
  const r = (x: number) => Number(x.toFixed(4));
  return {
    elements: items,
    exact: r(exact / items),
    char_accuracy: r(chars / items),
    word_accuracy: r(words / items),
    ms_per_region: r(ms / items),
    misses,
  };
}

/** Which data-engine roles each element name stands for (a search box is an input). */
const ROLE_TRUTH: Record<ElementRole, string[]> = {
  button: ['button'],
  badge: ['badge'],
  input: ['input', 'search box'],
  avatar: ['avatar'],
};

/**
 * How element names (src/core/read/element.ts) match the DOM: each changed element with one line of
 * text read inside its box is named or not; per name, how often it was given and right (precision),
 * and per named role, how many of its elements got the name (coverage).
 */
async function elementFigures(reader: TextReader, dir: string, limit: number) {
  const pairs = manifestPairs(dir);
  const named: Record<string, { given: number; right: number }> = {},
    coverage: Record<string, { elements: number; named: number }> = {};
  const confusion: Record<string, Record<string, number>> = {};
  let elements = 0;
  for (const pair of pairs) {
    for (const c of pair.changes) {
      if (elements >= limit) break;
      if (!['text', 'add', 'remove', 'move', 'color', 'opacity', 'resize', 'font'].includes(c.kind)) continue;
      const onBefore = c.kind === 'remove';
      const box = onBefore ? c.bbox_before : c.bbox_after;
      if (!box) continue;
      const image = readPngFile(path.join(dir, onBefore ? pair.before : pair.after));
      const lines = (await reader.read(image, [box[0] - 30, box[1] - 20, box[2] + 30, box[3] + 20])).filter(
        (l) => l.box[0] >= box[0] - 2 && l.box[2] <= box[2] + 2 && l.box[1] >= box[1] - 2 && l.box[3] <= box[3] + 2,
      );
      if (lines.length !== 1) continue;
      elements++;
      const guess = elementOf(image, lines[0]);
      const row = (confusion[guess ?? '-'] ??= {});
      row[c.role] = (row[c.role] ?? 0) + 1;
      for (const [role, truths] of Object.entries(ROLE_TRUTH)) {
        if (truths.includes(c.role)) {
          const k = (coverage[role] ??= { elements: 0, named: 0 });
          k.elements++;
          if (guess === role) k.named++;
        }
      }
      if (guess) {
        const k = (named[guess] ??= { given: 0, right: 0 });
        k.given++;
        if (ROLE_TRUTH[guess].includes(c.role)) k.right++;
      }
    }
  }
  const r = (x: number) => Number(x.toFixed(4));
  const given = Object.values(named).reduce((n, v) => n + v.given, 0),
    right = Object.values(named).reduce((n, v) => n + v.right, 0);
  return {
    elements,
    named: given,
    precision: given ? r(right / given) : null,
    per_name: Object.fromEntries(Object.entries(named).map(([k, v]) => [k, { given: v.given, precision: r(v.right / v.given) }])),
    coverage: Object.fromEntries(Object.entries(coverage).map(([k, v]) => [k, { elements: v.elements, named: r(v.named / v.elements) }])),
    confusion,
  };
}

async function realFigures(reader: TextReader, dir: string) {
  let labels = 0,
    found = 0,
    chars = 0,
    ms = 0,
    images = 0,
    pairs = 0;
  const missed: { pair: string; label: string; best: string }[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const meta = path.join(dir, name, 'meta.json');
    if (!fs.existsSync(meta)) continue;
    const reference = (JSON.parse(fs.readFileSync(meta, 'utf8')) as { reference: string[] }).reference.join(' ');
    const wanted = quotedLabels(reference);
    if (!wanted.length) continue;
    pairs++;
    const lines: string[] = [];
    for (const side of ['before.png', 'after.png']) {
      const t = performance.now();
      lines.push(...(await reader.read(readPngFile(path.join(dir, name, side)))).map((l) => l.text));
      ms += performance.now() - t;
      images++;
    }
    for (const label of wanted) {
      labels++;
      const hit = lines.some((l) => l.includes(label));
      if (hit) found++;
      const best = lines.reduce((b, l) => (similarity(label, l) > similarity(label, b) ? l : b), '');
      chars += hit ? 1 : similarity(label, best);
      if (!hit && missed.length < 20) missed.push({ pair: name, label, best });
    }
  }
  const r = (x: number) => Number(x.toFixed(4));
  return { pairs, labels, exact_recall: r(found / labels), char_accuracy: r(chars / labels), ms_per_screenshot: r(ms / images), missed };
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseOptions(process.argv.slice(2), {
      data: { type: 'string' },
      count: { type: 'string' },
      split: { type: 'string', default: 'test' },
      seed: { type: 'string', default: '424242' },
      realpairs: { type: 'string', default: path.resolve(REPO_ROOT, '..', 'shared', 'realpairs') },
      limit: { type: 'string', default: '400' },
      json: { type: 'boolean', default: false },
      out: { type: 'string' },
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const limit = integerValue(values.limit!) ?? 0;
  if (limit < 1) {
    process.stderr.write(`--limit must be a positive integer\n${USAGE}\n`);
    process.exit(2);
  }
  let dir = values.data;
  let temp: string | undefined;
  if (!dir) {
    const count = integerValue(values.count ?? '120') ?? 0;
    if (count < 1) {
      process.stderr.write(`--count must be a positive integer\n${USAGE}\n`);
      process.exit(2);
    }
    temp = dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-ocr-eval-'));
    const run = spawnSync(
      process.execPath,
      [
        path.join(REPO_ROOT, 'dist', 'src', 'data', 'cli.js'),
        '--seed',
        values.seed!,
        '--count',
        String(count),
        '--split',
        values.split!,
        '--out',
        dir,
        '--quiet',
      ],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`the data engine failed: ${(run.stderr || run.stdout).slice(-1000)}`);
  }
  const reader = new TextReader();
  try {
    const synthetic = await syntheticFigures(reader, dir, limit);
    const elements = await elementFigures(reader, dir, limit);
    const real = fs.existsSync(values.realpairs!) ? await realFigures(reader, values.realpairs!) : null;
    const command = `npm run --silent ocr-eval -- ${process.argv.slice(2).join(' ')}`.trim();
    const result = {
      command,
      synthetic: { data: values.data ?? `${values.split} split, seed ${values.seed}, ${values.count ?? 120} pairs`, ...synthetic },
      elements,
      realpairs: real,
    };
    // --out: the figures the model card quotes (models/text_reader.json), written whole or not at all
    // (keeping what other commands wrote there: the runtime's figures with and without the reader)
    if (values.out) {
      const kept = fs.existsSync(values.out) ? (JSON.parse(fs.readFileSync(values.out, 'utf8')) as Record<string, unknown>) : {};
      const whole = { ...result, ...(kept.runtime_eval ? { runtime_eval: kept.runtime_eval } : {}) };
      fs.writeFileSync(`${values.out}.tmp`, `${JSON.stringify(whole, null, 1)}\n`);
      fs.renameSync(`${values.out}.tmp`, values.out);
    }
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 1)}\n`);
    else {
      const s = result.synthetic;
      process.stdout.write(
        `synthetic UI text (DOM truth): ${s.elements} elements, exact ${s.exact}, characters ${s.char_accuracy}, words ${s.word_accuracy}, ${s.ms_per_region} ms per region\n`,
      );
      process.stdout.write(
        `element names (DOM truth): ${elements.elements} elements with one line read, ${elements.named} named, precision ${elements.precision}; ${JSON.stringify(elements.coverage)}\n`,
      );
      if (real)
        process.stdout.write(
          `real pairs' quoted labels: ${real.labels} labels, read exactly ${real.exact_recall}, characters ${real.char_accuracy}, ${real.ms_per_screenshot} ms per screenshot\n`,
        );
    }
  } finally {
    await reader.dispose();
    if (temp) fs.rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`ocr-eval: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
