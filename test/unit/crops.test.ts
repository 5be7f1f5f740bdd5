import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePng } from '../../src/core/image.js';
import { cropBoxFor, extractCrop, CROP_SIZE } from '../../src/core/crop.js';
import { cloneImage, fillRect, sampleScreen, tempDir, writePng, type Rgba } from './image-fixtures.js';
import type { Box } from '../../src/core/report.js';
import { inkBox, reflowShiftOf, regionMatchesChange, withInk } from '../../src/lab/crops.js';
import { reflowCaptions } from '../../src/data/captions.js';

const CROPS_CLI = fileURLToPath(new URL('../../src/lab/crops.js', import.meta.url));
const CROP_BYTES = CROP_SIZE * CROP_SIZE * 3;

/** Parses a uint8 .npy file written by the crops command: shape and data. */
function readNpy(path: string): { shape: number[]; data: Uint8Array } {
  const bytes = readFileSync(path);
  assert.equal(bytes.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
  assert.match(header, /'descr': '\|u1'/);
  assert.match(header, /'fortran_order': False/);
  assert.equal((10 + headerLength) % 64, 0, 'npy header must be padded to a multiple of 64');
  const shape = header
    .match(/'shape': \(([^)]*)\)/)![1]
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset + 10 + headerLength, bytes.length - 10 - headerLength);
  assert.equal(
    data.length,
    shape.reduce((a, b) => a * b, 1),
    'data size must match the shape',
  );
  return { shape, data };
}

interface Fixture {
  dir: string;
  manifest: string;
}

const RED: Rgba = [220, 30, 30, 255];
const GREEN: Rgba = [20, 160, 60, 255];

function buildManifest(): Fixture {
  const dir = tempDir('procap-crops-');
  const lines: object[] = [];
  const save = (name: string, image: ReturnType<typeof sampleScreen>) => writePng(join(dir, name), image) && name;

  // 1: colour change of the button [20,140,100,170], with 7 true frames
  const base = sampleScreen();
  const recoloured = fillRect(cloneImage(base), [20, 140, 100, 170], RED);
  const frames = Array.from({ length: 7 }, (_, i) => {
    const t = (i + 1) / 8;
    const colour: Rgba = [Math.round(30 + t * 190), Math.round(120 - t * 90), Math.round(220 - t * 190), 255];
    return save(`p1_f${i}.png`, fillRect(cloneImage(base), [20, 140, 100, 170], colour));
  });
  lines.push({
    id: 'p1',
    split: 'train',
    before: save('p1_a.png', base),
    after: save('p1_b.png', recoloured),
    frames,
    width: 320,
    height: 200,
    changes: [
      {
        kind: 'color',
        role: 'primary',
        label: 'button',
        bbox_before: [20, 140, 100, 170],
        bbox_after: [20, 140, 100, 170],
        from: 'blue',
        to: 'red',
      },
    ],
    captions: ['the button turned red'],
    region_captions: [['the button turned red', 'the blue button is now red']],
  });

  // 2: a green badge appears far from an unrelated, unrecorded change (top-right corner)
  const withBadge = fillRect(cloneImage(base), [250, 150, 290, 170], GREEN);
  fillRect(withBadge, [300, 30, 310, 40], RED);
  lines.push({
    id: 'p2',
    split: 'train',
    before: 'p2_a.png',
    after: save('p2_b.png', withBadge),
    frames: [],
    width: 320,
    height: 200,
    changes: [
      { kind: 'add', role: 'primary', label: 'badge', bbox_before: null, bbox_after: [250, 150, 290, 170], from: null, to: 'badge' },
    ],
    captions: ['a green badge appeared'],
    region_captions: [['a green badge appeared']],
  });
  save('p2_a.png', base);

  // 3: no change at all, with the noisy element recorded
  lines.push({
    id: 'p3',
    split: 'train',
    before: save('p3_a.png', base),
    after: save('p3_b.png', base),
    frames: [],
    width: 320,
    height: 200,
    changes: [{ kind: 'none', role: 'primary', label: 'header', bbox_before: [0, 0, 320, 24], bbox_after: [0, 0, 320, 24] }],
    captions: ['no visible change'],
    region_captions: [['no visible change']],
  });

  // 4: theme change everywhere: the whole-screen rule fires
  const dark = sampleScreen();
  for (let i = 0; i < dark.data.length; i += 4) for (let c = 0; c < 3; c++) dark.data[i + c] = 255 - dark.data[i + c];
  lines.push({
    id: 'p4',
    split: 'train',
    before: save('p4_a.png', base),
    after: save('p4_b.png', dark),
    frames: [],
    width: 320,
    height: 200,
    changes: [{ kind: 'theme', role: 'primary', label: 'page', bbox_before: [0, 0, 320, 200], bbox_after: [0, 0, 320, 200] }],
    captions: ['the page switched to a dark theme'],
    region_captions: [['the page switched to a dark theme']],
  });

  // 5: a broken file: skipped with a message, the rest still written
  writeFileSync(join(dir, 'p5_b.png'), 'not a png');
  lines.push({
    id: 'p5',
    split: 'train',
    before: 'p1_a.png',
    after: 'p5_b.png',
    frames: [],
    changes: [],
    captions: [],
    region_captions: [],
  });

  const manifest = join(dir, 'manifest.jsonl');
  writeFileSync(manifest, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return { dir, manifest };
}

function runCrops(
  fixture: Fixture,
  workers: number,
): { summary: any; samples: any[]; pairs: ReturnType<typeof readNpy>; frames: ReturnType<typeof readNpy>; stderr: string } {
  const out = join(fixture.dir, `out-w${workers}`);
  const stderr = '';
  const stdout = execFileSync(process.execPath, [CROPS_CLI, '--manifest', fixture.manifest, '--out', out, '--workers', String(workers)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const summary = JSON.parse(stdout.trim().split('\n').pop()!);
  const samples = readFileSync(`${out}.jsonl`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return { summary, samples, pairs: readNpy(`${out}.pairs.npy`), frames: readNpy(`${out}.frames.npy`), stderr };
}

test('crops: every detected region becomes a labelled sample with before/after/frame crops', () => {
  const fixture = buildManifest();
  const { summary, samples, pairs, frames } = runCrops(fixture, 1);

  assert.equal(summary.pairs, 5);
  assert.equal(summary.pairs_skipped, 1, 'the broken pair is skipped, not fatal');
  assert.equal(pairs.shape.join(), [samples.length, 2, 96, 96, 3].join());
  assert.equal(frames.shape.join(), [samples.filter((s) => s.has_frames).length, 7, 96, 96, 3].join());
  samples.forEach((s, i) => assert.equal(s.index, i));

  const p1 = samples.filter((s) => s.pair_id === 'p1');
  assert.equal(p1.length, 1);
  assert.equal(p1[0].kind, 'color');
  assert.deepEqual(p1[0].box, [20, 140, 100, 170]);
  assert.deepEqual(p1[0].crop_box, cropBoxFor([20, 140, 100, 170], 320, 200));
  assert.deepEqual(p1[0].captions, ['the button turned red', 'the blue button is now red']);
  assert.deepEqual(p1[0].matched_changes, [0]);
  assert.equal(p1[0].has_frames, true);
  assert.equal(p1[0].frames_index, 0);
  // the stored crops are exactly the contract crops of the PNG files
  const before = decodePng(readFileSync(join(fixture.dir, 'p1_a.png')), 'p1_a.png');
  const after = decodePng(readFileSync(join(fixture.dir, 'p1_b.png')), 'p1_b.png');
  const frame3 = decodePng(readFileSync(join(fixture.dir, 'p1_f3.png')), 'p1_f3.png');
  const at = p1[0].index * 2 * CROP_BYTES;
  assert.deepEqual(pairs.data.subarray(at, at + CROP_BYTES), extractCrop(before, p1[0].crop_box as Box));
  assert.deepEqual(pairs.data.subarray(at + CROP_BYTES, at + 2 * CROP_BYTES), extractCrop(after, p1[0].crop_box as Box));
  const frameAt = (p1[0].frames_index * 7 + 3) * CROP_BYTES;
  assert.deepEqual(frames.data.subarray(frameAt, frameAt + CROP_BYTES), extractCrop(frame3, p1[0].crop_box as Box));

  const p2 = samples.filter((s) => s.pair_id === 'p2');
  assert.equal(p2.length, 2);
  const badge = p2.find((s) => s.kind === 'add');
  assert.ok(badge, 'the badge region is labelled add');
  assert.deepEqual(badge.box, [250, 150, 290, 170]);
  const stray = p2.find((s) => s.kind === 'none');
  assert.ok(stray, 'the unrecorded change is labelled none');
  assert.deepEqual(stray.captions, ['no visible change']);
  assert.deepEqual(stray.matched_changes, []);
  assert.equal(stray.frames_index, -1);
  assert.equal(stray.source, 'unmatched');
  assert.equal(badge.source, 'region');

  const p3 = samples.filter((s) => s.pair_id === 'p3');
  assert.equal(p3.length, 1, 'a no-change pair still yields one sample');
  assert.equal(p3[0].kind, 'none');
  assert.deepEqual(p3[0].box, [0, 0, 320, 24], 'at the noisy element');
  assert.equal(p3[0].source, 'fallback');

  const p4 = samples.filter((s) => s.pair_id === 'p4');
  assert.equal(p4.length, 1);
  assert.equal(p4[0].whole_screen, true);
  assert.equal(p4[0].kind, 'theme');
  assert.deepEqual(p4[0].captions, ['the page switched to a dark theme']);
  assert.deepEqual(p4[0].crop_box, [0, 0, 320, 200]);

  assert.equal(summary.samples, samples.length);
  assert.equal(summary.per_kind.none, 2);
  assert.equal(summary.regions_detected, 4, 'p1: 1, p2: 2, p3: none, p4: the whole screen');
  assert.equal(summary.unmatched_rate, 1 / 4, 'one of the four detected regions matches no change record');
});

test('crops: worker threads give byte-identical output in the same order', () => {
  const fixture = buildManifest();
  const single = runCrops(fixture, 1);
  const parallel = runCrops(fixture, 2);
  assert.deepEqual(parallel.samples, single.samples);
  assert.deepEqual(parallel.pairs.data, single.pairs.data);
  assert.deepEqual(parallel.frames.data, single.frames.data);
});

test('crops: a missing manifest is a clear error', () => {
  const dir = tempDir('procap-crops-');
  assert.throws(
    () => execFileSync(process.execPath, [CROPS_CLI, '--manifest', join(dir, 'nope.jsonl'), '--out', join(dir, 'x')], { stdio: 'pipe' }),
    (e: any) => e.status === 1 && /nope\.jsonl: cannot read the manifest/.test(String(e.stderr)),
  );
});

test('crops: a region explained only by reflow is labelled "reflow" with its shift, others stay unexplained', () => {
  const pair = {
    id: 'p',
    before: 'b.png',
    after: 'a.png',
    reflowed: [
      { bbox_before: [10, 100, 110, 130] as Box, bbox_after: [10, 124, 110, 154] as Box },
      { bbox_before: [10, 140, 110, 170] as Box, bbox_after: [10, 164, 110, 194] as Box },
      { bbox_before: [300, 10, 340, 30] as Box, bbox_after: [300, 10, 340, 30] as Box }, // did not move
    ],
  };
  assert.deepEqual(reflowShiftOf([0, 95, 120, 200], pair), { dx: 0, dy: 24 });
  assert.equal(reflowShiftOf([290, 0, 350, 40], pair), null, 'an element that did not move explains nothing');
  assert.equal(reflowShiftOf([500, 500, 520, 520], pair), null);
  assert.equal(reflowShiftOf([0, 95, 120, 200], { ...pair, reflowed: undefined }), null);
  // a card that grew around a change elsewhere keeps its top-left corner: its moved edge is the shift
  const grown = { ...pair, reflowed: [{ bbox_before: [172, 148, 314, 349] as Box, bbox_after: [172, 148, 314, 389] as Box }] };
  assert.deepEqual(
    reflowShiftOf([172, 347, 314, 349], grown),
    { dx: 0, dy: 40 },
    'its old bottom border is reflow, not "no visible change"',
  );
  const narrowed = { ...pair, reflowed: [{ bbox_before: [10, 10, 200, 60] as Box, bbox_after: [40, 10, 200, 60] as Box }] };
  assert.deepEqual(reflowShiftOf([10, 10, 60, 60], narrowed), { dx: 30, dy: 0 });
  const captions = reflowCaptions(0, 24);
  assert.ok(captions.length >= 3 && captions.every((c) => /down/.test(c) && !/up/.test(c)), captions.join(' | '));
  assert.ok(
    reflowCaptions(-60, 5).every((c) => /far left/.test(c)),
    reflowCaptions(-60, 5).join(' | '),
  );
});

test('crops: a region matches a change by its box or by the box of its visible pixels (ink)', () => {
  // a nav link 64 px tall around its 16 px label was removed; the region is the label's line and the
  // links that moved into its place
  const before = sampleScreen(400, 100);
  const after = cloneImage(before);
  fillRect(after, [120, 36, 160, 52], [255, 0, 255, 255]);
  const link = { kind: 'remove', bbox_before: [110, 10, 167, 74] as Box, bbox_after: null };
  assert.deepEqual(inkBox(before, after, link.bbox_before), [120, 36, 160, 52]);
  assert.equal(inkBox(before, before, link.bbox_before), null, 'nothing differs: no ink');
  const region: Box = [120, 36, 400, 52];
  assert.equal(regionMatchesChange(region, link), false, 'its box alone overlaps the region too little');
  const [inked] = withInk([link], before, after);
  assert.equal(regionMatchesChange(region, inked), true);
  // no-change and theme records keep their boxes only
  const none = { kind: 'none', bbox_before: [110, 10, 167, 74] as Box, bbox_after: [110, 10, 167, 74] as Box };
  assert.deepEqual(withInk([none], before, after), [none]);
});
