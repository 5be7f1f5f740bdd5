// Ruff (lint + format check) over the Python sources, with the WebAssembly build of Ruff from npm
// (@astral-sh/ruff-wasm-nodejs): CI has the npm registry but no PyPI, and Debian has no ruff package.
//
//   node scripts/ruff.mjs [--fix] [--format] [PATH ...]      (default PATH: training)
//
// Reads the settings from ruff.toml (the same file the ruff command line reads). Prints one
// `file:line:column: CODE message` per finding and per file whose formatting differs, and exits 1 when
// there is any. --format rewrites the files as Ruff formats them; --fix applies Ruff's fixes for the
// rules in SAFE_FIXES (import order, unused imports, newer syntax) - review the diff either way.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PositionEncoding, Workspace } from '@astral-sh/ruff-wasm-nodejs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONFIG = path.join(ROOT, 'ruff.toml');
const SAFE_FIXES = /^(I001|F401|UP\d+)$/;
const USAGE = 'usage: node scripts/ruff.mjs [--fix] [--format] [PATH ...]';

/**
 * The part of TOML that ruff.toml uses: [tables] (dotted names), key = string, number, boolean or a
 * one-line array of those, and # comments. Anything else is an error naming the line, not a guess.
 */
export function parseToml(text, file = 'ruff.toml') {
  const out = {};
  let table = out;
  const value = (raw, where) => {
    const v = raw.trim();
    if (/^"[^"\\]*"$/.test(v) || /^'[^']*'$/.test(v)) return v.slice(1, -1);
    if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    if (v === 'true' || v === 'false') return v === 'true';
    if (v.startsWith('[') && v.endsWith(']')) {
      const inner = v.slice(1, -1).trim().replace(/,$/, '');
      return inner === '' ? [] : inner.split(',').map((x) => value(x, where));
    }
    throw new Error(`${where}: unsupported value ${v}`);
  };
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}`;
    const s = line
      .replace(/\s+#.*$/, '')
      .replace(/^#.*$/, '')
      .trim();
    if (s === '') return;
    const header = /^\[([\w.-]+)\]$/.exec(s);
    if (header) {
      table = out;
      for (const key of header[1].split('.')) table = table[key] ??= {};
      return;
    }
    const kv = /^([\w-]+)\s*=\s*(.+)$/.exec(s);
    if (!kv) throw new Error(`${where}: cannot read "${line.trim()}"`);
    table[kv[1]] = value(kv[2], where);
  });
  return out;
}

function pythonFiles(target) {
  const abs = path.resolve(ROOT, target);
  if (!fs.existsSync(abs)) throw new Error(`${target}: no such file or folder`);
  if (fs.statSync(abs).isFile()) return [abs];
  return fs
    .readdirSync(abs, { recursive: true })
    .filter((f) => f.endsWith('.py') && !f.split(path.sep).includes('__pycache__'))
    .map((f) => path.join(abs, f))
    .sort();
}

/** Offset in `text` of a 1-based (row, column) in UTF-16 code units, as Ruff reports them here. */
function offsetOf(lineStarts, loc) {
  return lineStarts[loc.row - 1] + loc.column - 1;
}

function lineStartsOf(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  starts.push(text.length);
  return starts;
}

/** Applies the safe fixes of one check, skipping any that overlaps an earlier one (a next pass gets it). */
function applyFixes(text, diagnostics) {
  const starts = lineStartsOf(text);
  const edits = [];
  for (const d of diagnostics) {
    if (!d.fix || !SAFE_FIXES.test(d.code ?? '')) continue;
    const mine = d.fix.edits.map((e) => ({
      from: offsetOf(starts, e.location),
      to: offsetOf(starts, e.end_location),
      content: e.content ?? '',
    }));
    if (mine.some((e) => edits.some((o) => e.from < o.to && o.from < e.to))) continue;
    edits.push(...mine);
  }
  edits.sort((a, b) => b.from - a.from);
  for (const e of edits) text = text.slice(0, e.from) + e.content + text.slice(e.to);
  return { text, applied: edits.length };
}

function main(argv) {
  const flags = new Set(argv.filter((a) => a.startsWith('-')));
  for (const f of flags) if (f !== '--fix' && f !== '--format') throw new Error(`unknown option ${f}\n${USAGE}`);
  const targets = argv.filter((a) => !a.startsWith('-'));
  const settings = parseToml(fs.readFileSync(CONFIG, 'utf8'), path.relative(ROOT, CONFIG));
  const ws = new Workspace(settings, PositionEncoding.Utf16);
  let findings = 0;
  let files = 0;
  for (const file of (targets.length ? targets : ['training']).flatMap(pythonFiles)) {
    const rel = path.relative(ROOT, file).startsWith('..') ? file : path.relative(ROOT, file);
    let text = fs.readFileSync(file, 'utf8');
    const original = text;
    files++;
    if (flags.has('--fix')) {
      for (let pass = 0; pass < 10; pass++) {
        const r = applyFixes(text, ws.check(text));
        text = r.text;
        if (r.applied === 0) break;
      }
    }
    let formatted;
    try {
      formatted = ws.format(text);
    } catch (err) {
      formatted = text; // a file Ruff cannot parse: check() below reports where
      if (flags.has('--format')) console.error(`${rel}: not formatted: ${err.message ?? err}`);
    }
    if (flags.has('--format')) text = formatted;
    if (text !== original) fs.writeFileSync(file, text);
    const diagnostics = ws.check(text);
    diagnostics.sort((a, b) => a.start_location.row - b.start_location.row || a.start_location.column - b.start_location.column);
    for (const d of diagnostics) {
      findings++;
      console.log(`${rel}:${d.start_location.row}:${d.start_location.column}: ${d.code ?? 'error'} ${d.message}`);
    }
    if (formatted !== text) {
      findings++;
      const a = text.split('\n');
      const b = formatted.split('\n');
      let line = 0;
      while (line < a.length && a[line] === b[line]) line++;
      console.log(`${rel}:${line + 1}:1: format: not as Ruff formats it (node scripts/ruff.mjs --format ${rel})`);
    }
  }
  console.log(`ruff ${Workspace.version()}: ${files} files, ${findings === 0 ? 'no findings' : `${findings} findings`}`);
  return findings === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (err) {
    console.error(`ruff.mjs: ${err.message ?? err}`);
    process.exitCode = 2;
  }
}
