// The npm package of the command line: `npm pack` of this checkout, installed with `npm install -g`
// into a fresh prefix in a clean folder, gives a `procap` that describes the bundled example with
// the packaged models. Its dependencies come from npm's cache or the registry (skipped, saying why,
// only when neither can be reached).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { REPO_ROOT, tempDir } from '../unit/runtime-fixtures.js';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

test('npm pack + npm install -g of the tarball gives a working procap describe on the bundled example', (t) => {
  const work = tempDir('package');
  // the package as npm would publish it (prepack builds first)
  const pack = run(NPM, ['pack', '--json', '--pack-destination', work], REPO_ROOT);
  assert.equal(pack.code, 0, pack.stderr);
  const [packed] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = packed.files.map((f) => f.path);
  for (const wanted of [
    'bin/procap.js',
    'dist/src/cli/main.js',
    'dist/src/cli/pool.js',
    'dist/src/cli/args.js',
    'dist/src/cli/ci-report.js',
    'dist/src/core/pipeline.js',
    'dist/src/core/worker.js',
    'dist/models/contract.json',
    'models/contract.json',
    'models/export_info.json',
    'models/vocab.json',
    'models/decoder_step.onnx',
    'examples/before.png',
    'examples/after.png',
  ])
    assert.ok(files.includes(wanted), `${wanted} is missing from the package`);
  const dev = files.filter(
    (f) => /^(src|test|training|webview|scripts|docs|node_modules|dist\/test|models\/golden)\//.test(f) || f.endsWith('.map'),
  );
  assert.deepEqual(dev, [], 'development files in the package');
  // the lab (src/lab: eval, bench, fuzz, crops, ...; src/data: the data engine) is not part of procap
  const lab = files.filter((f) => /^dist\/src\/(lab|data)\//.test(f));
  assert.deepEqual(lab, [], 'lab files in the package');
  assert.deepEqual(
    files.filter((f) => f.startsWith('dist/src/') && !/^dist\/src\/(cli|core)\//.test(f)),
    [],
    'the package ships only the runtime under dist/src (cli, core)',
  );
  const tarball = path.join(work, path.basename(packed.filename));

  // installed into an empty prefix from a clean folder: no checkout, no shared node_modules on the way
  const clean = path.join(work, 'clean');
  const prefix = path.join(work, 'prefix');
  fs.mkdirSync(clean);
  const env = { ...process.env, npm_config_onnxruntime_node_install: 'skip', npm_config_update_notifier: 'false' };
  const install = run(NPM, ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund'], clean, env);
  if (install.code !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT/.test(install.stderr)) {
    t.skip(`the dependencies are neither in npm's cache nor reachable on the registry: ${install.stderr.trim().split('\n')[0]}`);
    return;
  }
  assert.equal(install.code, 0, install.stderr);
  const procap = path.join(prefix, process.platform === 'win32' ? 'procap.cmd' : path.join('bin', 'procap'));
  assert.ok(fs.existsSync(procap), `${procap} was not installed`);
  const pkgDir = path.join(prefix, 'lib', 'node_modules', 'procap-review');
  assert.ok(
    fs.existsSync(path.join(pkgDir, 'node_modules', 'onnxruntime-node')) ||
      fs.existsSync(path.join(prefix, 'lib', 'node_modules', 'onnxruntime-node')),
  );

  const version = run(procap, ['--version'], clean, env);
  assert.equal(version.code, 0, version.stderr);
  assert.equal(version.stdout.trim(), JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version);
  const help = run(procap, ['--help'], clean, env);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /procap describe BEFORE\.png AFTER\.png/);

  // the bundled example: the heading turns red, the "Get started" button moves 39 px down
  const example = path.join(pkgDir, 'examples');
  const html = path.join(clean, 'out', 'example.html');
  const r = run(
    procap,
    ['describe', path.join(example, 'before.png'), path.join(example, 'after.png'), '--provider', 'cpu', '--json', '--html', html],
    clean,
    env,
  );
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.changed, true);
  assert.match(report.summary, /'Get started' button moved 39 px down/);
  assert.match(report.summary, /red/);
  assert.deepEqual(report.regions.map((x: { kind: string }) => x.kind).sort(), ['color', 'move']);
  assert.ok(fs.statSync(html).size > 10_000, 'the HTML report was written');

  // the same example through batch with --fail-on-change: exit 1, and the models are the package's own
  const before = path.join(clean, 'a'),
    after = path.join(clean, 'b');
  fs.mkdirSync(before);
  fs.mkdirSync(after);
  fs.copyFileSync(path.join(example, 'before.png'), path.join(before, 'settings.png'));
  fs.copyFileSync(path.join(example, 'after.png'), path.join(after, 'settings.png'));
  const batch = run(procap, ['batch', before, after, '--provider', 'cpu', '--no-procedure', '--fail-on-change'], clean, env);
  assert.equal(batch.code, 1, batch.stderr);
  assert.match(batch.stdout, /1 changed/);
});
