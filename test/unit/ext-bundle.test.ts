// The extension host must not load onnxruntime-node: it would fail to activate where the native
// module is missing and cost memory in every window. Only the engine worker loads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { build } from 'esbuild';
import { REPO_ROOT } from './runtime-fixtures.js';

test('the extension host bundle does not require onnxruntime-node (the engine worker does) and holds picomatch', async () => {
  const bundle = async (entry: string) =>
    build({
      entryPoints: [path.join(REPO_ROOT, entry)],
      absWorkingDir: REPO_ROOT,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode', 'onnxruntime-node'],
      logLevel: 'silent',
      logOverride: { 'empty-import-meta': 'silent' },
    });
  const host = await bundle('src/extension/extension.ts');
  const inputs = Object.keys(host.metafile.inputs);
  assert.deepEqual(
    inputs.filter((i) => /src\/core\/(session|pipeline)\.ts$/.test(i)),
    [],
    'the host bundles no model-running code',
  );
  assert.doesNotMatch(host.outputFiles[0].text, /require\("onnxruntime-node"\)/);
  // the glob matcher (procap.config.json) is inside the bundle: the VSIX ships no node_modules/picomatch
  assert.ok(
    inputs.some((i) => /node_modules\/picomatch\//.test(i)),
    'picomatch is bundled into the extension host',
  );
  assert.doesNotMatch(host.outputFiles[0].text, /require\("picomatch"\)/);
  // the check can fail: the worker's bundle does require it
  const worker = await bundle('src/core/worker.ts');
  assert.match(worker.outputFiles[0].text, /require\("onnxruntime-node"\)/);
});
