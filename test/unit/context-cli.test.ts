import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CONTEXT_SIZE, sampleContext } from '../../src/core/context.js';
import { decodePng } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';
import { REPO_ROOT, drawPng, tempDir } from './runtime-fixtures.js';

const CONTEXT_CLI = path.join(REPO_ROOT, 'dist', 'src', 'lab', 'context.js');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CONTEXT_CLI, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** float32 rows of a .npy file written by the CLI (header length from the file itself). */
function readNpy(file: string): { shape: number[]; values: Float32Array } {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
  assert.match(header, /'descr': '<f4'/);
  const shape = (/'shape': \(([^)]*)\)/.exec(header)?.[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  const data = bytes.subarray(10 + headerLength);
  return { shape, values: new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) };
}

test('npm run context: features of every crops row, in row order, as the runtime computes them', () => {
  const dir = tempDir('context-cli');
  const before = drawPng(200, 120, [
    [20, 20, 60, 40, 30, 90, 200],
    [120, 70, 40, 30, 200, 60, 60],
  ]);
  const after = drawPng(200, 120, [
    [40, 20, 60, 40, 30, 90, 200],
    [120, 70, 40, 30, 60, 160, 60],
  ]);
  fs.writeFileSync(path.join(dir, 'before.png'), before);
  fs.writeFileSync(path.join(dir, 'after.png'), after);
  fs.writeFileSync(path.join(dir, 'manifest.jsonl'), JSON.stringify({ id: 'p1', before: 'before.png', after: 'after.png' }) + '\n');
  const rows = [
    { index: 0, pair_id: 'p1', box: [20, 20, 100, 60], crop_box: [12, -8, 108, 88], kind: 'move', source: 'region' },
    { index: 1, pair_id: 'p1', box: [118, 68, 162, 102], crop_box: [92, 37, 188, 133], kind: 'color', source: 'region' },
    { index: 2, pair_id: 'p1', box: [0, 0, 3, 3], crop_box: [0, 0, 96, 96], kind: 'none', source: 'noise' },
  ];
  fs.writeFileSync(path.join(dir, 'crops.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

  const first = run(['--crops', path.join(dir, 'crops.jsonl')]);
  assert.equal(first.code, 0, first.stderr);
  const out = path.join(dir, 'crops.context.npy');
  const { shape, values } = readNpy(out);
  assert.deepEqual(shape, [3, CONTEXT_SIZE]);
  // the model rows see each other (the noise row is not one of the pair's samples)
  const a = decodePng(before, 'before'),
    b = decodePng(after, 'after');
  const boxes = rows.slice(0, 2).map((r) => r.box as Box),
    crops = rows.slice(0, 2).map((r) => r.crop_box as Box);
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(
      Array.from(values.subarray(i * CONTEXT_SIZE, (i + 1) * CONTEXT_SIZE)),
      Array.from(sampleContext(a, b, boxes, crops, i, 200, 120)),
    );
  }
  const noise = sampleContext(a, b, [...boxes, rows[2].box as Box], [...crops, rows[2].crop_box as Box], 2, 200, 120);
  assert.deepEqual(Array.from(values.subarray(2 * CONTEXT_SIZE)), Array.from(noise));

  // an existing output is kept unless --force says otherwise
  const stamp = fs.readFileSync(out);
  const again = run(['--crops', path.join(dir, 'crops.jsonl')]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists; pass --force/);
  assert.deepEqual(fs.readFileSync(out), stamp);
  assert.equal(run(['--crops', path.join(dir, 'crops.jsonl'), '--force']).code, 0);
});

test('npm run context: clear messages for bad input', () => {
  const dir = tempDir('context-cli-bad');
  const none = run([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--crops is required/);
  assert.match(run(['--crops', path.join(dir, 'missing.jsonl')]).stderr, /missing\.jsonl: cannot read the crops file/);
  fs.writeFileSync(
    path.join(dir, 'crops.jsonl'),
    JSON.stringify({ index: 0, pair_id: 'nope', box: [0, 0, 1, 1], crop_box: [0, 0, 96, 96] }) + '\n',
  );
  fs.writeFileSync(path.join(dir, 'manifest.jsonl'), '');
  const unknown = run(['--crops', path.join(dir, 'crops.jsonl')]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /pair nope, which the manifest does not have/);
});
