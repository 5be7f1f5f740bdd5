import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { baselineTargetProblem, undoNeedsConfirmation } from '../../src/extension/pure/baselinePolicy.js';
import {
  acceptBaselineFile,
  BASELINE_BACKUPS_KEPT,
  backupFileName,
  backupsOf,
  BaselineFileError,
  resolveBaselineTarget,
  restoreBaselineFile,
  writeFileAtomic,
} from '../../src/extension/pure/baselineFiles.js';

const roots = ['/ws/app'];
const file = (fsPath: string) => ({ scheme: 'file', fsPath });

test('a baseline may be written only as a PNG inside a workspace folder of a trusted workspace', () => {
  assert.equal(baselineTargetProblem(file('/ws/app/tests/home.spec.ts-snapshots/home-chromium-linux.png'), roots, true), undefined);
  assert.equal(baselineTargetProblem(file('/ws/app/__image_snapshots__/card.PNG'), roots, true), undefined);
  const refused: Array<[{ scheme: string; fsPath: string }, boolean, RegExp]> = [
    [file('/ws/app/a.png'), false, /untrusted/],
    [{ scheme: 'git', fsPath: '/ws/app/a.png' }, true, /not a file on disk/],
    [file('/ws/app/src/index.ts'), true, /not a PNG/],
    [file('/ws/app.png'), true, /outside the workspace/],
    [file('/ws/application/a.png'), true, /outside the workspace/],
    [file('/home/user/.config/a.png'), true, /outside the workspace/],
    [file('/ws/app/../secrets/a.png'), true, /not a normalised path/],
    [file('/ws/app'), true, /not a PNG/],
  ];
  for (const [target, trusted, reason] of refused) {
    assert.match(baselineTargetProblem(target, roots, trusted) ?? 'ALLOWED', reason, target.fsPath);
  }
  assert.match(baselineTargetProblem(file('/ws/app/a.png'), [], true) ?? 'ALLOWED', /outside the workspace/);
});

test('backup names are flat file names in accept order, keyed by the baseline path', () => {
  const name = backupFileName(new Date('2026-11-29T18:55:11.490Z'), 'bb8bcd71edec0123456789', '/ws/app/x/weird name.png');
  assert.match(name, /^2026-11-29T18-55-11-490Z-bb8bcd71edec-[0-9a-f]{8}-weird_name\.png$/);
  assert.ok(!name.includes('/'));
  const other = backupFileName(new Date('2026-11-29T18:55:11.490Z'), 'bb8bcd71edec0123456789', '/ws/app/y/weird name.png');
  assert.notEqual(name, other, 'two baselines of the same name in two folders have their own backups');
});

/** A workspace folder and, beside it, a folder outside it, in a fresh temp dir. */
function workspace(): { root: string; ws: string; outside: string; backups: string; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-baseline-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(path.join(ws, '__image_snapshots__'), { recursive: true });
  fs.mkdirSync(outside);
  return {
    root,
    ws,
    outside,
    backups: path.join(root, 'storage', 'baseline-backups'),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

test('a baseline that is a link out of the workspace is refused, and its target is left alone', () => {
  const t = workspace();
  const secret = path.join(t.outside, 'precious.png');
  fs.writeFileSync(secret, 'outside bytes');
  const link = path.join(t.ws, '__image_snapshots__', 'card.png');
  fs.symlinkSync(secret, link);
  // the textual check passes it: the path is inside the workspace
  assert.equal(baselineTargetProblem({ scheme: 'file', fsPath: link }, [t.ws], true), undefined);
  assert.throws(
    () => resolveBaselineTarget(link, [t.ws]),
    (e: Error) =>
      e instanceof BaselineFileError &&
      e.message === `${link} leads to ${secret}, outside the workspace folders (a link): ProCap Review writes only inside the workspace`,
  );
  assert.throws(
    () => acceptBaselineFile({ target: link, workspaceRoots: [t.ws], newImage: Buffer.from('new'), backupDir: t.backups }),
    /outside the workspace folders \(a link\)/,
  );
  assert.equal(fs.readFileSync(secret, 'utf8'), 'outside bytes');
  assert.ok(fs.lstatSync(link).isSymbolicLink());
  // a linked folder on the way out counts the same
  const linkedDir = path.join(t.ws, 'shots');
  fs.symlinkSync(t.outside, linkedDir);
  assert.throws(() => resolveBaselineTarget(path.join(linkedDir, 'precious.png'), [t.ws]), /outside the workspace folders/);
  // a dangling link, a folder named .png, a link to a non-PNG inside
  fs.symlinkSync(path.join(t.ws, 'nothing.png'), path.join(t.ws, 'dangling.png'));
  assert.throws(() => resolveBaselineTarget(path.join(t.ws, 'dangling.png'), [t.ws]), /a link to a file that does not exist/);
  fs.mkdirSync(path.join(t.ws, 'dir.png'));
  assert.throws(() => resolveBaselineTarget(path.join(t.ws, 'dir.png'), [t.ws]), /is not a regular file/);
  fs.writeFileSync(path.join(t.ws, 'notes.txt'), 'x');
  fs.symlinkSync(path.join(t.ws, 'notes.txt'), path.join(t.ws, 'notes.png'));
  assert.throws(() => resolveBaselineTarget(path.join(t.ws, 'notes.png'), [t.ws]), /which is not a PNG file/);
  t.cleanup();
});

test('the workspace folder itself is compared by its real path; a link inside the workspace writes the file it names', () => {
  const t = workspace();
  const wsLink = path.join(t.root, 'ws-link');
  fs.symlinkSync(t.ws, wsLink);
  const real = path.join(t.ws, '__image_snapshots__', 'home.png');
  fs.writeFileSync(real, 'old');
  // the workspace opened through a link, the baseline named through the real path: inside
  assert.equal(resolveBaselineTarget(real, [wsLink]), fs.realpathSync(real));
  const link = path.join(t.ws, 'home-link.png');
  fs.symlinkSync(real, link);
  const done = acceptBaselineFile({ target: link, workspaceRoots: [t.ws], newImage: Buffer.from('new'), backupDir: t.backups });
  assert.equal(done.file, fs.realpathSync(real));
  assert.equal(fs.readFileSync(real, 'utf8'), 'new');
  assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link stays a link');
  assert.equal(fs.readFileSync(done.backup, 'utf8'), 'old');
  t.cleanup();
});

test('the baseline is written atomically: a temporary file beside it, renamed; permissions kept, nothing left behind', () => {
  const t = workspace();
  const file = path.join(t.ws, '__image_snapshots__', 'x.png');
  fs.writeFileSync(file, 'old');
  fs.chmodSync(file, 0o640);
  const inode = fs.statSync(file).ino;
  writeFileAtomic(file, Buffer.from('new bytes'));
  assert.equal(fs.readFileSync(file, 'utf8'), 'new bytes');
  assert.notEqual(fs.statSync(file).ino, inode, 'a new file renamed over the old one, not the old one rewritten');
  assert.equal(fs.statSync(file).mode & 0o777, 0o640);
  assert.deepEqual(fs.readdirSync(path.dirname(file)), ['x.png']);
  // a link at the target is replaced, not followed
  const secret = path.join(t.outside, 'secret.png');
  fs.writeFileSync(secret, 'secret');
  const link = path.join(t.ws, 'y.png');
  fs.symlinkSync(secret, link);
  writeFileAtomic(link, Buffer.from('mine'));
  assert.equal(fs.readFileSync(secret, 'utf8'), 'secret');
  assert.ok(fs.lstatSync(link).isFile());
  // a write that cannot happen (read-only folder, unless root) or a folder in the way leaves no temporary file
  const blocked = path.join(t.ws, 'blocked');
  fs.mkdirSync(path.join(blocked, 'z.png'), { recursive: true });
  assert.throws(
    () => writeFileAtomic(path.join(blocked, 'z.png'), Buffer.from('x')),
    (e: Error) => e instanceof BaselineFileError && /^cannot write /.test(e.message),
  );
  assert.deepEqual(fs.readdirSync(blocked), ['z.png']);
  t.cleanup();
});

test(`backups: the last ${BASELINE_BACKUPS_KEPT} per baseline file are kept, older ones pruned, other files' untouched; undo restores`, () => {
  const t = workspace();
  const a = path.join(t.ws, '__image_snapshots__', 'a.png');
  const b = path.join(t.ws, 'other', 'a.png'); // same name, another folder
  fs.mkdirSync(path.dirname(b));
  fs.writeFileSync(a, 'a0');
  fs.writeFileSync(b, 'b0');
  const start = Date.parse('2026-11-29T10:00:00.000Z');
  const acceptA = (i: number) =>
    acceptBaselineFile({
      target: a,
      workspaceRoots: [t.ws],
      newImage: Buffer.from(`a${i}`),
      backupDir: t.backups,
      at: new Date(start + i * 1000),
    });
  acceptBaselineFile({ target: b, workspaceRoots: [t.ws], newImage: Buffer.from('b1'), backupDir: t.backups, at: new Date(start) });
  const pruned: string[] = [];
  for (let i = 1; i <= BASELINE_BACKUPS_KEPT + 3; i++) pruned.push(...acceptA(i).pruned);
  assert.equal(fs.readFileSync(a, 'utf8'), `a${BASELINE_BACKUPS_KEPT + 3}`);
  const kept = backupsOf(t.backups, fs.realpathSync(a));
  assert.equal(kept.length, BASELINE_BACKUPS_KEPT);
  // the newest backups hold the baselines a3..a7 (a0..a2 were pruned, oldest first)
  assert.deepEqual(
    kept.map((f) => fs.readFileSync(f, 'utf8')),
    Array.from({ length: BASELINE_BACKUPS_KEPT }, (_, i) => `a${i + 3}`),
  );
  assert.equal(pruned.length, 3);
  for (const f of pruned) assert.ok(!fs.existsSync(f));
  assert.equal(backupsOf(t.backups, fs.realpathSync(b)).length, 1, "the other file's backup is kept");
  assert.equal(fs.readdirSync(t.backups).length, BASELINE_BACKUPS_KEPT + 1);
  // undo: the newest backup back in place; a pruned one says why it cannot
  restoreBaselineFile(a, [t.ws], kept.at(-1)!);
  assert.equal(fs.readFileSync(a, 'utf8'), `a${BASELINE_BACKUPS_KEPT + 2}`);
  assert.throws(
    () => restoreBaselineFile(a, [t.ws], pruned[0]),
    new RegExp(`the backup of .* is gone \\(ENOENT\\); only the last ${BASELINE_BACKUPS_KEPT}`),
  );
  // undo of a deleted baseline writes it again; one through a link out of the workspace is refused
  fs.rmSync(a);
  restoreBaselineFile(a, [t.ws], kept[0]);
  assert.equal(fs.readFileSync(a, 'utf8'), 'a3');
  fs.rmSync(a);
  fs.symlinkSync(path.join(t.outside, 'x.png'), a);
  assert.throws(() => restoreBaselineFile(a, [t.ws], kept[0]), /a link to a file that does not exist/);
  assert.ok(!fs.existsSync(path.join(t.outside, 'x.png')));
  t.cleanup();
});

test('undo asks first unless the baseline still holds what the accept wrote', () => {
  assert.equal(undoNeedsConfirmation('abc', 'abc'), false);
  assert.equal(undoNeedsConfirmation('def', 'abc'), true);
  assert.equal(undoNeedsConfirmation(undefined, 'abc'), true);
});
