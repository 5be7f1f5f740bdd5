// The kind prior's layout-context features (src/core/context.ts) on real PNGs, the grouping the
// pipeline uses for them, and the fusion rule of the kind logits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CONTEXT_FEATURES, CONTEXT_SIZE, sampleContext } from '../../src/core/context.js';
import { cropBoxFor, wholeScreenBox } from '../../src/core/crop.js';
import { decodePng, type RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';
import { sampleContexts } from '../../src/core/pipeline.js';
import { fuseKindLogits } from '../../src/core/kind.js';
import { MODELS_DIR, drawPng, type Rect } from './runtime-fixtures.js';

type Feature = (typeof CONTEXT_FEATURES)[number];

function image(width: number, height: number, rects: Rect[]): RgbaImage {
  return decodePng(drawPng(width, height, rects), `${width}x${height}.png`);
}

/** The features of sample `index` among `boxes`, as a name -> value map. */
function contextOf(before: RgbaImage, after: RgbaImage, boxes: Box[], index = 0): Record<Feature, number> {
  const width = Math.max(before.width, after.width);
  const height = Math.max(before.height, after.height);
  const values = sampleContext(
    before,
    after,
    boxes,
    boxes.map((b) => cropBoxFor(b, width, height)),
    index,
    width,
    height,
  );
  assert.equal(values.length, CONTEXT_SIZE);
  for (const [i, v] of values.entries()) assert.ok(Number.isFinite(v), `${CONTEXT_FEATURES[i]} is finite (${v})`);
  return Object.fromEntries(CONTEXT_FEATURES.map((name, i) => [name, values[i]])) as Record<Feature, number>;
}

const BLUE: [number, number, number] = [30, 90, 220];

test("the feature list is the contract's context_features and the kind prior's input width", () => {
  const contract = JSON.parse(fs.readFileSync(path.join(MODELS_DIR, 'contract.json'), 'utf8'));
  assert.deepEqual([...CONTEXT_FEATURES], contract.context_features);
  assert.equal(CONTEXT_SIZE, 55);
  assert.deepEqual(contract.models.kind_prior.inputs.context, ['B', CONTEXT_SIZE]);
  assert.equal(contract.models.kind_prior.outputs.kind_bias[1], contract.kinds.length);
});

test('a box moved right: its content centre moves right, its content size does not change', () => {
  const before = image(200, 120, [[40, 40, 80, 70, ...BLUE]]);
  const after = image(200, 120, [[60, 40, 100, 70, ...BLUE]]);
  const f = contextOf(before, after, [[30, 30, 110, 80]]);
  assert.ok(f.delta_fg_cx > 0, `delta_fg_cx ${f.delta_fg_cx}`);
  assert.ok(f.after_fg_cx > f.before_fg_cx);
  assert.equal(f.delta_fg_cy, 0);
  assert.equal(f.delta_fg_w, 0);
  assert.equal(f.delta_fg_h, 0);
  assert.equal(f.delta_fg_fraction, 0);
  assert.ok(f.before_fg_fraction > 0);
  // geometry of the region on the screen
  assert.ok(Math.abs(f.width - 80 / 200) < 1e-6 && Math.abs(f.height - 50 / 120) < 1e-6);
  assert.ok(Math.abs(f.left - 30 / 200) < 1e-6 && Math.abs(f.bottom - 80 / 120) < 1e-6);
  assert.equal(f.pair_samples, 1);
  assert.ok(f.changed_fraction > 0 && f.changed_fraction < 1);
});

test('a pure colour change: no content delta, a colour change', () => {
  const before = image(200, 120, [[40, 40, 80, 70, ...BLUE]]);
  const after = image(200, 120, [[40, 40, 80, 70, 220, 40, 40]]);
  const f = contextOf(before, after, [[30, 30, 90, 80]]);
  for (const name of ['delta_fg_cx', 'delta_fg_cy', 'delta_fg_w', 'delta_fg_h', 'delta_fg_fraction'] as const) {
    assert.equal(f[name], 0, name);
  }
  assert.ok(f.mean_colour_change > 0, `mean_colour_change ${f.mean_colour_change}`);
  assert.ok(f.mean_abs_difference > 0);
  // the changed share is the box's share of the region: 40x30 of 60x50
  assert.ok(Math.abs(f.changed_fraction - (40 * 30) / (60 * 50)) < 1e-6, `changed_fraction ${f.changed_fraction}`);
  // nothing changed at all: every comparison number is zero
  const same = contextOf(before, before, [[30, 30, 90, 80]]);
  assert.equal(same.changed_fraction, 0);
  assert.equal(same.mean_colour_change, 0);
  assert.equal(same.luma_change, 0);
});

test('three regions: what else changed above, below and beside each, and how many', () => {
  const before = image(200, 140, []);
  const after = image(200, 140, [
    [15, 15, 55, 35, ...BLUE],
    [105, 15, 145, 35, ...BLUE],
    [15, 85, 55, 105, ...BLUE],
  ]);
  const boxes: Box[] = [
    [10, 10, 60, 40],
    [100, 10, 150, 40],
    [10, 80, 60, 110],
  ];
  const topLeft = contextOf(before, after, boxes, 0);
  assert.deepEqual([topLeft.pair_samples, topLeft.other_above, topLeft.other_below, topLeft.other_beside], [3, 0, 1, 1]);
  const topRight = contextOf(before, after, boxes, 1);
  assert.deepEqual([topRight.pair_samples, topRight.other_above, topRight.other_below, topRight.other_beside], [3, 0, 1, 1]);
  const bottom = contextOf(before, after, boxes, 2);
  assert.deepEqual([bottom.pair_samples, bottom.other_above, bottom.other_below, bottom.other_beside], [3, 1, 0, 0]);
  // content appeared: the after content share grew, the before one is empty
  assert.equal(bottom.before_fg_fraction, 0);
  assert.ok(bottom.after_fg_fraction > 0 && bottom.delta_fg_fraction > 0);
  assert.ok(bottom.luma_change < 0, 'blue on white is darker');
});

test('a box partly outside the image is clipped, not an error', () => {
  const before = image(160, 120, [[0, 90, 30, 120, ...BLUE]]);
  const after = image(160, 120, [[0, 90, 40, 120, ...BLUE]]);
  const f = contextOf(before, after, [[-10, 80, 50, 140]]);
  assert.ok(f.changed_fraction > 0 && f.changed_fraction <= 1);
  assert.ok(f.delta_fg_w > 0, `delta_fg_w ${f.delta_fg_w}`);
  for (const name of ['before_fg_cx', 'before_fg_cy', 'after_fg_w', 'after_fg_h', 'after_fg_fraction'] as const) {
    assert.ok(f[name] >= 0 && f[name] <= 1, `${name} ${f[name]}`);
  }
  // wholly outside: still numbers
  contextOf(before, after, [[200, 200, 260, 240]]);
});

test('images of different sizes: compared on their common part, normalised by the larger one', () => {
  const before = image(160, 120, [[20, 20, 60, 50, ...BLUE]]);
  const after = image(160, 150, [[20, 20, 60, 50, 220, 40, 40]]);
  const f = contextOf(before, after, [[10, 10, 70, 60]]);
  assert.ok(Math.abs(f.height - 50 / 150) < 1e-6, `height ${f.height}`);
  assert.ok(f.mean_colour_change > 0);
  // a box that reaches into the part only the taller image has
  const g = contextOf(before, after, [[10, 100, 70, 140]]);
  assert.equal(g.changed_fraction, 0, 'the common part of the box (rows 100-119) did not change');
});

test('pipeline grouping: region samples see each other, the whole-screen sample stands alone', () => {
  const before = image(200, 140, []);
  const after = image(200, 140, [
    [15, 15, 55, 35, ...BLUE],
    [15, 85, 55, 105, ...BLUE],
  ]);
  const regionBoxes: Box[] = [
    [10, 10, 60, 40],
    [10, 80, 60, 110],
  ];
  const samples = [
    ...regionBoxes.map((box) => ({ box, cropBox: cropBoxFor(box, 200, 140), wholeScreen: false })),
    { box: wholeScreenBox(200, 140), cropBox: wholeScreenBox(200, 140), wholeScreen: true },
  ];
  const all = sampleContexts(before, after, samples);
  assert.equal(all.length, 3 * CONTEXT_SIZE);
  const cropBoxes = samples.map((s) => s.cropBox);
  for (const i of [0, 1]) {
    assert.deepEqual(
      [...all.subarray(i * CONTEXT_SIZE, (i + 1) * CONTEXT_SIZE)],
      [...sampleContext(before, after, regionBoxes, cropBoxes.slice(0, 2), i, 200, 140)],
      `region sample ${i}`,
    );
  }
  assert.deepEqual(
    [...all.subarray(2 * CONTEXT_SIZE)],
    [...sampleContext(before, after, [wholeScreenBox(200, 140)], [cropBoxes[2]], 0, 200, 140)],
    'whole-screen sample',
  );
  assert.equal(all[2 * CONTEXT_SIZE + CONTEXT_FEATURES.indexOf('pair_samples')], 1);
  assert.equal(all[CONTEXT_FEATURES.indexOf('pair_samples')], 2);
});

test('kind fusion: element-wise sum of the head logits and the prior bias; shapes must match', () => {
  const logits = new Float32Array([1, -2, 0.5, 3, 0, -1]);
  const bias = new Float32Array([-0.5, 0.25, 2, -4, 0, 1.5]);
  assert.deepEqual([...fuseKindLogits(logits, bias)], [0.5, -1.75, 2.5, -1, 0, 0.5]);
  assert.deepEqual([...fuseKindLogits(logits, new Float32Array(6))], [...logits]);
  assert.throws(() => fuseKindLogits(logits, new Float32Array(5)), /kind_bias has 5 values but kind_logits has 6/);
});
