import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { pathsFilter, parseShard } from '../../src/cli/main.js';
import { decodePng } from '../../src/core/image.js';
import { CLI, MODELS_DIR, REPO_ROOT, drawPng, screenPair, tempDir } from '../unit/runtime-fixtures.js';

function cli(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const M = ['--models', MODELS_DIR];

function writePair(dir: string): { before: string; after: string } {
  const pair = screenPair();
  fs.mkdirSync(dir, { recursive: true });
  const before = path.join(dir, 'before.png'),
    after = path.join(dir, 'after.png');
  fs.writeFileSync(before, pair.before);
  fs.writeFileSync(after, pair.after);
  return { before, after };
}

test('shard parsing and --paths globs (picomatch: **, braces, classes)', () => {
  assert.deepEqual(parseShard('2/4'), { index: 2, count: 4 });
  assert.throws(() => parseShard('0/4'), /1 <= i <= n/);
  assert.throws(() => parseShard('5/4'), /1 <= i <= n/);
  assert.throws(() => parseShard('two'), /i\/n/);
  const g = pathsFilter('screens/**/*.png');
  assert.ok(g('screens/a.png') && g('screens/x/y/b.png') && !g('other/a.png') && !g('screens/a.jpg'));
  // whole paths: a glob without "/" is not matched against the base name here
  assert.ok(pathsFilter('*.png')('a.png') && !pathsFilter('*.png')('d/a.png'));
  const set = pathsFilter('shots/{home,cart}-[0-9].png');
  assert.ok(set('shots/home-1.png') && set('shots/cart-9.png') && !set('shots/home-x.png') && !set('shots/login-1.png'));
  assert.throws(() => pathsFilter(' '), /--paths needs a glob/);
});

test('describe --json prints the ChangeReport; --html and --frames write files', () => {
  const dir = tempDir('cli');
  const { before, after } = writePair(dir);
  const html = path.join(dir, 'out', 'report.html');
  const frames = path.join(dir, 'frames');
  const r = cli(['describe', before, after, '--json', '--html', html, '--frames', frames, '--provider', 'cpu', ...M]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(typeof report.summary, 'string');
  assert.equal(report.provider, 'cpu');
  assert.ok(report.regions.length >= 2);
  for (const region of report.regions) {
    assert.equal(typeof region.kind, 'string');
    assert.equal(typeof region.caption, 'string');
  }
  assert.equal(report.regions[0].procedure.keyframes.length, 2);
  const page = fs.readFileSync(html, 'utf8');
  assert.match(page, /<svg viewBox="0 0 480 320"/);
  assert.match(page, /data:image\/png;base64,/);
  assert.doesNotMatch(page, /(src|href)="(https?:|\/\/)/, 'no external resources');
  const written = fs.readdirSync(frames);
  assert.ok(written.includes('region1-frame0.png') && written.includes('region1-frame8.png') && written.includes('region1-imagined1.png'));
  assert.ok(
    written.includes('region1-full0.png') && written.includes('region1-full8.png') && written.includes('region1-full-imagined1.png'),
  );
  assert.equal(written.filter((f) => f.startsWith('region1-frame') && f.endsWith('-key.png')).length, 2);
  assert.equal(written.filter((f) => f.startsWith('region1-full') && f.endsWith('-key.png')).length, 2);
});

/** The chunk types of a PNG file and, for an APNG, its frame count (acTL) and canvas width. */
function pngChunks(bytes: Buffer): { types: string[]; frames?: number; width: number } {
  assert.equal(bytes.toString('latin1', 1, 4), 'PNG', 'a PNG signature');
  const types: string[] = [];
  let frames: number | undefined;
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'acTL') frames = bytes.readUInt32BE(at + 8);
    types.push(type);
    at += 12 + length;
  }
  return { types, frames, width: bytes.readUInt32BE(16) };
}

test('describe --procedure FILE writes the first changed region as an animated PNG; {region} one per region; --html embeds them', () => {
  const dir = tempDir('cli-apng');
  const { before, after } = writePair(dir);
  const file = path.join(dir, 'out', 'procedure.png');
  const html = path.join(dir, 'report.html');
  const r = cli(['describe', before, after, '--json', '--procedure', file, '--html', html, '--provider', 'cpu', ...M]);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.regions[0].procedure.keyframes.length, 2, '--procedure asks for the frames');
  const bytes = fs.readFileSync(file);
  const apng = pngChunks(bytes);
  assert.equal(apng.frames, 9, 'before, 7 interpolated, after');
  assert.equal(apng.types.filter((t) => t === 'fcTL').length, 9);
  assert.equal(apng.types.filter((t) => t === 'fdAT').length, 8);
  assert.deepEqual(apng.types.slice(0, 4), ['IHDR', 'acTL', 'fcTL', 'IDAT']);
  const still = decodePng(bytes, file);
  // the full-resolution frames, over the region's box (the JSON keeps the box, not the pictures)
  const full = report.regions[0].procedure.full;
  assert.deepEqual(full.frames, [], 'no base64 pictures in the JSON');
  assert.deepEqual([still.width, still.height], [full.box[2] - full.box[0], full.box[3] - full.box[1]], 'the frames are the region box');
  // the page shows each region's animation beside its filmstrip
  const page = fs.readFileSync(html, 'utf8');
  const embedded = [...page.matchAll(/<figure class="animation"><img[^>]* src="data:image\/png;base64,([^"]+)"/g)];
  assert.equal(embedded.length, report.regions.filter((x: { procedure?: unknown }) => x.procedure).length);
  assert.equal(pngChunks(Buffer.from(embedded[0][1], 'base64')).frames, 9);

  // {region}: one file per region; a file of an earlier run that this one does not write is removed
  const template = path.join(dir, 'anim-{region}.png');
  fs.writeFileSync(path.join(dir, 'anim-region99.png'), 'stale');
  fs.writeFileSync(path.join(dir, 'anim-notes.png'), 'mine');
  const each = cli(['describe', before, after, '--procedure', template, '--provider', 'cpu', ...M]);
  assert.equal(each.code, 0, each.stderr);
  const names = fs.readdirSync(dir).filter((n) => n.startsWith('anim-'));
  const expected = report.regions.filter((x: { procedure?: unknown }) => x.procedure).map((x: { id: number }) => `anim-region${x.id}.png`);
  assert.deepEqual(names.sort(), [...expected, 'anim-notes.png'].sort());
  for (const name of expected) assert.equal(pngChunks(fs.readFileSync(path.join(dir, name))).frames, 9, name);
  assert.match(each.stdout, /procedure: .*anim-region1\.png \(region 1\)/);

  // nothing changed: no animation, and the text says so
  const same = cli(['describe', before, before, '--procedure', file, ...M]);
  assert.equal(same.code, 0, same.stderr);
  assert.ok(!fs.existsSync(file), "the earlier run's animation is removed");
  assert.match(same.stdout, /procedure: none written/);

  for (const args of [
    ['describe', before, after, '--procedure', file, '--no-procedure'],
    ['describe', before, after, '--procedure', path.join(dir, '{region}', 'a.png')],
    ['batch', dir, dir, '--procedure', file],
  ]) {
    const bad = cli([...args, ...M]);
    assert.equal(bad.code, 2, `${args.join(' ')}: ${bad.stderr}`);
    assert.match(bad.stderr, /--procedure/);
  }
});

test('describe --json alone computes no procedure frames; --no-procedure drops them from --html', () => {
  const dir = tempDir('cli-lazy');
  const { before, after } = writePair(dir);
  const plain = cli(['describe', before, after, '--json', '--provider', 'cpu', ...M]);
  assert.equal(plain.code, 0, plain.stderr);
  const report = JSON.parse(plain.stdout);
  assert.ok(report.regions.length >= 2);
  assert.ok(
    report.regions.every((r: { procedure?: unknown }) => r.procedure === undefined),
    'a JSON-only describe imagined frames nobody shows',
  );
  assert.equal(report.timings.interpolateMs, 0);
  const html = path.join(dir, 'report.html');
  const skipped = cli(['describe', before, after, '--json', '--html', html, '--no-procedure', '--provider', 'cpu', ...M]);
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.ok(JSON.parse(skipped.stdout).regions.every((r: { procedure?: unknown }) => r.procedure === undefined));
  assert.doesNotMatch(fs.readFileSync(html, 'utf8'), /class="procedure"/);
});

test('describe without --json prints a readable summary; --fail-on-change exits 1 on a change', () => {
  const dir = tempDir('cli');
  const { before, after } = writePair(dir);
  const r = cli(['describe', before, after, '--no-procedure', '--fail-on-change', ...M]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^summary: /);
  const same = cli(['describe', before, before, '--no-procedure', '--fail-on-change', ...M]);
  assert.equal(same.code, 0);
  assert.match(same.stdout, /summary: no visible change/);
});

test('exit codes: usage 2, bad image 3 (naming the file), broken models 4', () => {
  const dir = tempDir('cli');
  const { before, after } = writePair(dir);
  assert.equal(cli([]).code, 2);
  assert.equal(cli(['describe', before, ...M]).code, 2);
  assert.equal(cli(['describe', before, before, '--beam', 'x', ...M]).code, 2);
  assert.equal(cli(['frobnicate', ...M]).code, 2);
  const bad = path.join(dir, 'bad.png');
  fs.writeFileSync(bad, 'not a png');
  const r = cli(['describe', before, bad, ...M]);
  assert.equal(r.code, 3);
  assert.ok(r.stderr.includes(bad), r.stderr);
  const emptyModels = tempDir('nomodels');
  fs.copyFileSync(path.join(MODELS_DIR, 'contract.json'), path.join(emptyModels, 'contract.json'));
  fs.copyFileSync(path.join(MODELS_DIR, 'vocab.json'), path.join(emptyModels, 'vocab.json'));
  const m = cli(['describe', before, after, '--models', emptyModels]);
  assert.equal(m.code, 4);
  assert.match(m.stderr, /\.onnx: the model file is missing/);
});

test('batch over two folders: JSON + HTML, added/removed screenshots, shards, --fail-on-change', () => {
  const root = tempDir('batch');
  const a = path.join(root, 'a'),
    b = path.join(root, 'b');
  fs.mkdirSync(path.join(a, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(b, 'sub'), { recursive: true });
  const pair = screenPair();
  fs.writeFileSync(path.join(a, 'changed.png'), pair.before);
  fs.writeFileSync(path.join(b, 'changed.png'), pair.after);
  fs.writeFileSync(path.join(a, 'sub', 'same.png'), pair.before);
  fs.writeFileSync(path.join(b, 'sub', 'same.png'), pair.before);
  fs.writeFileSync(path.join(a, 'gone.png'), drawPng(50, 50, []));
  fs.writeFileSync(path.join(b, 'new.png'), drawPng(50, 50, []));
  const out = path.join(root, 'out');
  const r = cli(['batch', a, b, '--out', out, '--no-procedure', ...M]);
  assert.equal(r.code, 0, r.stderr);
  const result = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
  assert.deepEqual(
    result.pairs.map((p: { name: string; status: string }) => [p.name, p.status]),
    [
      ['changed.png', 'compared'],
      ['gone.png', 'removed'],
      ['new.png', 'added'],
      ['sub/same.png', 'compared'],
    ],
  );
  assert.equal(result.pairs[0].changed, true);
  assert.equal(result.pairs[3].changed, false);
  assert.equal(result.summary.changed, 1);
  assert.equal(result.summary.unchanged, 1);
  const html = fs.readFileSync(path.join(out, 'report.html'), 'utf8');
  assert.match(html, /changed\.png/);
  assert.match(html, /screenshot added/);
  assert.equal(cli(['batch', a, b, '--fail-on-change', '--no-procedure', ...M]).code, 1);
  // shards partition the pairs
  const names = [1, 2].flatMap((i) =>
    JSON.parse(cli(['batch', a, b, '--shard', `${i}/2`, '--json', '--no-procedure', ...M]).stdout).pairs.map(
      (p: { name: string }) => p.name,
    ),
  );
  assert.deepEqual(names.sort(), ['changed.png', 'gone.png', 'new.png', 'sub/same.png']);
  // a broken pair is reported, the others still run, exit code 3
  fs.writeFileSync(path.join(b, 'sub', 'same.png'), 'broken');
  const broken = cli(['batch', a, b, '--json', '--no-procedure', ...M]);
  assert.equal(broken.code, 3);
  const res = JSON.parse(broken.stdout);
  assert.equal(res.summary.errors, 1);
  assert.match(res.pairs.find((p: { name: string }) => p.name === 'sub/same.png').error, /same\.png/);
});

test('batch --pairs DIR and --git REF_A REF_B [--paths GLOB]', () => {
  const root = tempDir('git');
  writePair(path.join(root, 'pairs', 'p1'));
  const r = cli(['batch', '--pairs', path.join(root, 'pairs'), '--json', '--no-procedure', ...M]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).pairs[0].name, 'p1');

  const repo = path.join(root, 'repo');
  fs.mkdirSync(path.join(repo, 'shots'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
  git('init', '-q');
  const pair = screenPair();
  fs.writeFileSync(path.join(repo, 'shots', 'home.png'), pair.before);
  fs.writeFileSync(path.join(repo, 'other.png'), pair.before);
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  fs.writeFileSync(path.join(repo, 'shots', 'home.png'), pair.after);
  fs.writeFileSync(path.join(repo, 'other.png'), pair.after);
  git('commit', '-q', '-am', 'two');
  const g = cli(['batch', '--git', 'HEAD~1', 'HEAD', '--paths', 'shots/**', '--json', '--no-procedure', ...M], repo);
  assert.equal(g.code, 0, g.stderr);
  const res = JSON.parse(g.stdout);
  assert.deepEqual(
    res.pairs.map((p: { name: string }) => p.name),
    ['shots/home.png'],
  );
  assert.equal(res.pairs[0].changed, true);
  assert.equal(cli(['batch', '--git', 'HEAD~1', 'nope', ...M], repo).code, 2);
});

test("batch: a link to /dev/zero, a FIFO, a link out of the tree and a dangling added file are that pair's errors; the run goes on", () => {
  const root = tempDir('cli-special');
  const pairs = path.join(root, 'pairs');
  const good = writePair(path.join(pairs, 'c-good'));
  const outside = path.join(root, 'outside.png');
  fs.copyFileSync(good.before, outside);
  const special: Record<string, (file: string) => void> = {
    'a-zero': (f) => fs.symlinkSync('/dev/zero', f),
    'b-fifo': (f) => execFileSync('mkfifo', [f]),
    'd-outside': (f) => fs.symlinkSync(outside, f),
  };
  for (const [name, make] of Object.entries(special)) {
    fs.mkdirSync(path.join(pairs, name));
    make(path.join(pairs, name, 'before.png'));
    fs.copyFileSync(good.after, path.join(pairs, name, 'after.png'));
  }
  const json = path.join(root, 'report.json');
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [CLI, 'batch', '--pairs', pairs, '--json-file', json, '--no-procedure', '--provider', 'cpu', ...M],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(r.signal, null, 'no hang, no crash');
  assert.ok(Date.now() - started < 120_000);
  assert.equal(r.status, 3, r.stderr);
  const report = JSON.parse(fs.readFileSync(json, 'utf8'));
  const byName = Object.fromEntries(report.pairs.map((p: { name: string }) => [p.name, p]));
  assert.match(byName['a-zero'].error, /not a regular file \(a device\)/);
  assert.match(byName['b-fifo'].error, /not a regular file \(a FIFO\)/);
  assert.match(byName['d-outside'].error, /a link to a file outside/);
  assert.equal(byName['c-good'].status, 'compared');
  // folder mode: a FIFO is reported, not skipped (its other side is not "added"); a dangling added
  // file is an error of its own, and the run still writes its report
  const before = path.join(root, 'before'),
    after = path.join(root, 'after');
  fs.mkdirSync(before);
  fs.mkdirSync(after);
  execFileSync('mkfifo', [path.join(before, 'x.png')]);
  fs.copyFileSync(good.after, path.join(after, 'x.png'));
  fs.symlinkSync(path.join(root, 'nowhere.png'), path.join(after, 'new.png'));
  const json2 = path.join(root, 'report2.json');
  const f = spawnSync(process.execPath, [CLI, 'batch', before, after, '--json-file', json2, '--no-procedure', '--provider', 'cpu', ...M], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(f.status, 3, f.stderr);
  const folder = JSON.parse(fs.readFileSync(json2, 'utf8'));
  assert.deepEqual(
    folder.pairs.map((p: { name: string; status: string }) => [p.name, p.status]),
    [
      ['new.png', 'error'],
      ['x.png', 'error'],
    ],
  );
  assert.equal(folder.summary.added, 0);
});

test('HTML gallery: escapes captions and names, no script or external resource, strict CSP', async () => {
  const { renderGallery } = await import('../../src/core/html-report.js');
  const pair = screenPair();
  const region = {
    id: 1,
    boxBefore: [1, 2, 30, 40] as [number, number, number, number],
    boxAfter: [1, 2, 30, 40] as [number, number, number, number],
    kind: 'text' as const,
    caption: '<img src=x onerror=alert(1)> & "quoted"',
    confidence: 0.9,
    diffPixels: 12,
    noiseOnly: false,
    cropBox: [0, 0, 96, 96] as [number, number, number, number],
  };
  const report = {
    before: { width: 480, height: 320 },
    after: { width: 480, height: 320 },
    summary: region.caption,
    masked: [],
    changed: true,
    regions: [region],
    provider: 'cpu' as const,
    providerReason: 'cpu requested',
    modelVersion: 'contract v1',
    timings: {
      decodeMs: 0,
      diffMs: 0,
      regionsMs: 0,
      readMs: 0,
      interpolateMs: 0,
      encodeMs: 0,
      decodeCaptionMs: 0,
      imagineMs: 0,
      totalMs: 1,
    },
  };
  const html = renderGallery(
    [
      { name: '<script>alert(1)</script>.png', status: 'compared', report, beforePng: pair.before, afterPng: pair.after },
      { name: 'gone.png', status: 'removed' },
      { name: 'bad.png', status: 'error', error: 'bad.png: not a valid PNG' },
    ],
    { title: 'T' },
  );
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img src=x/);
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt; &amp; &quot;quoted&quot;/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"/);
  assert.doesNotMatch(html, /(src|href)="(?!data:|#)/, 'only data: images and in-page links');
  assert.match(html, /<rect x="1" y="2" width="29" height="38"/);
  assert.match(html, /screenshot removed/);
  assert.match(html, /error: bad\.png: not a valid PNG/);
});

test('eval labels each model sample as the training crops are', async () => {
  const { kindSamples } = await import('../../src/lab/eval.js');
  const region = (box: [number, number, number, number], kind: string, noiseOnly = false) => ({
    id: 1,
    boxBefore: box,
    boxAfter: box,
    kind,
    caption: kind,
    confidence: 1,
    diffPixels: 10,
    noiseOnly,
    cropBox: box,
  });
  const base = {
    before: { width: 400, height: 300 },
    after: { width: 400, height: 300 },
    summary: '',
    changed: true,
    provider: 'cpu',
    providerReason: '',
    modelVersion: '',
    timings: {} as never,
  };
  const pair = {
    id: 'p',
    before: 'b.png',
    after: 'a.png',
    captions: ['x'],
    changes: [
      { kind: 'move', bbox_before: [10, 10, 60, 40], bbox_after: [10, 50, 60, 80] },
      { kind: 'color', bbox_before: [200, 200, 260, 230], bbox_after: [200, 200, 260, 230] },
    ],
  };
  const report = {
    ...base,
    regions: [
      region([8, 8, 62, 82], 'move'),
      region([198, 198, 262, 232], 'text'),
      region([300, 10, 320, 20], 'none'),
      region([0, 0, 5, 5], 'none', true),
    ],
  };
  assert.deepEqual(kindSamples(pair as never, report as never), [
    { truth: 'move', predicted: 'move', group: 'one_change' },
    { truth: 'color', predicted: 'text', group: 'one_change' },
    { truth: 'none', predicted: 'none', group: 'no_change_record' },
  ]);
  // a region holding both changes is labelled by the first; one over 3x its change's box holds pushed content
  const merged = { ...report, regions: [region([0, 0, 270, 240], 'color'), region([190, 190, 300, 300], 'color')] };
  assert.deepEqual(kindSamples(pair as never, merged as never), [
    { truth: 'move', predicted: 'color', group: 'several_changes' },
    { truth: 'color', predicted: 'color', group: 'change_and_pushed' },
  ]);
  // whole screen: one sample with the pair's kind
  const global = { ...report, global: region([0, 0, 400, 300], 'theme') };
  assert.deepEqual(
    kindSamples(
      { ...pair, changes: [{ kind: 'theme', bbox_before: [0, 0, 400, 300], bbox_after: [0, 0, 400, 300] }] } as never,
      global as never,
    ),
    [{ truth: 'theme', predicted: 'theme', group: 'whole_screen' }],
  );
  // a pair where nothing was detected has no model sample (the runtime runs no model there)
  assert.deepEqual(kindSamples({ ...pair, changes: [] } as never, { ...base, regions: [] } as never), []);
});

test('eval groups regions by the change records they hold', async () => {
  const { regionGroup, PUSHED_AREA_FACTOR } = await import('../../src/lab/eval.js');
  const add = { kind: 'add', bbox_before: null, bbox_after: [0, 0, 10, 10] }; // an added element has no before box
  assert.equal(PUSHED_AREA_FACTOR, 3);
  assert.equal(regionGroup([0, 0, 30, 10], [add] as never), 'one_change'); // exactly 3x: still the change
  assert.equal(regionGroup([0, 0, 31, 10], [add] as never), 'change_and_pushed');
  // a move's box is its before and after boxes together, so both places in one region stay one change
  const move = { kind: 'move', bbox_before: [0, 0, 10, 10], bbox_after: [0, 90, 10, 100] };
  assert.equal(regionGroup([0, 0, 10, 100], [move] as never), 'one_change');
  assert.equal(regionGroup([0, 0, 10, 100], [move, add] as never), 'several_changes');
  assert.equal(regionGroup([0, 0, 10, 100], []), 'no_change_record');
  assert.equal(regionGroup([0, 0, 50, 50], [{ kind: 'none', bbox_before: null, bbox_after: null }] as never), 'one_change');
});

test('eval tallies kinds per label and lists each mistake under its label', async () => {
  const { tallyKinds, sortedConfusion } = await import('../../src/lab/eval.js');
  const tally = { total: 0, correct: 0, perKind: {}, confusion: {}, perGroup: {} };
  tallyKinds(tally, [
    { truth: 'move', predicted: 'move', group: 'one_change' },
    { truth: 'resize', predicted: 'reflow', group: 'change_and_pushed' },
  ]);
  tallyKinds(tally, [
    { truth: 'resize', predicted: 'spacing' },
    { truth: 'resize', predicted: 'reflow' },
    { truth: 'text', predicted: 'font' },
  ]);
  assert.equal(tally.total, 5);
  assert.equal(tally.correct, 1);
  assert.deepEqual(tally.perKind, { move: { total: 1, correct: 1 }, resize: { total: 3, correct: 0 }, text: { total: 1, correct: 0 } });
  // samples without a group (older --samples files) count in the totals, not in perGroup
  assert.deepEqual(tally.perGroup, { one_change: { total: 1, correct: 1 }, change_and_pushed: { total: 1, correct: 0 } });
  const confusion = sortedConfusion(tally.confusion);
  assert.deepEqual(confusion, { resize: { reflow: 2, spacing: 1 }, text: { font: 1 } });
  // most frequent mistake first within a row
  assert.deepEqual(Object.keys(confusion.resize), ['reflow', 'spacing']);
});

/** Starts the CLI, waits until `started()` holds (polled), sends `signal`, and resolves with how it ended. */
async function interrupt(args: string[], started: () => boolean, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, sig) => resolve({ code, signal: sig })),
  );
  const deadline = Date.now() + 60_000;
  while (!started()) {
    if (Date.now() > deadline) throw new Error('the run never started');
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill(signal);
  const end = await ended;
  return { ...end, stderr };
}

test('describe stopped by SIGINT: exit 130, no report, no frames, no temporary file, no stale output left', async () => {
  const dir = tempDir('cli-sigint');
  const { before, after } = writePair(dir);
  const out = path.join(dir, 'out');
  fs.mkdirSync(path.join(out, 'frames'), { recursive: true });
  const html = path.join(out, 'report.html');
  fs.writeFileSync(html, '<p>the previous run</p>');
  fs.writeFileSync(path.join(out, 'frames', 'region7-frame0.png'), 'the previous run');
  const r = await interrupt(
    ['describe', before, after, '--html', html, '--frames', path.join(out, 'frames'), '--provider', 'cpu', ...M],
    () => !fs.existsSync(html), // the previous report is removed when the work starts
    'SIGINT',
  );
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /procap: stopped by SIGINT; no output was written/);
  assert.deepEqual(fs.readdirSync(out), [], 'no report, no frames folder, no temporary file');
});

test('batch stopped by SIGTERM: exit 143 and neither the previous nor a half-written report', async () => {
  const root = tempDir('cli-sigterm');
  for (const name of ['a', 'b', 'c', 'd']) writePair(path.join(root, 'pairs', name));
  const out = path.join(root, 'out');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'report.json'), '{"the previous run": true}');
  fs.writeFileSync(path.join(out, 'report.html'), '<p>the previous run</p>');
  const r = await interrupt(
    ['batch', '--pairs', path.join(root, 'pairs'), '--out', out, '--provider', 'cpu', ...M],
    () => !fs.existsSync(path.join(out, 'report.json')),
    'SIGTERM',
  );
  assert.equal(r.code, 143, r.stderr);
  assert.match(r.stderr, /stopped by SIGTERM/);
  assert.deepEqual(fs.readdirSync(out), []);
});

test('--html --json is a usage error that writes no file named --json; describe --json=FILE is refused', () => {
  const dir = tempDir('cli-args');
  const { before, after } = writePair(dir);
  const r = spawnSync(process.execPath, [CLI, 'describe', before, after, '--html', '--json', ...M], { encoding: 'utf8', cwd: dir });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--html needs a value \(got the option --json\)/);
  const j = spawnSync(process.execPath, [CLI, 'describe', before, after, '--json=foo.json', ...M], { encoding: 'utf8', cwd: dir });
  assert.equal(j.status, 2);
  assert.match(j.stderr, /describe prints its JSON report with --json \(redirect it to a file: --json > FILE\)/);
  assert.deepEqual(fs.readdirSync(dir).sort(), ['after.png', 'before.png']);
  // -- ends the options: a file named like an option
  fs.copyFileSync(before, path.join(dir, '--json'));
  const d = spawnSync(process.execPath, [CLI, 'describe', '--no-procedure', ...M, '--', '--json', before], { encoding: 'utf8', cwd: dir });
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stdout, /^summary: no visible change/);
});

test('describe --frames refuses a folder of other files before any work (exit 6), and leaves it as it was', () => {
  const dir = tempDir('cli-frames');
  const { before, after } = writePair(dir);
  const mine = path.join(dir, 'mine');
  fs.mkdirSync(mine);
  fs.writeFileSync(path.join(mine, 'notes.txt'), 'keep');
  const started = Date.now();
  const r = cli(['describe', before, after, '--frames', mine, ...M]);
  assert.equal(r.code, 6, r.stderr);
  assert.match(r.stderr, /procap: cannot write .*mine: the folder holds files that are not procap frames \(notes\.txt\)/);
  assert.ok(Date.now() - started < 10_000);
  assert.deepEqual(fs.readdirSync(mine), ['notes.txt']);
});

test('a batch started by `npm run` stops when npm is killed, instead of going on alone and writing its report later', async () => {
  const root = tempDir('cli-npm');
  for (let i = 0; i < 12; i++) writePair(path.join(root, 'pairs', `p${i}`));
  const out = path.join(root, 'out');
  fs.mkdirSync(out);
  fs.writeFileSync(path.join(out, 'report.json'), '{}');
  const npm = spawn(
    'npm',
    ['run', '--silent', 'cli', '--', 'batch', '--pairs', path.join(root, 'pairs'), '--out', out, '--provider', 'cpu', ...M],
    {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    },
  );
  const npmEnded = new Promise((resolve) => npm.on('exit', resolve));
  const cliPid = () =>
    execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      // the node process itself (npm starts it through `sh -c`, whose line names it too)
      .filter(
        ([, program, script, command, ...rest]) =>
          /(^|\/)node$/.test(program) && script.endsWith('main.js') && command === 'batch' && rest.includes(out),
      )
      .map(([pid]) => Number(pid))[0];
  const deadline = Date.now() + 60_000;
  let pid: number | undefined;
  while ((pid = cliPid()) === undefined || fs.existsSync(path.join(out, 'report.json'))) {
    assert.ok(Date.now() < deadline, 'the batch never started');
    await new Promise((r) => setTimeout(r, 20));
  }
  npm.kill('SIGTERM');
  await npmEnded;
  const alive = () => {
    try {
      process.kill(pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stopBy = Date.now() + 10_000;
  while (alive() && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(), false, 'the CLI process ended with npm');
  assert.deepEqual(fs.readdirSync(out), [], 'and wrote no report');
});
