// Parity with the training side: every golden file in models/golden (inputs and the outputs
// PyTorch computed) is run through the shipped ONNX model with onnxruntime-node and compared
// within the golden's tolerance (|a - b| <= abs + rel*|b|; int64 exactly). The sampling maths is
// also checked against training/sample.py when python3 with torch is present.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ort, SessionManager, MODEL_NAMES, OPTIONAL_MODEL_NAMES, type ModelName } from '../../src/core/session.js';
import { selectKeyframes } from '../../src/core/procap/sample.js';
import { MODELS_DIR, REPO_ROOT } from './runtime-fixtures.js';

interface GoldenTensor {
  dtype: 'float32' | 'int64';
  dims: number[];
  data: number[];
}
interface Golden {
  model: string;
  tolerance: { abs: number; rel: number };
  inputs: Record<string, GoldenTensor>;
  outputs: Record<string, GoldenTensor>;
}

const goldenDir = path.join(MODELS_DIR, 'golden');
const goldenFiles = fs.existsSync(goldenDir)
  ? fs
      .readdirSync(goldenDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

function toTensor(t: GoldenTensor): ort.Tensor {
  if (t.dtype === 'int64') return new ort.Tensor('int64', BigInt64Array.from(t.data.map((x) => BigInt(x))), t.dims);
  return new ort.Tensor('float32', Float32Array.from(t.data), t.dims);
}

test('golden tensors exist for every model', () => {
  const covered = new Set(goldenFiles.map((f) => (JSON.parse(fs.readFileSync(path.join(goldenDir, f), 'utf8')) as Golden).model));
  const sessions = new SessionManager({ modelsDir: MODELS_DIR });
  for (const name of MODEL_NAMES) assert.ok(covered.has(sessions.contract.models[name].file), `a golden file for ${name}`);
  // an optional model (the kind committee) has one whenever its file is shipped
  for (const name of OPTIONAL_MODEL_NAMES) {
    const spec = sessions.contract.models[name];
    if (spec && fs.existsSync(path.join(MODELS_DIR, spec.file))) assert.ok(covered.has(spec.file), `a golden file for ${name}`);
  }
});

for (const file of goldenFiles) {
  test(`parity with PyTorch: ${file}`, async () => {
    const golden = JSON.parse(fs.readFileSync(path.join(goldenDir, file), 'utf8')) as Golden;
    const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
    try {
      const name = [...MODEL_NAMES, ...OPTIONAL_MODEL_NAMES].find((n) => sessions.contract.models[n]?.file === golden.model) as ModelName;
      assert.ok(name, `${golden.model} is a model of the contract`);
      const session = await sessions.get(name);
      const feeds: Record<string, ort.Tensor> = {};
      for (const [k, v] of Object.entries(golden.inputs)) feeds[k] = toTensor(v);
      const out = await session.run(feeds);
      for (const [k, expected] of Object.entries(golden.outputs)) {
        const got = out[k];
        assert.ok(got, `output ${k}`);
        assert.deepEqual(got.dims, expected.dims, `${k} dims`);
        if (expected.dtype === 'int64') {
          assert.deepEqual([...(got.data as BigInt64Array)].map(Number), expected.data, `${k} (int64) matches exactly`);
          continue;
        }
        const data = got.data as Float32Array;
        let worst = 0,
          worstAt = -1;
        for (let i = 0; i < expected.data.length; i++) {
          const excess = Math.abs(data[i] - expected.data[i]) - (golden.tolerance.abs + golden.tolerance.rel * Math.abs(expected.data[i]));
          if (excess > worst) {
            worst = excess;
            worstAt = i;
          }
        }
        assert.equal(worstAt, -1, `${k}[${worstAt}] = ${data[worstAt]} vs ${expected.data[worstAt]}`);
      }
    } finally {
      await sessions.dispose();
    }
  });
}

test('keyframe sampling equals training/sample.py (confidence weights and top-k)', (t) => {
  const python = '/usr/bin/python3';
  if (!fs.existsSync(path.join(REPO_ROOT, 'training', 'sample.py')) || !fs.existsSync(python)) {
    t.skip('training/sample.py or python3 not present');
    return;
  }
  // 9 frames x 36 patches x 64 features, deterministic
  const frames = Array.from({ length: 9 }, (_, f) =>
    Array.from({ length: 36 * 64 }, (_, i) => Math.sin(i * 0.013 * (f + 1)) + (f / 8) * Math.cos(i * 0.7)),
  );
  const script = `
import json, sys, torch
sys.path.insert(0, ${JSON.stringify(REPO_ROOT)})
from training.sample import confidence_weights, top_keyframes
f = torch.tensor(json.loads(sys.stdin.read()), dtype=torch.float32).view(1, 9, 36, 64)
w = confidence_weights(f[:, 0], f[:, 1:8], f[:, 8])
print(json.dumps({'w': w[0].tolist(), 'top': top_keyframes(w, 2)[0].tolist()}))`;
  const run = spawnSync(python, ['-c', script], { input: JSON.stringify(frames), encoding: 'utf8' });
  if (run.status !== 0) {
    t.skip(`python sampling not runnable: ${run.stderr.split('\n').slice(-2).join(' ')}`);
    return;
  }
  const py = JSON.parse(run.stdout) as { w: number[]; top: number[] };
  const sel = selectKeyframes(
    frames.map((f) => ({ data: Float32Array.from(f), offset: 0 })),
    36,
    64,
    2,
  );
  sel.scores.forEach((w, i) => assert.ok(Math.abs(w - py.w[i]) < 1e-5, `w[${i}] ${w} vs ${py.w[i]}`));
  assert.deepEqual(
    sel.keyframes,
    py.top.map((j) => j + 1),
  );
});
