// The command line's argument parsing (src/cli/main.ts parseArgs, on node:util's parser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  checkFramesDir,
  checkWritable,
  FRAMES_MARKER,
  OutputError,
  parseArgs,
  UsageError,
  writeFileAtomic,
  writeFrames,
} from '../../src/cli/main.js';
import type { ChangeReport } from '../../src/core/report.js';

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

/** A report whose regions `ids` each carry 9 frames and 2 imagined frames (1-pixel PNGs). */
function reportWithFrames(ids: number[]): ChangeReport {
  const png = { pngBase64: Buffer.from('89504e470d0a1a0a', 'hex').toString('base64') };
  const procedure = { frames: Array.from({ length: 9 }, () => png), imagined: [png, png], keyframes: [3, 6], scores: [] };
  return { regions: ids.map((id) => ({ id, procedure })) } as unknown as ChangeReport;
}

test('--frames into a used folder: the new frames replace the old ones whole, never mixed; other folders are refused untouched', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-frames-'));
  const dir = path.join(root, 'frames');
  writeFrames(reportWithFrames([1, 2, 3]), dir);
  assert.equal(fs.readdirSync(dir).filter((n) => n.startsWith('region3-')).length, 11);
  assert.ok(fs.existsSync(path.join(dir, FRAMES_MARKER)));
  // a second run with fewer regions: no region2/region3 frames of the first run are left
  checkFramesDir(dir);
  const written = writeFrames(reportWithFrames([1]), dir);
  const names = fs.readdirSync(dir).sort();
  assert.deepEqual(
    names.filter((n) => n !== FRAMES_MARKER),
    [...written.map((f) => path.basename(f))].sort(),
  );
  assert.ok(
    names.every((n) => n === FRAMES_MARKER || n.startsWith('region1-')),
    names.join(' '),
  );
  assert.ok(names.includes('region1-frame3-key.png') && names.includes('region1-imagined2.png'));
  assert.deepEqual(fs.readdirSync(root), ['frames'], 'no staging or old folder left beside it');
  // a folder of frame files only (no marker) is ours too; an empty one as well
  const bare = path.join(root, 'bare');
  fs.mkdirSync(bare);
  checkFramesDir(bare);
  fs.writeFileSync(path.join(bare, 'region4-frame0.png'), 'x');
  checkFramesDir(bare);
  // a folder with other files, a file, a link: refused before any work, nothing deleted
  const mine = path.join(root, 'mine');
  fs.mkdirSync(mine);
  fs.writeFileSync(path.join(mine, 'notes.txt'), 'keep');
  fs.writeFileSync(path.join(mine, 'region1-frame0.png'), 'old');
  assert.throws(
    () => checkFramesDir(mine),
    (e: Error) => e instanceof OutputError && /holds files that are not procap frames \(notes\.txt\)/.test(e.message),
  );
  assert.throws(() => checkFramesDir(path.join(mine, 'notes.txt')), /it is a file, not a folder/);
  fs.symlinkSync(dir, path.join(root, 'link'));
  assert.throws(() => checkFramesDir(path.join(root, 'link')), /it is a link/);
  assert.equal(fs.readFileSync(path.join(mine, 'notes.txt'), 'utf8'), 'keep');
  // a folder made meanwhile that is not ours is not replaced at the end either
  const late = path.join(root, 'late');
  fs.mkdirSync(late);
  fs.writeFileSync(path.join(late, 'thesis.pdf'), 'keep');
  assert.throws(() => writeFrames(reportWithFrames([1]), late), OutputError);
  assert.deepEqual(fs.readdirSync(late), ['thesis.pdf']);
  assert.ok(!fs.readdirSync(root).some((n) => n.endsWith('.tmp') || n.endsWith('.old')), fs.readdirSync(root).join(' '));
  fs.rmSync(root, { recursive: true, force: true });
});

test('merge and describe refuse what they cannot do with exit 2, before writing anything', async () => {
  const { main } = await import('../../src/cli/main.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-merge-args-'));
  const run = async (argv: string[]) => {
    const lines: string[] = [];
    const code = await main(
      argv,
      (s) => lines.push(s),
      (s) => lines.push(s),
    );
    return { code, text: lines.join('\n') };
  };
  const shard = (index: number, names: string[]) => {
    const file = path.join(dir, `s${index}.json`);
    const pairs = names.map((name) => ({ name, status: 'compared', changed: false, summary: 'no visible change' }));
    fs.writeFileSync(file, JSON.stringify({ shard: { index, count: 2 }, summary: { seconds: 1 }, pairs }));
    return file;
  };
  const out = path.join(dir, 'merged.json');
  const missing = await run(['merge', shard(1, ['a.png']), '--json-file', out]);
  assert.equal(missing.code, 2);
  assert.match(missing.text, /shard 2\/2 missing/);
  assert.ok(!fs.existsSync(out));
  const notJson = path.join(dir, 'x.json');
  fs.writeFileSync(notJson, '{oops');
  assert.match((await run(['merge', notJson])).text, /x\.json is not JSON/);
  assert.equal((await run(['merge'])).code, 2);
  const ok = await run(['merge', shard(2, ['b.png']), shard(1, ['a.png']), '--json-file', out, '--fail-on-change']);
  assert.equal(ok.code, 0, ok.text);
  assert.deepEqual(
    JSON.parse(fs.readFileSync(out, 'utf8')).pairs.map((p: { name: string }) => p.name),
    ['a.png', 'b.png'],
  );
  const describe = await run(['describe', 'a.png', 'b.png', '--junit', path.join(dir, 'j.xml')]);
  assert.equal(describe.code, 2);
  assert.match(describe.text, /--junit is a report of batch and merge/);
  const version = await run(['--version']);
  assert.equal(version.code, 0);
  assert.match(version.text, /^\d+\.\d+\.\d+/);
});

test('batch --jobs takes a whole number of workers from 1: 0, -1, 1.5 and abc are usage errors (exit 2), before any work', async () => {
  const { main } = await import('../../src/cli/main.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-jobs-args-'));
  for (const side of ['before', 'after']) fs.mkdirSync(path.join(dir, side));
  const out = path.join(dir, 'report.json');
  fs.writeFileSync(out, '{"the previous run": true}');
  for (const argv of [['--jobs', '0'], ['--jobs=-1'], ['--jobs', '-1'], ['--jobs', 'abc'], ['--jobs', '1.5'], ['--jobs', ''], ['--jobs']]) {
    const lines: string[] = [];
    const code = await main(
      ['batch', path.join(dir, 'before'), path.join(dir, 'after'), '--json-file', out, ...argv],
      (s) => lines.push(s),
      (s) => lines.push(s),
    );
    assert.equal(code, 2, `${argv.join(' ')}: ${lines.join('\n')}`);
    assert.match(lines.join('\n'), /--jobs/, argv.join(' '));
    assert.ok(fs.existsSync(out), `${argv.join(' ')}: the previous report is left alone`);
  }
  const describe: string[] = [];
  assert.equal(await main(['describe', 'a.png', 'b.png', '--jobs', '2'], undefined, (s) => describe.push(s)), 2);
  assert.match(describe.join('\n'), /--jobs is an option of batch/);
  fs.rmSync(dir, { recursive: true, force: true });
});
