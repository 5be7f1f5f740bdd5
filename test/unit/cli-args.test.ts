// The command line's argument parsing (src/cli/main.ts parseArgs, on node:util's parser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkWritable, OutputError, parseArgs, UsageError, writeFileAtomic } from '../../src/cli/main.js';

test('an option that takes a value never takes the next option as it; -- ends the options', () => {
  assert.throws(
    () => parseArgs(['a.png', 'b.png', '--html', '--json'], 'describe'),
    (e: Error) => e instanceof UsageError && /--html needs a value \(got the option --json\)/.test(e.message),
  );
  assert.throws(() => parseArgs(['a.png', 'b.png', '--beam'], 'describe'), /--beam needs a value$/);
  assert.throws(() => parseArgs(['--bogus'], 'describe'), /unknown option --bogus/);
  assert.throws(() => parseArgs(['--json=1'], 'describe'), /describe prints its JSON report with --json/);
  assert.throws(() => parseArgs(['--fail-on-change=yes'], 'batch'), /--fail-on-change takes no value/);
  const dashes = parseArgs(['--json', '--', '--odd-name.png', 'b.png'], 'describe');
  assert.deepEqual(dashes.positional, ['--odd-name.png', 'b.png']);
  assert.equal(dashes.flags.get('--json'), true);
  const batch = parseArgs(['before', 'after', '--json=out/report.json', '--html=g.html', '--shard', '2/4'], 'batch');
  assert.deepEqual(batch.positional, ['before', 'after']);
  assert.equal(batch.flags.get('--json-file'), 'out/report.json');
  assert.equal(batch.flags.get('--html'), 'g.html');
  assert.equal(batch.flags.get('--shard'), '2/4');
  assert.equal(batch.flags.has('--json'), false);
});

test('report files are written whole through a temporary file; a link in the way is replaced, its target kept', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-atomic-'));
  const target = path.join(dir, 'precious.txt');
  fs.writeFileSync(target, 'keep me');
  const report = path.join(dir, 'out', 'report.html');
  fs.mkdirSync(path.dirname(report));
  fs.symlinkSync(target, report);
  writeFileAtomic(report, '<html>new</html>');
  assert.equal(fs.readFileSync(target, 'utf8'), 'keep me', 'the link was not followed');
  assert.ok(fs.lstatSync(report).isFile());
  assert.equal(fs.readFileSync(report, 'utf8'), '<html>new</html>');
  assert.deepEqual(fs.readdirSync(path.dirname(report)), ['report.html'], 'no temporary file left');
  // a write that fails (a folder where the file should go) leaves no temporary file either
  const blocked = path.join(dir, 'blocked');
  fs.mkdirSync(path.join(blocked, 'report.json'), { recursive: true });
  assert.throws(() => writeFileAtomic(path.join(blocked, 'report.json'), '{}'), OutputError);
  assert.deepEqual(fs.readdirSync(blocked), ['report.json']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('outputs are checked before the work: a file where a folder should be, or a folder in the way, is an OutputError naming the path', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-writable-'));
  const file = path.join(dir, 'a-file');
  fs.writeFileSync(file, 'x');
  assert.throws(
    () => checkWritable(path.join(file, 'report.json')),
    (e: Error) => e instanceof OutputError && e.message.startsWith(`cannot write ${path.join(file, 'report.json')}`),
  );
  assert.throws(() => checkWritable(file, true), OutputError);
  fs.mkdirSync(path.join(dir, 'report.html'));
  assert.throws(() => checkWritable(path.join(dir, 'report.html')), /a folder is in the way/);
  checkWritable(path.join(dir, 'new', 'deeper', 'report.json'));
  assert.ok(fs.existsSync(path.join(dir, 'new', 'deeper')), 'the folder is made');
  assert.deepEqual(fs.readdirSync(path.join(dir, 'new', 'deeper')), [], 'and the probe removed');
  fs.rmSync(dir, { recursive: true, force: true });
});
