import { test } from 'node:test';
import assert from 'node:assert/strict';
import { baselineTargetProblem, backupFileName, undoNeedsConfirmation } from '../../src/extension/pure/baselinePolicy.js';

const roots = ['/work/app'];
const file = (fsPath: string) => ({ scheme: 'file', fsPath });

test('a baseline may be written only as a PNG inside a workspace folder of a trusted workspace', () => {
  assert.equal(baselineTargetProblem(file('/work/app/tests/home.spec.ts-snapshots/home-chromium-linux.png'), roots, true), undefined);
  assert.equal(baselineTargetProblem(file('/work/app/__image_snapshots__/card.PNG'), roots, true), undefined);
  const refused: Array<[{ scheme: string; fsPath: string }, boolean, RegExp]> = [
    [file('/work/app/a.png'), false, /untrusted/],
    [{ scheme: 'git', fsPath: '/work/app/a.png' }, true, /not a file on disk/],
    [file('/work/app/src/index.ts'), true, /not a PNG/],
    [file('/work/app.png'), true, /outside the workspace/],
    [file('/work/application/a.png'), true, /outside the workspace/],
    [file('/home/user/.config/a.png'), true, /outside the workspace/],
    [file('/work/app/../secrets/a.png'), true, /not a normalised path/],
    [file('/work/app'), true, /not a PNG/],
  ];
  for (const [target, trusted, reason] of refused) {
    assert.match(baselineTargetProblem(target, roots, trusted) ?? 'ALLOWED', reason, target.fsPath);
  }
  assert.match(baselineTargetProblem(file('/work/app/a.png'), [], true) ?? 'ALLOWED', /outside the workspace/);
});

test('backup names are flat file names in accept order', () => {
  const name = backupFileName(new Date('2026-11-29T18:55:11.490Z'), 'bb8bcd71edec0123456789', '/work/app/x/../weird name.png');
  assert.equal(name, '2026-11-29T18-55-11-490Z-bb8bcd71edec-weird_name.png');
  assert.ok(!name.includes('/'));
});

test('undo asks first unless the baseline still holds what the accept wrote', () => {
  assert.equal(undoNeedsConfirmation('abc', 'abc'), false);
  assert.equal(undoNeedsConfirmation('def', 'abc'), true);
  assert.equal(undoNeedsConfirmation(undefined, 'abc'), true);
});
