// The installed VSIX in an untrusted workspace (VS Code's Restricted Mode), driven like a user.
// run.sh starts a second code-server with workspace trust on, for a copy of the fixture that nobody
// trusted and whose .vscode/settings.json sets procapReview.maxImagePixels to 1 and keyframes to 1.
// What must hold is what package.json declares in capabilities.untrustedWorkspaces ("limited"):
// comparing images the user picks works; git features (vs HEAD/ref, Source Control, Changed
// Screenshots, inline captions) and accepting baselines are off; workspace values of the listed
// settings are ignored.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { panelChecks } from './review-panel.mjs';
import {
  openFile,
  paletteMatches,
  pickFromContextMenu,
  runCommand,
  selectInExplorer,
  showView,
  snapshotFailureRow,
  StepCamera,
  workbenchSuite,
} from './workbench.mjs';

function requiredEnv(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite with "npm run test:e2e" (test/e2e/run.sh)`);
  return value;
}

const url = requiredEnv('PROCAP_E2E_URL');
const workspace = requiredEnv('PROCAP_E2E_WORKSPACE');
const userDataDir = requiredEnv('PROCAP_E2E_USER_DATA');
const fixture = JSON.parse(readFileSync(requiredEnv('PROCAP_E2E_FIXTURE'), 'utf8'));
const manifest = JSON.parse(readFileSync(requiredEnv('PROCAP_E2E_INSTALLED_MANIFEST'), 'utf8'));
const contract = JSON.parse(readFileSync(new URL('../../models/contract.json', import.meta.url), 'utf8'));
const camera = new StepCamera(join(requiredEnv('PROCAP_E2E_ARTIFACTS'), 'untrusted'));
const extensionId = `${manifest.publisher}.${manifest.name}`.toLowerCase();
const TEST_TIMEOUT_MS = 200_000;
const MENU = '.context-view .monaco-menu';

const { panelFrame, changedPixelsBox, expectReportInPanel, panelImageBytes } = panelChecks({ extensionId, contract, workspace });

/** The extension's output channel as VS Code writes it to disk (this server's logs folder). */
function extensionLog() {
  const logs = join(userDataDir, 'logs');
  if (!existsSync(logs)) return '';
  const texts = [];
  for (const session of readdirSync(logs)) {
    for (const host of readdirSync(join(logs, session)).filter((name) => name.startsWith('exthost'))) {
      const file = join(logs, session, host, extensionId, 'ProCap Review.log');
      if (existsSync(file)) texts.push(readFileSync(file, 'utf8'));
    }
  }
  return texts.join('\n');
}

/** Polls a condition outside the page (a log file) until it holds; the bound only limits a failure. */
async function waitUntil(condition, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The labels of the context menu of `target` (opened and closed again). */
async function contextMenuLabels(page, target) {
  await target.click({ button: 'right' });
  await page.locator(MENU).first().waitFor();
  const labels = (await page.locator(`${MENU} .action-label`).allInnerTexts()).map((text) => text.trim()).filter(Boolean);
  await page.keyboard.press('Escape');
  await page.locator(MENU).first().waitFor({ state: 'hidden' });
  return labels;
}

/** Whether the palette lists a command ("Category: Title"). */
async function inPalette(page, title) {
  const rows = await paletteMatches(page, title);
  return rows.some((row) => row === title || row.startsWith(`${title},`));
}

describe('ProCap Review in an untrusted workspace (Restricted Mode)', () => {
  let page;
  const uiTest = workbenchSuite({
    url,
    camera,
    timeoutMs: TEST_TIMEOUT_MS,
    setPage: (p) => {
      page = p;
    },
  });

  uiTest('the folder opens in Restricted Mode and the extension activates there, as its manifest declares ("limited")', async () => {
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited', "the manifest's untrustedWorkspaces support");
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor();
    await camera.shot(page, 'restricted-mode');
    await waitUntil(
      () => extensionLog().includes('activating (workspace trusted: false)'),
      'the extension log says it activated in an untrusted workspace',
    );
  });

  uiTest("Describe Change on two images the user picks works, and the workspace's procapReview.* settings are ignored", async () => {
    // The workspace asks for at most 1 pixel per image and 1 keyframe: applied, every describe would
    // fail ("larger than 1 pixel") and the player would show 1 keyframe instead of the contract's k.
    const workspaceSettings = JSON.parse(readFileSync(join(workspace, '.vscode', 'settings.json'), 'utf8'));
    assert.equal(workspaceSettings['procapReview.maxImagePixels'], 1, 'fixture: the workspace setting this test relies on');
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    assert.ok(
      restricted.includes('procapReview.maxImagePixels') && restricted.includes('procapReview.keyframes'),
      `the manifest does not restrict the settings this test sets: ${restricted.join(', ')}`,
    );

    const [beforePath, afterPath] = fixture.compare;
    const lastRow = await selectInExplorer(page, [beforePath, afterPath]);
    await pickFromContextMenu(page, lastRow, 'Describe Change');
    await expectReportInPanel(page, {
      titleIncludes: `${beforePath} ↔ ${afterPath}`,
      changedBox: changedPixelsBox(beforePath, afterPath),
    });
    const shown = await panelImageBytes(page);
    assert.ok(shown.before.equals(readFileSync(join(workspace, beforePath))), `the panel's before image is not ${beforePath}`);
    assert.ok(shown.after.equals(readFileSync(join(workspace, afterPath))), `the panel's after image is not ${afterPath}`);
    const engineLine = extensionLog()
      .split('\n')
      .find((line) => line.includes('starting the engine'));
    assert.match(
      engineLine ?? '',
      new RegExp(`keyframes ${contract.k}\\b`),
      `the engine did not start with the default keyframes: ${engineLine}`,
    );
    await camera.shot(page, 'untrusted-describe-change');
  });

  uiTest('git features are off: no vs HEAD / vs Ref in the explorer menu or the palette; Changed Screenshots says why', async () => {
    // The menu of a single PNG (the previous test showed the extension's menu items are registered).
    const row = await selectInExplorer(page, [fixture.workingTreeChange]);
    const labels = await contextMenuLabels(page, row);
    assert.ok(labels.length >= 3, `the explorer menu looks empty: ${labels.join(' | ')}`);
    for (const hidden of ['Describe Change vs HEAD', 'Describe Change vs Ref...']) {
      assert.ok(!labels.includes(hidden), `"${hidden}" is offered in Restricted Mode: ${labels.join(' | ')}`);
    }
    assert.ok(await inPalette(page, 'ProCap Review: Describe Change'), 'Describe Change is missing from the palette');
    for (const title of ['ProCap Review: Describe Change vs HEAD', 'ProCap Review: Describe Change vs Ref...']) {
      assert.ok(!(await inPalette(page, title)), `"${title}" is in the palette in Restricted Mode`);
    }

    await showView(page, 'ProCap Review', '.pane-header[aria-label^="Changed Screenshots"]');
    const pane = page.locator('.pane').filter({ has: page.locator('.pane-header[aria-label^="Changed Screenshots"]') });
    await pane.locator('.welcome-view-content', { hasText: 'off in an untrusted workspace' }).waitFor();
    await pane.locator('.welcome-view-content .monaco-button', { hasText: 'Manage Workspace Trust' }).waitFor();
    await camera.shot(page, 'untrusted-changed-screenshots');
  });

  uiTest(
    'inline captions are off: no caption on a line naming a changed screenshot, no model run for it, and a message says why',
    async () => {
      const { file, names } = fixture.namingSource;
      await openFile(page, file);
      await page.locator('.monaco-editor .view-line', { hasText: names }).waitFor();
      await runCommand(page, 'ProCap Review: Refresh Inline Captions');
      await page
        .locator('.notifications-toasts .notification-list-item', { hasText: 'inline captions are off in an untrusted workspace' })
        .first()
        .waitFor();
      // The log line is written where the editor's captions are cleared: after it, none may show.
      await waitUntil(
        () => extensionLog().includes(`inline captions are off in an untrusted workspace (Restricted Mode): ${file} not scanned`),
        `the log says ${file} was not scanned`,
      );
      const decorated = await page.evaluate((text) => {
        for (const lineEl of document.querySelectorAll('.monaco-editor .view-line')) {
          if (!lineEl.textContent.includes(text)) continue;
          for (const span of lineEl.querySelectorAll('span')) {
            const content = getComputedStyle(span, '::after').content;
            if (content && content.includes('ProCap')) return content;
          }
        }
        return null;
      }, names);
      assert.equal(decorated, null, `line naming ${names} carries a caption in Restricted Mode`);
      assert.ok(!extensionLog().includes(`described ${names}`), `the model ran on ${names} for an inline caption`);
      await camera.shot(page, 'untrusted-inline-captions-off');
    },
  );

  uiTest(
    'baseline accept is off: a snapshot failure opens without "Accept as baseline" or "Ignore a region", the tree\'s accept action is disabled, the baseline is untouched',
    async () => {
      const baselineFile = join(workspace, fixture.snapshotBaseline);
      const original = readFileSync(baselineFile);
      const name = fixture.snapshotFailure.split('/').at(-1);
      const row = await snapshotFailureRow(page, fixture.snapshotFailure);
      await row.hover();
      const acceptAction = row.locator('.action-item:has(.action-label[aria-label="Accept Actual as Baseline..."])');
      await acceptAction.waitFor();
      assert.ok(await acceptAction.evaluate((el) => el.classList.contains('disabled')), 'the accept action is enabled in Restricted Mode');
      await row.locator('.action-label[aria-label="Open Snapshot Test Failure..."]').click();
      await expectReportInPanel(page, { titleIncludes: name });
      // The panel renders its action buttons with the report: Copy and Export are there, Accept is not.
      const panel = panelFrame(page);
      await panel.locator('[data-testid="summary"]').waitFor();
      assert.ok((await panel.locator('vscode-button').count()) > 0, 'the panel shows no action buttons at all');
      assert.equal(await panel.locator('[data-testid="accept"]').count(), 0, 'the panel offers "Accept as baseline" in Restricted Mode');
      // nor does it write procap.config.json (it is not even read there)
      assert.equal(await panel.locator('[data-testid="ignore-tool"]').count(), 0, 'the panel offers "Ignore a region" in Restricted Mode');
      assert.ok(readFileSync(baselineFile).equals(original), 'the baseline changed');
      await camera.shot(page, 'untrusted-snapshot-no-accept');
    },
  );
});
