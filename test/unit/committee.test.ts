// The kind committee (models/CONTRACT.md "Kind committee", training/committee.py): the rule on hand-worked
// numbers, its contract entry, and how a models folder with, without or with a lost kind_members.onnx loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelLoadError, SessionManager, loadContract } from '../../src/core/session.js';
import { committeeKindLogits } from '../../src/core/kind.js';
import { describe } from '../../src/core/pipeline.js';
import { MODELS_DIR, screenPair, tempDir } from './runtime-fixtures.js';

const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

test("committee rule: the mean of the head's log-softmax and the members' log-probabilities", () => {
  // two kinds; the head's logits [0, ln 3] are the probabilities [0.25, 0.75]
  const head = Float32Array.from([0, Math.log(3)]);
  // one member sure of the first kind (0.9, 0.1): the mean of log-probabilities flips the argmax
  const member = Float32Array.from([Math.log(0.9), Math.log(0.1)]);
  const out = committeeKindLogits(head, member, 1, 1, 2);
  assert.ok(close(out[0], (Math.log(0.25) + Math.log(0.9)) / 2), String(out[0]));
  assert.ok(close(out[1], (Math.log(0.75) + Math.log(0.1)) / 2), String(out[1]));
  assert.ok(out[0] > out[1], 'geometric mean 0.474 vs 0.274: the first kind wins');

  // two samples, two members: each sample reads its own rows; a constant added to the head's logits
  // changes nothing (log-softmax)
  const heads = Float32Array.from([5, 5, 100, 101]);
  const members = Float32Array.from([
    Math.log(0.5),
    Math.log(0.5),
    Math.log(0.2),
    Math.log(0.8), // sample 0: members 0 and 1
    Math.log(0.8),
    Math.log(0.2),
    Math.log(0.8),
    Math.log(0.2), // sample 1
  ]);
  const two = committeeKindLogits(heads, members, 2, 2, 2);
  const l = (p: number) => Math.log(p);
  const h1 = [100 - (101 + Math.log(1 + Math.exp(-1))), 101 - (101 + Math.log(1 + Math.exp(-1)))];
  const want = [(l(0.5) + l(0.5) + l(0.2)) / 3, (l(0.5) + l(0.5) + l(0.8)) / 3, (h1[0] + 2 * l(0.8)) / 3, (h1[1] + 2 * l(0.2)) / 3];
  want.forEach((w, i) => assert.ok(close(two[i], w), `value ${i}: ${two[i]} vs ${w}`));
  // sample 1: two members at 0.8 outvote the head's 0.27 (-0.59 vs -1.18); two at 0.6 would not (-0.78 vs -0.72)
  assert.ok(two[2] > two[3], 'sample 1: the members (0.8) outvote the head (0.27)');

  assert.throws(() => committeeKindLogits(heads, members.subarray(0, 6), 2, 2, 2), /do not fit \[2, 2, 2\]/);
});

test("contract: kind_members is optional and reads exactly procedure_encoder's inputs", () => {
  const contract = loadContract(MODELS_DIR);
  const members = contract.models.kind_members;
  assert.ok(members, 'contract entry');
  assert.equal(members.optional, true);
  assert.deepEqual(members.inputs, contract.models.procedure_encoder.inputs);
  assert.deepEqual(members.outputs.kind_log_probs, ['B', 'M', contract.kinds.length]);
});

function copyModels(): string {
  const dir = tempDir('committee-models');
  fs.cpSync(MODELS_DIR, dir, { recursive: true });
  return dir;
}

function setExportedMembers(dir: string, members: string[]): void {
  const file = path.join(dir, 'export_info.json');
  const info = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.writeFileSync(file, JSON.stringify({ ...info, kind_members: members }));
}

test('a lost kind_members.onnx that export_info.json lists is a clear error; an unlisted one means no committee', async () => {
  const dir = copyModels();
  fs.rmSync(path.join(dir, 'kind_members.onnx'), { force: true });
  setExportedMembers(dir, ['/ckpt/a', '/ckpt/b']);
  const lost = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(lost.kindMembers(), (err: Error) => {
    assert.ok(err instanceof ModelLoadError);
    assert.ok(err.message.includes(path.join(dir, 'kind_members.onnx')), err.message);
    assert.match(err.message, /kind committee's model file is missing \(export_info\.json lists 2 member checkpoints\)/);
    assert.match(err.message, /git checkout -- models\//);
    return true;
  });
  const pair = screenPair();
  await assert.rejects(describe(lost, pair.before, pair.after, { procedure: false }), /kind_members\.onnx/);
  await lost.dispose();

  // a single-head export (no members listed, no file): no committee, describe works
  setExportedMembers(dir, []);
  const single = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  assert.equal(await single.kindMembers(), undefined);
  const report = await describe(single, pair.before, pair.after, { procedure: false });
  assert.ok(report.regions.length > 0);
  await single.dispose();
});

test('the shipped models carry a committee whose members vote on every region', async (t) => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  const members = await sessions.kindMembers();
  if (!members) {
    t.diagnostic('this models folder has no kind committee');
    assert.equal(sessions.exportedMembers.length, 0, 'export_info lists members but none were loaded');
  } else {
    assert.ok(sessions.exportedMembers.length > 0, 'export_info.json names the member checkpoints');
    assert.deepEqual([...members.inputNames].sort(), ['after_features', 'after_image', 'before_features', 'before_image', 'context']);
  }
  await sessions.dispose();
});
