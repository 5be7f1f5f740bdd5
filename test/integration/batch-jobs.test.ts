// `procap batch --jobs N`: pairs described by a pool of worker threads give the same reports, in the
// same order, as `--jobs 1` (one process, one pair after another), timings aside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { CLI, MODELS_DIR, REPO_ROOT, drawPng, screenPair, tempDir, type Rect } from '../unit/runtime-fixtures.js';

const M = ['--models', MODELS_DIR, '--provider', 'cpu'];

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** BEFORE/ and AFTER/ folders: 6 pairs to describe (one of them broken), one added and one removed screenshot. */
function suite(): { before: string; after: string } {
  const root = tempDir('jobs');
  const before = path.join(root, 'before'),
    after = path.join(root, 'after');
  fs.mkdirSync(before);
  fs.mkdirSync(after);
  const put = (name: string, b: Uint8Array | undefined, a: Uint8Array | undefined) => {
    if (b) fs.writeFileSync(path.join(before, name), b);
    if (a) fs.writeFileSync(path.join(after, name), a);
  };
  const header: Rect = [0, 0, 640, 48, 30, 40, 70];
  const lines: Rect[] = [40, 80, 120, 160].map((y) => [24, y, 400, y + 14, 190, 190, 190]);
  put(
    'a-example.png',
    fs.readFileSync(path.join(REPO_ROOT, 'examples', 'before.png')),
    fs.readFileSync(path.join(REPO_ROOT, 'examples', 'after.png')),
  );
  const screen = screenPair();
  put('b-screen.png', screen.before, screen.after);
  const still = drawPng(640, 400, [header, ...lines, [460, 300, 600, 340, 40, 120, 220]]);
  put('c-unchanged.png', still, still);
  put(
    'd-moved.png',
    drawPng(640, 400, [header, ...lines, [460, 300, 600, 340, 40, 120, 220]]),
    drawPng(640, 400, [header, ...lines, [460, 250, 600, 290, 40, 120, 220]]),
  );
  put(
    'e-recoloured.png',
    drawPng(640, 400, [header, ...lines, [24, 220, 200, 260, 40, 160, 70]]),
    drawPng(640, 400, [header, ...lines, [24, 220, 200, 260, 210, 50, 50]]),
  );
  put('f-broken.png', still, new TextEncoder().encode('not a PNG'));
  put('g-added.png', undefined, still);
  put('h-removed.png', still, undefined);
  return { before, after };
}

/** A batch JSON report without what depends on the clock. */
function untimed(file: string): unknown {
  const result = JSON.parse(fs.readFileSync(file, 'utf8'));
  result.summary.seconds = 0;
  for (const p of result.pairs) if (p.report) p.report.timings = {};
  return result;
}

test('batch --jobs 2 writes the reports of --jobs 1 (timings aside), in input order, and the same console lines', () => {
  const { before, after } = suite();
  const runs = [1, 2].map((jobs) => {
    const out = tempDir(`jobs-${jobs}`);
    const r = cli([
      'batch',
      before,
      after,
      '--jobs',
      String(jobs),
      '--json-file',
      path.join(out, 'report.json'),
      '--markdown',
      path.join(out, 'summary.md'),
      '--junit',
      path.join(out, 'junit.xml'),
      ...M,
    ]);
    assert.equal(r.code, 3, `the broken pair is an error (exit 3): ${r.stderr}`);
    return { out, stderr: r.stderr };
  });
  const [one, two] = runs;
  const report = untimed(path.join(one.out, 'report.json')) as {
    summary: Record<string, number>;
    pairs: { name: string; status: string; changed: boolean; report?: { regions: unknown[] } }[];
  };
  assert.deepEqual(
    report.pairs.map((p) => [p.name, p.status]),
    [
      ['a-example.png', 'compared'],
      ['b-screen.png', 'compared'],
      ['c-unchanged.png', 'compared'],
      ['d-moved.png', 'compared'],
      ['e-recoloured.png', 'compared'],
      ['f-broken.png', 'error'],
      ['g-added.png', 'added'],
      ['h-removed.png', 'removed'],
    ],
  );
  assert.deepEqual(report.summary, { pairs: 8, compared: 5, changed: 4, unchanged: 1, added: 1, removed: 1, errors: 1, seconds: 0 });
  assert.ok(report.pairs[0].report!.regions.length >= 2, 'the example pair has its regions and captions');
  assert.deepEqual(untimed(path.join(two.out, 'report.json')), report);
  assert.equal(fs.readFileSync(path.join(two.out, 'summary.md'), 'utf8'), fs.readFileSync(path.join(one.out, 'summary.md'), 'utf8'));
  const junit = (dir: string) => fs.readFileSync(path.join(dir, 'junit.xml'), 'utf8').replace(/time="[\d.]+"/g, 'time=""');
  assert.equal(junit(two.out), junit(one.out));
  const pairLines = (stderr: string) => stderr.split('\n').filter((l) => /^(CHANGED|unchanged|ERROR)/.test(l));
  assert.equal(pairLines(one.stderr).length, 6);
  assert.deepEqual(pairLines(two.stderr), pairLines(one.stderr));
});

test('batch --jobs 2 stopped by SIGTERM while its workers describe: exit 143, the workers stopped, no report written', async () => {
  const root = tempDir('jobs-sigterm');
  const pairs = path.join(root, 'pairs');
  for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
    fs.mkdirSync(path.join(pairs, name), { recursive: true });
    for (const side of ['before', 'after'])
      fs.copyFileSync(path.join(REPO_ROOT, 'examples', `${side}.png`), path.join(pairs, name, `${side}.png`));
  }
  const out = path.join(root, 'out');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'report.json'), '{"the previous run": true}');
  const child = spawn(process.execPath, [CLI, 'batch', '--pairs', pairs, '--jobs', '2', '--out', out, ...M]);
  let stderr = '';
  const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no pair was described: ${stderr}`)), 60_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // the first pair recorded: both workers are busy with the next ones
      if (/^CHANGED/m.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const killedAt = Date.now();
  child.kill('SIGTERM');
  const code = await ended;
  assert.equal(code, 143, stderr);
  assert.match(stderr, /procap: stopped by SIGTERM; no output was written/);
  assert.doesNotMatch(stderr, /Aborted|terminate called|ERROR/);
  assert.deepEqual(fs.readdirSync(out), [], 'neither the previous nor a new report');
  assert.ok(Date.now() - killedAt < 10_000, 'the workers stop at their next stage boundary');
});

test('batch --jobs 2 with a model file missing: exit 4 as with --jobs 1, no report', () => {
  const { before, after } = suite();
  const models = tempDir('jobs-models');
  for (const file of fs.readdirSync(MODELS_DIR))
    if (!file.startsWith('tokenizer_encoder') && fs.statSync(path.join(MODELS_DIR, file)).isFile())
      fs.copyFileSync(path.join(MODELS_DIR, file), path.join(models, file));
  for (const jobs of ['1', '2']) {
    const json = path.join(tempDir('jobs-model-out'), 'report.json');
    const r = cli(['batch', before, after, '--jobs', jobs, '--json-file', json, '--models', models, '--provider', 'cpu']);
    assert.equal(r.code, 4, `--jobs ${jobs}: ${r.stderr}`);
    assert.match(r.stderr, /procap: model error: .*tokenizer_encoder\.onnx: the model file is missing/);
    assert.doesNotMatch(r.stderr, /^(CHANGED|unchanged|ERROR)/m);
    assert.ok(!fs.existsSync(json));
  }
  fs.rmSync(models, { recursive: true, force: true });
});
