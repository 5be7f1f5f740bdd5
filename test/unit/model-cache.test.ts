// The optimised-model cache (src/core/model-cache.ts) on a real model: written once, loaded from the
// cache after, the same outputs either way; a damaged cached file is made again; a folder that cannot
// be written leaves the model loading as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ort from 'onnxruntime-node';
import { cachedModelName, createCpuSession, defaultModelCacheDir, type CacheOutcome } from '../../src/core/model-cache.js';
import { cpuSessionOptions } from '../../src/core/session-options.js';
import { SessionManager } from '../../src/core/session.js';
import { MODELS_DIR } from './runtime-fixtures.js';

const MODEL = path.join(MODELS_DIR, 'tokenizer_encoder.onnx');

async function outputsOf(session: ort.InferenceSession): Promise<number[][]> {
  const input = new Float32Array(2 * 3 * 96 * 96).map((_, i) => ((i * 7919) % 255) / 255);
  const out = await session.run({ [session.inputNames[0]]: new ort.Tensor('float32', input, [2, 3, 96, 96]) });
  // (the codes are int64)
  return session.outputNames.map((n) => Array.from(out[n].data as ArrayLike<number | bigint>, (v) => Number(v)));
}

test('defaultModelCacheDir: $PROCAP_CACHE_DIR, off, else the platform cache folder', () => {
  assert.equal(defaultModelCacheDir({ PROCAP_CACHE_DIR: '/tmp/x' }, 'linux'), path.resolve('/tmp/x'));
  assert.equal(defaultModelCacheDir({ PROCAP_CACHE_DIR: 'off' }, 'linux'), undefined);
  assert.equal(defaultModelCacheDir({ PROCAP_CACHE_DIR: '' }, 'linux'), undefined);
  assert.equal(defaultModelCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux'), path.join('/c', 'procap-review', 'models'));
  assert.equal(defaultModelCacheDir({}, 'linux'), path.join(os.homedir(), '.cache', 'procap-review', 'models'));
  assert.equal(defaultModelCacheDir({}, 'darwin'), path.join(os.homedir(), 'Library', 'Caches', 'procap-review', 'models'));
  assert.equal(defaultModelCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32'), path.join('C:\\L', 'procap-review', 'models'));
});

test('createCpuSession: written on first load, loaded from the cache after, the same outputs; damaged, made again', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-model-cache-'));
  try {
    const source = { model: fs.readFileSync(MODEL), name: 'tokenizer_encoder.onnx', id: 'test-id-1' };
    const outcomes: CacheOutcome[] = [];
    const plain = await createCpuSession(source, cpuSessionOptions(1), undefined, (o) => outcomes.push(o));
    const first = await createCpuSession(source, cpuSessionOptions(1), dir, (o) => outcomes.push(o));
    const cached = path.join(dir, cachedModelName(source.name, source.id));
    assert.ok(fs.existsSync(cached), 'the optimised model is in the cache');
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith('.part')),
      [],
      'no partial file left',
    );
    const second = await createCpuSession(source, cpuSessionOptions(1), dir, (o) => outcomes.push(o));
    assert.deepEqual(outcomes, ['off', 'written', 'hit']);
    const [a, b, c] = [await outputsOf(plain), await outputsOf(first), await outputsOf(second)];
    assert.deepEqual(b, a);
    assert.deepEqual(c, a);
    // a partial file a stopped process left long ago goes on the next write; a recent one (another
    // process writing now) stays
    const stale = path.join(dir, '.1-old.part');
    const recent = path.join(dir, '.2-new.part');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(recent, 'x');
    fs.utimesSync(stale, new Date(Date.now() - 3600_000), new Date(Date.now() - 3600_000));
    await (await createCpuSession({ ...source, id: 'test-id-3' }, cpuSessionOptions(1), dir)).release();
    assert.equal(fs.existsSync(stale), false);
    assert.equal(fs.existsSync(recent), true);
    fs.rmSync(recent);
    // another model content (or onnxruntime, or CPU) is another file
    assert.notEqual(cachedModelName(source.name, 'test-id-2'), path.basename(cached));
    // a damaged cached file is removed and written again
    fs.writeFileSync(cached, 'not a model');
    const again: CacheOutcome[] = [];
    const remade = await createCpuSession(source, cpuSessionOptions(1), dir, (o) => again.push(o));
    assert.deepEqual(again, ['written']);
    assert.deepEqual(await outputsOf(remade), a);
    await Promise.all([plain, first, second, remade].map((s) => s.release()));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('createCpuSession: a cache folder that cannot be made loads the model as before', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-model-cache-'));
  try {
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, 'x');
    const outcomes: CacheOutcome[] = [];
    const session = await createCpuSession(
      { model: MODEL, name: 'tokenizer_encoder.onnx', id: 'x' },
      cpuSessionOptions(1),
      path.join(blocker, 'models'),
      (o) => outcomes.push(o),
    );
    assert.deepEqual(outcomes, ['unwritable']);
    assert.equal((await outputsOf(session)).length, session.outputNames.length);
    await session.release();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('SessionManager: cacheDir false caches nothing; a folder given gets every model it loads', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-model-cache-'));
  try {
    const off = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu', cacheDir: false });
    assert.equal(off.cacheDir, undefined);
    await off.dispose();
    const sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu', cacheDir: dir, threads: 1 });
    await sessions.get('kind_prior');
    await sessions.get('decoder_step');
    assert.deepEqual(
      fs
        .readdirSync(dir)
        .map((f) => f.replace(/-[0-9a-f]{24}\.onnx$/, ''))
        .sort(),
      ['decoder_step', 'kind_prior'],
    );
    await sessions.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
