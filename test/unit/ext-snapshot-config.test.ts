import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import {
  PLAYWRIGHT_DEFAULT_TEMPLATE,
  readPlaywrightConfig,
  readSnapshotLayout,
  templateBaseDir,
  templatePattern,
} from '../../src/extension/pure/snapshotConfig.js';
import { pairSnapshotOutputs, playwrightBaselineCandidates } from '../../src/extension/pure/snapshotPairing.js';

/** A temporary workspace folder with the given files (text or bytes). */
function workspace(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'procap-snapcfg-'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(root, ...file.split('/').slice(0, -1)), { recursive: true });
    writeFileSync(join(root, ...file.split('/')), content);
  }
  return root;
}

function listFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(root, full));
    else out.push(relative(root, full).split(sep).join('/'));
  }
  return out;
}

const png = (tag: string) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from(tag)]);

test('a Playwright config with a custom outputDir and snapshotPathTemplate: its failure pairs and its baseline is found', () => {
  const root = workspace({
    'web/playwright.config.ts': [
      "import { defineConfig, devices } from '@playwright/test';",
      '// outputDir: "ignored/in/a/comment"',
      'export default defineConfig({',
      "  testDir: './e2e',",
      "  outputDir: 'out/pw-results',",
      "  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',",
      "  use: { baseURL: 'http://localhost:3000' },",
      "  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],",
      '});',
    ].join('\n'),
    'web/e2e/login.spec.ts': "test('login', async ({ page }) => { await expect(page).toHaveScreenshot('login-page.png'); });",
    'web/e2e/__screenshots__/login.spec.ts/login-page.png': png('baseline'),
    'web/e2e/__screenshots__/other.spec.ts/login-page.png': png('another test, same name'),
    'web/out/pw-results/login-login-chromium/login-page-expected.png': png('baseline'),
    'web/out/pw-results/login-login-chromium/login-page-actual.png': png('actual'),
    'web/out/pw-results/login-login-chromium/login-page-diff.png': png('diff'),
    // not an output folder: an -actual file elsewhere is not a failure
    'web/e2e/fixtures/x-actual.png': png('x'),
    'web/e2e/fixtures/x-expected.png': png('x'),
  });
  try {
    const layout = readSnapshotLayout(root, ['web/playwright.config.ts', 'web/e2e/login.spec.ts']);
    assert.deepEqual(layout.playwright, [
      {
        config: 'web/playwright.config.ts',
        testDir: 'web/e2e',
        outputDir: 'web/out/pw-results',
        snapshotDir: 'web/e2e',
        snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',
      },
    ]);
    assert.deepEqual(layout.notes, []);
    const files = listFiles(root);
    const pairs = pairSnapshotOutputs(files, layout);
    assert.deepEqual(pairs, [
      {
        framework: 'playwright',
        name: 'login-page',
        expected: 'web/out/pw-results/login-login-chromium/login-page-expected.png',
        actual: 'web/out/pw-results/login-login-chromium/login-page-actual.png',
        diff: 'web/out/pw-results/login-login-chromium/login-page-diff.png',
      },
    ]);
    // without the layout, the custom output folder is not found (what the config reader is for)
    assert.deepEqual(pairSnapshotOutputs(files), []);
    assert.equal(templateBaseDir(layout.playwright[0]), 'web/e2e/__screenshots__');
    const candidates = playwrightBaselineCandidates(pairs[0], files, layout);
    assert.deepEqual(candidates, [
      'web/e2e/__screenshots__/login.spec.ts/login-page.png',
      'web/e2e/__screenshots__/other.spec.ts/login-page.png',
    ]);
    // the caller keeps the candidate whose bytes equal the -expected copy
    const expected = readFileSync(join(root, pairs[0].expected));
    const baseline = candidates.find((c) => readFileSync(join(root, c)).equals(expected));
    assert.equal(baseline, 'web/e2e/__screenshots__/login.spec.ts/login-page.png');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('per-project overrides, expect.toHaveScreenshot.pathTemplate, and values that are not literals fall back with a note', () => {
  const source = [
    "const path = require('path');",
    'module.exports = {',
    "  testDir: path.join(__dirname, 'tests'),",
    '  outputDir: process.env.CI ? "ci-results" : "results",',
    '  snapshotDir: `./snaps`,',
    "  expect: { toHaveScreenshot: { pathTemplate: '{snapshotDir}/{projectName}/{arg}{ext}' } },",
    '  projects: [',
    "    { name: 'mobile', outputDir: \"mobile-results\", snapshotPathTemplate: '__mobile__/{arg}{-platform}{ext}' },",
    "    { name: 'desktop' },",
    "    { name: 'templated', outputDir: `out-${'x'}` },",
    '  ],',
    '};',
  ].join('\n');
  const { layouts, notes } = readPlaywrightConfig('pkg/playwright.config.js', source, '/ws');
  assert.deepEqual(layouts, [
    {
      config: 'pkg/playwright.config.js',
      testDir: 'pkg',
      outputDir: 'pkg/test-results',
      snapshotDir: 'pkg/snaps',
      snapshotPathTemplate: '{snapshotDir}/{projectName}/{arg}{ext}',
    },
    {
      config: 'pkg/playwright.config.js',
      project: 'mobile',
      testDir: 'pkg',
      outputDir: 'pkg/mobile-results',
      snapshotDir: 'pkg/snaps',
      snapshotPathTemplate: '__mobile__/{arg}{-platform}{ext}',
    },
  ]);
  assert.equal(notes.length, 3, notes.join('\n'));
  assert.match(notes[0], /testDir is not a string literal \(path\.join/);
  assert.match(notes[1], /outputDir is not a string literal/);
  assert.match(notes[2], /projects\[templated\]\.outputDir is not a string literal/);
  // a relative template resolves against the config's folder; {-platform} is optional with its dash
  const mobile = templatePattern(layouts[1], 'home');
  assert.ok(mobile.test('pkg/__mobile__/home-linux.png'));
  assert.ok(mobile.test('pkg/__mobile__/home.png'));
  assert.ok(!mobile.test('pkg/__mobile__/home-1.png/x.png'));
  assert.ok(!mobile.test('__mobile__/home.png'));
  assert.ok(templatePattern(layouts[0], 'home').test('pkg/snaps/chromium/home.png'));
  assert.ok(!templatePattern(layouts[0], 'home').test('pkg/snaps/chromium/homepage.png'));
});

test("Playwright's default template: {testFileDir} may be empty, the project and suffix optional", () => {
  const layout = {
    config: 'playwright.config.ts',
    testDir: 'tests',
    outputDir: 'test-results',
    snapshotDir: 'tests',
    snapshotPathTemplate: PLAYWRIGHT_DEFAULT_TEMPLATE,
  };
  const pattern = templatePattern(layout, 'home-1');
  assert.ok(pattern.test('tests/home.spec.ts-snapshots/home-1-chromium-linux.png'));
  assert.ok(pattern.test('tests/sub/dir/home.spec.ts-snapshots/home-1.png'));
  assert.ok(!pattern.test('other/home.spec.ts-snapshots/home-1.png'));
  assert.equal(templateBaseDir(layout), 'tests');
});

test('jest-image-snapshot customSnapshotsDir / customDiffDir in a setup file: the failure pairs with its baseline', () => {
  const root = workspace({
    'app/package.json': '{"name":"app"}',
    'app/jest.setup.js': [
      "const { configureToMatchImageSnapshot } = require('jest-image-snapshot');",
      'const toMatchImageSnapshot = configureToMatchImageSnapshot({',
      "  customSnapshotsDir: 'visual/baselines',",
      "  customDiffDir: 'visual/diffs',",
      "  customReceivedDir: 'visual/received',",
      '});',
      'expect.extend({ toMatchImageSnapshot });',
    ].join('\n'),
    'app/src/button.test.js': "expect(image).toMatchImageSnapshot({ customDiffDir: path.join(__dirname, 'd') });",
    'app/visual/baselines/button.png': png('b'),
    'app/visual/diffs/button-diff.png': png('d'),
    'app/visual/received/button-received.png': png('r'),
    'app/visual/diffs/orphan-diff.png': png('o'),
  });
  try {
    const layout = readSnapshotLayout(root, ['app/jest.setup.js', 'app/src/button.test.js']);
    assert.deepEqual(layout.jest, [
      {
        source: 'app/jest.setup.js',
        snapshotsDir: 'app/visual/baselines',
        diffDir: 'app/visual/diffs',
        receivedDir: 'app/visual/received',
      },
    ]);
    assert.equal(layout.notes.length, 1);
    assert.match(layout.notes[0], /app\/src\/button\.test\.js: customDiffDir is not a string literal/);
    assert.deepEqual(pairSnapshotOutputs(listFiles(root), layout), [
      {
        framework: 'jest-image-snapshot',
        name: 'button',
        expected: 'app/visual/baselines/button.png',
        baseline: 'app/visual/baselines/button.png',
        actual: 'app/visual/received/button-received.png',
        diff: 'app/visual/diffs/button-diff.png',
      },
    ]);
    assert.deepEqual(pairSnapshotOutputs(listFiles(root)), [], 'the default layout does not know these folders');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a customDiffDir alone: the baseline stays in __image_snapshots__ beside the test; paths outside the folder are refused', () => {
  const root = workspace({
    'package.json': '{}',
    'test/visual.spec.ts': [
      "it('card', async () => {",
      "  expect(await shot()).toMatchImageSnapshot({ customDiffDir: './out/image-diffs', failureThreshold: 0.01 });",
      "  expect(await shot()).toMatchImageSnapshot({ customSnapshotsDir: '/etc/snaps' });",
      '});',
    ].join('\n'),
    'test/__image_snapshots__/visual-spec-ts-card-1-snap.png': png('b'),
    'out/image-diffs/visual-spec-ts-card-1-snap-diff.png': png('d'),
  });
  try {
    const layout = readSnapshotLayout(root, ['test/visual.spec.ts']);
    assert.deepEqual(layout.jest, [{ source: 'test/visual.spec.ts', diffDir: 'out/image-diffs' }]);
    assert.match(layout.notes.join('\n'), /customSnapshotsDir '\/etc\/snaps' is outside the workspace folder/);
    const pairs = pairSnapshotOutputs(listFiles(root), layout);
    assert.deepEqual(
      pairs.map((p) => [p.name, p.baseline, p.actual ?? null]),
      [['visual-spec-ts-card-1-snap', 'test/__image_snapshots__/visual-spec-ts-card-1-snap.png', null]],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('no config: the defaults; an unreadable file is noted, not fatal', () => {
  const root = workspace({ 'README.md': '# x' });
  try {
    const layout = readSnapshotLayout(root, ['playwright.config.ts']);
    assert.deepEqual(layout.playwright, []);
    assert.match(layout.notes[0], /playwright\.config\.ts: cannot be read/);
    const empty = readPlaywrightConfig('playwright.config.ts', 'export default config;', root);
    assert.deepEqual(empty.layouts[0], {
      config: 'playwright.config.ts',
      testDir: '',
      outputDir: 'test-results',
      snapshotDir: '',
      snapshotPathTemplate: PLAYWRIGHT_DEFAULT_TEMPLATE,
    });
    assert.match(empty.notes[0], /no configuration object literal/);
    const rootOutput = readPlaywrightConfig('playwright.config.ts', "export default defineConfig({ outputDir: '.' });", root);
    assert.equal(rootOutput.layouts[0].outputDir, 'test-results');
    assert.match(rootOutput.notes[0], /outputDir is the workspace folder itself/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
