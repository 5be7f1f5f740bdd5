// True frames of added and removed elements (the data CLI's --all-frames), in the real browser: the
// grow op reveals the element by t of its size while what it pushes slides by t of its shift (in a
// flex column, a right-aligned row, block flow with collapsing margins); a generated add or remove
// pair gets 7 frames that go from the before screen to the after one; and without the flag, or for
// every other pair, the output is byte for byte what it is without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { launchBrowser, RenderPage } from '../../src/data/render.js';
import { runData, type DataOptions } from '../../src/data/cli.js';
import { readManifest } from '../../src/data/manifest.js';
import type { Op } from '../../src/data/changes.js';
import { listFiles } from './data-fixtures.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'procap-all-frames-test-'));
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after(async () => {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
});

const W = 320;
const H = 240;
const SCREEN = `width:${W}px;height:${H}px;background:#ffffff;font:14px sans-serif`;

/** rows of the screenshot (within x0..x1) where the added element's red shows */
function redRows(png: Buffer, x0: number, x1: number): number {
  const img = PNG.sync.read(png);
  let rows = 0;
  for (let y = 0; y < img.height; y++) {
    let red = false;
    for (let x = x0; x < x1 && !red; x++) {
      const i = (y * img.width + x) * 4;
      red = img.data[i] > 200 && img.data[i + 1] < 245 && img.data[i + 2] < 245;
    }
    if (red) rows++;
  }
  return rows;
}

/** columns of the screenshot (within y0..y1) where the added element's red shows */
function redColumns(png: Buffer, y0: number, y1: number): number {
  const img = PNG.sync.read(png);
  let cols = 0;
  for (let x = 0; x < img.width; x++) {
    let red = false;
    for (let y = y0; y < y1 && !red; y++) {
      const i = (y * img.width + x) * 4;
      red = img.data[i] > 200 && img.data[i + 1] < 245 && img.data[i + 2] < 245;
    }
    if (red) cols++;
  }
  return cols;
}

const increasing = (v: number[], what: string) => {
  for (let i = 1; i < v.length; i++) assert.ok(v[i] >= v[i - 1], `${what} not increasing: ${v.join(' ')}`);
  assert.ok(v[v.length - 1] > v[0], `${what} does not grow: ${v.join(' ')}`);
};

/**
 * Loads `html`, grows `id` in (inserted after `ref`) at t = 1/8 .. 7/8 and returns per frame the
 * rect of `watch` and the screenshot; then undoes it and checks the screen is the before screen.
 */
async function growFrames(html: string, ref: string, added: string, watch: string) {
  const page = await RenderPage.open(browser);
  await page.load(html, SCREEN);
  const before = await page.screenshot(W, H);
  const start = (await page.apply([], [watch])).get(watch)!;
  const frames: { rect: number[]; png: Buffer }[] = [];
  for (let k = 1; k <= 7; k++) {
    const op: Op = { o: 'grow', id: 'new', t: k / 8, insert: { ref, where: 'afterend', html: added } };
    const rect = (await page.apply([op], [watch])).get(watch)!;
    frames.push({ rect, png: await page.screenshot(W, H) });
  }
  await page.apply([{ o: 'ungrow', id: 'new', remove: true }], []);
  assert.ok(PNG.sync.read(await page.screenshot(W, H)).data.equals(PNG.sync.read(before).data), 'the undo leaves the before screen');
  const end = (await page.apply([{ o: 'insert', ref, where: 'afterend', html: added }], [watch])).get(watch)!;
  return { start, end, frames };
}

test('grow: a row added to a flex column opens by t of its height and pushes the next row by t of its shift', async () => {
  const html =
    '<div data-e="col" style="display:flex;flex-direction:column;gap:10px;width:200px;padding:8px">' +
    '<div data-e="a" style="height:30px;background:#0000ff"></div><div data-e="b" style="height:30px;background:#00aa00"></div></div>';
  const { start, end, frames } = await growFrames(html, 'a', '<div data-e="new" style="height:40px;background:#ff0000"></div>', 'b');
  assert.equal(end[1] - start[1], 50); // 40 px and one more gap
  frames.forEach((f, i) => {
    const t = (i + 1) / 8;
    assert.ok(Math.abs(f.rect[1] - (start[1] + t * 50)) <= 1, `frame ${i + 1}: b at ${f.rect[1]}, want ${start[1] + t * 50}`);
  });
  const sizes = frames.map((f) => redRows(f.png, 8, 208));
  increasing(sizes, 'visible height');
  sizes.forEach((s, i) => assert.ok(Math.abs(s - ((i + 1) / 8) * 40) <= 1.5, `frame ${i + 1}: ${s} rows of red`));
});

test('grow: in a right-aligned row the items before the added one slide aside by t of their shift', async () => {
  const html =
    '<div data-e="bar" style="display:flex;justify-content:flex-end;gap:8px;width:300px;height:30px">' +
    '<span data-e="a" style="display:inline-block;width:50px;height:30px;background:#0000ff"></span></div>';
  const added = '<span data-e="new" style="display:inline-block;width:60px;height:30px;background:#ff0000"></span>';
  const { start, end, frames } = await growFrames(html, 'a', added, 'a');
  assert.equal(end[0] - start[0], -68);
  frames.forEach((f, i) => {
    const want = start[0] - ((i + 1) / 8) * 68;
    assert.ok(Math.abs(f.rect[0] - want) <= 1, `frame ${i + 1}: a at ${f.rect[0]}, want ${want}`);
  });
  increasing(
    frames.map((f) => redColumns(f.png, 0, 30)),
    'visible width',
  );
});

test('grow: in block flow with collapsing margins the next block still moves by t of its shift', async () => {
  const html =
    '<div data-e="flow" style="width:200px;padding:1px 0">' +
    '<p data-e="a" style="margin:12px 0;height:20px;background:#0000ff"></p><p data-e="b" style="margin:12px 0;height:20px;background:#00aa00"></p></div>';
  const added = '<p data-e="new" style="margin:16px 0;height:30px;background:#ff0000"></p>';
  const { start, end, frames } = await growFrames(html, 'a', added, 'b');
  const shift = end[1] - start[1];
  assert.equal(shift, 30 + 16 + 16 - 12); // the new block, its two margins, less the margin it replaces
  frames.forEach((f, i) => {
    const want = start[1] + ((i + 1) / 8) * shift;
    assert.ok(Math.abs(f.rect[1] - want) <= 1, `frame ${i + 1}: b at ${f.rect[1]}, want ${want}`);
  });
  increasing(
    frames.map((f) => redRows(f.png, 0, 200)),
    'visible height',
  );
});

const options = (out: string, over: Partial<DataOptions> = {}): DataOptions => ({
  seed: 4242,
  count: 13,
  split: 'test',
  out,
  browsers: 1,
  pages: 2,
  start: 0,
  quiet: true,
  resume: false,
  templates: 4,
  ...over,
});

/** mean absolute difference of two PNGs over a box */
function distance(a: PNG, b: PNG, box: number[]): number {
  let sum = 0;
  for (let y = box[1]; y < box[3]; y++)
    for (let x = box[0]; x < box[2]; x++)
      for (let c = 0; c < 3; c++) sum += Math.abs(a.data[(y * a.width + x) * 4 + c] - b.data[(y * b.width + x) * 4 + c]);
  return sum / ((box[2] - box[0]) * (box[3] - box[1]) * 3);
}

for (const origins of [undefined, ['primer']]) {
  const name = origins ? 'origins (primer)' : 'templates';
  test(`--all-frames on ${name}: add and remove pairs get 7 frames from before to after; everything else is byte-identical`, async () => {
    const off = path.join(tmp, `${name}-off`);
    const on = path.join(tmp, `${name}-on`);
    await runData(options(off, origins ? { origins } : {}));
    await runData(options(on, { allFrames: true, ...(origins ? { origins } : {}) }));
    const recsOff = readManifest(off);
    const recsOn = readManifest(on);
    let animated = 0;
    for (const [i, a] of recsOff.entries()) {
      const b = recsOn[i];
      const kinds = b.changes.map((c) => c.kind);
      const grows = kinds.every((k) => k === 'add' || k === 'remove');
      // the same record apart from the frames of add and remove pairs, and the same before and after bytes
      assert.deepEqual({ ...b, frames: grows ? [] : b.frames }, a, `${a.id}: records differ`);
      for (const f of [a.before, a.after, ...a.frames])
        assert.ok(readFileSync(path.join(off, f)).equals(readFileSync(path.join(on, f))), `${f} differs`);
      if (!grows) continue;
      animated++;
      assert.equal(a.frames.length, 0);
      assert.equal(b.frames.length, 7, `${b.id}: ${kinds.join('+')} has no frames`);
      // over the change and what it pushed, the frames leave the before screen and reach the after one
      const c = b.changes[0];
      const boxes = [c.bbox_before, c.bbox_after, ...b.reflowed.flatMap((r) => [r.bbox_before, r.bbox_after])].filter(
        (x): x is [number, number, number, number] => !!x,
      );
      const box = [0, 1, 2, 3].map((j) => (j < 2 ? Math.min(...boxes.map((x) => x[j])) : Math.max(...boxes.map((x) => x[j]))));
      const read = (f: string) => PNG.sync.read(readFileSync(path.join(on, f)));
      const [before, after] = [read(b.before), read(b.after)];
      const frames = b.frames.map(read);
      const fromBefore = frames.map((f) => distance(f, before, box));
      const toAfter = frames.map((f) => distance(f, after, box));
      assert.ok(fromBefore[6] > fromBefore[0] && toAfter[6] < toAfter[0], `${b.id}: ${fromBefore.join(' ')} | ${toAfter.join(' ')}`);
      assert.ok(toAfter[0] > 0 && fromBefore[6] > 0, `${b.id}: a frame is the before or after screen`);
    }
    assert.ok(animated >= 2, `only ${animated} add or remove pairs in ${recsOff.length}`);
    // no other file appears with the flag than the frames of those pairs
    const extra = listFiles(on).filter((f) => !listFiles(off).includes(f));
    assert.ok(
      extra.every((f) => /t[1-7]\.png$/.test(f)),
      extra.join(', '),
    );
  });
}
