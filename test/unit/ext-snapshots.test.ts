import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairSnapshotOutputs, playwrightBaselineCandidates, jestCompositeParts } from '../../src/extension/pure/snapshotPairing.js';
import { findImageReferences, lineCaption, resolveImageReference } from '../../src/extension/pure/imageReferences.js';

test('Playwright outputs pair by name inside test-results; unpaired files are left out', () => {
  const pairs = pairSnapshotOutputs([
    'test-results/home-chromium/home-1-actual.png',
    'test-results/home-chromium/home-1-expected.png',
    'test-results/home-chromium/home-1-diff.png',
    'test-results/login-chromium/login-actual.png', // first run: no expected, nothing to compare
    'tests/home.spec.ts-snapshots/home-1-chromium-linux.png',
    'other/x-actual.png', // not in test-results
  ]);
  assert.deepEqual(pairs, [
    {
      framework: 'playwright',
      name: 'home-1',
      expected: 'test-results/home-chromium/home-1-expected.png',
      actual: 'test-results/home-chromium/home-1-actual.png',
      diff: 'test-results/home-chromium/home-1-diff.png',
    },
  ]);
  assert.deepEqual(
    playwrightBaselineCandidates(pairs[0], [
      'tests/home.spec.ts-snapshots/home-1-chromium-linux.png',
      'tests/home.spec.ts-snapshots/home-10-chromium-linux.png',
      'tests/home.spec.ts-snapshots/home-1.png',
      'test-results/home-chromium/home-1-expected.png',
      'docs/home-1.png',
    ]),
    ['tests/home.spec.ts-snapshots/home-1-chromium-linux.png', 'tests/home.spec.ts-snapshots/home-1.png'],
  );
});

test('jest-image-snapshot outputs pair with their baseline and, when stored, the received image', () => {
  const pairs = pairSnapshotOutputs([
    'src/__tests__/__image_snapshots__/button-snap.png',
    'src/__tests__/__image_snapshots__/__diff_output__/button-snap-diff.png',
    'src/__tests__/__image_snapshots__/__received_output__/button-snap-received.png',
    'src/__tests__/__image_snapshots__/card.png',
    'src/__tests__/__image_snapshots__/__diff_output__/card-diff.png',
    'src/__tests__/__image_snapshots__/__diff_output__/orphan-diff.png',
  ]);
  assert.deepEqual(
    pairs.map((p) => [p.name, p.baseline, p.actual ?? null]),
    [
      [
        'button-snap',
        'src/__tests__/__image_snapshots__/button-snap.png',
        'src/__tests__/__image_snapshots__/__received_output__/button-snap-received.png',
      ],
      ['card', 'src/__tests__/__image_snapshots__/card.png', null],
    ],
  );
  assert.deepEqual(jestCompositeParts(300, 50), { baseline: [0, 0, 100, 50], received: [200, 0, 300, 50] });
  assert.equal(jestCompositeParts(301, 50), undefined);
});

test('image references: found in code and Markdown, URLs ignored', () => {
  assert.deepEqual(
    findImageReferences("await expect(page).toHaveScreenshot('shots/home.png');").map((r) => r.text),
    ['shots/home.png'],
  );
  assert.deepEqual(
    findImageReferences('![before](docs/img/before.png) and ![after](./after.PNG)').map((r) => r.text),
    ['docs/img/before.png', './after.PNG'],
  );
  assert.deepEqual(findImageReferences('see https://example.com/x/shot.png for details'), []);
  const [reference] = findImageReferences('x = "a.png"');
  assert.equal('x = "a.png"'.slice(reference.start, reference.end), 'a.png');
  assert.deepEqual(resolveImageReference('shots/a.png', '/ws/src', ['/ws']), ['/ws/src/shots/a.png', '/ws/shots/a.png']);
  assert.deepEqual(resolveImageReference('../../../etc/x.png', '/ws/src', ['/ws']), []);
  assert.deepEqual(resolveImageReference('/elsewhere/x.png', '/ws/src', ['/ws']), []);
});

test('the caption at the end of a line: the summary alone for one file, each name with its caption for several', () => {
  assert.equal(lineCaption([{ reference: 'screenshots/settings.png', summary: 'a banner appears' }]), 'ProCap: a banner appears');
  assert.equal(
    lineCaption([
      { reference: 'shots\\home.png', summary: 'the button turns green' },
      { reference: './b.png', summary: 'a row is added' },
    ]),
    'ProCap: home.png: the button turns green · b.png: a row is added',
  );
});
