// Drives the real VS Code workbench served by code-server, as a user would: the explorer, context
// menus, the command palette, Source Control, the panel webview. Every wait is on a condition in the
// page; the only retries are the ones real-vscode-e2e.md describes (menus that register late, a click
// swallowed by a menu that has just opened, and likewise a folder click swallowed by the explorer).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { chromium } from 'playwright-core';

export const UI_TIMEOUT_MS = 30_000;

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.PROCAP_E2E_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Screenshots numbered in the order they are taken, into e2e-artifacts/. */
export class StepCamera {
  constructor(dir) {
    this.dir = dir;
    this.count = 0;
    mkdirSync(dir, { recursive: true });
  }
  async shot(page, name) {
    this.count += 1;
    const file = join(this.dir, `${String(this.count).padStart(2, '0')}-${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
    await page.screenshot({ path: file }).catch(() => undefined); // a failed screenshot must not hide the real failure
    return file;
  }
  /** A screenshot of one element (scrolled into view), e.g. a part of the webview. */
  async shotOf(locator, name) {
    this.count += 1;
    const file = join(this.dir, `${String(this.count).padStart(2, '0')}-${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
    await locator.screenshot({ path: file }).catch(() => undefined);
    return file;
  }
}

export async function openWorkbench(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  // The clipboard commands (copy caption) need permission in a headless browser.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor();
  await explorerRow(page, 'screenshots').waitFor();
  return page;
}

export function explorerRow(page, label) {
  return page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${label}"]`);
}

/** Opens the explorer and expands the folders on the way to a file; returns the file's row. */
export async function revealInExplorer(page, relativePath) {
  await showView(page, 'Explorer', '.explorer-folders-view');
  const parts = relativePath.split('/');
  for (let i = 0; i < parts.length - 1; i += 1) {
    const folder = explorerRow(page, parts[i]).first();
    await folder.waitFor();
    if ((await folder.getAttribute('aria-expanded')) !== 'true') {
      const expanded = page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${parts[i]}"][aria-expanded="true"]`).first();
      await folder.click();
      try {
        await expanded.waitFor({ timeout: 2000 });
      } catch {
        // Seen once right after switching to the Explorer: the click selected the folder while the
        // tree re-rendered, without toggling it (a swallowed click, as with menus in the note).
        // Expand the selected folder with the keyboard, as a user would.
        if ((await folder.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('ArrowRight');
        await expanded.waitFor();
      }
    }
  }
  const row = explorerRow(page, parts.at(-1)).first();
  try {
    await row.waitFor();
  } catch (error) {
    const rows = await page
      .locator('.explorer-folders-view .monaco-list-row')
      .evaluateAll((els) =>
        els.map(
          (el) =>
            `${el.getAttribute('aria-label')}${el.getAttribute('aria-expanded') === 'true' ? ' (open)' : ''}${el.classList.contains('selected') ? ' [selected]' : ''}`,
        ),
      );
    throw new Error(`explorer: no row "${parts.at(-1)}" for ${relativePath}; rows: ${rows.join(' | ')}\n${error.message}`);
  }
  return row;
}

/**
 * Selects files in the explorer with Ctrl+click only, starting from an empty selection. (A plain
 * click also opens a preview editor; seen under load: that editor, once loaded, took the focus and
 * closed the context menu opened next, and explorer auto-reveal re-selected its file after the
 * Ctrl+click. Ctrl+click selects without opening anything.) Each click is confirmed before the next.
 */
export async function selectInExplorer(page, relativePaths) {
  const name = (path) => path.split('/').at(-1);
  const selectedRows = page.locator('.explorer-folders-view .monaco-list-row.selected');
  for (const path of relativePaths) await revealInExplorer(page, path);
  // Focus the tree and clear its selection (Escape in a list), as a keyboard user would.
  await runCommand(page, 'File: Focus on Files Explorer');
  await page.locator('.explorer-folders-view .monaco-list:focus-within').first().waitFor();
  if ((await selectedRows.count()) > 0) {
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelectorAll('.explorer-folders-view .monaco-list-row.selected').length === 0);
  }
  let last;
  for (const path of relativePaths) {
    last = explorerRow(page, name(path)).first();
    await last.click({ modifiers: ['Control'] });
    await page
      .locator(`.explorer-folders-view .monaco-list-row.selected[aria-label="${name(path)}"]`)
      .first()
      .waitFor();
  }
  const count = await selectedRows.count();
  if (count !== relativePaths.length) {
    throw new Error(`explorer: ${count} rows selected, expected ${relativePaths.length} (${relativePaths.join(', ')})`);
  }
  return last;
}

/**
 * Shows a view container by clicking its activity bar icon (Explorer, Source Control, ProCap Review),
 * unless `readySelector` is already visible: clicking the icon of the open container would close it.
 */
export async function showView(page, activityLabel, readySelector) {
  if (await page.locator(readySelector).first().isVisible()) return;
  // The item (not its icon link): a badge such as "1 pending change" covers part of the icon.
  await page.locator(`.activitybar .action-item:has(> a[aria-label^="${activityLabel}"])`).click();
  await page.mouse.move(900, 450); // off the activity bar, so its tooltip goes away
  await page.locator(readySelector).first().waitFor();
}

const MENU = '.context-view .monaco-menu';

/**
 * Right-clicks `target` and picks `label` from its context menu. Extension contributions register a
 * few seconds after the workbench shows, so the menu is reopened until the item is there; a click
 * right after the menu opens can be swallowed, so if the menu is still open after it, Enter is used.
 */
export async function pickFromContextMenu(page, target, label, { timeoutMs = UI_TIMEOUT_MS } = {}) {
  const deadline = Date.now() + timeoutMs;
  const seen = [];
  for (;;) {
    await target.click({ button: 'right' });
    await page.locator(MENU).first().waitFor();
    const item = page
      .locator(`${MENU} .action-item:not(.disabled) a.action-menu-item`)
      .filter({ has: page.locator('.action-label', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
      .first();
    if ((await item.count()) > 0) {
      await item.hover();
      await item.click();
      await page.waitForTimeout(500); // let a swallowed click show itself before checking
      if (await page.locator(MENU).first().isVisible()) {
        await item.focus();
        await page.keyboard.press('Enter');
      }
      await page.locator(MENU).first().waitFor({ state: 'hidden' });
      return;
    }
    seen.push((await page.locator(`${MENU} .action-label`).allInnerTexts()).filter(Boolean).join(' | ') || '(menu closed)');
    // Escape only while the menu is open: sent to the explorer, Escape would clear its selection.
    if (await page.locator(MENU).first().isVisible()) await page.keyboard.press('Escape');
    await page.locator(MENU).first().waitFor({ state: 'hidden' });
    if (Date.now() > deadline) {
      throw new Error(`context menu has no "${label}" after ${timeoutMs} ms; it had, at each try: ${seen.join('  //  ')}`);
    }
    await page.waitForTimeout(1000); // menus register late (see the note): reopen after a moment
  }
}

/** Opens a workspace file as a user does with Go to File (Ctrl+P); waits for its editor tab. */
export async function openFile(page, relativePath) {
  const name = relativePath.split('/').at(-1);
  await page
    .locator('.quick-input-widget')
    .first()
    .waitFor({ state: 'hidden' })
    .catch(() => undefined);
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor();
  await input.fill(relativePath);
  const row = page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) })
    .first();
  await row.waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor();
}

async function openPalette(page, text) {
  await page
    .locator('.quick-input-widget')
    .first()
    .waitFor({ state: 'hidden' })
    .catch(() => undefined);
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor();
  await input.fill(text);
  return input;
}

/** The palette rows (their aria-labels, "Category: Title, Keybinding") that match `query`. */
export async function paletteMatches(page, query) {
  await openPalette(page, `>${query}`);
  // The list is filtered as one types: wait until it shows results or says there are none.
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await page.waitForFunction(() => {
    const w = document.querySelector('.quick-input-widget');
    return w && (w.querySelector('.quick-input-list .monaco-list-row') || /No matching/i.test(w.textContent ?? ''));
  });
  const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  await page.keyboard.press('Escape');
  return labels;
}

/** Runs a command from the palette by its full title ("Category: Title"). */
export async function runCommand(page, title) {
  await startCommand(page, title);
  await page
    .locator('.quick-input-widget')
    .first()
    .waitFor({ state: 'hidden' })
    .catch(() => undefined);
}

/**
 * Picks a command in the palette and returns at once (for a command that opens a picker of its own).
 * The palette lists the commands enabled when it opens: right after start-up a command whose enablement
 * waits on the workspace's trust state can be missing from that list, so the palette is closed and
 * opened again (as a user would) until the command shows, for up to 30 s.
 */
export async function startCommand(page, title) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    await openPalette(page, `>${title}`);
    const row = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
      .first();
    try {
      await row.waitFor({ timeout: Math.max(1_000, Math.min(5_000, deadline - Date.now())) });
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await page.keyboard.press('Escape');
      continue;
    }
    await row.click();
    return;
  }
}

/**
 * VS Code's open dialog as the browser shows it (the "simple file dialog", a quick input with a
 * path box): waits until a dialog whose title matches `titlePattern` has listed its start folder
 * (before that, it may still replace what was typed), types the file's absolute path, waits for the
 * file's row, presses Enter, and waits for this dialog to go (the next one reuses the widget).
 */
export async function pickFileInOpenDialog(page, titlePattern, absolutePath) {
  const widget = page.locator('.quick-input-widget');
  const title = widget.locator('.quick-input-title', { hasText: titlePattern });
  await title.waitFor();
  await page.waitForFunction(() => {
    const dialog = document.querySelector('.quick-input-widget');
    return (
      dialog?.querySelector('.quick-input-box input')?.value.endsWith('/') &&
      dialog.querySelectorAll('.quick-input-list .monaco-list-row').length > 0
    );
  });
  await widget.locator('.quick-input-box input').fill(absolutePath);
  const name = absolutePath.split('/').at(-1);
  await widget
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await title.waitFor({ state: 'hidden' });
}

/**
 * Answers VS Code's save dialog (in code-server the "simple" one: a quick input holding a path)
 * with an absolute path to a file that does not exist yet, and waits for it to close.
 */
export async function saveInSaveDialog(page, titlePattern, absolutePath) {
  const widget = page.locator('.quick-input-widget');
  const title = widget.locator('.quick-input-title', { hasText: titlePattern });
  await title.waitFor();
  // it opens with the suggested path once the folder is read; on a loaded machine that can take long
  // or (seen in CI) not come at all, so the wait is bounded and typing the path goes on regardless
  await page
    .waitForFunction(() => (document.querySelector('.quick-input-widget .quick-input-box input')?.value ?? '').length > 0, null, {
      timeout: 10000,
    })
    .catch(() => {});
  // the dialog reads the folder as the path is typed and may still be busy with it when Enter comes,
  // which it then ignores (or it replaces the typed path with the suggested one): the path is typed
  // again and Enter pressed again, a few times at most
  for (let attempt = 1; ; attempt++) {
    try {
      await widget.locator('.quick-input-box input').fill(absolutePath, { timeout: 8000 });
      const typed = (path) => document.querySelector('.quick-input-widget .quick-input-box input')?.value === path;
      await page.waitForFunction(typed, absolutePath, { timeout: 8000 });
      // a folder read still under way may put its suggestion back: the path must stay typed a moment
      await page.waitForTimeout(500);
      await page.waitForFunction(typed, absolutePath, { timeout: 2000 });
      await page.keyboard.press('Enter');
      await title.waitFor({ state: 'hidden', timeout: 8000 });
      return;
    } catch (error) {
      if (attempt >= 6 || !(await title.isVisible())) throw error;
    }
  }
}

/**
 * Picks a colour theme with "Preferences: Color Theme", as a user does; returns the label of the
 * theme that was active before (the picker opens with it focused), to restore it later.
 */
export async function pickColorTheme(page, label) {
  await startCommand(page, 'Preferences: Color Theme');
  const widget = page.locator('.quick-input-widget');
  const current = widget.locator('.quick-input-list .monaco-list-row.focused .label-name').first();
  await current.waitFor();
  const previous = (await current.innerText()).trim();
  await widget.locator('.quick-input-box input').fill(label);
  await widget
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  await widget.waitFor({ state: 'hidden' });
  return previous;
}

/** The modal dialog VS Code shows for `showWarningMessage(..., { modal: true })`. */
export function modalDialog(page) {
  return page.locator('.monaco-dialog-box');
}

/** Clicks a button of the open modal dialog by its label, and waits for the dialog to close. */
export async function answerModalDialog(page, label) {
  const dialog = modalDialog(page);
  await dialog.locator('.dialog-buttons .monaco-button', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }).click();
  await dialog.waitFor({ state: 'hidden' });
}

export function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The hooks every suite shares, registered in the calling describe(): one browser and workbench page
 * for all tests, each test starting with no editors and no notifications, a screenshot at the end.
 * setPage hands the page to the suite; the returned uiTest is node:test's test() with a time bound
 * and a screenshot of the workbench when the test fails.
 */
export function workbenchSuite({ url, camera, timeoutMs, setPage }) {
  let browser;
  let page;
  before(async () => {
    browser = await launchBrowser();
    page = await openWorkbench(browser, url);
    setPage(page);
  });
  beforeEach(async () => {
    if (!page) return;
    await page.keyboard.press('Escape');
    await runCommand(page, 'View: Close All Editors');
    await runCommand(page, 'Notifications: Clear All Notifications');
  });
  after(async () => {
    if (page) await camera.shot(page, 'final');
    await browser?.close();
  });
  return function uiTest(name, body) {
    test(name, { timeout: timeoutMs }, async () => {
      try {
        await body();
      } catch (error) {
        if (page) await camera.shot(page, `FAILED-${name.slice(0, 40)}`);
        throw error;
      }
    });
  };
}

/** The row of a snapshot failure (the path without -actual/-expected) in the Snapshot Test Failures view. */
export async function snapshotFailureRow(page, failurePath) {
  await showView(page, 'ProCap Review', '.pane-header[aria-label^="Snapshot Test Failures"]');
  const pane = page.locator('.pane').filter({ has: page.locator('.pane-header[aria-label^="Snapshot Test Failures"]') });
  const name = failurePath.split('/').at(-1);
  const row = pane
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: name }) })
    .first();
  await row.waitFor();
  return row;
}
