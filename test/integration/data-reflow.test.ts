// The data engine's reflow record, in the real browser: an element pushed aside by a change is recorded
// as shifted even when its edges fall between pixels (text widths are fractional, so rounding each edge
// outwards can make a shifted box one pixel wider or narrower), and a shift under half a pixel, which
// only re-antialiases, is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, RenderPage } from '../../src/data/render.js';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after(async () => {
  await browser.close();
});

// a row of links with fractional widths and gaps; before each insert the row is loaded afresh
const row = (itemStyle: string) =>
  '<nav data-e="nav" style="display:flex;gap:13.3px;padding-left:0.6px">' +
  `<span data-e="a" style="display:inline-block;width:40.6px;height:20px;${itemStyle}">a</span>` +
  `<span data-e="b" style="display:inline-block;width:33.7px;height:20px;${itemStyle}">b</span>` +
  `<span data-e="c" style="display:inline-block;width:51.2px;height:20px;${itemStyle}">c</span></nav>`;

/** loads the row, inserts an element before its first item, returns what the engine records as reflowed */
async function insertBeforeFirst(page: RenderPage, itemStyle: string, insertedStyle: string) {
  await page.load(row(itemStyle), 'font: 15px sans-serif');
  await page.apply(
    [
      {
        o: 'insert',
        ref: 'a',
        where: 'beforebegin',
        html: `<span data-e="new" style="display:inline-block;height:20px;${insertedStyle}"></span>`,
      },
    ],
    [],
  );
  return page.reflowed(['new']);
}

test('siblings pushed aside by an inserted element are recorded as shifted, whatever their sub-pixel edges', async () => {
  const page = await RenderPage.open(browser);
  const shifted = await insertBeforeFirst(page, '', 'width:47.5px'); // shift 47.5 + 13.3 = 60.8 px
  const starts = shifted.map((s) => s.before[0]).sort((p, q) => p - q);
  assert.deepEqual(starts, [0, 54, 101], JSON.stringify(shifted)); // a, b and c, none lost to rounding
  for (const s of shifted) {
    assert.ok(Math.abs(s.after[0] - s.before[0] - 61) <= 1, JSON.stringify(s));
    assert.equal(s.after[1], s.before[1]);
  }
});

test('a shift under half a pixel is not recorded', async () => {
  const page = await RenderPage.open(browser);
  // the inserted element's gap (13.3 px) cancelled by a negative margin: the items move 0.45 px, which
  // moves some rounded edges by a pixel; items that paint a background would be taken for resized boxes
  assert.deepEqual(await insertBeforeFirst(page, 'background:#ddd', 'width:0.45px;margin-right:-13.3px'), []);
});
