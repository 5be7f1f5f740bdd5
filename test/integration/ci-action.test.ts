// The GitHub Action's batch step (scripts/action/run.sh, what action.yml runs) on a fixture
// repository with two commits, with the real models: the Markdown summary, $GITHUB_STEP_SUMMARY, the
// JUnit file and the exit code; and the sharded variant of the example workflow: three shards joined
// by `procap merge` give the report of one unsharded run (timings aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { REPO_ROOT, drawPng, screenPair, tempDir } from '../unit/runtime-fixtures.js';
import { checkJunit } from '../unit/junit-xml.js';

const RUN = path.join(REPO_ROOT, 'scripts', 'action', 'run.sh');

/** A repository whose second commit moves a button and recolours a badge (login), adds, removes, breaks and keeps a screenshot. */
function fixtureRepo(): string {
  const repo = tempDir('action-repo');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo });
  const pair = screenPair();
  const put = (name: string, bytes: Buffer | string) => {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    fs.writeFileSync(path.join(repo, name), bytes);
  };
  git('init', '-q');
  put('README.md', 'fixture\n');
  put('shots/login.png', pair.before);
  put('shots/same.png', drawPng(200, 120, [[20, 20, 120, 60, 30, 90, 220]]));
  put('shots/old.png', drawPng(160, 100, [[10, 10, 60, 40, 200, 40, 40]]));
  put('shots/broken.png', drawPng(160, 100, [[10, 10, 60, 40, 40, 200, 40]]));
  git('add', '.');
  git('commit', '-q', '-m', 'before');
  put('shots/login.png', pair.after);
  put('shots/new.png', drawPng(160, 100, [[30, 30, 90, 70, 40, 40, 200]]));
  put('shots/broken.png', 'not a png at all');
  fs.rmSync(path.join(repo, 'shots/old.png'));
  git('add', '-A');
  git('commit', '-q', '-m', 'after');
  return repo;
}

/** A folder with `procap` on it: the package's launcher of this checkout, as `npm install -g` links it. */
function procapOnPath(): string {
  const bin = tempDir('action-bin');
  fs.symlinkSync(path.join(REPO_ROOT, 'bin', 'procap.js'), path.join(bin, 'procap'));
  return bin;
}

function runStep(repo: string, env: Record<string, string>) {
  const r = spawnSync('bash', [RUN], {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${procapOnPath()}${path.delimiter}${process.env.PATH}`,
      PROCAP_ARGS: '--provider cpu --no-procedure',
      ...env,
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A report without what differs from run to run (timings). */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'timings' && k !== 'seconds')
        .map(([k, v]) => [k, withoutTimings(v)]),
    );
  return value;
}

test('the action step on a two-commit repository writes the Markdown summary, the step summary and the JUnit file', () => {
  const repo = fixtureRepo();
  const runner = tempDir('action-runner');
  const stepSummary = path.join(runner, 'step-summary.md');
  const output = path.join(runner, 'github-output');
  fs.writeFileSync(stepSummary, '# earlier step\n');
  const r = runStep(repo, {
    PROCAP_BASE: 'HEAD~1',
    PROCAP_HEAD: 'HEAD',
    PROCAP_OUT: 'out',
    PROCAP_FAIL_ON_CHANGE: 'true',
    PROCAP_REPORT_URL: 'https://github.example/o/r/actions/runs/42',
    GITHUB_STEP_SUMMARY: stepSummary,
    GITHUB_OUTPUT: output,
  });
  // a pair failed (broken.png): exit 3 outranks the changes' 1
  assert.equal(r.code, 3, r.stderr);
  assert.match(fs.readFileSync(output, 'utf8'), /^exit-code=3$/m);

  const md = fs.readFileSync(path.join(repo, 'out', 'summary.md'), 'utf8');
  assert.match(md, /1 changed, 1 unchanged, 1 added, 1 removed, 1 failed\./);
  assert.match(md, /\[HTML report\]\(https:\/\/github\.example\/o\/r\/actions\/runs\/42\)/);
  const login = /- \*\*shots\/login\.png\*\*: (.+)\n((?: {2}- .+\n)+)/.exec(md);
  assert.ok(login, md);
  assert.match(login[1], /moved|shifted/);
  const captions = login[2].trim().split('\n');
  assert.ok(captions.length >= 2, 'one line per changed region');
  assert.ok(captions.some((c) => /\\\[move\\\]/.test(c)) && captions.some((c) => /\\\[color\\\]/.test(c)), login[2]);
  assert.match(md, /### Added\n\n- shots\/new\.png\n/);
  assert.match(md, /### Removed\n\n- shots\/old\.png\n/);
  assert.match(md, /### Failed\n\n- \*\*shots\/broken\.png\*\*: .*PNG/);
  assert.equal(fs.readFileSync(stepSummary, 'utf8'), `# earlier step\n${md}\n`, 'appended to $GITHUB_STEP_SUMMARY');

  const cases = checkJunit(fs.readFileSync(path.join(repo, 'out', 'junit.xml'), 'utf8'));
  const outcome = Object.fromEntries(cases.map((c) => [c.attributes.name, c.children[0]?.attributes.type ?? 'passed']));
  assert.deepEqual(outcome, {
    'shots/broken.png': 'error',
    'shots/login.png': 'changed',
    'shots/new.png': 'added',
    'shots/old.png': 'removed',
    'shots/same.png': 'passed',
  });
  const failure = cases.find((c) => c.attributes.name === 'shots/login.png')!.children[0];
  assert.equal(failure.name, 'failure');
  assert.ok(failure.attributes.message.startsWith(login[1].replace(/\\(.)/g, '$1')), failure.attributes.message);
  assert.match(failure.attributes.message, /; \[move\] .*; \[color\] |; \[color\] .*; \[move\] /);

  const json = JSON.parse(fs.readFileSync(path.join(repo, 'out', 'report.json'), 'utf8'));
  assert.deepEqual(json.summary.changed, 1);
  assert.match(fs.readFileSync(path.join(repo, 'out', 'report.html'), 'utf8'), /data:image\/png;base64,/);

  // folders instead of commits, no failures: exit 0 without --fail-on-change
  const before = path.join(runner, 'before'),
    after = path.join(runner, 'after');
  for (const [dir, png] of [
    [before, screenPair().before],
    [after, screenPair().after],
  ] as const) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'login.png'), png);
  }
  const folders = runStep(repo, { PROCAP_BEFORE_DIR: before, PROCAP_AFTER_DIR: after, PROCAP_OUT: 'out2', GITHUB_STEP_SUMMARY: '' });
  assert.equal(folders.code, 0, folders.stderr);
  assert.match(fs.readFileSync(path.join(repo, 'out2', 'summary.md'), 'utf8'), /1 changed, 0 unchanged, 0 added, 0 removed, 0 failed\./);
  assert.equal(checkJunit(fs.readFileSync(path.join(repo, 'out2', 'junit.xml'), 'utf8')).length, 1);
});

test('three shard reports merged by procap merge equal one unsharded run (timings aside)', () => {
  const repo = fixtureRepo();
  const whole = runStep(repo, { PROCAP_BASE: 'HEAD~1', PROCAP_HEAD: 'HEAD', PROCAP_OUT: 'whole', GITHUB_STEP_SUMMARY: '' });
  assert.equal(whole.code, 3, whole.stderr);
  for (const i of [1, 2, 3]) {
    const shard = runStep(repo, {
      PROCAP_BASE: 'HEAD~1',
      PROCAP_HEAD: 'HEAD',
      PROCAP_SHARD: `${i}/3`,
      PROCAP_OUT: `shard${i}`,
      GITHUB_STEP_SUMMARY: '',
    });
    assert.ok(shard.code === 0 || shard.code === 3, shard.stderr);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(repo, `shard${i}`, 'report.json'), 'utf8')).shard, { index: i, count: 3 });
  }
  // the merge job: the same step with PROCAP_MERGE (a glob of the shards' reports)
  const merge = runStep(repo, { PROCAP_MERGE: 'shard*/report.json', PROCAP_OUT: 'merged', GITHUB_STEP_SUMMARY: '' });
  assert.equal(merge.code, 3, merge.stderr);
  assert.match(merge.stdout, /procap merge shard1\/report\.json shard2\/report\.json shard3\/report\.json/);
  const read = (dir: string, file: string) => fs.readFileSync(path.join(repo, dir, file), 'utf8');
  const merged = JSON.parse(read('merged', 'report.json'));
  assert.deepEqual(withoutTimings(merged), withoutTimings(JSON.parse(read('whole', 'report.json'))));
  assert.equal(merged.pairs.length, 5);
  assert.equal(read('merged', 'summary.md'), read('whole', 'summary.md'));
  const untimed = (xml: string) => xml.replace(/ time="[\d.]+"/g, '');
  assert.equal(untimed(read('merged', 'junit.xml')), untimed(read('whole', 'junit.xml')));
  // the merged HTML shows the screenshots again, read from the commits the reports name
  const html = read('merged', 'report.html');
  assert.equal(
    (html.match(/data:image\/png;base64,/g) ?? []).length,
    (read('whole', 'report.html').match(/data:image\/png;base64,/g) ?? []).length,
  );
  assert.match(html, /shots\/login\.png/);

  // a missing shard is refused (exit 2) and writes nothing
  const partial = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, 'bin', 'procap.js'), 'merge', 'shard1/report.json', 'shard2/report.json', '--json-file', 'p.json'],
    {
      cwd: repo,
      encoding: 'utf8',
    },
  );
  assert.equal(partial.status, 2);
  assert.match(partial.stderr, /shard 3\/3 missing/);
  assert.ok(!fs.existsSync(path.join(repo, 'p.json')));
});
