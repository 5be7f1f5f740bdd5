// A picture of the procedure player on a screenshot pair: the pair described (with its procedure
// frames), the panel's own page (dist/webview.js and media/panel.css, as the extension
// inlines them) shown in headless Chromium outside VS Code with a light theme's colours, the
// region chosen, the scrubber moved to a frame, and the player section saved as a PNG.
// Needs `npm run build` and `node scripts/build-extension.mjs` (dist/webview.js) first.
// Usage: node scripts/player-shot.mjs BEFORE.png AFTER.png OUT.png [--region N] [--frame F] [--width PX]
import { readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { region: { type: 'string' }, frame: { type: 'string', default: '4' }, width: { type: 'string', default: '900' } },
});
if (positionals.length !== 3) {
  console.error('usage: node scripts/player-shot.mjs BEFORE.png AFTER.png OUT.png [--region N] [--frame F] [--width PX]');
  process.exit(2);
}
const [before, after, out] = positionals.map((p) => resolve(p));
let browser;
try {
  const { SessionManager } = await import(join(root, 'dist', 'src', 'core', 'session.js'));
  const { describe } = await import(join(root, 'dist', 'src', 'core', 'pipeline.js'));
  const report = await describe(new SessionManager({ modelsDir: join(root, 'models'), provider: 'cpu' }), before, after);
  const framed = report.regions.filter((r) => r.procedure && !r.noiseOnly);
  const region = values.region ? framed.find((r) => r.id === Number(values.region)) : framed[0];
  if (!region) throw new Error(`no region ${values.region ?? ''} with procedure frames in ${before} -> ${after}`);
  const png = (path, label) => {
    const bytes = readFileSync(path);
    return {
      dataUri: `data:image/png;base64,${bytes.toString('base64')}`,
      label,
      width: bytes.readUInt32BE(16),
      height: bytes.readUInt32BE(20),
    };
  };
  const message = {
    type: 'report',
    title: `${before.split('/').at(-1)} ↔ ${after.split('/').at(-1)}`,
    report,
    before: png(before, 'before'),
    after: png(after, 'after'),
    canAccept: false,
    canExportHtml: true,
    framesPending: false,
  };
  const { buildWebviewHtml } = await import(join(root, 'dist', 'src', 'extension', 'pure', 'webviewHtml.js'));
  // a light theme's colours for what VS Code would set
  const theme = `:root { --vscode-font-family: 'DejaVu Sans', sans-serif; --vscode-font-size: 13px;
    --vscode-foreground: #3b3b3b; --vscode-descriptionForeground: #717171; --vscode-editor-background: #ffffff;
    --vscode-panel-border: #e5e5e5; --vscode-focusBorder: #005fb8; --vscode-button-background: #005fb8;
    --vscode-button-foreground: #ffffff; --vscode-button-secondaryBackground: #e5e5e5; --vscode-button-secondaryForeground: #3b3b3b; }
    body { background: #ffffff; color: #3b3b3b; font-family: var(--vscode-font-family); font-size: 13px; }\n`;
  const html = buildWebviewHtml({
    nonce: 'playershotplayershot0123',
    // what VS Code gives a webview: here a host that takes no message
    scriptText:
      'window.acquireVsCodeApi = () => ({ postMessage() {}, getState() {}, setState() {} });\n' +
      readFileSync(join(root, 'dist', 'webview.js'), 'utf8'),
    styleText: theme + readFileSync(join(root, 'media', 'panel.css'), 'utf8'),
  });
  browser = await chromium.launch({
    executablePath: process.env.PROCAP_E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none', '--force-color-profile=srgb'],
  });
  const page = await browser.newPage({ viewport: { width: Number(values.width), height: 900 }, deviceScaleFactor: 1 });
  page.on('console', (m) => m.type() === 'error' && console.error('page:', m.text()));
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.setContent(html);
  await page.evaluate((m) => window.postMessage(m, '*'), message);
  await page.locator(`[data-testid="region-caption"][data-region-id="${region.id}"]`).click();
  const scrubber = page.locator('[data-testid="procedure-scrubber"]');
  await scrubber.waitFor({ timeout: 10_000 }).catch(async (e) => {
    await page.screenshot({ path: `${out}.failed.png`, fullPage: true });
    throw new Error(`the player did not show a scrubber (the page is in ${out}.failed.png): ${e.message}`);
  });
  await scrubber.focus();
  await scrubber.press('Home');
  for (let i = 0; i < Number(values.frame); i++) await scrubber.press('ArrowRight');
  await page.locator(`[data-testid="procedure-frame"][data-frame-index="${values.frame}"]`).waitFor();
  await page.mouse.move(0, 0);
  await page.locator('[data-testid="procedure"]').screenshot({ path: out });
  console.log(`wrote ${out}: region ${region.id} (${region.caption}), frame ${values.frame}`);
} finally {
  await browser?.close();
}
