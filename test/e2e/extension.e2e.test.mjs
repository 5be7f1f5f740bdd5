// End-to-end tests of the installed VSIX in a real VS Code (code-server), driven like a user.
// run.sh sets the environment: the server URL, the fixture workspace, the artifacts folder.
// The tests share one browser page and run in order; each starts by closing what the previous one left.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  launchBrowser, openWorkbench, paletteMatches, StepCamera,
} from './workbench.mjs';

function requiredEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite with "npm run test:e2e" (test/e2e/run.sh)`);
  return value;
}

const url = requiredEnv('PROCAP_E2E_URL');
const manifest = JSON.parse(readFileSync(requiredEnv('PROCAP_E2E_INSTALLED_MANIFEST'), 'utf8'));
const camera = new StepCamera(requiredEnv('PROCAP_E2E_ARTIFACTS'));

/** Palette titles ("Category: Title") of the contributed commands the palette should list. */
function paletteCommandTitles() {
  const hidden = new Set((manifest.contributes?.menus?.commandPalette ?? [])
    .filter((entry) => entry.when !== undefined).map((entry) => entry.command));
  return (manifest.contributes?.commands ?? [])
    .filter((command) => !hidden.has(command.command))
    .map((command) => (command.category ? `${command.category}: ${command.title}` : command.title));
}

describe('ProCap Review in a real VS Code (code-server)', () => {
  let browser;
  let page;

  before(async () => {
    browser = await launchBrowser();
    page = await openWorkbench(browser, url);
  });

  after(async () => {
    if (page) await camera.shot(page, 'final');
    await browser?.close();
  });

  test('the workbench loads with the extension installed, and its commands are in the palette', async () => {
    await camera.shot(page, 'workbench-loaded');
    const titles = paletteCommandTitles();
    assert.ok(titles.length > 0, `the installed manifest contributes no palette commands: ${JSON.stringify(manifest.contributes?.commands)}`);
    for (const title of titles) {
      // Contributions register a few seconds after the workbench shows: poll the palette until listed.
      const deadline = Date.now() + 30_000;
      let rows = [];
      while (Date.now() < deadline) {
        rows = await paletteMatches(page, title);
        if (rows.some((row) => row === title || row.startsWith(`${title},`))) break;
        await page.waitForTimeout(500);
      }
      assert.ok(rows.some((row) => row === title || row.startsWith(`${title},`)),
        `"${title}" is not in the command palette; it shows: ${rows.join(' | ')}`);
    }
    await camera.shot(page, 'palette-checked');
  });
});
