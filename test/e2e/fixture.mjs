// Builds the end-to-end fixture workspace in a given (empty) folder, at test time:
//   - screenshots rendered by headless Chromium from small HTML pages (real PNG screenshots),
//   - a git repository whose history changes a screenshot: `main` holds the baseline, the
//     `feature` branch commits a changed home.png, and settings.png is modified in the working tree,
//   - two images to compare side by side (compare/before.png, compare/after.png) and a corrupt one,
//   - an image with a staged change and a further, different change in the working tree
//     (screenshots/profile.png: Source Control lists it under Staged Changes and under Changes),
//   - a Playwright-style snapshot failure under test-results/ (actual, expected, diff) whose baseline
//     is committed under src/login.spec.ts-snapshots/ (byte-equal to the -expected copy, as
//     Playwright leaves it), so that "accept" has a real file to overwrite,
//   - a second Playwright project, shop/, whose playwright.config.ts sets its own outputDir and
//     snapshotPathTemplate: its failure lies in shop/reports/pw/ and its baseline in
//     shop/tests/__screenshots__/cart.spec.ts/ (found only by reading the config),
//   - source files and a Markdown file that name the changed screenshots.
// Usage: node test/e2e/fixture.mjs WORKSPACE_DIR   (prints a JSON description of what it made)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, existsSync, readdirSync, copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';

const workspace = resolve(process.argv[2] ?? '');
if (!process.argv[2]) {
  console.error('fixture.mjs: give the workspace folder to create, e.g. node test/e2e/fixture.mjs /tmp/ws');
  process.exit(2);
}
if (existsSync(workspace) && readdirSync(workspace).length > 0) {
  console.error(`fixture.mjs: ${workspace} is not empty; the fixture is only built into an empty folder`);
  process.exit(2);
}
mkdirSync(workspace, { recursive: true });

const CHROMIUM = process.env.PROCAP_E2E_CHROMIUM ?? '/usr/bin/chromium';

/** A small app screen; the options change one thing at a time, like a real UI regression. */
function appPage({
  title = 'Account',
  buttonColor = '#1f6feb',
  buttonLabel = 'Sign in',
  extraRow = false,
  banner = false,
  clock = '',
} = {}) {
  return `<!doctype html><html><head><style>
    body { margin: 0; font-family: 'DejaVu Sans', sans-serif; background: #f6f8fa; color: #1f2328; }
    header { background: #24292f; color: #fff; padding: 14px 20px; font-size: 18px; }
    main { padding: 20px; }
    .card { background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 18px; width: 300px; }
    label { display: block; font-size: 13px; margin: 10px 0 4px; }
    .input { height: 26px; border: 1px solid #d0d7de; border-radius: 6px; }
    button { margin-top: 16px; background: ${buttonColor}; color: #fff; border: 0; border-radius: 6px;
      padding: 8px 18px; font-size: 14px; }
    .banner { background: #fff8c5; border: 1px solid #d4a72c; padding: 8px 12px; margin-bottom: 12px;
      width: 312px; font-size: 13px; border-radius: 6px; }
  </style></head><body>
    <header>${title}${clock ? `<span style="position: absolute; right: 16px; top: 15px; font-size: 14px">${clock}</span>` : ''}</header>
    <main>
      ${banner ? '<div class="banner">Your password expires in 3 days</div>' : ''}
      <div class="card">
        <label>Email</label><div class="input"></div>
        <label>Password</label><div class="input"></div>
        ${extraRow ? '<label>One-time code</label><div class="input"></div>' : ''}
        <button>${buttonLabel}</button>
      </div>
    </main>
  </body></html>`;
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: 400, height: 320 }, deviceScaleFactor: 1 });
async function render(path, html) {
  mkdirSync(join(path, '..'), { recursive: true });
  await page.setContent(html);
  await page.screenshot({ path });
}
const at = (...parts) => join(workspace, ...parts);

function git(...args) {
  execFileSync(
    'git',
    [
      '-c',
      'user.name=E2E Fixture',
      '-c',
      'user.email=e2e@example.invalid',
      '-c',
      'commit.gpgsign=false',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ],
    { cwd: workspace, stdio: 'pipe' },
  );
}

// Baseline on main.
git('init', '-q');
await render(at('screenshots', 'home.png'), appPage());
await render(at('screenshots', 'settings.png'), appPage({ title: 'Settings', buttonLabel: 'Save' }));
await render(at('screenshots', 'profile.png'), appPage({ title: 'Profile', buttonLabel: 'Update' }));
// Playwright's committed baseline of the login page (<spec>-snapshots/<name>-<project>-<platform>.png).
const snapshotBaseline = 'src/login.spec.ts-snapshots/login-page-chromium-linux.png';
await render(at(...snapshotBaseline.split('/')), appPage({ title: 'Login' }));
mkdirSync(at('src'), { recursive: true });
writeFileSync(
  at('src', 'home.spec.ts'),
  [
    '// Visual check of the home screen.',
    "import { test, expect } from '@playwright/test';",
    '',
    "test('home screen', async ({ page }) => {",
    "  await page.goto('/');",
    "  await expect(page).toHaveScreenshot('screenshots/home.png');",
    '});',
    '',
  ].join('\n'),
);
writeFileSync(
  at('src', 'settings.spec.ts'),
  [
    '// Visual check of the settings screen.',
    "import { test, expect } from '@playwright/test';",
    '',
    "test('settings screen', async ({ page }) => {",
    "  await page.goto('/settings');",
    "  await expect(page).toHaveScreenshot('screenshots/settings.png');",
    '});',
    '',
  ].join('\n'),
);
// The second Playwright project: custom outputDir and snapshotPathTemplate (relative to its config).
const customSnapshotBaseline = 'shop/tests/__screenshots__/cart.spec.ts/cart-page.png';
await render(at(...customSnapshotBaseline.split('/')), appPage({ title: 'Cart', buttonLabel: 'Checkout' }));
writeFileSync(
  at('shop', 'playwright.config.ts'),
  [
    "import { defineConfig } from '@playwright/test';",
    '',
    'export default defineConfig({',
    "  testDir: './tests',",
    "  outputDir: 'reports/pw',",
    "  snapshotPathTemplate: '{testDir}/__screenshots__/{testFilePath}/{arg}{ext}',",
    "  projects: [{ name: 'chromium' }],",
    '});',
    '',
  ].join('\n'),
);
writeFileSync(
  at('shop', 'tests', 'cart.spec.ts'),
  [
    "import { test, expect } from '@playwright/test';",
    '',
    "test('cart page', async ({ page }) => {",
    "  await page.goto('/cart');",
    "  await expect(page).toHaveScreenshot('cart-page.png');",
    '});',
    '',
  ].join('\n'),
);
writeFileSync(at('README.md'), '# Fixture app\n\nThe settings screen:\n\n![settings](screenshots/settings.png)\n');
writeFileSync(at('.gitignore'), 'test-results/\ncompare/\nshop/reports/\n');
// The project's ignore regions: the clock in the header of the compare/clock-*.png screens.
writeFileSync(
  at('procap.config.json'),
  JSON.stringify({ screenshots: [{ glob: 'compare/clock-*.png', masks: [[300, 0, 400, 48]] }] }, null, 2) + '\n',
);
git('add', '-A');
git('commit', '-q', '-m', 'Baseline screenshots');

// A feature branch whose history changes home.png (the button turns green).
git('checkout', '-q', '-b', 'feature');
await render(at('screenshots', 'home.png'), appPage({ buttonColor: '#1a7f37' }));
git('commit', '-q', '-am', 'Home: green sign-in button');
// An uncommitted change in the working tree: settings.png gets a banner (Source Control shows it modified).
await render(at('screenshots', 'settings.png'), appPage({ title: 'Settings', buttonLabel: 'Save', banner: true }));
// A staged change (an added form row) and, on top of it, a different change left in the working tree
// (the button turns green): staged ↔ working tree differs only in the button, HEAD ↔ staged only in the row.
await render(at('screenshots', 'profile.png'), appPage({ title: 'Profile', buttonLabel: 'Update', extraRow: true }));
git('add', 'screenshots/profile.png');
await render(
  at('screenshots', 'profile.png'),
  appPage({ title: 'Profile', buttonLabel: 'Update', extraRow: true, buttonColor: '#1a7f37' }),
);

// Two loose images to compare from the explorer, and a file that only pretends to be a PNG.
await render(at('compare', 'before.png'), appPage({ title: 'Sign up' }));
await render(at('compare', 'after.png'), appPage({ title: 'Sign up', extraRow: true }));
writeFileSync(at('compare', 'corrupt.png'), Buffer.from('this is not a PNG file, it only has the name of one\n'));
// Two screens that differ only in a clock the project's procap.config.json masks.
await render(at('compare', 'clock-before.png'), appPage({ title: 'Dashboard', clock: '10:42' }));
await render(at('compare', 'clock-after.png'), appPage({ title: 'Dashboard', clock: '11:07' }));
// Two screens whose only change is a clock no rule masks: the panel's "Ignore a region" draws one.
await render(at('compare', 'time-before.png'), appPage({ title: 'Reports', clock: '09:15' }));
await render(at('compare', 'time-after.png'), appPage({ title: 'Reports', clock: '17:58' }));

/** The red <name>-diff.png Playwright writes beside <name>-expected.png and <name>-actual.png. */
function writeSnapshotDiff(dir, name) {
  const expected = PNG.sync.read(readFileSync(join(dir, `${name}-expected.png`)));
  const actual = PNG.sync.read(readFileSync(join(dir, `${name}-actual.png`)));
  const diff = new PNG({ width: expected.width, height: expected.height });
  pixelmatch(expected.data, actual.data, diff.data, expected.width, expected.height, { threshold: 0.1 });
  writeFileSync(join(dir, `${name}-diff.png`), PNG.sync.write(diff));
}

// A Playwright snapshot failure: <name>-expected.png, <name>-actual.png and the red <name>-diff.png.
const snapshotDir = at('test-results', 'login-Login-page-chromium');
mkdirSync(snapshotDir, { recursive: true });
copyFileSync(at(...snapshotBaseline.split('/')), join(snapshotDir, 'login-page-expected.png')); // Playwright copies the baseline
await render(join(snapshotDir, 'login-page-actual.png'), appPage({ title: 'Login', buttonLabel: 'Log in' }));
writeSnapshotDiff(snapshotDir, 'login-page');
// The shop project's failure, in its configured outputDir.
const customSnapshotDir = at('shop', 'reports', 'pw', 'cart-cart-page-chromium');
mkdirSync(customSnapshotDir, { recursive: true });
copyFileSync(at(...customSnapshotBaseline.split('/')), join(customSnapshotDir, 'cart-page-expected.png'));
await render(join(customSnapshotDir, 'cart-page-actual.png'), appPage({ title: 'Cart', buttonLabel: 'Pay now' }));
writeSnapshotDiff(customSnapshotDir, 'cart-page');

await browser.close();
process.stdout.write(
  JSON.stringify(
    {
      workspace,
      branch: 'feature',
      baseBranch: 'main',
      committedChange: 'screenshots/home.png',
      workingTreeChange: 'screenshots/settings.png',
      compare: ['compare/before.png', 'compare/after.png'],
      corrupt: 'compare/corrupt.png',
      maskedClock: ['compare/clock-before.png', 'compare/clock-after.png'],
      ignoreInPanel: ['compare/time-before.png', 'compare/time-after.png'],
      snapshotFailure: 'test-results/login-Login-page-chromium/login-page',
      snapshotBaseline,
      // the shop/ project (custom outputDir and snapshotPathTemplate in shop/playwright.config.ts)
      customSnapshotFailure: 'shop/reports/pw/cart-cart-page-chromium/cart-page',
      customSnapshotBaseline,
      // staged (index) version differs from HEAD, and the working tree differs from the staged version
      stagedChange: 'screenshots/profile.png',
      // every image that differs between the merge base with main and the working tree
      prReviewChanges: ['screenshots/home.png', 'screenshots/settings.png', 'screenshots/profile.png'],
      // settings.png differs from HEAD (working tree), home.png only from main (committed on feature).
      namingSource: { file: 'src/settings.spec.ts', line: 6, names: 'screenshots/settings.png' },
      namingSourceCommitted: { file: 'src/home.spec.ts', line: 6, names: 'screenshots/home.png' },
    },
    null,
    2,
  ) + '\n',
);
