// The runtime (what the extension and the `procap` command ship: src/core, src/extension, src/cli, and
// the panel page webview/src) never imports the lab (src/lab: eval, bench, fuzz, crops, ...; src/data:
// the data engine), so a reader finds the product's whole surface in those folders and the packages
// need none of the lab. Checked twice: every import of every runtime source file, and the compiled
// import graph that `procap` loads, against the files the npm package names (.npmignore).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './runtime-fixtures.js';

const RUNTIME = ['src/core', 'src/extension', 'src/cli', 'webview/src'];
const LAB = ['src/lab', 'src/data'];

/** The relative module specifiers `source` loads: static and dynamic imports, re-exports, require, new URL(.., import.meta.url). */
function relativeSpecifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\b(?:import|require)\s*\(\s*['"`]([^'"`$]+)['"`]/g,
    /\bnew\s+URL\s*\(\s*['"`]([^'"`$]+)['"`]\s*,\s*import\.meta\.url/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) if (m[1].startsWith('.')) found.push(m[1]);
  return found;
}

/** `file`'s imports (repository-relative paths) that land in one of `folders`. */
function importsInto(file: string, source: string, folders: string[]): string[] {
  return relativeSpecifiers(source)
    .map((spec) =>
      path
        .relative(REPO_ROOT, path.resolve(REPO_ROOT, path.dirname(file), spec))
        .split(path.sep)
        .join('/'),
    )
    .filter((target) => folders.some((f) => target === f || target.startsWith(f + '/')));
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`);
}

test('the import scanner finds every form of import that could reach the lab', () => {
  const source = [
    "import { a } from '../lab/eval.js';",
    "import type { B } from '../data/screen.js';",
    "export { c } from '../lab/crops.js';",
    "import '../data/rng.js';",
    "const d = await import('../lab/bench.js');",
    "const e = new URL('../data/cli.js', import.meta.url);",
    "import { f } from './args.js';",
    "import { g } from 'node:fs';",
  ].join('\n');
  assert.deepEqual(importsInto('src/cli/x.ts', source, LAB).sort(), [
    'src/data/cli.js',
    'src/data/rng.js',
    'src/data/screen.js',
    'src/lab/bench.js',
    'src/lab/crops.js',
    'src/lab/eval.js',
  ]);
  assert.deepEqual(importsInto('src/lab/x.ts', "import { f } from '../cli/args.js';", LAB), []);
});

test('no runtime source file imports from src/lab or src/data', () => {
  const files = RUNTIME.flatMap(sourceFiles);
  assert.ok(files.length > 50, `only ${files.length} runtime files found: the folders moved?`);
  assert.ok(files.includes('src/cli/main.ts') && files.includes('src/extension/extension.ts'));
  const offending = files.flatMap((file) =>
    importsInto(file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8'), LAB).map((target) => `${file} -> ${target}`),
  );
  assert.deepEqual(offending, [], 'the runtime imports the lab: move the shared helper into src/core or src/cli');
});

test('the compiled procap command loads only dist/src/cli and dist/src/core files the npm package ships', () => {
  // the allow-list of the npm package: the command line's own files by name, the whole core
  const npmignore = fs.readFileSync(path.join(REPO_ROOT, '.npmignore'), 'utf8');
  const shippedCli = new Set([...npmignore.matchAll(/^!\/(dist\/src\/cli\/[^/*\s]+\.js)$/gm)].map((m) => m[1]));
  assert.ok(shippedCli.has('dist/src/cli/main.js'), '.npmignore does not name dist/src/cli/main.js');
  const seen = new Set<string>();
  const queue = ['dist/src/cli/main.js', 'dist/src/core/worker.js'];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const full = path.join(REPO_ROOT, file);
    assert.ok(fs.existsSync(full), `${file} is imported but not built (npm run build)`);
    if (file.endsWith('.js')) queue.push(...importsInto(file, fs.readFileSync(full, 'utf8'), ['dist']));
  }
  assert.ok(seen.has('dist/src/core/pipeline.js'), 'the walk did not reach the pipeline');
  const outside = [...seen].filter((f) => !/^dist\/(src\/(cli|core)\/|models\/contract\.json$)/.test(f));
  assert.deepEqual(outside, [], 'procap loads files outside the runtime');
  const unshipped = [...seen].filter((f) => f.startsWith('dist/src/cli/') && !shippedCli.has(f));
  assert.deepEqual(unshipped, [], 'procap loads command-line files the npm package leaves out (.npmignore)');
});
