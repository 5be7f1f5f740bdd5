// Origins (design systems from npm packages) end to end with the real browser: byte-identical runs
// whatever the concurrency, valid records that name their origin, held-out origins only in their own
// split, and the re-encoded negative (same pixels, other PNG bytes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { parseArgs, runData, type DataOptions } from '../../src/data/cli.js';
import { readManifest, validateRecord } from '../../src/data/manifest.js';
import { ORIGINS, originsForSplit, parseOrigins } from '../../src/data/origins/index.js';
import { listFiles } from './data-fixtures.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'procap-origins-test-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

const base = (out: string, over: Partial<DataOptions> = {}): DataOptions => ({
  seed: 31,
  count: 36,
  split: 'train',
  out,
  browsers: 1,
  pages: 2,
  start: 0,
  quiet: true,
  resume: false,
  templates: 4,
  origins: parseOrigins('all', over.split ?? 'train'),
  ...over,
});

test('origins: same seed => byte-identical files with other concurrency; records valid and name their origin', async () => {
  const a = path.join(tmp, 'a');
  const b = path.join(tmp, 'b');
  await runData(base(a));
  await runData(base(b, { browsers: 2, pages: 1 }));
  const files = listFiles(a);
  assert.deepEqual(files, listFiles(b));
  for (const f of files) assert.ok(readFileSync(path.join(a, f)).equals(readFileSync(path.join(b, f))), `${f} differs between runs`);
  const recs = readManifest(a);
  assert.equal(recs.length, 36);
  const allowed = new Set(originsForSplit('train'));
  const seen = new Set<string>();
  for (const r of recs) {
    assert.deepEqual(validateRecord(r), [], r.id);
    assert.ok(allowed.has(r.origin), `${r.id}: origin ${r.origin} is not a train origin`);
    seen.add(r.origin);
    if (r.origin !== 'templates') assert.ok(r.template.startsWith(r.origin + '/'), r.template);
    const before = PNG.sync.read(readFileSync(path.join(a, r.before)));
    const after = PNG.sync.read(readFileSync(path.join(a, r.after)));
    assert.equal(before.width, r.width);
    assert.equal(after.height, r.height);
    const samePixels = before.data.equals(after.data);
    if (r.changes[0].kind === 'none') assert.ok(samePixels || r.changes[0].attrs.noise !== 'identical', r.id);
    else assert.ok(!samePixels, `${r.id}: a ${r.changes[0].kind} change with identical pixels`);
    // changed pixels lie inside the recorded boxes or reflowed boxes, grown by 6 px: anti-aliasing and
    // the systems' box shadows (a card fading takes its shadow along)
    if (r.changes[0].kind !== 'none' && r.changes[0].kind !== 'theme') {
      const boxes = [
        ...r.changes.flatMap((c) => [c.bbox_before, c.bbox_after]),
        ...r.reflowed.flatMap((x) => [x.bbox_before, x.bbox_after]),
      ].filter((x): x is [number, number, number, number] => !!x);
      let outside = 0;
      for (let y = 0; y < r.height; y++)
        for (let x = 0; x < r.width; x++) {
          const i = (y * r.width + x) * 4;
          // faint differences (a soft drop shadow growing with its menu) are not what a reviewer sees
          const d =
            Math.abs(before.data[i] - after.data[i]) +
            Math.abs(before.data[i + 1] - after.data[i + 1]) +
            Math.abs(before.data[i + 2] - after.data[i + 2]);
          if (d < 48) continue;
          if (!boxes.some((bx) => x >= bx[0] - 6 && y >= bx[1] - 6 && x < bx[2] + 6 && y < bx[3] + 6)) outside++;
        }
      assert.ok(
        outside <= 40,
        `${r.id} (${r.template}, ${r.changes.map((c) => c.kind).join('+')}): ${outside} changed pixels outside every box`,
      );
    }
  }
  assert.ok(seen.size >= 4, `only origins ${[...seen].join(', ')} in 36 pairs`);
});

test('origins: an element recorded as moved is drawn where it went (not moved under an overlay or out of its clipping box)', async () => {
  // Pico's dialogs clip their content: these val pairs once held a button moved out of its dialog,
  // invisible after the change, which the pixels show as removed
  const out = path.join(tmp, 'moves');
  await runData(base(out, { split: 'val', seed: 9102, start: 60, count: 16, origins: parseOrigins('pico', 'val') }));
  let moves = 0;
  for (const r of readManifest(out)) {
    const before = PNG.sync.read(readFileSync(path.join(out, r.before)));
    const after = PNG.sync.read(readFileSync(path.join(out, r.after)));
    for (const c of r.changes) {
      if (c.kind !== 'move' || !c.bbox_before || !c.bbox_after) continue;
      moves++;
      const [x0, y0, x1, y1] = c.bbox_before;
      const [dx, dy] = [c.bbox_after[0] - x0, c.bbox_after[1] - y0];
      let sum = 0;
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) {
          const i = (y * r.width + x) * 4,
            j = ((y + dy) * r.width + x + dx) * 4;
          for (let k = 0; k < 3; k++) sum += Math.abs(before.data[i + k] - after.data[j + k]);
        }
      const mean = sum / (3 * (x1 - x0) * (y1 - y0));
      assert.ok(mean <= 24, `${r.id}: the moved ${c.role} differs from itself where it went by ${mean.toFixed(1)} levels on average`);
    }
  }
  assert.ok(moves >= 1, 'no move among the pairs');
});

test('origins: held-out origins only in their split; --origins errors are clear', () => {
  const val = originsForSplit('val');
  const testSplit = originsForSplit('test');
  const train = originsForSplit('train');
  for (const o of ORIGINS) {
    const homes = [train, val, testSplit].filter((s) => s.includes(o.id));
    assert.equal(homes.length, 1, `${o.id} in ${homes.length} splits`);
  }
  assert.ok(val.length > 1 && testSplit.length > 1, 'val and test each hold out at least one origin');
  const held = ORIGINS.find((o) => o.split === 'test')!.id;
  assert.throws(
    () => parseArgs(['--seed', '1', '--count', '1', '--split', 'train', '--out', 'x', '--origins', held]),
    /held out for the test split/,
  );
  assert.throws(
    () => parseArgs(['--seed', '1', '--count', '1', '--split', 'train', '--out', 'x', '--origins', 'nosuch']),
    /unknown origin "nosuch"/,
  );
  assert.deepEqual(parseArgs(['--seed', '1', '--count', '1', '--split', 'val', '--out', 'x', '--origins', 'all']).origins, val);
  assert.deepEqual(parseArgs(['--seed', '1', '--count', '1', '--split', 'val', '--out', 'x']).origins, ['templates']);
});

test('origins: the re-encoded negative has the same pixels in other PNG bytes', async () => {
  // pair 162 of this seed and split draws a re-encoded "none" (found by a 200-pair run)
  const out = path.join(tmp, 'val');
  await runData(base(out, { split: 'val', count: 1, start: 162, origins: ['pico'] }));
  const recs = readManifest(out).filter((r) => r.changes[0].attrs.noise === 'reencoded');
  assert.equal(recs.length, 1, 'pair val-31-000162 is no longer a re-encoded none pair');
  for (const r of recs) {
    const bb = readFileSync(path.join(out, r.before));
    const ab = readFileSync(path.join(out, r.after));
    assert.ok(!bb.equals(ab), `${r.id}: same bytes`);
    assert.ok(PNG.sync.read(bb).data.equals(PNG.sync.read(ab).data), `${r.id}: pixels differ`);
  }
});
