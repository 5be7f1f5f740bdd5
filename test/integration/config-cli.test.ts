// procap.config.json read by `describe` and `batch`: a masked clock is not a change, thresholds
// and --config FILE, and a bad config is a usage error naming the file and the key.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, MODELS_DIR, drawPng, tempDir, type Rect } from '../unit/runtime-fixtures.js';

const M = ['--models', MODELS_DIR, '--provider', 'cpu', '--no-procedure', '--beam', '1'];
function cli(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
}

// a header with a clock whose bars differ; `button` recolours a button below
function screen(clock: 0 | 1, button = false): Buffer {
  const rects: Rect[] = [
    [0, 0, 480, 40, 40, 40, 60],
    [20, 60, 300, 80, 200, 200, 200],
    [20, 100, 300, 120, 200, 200, 200],
    [360, 200, 440, 230, ...((button ? [220, 40, 40] : [30, 90, 220]) as [number, number, number])],
  ];
  const digits: Rect[][] = [
    [
      [406, 12, 410, 28, 255, 255, 255],
      [440, 20, 450, 28, 255, 255, 255],
    ],
    [
      [406, 12, 416, 16, 255, 255, 255],
      [452, 24, 462, 28, 255, 255, 255],
    ],
  ];
  return drawPng(480, 320, [...rects, ...digits[clock]]);
}

const root = tempDir('config-cli');
after(() => fs.rmSync(root, { recursive: true, force: true }));
fs.mkdirSync(path.join(root, 'old', 'pages'), { recursive: true });
fs.mkdirSync(path.join(root, 'new', 'pages'), { recursive: true });
fs.writeFileSync(path.join(root, 'old', 'pages', 'dashboard.png'), screen(0));
fs.writeFileSync(path.join(root, 'new', 'pages', 'dashboard.png'), screen(1));
fs.writeFileSync(path.join(root, 'old', 'pages', 'settings.png'), screen(0));
fs.writeFileSync(path.join(root, 'new', 'pages', 'settings.png'), screen(1, true));
const config = { screenshots: [{ glob: '**/pages/*.png', masks: [[400, 8, 470, 32]] }] };

test('describe reads ./procap.config.json: the masked clock is no change; without the config it is one', () => {
  const plain = cli(root, 'describe', 'old/pages/dashboard.png', 'new/pages/dashboard.png', '--json', ...M);
  assert.equal(plain.status, 0, plain.stderr);
  assert.equal(JSON.parse(plain.stdout).changed, true);

  fs.writeFileSync(path.join(root, 'procap.config.json'), JSON.stringify(config));
  try {
    const masked = cli(root, 'describe', 'old/pages/dashboard.png', 'new/pages/dashboard.png', '--json', ...M);
    assert.equal(masked.status, 0, masked.stderr);
    const report = JSON.parse(masked.stdout);
    assert.equal(report.changed, false);
    assert.equal(report.summary, 'no visible change');
    assert.deepEqual(report.masked, [[400, 8, 470, 32]]);
    const text = cli(root, 'describe', 'old/pages/dashboard.png', 'new/pages/dashboard.png', ...M, '--fail-on-change');
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^summary: no visible change$/m);
    assert.match(text.stdout, /^masked: \[400,8,470,32\]$/m);
    // the command line's threshold: the button change (2,400 px) is under 5,000 px
    const under = cli(root, 'describe', 'old/pages/settings.png', 'new/pages/settings.png', ...M, '--min-diff-pixels', '5000');
    assert.equal(under.status, 0, under.stderr);
    assert.match(under.stdout, /^summary: no visible change$/m);
    assert.match(under.stdout, /^under the threshold: 2400 differing pixels \(1\.6% of the image\): fewer than minDiffPixels 5000$/m);
  } finally {
    fs.rmSync(path.join(root, 'procap.config.json'));
  }
});

test('batch with --config FILE: masks per glob, a threshold per glob, the report says what was masked', () => {
  const file = path.join(root, 'ci', 'visual.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify({
      screenshots: [...config.screenshots, { glob: 'pages/settings.png', minDiffRatio: 0.5 }],
    }),
  );
  const out = path.join(root, 'out');
  const r = cli(root, 'batch', 'old', 'new', '--config', file, '--out', out, '--fail-on-change', ...M);
  assert.equal(r.status, 0, `nothing changed: ${r.stdout}${r.stderr}`);
  const json = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  const byName = Object.fromEntries(json.pairs.map((p: { name: string }) => [p.name, p]));
  assert.equal(byName['pages/dashboard.png'].changed, false);
  assert.deepEqual(byName['pages/dashboard.png'].report.masked, [[400, 8, 470, 32]]);
  assert.equal(byName['pages/settings.png'].changed, false);
  assert.match(byName['pages/settings.png'].report.belowThreshold.reason, /less than minDiffRatio 0\.5/);
  const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
  assert.match(html, /class="masked"/);

  // without the threshold, the button beside the masked clock is the one change
  fs.writeFileSync(file, JSON.stringify(config));
  const r2 = cli(root, 'batch', 'old', 'new', '--config', file, '--json', ...M);
  assert.equal(r2.status, 0, r2.stderr);
  const pairs = JSON.parse(r2.stdout).pairs;
  assert.deepEqual(
    pairs.map((p: { name: string; changed: boolean }) => [p.name, p.changed]),
    [
      ['pages/dashboard.png', false],
      ['pages/settings.png', true],
    ],
  );
});

test('a bad config is a usage error (exit 2) naming the file and the key, before any work', () => {
  const file = path.join(root, 'bad.json');
  fs.writeFileSync(file, JSON.stringify({ screenshots: [{ glob: '*.png', masks: [[470, 8, 400, 32]] }] }));
  const r = cli(root, 'batch', 'old', 'new', '--config', file, ...M);
  assert.equal(r.status, 2);
  assert.match(
    r.stderr,
    new RegExp(
      `${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: screenshots\\[0\\]\\.masks\\[0\\] must be \\[x0, y0, x1, y1\\] with x0 < x1`,
    ),
  );
  fs.writeFileSync(file, JSON.stringify({ ignore: [] }));
  const d = cli(root, 'describe', 'old/pages/dashboard.png', 'new/pages/dashboard.png', '--config', file, ...M);
  assert.equal(d.status, 2);
  assert.match(d.stderr, /bad\.json: unknown key "ignore"/);
  const missing = cli(root, 'describe', 'old/pages/dashboard.png', 'new/pages/dashboard.png', '--config', 'nope.json', ...M);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /nope\.json: cannot read the config file/);
  const ratio = cli(root, 'describe', 'old/pages/dashboard.png', 'new/pages/dashboard.png', '--min-diff-ratio', '2', ...M);
  assert.equal(ratio.status, 2);
  assert.match(ratio.stderr, /--min-diff-ratio must be a number from 0 to 1 \(got 2\)/);
});
