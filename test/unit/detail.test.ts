// The detail view of large regions (src/core/detail.ts, contract "crop.detail") and the detail-crops CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import contract from '../../models/contract.json' with { type: 'json' };
import { contractDetailRule, densestStart, detailBoxFor, fuseDetailLogits, type DetailRule } from '../../src/core/detail.js';
import { cropBoxFor } from '../../src/core/crop.js';
import { blankImage, cloneImage, fillRect, tempDir, writePng } from './image-fixtures.js';
import { REPO_ROOT } from './runtime-fixtures.js';

const RULE: DetailRule = { minCropSide: 192, window: 148, diffThreshold: 24, weight: 1 };

test('the rule comes from the contract; a contract without it has none', () => {
  const rule = contractDetailRule();
  assert.ok(rule);
  assert.equal(rule.minCropSide, contract.crop.detail.min_crop_side);
  assert.equal(rule.window, contract.crop.detail.window);
  assert.equal(rule.diffThreshold, contract.crop.detail.diff_threshold);
  assert.equal(rule.weight, contract.crop.detail.weight);
  assert.equal(contractDetailRule({ crop: {} }), undefined);
  assert.equal(contractDetailRule({}), undefined);
});

test('densest stretch: the first window with the largest sum', () => {
  assert.equal(densestStart([0, 0, 5, 5, 0, 0], 2), 2);
  assert.equal(densestStart([1, 0, 0, 0, 1, 1], 2), 4);
  assert.equal(densestStart([3, 0, 0, 3], 1), 0, 'ties: the first');
  assert.equal(densestStart([1, 2], 5), 0, 'shorter than the window: from the start');
});

test('a region whose crop is small enough gets no detail view', () => {
  const before = blankImage(800, 600);
  const after = fillRect(cloneImage(before), [100, 100, 200, 140], [0, 0, 0, 255]);
  // 100 px wide: side 100 + 2*15 = 130 <= 192
  assert.equal(detailBoxFor(before, after, [100, 100, 200, 140], RULE), undefined);
});

test('a wide region: the window keeps its height and slides to where the pixels changed', () => {
  const before = blankImage(800, 600);
  // a 500 x 20 label row; only the words between x=420 and x=470 changed
  const after = fillRect(cloneImage(before), [420, 205, 470, 215], [0, 0, 0, 255]);
  const box: [number, number, number, number] = [100, 200, 600, 220];
  const detail = detailBoxFor(before, after, box, RULE);
  assert.ok(detail);
  const [x0, y0, x1, y1] = detail;
  assert.deepEqual([y0, y1], [200, 220], 'height kept (under the window)');
  assert.equal(x1 - x0, 148);
  assert.ok(x0 <= 420 && x1 >= 470, `the window ${x0}..${x1} holds the change 420..470`);
  assert.ok(x0 >= 100 && x1 <= 600, 'inside the region');
  // its crop is at most the 192 px the rule aims at: shrunk about 2x, not 6x
  const crop = cropBoxFor(detail, 800, 600);
  assert.ok(crop[2] - crop[0] <= 192, `crop side ${crop[2] - crop[0]}`);
});

test('a tall region slides vertically; small differences under the threshold do not count', () => {
  const before = blankImage(400, 900);
  const after = cloneImage(before);
  fillRect(after, [50, 100, 150, 300], [245, 245, 245, 255]); // |d| = 30 summed: over 24
  fillRect(after, [50, 600, 150, 700], [0, 0, 0, 255]);
  const faint = cloneImage(before);
  fillRect(faint, [50, 100, 150, 300], [250, 250, 250, 255]); // |d| = 15: under 24
  fillRect(faint, [50, 600, 150, 700], [0, 0, 0, 255]);
  const box: [number, number, number, number] = [40, 50, 160, 850];
  const onFaint = detailBoxFor(before, faint, box, RULE)!;
  assert.ok(onFaint[1] <= 600 && onFaint[3] >= 700, `window ${onFaint} on the dark change`);
  assert.deepEqual([onFaint[0], onFaint[2]], [40, 160], 'width kept');
  const onBoth = detailBoxFor(before, after, box, RULE)!;
  assert.equal(onBoth[1], 100, 'the 200-row change holds more changed pixels than the 100-row one');
});

test('fusion: weight 0 is the region alone, a certain detail view moves the answer, the scale is log-probability', () => {
  const region = [2, 1, 0];
  const detail = [0, 0, 9];
  const alone = fuseDetailLogits(region, detail, 0);
  const lse = Math.log(Math.exp(2) + Math.exp(1) + 1);
  alone.forEach((v, i) => assert.ok(Math.abs(v - (region[i] - lse)) < 1e-6));
  const fused = fuseDetailLogits(region, detail, 1);
  assert.equal(fused.indexOf(Math.max(...fused)), 2);
  const sum = fused.reduce((s, v) => s + Math.exp(v), 0);
  assert.ok(sum <= 1 + 1e-6, 'a mean of log-probabilities: its exp sums to at most 1');
  assert.throws(() => fuseDetailLogits([1, 2], [1, 2, 3], 1), /detail view/);
});

test("detail-crops CLI: writes the large regions' views with their context rows, refuses to overwrite", () => {
  const dir = tempDir('procap-detail-');
  const before = blankImage(800, 600);
  const after = fillRect(cloneImage(before), [420, 205, 470, 215], [0, 0, 0, 255]);
  fillRect(after, [50, 50, 60, 60], [0, 0, 0, 255]);
  fs.mkdirSync(path.join(dir, 'pairs'), { recursive: true });
  writePng(path.join(dir, 'pairs', 'b.png'), before);
  writePng(path.join(dir, 'pairs', 'a.png'), after);
  fs.writeFileSync(path.join(dir, 'manifest.jsonl'), JSON.stringify({ id: 'p1', before: 'pairs/b.png', after: 'pairs/a.png' }) + '\n');
  const big: [number, number, number, number] = [100, 200, 600, 220];
  const small: [number, number, number, number] = [50, 50, 60, 60];
  const rows = [
    {
      index: 0,
      pair_id: 'p1',
      region_index: 0,
      box: big,
      crop_box: cropBoxFor(big, 800, 600),
      kind: 'text',
      captions: ['x'],
      source: 'region',
    },
    {
      index: 1,
      pair_id: 'p1',
      region_index: 1,
      box: small,
      crop_box: cropBoxFor(small, 800, 600),
      kind: 'add',
      captions: ['y'],
      source: 'region',
    },
    {
      index: 2,
      pair_id: 'p1',
      region_index: 2,
      box: big,
      crop_box: cropBoxFor(big, 800, 600),
      kind: 'none',
      captions: ['z'],
      source: 'noise',
    },
  ];
  fs.writeFileSync(path.join(dir, 'crops.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const cli = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'detail-crops.js');
  const out = path.join(dir, 'detail');
  const noContext = spawnSync(process.execPath, [cli, '--crops', path.join(dir, 'crops.jsonl'), '--out', out], { encoding: 'utf8' });
  assert.equal(noContext.status, 1);
  assert.match(noContext.stderr, /crops\.context\.npy missing: run `npm run --silent context/);
  // a context file: row i holds the value i in every column
  const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 55), }";
  const head = Buffer.alloc(128, 0x20);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(118, 8);
  head.write(header, 10, 'latin1');
  head[127] = 0x0a;
  const values = new Float32Array(3 * 55).map((_, i) => Math.floor(i / 55));
  fs.writeFileSync(path.join(dir, 'crops.context.npy'), Buffer.concat([head, Buffer.from(values.buffer)]));
  const ok = spawnSync(process.execPath, [cli, '--crops', path.join(dir, 'crops.jsonl'), '--out', out], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).detailed, 1, 'only the large model region (not the small one, not noise)');
  const written = fs
    .readFileSync(path.join(out, 'crops.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(written.length, 1);
  assert.equal(written[0].detail_of, 0);
  assert.equal(written[0].index, 0);
  assert.equal(written[0].kind, 'text');
  assert.equal(written[0].box[2] - written[0].box[0], 148);
  const pairsNpy = fs.readFileSync(path.join(out, 'crops.pairs.npy'));
  assert.match(pairsNpy.subarray(0, 128).toString('latin1'), /'shape': \(1, 2, 96, 96, 3\)/);
  assert.equal(pairsNpy.length, 128 + 2 * 96 * 96 * 3);
  const ctx = fs.readFileSync(path.join(out, 'crops.context.npy'));
  assert.equal(new Float32Array(ctx.buffer.slice(ctx.byteOffset + 128, ctx.byteOffset + ctx.length))[0], 0, "the region's own context row");
  const manifest = fs
    .readFileSync(path.join(out, 'manifest.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    manifest.map((p) => p.id),
    ['p1'],
  );
  assert.equal(manifest[0].before, path.join(dir, 'pairs', 'b.png'), 'image paths made absolute');
  const again = spawnSync(process.execPath, [cli, '--crops', path.join(dir, 'crops.jsonl'), '--out', out], { encoding: 'utf8' });
  assert.equal(again.status, 2);
  assert.match(again.stderr, /exists; pass --force/);
  const forced = spawnSync(process.execPath, [cli, '--crops', path.join(dir, 'crops.jsonl'), '--out', out, '--force'], {
    encoding: 'utf8',
  });
  assert.equal(forced.status, 0, forced.stderr);
  assert.equal(fs.readFileSync(path.join(out, 'crops.jsonl'), 'utf8').trim().split('\n').length, 1, '--force rewrites the same rows');
  const usage = spawnSync(process.execPath, [cli, '--crops', path.join(dir, 'crops.jsonl')], { encoding: 'utf8' });
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /--out is required/);
});

test('the runtime: with a weight, a large region is also read through its window (real models), a small one is not', async () => {
  const { SessionManager } = await import('../../src/core/session.js');
  const { describe: describePair } = await import('../../src/core/pipeline.js');
  const { MODELS_DIR, drawPng } = await import('./runtime-fixtures.js');
  const withWeight = (weight: number) => {
    const dir = tempDir('procap-detail-models-');
    for (const f of fs.readdirSync(MODELS_DIR)) fs.cpSync(path.join(MODELS_DIR, f), path.join(dir, f), { recursive: true });
    const c = JSON.parse(fs.readFileSync(path.join(dir, 'contract.json'), 'utf8'));
    c.crop.detail.weight = weight;
    delete c.pair_consistency; // the detail view alone: with pair consistency, the big region's view would move the small one's kind too
    fs.writeFileSync(path.join(dir, 'contract.json'), JSON.stringify(c));
    return new SessionManager({ modelsDir: dir, provider: 'cpu' });
  };
  // a 600 x 60 card whose background changes (one wide region), and a small badge recoloured
  const card = (r: number, g: number, b: number): [number, number, number, number, number, number, number][] => [
    [40, 100, 640, 160, r, g, b],
    [60, 120, 200, 132, 30, 30, 30],
    [240, 120, 420, 132, 30, 30, 30],
  ];
  const before = drawPng(720, 400, [...card(230, 230, 230), [300, 300, 330, 320, 30, 160, 60]]);
  const after = drawPng(720, 400, [...card(90, 140, 230), [300, 300, 330, 320, 220, 40, 40]]);
  const off = withWeight(0),
    on = withWeight(2);
  try {
    const a = await describePair(off, before, after, { procedure: false });
    const b = await describePair(on, before, after, { procedure: false });
    const big = (r: typeof a) => r.regions.find((x) => !x.noiseOnly && x.boxBefore[2] - x.boxBefore[0] > 150);
    const small = (r: typeof a) => r.regions.find((x) => !x.noiseOnly && x.boxBefore[2] - x.boxBefore[0] <= 60);
    assert.ok(big(a) && big(b) && small(a) && small(b), JSON.stringify(a.regions.map((r) => r.boxBefore)));
    assert.equal(big(a)!.detailCropBox, undefined, 'weight 0: no detail view');
    const crop = big(b)!.detailCropBox;
    assert.ok(crop, 'weight 2: the wide region was read through a window too');
    assert.ok(crop[2] - crop[0] <= 192 && crop[0] >= big(b)!.cropBox[0] && crop[2] <= big(b)!.cropBox[2], JSON.stringify(crop));
    assert.notEqual(big(a)!.confidence, big(b)!.confidence, "the fused kind probability differs from the region view's alone");
    assert.equal(small(b)!.detailCropBox, undefined);
    assert.equal(small(a)!.confidence, small(b)!.confidence, 'a small region is read as before');
    assert.equal(small(a)!.kind, small(b)!.kind);
  } finally {
    await off.dispose();
    await on.dispose();
  }
});
