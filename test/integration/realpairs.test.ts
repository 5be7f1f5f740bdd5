// The CLI over every real screenshot pair in ../shared/realpairs (used for testing only, never
// copied into the repository): no crash, a caption for each pair, identical images unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, MODELS_DIR, REALPAIRS, tempDir } from '../unit/runtime-fixtures.js';

const available = fs.existsSync(REALPAIRS) && fs.readdirSync(REALPAIRS).some((d) => fs.existsSync(path.join(REALPAIRS, d, 'before.png')));

test(
  'CLI batch over every real pair: no crash, a caption for each, identical pairs unchanged',
  { skip: available ? false : `${REALPAIRS} not present` },
  (t) => {
    const out = tempDir('realpairs');
    const r = spawnSync(process.execPath, [CLI, 'batch', '--pairs', REALPAIRS, '--out', out, '--models', MODELS_DIR, '--provider', 'cpu'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr.slice(-3000)}`);
    const result = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    const folders = fs
      .readdirSync(REALPAIRS)
      .filter((d) => fs.existsSync(path.join(REALPAIRS, d, 'before.png')))
      .sort();
    assert.deepEqual(
      result.pairs.map((p: { name: string }) => p.name),
      folders,
    );
    for (const p of result.pairs) {
      assert.equal(p.status, 'compared', `${p.name}: ${p.error ?? ''}`);
      assert.ok(typeof p.summary === 'string' && p.summary.trim().length > 0, `${p.name} has a caption`);
      for (const region of p.report.regions) assert.ok(region.caption.trim().length > 0, `${p.name} region ${region.id} has a caption`);
      t.diagnostic(`${p.name}: ${p.changed ? 'changed' : 'unchanged'}: ${p.summary}`);
      const before = fs.readFileSync(path.join(REALPAIRS, p.name, 'before.png'));
      const after = fs.readFileSync(path.join(REALPAIRS, p.name, 'after.png'));
      if (before.equals(after)) {
        assert.equal(p.changed, false, `${p.name}: byte-identical screenshots are unchanged`);
        assert.equal(p.summary, 'no visible change');
      }
    }
    assert.ok(fs.readFileSync(path.join(out, 'report.html'), 'utf8').includes('<svg'), 'HTML gallery written');
  },
);

test('every real screenshot compared with itself is "no visible change"', { skip: available ? false : `${REALPAIRS} not present` }, () => {
  const root = tempDir('realsame');
  const before = path.join(root, 'before'),
    after = path.join(root, 'after');
  fs.mkdirSync(before);
  fs.mkdirSync(after);
  for (const d of fs.readdirSync(REALPAIRS)) {
    const file = path.join(REALPAIRS, d, 'after.png');
    if (!fs.existsSync(file)) continue;
    fs.copyFileSync(file, path.join(before, `${d}.png`));
    fs.copyFileSync(file, path.join(after, `${d}.png`));
  }
  const r = spawnSync(process.execPath, [CLI, 'batch', before, after, '--json', '--fail-on-change', '--models', MODELS_DIR], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, r.stderr.slice(-2000));
  const result = JSON.parse(r.stdout);
  assert.equal(result.summary.unchanged, result.pairs.length);
  fs.rmSync(root, { recursive: true, force: true });
});
