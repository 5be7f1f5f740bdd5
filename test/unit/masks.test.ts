import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionManager } from '../../src/core/session.js';
import { describe, NO_CHANGE_CAPTION } from '../../src/core/pipeline.js';
import { diffImages, MASK_SAME } from '../../src/core/diff.js';
import { decodePng } from '../../src/core/image.js';
import { applyMasks, belowThreshold } from '../../src/core/masks.js';
import {
  ConfigError,
  exactGlob,
  globMatcher,
  matchesGlob,
  parseConfig,
  loadConfig,
  settingsFor,
  screenshotName,
} from '../../src/core/config.js';
import { renderGallery } from '../../src/core/html-report.js';
import type { Box } from '../../src/core/report.js';
import { MODELS_DIR, drawPng, tempDir, type Rect } from './runtime-fixtures.js';

// A settings screen with a clock in its header bar: the clock's "digits" (white bars) differ
// between the two screenshots; optionally the page's button changes colour too.
const CLOCK: Box = [400, 8, 470, 32];
function clockPair(buttonChanges: boolean): { before: Buffer; after: Buffer } {
  const common: Rect[] = [
    [0, 0, 480, 40, 40, 40, 60],
    [20, 60, 300, 80, 200, 200, 200],
    [20, 100, 300, 120, 200, 200, 200],
    [20, 140, 260, 160, 200, 200, 200],
  ];
  const digitsBefore: Rect[] = [
    [406, 12, 410, 28, 255, 255, 255],
    [414, 12, 424, 16, 255, 255, 255],
    [440, 20, 450, 28, 255, 255, 255],
    [456, 12, 460, 28, 255, 255, 255],
  ];
  const digitsAfter: Rect[] = [
    [406, 12, 416, 16, 255, 255, 255],
    [420, 12, 424, 28, 255, 255, 255],
    [440, 12, 444, 28, 255, 255, 255],
    [452, 24, 462, 28, 255, 255, 255],
  ];
  const button = (r: number, g: number, b: number): Rect => [360, 200, 440, 230, r, g, b];
  return {
    before: drawPng(480, 320, [...common, ...digitsBefore, button(30, 90, 220)]),
    after: drawPng(480, 320, [...common, ...digitsAfter, buttonChanges ? button(220, 40, 40) : button(30, 90, 220)]),
  };
}

let sessions: SessionManager;
let dir: string;
before(() => {
  sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  dir = tempDir('masks');
});
after(async () => {
  await sessions.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('glob matching: *, **, ?, {a,b}; a glob without a slash matches the file name in any folder', () => {
  assert.ok(matchesGlob('home.png', '*.png'));
  assert.ok(matchesGlob('pages/home.png', '*.png'));
  assert.ok(matchesGlob('pages/home.png', 'home.png'));
  assert.ok(!matchesGlob('pages/home.png', 'pages/*.jpg'));
  assert.ok(matchesGlob('pages/home.png', 'pages/*.png'));
  assert.ok(!matchesGlob('pages/deep/home.png', 'pages/*.png'));
  assert.ok(matchesGlob('pages/deep/home.png', 'pages/**/*.png'));
  assert.ok(matchesGlob('pages/home.png', 'pages/**/*.png'), '**/ matches zero folders');
  assert.ok(matchesGlob('a/b/c/dashboard-1.png', '**/dashboard-?.png'));
  assert.ok(!matchesGlob('a/b/c/dashboard-12.png', '**/dashboard-?.png'));
  assert.ok(matchesGlob('shots/login.png', 'shots/{login,signup}.png'));
  assert.ok(matchesGlob('shots/signup.png', 'shots/{login,signup}.png'));
  assert.ok(!matchesGlob('shots/logout.png', 'shots/{login,signup}.png'));
  assert.ok(matchesGlob('./shots/a.png', 'shots/*.png'));
  assert.ok(matchesGlob('shots\\a.png', 'shots/*.png'));
  assert.ok(!matchesGlob('shotsXa.png', 'shots?a.png'.replace('?', '/')));
  assert.ok(matchesGlob('a.b.png', 'a.b.png') && !matchesGlob('aXb.png', 'a.b.png'), 'a dot is literal');
  assert.ok(matchesGlob('tests/__screenshots__/x/y.png', 'tests/__screenshots__/**'));
});

test('glob matching (picomatch): braces, ranges, character classes, ** and dot-folders, escapes, ./ anchoring', () => {
  // braces, nested and with a range
  assert.ok(matchesGlob('shots/login-dark.png', 'shots/{login,signup}-{dark,light}.png'));
  assert.ok(!matchesGlob('shots/login-dim.png', 'shots/{login,signup}-{dark,light}.png'));
  assert.ok(matchesGlob('shots/step3.png', 'shots/step{1..4}.png') && !matchesGlob('shots/step5.png', 'shots/step{1..4}.png'));
  assert.ok(matchesGlob('a/b/x.png', '{a/**/x,c/y}.png'), 'a brace alternative may hold ** and /');
  // character classes: a set, a range, a negation (shell style [!x] and [^x]), a POSIX class
  assert.ok(matchesGlob('shots/page-7.png', 'shots/page-[0-9].png') && !matchesGlob('shots/page-x.png', 'shots/page-[0-9].png'));
  assert.ok(matchesGlob('shots/v2.png', 'shots/v[123].png') && !matchesGlob('shots/v4.png', 'shots/v[123].png'));
  assert.ok(matchesGlob('shots/ac.png', 'shots/a[!b].png') && !matchesGlob('shots/ab.png', 'shots/a[!b].png'));
  assert.ok(matchesGlob('shots/ac.png', 'shots/a[^b].png') && !matchesGlob('shots/ab.png', 'shots/a[^b].png'));
  assert.ok(!matchesGlob('shots/a/.png', 'shots/a[!b].png'), 'a class never matches /');
  assert.ok(matchesGlob('x/q.png', 'x/[[:alpha:]].png') && !matchesGlob('x/1.png', 'x/[[:alpha:]].png'));
  // ** across folders, zero folders, and folders or files that start with a dot
  assert.ok(matchesGlob('a/b/c/d.png', 'a/**/d.png') && matchesGlob('a/d.png', 'a/**/d.png'));
  assert.ok(matchesGlob('.storybook/shots/x.png', '**/*.png'), '** and * match dot-folders and dot-files');
  assert.ok(matchesGlob('shots/.hidden.png', 'shots/*.png'));
  assert.ok(!matchesGlob('a/b/d.png', 'a/*/*/d.png'));
  // escapes and a glob naming one file exactly
  assert.ok(matchesGlob('shots/[1].png', 'shots/\\[1\\].png') && !matchesGlob('shots/1.png', 'shots/\\[1\\].png'));
  // a leading ./ anchors at the root; without a slash the name matches in any folder
  assert.ok(matchesGlob('home.png', './home.png') && !matchesGlob('pages/home.png', './home.png'));
  assert.ok(matchesGlob('pages/home.png', 'home.png'));
  assert.ok(matchesGlob('./pages/home.png', './pages/*.png'));
  // the whole-path matcher (--paths) has no base-name rule
  assert.ok(globMatcher('*.png')('a.png') && !globMatcher('*.png')('d/a.png'));
  assert.throws(() => globMatcher(''), TypeError);
});

test('exactGlob: the glob the panel writes for one screenshot matches it and nothing else', () => {
  const names = [
    'compare/time-after.png',
    'a/b [1].png',
    'a/(x){y,z}*?.png',
    'top!.png',
    'a/+@x,y.png',
    'a/é ü.png',
    'home.png',
    'x/[!a].png',
  ];
  for (const name of names) {
    const glob = exactGlob(name);
    assert.ok(matchesGlob(name, glob), `${glob} matches ${name}`);
    for (const other of [name.replace(/\.png$/, 'X.png'), `sub/${name}`, name.replace(/^[^/]*\//, 'other/'), 'a/b1.png', 'a/xy.png'])
      if (other !== name) assert.ok(!matchesGlob(other, glob), `${glob} must not match ${other}`);
  }
  assert.equal(exactGlob('compare/time-after.png'), 'compare/time-after.png');
  assert.equal(exactGlob('home.png'), './home.png');
  assert.equal(exactGlob('a/b [1].png'), 'a/b \\[1\\].png');
});

test('config: parsed, and per screenshot masks add up while the last matching threshold wins', () => {
  const config = parseConfig(
    JSON.stringify({
      minDiffPixels: 5,
      screenshots: [
        { glob: '**/*.png', masks: [[0, 0, 10, 10]] },
        { glob: 'dash/*.png', masks: [[400, 8, 470, 32]], minDiffPixels: 50, minDiffRatio: 0.01 },
      ],
    }),
    'procap.config.json',
  );
  assert.deepEqual(settingsFor(config, 'dash/home.png'), {
    masks: [
      [0, 0, 10, 10],
      [400, 8, 470, 32],
    ],
    minDiffPixels: 50,
    minDiffRatio: 0.01,
  });
  assert.deepEqual(settingsFor(config, 'other/home.png'), { masks: [[0, 0, 10, 10]], minDiffPixels: 5 });
  assert.deepEqual(settingsFor(undefined, 'x.png'), { masks: [] });
  assert.equal(screenshotName('/p/shots/a.png', '/p'), 'shots/a.png');
  assert.equal(screenshotName('/elsewhere/a.png', '/p'), '/elsewhere/a.png');
});

test('config: bad files are refused with a message naming the file and the key', () => {
  const bad = (value: unknown, pattern: RegExp) => {
    assert.throws(
      () => parseConfig(typeof value === 'string' ? value : JSON.stringify(value), '/proj/procap.config.json'),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.file === '/proj/procap.config.json' &&
        /^\/proj\/procap\.config\.json: /.test(e.message) &&
        pattern.test(e.message),
    );
  };
  bad('{"minDiffPixels": 3,', /not valid JSON/);
  bad([], /must be a JSON object/);
  bad({ minDiffPixel: 3 }, /unknown key "minDiffPixel"/);
  bad({ screenshots: [{ glob: 'a.png', mask: [] }] }, /unknown key "screenshots\[0\]\.mask"/);
  bad({ minDiffPixels: '3' }, /minDiffPixels must be an integer of 0 or more \(got "3"\)/);
  bad({ minDiffPixels: 2.5 }, /minDiffPixels must be an integer/);
  bad({ minDiffRatio: 2 }, /minDiffRatio must be a number from 0 to 1 \(got 2\)/);
  bad({ screenshots: [{ glob: 'a.png', minDiffRatio: -0.1 }] }, /screenshots\[0\]\.minDiffRatio must be a number from 0 to 1/);
  bad({ screenshots: {} }, /"screenshots" must be an array/);
  bad({ screenshots: ['a.png'] }, /screenshots\[0\] must be an object/);
  bad({ screenshots: [{ masks: [] }] }, /screenshots\[0\]\.glob must be a non-empty string/);
  bad(
    { screenshots: [{ glob: 'a.png', masks: [[10, 0, 5, 8]] }] },
    /screenshots\[0\]\.masks\[0\] must be \[x0, y0, x1, y1\] with x0 < x1 and y0 < y1 .*got \[10,0,5,8\]/,
  );
  bad({ screenshots: [{ glob: 'a.png', masks: [[0, 9, 5, 8]] }] }, /masks\[0\].*x0 < x1 and y0 < y1/);
  bad({ screenshots: [{ glob: 'a.png', masks: [[0, 0, 5]] }] }, /masks\[0\].*four integers/);
  bad({ screenshots: [{ glob: 'a.png', masks: [[0, 0, 5, '8']] }] }, /masks\[0\].*four integers/);
  bad({ screenshots: [{ glob: 'a.png', masks: [[-1, 0, 5, 8]] }] }, /masks\[0\].*four integers of 0 or more/);
  bad({ screenshots: [{ glob: 'a.png', masks: { x: 1 } }] }, /screenshots\[0\]\.masks must be an array/);
  assert.throws(
    () => loadConfig(path.join(dir, 'missing.json')),
    (e: unknown) => e instanceof ConfigError && /missing\.json: cannot read the config file \(ENOENT\)/.test(e.message),
  );
});

test('applyMasks clears the masked pixels of the diff and clips the boxes to the compared area', () => {
  const pair = clockPair(true);
  const diff = diffImages(decodePng(pair.before, 'before.png'), decodePng(pair.after, 'after.png'));
  const before = diff.diffPixels;
  assert.ok(before > 0);
  const applied = applyMasks(diff, [CLOCK, [470, 300, 900, 900], [600, 0, 700, 10]]);
  assert.deepEqual(applied, [CLOCK, [470, 300, 480, 320]], 'a box wholly outside is left out, one across the edge clipped');
  for (let y = CLOCK[1]; y < CLOCK[3]; y++)
    for (let x = CLOCK[0]; x < CLOCK[2]; x++) assert.equal(diff.mask[y * diff.width + x], MASK_SAME);
  assert.equal(diff.diffPixels, 80 * 30, 'only the button (80 x 30) is left');
  assert.throws(() => applyMasks(diff, [[5, 5, 5, 9]]), RangeError);
});

test('a clock that changes inside a masked box is no change; unmasked it is one', async () => {
  const { before: b, after: a } = clockPair(false);
  const beforeFile = path.join(dir, 'clock-before.png');
  const afterFile = path.join(dir, 'clock-after.png');
  fs.writeFileSync(beforeFile, b);
  fs.writeFileSync(afterFile, a);

  const unmasked = await describe(sessions, beforeFile, afterFile, { procedure: false });
  assert.equal(unmasked.changed, true, unmasked.summary);
  assert.ok(unmasked.regions.some((r) => !r.noiseOnly && r.boxBefore[0] < CLOCK[2] && r.boxBefore[2] > CLOCK[0]));
  assert.deepEqual(unmasked.masked, []);

  const masked = await describe(sessions, beforeFile, afterFile, { procedure: false, masks: [CLOCK] });
  assert.equal(masked.changed, false, masked.summary);
  assert.equal(masked.summary, NO_CHANGE_CAPTION);
  assert.equal(masked.regions.length, 0);
  assert.deepEqual(masked.masked, [CLOCK]);
  assert.equal(masked.belowThreshold, undefined);

  // a real change beside the masked clock is still found, and only it
  const both = clockPair(true);
  const report = await describe(sessions, both.before, both.after, { procedure: false, masks: [CLOCK] });
  assert.equal(report.changed, true);
  const meaningful = report.regions.filter((r) => !r.noiseOnly);
  assert.equal(meaningful.length, 1);
  const [x0, y0, x1, y1] = meaningful[0].boxBefore;
  assert.ok(x0 <= 360 && y0 <= 200 && x1 >= 440 && y1 >= 230 && y0 >= CLOCK[3], `the button's box: ${meaningful[0].boxBefore.join(',')}`);
});

test('thresholds: a difference under minDiffPixels or minDiffRatio is "no visible change" with the reason', async () => {
  const { before: b, after: a } = clockPair(false);
  const plain = await describe(sessions, b, a, { procedure: false });
  const diff = diffImages(decodePng(b, 'before.png'), decodePng(a, 'after.png'));
  assert.ok(diff.diffPixels > 100 && diff.diffPixels < 400, `clock pixels ${diff.diffPixels}`);
  assert.equal(plain.changed, true);

  const underPixels = await describe(sessions, b, a, { procedure: false, minDiffPixels: diff.diffPixels + 1 });
  assert.equal(underPixels.changed, false);
  assert.equal(underPixels.summary, NO_CHANGE_CAPTION);
  assert.equal(underPixels.regions.length, 0);
  assert.equal(underPixels.belowThreshold?.diffPixels, diff.diffPixels);
  assert.match(
    underPixels.belowThreshold!.reason,
    new RegExp(`^${diff.diffPixels} differing pixels \\(.*% of the image\\): fewer than minDiffPixels ${diff.diffPixels + 1}$`),
  );

  const atPixels = await describe(sessions, b, a, { procedure: false, minDiffPixels: diff.diffPixels });
  assert.equal(atPixels.changed, true, 'exactly the threshold is a change');
  assert.equal(atPixels.belowThreshold, undefined);

  const ratio = diff.diffPixels / (480 * 320);
  const underRatio = await describe(sessions, b, a, { procedure: false, minDiffRatio: ratio * 1.01 });
  assert.equal(underRatio.changed, false);
  assert.match(underRatio.belowThreshold!.reason, /less than minDiffRatio/);
  const overRatio = await describe(sessions, b, a, { procedure: false, minDiffRatio: ratio * 0.99 });
  assert.equal(overRatio.changed, true);

  // identical images: nothing to explain
  assert.equal(belowThreshold(0, 100, { minDiffPixels: 10 }), undefined);
  await assert.rejects(describe(sessions, b, a, { minDiffRatio: 1.5 }), RangeError);
  await assert.rejects(describe(sessions, b, a, { minDiffPixels: -1 }), RangeError);
});

test('HTML report: the masked boxes are drawn hatched and listed; the threshold reason is shown', async () => {
  const { before: b, after: a } = clockPair(false);
  const report = await describe(sessions, b, a, { procedure: false, masks: [CLOCK], minDiffPixels: 1 });
  const html = renderGallery([{ name: 'clock.png', status: 'compared', report, beforePng: b, afterPng: a }]);
  assert.match(html, /<pattern id="hatch-0-before"[^>]*patternTransform="rotate\(45\)"/);
  assert.match(html, /<rect class="masked" x="400" y="8" width="70" height="24" fill="url\(#hatch-0-after\)"/);
  assert.match(html, /ignored \(masked, drawn hatched\): \[400, 8, 470, 32\]/);
  const under = await describe(sessions, b, a, { procedure: false, minDiffPixels: 100000 });
  const html2 = renderGallery([{ name: 'clock.png', status: 'compared', report: under, beforePng: b, afterPng: a }]);
  assert.match(html2, /under the threshold: \d+ differing pixels/);
  assert.doesNotMatch(html2, /class="masked"/);
});
