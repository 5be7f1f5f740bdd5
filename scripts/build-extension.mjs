// Bundles the VS Code extension with esbuild:
//   src/extension/extension.ts -> dist/extension.cjs   (extension host, CommonJS, Node)
//   src/core/worker.ts         -> dist/core-worker.cjs (the engine's worker thread; Reviewer finds it by workerPath)
//   src/core/decode-worker.ts  -> dist/decode-worker.cjs (decodes a large pair's second image, and a cold start's two; found beside core-worker.cjs)
//   webview/src/main.ts        -> dist/webview.js      (the review panel page, browser IIFE)
// 'vscode' is provided by VS Code; onnxruntime-node is a native module shipped in node_modules.
// Type-checking is separate (esbuild does not type-check): pass --check to run tsc on both
// tsconfigs first; `npm run build:extension` does.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// node:util's parser directly, not src/cli/args.ts: this runs before (and without) the tsc build
let flags;
try {
  ({ values: flags } = parseArgs({ options: { production: { type: 'boolean' }, check: { type: 'boolean' } }, strict: true }));
} catch (e) {
  console.error(`build-extension: ${e.message}\nusage: node scripts/build-extension.mjs [--check] [--production]`);
  process.exit(2);
}
const production = flags.production ?? false;

if (flags.check) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const project of ['src/extension/tsconfig.json', 'webview/tsconfig.json']) {
    execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  }
}

const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
  // import.meta.url is undefined in CommonJS: the core falls back to __dirname, and the extension passes workerPath
  logOverride: { 'empty-import-meta': 'silent' },
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.cjs',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode', 'onnxruntime-node'],
  }),
  build({
    ...common,
    entryPoints: ['src/core/worker.ts'],
    outfile: 'dist/core-worker.cjs',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['onnxruntime-node'],
  }),
  build({
    ...common,
    entryPoints: ['src/core/decode-worker.ts'],
    outfile: 'dist/decode-worker.cjs',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
  }),
  build({
    ...common,
    entryPoints: ['webview/src/main.ts'],
    outfile: 'dist/webview.js',
    sourcemap: false, // inlined into the page: a sourceMappingURL would point nowhere
    format: 'iife',
    platform: 'browser',
    target: 'chrome114',
  }),
]);
// The panel puts dist/webview.js inline in a <script> element (src/extension/pure/webviewHtml.ts):
// fail here, not at run time, if the bundle holds a sequence that would end that element early.
const { readFileSync } = await import('node:fs');
const webviewBundle = readFileSync(path.join(root, 'dist/webview.js'), 'utf8');
const unsafe = /<\/?script/i.exec(webviewBundle);
if (unsafe) throw new Error(`dist/webview.js contains "${unsafe[0]}" at offset ${unsafe.index}: it cannot be inlined in the panel page`);
console.log('built dist/extension.cjs, dist/core-worker.cjs, dist/decode-worker.cjs, dist/webview.js');
