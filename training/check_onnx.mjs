// Loads every exported ONNX file with onnxruntime-node (the runtime the extension uses), feeds the golden
// inputs written by training/export.py and compares with the PyTorch outputs stored next to them.
// Usage: node training/check_onnx.mjs [MODELS_DIR]   (exit 1 on any mismatch, naming file and tensor)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ort from 'onnxruntime-node';

// node:util's parser directly, not src/cli/args.ts: checking an export needs no TypeScript build
let modelsArg;
try {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  if (positionals.length > 1) throw new Error('give at most one models folder');
  modelsArg = positionals[0] ?? 'models';
} catch (e) {
  console.error(`check_onnx: ${e.message}\nusage: node training/check_onnx.mjs [MODELS_DIR]`);
  process.exit(2);
}
const modelsDir = path.resolve(modelsArg);
const goldenDir = path.join(modelsDir, 'golden');
const contract = JSON.parse(fs.readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'models', 'contract.json'), 'utf8'));

function toTensor(spec) {
  if (spec.dtype === 'int64') return new ort.Tensor('int64', BigInt64Array.from(spec.data.map((v) => BigInt(v))), spec.dims);
  return new ort.Tensor('float32', Float32Array.from(spec.data), spec.dims);
}

let failures = 0;
const sessions = new Map();
for (const file of fs.readdirSync(goldenDir).filter((f) => f.endsWith('.json')).sort()) {
  const golden = JSON.parse(fs.readFileSync(path.join(goldenDir, file), 'utf8'));
  const modelPath = path.join(modelsDir, golden.model);
  if (!sessions.has(modelPath)) sessions.set(modelPath, await ort.InferenceSession.create(modelPath, { executionProviders: ['cpu'] }));
  const session = sessions.get(modelPath);
  const feeds = Object.fromEntries(Object.entries(golden.inputs).map(([k, v]) => [k, toTensor(v)]));
  const result = await session.run(feeds);
  for (const [name, want] of Object.entries(golden.outputs)) {
    const got = result[name];
    if (!got) { console.log(`FAIL ${file}: output ${name} missing`); failures++; continue; }
    if (JSON.stringify(Array.from(got.dims)) !== JSON.stringify(want.dims)) {
      console.log(`FAIL ${file}: ${name} dims ${got.dims} != ${want.dims}`); failures++; continue;
    }
    let maxAbs = 0; let bad = 0;
    for (let i = 0; i < want.data.length; i++) {
      const g = Number(got.data[i]); const w = want.data[i];
      const diff = Math.abs(g - w);
      maxAbs = Math.max(maxAbs, diff);
      const tol = want.dtype === 'int64' ? 0 : golden.tolerance.abs + golden.tolerance.rel * Math.abs(w);
      if (diff > tol) bad++;
    }
    // int64 codes are argmins: a near tie may flip in a different float order; allow at most 1 in 200
    const allowed = want.dtype === 'int64' ? Math.floor(want.data.length / 200) : 0;
    const ok = bad <= allowed;
    if (!ok) failures++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${file.padEnd(26)} ${name.padEnd(18)} dims=${JSON.stringify(want.dims)} max|diff|=${maxAbs.toExponential(2)} mismatches=${bad}`);
  }
}
// the shapes the contract promises, on a fresh batch of 2 (dynamic batch axis)
const enc = sessions.get(path.join(modelsDir, contract.models.procedure_encoder.file));
if (enc) {
  const z = new ort.Tensor('float32', new Float32Array(2 * contract.n_I * contract.feat_dim), [2, contract.n_I, contract.feat_dim]);
  const size = contract.image.size;
  const im = new ort.Tensor('float32', new Float32Array(2 * 3 * size * size).fill(0.5), [2, 3, size, size]);
  const nContext = contract.context_features.length;
  const context = new ort.Tensor('float32', new Float32Array(2 * nContext).fill(1), [2, nContext]);
  const r = await enc.run({ before_features: z, after_features: z, before_image: im, after_image: im, context });
  const want = [[2, 144, contract.d_model], [2, contract.kinds.length], [2, contract.k * contract.n_I, contract.codebook_size]];
  const got = [r.memory.dims, r.kind_logits.dims, r.query_code_logits.dims].map((d) => Array.from(d));
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} procedure_encoder batch-2 shapes ${JSON.stringify(got)}`);
}
console.log(failures ? `${failures} mismatches` : 'all ONNX files match their golden outputs');
process.exit(failures ? 1 : 0);
