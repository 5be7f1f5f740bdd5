import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ModelLoadError, MODEL_NAMES, SessionManager } from '../../src/core/session.js';
import { MODELS_DIR, tempDir } from './runtime-fixtures.js';

/** A copy of the models folder that a test may damage. */
function copyModels(): string {
  const dir = tempDir('models');
  for (const f of fs.readdirSync(MODELS_DIR)) {
    const from = path.join(MODELS_DIR, f);
    if (fs.statSync(from).isFile()) fs.copyFileSync(from, path.join(dir, f));
  }
  return dir;
}

test('models load lazily, once, and are reused', async () => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu', threads: 1 });
  try {
    assert.equal(sessions.providerReason, 'no model loaded yet');
    const a = await sessions.get('tokenizer_encoder');
    const b = await sessions.get('tokenizer_encoder');
    assert.equal(a, b, 'the same session object is returned');
    assert.equal(sessions.provider, 'cpu');
    assert.equal(sessions.providerReason, 'cpu requested');
    await sessions.loadAll();
    assert.ok(sessions.loadMs > 0);
  } finally {
    await sessions.dispose();
  }
});

test('provider auto and cuda fall back to cpu when CUDA cannot start, and say why', async () => {
  for (const provider of ['auto', 'cuda'] as const) {
    const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider });
    try {
      await sessions.get('tokenizer_decoder');
      if (sessions.provider === 'cuda') {
        assert.match(sessions.providerReason, /cuda loaded/);
      } else {
        assert.match(sessions.providerReason, /cuda requested but failed to load .*fell back to cpu/);
      }
    } finally {
      await sessions.dispose();
    }
  }
});

test('a missing model file gives a clear error naming the file and how to restore it', async () => {
  const dir = copyModels();
  fs.rmSync(path.join(dir, 'decoder_step.onnx'));
  const sessions = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(sessions.get('decoder_step'), (err: Error) => {
    assert.ok(err instanceof ModelLoadError);
    assert.ok(err.message.includes(path.join(dir, 'decoder_step.onnx')), err.message);
    assert.match(err.message, /missing/);
    assert.match(err.message, /git checkout -- models\/|training\.export/);
    return true;
  });
  // the other models still load
  await sessions.get('interpolator');
  await sessions.dispose();
});

test('a truncated model file gives a clear error naming the file', async () => {
  const dir = copyModels();
  const file = path.join(dir, 'procedure_encoder.onnx');
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 3)));
  const sessions = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(sessions.get('procedure_encoder'), (err: Error) => {
    assert.ok(err instanceof ModelLoadError);
    assert.ok(err.message.startsWith(file), err.message);
    assert.match(err.message, /truncated or corrupt/);
    return true;
  });
  await sessions.dispose();
});

test('a model file with flipped bytes (it would still load and run) is refused by its SHA-256, naming the file', async () => {
  const dir = copyModels();
  const file = path.join(dir, 'decoder_step.onnx');
  const bytes = fs.readFileSync(file);
  // 2,000 bytes flipped inside the weights: onnxruntime loads such a file and decodes nonsense
  for (let i = 0; i < 2000; i++) bytes[bytes.length - 1 - 7 * i] ^= 0xff;
  fs.writeFileSync(file, bytes);
  const sessions = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(sessions.get('decoder_step'), (err: Error) => {
    assert.ok(err instanceof ModelLoadError);
    assert.ok(err.message.startsWith(file), err.message);
    assert.match(err.message, /SHA-256 differs from export_info\.json/);
    assert.match(err.message, /git checkout -- models\//, 'with the restore hint');
    return true;
  });
  // the intact files still load
  await sessions.get('interpolator');
  await sessions.dispose();
  // every shipped file is recorded, so the check covers them all
  const info = JSON.parse(fs.readFileSync(path.join(MODELS_DIR, 'export_info.json'), 'utf8'));
  for (const name of Object.keys(info.onnx_bytes)) assert.match(info.onnx_sha256?.[name] ?? '', /^[0-9a-f]{64}$/, name);
});

test('a model of another contract version (wrong inputs) is refused, naming the file', async () => {
  const dir = copyModels();
  // the tokenizer decoder where the tokenizer encoder should be: names and shapes do not match (its
  // export recorded it as it is: the contract check, not the integrity check, refuses it)
  fs.copyFileSync(path.join(dir, 'tokenizer_decoder.onnx'), path.join(dir, 'tokenizer_encoder.onnx'));
  const info = JSON.parse(fs.readFileSync(path.join(dir, 'export_info.json'), 'utf8'));
  info.onnx_bytes['tokenizer_encoder.onnx'] = info.onnx_bytes['tokenizer_decoder.onnx'];
  info.onnx_sha256['tokenizer_encoder.onnx'] = info.onnx_sha256['tokenizer_decoder.onnx'];
  fs.writeFileSync(path.join(dir, 'export_info.json'), JSON.stringify(info));
  const sessions = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(sessions.get('tokenizer_encoder'), (err: Error) => {
    assert.ok(err instanceof ModelLoadError);
    assert.ok(err.message.includes('tokenizer_encoder.onnx'));
    assert.match(err.message, /contract version/);
    return true;
  });
  await sessions.dispose();
});

test('a contract that changes a fixed dimension makes the shipped models fail the check', async () => {
  const dir = copyModels();
  const contract = JSON.parse(fs.readFileSync(path.join(dir, 'contract.json'), 'utf8'));
  contract.models.procedure_encoder.outputs.kind_logits = ['B', 15];
  fs.writeFileSync(path.join(dir, 'contract.json'), JSON.stringify(contract));
  const sessions = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(
    sessions.get('procedure_encoder'),
    /procedure_encoder\.onnx: output "kind_logits" dimension 1 is 14, contract says 15/,
  );
  await sessions.dispose();
});

test('models exported for another contract version are refused before loading', () => {
  const dir = copyModels();
  const info = path.join(dir, 'export_info.json');
  const previous = fs.existsSync(info) ? JSON.parse(fs.readFileSync(info, 'utf8')) : {};
  fs.writeFileSync(info, JSON.stringify({ ...previous, contract_version: 999 }));
  assert.throws(
    () => new SessionManager({ modelsDir: dir }),
    (err: Error) => err instanceof ModelLoadError && err.message.includes(info) && /contract version 999/.test(err.message),
  );
});

test('missing vocabulary, missing folder and bad options are clear errors', async () => {
  const dir = copyModels();
  fs.rmSync(path.join(dir, 'vocab.json'));
  assert.throws(
    () => new SessionManager({ modelsDir: dir }),
    (err: Error) => err instanceof ModelLoadError && err.message.includes('vocab.json'),
  );
  assert.throws(() => new SessionManager({ modelsDir: path.join(dir, 'nope') }), /models folder does not exist/);
  assert.throws(() => new SessionManager({ modelsDir: MODELS_DIR, threads: 0 }), /threads/);
  assert.throws(() => new SessionManager({ modelsDir: MODELS_DIR, provider: 'tpu' as never }), /unknown provider/);
});

test('dispose releases the sessions; later use is refused', async () => {
  const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  await sessions.loadAll();
  await sessions.dispose();
  await sessions.dispose();
  await assert.rejects(sessions.get(MODEL_NAMES[0]), /disposed/);
});

test('the kind prior is a contract model: a missing file, a missing entry or other features are clear errors', async () => {
  assert.ok(MODEL_NAMES.includes('kind_prior'));
  const dir = copyModels();
  fs.rmSync(path.join(dir, 'kind_prior.onnx'));
  const sessions = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(sessions.get('kind_prior'), (err: Error) => {
    assert.ok(err instanceof ModelLoadError);
    assert.ok(err.message.includes(path.join(dir, 'kind_prior.onnx')), err.message);
    assert.match(err.message, /the model file is missing/);
    return true;
  });
  await assert.rejects(sessions.loadAll(), /kind_prior\.onnx: the model file is missing/);
  await sessions.dispose();

  const contractFile = path.join(dir, 'contract.json');
  const contract = JSON.parse(fs.readFileSync(contractFile, 'utf8'));
  const { kind_prior: entry, ...others } = contract.models;
  fs.writeFileSync(contractFile, JSON.stringify({ ...contract, models: others }));
  assert.throws(
    () => new SessionManager({ modelsDir: dir }),
    (err: Error) =>
      err instanceof ModelLoadError && err.message.startsWith(contractFile) && /no complete entry for model kind_prior/.test(err.message),
  );

  // the features in another order: the prior would read the wrong numbers, so it is refused
  fs.copyFileSync(path.join(MODELS_DIR, 'kind_prior.onnx'), path.join(dir, 'kind_prior.onnx'));
  const swapped = [...contract.context_features];
  [swapped[0], swapped[1]] = [swapped[1], swapped[0]];
  fs.writeFileSync(contractFile, JSON.stringify({ ...contract, models: { ...others, kind_prior: entry }, context_features: swapped }));
  const reordered = new SessionManager({ modelsDir: dir, provider: 'cpu' });
  await assert.rejects(
    reordered.get('kind_prior'),
    (err: Error) => err instanceof ModelLoadError && err.message.startsWith(contractFile) && /context_features/.test(err.message),
  );
  await reordered.dispose();
});
