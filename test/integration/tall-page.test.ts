// Full-page captures taller than 16,384 px: a real 1280 x 20000 PNG pair (written with pngjs) whose only
// change is near the bottom goes through the whole CLI, models included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, MODELS_DIR, drawPng, tempDir, type Rect } from '../unit/runtime-fixtures.js';

const WIDTH = 1280;
const HEIGHT = 20_000;
/** the button near the bottom that turns from blue to red */
const BUTTON: [number, number, number, number] = [40, 19_700, 240, 19_740];

/** A long page: every 400 px a grey rule, a line of "text" blocks and a blue button. */
function page(buttonColour: [number, number, number]): Buffer {
  const rects: Rect[] = [];
  for (let y = 0; y + 400 <= HEIGHT; y += 400) {
    rects.push([40, y + 40, WIDTH - 40, y + 42, 200, 200, 200]);
    for (let x = 40; x < 700; x += 90) rects.push([x, y + 80, x + 70, y + 92, 60, 60, 60]);
    if (y + 300 !== BUTTON[1]) rects.push([40, y + 300, 240, y + 340, 30, 90, 220]);
  }
  rects.push([...BUTTON, ...buttonColour]);
  return drawPng(WIDTH, HEIGHT, rects);
}

test('a 1280 x 20000 capture with one change near the bottom: the change is found there and captioned', () => {
  const dir = tempDir('tall');
  const before = path.join(dir, 'before.png');
  const after = path.join(dir, 'after.png');
  fs.writeFileSync(before, page([30, 90, 220]));
  fs.writeFileSync(after, page([220, 40, 40]));
  const r = spawnSync(
    process.execPath,
    [CLI, 'describe', before, after, '--json', '--no-procedure', '--provider', 'cpu', '--models', MODELS_DIR],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.changed, true, report.summary);
  const changed = report.regions.filter((region: { noiseOnly: boolean }) => !region.noiseOnly);
  assert.equal(changed.length, 1, JSON.stringify(report.regions.map((region: { boxBefore: number[] }) => region.boxBefore)));
  const [x0, y0, x1, y1] = changed[0].boxBefore;
  // the box is the button's, 19,700 px down the page (rows past 16,384 are compared like the others)
  assert.ok(
    Math.abs(x0 - BUTTON[0]) <= 2 && Math.abs(y0 - BUTTON[1]) <= 2 && Math.abs(x1 - BUTTON[2]) <= 2 && Math.abs(y1 - BUTTON[3]) <= 2,
    `box ${changed[0].boxBefore}`,
  );
  assert.equal(changed[0].kind, 'color', `${changed[0].kind}: ${changed[0].caption}`);
  assert.match(changed[0].caption, /colou?r|red|blue/, changed[0].caption);
  assert.ok(
    report.summary.includes(changed[0].caption.split(';')[0]),
    `summary "${report.summary}" names the region's caption "${changed[0].caption}"`,
  );
});
