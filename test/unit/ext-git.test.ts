import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isSafeRef,
  parseForEachRef,
  parseNameStatusZ,
  parseGitUriQuery,
  repositoryRelativePath,
  defaultBranchCandidates,
  isReviewableImagePath,
  FOR_EACH_REF_FORMAT,
} from '../../src/extension/pure/gitText.js';

test('refs: ordinary names pass, options and revision syntax do not', () => {
  for (const ref of ['HEAD', 'main', 'origin/main', 'feature/new-ui', 'v1.2.0', 'HEAD~1', 'main^', 'HEAD~12', 'a1b2c3d4']) {
    assert.equal(isSafeRef(ref), true, ref);
  }
  for (const ref of [
    '',
    '-c',
    '--output=/tmp/x',
    'main..evil',
    'HEAD@{1}',
    'a b',
    'x;rm -rf',
    'x:y',
    '.hidden',
    'a/.b',
    'branch.lock',
    'end/',
    'a//b',
    '$(id)',
    'HEAD~1~2',
    'x'.repeat(300),
  ]) {
    assert.equal(isSafeRef(ref), false, ref);
  }
});

test('for-each-ref output: branches, remotes and tags, origin/HEAD skipped', () => {
  assert.ok(FOR_EACH_REF_FORMAT.includes('%1f'));
  const output = [
    'refs/heads/main\x1fabc1234\x1fInitial commit',
    'refs/heads/feature/x\x1fdef5678\x1fChange the button',
    'refs/remotes/origin/HEAD\x1fabc1234\x1f',
    'refs/remotes/origin/main\x1fabc1234\x1fInitial commit',
    'refs/tags/v1.0\x1f0000111\x1fRelease',
    'refs/notes/commits\x1f1111111\x1fnotes',
    '',
  ].join('\n');
  assert.deepEqual(
    parseForEachRef(output).map((r) => `${r.kind}:${r.name}:${r.commit}`),
    ['branch:main:abc1234', 'branch:feature/x:def5678', 'remote:origin/main:abc1234', 'tag:v1.0:0000111'],
  );
});

test('name-status -z: plain, renamed and odd paths', () => {
  const output = 'M\0shots/home page.png\0R087\0old/a.png\0new/a\nb.png\0A\0added.png\0D\0gone.png\0';
  assert.deepEqual(parseNameStatusZ(output), [
    { status: 'modified', path: 'shots/home page.png', oldPath: 'shots/home page.png' },
    { status: 'renamed', path: 'new/a\nb.png', oldPath: 'old/a.png' },
    { status: 'added', path: 'added.png', oldPath: 'added.png' },
    { status: 'deleted', path: 'gone.png', oldPath: 'gone.png' },
  ]);
  assert.deepEqual(parseNameStatusZ(''), []);
  assert.throws(() => parseNameStatusZ('X\0a.png\0'), /unexpected git status/);
  assert.throws(() => parseNameStatusZ('R100\0only-old.png'), /truncated/);
});

test('git: URI query, relative paths, default branch candidates, image filter', () => {
  assert.deepEqual(parseGitUriQuery('{"path":"/repo/a.png","ref":"HEAD"}'), { path: '/repo/a.png', ref: 'HEAD' });
  assert.equal(parseGitUriQuery('not json'), undefined);
  assert.equal(parseGitUriQuery('{"path":1,"ref":"HEAD"}'), undefined);
  assert.equal(repositoryRelativePath('/repo', '/repo/shots/a.png'), 'shots/a.png');
  assert.equal(repositoryRelativePath('/repo/', '/repo/a.png'), 'a.png');
  assert.throws(() => repositoryRelativePath('/repo', '/repository/a.png'), /not inside the repository/);
  assert.deepEqual(defaultBranchCandidates('refs/remotes/origin/trunk\n'), [
    'origin/trunk',
    'origin/main',
    'origin/master',
    'main',
    'master',
  ]);
  assert.deepEqual(defaultBranchCandidates(undefined), ['origin/main', 'origin/master', 'main', 'master']);
  assert.equal(isReviewableImagePath('a/B.PNG'), true);
  assert.equal(isReviewableImagePath('a/b.jpg'), false);
});
