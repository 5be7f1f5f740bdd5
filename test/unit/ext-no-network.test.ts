import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The extension must make no network request. Everything the extension bundles comes from
// src/extension, webview/src and src/core: none of it may import a network module or call a
// network API, and git (the only program it runs) is only asked for local subcommands.
const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const relative = join(dir, name);
    if (statSync(join(root, relative)).isDirectory()) out.push(...sources(relative));
    else if (name.endsWith('.ts')) out.push(relative);
  }
  return out;
}

const bundled = [...sources('src/extension'), ...sources('webview/src'), ...sources('src/core')];

test('no bundled source imports a network module or calls a network API', () => {
  assert.ok(bundled.length > 20, `found only ${bundled.length} sources`);
  const networkImport = /(from\s+|require\(\s*|import\(\s*)['"](node:)?(http|https|http2|net|tls|dgram|dns|undici)['"]/;
  const networkCall = /\b(fetch\s*\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|RTCPeerConnection)/;
  const offenders: string[] = [];
  for (const file of bundled) {
    const code = readFileSync(join(root, file), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    if (networkImport.test(code)) offenders.push(`${file}: imports ${networkImport.exec(code)![0]}`);
    if (networkCall.test(code)) offenders.push(`${file}: calls ${networkCall.exec(code)![0]}`);
  }
  assert.deepEqual(offenders, []);
});

test('the extension runs git only for local, read-only subcommands', () => {
  const allowed = new Set(['show', 'diff', 'ls-files', 'status', 'for-each-ref', 'merge-base', 'symbolic-ref', 'rev-parse']);
  const used: string[] = [];
  for (const file of sources('src/extension')) {
    const code = readFileSync(join(root, file), 'utf8');
    for (const match of code.matchAll(/runGit\([^,]+,\s*\[\s*'([^']+)'/g)) used.push(match[1]);
    // only git.ts may start a process, and only with execFile (no shell)
    const childProcess = /import\s*\{([^}]*)\}\s*from\s*'(node:)?child_process'/.exec(code);
    if (file.endsWith('git.ts')) assert.equal(childProcess?.[1].trim(), 'execFile', file);
    else assert.equal(childProcess, null, `${file} imports child_process`);
    assert.doesNotMatch(
      code,
      /require\(\s*['"](node:)?child_process['"]\s*\)|import\s+\*\s+as\s+\w+\s+from\s+'(node:)?child_process'/,
      file,
    );
  }
  assert.ok(used.length >= 6, `found ${used.length} git calls`);
  assert.deepEqual(
    used.filter((subcommand) => !allowed.has(subcommand)),
    [],
  );
  const gitSource = readFileSync(join(root, 'src/extension/git.ts'), 'utf8');
  assert.equal((gitSource.match(/\bexecFile\(/g) ?? []).length, 1, 'one execFile call, in runGit');
});
