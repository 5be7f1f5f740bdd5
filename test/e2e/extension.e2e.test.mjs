// End-to-end tests of the installed VSIX in a real VS Code (code-server), driven like a user.
// run.sh sets the environment: the server URL, the fixture workspace, the artifacts folder.
// The tests share one browser page and run in order; each starts from a workbench with no editors
// open and no notifications, and waits on what the page shows (never on fixed sleeps).
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync, rmSync, statSync } from 'node:fs';
import { PNG } from 'pngjs';
import { join } from 'node:path';
import { DESCRIBE_TIMEOUT_MS, panelChecks } from './review-panel.mjs';
import {
  answerModalDialog,
  modalDialog,
  openFile,
  paletteMatches,
  pickColorTheme,
  pickFileInOpenDialog,
  pickFromContextMenu,
  runCommand,
  saveInSaveDialog,
  selectInExplorer,
  showView,
  startCommand,
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
const fixture = JSON.parse(readFileSync(requiredEnv('PROCAP_E2E_FIXTURE'), 'utf8'));
const manifest = JSON.parse(readFileSync(requiredEnv('PROCAP_E2E_INSTALLED_MANIFEST'), 'utf8'));
const contract = JSON.parse(readFileSync(new URL('../../models/contract.json', import.meta.url), 'utf8'));
const camera = new StepCamera(requiredEnv('PROCAP_E2E_ARTIFACTS'));
const userDataDir = requiredEnv('PROCAP_E2E_USER_DATA');
const extensionId = `${manifest.publisher}.${manifest.name}`.toLowerCase();

/** A bound for one test, so that a hang fails that test and the suite goes on. */
const TEST_TIMEOUT_MS = 200_000;

/** Palette titles ("Category: Title") of the contributed commands the palette should always list. */
function paletteCommandTitles() {
  const conditional = new Set(
    (manifest.contributes?.menus?.commandPalette ?? []).filter((entry) => entry.when !== undefined).map((entry) => entry.command),
  );
  return (manifest.contributes?.commands ?? [])
    .filter((command) => !conditional.has(command.command))
    .map((command) => (command.category ? `${command.category}: ${command.title}` : command.title));
}

const { panelFrame, changedPixelsBox, changedPixelsBoxOf, expectReportInPanel, panelImageBytes } = panelChecks({
  extensionId,
  contract,
  workspace,
});

/** A file's bytes in the fixture repository at a git revision (`HEAD:path`, `:path` = the staged version). */
function gitBlob(spec) {
  return execFileSync('git', ['show', spec], { cwd: workspace, maxBuffer: 64 << 20 });
}

/**
 * Runs inside the panel's page: the theme colours as the page sees them next to the workbench's
 * (both resolved to rgb() by the browser), the colours the page's key parts use, and every visible
 * text whose contrast with what is behind it is under 4.5:1 (WCAG AA; high-contrast themes aim at 7).
 */
function readPanelColours(body, { names, workbench }) {
  const resolve = (value) => {
    const probe = document.createElement('span');
    probe.style.color = value;
    body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  };
  const root = getComputedStyle(document.documentElement);
  const vars = Object.fromEntries(
    names.map((name) => [
      name,
      {
        webview: resolve(root.getPropertyValue(`--vscode-${name}`).trim()),
        workbench: resolve(workbench[name]),
      },
    ]),
  );
  const style = (selector) => {
    const el = document.querySelector(selector);
    return el ? getComputedStyle(el) : undefined;
  };
  const parse = (colour) => {
    const m = colour.match(/[\d.]+/g)?.map(Number) ?? [0, 0, 0, 0];
    return [m[0], m[1], m[2], m[3] ?? 1];
  };
  const luminance = ([r, g, b]) => {
    const channel = (c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const backgroundOf = (el) => {
    for (let node = el; node; node = node.parentElement ?? node.getRootNode()?.host) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg[3] > 0.5) return bg;
    }
    return parse(getComputedStyle(body).backgroundColor);
  };
  const blend = (fg, bg) => [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
  const ratio = (el) => {
    const bg = backgroundOf(el);
    const fg = blend(parse(getComputedStyle(el).color), bg);
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    return (hi + 0.05) / (lo + 0.05);
  };
  const unreadable = [];
  let checkedTexts = 0;
  let lowestRatio = Infinity;
  const visit = (scope) => {
    for (const el of scope.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      // A toolkit component's text is slotted: it takes the colour of the control inside its shadow root.
      const textOwner = el.shadowRoot ? (el.shadowRoot.querySelector('.control') ?? el) : el;
      const ownText = [...el.childNodes]
        .filter((n) => n.nodeType === 3)
        .map((n) => n.textContent.trim())
        .join(' ')
        .trim();
      if (ownText === '') continue;
      checkedTexts += 1;
      const r = ratio(textOwner);
      lowestRatio = Math.min(lowestRatio, r);
      if (r < 4.5)
        unreadable.push(
          `${el.tagName.toLowerCase()}${el.dataset?.testid ? `[${el.dataset.testid}]` : ''} "${ownText.slice(0, 30)}": ${r.toFixed(2)}:1`,
        );
    }
  };
  visit(document.body);
  return {
    vars,
    body: { color: getComputedStyle(body).color, background: getComputedStyle(body).backgroundColor },
    viewportBorder: style('[data-testid="viewport-before"]')?.borderTopColor,
    selectedCaptionBorder: style('[data-testid="region-caption"][aria-current="true"]')?.borderTopColor,
    selectedBoxOutline: style('[data-testid="region-box"].selected')?.outlineColor,
    unreadable,
    checkedTexts,
    lowestRatio: Math.round(lowestRatio * 100) / 100,
  };
}

/** A VS Code user setting as written in settings.json (plain JSON here: run.sh writes it). While VS Code
 * rewrites the file it can be read empty or half written: undefined then, so a poll reads it again. */
function userSetting(key) {
  const text = readFileSync(join(userDataDir, 'User', 'settings.json'), 'utf8');
  try {
    return JSON.parse(text)[key];
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Polls a condition outside the page (a file) until it holds; the bound only limits a failure. */
async function waitUntil(condition, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function notificationsMatching(page, pattern) {
  const toasts = page.locator('.notifications-toasts .notification-list-item-message');
  await toasts.filter({ hasText: pattern }).first().waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
  return toasts.allInnerTexts();
}

/** The procedure player plays (the frame shown advances), pauses, scrubs by keyboard to a chosen frame and zooms. */
async function checkProcedurePlayer(panel) {
  const count = contract.n_intermediate + 2;
  const player = panel.locator('[data-testid="procedure"]');
  const stage = panel.locator('[data-testid="procedure-frame"]');
  assert.equal(await stage.getAttribute('data-frame-index'), '0', 'the player starts at the before frame');
  assert.equal(await panel.locator('[data-testid="scrubber-keyframe"]').count(), contract.k, 'keyframes marked on the scrubber');
  await panel.locator('[data-testid="play"]').click();
  await panel.locator('[data-testid="procedure"][data-playing="true"]').waitFor();
  await panel.locator('[data-testid="procedure-frame"]:not([data-frame-index="0"])').waitFor({ timeout: 10_000 });
  await panel.locator('[data-testid="play"]').click();
  await panel.locator('[data-testid="procedure"][data-playing="false"]').waitFor();

  // the scrubber, by keyboard: Home, then five steps right is frame index 5
  const scrubber = panel.locator('[data-testid="procedure-scrubber"]');
  assert.equal(await scrubber.getAttribute('max'), String(count - 1));
  await scrubber.focus();
  await scrubber.press('Home');
  for (let i = 0; i < 5; i += 1) await scrubber.press('ArrowRight');
  await panel.locator('[data-testid="procedure-frame"][data-frame-index="5"]').waitFor();
  assert.equal(await scrubber.inputValue(), '5');
  assert.match(await panel.locator('[data-testid="procedure-frame-label"]').innerText(), new RegExp(`frame 6 of ${count}`));
  assert.equal(await player.getAttribute('data-playing'), 'false', 'scrubbing does not start playing');

  // the frames are the full-resolution ones, at the region's size: 1x draws them pixel for pixel
  // (the fixture's region is under the 640 px cap), in the region's proportions
  assert.equal(await stage.getAttribute('data-full'), 'true', 'the player shows the full-resolution frames');
  await panel.locator('[data-testid="procedure-zoom-1"]').click();
  await panel.locator('[data-testid="procedure-frame"][data-zoom="1"]').waitFor();
  const natural = await stage.evaluate((img) => ({
    width: img.naturalWidth,
    height: img.naturalHeight,
    frameWidth: Number(img.dataset.frameWidth),
    frameHeight: Number(img.dataset.frameHeight),
    drawn: img.getBoundingClientRect(),
  }));
  assert.deepEqual([natural.width, natural.height], [natural.frameWidth, natural.frameHeight], 'the frame shown is a full frame');
  assert.ok(
    Math.abs(natural.drawn.width - natural.width) <= 1 && Math.abs(natural.drawn.height - natural.height) <= 1,
    `at 1x the ${natural.width}x${natural.height} frame is drawn ${natural.drawn.width}x${natural.drawn.height}`,
  );
  // zoom: 2x draws the frame at twice the region's size, crisp; Fit brings it back
  await panel.locator('[data-testid="procedure-zoom-2"]').click();
  await panel.locator('[data-testid="procedure-frame"][data-zoom="2"]').waitFor();
  const zoomed = await stage.evaluate((img) => ({
    width: img.getBoundingClientRect().width,
    height: img.getBoundingClientRect().height,
    side: Number(img.dataset.side),
    rendering: getComputedStyle(img).imageRendering,
  }));
  const longer = Math.max(zoomed.width, zoomed.height);
  assert.ok(
    Math.abs(longer - zoomed.side) <= 1,
    `the frame is drawn ${zoomed.width}x${zoomed.height} px, its longer side not ${zoomed.side}`,
  );
  assert.ok(Math.abs(longer - 2 * Math.max(natural.width, natural.height)) <= 1, 'at 2x the frame is twice its size');
  assert.equal(zoomed.rendering, 'pixelated');
  await panel.locator('[data-testid="procedure-zoom-fit"]').click();
  await panel.locator('[data-testid="procedure-frame"][data-zoom="fit"]').waitFor();
}

/** "Export animation…" saves the region's procedure, through the save dialog, as an APNG of all its frames. */
async function checkAnimationExport(page, panel) {
  const target = join(userDataDir, `procedure-export-${Date.now()}.png`);
  // the dialog suggests a file in the home folder; on a loaded machine it may finish reading that folder
  // after the path was typed and save under its suggestion instead: that file is removed, the export tried again
  const home = process.env.HOME ?? '/root';
  const suggested = () => readdirSync(home).filter((name) => name.endsWith('.procedure.png'));
  const earlier = new Set(suggested());
  for (let attempt = 1; ; attempt++) {
    await panel.locator('[data-testid="export-animation"]').click();
    await saveInSaveDialog(page, /animated PNG/, target);
    try {
      await waitUntil(() => existsSync(target) && statSync(target).size > 0, `the animation is written to ${target}`, 10_000);
      break;
    } catch (error) {
      const stray = suggested().filter((name) => !earlier.has(name));
      for (const name of stray) rmSync(join(home, name));
      if (attempt >= 3 || stray.length === 0) throw error;
    }
  }
  const bytes = readFileSync(target);
  const types = [];
  let frames;
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'acTL') frames = bytes.readUInt32BE(at + 8);
    types.push(type);
    at += 12 + length;
  }
  const count = contract.n_intermediate + 2;
  assert.equal(frames, count, `acTL says ${frames} frames (chunks: ${types.join(' ')})`);
  assert.equal(types.filter((t) => t === 'fcTL').length, count, 'one fcTL a frame');
  const still = PNG.sync.read(bytes); // opens as an image: the first frame
  // the full-resolution frames, as the player shows them
  const shown = await panel
    .locator('[data-testid="procedure-frame"]')
    .evaluate((img) => [Number(img.dataset.frameWidth), Number(img.dataset.frameHeight)]);
  assert.deepEqual([still.width, still.height], shown, `the animation's frames are the player's (${still.width}x${still.height})`);
}

describe('ProCap Review in a real VS Code (code-server)', () => {
  let page;
  const uiTest = workbenchSuite({
    url,
    camera,
    timeoutMs: TEST_TIMEOUT_MS,
    setPage: (p) => {
      page = p;
    },
  });

  uiTest(
    'PR review, first thing after start-up: the Changed Screenshots tree captions every changed image; selecting one opens the panel',
    async () => {
      // First test on purpose: a user may open the review before the git extension has opened the
      // repository (a start-up race that once left the tree empty).
      await showView(page, 'ProCap Review', '.pane-header[aria-label^="Changed Screenshots"]');
      const pane = page.locator('.pane').filter({ has: page.locator('.pane-header[aria-label^="Changed Screenshots"]') });
      const rows = pane.locator('.monaco-list-row');
      // Start the review (the command behind the view's title action and its welcome button) from the
      // palette: a mouse on the title action leaves a tooltip over the tree's rows.
      await runCommand(page, 'ProCap Review: Review Changed Screenshots');
      const expected = fixture.prReviewChanges.map((p) => p.split('/').at(-1)).sort();
      // Wait until each changed image is listed with a caption (not waiting / captioning / error).
      await page.waitForFunction(
        ({ names }) => {
          const pane = [...document.querySelectorAll('.pane')].find((p) =>
            p.querySelector('.pane-header')?.getAttribute('aria-label')?.startsWith('Changed Screenshots'),
          );
          const items = [...(pane?.querySelectorAll('.monaco-list-row') ?? [])].map((row) => ({
            name: row.querySelector('.label-name')?.textContent ?? '',
            description: row.querySelector('.label-description')?.textContent ?? '',
          }));
          return names.every((name) =>
            items.some((item) => item.name === name && item.description !== '' && !/^(waiting|captioning…|error:)/.test(item.description)),
          );
        },
        { names: expected },
        { timeout: DESCRIBE_TIMEOUT_MS },
      );
      await camera.shot(page, 'pr-review-tree');
      const listed = await rows.evaluateAll((els) =>
        els.map((row) => ({
          name: row.querySelector('.label-name')?.textContent ?? '',
          description: row.querySelector('.label-description')?.textContent ?? '',
        })),
      );
      assert.deepEqual(listed.map((item) => item.name).sort(), expected, 'the tree lists exactly the changed images');

      const home = fixture.committedChange.split('/').at(-1);
      const homeRow = rows.filter({ has: page.locator('.label-name', { hasText: home }) }).first();
      await homeRow.click();
      const report = await expectReportInPanel(page, { titleIncludes: home });
      const treeCaption = listed.find((item) => item.name === home).description.replace(/^✓ /, '');
      assert.equal(report.summary, treeCaption, 'the tree row and the panel show the same caption');
      sharedHomeSummary = report.summary;
      await camera.shot(page, 'pr-review-opened');
    },
  );

  uiTest('the workbench loads with the extension installed, and its commands are in the palette', async () => {
    await camera.shot(page, 'workbench-loaded');
    const titles = paletteCommandTitles();
    assert.ok(
      titles.length > 0,
      `the installed manifest contributes no palette commands: ${JSON.stringify(manifest.contributes?.commands)}`,
    );
    for (const title of titles) {
      // Contributions register a few seconds after the workbench shows: poll the palette until listed.
      const deadline = Date.now() + 30_000;
      let rows = [];
      const listed = () => rows.some((row) => row === title || row.startsWith(`${title},`));
      while (Date.now() < deadline) {
        rows = await paletteMatches(page, title);
        if (listed()) break;
        await page.waitForTimeout(500);
      }
      assert.ok(listed(), `"${title}" is not in the command palette; it shows: ${rows.join(' | ')}`);
    }
    await camera.shot(page, 'palette-checked');
  });

  uiTest('explorer: two images selected, right-click "Describe Change" shows captions, boxes and the procedure', async () => {
    const [beforePath, afterPath] = fixture.compare;
    const lastRow = await selectInExplorer(page, [beforePath, afterPath]);
    await camera.shot(page, 'explorer-two-selected');
    await pickFromContextMenu(page, lastRow, 'Describe Change');
    const report = await expectReportInPanel(page, {
      titleIncludes: `${beforePath} ↔ ${afterPath}`,
      changedBox: changedPixelsBox(beforePath, afterPath),
    });
    await camera.shot(page, 'explorer-describe-report');
    const panel = panelFrame(page);
    await checkProcedurePlayer(panel);
    await camera.shotOf(panel.locator('[data-testid="procedure"]'), 'explorer-describe-procedure-player');
    await checkAnimationExport(page, panel);

    // Clicking a caption focuses its box.
    const first = panel.locator('[data-testid="region-caption"]').first();
    await first.click();
    await panel.locator(`[data-testid="region-caption"][aria-current="true"][data-region-id="${report.regions[0].id}"]`).waitFor();
    await panel.locator(`[data-testid="region-box"].selected[data-region-id="${report.regions[0].id}"]`).first().waitFor();

    // The five comparison views each show their own control.
    const viewControls = { swipe: 'swipe-slider', onion: 'onion-slider', blink: 'blink-showing', diff: 'diff-canvas' };
    for (const [mode, testId] of Object.entries(viewControls)) {
      await panel.locator(`[data-testid="view-${mode}"]`).click();
      await panel.locator(`[data-testid="view-${mode}"][aria-pressed="true"]`).waitFor();
      await panel.locator(`[data-testid="${testId}"]`).waitFor();
    }
    await camera.shot(page, 'explorer-describe-diff-view');
    await panel.locator('[data-testid="view-side-by-side"]').click();
    await panel.locator('[data-testid="view-side-by-side"][aria-pressed="true"]').waitFor();
  });

  uiTest('a mask in procap.config.json: a clock that changed only inside it is no change, and the panel draws it hatched', async () => {
    const [beforePath, afterPath] = fixture.maskedClock;
    const lastRow = await selectInExplorer(page, [beforePath, afterPath]);
    await pickFromContextMenu(page, lastRow, 'Describe Change');
    const panel = panelFrame(page);
    await panel.locator('[data-testid="title"]', { hasText: `${beforePath} ↔ ${afterPath}` }).waitFor();
    const summary = panel.locator('[data-testid="summary"]');
    const error = panel.locator('[data-testid="error"]');
    await summary.or(error).first().waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
    if (await error.isVisible()) assert.fail(`the panel shows an error instead of a report: ${await error.innerText()}`);
    assert.equal((await summary.innerText()).trim(), 'no visible change');
    assert.equal(await summary.getAttribute('data-changed'), 'false');
    await panel.locator('[data-testid="masked-box"]').first().waitFor();
    await panel.locator('[data-testid="masked-note"]', { hasText: '[300, 0, 400, 48]' }).waitFor();
    await camera.shot(page, 'masked-clock');
  });

  uiTest(
    'the panel\'s "Ignore a region": a box dragged over the change goes into procap.config.json and masks it; "Stop ignoring" takes it out',
    async () => {
      const [beforePath, afterPath] = fixture.ignoreInPanel;
      const configFile = join(workspace, 'procap.config.json');
      const original = readFileSync(configFile, 'utf8');
      const lastRow = await selectInExplorer(page, [beforePath, afterPath]);
      await pickFromContextMenu(page, lastRow, 'Describe Change');
      const panel = panelFrame(page);
      await panel.locator('[data-testid="title"]', { hasText: `${beforePath} ↔ ${afterPath}` }).waitFor();
      const summary = panel.locator('[data-testid="summary"]');
      await summary.or(panel.locator('[data-testid="error"]')).first().waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
      // no rule masks this clock yet: it is a change (else the test would prove nothing)
      assert.equal(await summary.getAttribute('data-changed'), 'true', `the clock change is not a change: "${await summary.innerText()}"`);
      assert.equal(await panel.locator('[data-testid="masked-box"]').count(), 0);

      // The box to draw: the changed pixels with a margin, in image pixels; the mouse works in screen
      // pixels of the fitted view, so the box drawn is read back from the tool's fields.
      const changed = changedPixelsBox(beforePath, afterPath);
      const png = readFileSync(join(workspace, afterPath));
      const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)]; // the IHDR chunk
      const want = [
        Math.max(0, changed[0] - 6),
        Math.max(0, changed[1] - 6),
        Math.min(width, changed[2] + 6),
        Math.min(height, changed[3] + 6),
      ];
      await panel.locator('[data-testid="zoom-fit"]').click();
      const drag = async () => {
        const image = panel.locator('[data-testid="viewport-after"] [data-testid="after-image"]');
        const rect = await image.boundingBox();
        const scale = rect.width / width;
        const at = (x, y) => [rect.x + x * scale, rect.y + y * scale];
        await page.mouse.move(...at(want[0] + 0.5, want[1] + 0.5));
        await page.mouse.down();
        await page.mouse.move(...at((want[0] + want[2]) / 2, (want[1] + want[3]) / 2), { steps: 4 });
        await page.mouse.move(...at(want[2] - 0.5, want[3] - 0.5), { steps: 4 });
        await page.mouse.up();
      };
      const tool = panel.locator('[data-testid="ignore-tool"]');
      const form = panel.locator('[data-testid="ignore-form"]');
      const draft = panel.locator('[data-testid="viewport-after"] [data-testid="ignore-draft"]');

      // Escape cancels a drawn box: nothing is written
      await tool.click();
      await form.waitFor();
      await drag();
      await draft.waitFor();
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'hidden' });
      assert.equal(await tool.getAttribute('aria-pressed'), 'false');
      assert.ok(await draft.isHidden(), 'the drawn box is gone after Escape');
      assert.equal(readFileSync(configFile, 'utf8'), original, 'Escape wrote nothing');

      // drawn again and confirmed
      await tool.click();
      await form.waitFor();
      await drag();
      const drawn = [];
      for (const field of ['x0', 'y0', 'x1', 'y1']) drawn.push(Number(await panel.locator(`[data-testid="ignore-${field}"]`).inputValue()));
      assert.equal(await draft.getAttribute('data-box'), drawn.join(','), 'the fields hold the box drawn');
      assert.ok(
        drawn[0] <= changed[0] && drawn[1] <= changed[1] && drawn[2] >= changed[2] && drawn[3] >= changed[3],
        `the box drawn ${JSON.stringify(drawn)} covers the changed pixels ${JSON.stringify(changed)}`,
      );
      assert.ok(
        drawn.every((v, i) => Math.abs(v - want[i]) <= 3),
        `the box drawn ${JSON.stringify(drawn)} is where the mouse went ${JSON.stringify(want)}`,
      );
      await camera.shot(page, 'ignore-region-drawn');
      await panel.locator('[data-testid="ignore-confirm"]').click();

      // written under the screenshot's own glob, the user's rule kept; the notification says where, with Undo
      await page
        .locator('.notifications-toasts .notification-list-item', {
          hasText: `added to procap.config.json (a new rule for "${afterPath}")`,
        })
        .first()
        .waitFor();
      const config = JSON.parse(readFileSync(configFile, 'utf8'));
      assert.deepEqual(config.screenshots, [...JSON.parse(original).screenshots, { glob: afterPath, masks: [drawn] }]);
      // described again with the mask: hatched, and no change any more
      await panel
        .locator(`[data-testid="viewport-after"] [data-testid="masked-box"][data-box="${drawn.join(',')}"]`)
        .waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
      await panel.locator('[data-testid="summary"][data-changed="false"]').waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
      assert.equal((await summary.innerText()).trim(), 'no visible change');
      await camera.shot(page, 'ignore-region-masked');

      // "Stop ignoring" takes it out of the file again, byte for byte, and the clock is a change again
      await panel.locator(`[data-testid="stop-ignoring"][data-box="${drawn.join(',')}"]`).click();
      await panel.locator('[data-testid="summary"][data-changed="true"]').waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
      assert.equal(await panel.locator('[data-testid="masked-box"]').count(), 0);
      assert.equal(readFileSync(configFile, 'utf8'), original, 'procap.config.json is as it was');
      await page
        .locator('.notifications-toasts .notification-list-item', { hasText: `removed from procap.config.json (rule "${afterPath}")` })
        .first()
        .waitFor();
    },
  );

  uiTest('Source Control: a modified image, right-click "Describe Change (HEAD ↔ Working Tree)"', async () => {
    const changed = fixture.workingTreeChange;
    const fileName = changed.split('/').at(-1);
    await showView(page, 'Source Control', '.scm-view');
    const row = page.locator(`.scm-view .monaco-list-row[aria-label^="${fileName}, Modified"]`).first();
    await row.waitFor();
    await camera.shot(page, 'scm-view');
    await pickFromContextMenu(page, row, 'Describe Change (HEAD ↔ Working Tree)');
    const report = await expectReportInPanel(page, { titleIncludes: fileName });
    // the working tree added a banner: the text reader quotes it, and the panel shows the words read
    assert.match(report.summary, /'Your password expires in 3 days' was added/, `the summary quotes the added banner: "${report.summary}"`);
    await panelFrame(page).locator('[data-testid="text-after"]', { hasText: 'Your password expires in 3 days' }).first().waitFor();
    await camera.shot(page, 'scm-describe-report');
    sharedSettingsSummary = report.summary;
  });

  uiTest('image diff editor: opening a modified image from Source Control, the title action "Describe This Image Diff"', async () => {
    const changed = fixture.workingTreeChange;
    const fileName = changed.split('/').at(-1);
    await showView(page, 'Source Control', '.scm-view');
    const row = page.locator(`.scm-view .monaco-list-row[aria-label^="${fileName}, Modified"]`).first();
    await row.waitFor();
    await row.click(); // Source Control opens the change as a diff (HEAD vs working tree)
    await page.locator('.tabs-container .tab.active', { hasText: fileName }).first().waitFor();
    const action = page.locator('.editor-actions .action-label[aria-label^="Describe This Image Diff"]').first();
    await action.waitFor();
    await camera.shot(page, 'image-diff-editor');
    await action.click();
    const report = await expectReportInPanel(page, { titleIncludes: fileName });
    if (sharedSettingsSummary)
      assert.equal(report.summary, sharedSettingsSummary, 'the diff editor and Source Control describe the same pair');
    await camera.shot(page, 'image-diff-editor-report');
  });

  uiTest('command palette: "Describe Change" asks for the before and after files in the open dialog', async () => {
    const [beforePath, afterPath] = fixture.compare;
    await startCommand(page, 'ProCap Review: Describe Change');
    await pickFileInOpenDialog(page, /choose the BEFORE image/, join(workspace, beforePath));
    await camera.shot(page, 'palette-after-picker');
    await pickFileInOpenDialog(page, /choose the AFTER image/, join(workspace, afterPath));
    await expectReportInPanel(page, {
      titleIncludes: `${beforePath} ↔ ${afterPath}`,
      changedBox: changedPixelsBox(beforePath, afterPath),
    });
    const shown = await panelImageBytes(page);
    assert.ok(shown.before.equals(readFileSync(join(workspace, beforePath))), `the panel's before image is not ${beforePath}`);
    assert.ok(shown.after.equals(readFileSync(join(workspace, afterPath))), `the panel's after image is not ${afterPath}`);
    await camera.shot(page, 'palette-describe-report');
  });

  uiTest(
    'keybindings: Ctrl+K Ctrl+Shift+D starts Describe Change with its file picker; Ctrl+K Ctrl+Shift+H describes the open PNG vs HEAD',
    async () => {
      // Ctrl+K Ctrl+Shift+D (outside the terminal): the BEFORE picker opens; Escape leaves it.
      await page.keyboard.press('Control+KeyK');
      await page.keyboard.press('Control+Shift+KeyD');
      const picker = page.locator('.quick-input-widget .quick-input-title', { hasText: /choose the BEFORE image/ });
      await picker.waitFor();
      await camera.shot(page, 'keybinding-ctrl-k-ctrl-shift-d');
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'hidden' });

      // Ctrl+K Ctrl+Shift+H with a PNG of the repository as the active editor (VS Code's image preview).
      const changed = fixture.workingTreeChange;
      await openFile(page, changed);
      // Keys go to the image once its preview (a webview) has the focus; pressed earlier, they went to
      // the closing Go to File box.
      await page.waitForFunction(() => document.activeElement?.matches('iframe.webview.ready'));
      await page.keyboard.press('Control+KeyK');
      await page.keyboard.press('Control+Shift+KeyH');
      const report = await expectReportInPanel(page, { titleIncludes: `${changed}: HEAD ↔ working tree` });
      if (sharedSettingsSummary)
        assert.equal(report.summary, sharedSettingsSummary, 'Ctrl+K Ctrl+Shift+H and Source Control describe the same pair');
      const shown = await panelImageBytes(page);
      assert.ok(shown.before.equals(gitBlob(`HEAD:${changed}`)), `the panel's before image is not HEAD:${changed}`);
      assert.ok(shown.after.equals(readFileSync(join(workspace, changed))), `the panel's after image is not the working-tree ${changed}`);
      await camera.shot(page, 'keybinding-ctrl-k-ctrl-shift-h-report');
    },
  );

  uiTest('Source Control: an image staged and changed again, "Describe Change (Staged ↔ Working Tree)" and "(HEAD ↔ Staged)"', async () => {
    const path = fixture.stagedChange;
    const fileName = path.split('/').at(-1);
    const head = gitBlob(`HEAD:${path}`);
    const staged = gitBlob(`:${path}`);
    const worktree = readFileSync(join(workspace, path));
    assert.ok(
      !staged.equals(head) && !staged.equals(worktree),
      'fixture: the staged version must differ from HEAD and from the working tree',
    );
    await showView(page, 'Source Control', '.scm-view');
    // The same file is listed twice: under "Staged Changes" (Index Modified) and under "Changes" (Modified).
    const scmRow = (status) => page.locator(`.scm-view .monaco-list-row[aria-label^="${fileName}, ${status}"]`).first();
    try {
      await scmRow('Modified').waitFor();
      await scmRow('Index Modified').waitFor();
    } catch (error) {
      const labels = await page.locator('.scm-view .monaco-list-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
      throw new Error(`Source Control rows: ${labels.join(' | ')}\n${error.message}`);
    }
    await camera.shot(page, 'scm-staged-and-modified');

    await pickFromContextMenu(page, scmRow('Modified'), 'Describe Change (Staged ↔ Working Tree)');
    await expectReportInPanel(page, { titleIncludes: `${path}: staged ↔ working tree`, changedBox: changedPixelsBoxOf(staged, worktree) });
    let shown = await panelImageBytes(page);
    assert.ok(shown.before.equals(staged), `the before image is not the staged ${path} (HEAD's: ${shown.before.equals(head)})`);
    assert.ok(shown.after.equals(worktree), `the after image is not the working-tree ${path}`);
    await camera.shot(page, 'scm-staged-vs-working-tree');

    await pickFromContextMenu(page, scmRow('Index Modified'), 'Describe Change (HEAD ↔ Staged)');
    await expectReportInPanel(page, { titleIncludes: `${path}: HEAD ↔ staged`, changedBox: changedPixelsBoxOf(head, staged) });
    shown = await panelImageBytes(page);
    assert.ok(shown.before.equals(head), `the before image is not HEAD:${path}`);
    assert.ok(shown.after.equals(staged), `the after image is not the staged ${path}`);
    await camera.shot(page, 'scm-head-vs-staged');
  });

  uiTest('explorer: one image in git, right-click "Describe Change vs HEAD" and "Describe Change vs Ref..." (main)', async () => {
    // vs HEAD: settings.png differs from HEAD in the working tree; the same pair as Source Control.
    const changed = fixture.workingTreeChange;
    let row = await selectInExplorer(page, [changed]);
    await pickFromContextMenu(page, row, 'Describe Change vs HEAD');
    const vsHead = await expectReportInPanel(page, { titleIncludes: `${changed}: HEAD ↔ working tree` });
    if (sharedSettingsSummary) assert.equal(vsHead.summary, sharedSettingsSummary, 'vs HEAD and Source Control describe the same pair');
    await camera.shot(page, 'explorer-vs-head');

    // vs Ref: home.png was changed by a commit on this branch; compare it with main from the ref list.
    const committed = fixture.committedChange;
    row = await selectInExplorer(page, [committed]);
    await pickFromContextMenu(page, row, 'Describe Change vs Ref...');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor();
    await input.fill(fixture.baseBranch);
    const refRow = page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${fixture.baseBranch}$`) }) })
      .first();
    await refRow.waitFor();
    await camera.shot(page, 'explorer-vs-ref-picker');
    await refRow.click();
    const vsRef = await expectReportInPanel(page, {
      titleIncludes: `${committed}: ${fixture.baseBranch} ↔ working tree`,
    });
    if (sharedHomeSummary) assert.equal(vsRef.summary, sharedHomeSummary, 'vs main and the PR review describe the same pair');
    await camera.shot(page, 'explorer-vs-ref-report');
  });

  uiTest('inline annotation: the line naming a changed screenshot shows its caption, with a hover that opens the panel', async () => {
    const { file, line: lineNumber, names } = fixture.namingSource;
    await openFile(page, file);
    const line = page.locator('.monaco-editor .view-line', { hasText: names });
    await line.waitFor();
    // The caption is an `after` decoration: CSS generated content on a span of that line.
    const decoration = await page.waitForFunction(
      (text) => {
        for (const lineEl of document.querySelectorAll('.monaco-editor .view-line')) {
          if (!lineEl.textContent.includes(text)) continue;
          for (const span of lineEl.querySelectorAll('span')) {
            const content = getComputedStyle(span, '::after').content;
            if (content && content !== 'none' && content.includes('ProCap')) {
              // the text of the line before the caption: the whole line when it stands at the end
              const before = document.createRange();
              before.setStart(lineEl, 0);
              before.setEndBefore(span);
              return { text: JSON.parse(content), before: before.toString(), line: lineEl.textContent };
            }
          }
        }
        return null;
      },
      names,
      { timeout: DESCRIBE_TIMEOUT_MS },
    );
    // VS Code writes the decoration's spaces as no-break spaces.
    const found = await decoration.jsonValue();
    const decorationText = found.text.replace(/\u00a0/g, ' ');
    // at the end of the line, not inside the string literal that names the file
    assert.equal(
      found.before.replace(/\u00a0/g, ' ').trimEnd(),
      found.line.replace(/\u00a0/g, ' ').trimEnd(),
      'the caption is not at the end of the line',
    );
    assert.ok(found.line.trimEnd().endsWith(');'), `line text "${found.line}"`);
    await camera.shot(page, 'inline-annotation');
    assert.ok(/^ProCap: \S/.test(decorationText), `decoration text "${decorationText}"`);
    if (sharedSettingsSummary) {
      assert.equal(
        decorationText,
        `ProCap: ${sharedSettingsSummary}`,
        `line ${lineNumber} of ${file} should carry the same caption as the Source Control panel`,
      );
    }

    await line.locator('span', { hasText: names }).last().hover();
    const hover = page.locator('.monaco-hover:visible', { hasText: 'ProCap Review' }).first();
    await hover.waitFor();
    const spaced = (text) => text.replace(/\s+/g, ' '); // the hover's markdown uses no-break spaces too
    const hoverText = spaced(await hover.innerText());
    assert.ok(
      hoverText.includes(spaced(decorationText.replace(/^ProCap: /, ''))),
      `hover "${hoverText}" lacks the caption "${decorationText}"`,
    );
    await camera.shot(page, 'inline-annotation-hover');
    await hover.getByRole('link', { name: 'Open in ProCap Review' }).click();
    await expectReportInPanel(page, { titleIncludes: names.split('/').at(-1) });
    await camera.shot(page, 'inline-annotation-opened-panel');
  });

  uiTest('snapshot test failure: the Playwright actual/expected pair opens in the panel', async () => {
    const name = fixture.snapshotFailure.split('/').at(-1);
    const row = await snapshotFailureRow(page, fixture.snapshotFailure);
    await row.hover();
    await row.locator('.action-label[aria-label="Open Snapshot Test Failure..."]').click();
    await expectReportInPanel(page, {
      titleIncludes: name,
      changedBox: changedPixelsBox(`${fixture.snapshotFailure}-expected.png`, `${fixture.snapshotFailure}-actual.png`),
    });
    await camera.shot(page, 'snapshot-failure-report');
  });

  uiTest(
    'snapshot test failure from a project with its own outputDir and snapshotPathTemplate: listed, opens, and accept names its baseline',
    async () => {
      const failure = fixture.customSnapshotFailure;
      const baselineFile = join(workspace, fixture.customSnapshotBaseline);
      const original = readFileSync(baselineFile);
      const row = await snapshotFailureRow(page, failure);
      const description = await row.locator('.label-description').innerText();
      assert.ok(description.includes('shop/reports/pw/'), `the row's description does not name the configured outputDir: "${description}"`);
      // Accept asks first and names the baseline that the config's template leads to; Cancel writes nothing.
      await row.hover();
      await row.locator('.action-label[aria-label="Accept Actual as Baseline..."]').click();
      await modalDialog(page).waitFor();
      const question = await modalDialog(page).innerText();
      assert.ok(question.includes(fixture.customSnapshotBaseline), `the confirmation does not name the templated baseline: "${question}"`);
      await answerModalDialog(page, 'Cancel');
      assert.ok(readFileSync(baselineFile).equals(original), 'the baseline changed although the accept was cancelled');
      await row.hover();
      await row.locator('.action-label[aria-label="Open Snapshot Test Failure..."]').click();
      await expectReportInPanel(page, {
        titleIncludes: failure.split('/').at(-1),
        changedBox: changedPixelsBox(`${failure}-expected.png`, `${failure}-actual.png`),
      });
      await camera.shot(page, 'snapshot-failure-custom-layout');
    },
  );

  uiTest(
    'snapshot baseline accept: asks first, then overwrites the baseline with a backup kept; Undo restores the original bytes',
    async () => {
      const baselineFile = join(workspace, fixture.snapshotBaseline);
      const actualFile = join(workspace, `${fixture.snapshotFailure}-actual.png`);
      const original = readFileSync(baselineFile);
      const actual = readFileSync(actualFile);
      assert.ok(!original.equals(actual), 'fixture: the baseline must differ from the actual image');
      const backupDir = join(userDataDir, 'User', 'globalStorage', extensionId, 'baseline-backups');
      const backups = () => (existsSync(backupDir) ? readdirSync(backupDir).map((name) => join(backupDir, name)) : []);
      const backupsBefore = backups();

      const name = fixture.snapshotFailure.split('/').at(-1);
      const row = await snapshotFailureRow(page, fixture.snapshotFailure);

      // 1. The tree's accept action asks first; answering Cancel writes nothing.
      await row.hover();
      await row.locator('.action-label[aria-label="Accept Actual as Baseline..."]').click();
      await modalDialog(page).waitFor();
      const question = await modalDialog(page).innerText();
      assert.ok(question.includes(fixture.snapshotBaseline), `the confirmation does not name the baseline file: "${question}"`);
      assert.ok(readFileSync(baselineFile).equals(original), 'the baseline was written before the user confirmed');
      await camera.shot(page, 'accept-confirmation');
      await answerModalDialog(page, 'Cancel');

      // 2. Accept from the panel: confirm, the baseline now holds the actual image, the old one is backed up.
      await row.hover();
      await row.locator('.action-label[aria-label="Open Snapshot Test Failure..."]').click();
      await expectReportInPanel(page, { titleIncludes: name });
      const panel = panelFrame(page);
      await panel.locator('[data-testid="accept"]').click();
      await modalDialog(page).waitFor();
      assert.ok(readFileSync(baselineFile).equals(original), 'the baseline was written before the user confirmed');
      await answerModalDialog(page, 'Accept and Overwrite');
      const toast = page
        .locator('.notifications-toasts .notification-list-item', { hasText: `Baseline ${fixture.snapshotBaseline} updated` })
        .first();
      await toast.waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
      await panel.locator('[data-testid="accepted-note"]', { hasText: 'updated' }).waitFor();
      await camera.shot(page, 'accept-done');
      assert.ok(readFileSync(baselineFile).equals(actual), 'after accepting, the baseline file does not hold the actual image');
      const newBackups = backups().filter((file) => !backupsBefore.includes(file));
      assert.equal(newBackups.length, 1, `expected one new backup in ${backupDir}, found: ${newBackups.join(', ') || 'none'}`);
      // (Had the cancelled attempt written anything, this backup would hold the actual image, not the original.)
      assert.ok(readFileSync(newBackups[0]).equals(original), 'the backup does not hold the original baseline bytes');

      // 3. Undo on the notification restores the original bytes.
      await toast.locator('.monaco-button', { hasText: /^Undo$/ }).click();
      await page
        .locator('.notifications-toasts .notification-list-item', { hasText: `Baseline ${fixture.snapshotBaseline} restored` })
        .first()
        .waitFor({ timeout: DESCRIBE_TIMEOUT_MS });
      await camera.shot(page, 'accept-undone');
      assert.ok(readFileSync(baselineFile).equals(original), 'after Undo, the baseline file does not hold its original bytes');
    },
  );

  uiTest('a corrupt image gives a clear error naming the file, and the extension still works afterwards', async () => {
    const corruptName = fixture.corrupt.split('/').at(-1);
    const lastRow = await selectInExplorer(page, [fixture.corrupt, fixture.compare[1]]);
    await pickFromContextMenu(page, lastRow, 'Describe Change');
    await panelFrame(page).locator('[data-testid="title"]', { hasText: corruptName }).waitFor();
    const texts = await notificationsMatching(page, corruptName);
    const message = texts.find((text) => text.includes(corruptName));
    assert.match(message, /not a PNG|corrupt|signature|invalid|cannot decode/i, `the error does not say what is wrong: "${message}"`);
    const panelError = panelFrame(page).locator('[data-testid="error"]');
    await panelError.waitFor();
    await camera.shot(page, 'corrupt-image-error');

    // Still working: describe a pair no earlier test described (so the engine really runs again).
    await runCommand(page, 'Notifications: Clear All Notifications');
    const freshPair = [fixture.committedChange, fixture.compare[1]];
    const row = await selectInExplorer(page, freshPair);
    await pickFromContextMenu(page, row, 'Describe Change');
    const report = await expectReportInPanel(page, { titleIncludes: freshPair[1] });
    assert.ok(report.title.includes(freshPair[0]), `panel title "${report.title}" should name ${freshPair[0]}`);
    await camera.shot(page, 'after-error-still-works');
  });
  uiTest(
    "high-contrast themes (dark and light): the panel takes the theme's colours, its contrast borders show, all its text is readable",
    async () => {
      const themes = [
        { label: 'Dark High Contrast', setting: 'Default High Contrast', workbenchClass: 'hc-black', kind: 'vscode-high-contrast' },
        {
          label: 'Light High Contrast',
          setting: 'Default High Contrast Light',
          workbenchClass: 'hc-light',
          kind: 'vscode-high-contrast-light',
        },
      ];
      const [beforePath, afterPath] = fixture.compare;
      let previousTheme;
      try {
        for (const theme of themes) {
          // "Preferences: Color Theme" sets workbench.colorTheme to the theme's id (theme.setting).
          const before = await pickColorTheme(page, theme.label);
          previousTheme ??= before;
          await page.locator(`.monaco-workbench.${theme.workbenchClass}`).waitFor();
          await waitUntil(
            () => userSetting('workbench.colorTheme') === theme.setting,
            `workbench.colorTheme = "${theme.setting}" in settings.json`,
          );
          // The palette and its file pickers (right after a theme switch the explorer re-renders its rows).
          await startCommand(page, 'ProCap Review: Describe Change');
          await pickFileInOpenDialog(page, /choose the BEFORE image/, join(workspace, beforePath));
          await pickFileInOpenDialog(page, /choose the AFTER image/, join(workspace, afterPath));
          await expectReportInPanel(page, { titleIncludes: `${beforePath} ↔ ${afterPath}` });
          const panel = panelFrame(page);
          await panel.locator(`body[data-vscode-theme-kind="${theme.kind}"]`).waitFor();
          await panel.locator('[data-testid="region-caption"]').first().click();
          await panel.locator('[data-testid="region-caption"][aria-current="true"]').waitFor();
          await camera.shot(page, `theme-${theme.workbenchClass}`);
          const names = ['editor-background', 'foreground', 'contrastBorder', 'contrastActiveBorder', 'focusBorder', 'panel-border'];
          // The workbench's own values of the theme colours (VS Code defines them on .monaco-workbench).
          const workbench = await page.evaluate((list) => {
            const style = getComputedStyle(document.querySelector('.monaco-workbench'));
            return Object.fromEntries(list.map((name) => [name, style.getPropertyValue(`--vscode-${name}`).trim()]));
          }, names);
          const seen = await panel.locator('body').evaluate(readPanelColours, { names, workbench });
          const context = `${theme.setting}: ${JSON.stringify(seen, null, 1)}`;
          for (const name of names) {
            assert.ok(workbench[name] !== '', `the workbench defines no --vscode-${name} in ${theme.setting}`);
            assert.equal(
              seen.vars[name].webview,
              seen.vars[name].workbench,
              `--vscode-${name} in the panel differs from the workbench's; ${context}`,
            );
          }
          for (const name of ['contrastBorder', 'contrastActiveBorder']) {
            assert.ok(!/rgba\(.*, 0\)$|transparent/.test(seen.vars[name].webview), `${name} is transparent in ${theme.setting}`);
          }
          assert.equal(seen.body.background, seen.vars['editor-background'].webview, `panel background; ${context}`);
          assert.equal(seen.body.color, seen.vars.foreground.webview, `panel text colour; ${context}`);
          assert.ok(
            [seen.vars['panel-border'].webview, seen.vars.contrastBorder.webview].includes(seen.viewportBorder),
            `the image viewports' border (${seen.viewportBorder}) is not the theme's border colour; ${context}`,
          );
          assert.equal(seen.selectedCaptionBorder, seen.vars.contrastActiveBorder.webview, `the selected caption's border; ${context}`);
          assert.equal(seen.selectedBoxOutline, seen.vars.contrastActiveBorder.webview, `the selected region box's outline; ${context}`);
          assert.deepEqual(seen.unreadable, [], `text below 4.5:1 contrast in ${theme.setting}`);
          assert.ok(seen.checkedTexts >= 10, `only ${seen.checkedTexts} texts were checked for contrast`);
          console.log(`e2e: ${theme.setting}: ${seen.checkedTexts} texts in the panel, lowest contrast ${seen.lowestRatio}:1`);
        }
      } finally {
        if (previousTheme) {
          await page.keyboard.press('Escape');
          await pickColorTheme(page, previousTheme);
          await page.locator('.monaco-workbench:not(.hc-black):not(.hc-light)').waitFor();
        }
      }
    },
  );
});

/** Set by the Source Control test: the caption of settings.png (HEAD vs working tree). */
let sharedSettingsSummary;
/** Set by the PR review test: the caption of home.png (merge base with main vs working tree). */
let sharedHomeSummary;
