import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeMarkdown, mergeReports, MergeError, renderJunit, renderMarkdown, type BatchResult } from '../../src/cli/ci-report.js';
import type { ChangeReport } from '../../src/core/report.js';
import { checkJunit, parseXml } from './junit-xml.js';

function report(summary: string, regions: { kind: string; caption: string; noiseOnly?: boolean }[], totalMs = 1234): ChangeReport {
  return {
    before: { width: 10, height: 10 },
    after: { width: 10, height: 10 },
    summary,
    changed: regions.some((r) => !r.noiseOnly),
    regions: regions.map((r, i) => ({ id: i + 1, kind: r.kind, caption: r.caption, noiseOnly: r.noiseOnly ?? false, confidence: 1 })),
    provider: 'cpu',
    providerReason: 'cpu requested',
    timings: { totalMs },
    modelVersion: 'test',
  } as unknown as ChangeReport;
}

function sample(): BatchResult {
  return {
    summary: { pairs: 5, compared: 2, changed: 1, unchanged: 1, added: 1, removed: 0, errors: 1, seconds: 4.5 },
    pairs: [
      { name: 'a/added.png', status: 'added', changed: true, after: 'B:a/added.png' },
      {
        name: 'a/login <form> & "quotes".png',
        status: 'compared',
        changed: true,
        summary: "the 'Sign in' button moved 4 px down",
        report: report("the 'Sign in' button moved 4 px down", [
          { kind: 'move', caption: "the 'Sign in' button moved 4 px down" },
          { kind: 'none', caption: 'anti-aliasing noise', noiseOnly: true },
          { kind: 'color', caption: 'the badge turned <red> & bold' },
        ]),
      },
      { name: 'b/broken.png', status: 'error', changed: false, error: 'b/broken.png: not a PNG file (bad signature) \u0001' },
      {
        name: 'c/same.png',
        status: 'compared',
        changed: false,
        summary: 'no visible change',
        report: report('no visible change', [], 800),
      },
    ],
  };
}

test('renderMarkdown: counts, each changed screenshot with its summary and captions, the link, escaped names', () => {
  const md = renderMarkdown(sample(), { htmlLink: 'https://ci.example/run 7/report.html' });
  assert.match(md, /^## ProCap Review\n/);
  assert.match(md, /1 changed, 1 unchanged, 1 added, 0 removed, 1 failed\./);
  assert.match(md, /\| 1 \| 1 \| 1 \| 0 \| 1 \| 5 \|/);
  assert.match(md, /\[HTML report\]\(https:\/\/ci\.example\/run%207\/report\.html\)/);
  assert.match(md, /### Changed\n\n- \*\*a\/login \\<form\\> & "quotes"\.png\*\*: the 'Sign in' button moved 4 px down\n/);
  assert.match(md, /\n {2}- \\\[move\\\] the 'Sign in' button moved 4 px down\n/);
  assert.match(md, /\n {2}- \\\[color\\\] the badge turned \\<red\\> & bold\n/);
  assert.doesNotMatch(md, /anti-aliasing noise/, 'noise regions are not listed');
  assert.match(md, /### Added\n\n- a\/added\.png\n/);
  assert.match(md, /### Failed\n\n- \*\*b\/broken\.png\*\*: b\/broken\.png: not a PNG file \\\(bad signature\\\)/);
  assert.doesNotMatch(md, /same\.png/, 'unchanged screenshots are counted, not listed');
  assert.doesNotMatch(md, /### Removed/);
  const quiet = renderMarkdown({ summary: { ...sample().summary, changed: 0, added: 0, errors: 0, unchanged: 3, pairs: 3 }, pairs: [] });
  assert.match(quiet, /No visible change in 3 screenshots\./);
  assert.doesNotMatch(quiet, /HTML report/);
  assert.equal(escapeMarkdown('a*b_c`d|e\n[f](g)'), 'a\\*b\\_c\\`d\\|e \\[f\\]\\(g\\)');
});

test('renderJunit: JUnit shape, one test case per screenshot; changed and added are failures, errors errors, all escaped', () => {
  const xml = renderJunit(sample());
  const cases = checkJunit(xml);
  assert.deepEqual(
    cases.map((c) => [c.attributes.name, c.children[0]?.name ?? 'passed', c.children[0]?.attributes.type]),
    [
      ['a/added.png', 'failure', 'added'],
      ['a/login <form> & "quotes".png', 'failure', 'changed'],
      ['b/broken.png', 'error', 'error'],
      ['c/same.png', 'passed', undefined],
    ],
  );
  const changed = cases[1].children[0];
  assert.equal(
    changed.attributes.message,
    "the 'Sign in' button moved 4 px down; [move] the 'Sign in' button moved 4 px down; [color] the badge turned <red> & bold",
  );
  assert.match(changed.text, /^the 'Sign in' button moved 4 px down\n {2}\[move\]/);
  assert.equal(cases[1].attributes.time, '1.234');
  assert.equal(cases[2].children[0].attributes.message, 'b/broken.png: not a PNG file (bad signature) ', 'a control character is dropped');
  const root = parseXml(xml);
  assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['4', '2', '1']);
  assert.throws(() => parseXml('<a><b></a></b>'), /closes/);
  assert.throws(() => parseXml('<a>x < y</a>'), /malformed|unescaped/);
});

test('mergeReports: shards join in name order with the counts of the whole; bad sets are refused', () => {
  const whole = sample();
  const shards = [1, 2, 3].map((index) => ({
    file: `shard${index}.json`,
    data: { shard: { index, count: 3 }, summary: { seconds: index }, pairs: whole.pairs.filter((_, i) => i % 3 === index - 1) },
  }));
  const merged = mergeReports([shards[2], shards[0], shards[1]]);
  assert.deepEqual(merged.pairs, whole.pairs);
  assert.deepEqual({ ...merged.summary, seconds: 0 }, { ...whole.summary, pairs: 4, seconds: 0 });
  assert.equal(merged.summary.seconds, 3, 'the longest shard');
  assert.equal(merged.shard, undefined);
  assert.throws(
    () => mergeReports([shards[0], shards[1]]),
    (e: Error) => e instanceof MergeError && /shard 3\/3 missing/.test(e.message),
  );
  assert.throws(() => mergeReports([shards[0], shards[0], shards[1], shards[2]]), /given twice/);
  const other = { file: 'x.json', data: { ...shards[2].data, shard: { index: 3, count: 4 } } };
  assert.throws(() => mergeReports([shards[0], shards[1], other]), /of 3 shards/);
  assert.throws(() => mergeReports([{ file: 'n.json', data: { hello: 1 } }]), /n\.json: not a procap batch JSON report/);
  const dup = { file: 'd.json', data: { ...shards[2].data, pairs: [...shards[2].data.pairs, whole.pairs[0]] } };
  assert.throws(() => mergeReports([shards[0], shards[1], dup]), /a\/added\.png is in both shard1\.json and d\.json/);
  assert.throws(() => mergeReports([]), /at least one/);
});
