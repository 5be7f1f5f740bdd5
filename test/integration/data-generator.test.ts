// The generator end to end, with the real browser: same seed => byte-identical corpus (also with a
// different number of pages), every record follows the format, PNGs are real and sized as recorded,
// and the recorded boxes really contain the pixels that changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { parseArgs, runData } from '../../src/data/cli.js';
import type { PairRecord } from '../../src/data/generate.js';
import type { Box } from '../../src/core/report.js';
import { readManifest, validateRecord } from '../../src/data/manifest.js';
import { listFiles } from './data-fixtures.js';

function readPng(file: string): PNG {
  return PNG.sync.read(readFileSync(file));
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'procap-data-test-'));
const runA = path.join(tmp, 'a');
const runB = path.join(tmp, 'b');
const COUNT = 30;

test.after(() => rmSync(tmp, { recursive: true, force: true }));

test('two runs with the same seed write byte-identical files, whatever the concurrency', async () => {
  await runData({
    seed: 4242,
    count: COUNT,
    split: 'test',
    out: runA,
    browsers: 2,
    pages: 2,
    start: 0,
    quiet: true,
    resume: false,
    templates: 4,
  });
  await runData({
    seed: 4242,
    count: COUNT,
    split: 'test',
    out: runB,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: false,
    templates: 4,
  });
  const filesA = listFiles(runA);
  const filesB = listFiles(runB);
  assert.deepEqual(filesA, filesB);
  assert.ok(filesA.length >= COUNT * 2 + 1);
  for (const f of filesA) {
    assert.ok(readFileSync(path.join(runA, f)).equals(readFileSync(path.join(runB, f))), `${f} differs between runs`);
  }
});

test('a different seed or split gives a different corpus', async () => {
  const other = path.join(tmp, 'c');
  await runData({
    seed: 4243,
    count: 3,
    split: 'test',
    out: other,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: false,
    templates: 4,
  });
  const a = readManifest(runA).slice(0, 3);
  const c = readManifest(other);
  assert.notDeepEqual(
    a.map((r) => r.captions),
    c.map((r) => r.captions),
  );
  assert.ok(!readFileSync(path.join(runA, a[0].before)).equals(readFileSync(path.join(other, c[0].before))));
});

test('--start makes a piece of a bigger run with the same ids and bytes', async () => {
  const piece = path.join(tmp, 'piece');
  await runData({
    seed: 4242,
    count: 2,
    split: 'test',
    out: piece,
    browsers: 1,
    pages: 1,
    start: COUNT - 2,
    quiet: true,
    resume: false,
    templates: 4,
  });
  const whole = readFileSync(path.join(runA, 'manifest.jsonl'), 'utf8').trim().split('\n').slice(-2);
  assert.deepEqual(readFileSync(path.join(piece, 'manifest.jsonl'), 'utf8').trim().split('\n'), whole);
  for (const f of listFiles(path.join(piece, 'pairs'))) {
    assert.ok(readFileSync(path.join(piece, 'pairs', f)).equals(readFileSync(path.join(runA, 'pairs', f))), f);
  }
});

test('--resume keeps complete pairs, cuts a torn last line and makes the rest identically', async () => {
  const partial = path.join(tmp, 'resume');
  await runData({
    seed: 4242,
    count: 3,
    split: 'test',
    out: partial,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: false,
    templates: 4,
  });
  // simulate a crash in the middle of writing the fourth line
  appendFileSync(path.join(partial, 'manifest.jsonl'), '{"id":"test-4242-0000');
  await runData({
    seed: 4242,
    count: 5,
    split: 'test',
    out: partial,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: true,
    templates: 2,
  });
  const whole = readFileSync(path.join(runA, 'manifest.jsonl'), 'utf8').split('\n').slice(0, 5).join('\n') + '\n';
  assert.equal(readFileSync(path.join(partial, 'manifest.jsonl'), 'utf8'), whole);
  await assert.rejects(
    runData({ seed: 1, count: 5, split: 'test', out: partial, browsers: 1, pages: 1, start: 0, quiet: true, resume: true, templates: 2 }),
    /not the same --seed\/--split\/--start/,
  );
});

test('every record follows the documented format and names real PNGs of the recorded size', () => {
  const records = readManifest(runA);
  assert.equal(records.length, COUNT);
  assert.deepEqual(
    records.map((r) => r.id),
    records
      .map((r) => r.id)
      .slice()
      .sort(),
    'manifest in index order',
  );
  for (const r of records) {
    assert.deepEqual(validateRecord(r), []);
    for (const rel of [r.before, r.after, ...r.frames]) {
      const png = readPng(path.join(runA, rel));
      assert.equal(png.width, r.width, rel);
      assert.equal(png.height, r.height, rel);
    }
  }
});

/** pixels that differ between two same-sized PNGs */
function diffPixels(a: PNG, b: PNG): [number, number][] {
  const out: [number, number][] = [];
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = (y * a.width + x) * 4;
      if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] || a.data[i + 2] !== b.data[i + 2]) out.push([x, y]);
    }
  }
  return out;
}

/** the boxes a change record gives (before and/or after) */
function recordedBoxes(changes: PairRecord['changes']): Box[] {
  return changes.flatMap((c) => [c.bbox_before, c.bbox_after]).filter((b): b is Box => !!b);
}

/** whether pixel (x, y) lies in box b grown by pad on every side */
function inBox([x, y]: [number, number], b: Box, pad = 0): boolean {
  return x >= b[0] - pad && y >= b[1] - pad && x < b[2] + pad && y < b[3] + pad;
}

/** Checks a corpus folder: every change changed pixels, and for kinds that do not reflow the page the
 * changed pixels lie inside the recorded boxes; with `eachChange`, also that each change (but theme)
 * changed pixels inside its own boxes. Returns how many pairs each check covered. */
function checkChangedPixels(dir: string, records: PairRecord[], eachChange = false): { checked: number; changedPairs: number } {
  let checked = 0;
  let changedPairs = 0;
  for (const r of records) {
    const diff = diffPixels(readPng(path.join(dir, r.before)), readPng(path.join(dir, r.after)));
    if (r.changes[0].kind !== 'none') {
      assert.ok(diff.length > 0, `${r.id}: ${r.changes.map((c) => c.kind).join('+')} changed no pixel`);
      changedPairs++;
    }
    // (an element whose recorded font size or weight is not the one drawn gets a font change that changes nothing)
    for (const c of eachChange ? r.changes.filter((c) => c.kind !== 'none' && c.kind !== 'theme') : []) {
      const boxes = recordedBoxes([c]);
      assert.ok(
        diff.some((px) => boxes.some((box) => inBox(px, box))),
        `${r.id}: ${c.kind} of a ${c.role} changed no pixel in its boxes`,
      );
    }
    if (!r.changes.every((c) => ['move', 'color', 'icon', 'opacity', 'none'].includes(c.kind))) continue;
    const boxes = recordedBoxes(r.changes);
    if (!boxes.length) {
      assert.equal(diff.length, 0, `${r.id}: identical pair with differing pixels`);
      continue;
    }
    const pad = 4; // shadows and anti-aliasing spill a few pixels past the element box
    const outside = diff.filter((px) => !boxes.some((box) => inBox(px, box, pad)));
    assert.equal(
      outside.length,
      0,
      `${r.id}: ${outside.length} changed pixels outside the boxes, e.g. ${JSON.stringify(outside.slice(0, 3))}`,
    );
    checked++;
  }
  // kinds that do not reflow leave nothing else shifted
  for (const r of records) {
    if (r.changes.every((c) => ['move', 'color', 'icon', 'opacity', 'none', 'theme'].includes(c.kind)))
      assert.deepEqual(r.reflowed, [], r.id);
  }
  return { checked, changedPairs };
}

test('changed pixels lie inside the recorded boxes (kinds that do not reflow the page)', () => {
  const { checked, changedPairs } = checkChangedPixels(runA, readManifest(runA));
  assert.ok(checked >= 5, `only ${checked} pairs checked`);
  assert.ok(changedPairs >= COUNT / 2);
});

const ADDED_LAYOUTS: [6 | 7 | 8, number, string[]][] = [
  [6, 606, ['docs', 'timeline', 'upload', 'leaderboard', 'event']],
  [7, 707, ['product', 'forecast', 'invoice', 'course', 'recipe']],
  [8, 808, ['podcast', 'route', 'survey', 'portfolio', 'ticket']],
];
for (const [set, seed, added] of ADDED_LAYOUTS) {
  test(`template set ${set} renders its five training layouts as valid pairs whose changes show`, async () => {
    const dir = path.join(tmp, `set${set}`);
    await runData({
      seed,
      count: 24,
      split: 'train',
      out: dir,
      browsers: 1,
      pages: 2,
      start: 0,
      quiet: true,
      resume: false,
      templates: set,
    });
    const records: PairRecord[] = readManifest(dir);
    const seen = new Set(records.map((r) => r.template).filter((t) => added.includes(t)));
    assert.ok(seen.size >= 4, `set-${set} layouts drawn: ${[...seen].join(', ')}`);
    for (const r of records) assert.deepEqual(validateRecord(r), [], r.id);
    const { changedPairs } = checkChangedPixels(
      dir,
      records.filter((r) => added.includes(r.template)),
      true,
    );
    assert.ok(changedPairs >= 5, `only ${changedPairs} set-${set} pairs with a change`);
  });
}

test('template set 8 leaves the val and test pairs as they were (val as under set 2, test as under every set)', async () => {
  const val2 = path.join(tmp, 'val-set2');
  const val8 = path.join(tmp, 'val-set8');
  const test8 = path.join(tmp, 'test-set8');
  await runData({
    seed: 808,
    count: 4,
    split: 'val',
    out: val2,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: false,
    templates: 2,
  });
  await runData({
    seed: 808,
    count: 4,
    split: 'val',
    out: val8,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: false,
    templates: 8,
  });
  await runData({
    seed: 4242,
    count: 4,
    split: 'test',
    out: test8,
    browsers: 1,
    pages: 1,
    start: 0,
    quiet: true,
    resume: false,
    templates: 8,
  });
  for (const [a, b] of [
    [val2, val8],
    [runA, test8],
  ]) {
    const files = listFiles(b);
    assert.ok(files.length >= 4 * 2 + 1);
    for (const f of files.filter((x) => x !== 'manifest.jsonl'))
      assert.ok(readFileSync(path.join(a, f)).equals(readFileSync(path.join(b, f))), `${f} differs under template set 8`);
  }
  assert.equal(readFileSync(path.join(val8, 'manifest.jsonl'), 'utf8'), readFileSync(path.join(val2, 'manifest.jsonl'), 'utf8'));
  assert.deepEqual(
    readFileSync(path.join(test8, 'manifest.jsonl'), 'utf8').trim().split('\n'),
    readFileSync(path.join(runA, 'manifest.jsonl'), 'utf8').trim().split('\n').slice(0, 4),
  );
});

test('intermediate frames move from before towards after', () => {
  const records = readManifest(runA).filter((r) => r.frames.length === 7);
  assert.ok(records.length >= 3, 'too few pairs with frames');
  for (const r of records) {
    const before = readPng(path.join(runA, r.before));
    const after = readPng(path.join(runA, r.after));
    const total = diffPixels(before, after).length;
    const fromBefore = r.frames.map((f) => diffPixels(before, readPng(path.join(runA, f))).length);
    // the first frame is nearer the before screen than the last one is
    assert.ok(fromBefore[0] <= fromBefore[6], `${r.id}: frames not ordered ${fromBefore.join(',')}`);
    assert.ok(fromBefore[6] > 0 || total === 0, `${r.id}: last frame equals before`);
  }
});

test('the command line rejects bad arguments with a clear message', () => {
  assert.throws(
    () => parseArgs(['--seed', '1', '--count', '5', '--split', 'dev', '--out', 'x']),
    /--split must be train, val or test, got "dev"/,
  );
  assert.throws(() => parseArgs(['--seed', 'abc', '--count', '5', '--split', 'train', '--out', 'x']), /--seed must be an integer/);
  assert.throws(() => parseArgs(['--count', '5', '--split', 'train', '--out', 'x']), /--seed is required/);
  assert.throws(() => parseArgs(['--seed', '1', '--count', '0', '--split', 'train', '--out', 'x']), /--count must be an integer >= 1/);
  assert.throws(() => parseArgs(['--bogus']), /unknown argument "--bogus"/);
  assert.deepEqual(parseArgs(['--seed', '3', '--count', '2', '--split', 'val', '--out', 'd']), {
    seed: 3,
    count: 2,
    split: 'val',
    out: 'd',
    browsers: 2,
    pages: 2,
    start: 0,
    quiet: false,
    resume: false,
    templates: 4,
    origins: ['templates'],
  });
  assert.equal(parseArgs(['--seed', '3', '--count', '2', '--split', 'val', '--out', 'd', '--templates', '1']).templates, 1);
  assert.equal(parseArgs(['--seed', '3', '--count', '2', '--split', 'val', '--out', 'd', '--templates', '2']).templates, 2);
  assert.equal(parseArgs(['--seed', '3', '--count', '2', '--split', 'train', '--out', 'd', '--templates', '5']).templates, 5);
  assert.equal(parseArgs(['--seed', '3', '--count', '2', '--split', 'train', '--out', 'd', '--templates', '6']).templates, 6);
  assert.equal(parseArgs(['--seed', '3', '--count', '2', '--split', 'train', '--out', 'd', '--templates', '7']).templates, 7);
  assert.equal(parseArgs(['--seed', '3', '--count', '2', '--split', 'train', '--out', 'd', '--templates', '8']).templates, 8);
  assert.throws(
    () => parseArgs(['--seed', '3', '--count', '2', '--split', 'val', '--out', 'd', '--templates', '9']),
    /--templates must be one of 1, 2, 3, 4, 5, 6, 7, 8, got "9"/,
  );
});

test('reading a missing or broken manifest names the file', () => {
  assert.throws(() => readManifest(path.join(tmp, 'nowhere')), /nowhere\/manifest\.jsonl/);
});

test('the bundled example pair is exactly what the engine makes', async () => {
  const { makeExample } = await import('../../src/data/example.js');
  const out = path.join(tmp, 'example');
  const rec = await makeExample(out);
  assert.equal(rec.width, 800);
  assert.deepEqual(
    rec.changes.map((c) => c.kind),
    ['move', 'color'],
  );
  assert.equal(rec.changes[0].role, 'button');
  assert.ok(Number(rec.changes[0].attrs.dy) > 0, 'the button moves down');
  const repoExamples = path.join(path.dirname(new URL(import.meta.url).pathname), '../../../examples');
  for (const f of ['before.png', 'after.png', 'example.json']) {
    assert.ok(
      readFileSync(path.join(out, f)).equals(readFileSync(path.join(repoExamples, f))),
      `examples/${f} differs from a fresh engine run: regenerate it (examples/README.md)`,
    );
  }
});
