// scripts/ruff.mjs: the Python lint and format check CI runs (npm run lint) with Ruff's WebAssembly build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs from dist/test/unit/: the script and its config are read from the repository root.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const script = path.join(root, 'scripts', 'ruff.mjs');

function ruff(...args: string[]) {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', cwd: root });
}

test('ruff.toml is read as the settings Ruff expects; an unsupported line is an error naming it', async () => {
  const { parseToml } = (await import(new URL('scripts/ruff.mjs', new URL(`file://${root}/`)).href)) as {
    parseToml: (text: string, file?: string) => Record<string, unknown>;
  };
  const settings = parseToml(fs.readFileSync(path.join(root, 'ruff.toml'), 'utf8'));
  assert.equal(settings['line-length'], 120);
  assert.deepEqual((settings.lint as { select: string[] }).select, ['E', 'F', 'I', 'B', 'UP']);
  assert.deepEqual((settings.lint as { isort: unknown }).isort, { 'known-first-party': ['training'] });
  assert.deepEqual(parseToml('a = "x" # note\n[b.c]\nd = [1, 2,]\ne = true'), { a: 'x', b: { c: { d: [1, 2], e: true } } });
  assert.throws(() => parseToml('x = 1\ny = { inline = 1 }', 'r.toml'), /r\.toml:2: unsupported value/);
  assert.throws(() => parseToml('just words', 'r.toml'), /r\.toml:1: cannot read/);
});

test('findings and unformatted files are listed as file:line:column and fail; a clean file passes', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-ruff-'));
  try {
    const bad = path.join(dir, 'bad.py');
    fs.writeFileSync(bad, 'import os\nx = {  "a":1 }\n');
    const r = ruff(bad);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /bad\.py:1:1: I001 [^\n]*\n[^\n]*bad\.py:1:8: F401 /);
    assert.match(r.stdout, /bad\.py:2:1: format: not as Ruff formats it/);
    assert.match(r.stdout, /1 files, 3 findings/);

    const good = path.join(dir, 'good.py');
    fs.writeFileSync(good, 'x = {"a": 1}\n');
    const ok = ruff(good);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /1 files, no findings/);

    // --fix removes the unused import, --format rewrites the file: then it passes
    assert.equal(ruff('--fix', '--format', bad).status, 0);
    assert.equal(fs.readFileSync(bad, 'utf8'), 'x = {"a": 1}\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('bad arguments are a clear error', () => {
  const r = ruff('--fxi');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown option --fxi/);
  const missing = ruff('no/such/folder');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /no\/such\/folder: no such file or folder/);
});
