// The panel's edits of procap.config.json: an ignore region added or removed as a few characters of
// the user's text, everything else (rules, keys, order, indentation, line ends) kept byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addIgnoreRegion, findIgnoreRegion, removeIgnoreRegion } from '../../src/core/config-edit.js';
import { ConfigError, exactGlob, parseConfig, settingsFor } from '../../src/core/config.js';
import type { Box } from '../../src/core/report.js';

const FILE = '/proj/procap.config.json';
const BOX: Box = [120, 8, 180, 40];

/** Adds BOX for `glob`, checks the result parses and applies to `name`, then removes it again. */
function roundTrip(text: string, glob: string, name: string): string {
  const added = addIgnoreRegion(text, FILE, glob, BOX);
  assert.equal(added.already, false);
  assert.ok(
    settingsFor(parseConfig(added.text, FILE), name).masks.some((m) => m.join() === BOX.join()),
    'the new mask applies',
  );
  const found = findIgnoreRegion(added.text, FILE, name, BOX, { width: 1000, height: 1000 }, glob);
  assert.ok(found, 'the added region is found again');
  assert.equal(found.glob, glob);
  assert.equal(removeIgnoreRegion(added.text, FILE, found), text, 'removing it gives back the text byte for byte');
  return added.text;
}

test('config edit: no file yet gives a new one with one rule', () => {
  const r = addIgnoreRegion(undefined, FILE, 'compare/time-after.png', BOX);
  assert.equal(r.newRule, true);
  assert.equal(r.text, '{\n  "screenshots": [\n    { "glob": "compare/time-after.png", "masks": [[120, 8, 180, 40]] }\n  ]\n}\n');
  assert.deepEqual(parseConfig(r.text, FILE).screenshots, [{ glob: 'compare/time-after.png', masks: [BOX] }]);
  // removing the only rule leaves an empty list (the file stays, with its other content)
  assert.equal(removeIgnoreRegion(r.text, FILE, { rule: 0, mask: 0 }), '{\n  "screenshots": []\n}\n');
});

test("config edit: a new rule is appended after the user's rules; their keys, order and layout are kept", () => {
  // the layout JSON.stringify(_, null, 2) writes (the e2e fixture's), with a $schema and a threshold first
  const text =
    JSON.stringify(
      { $schema: './schema.json', minDiffPixels: 10, screenshots: [{ glob: 'compare/clock-*.png', masks: [[300, 0, 400, 48]] }] },
      null,
      2,
    ) + '\n';
  const added = roundTrip(text, 'compare/time-after.png', 'compare/time-after.png');
  assert.equal(
    added,
    text.replace('\n    }\n  ]', '\n    },\n    { "glob": "compare/time-after.png", "masks": [[120, 8, 180, 40]] }\n  ]'),
    'only the new rule is inserted',
  );
  assert.deepEqual(parseConfig(added, FILE).minDiffPixels, 10);
});

test('config edit: a box for a glob that has a rule goes into that rule, inline or on its own line as the others', () => {
  const inline =
    '{\n  "screenshots": [\n    { "glob": "a/x.png", "masks": [[1, 2, 3, 4]] },\n    { "glob": "b/*.png", "masks": [] }\n  ]\n}\n';
  const added = roundTrip(inline, 'a/x.png', 'a/x.png');
  assert.equal(added, inline.replace('[[1, 2, 3, 4]]', '[[1, 2, 3, 4], [120, 8, 180, 40]]'));
  // an empty masks list
  assert.equal(addIgnoreRegion(inline, FILE, 'b/*.png', BOX).text, inline.replace('"masks": []', '"masks": [[120, 8, 180, 40]]'));
  // masks on lines of their own
  const lines = '{\n  "screenshots": [\n    {\n      "glob": "a/x.png",\n      "masks": [\n        [1, 2, 3, 4]\n      ]\n    }\n  ]\n}\n';
  assert.equal(roundTrip(lines, 'a/x.png', 'a/x.png'), lines.replace('[1, 2, 3, 4]\n', '[1, 2, 3, 4],\n        [120, 8, 180, 40]\n'));
});

test('config edit: a rule without masks gets them after its last key, and loses them again keeping its thresholds', () => {
  const text = '{\n  "screenshots": [\n    {\n      "glob": "a/x.png",\n      "minDiffRatio": 0.01\n    }\n  ]\n}\n';
  const added = roundTrip(text, 'a/x.png', 'a/x.png');
  assert.equal(added, text.replace('"minDiffRatio": 0.01\n', '"minDiffRatio": 0.01,\n      "masks": [[120, 8, 180, 40]]\n'));
  assert.deepEqual(parseConfig(added, FILE).screenshots[0], { glob: 'a/x.png', masks: [BOX], minDiffRatio: 0.01 });
});

test('config edit: CRLF, tabs, compact JSON, no "screenshots" yet, an empty object', () => {
  const crlf = '{\r\n\t"minDiffPixels": 3,\r\n\t"screenshots": [\r\n\t\t{ "glob": "*.png" }\r\n\t]\r\n}\r\n';
  const added = roundTrip(crlf, 'a/x.png', 'a/x.png');
  assert.ok(added.includes('{ "glob": "*.png" },\r\n\t\t{ "glob": "a/x.png", "masks": [[120, 8, 180, 40]] }\r\n\t]'), added);
  assert.ok(!/[^\r]\n/.test(added), 'every line ends in CRLF');

  const compact = '{"screenshots":[{"glob":"a/*.png","masks":[[1,2,3,4]]}]}';
  assert.equal(roundTrip(compact, 'a/*.png', 'a/q.png'), '{"screenshots":[{"glob":"a/*.png","masks":[[1,2,3,4],[120,8,180,40]]}]}');

  const noRules = '{\n  "minDiffPixels": 5\n}\n';
  const withRules = addIgnoreRegion(noRules, FILE, 'a/x.png', BOX).text;
  assert.equal(
    withRules,
    '{\n  "minDiffPixels": 5,\n  "screenshots": [\n    { "glob": "a/x.png", "masks": [[120, 8, 180, 40]] }\n  ]\n}\n',
  );
  // removed again, the list it made stays (empty): the rest is as it was
  assert.equal(removeIgnoreRegion(withRules, FILE, { rule: 0, mask: 0 }), '{\n  "minDiffPixels": 5,\n  "screenshots": []\n}\n');
  assert.equal(
    addIgnoreRegion('{ "minDiffPixels": 5 }', FILE, 'a/x.png', BOX).text,
    '{ "minDiffPixels": 5, "screenshots": [{ "glob": "a/x.png", "masks": [[120, 8, 180, 40]] }] }',
  );
  assert.equal(
    addIgnoreRegion('{}\n', FILE, 'a/x.png', BOX).text,
    '{\n  "screenshots": [\n    { "glob": "a/x.png", "masks": [[120, 8, 180, 40]] }\n  ]\n}\n',
  );
});

test('config edit: strings holding brackets, braces, quotes and escapes do not confuse it; escaped globs round-trip', () => {
  const text = '{\n  "$schema": "x}\\"]\\\\",\n  "screenshots": [\n    { "glob": "a/{b,c}/*.png", "masks": [[0, 0, 5, 5]] }\n  ]\n}\n';
  const glob = exactGlob('shots/page [1] "quoted".png');
  const added = roundTrip(text, glob, 'shots/page [1] "quoted".png');
  assert.equal(parseConfig(added, FILE).screenshots[1].glob, glob);
  assert.equal(JSON.parse(added).$schema, 'x}"]\\');
});

test('config edit: a box already there is not added twice', () => {
  const text = '{ "screenshots": [{ "glob": "a/x.png", "masks": [[120, 8, 180, 40]] }] }';
  assert.deepEqual(addIgnoreRegion(text, FILE, 'a/x.png', BOX), { text, already: true, newRule: false });
});

test('config edit: a file that is not a valid config is refused with its message, never rewritten', () => {
  for (const [bad, reason] of [
    ['{ "screenshots": [ }', /not valid JSON/],
    ['{ "screenshots": [], }', /not valid JSON/],
    ['// a comment\n{}', /not valid JSON/],
    ['{ "ignore": [] }', /unknown key "ignore"/],
    ['{ "screenshots": [{ "glob": "a", "masks": [[5, 0, 1, 1]] }] }', /masks\[0\]/],
    ['[]', /must be a JSON object/],
  ] as const) {
    assert.throws(
      () => addIgnoreRegion(bad, FILE, 'a/x.png', BOX),
      (e: unknown) => e instanceof ConfigError && reason.test(e.message),
    );
    assert.throws(() => findIgnoreRegion(bad, FILE, 'a/x.png', BOX, { width: 10, height: 10 }), ConfigError);
  }
  assert.throws(() => addIgnoreRegion(undefined, FILE, 'a/x.png', [5, 5, 5, 9]), RangeError);
  assert.throws(() => addIgnoreRegion(undefined, FILE, ' ', BOX), RangeError);
});

test('config edit: finding the region the panel shows (its own rule first, clipped boxes, only matching globs)', () => {
  const text = JSON.stringify({
    screenshots: [
      { glob: '**/*.png', masks: [[120, 8, 180, 40]] },
      { glob: 'other/*.png', masks: [[0, 0, 10, 10]] },
      {
        glob: 'a/x.png',
        masks: [
          [0, 0, 10, 10],
          [120, 8, 180, 40],
          [900, 900, 2000, 2000],
        ],
      },
    ],
  });
  const area = { width: 1000, height: 1000 };
  assert.deepEqual(findIgnoreRegion(text, FILE, 'a/x.png', BOX, area, 'a/x.png'), { rule: 2, mask: 1, glob: 'a/x.png', box: BOX });
  assert.deepEqual(findIgnoreRegion(text, FILE, 'a/x.png', BOX, area), { rule: 0, mask: 0, glob: '**/*.png', box: BOX }, 'in file order');
  // the panel shows a box clipped to the compared area
  assert.deepEqual(findIgnoreRegion(text, FILE, 'a/x.png', [900, 900, 1000, 1000], area), {
    rule: 2,
    mask: 2,
    glob: 'a/x.png',
    box: [900, 900, 2000, 2000],
  });
  assert.equal(findIgnoreRegion(text, FILE, 'b/x.png', [0, 0, 10, 10], area), undefined, 'other/*.png does not match b/x.png');
  assert.equal(findIgnoreRegion(text, FILE, 'a/x.png', [1, 1, 10, 10], area), undefined);
});

test('config edit: removing the first, a middle or the last box of several', () => {
  const lines =
    '{\n  "screenshots": [\n    {\n      "glob": "a/x.png",\n      "masks": [\n        [1, 1, 2, 2],\n        [3, 3, 4, 4],\n        [5, 5, 6, 6]\n      ]\n    }\n  ]\n}\n';
  assert.equal(removeIgnoreRegion(lines, FILE, { rule: 0, mask: 0 }), lines.replace('        [1, 1, 2, 2],\n', ''));
  assert.equal(removeIgnoreRegion(lines, FILE, { rule: 0, mask: 1 }), lines.replace('        [3, 3, 4, 4],\n', ''));
  assert.equal(removeIgnoreRegion(lines, FILE, { rule: 0, mask: 2 }), lines.replace(',\n        [5, 5, 6, 6]', ''));
  const inline = '{"screenshots": [{"glob": "a", "masks": [[1, 1, 2, 2], [3, 3, 4, 4]]}, {"glob": "b"}]}';
  assert.equal(removeIgnoreRegion(inline, FILE, { rule: 0, mask: 0 }), inline.replace('[1, 1, 2, 2], ', ''));
  assert.throws(() => removeIgnoreRegion(inline, FILE, { rule: 1, mask: 0 }), RangeError);
  assert.throws(() => removeIgnoreRegion(inline, FILE, { rule: 5, mask: 0 }), RangeError);
});
