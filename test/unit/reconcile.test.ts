import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcileKindAndCaption, summaryCaptions, NONE_MIN_PROBABILITY, NO_CHANGE_CAPTION } from '../../src/core/pipeline.js';
import { kindsFromLogits } from '../../src/core/procap/encode.js';

const kinds = ['none', 'move', 'color'];

test('kindsFromLogits gives the best kind and the best kind other than none', () => {
  const [k] = kindsFromLogits(new Float32Array([2, 1, 0]), 1, kinds);
  assert.equal(k.kind, 'none');
  assert.equal(k.changeKind, 'move');
  assert.ok(k.changeProbability < k.probability);
});

test('a sure "none" is kept and its caption made consistent', () => {
  const r = reconcileKindAndCaption({ kind: 'none', probability: 0.9, changeKind: 'move', changeProbability: 0.05 }, 'the button moved down');
  assert.deepEqual(r, { kind: 'none', probability: 0.9, caption: NO_CHANGE_CAPTION });
});

test('an unsure "none" on a region with real differences becomes the best change kind', () => {
  const r = reconcileKindAndCaption({ kind: 'none', probability: NONE_MIN_PROBABILITY - 0.1, changeKind: 'color', changeProbability: 0.3 }, 'the title turned red');
  assert.equal(r.kind, 'color');
  assert.equal(r.probability, 0.3);
  assert.equal(r.caption, 'the title turned red');
});

test('a change kind with a "no change" caption gets the kind\'s plain wording', () => {
  const r = reconcileKindAndCaption({ kind: 'move', probability: 0.7, changeKind: 'move', changeProbability: 0.7 }, 'nothing changed');
  assert.equal(r.kind, 'move');
  assert.equal(r.caption, 'something moved here');
});

test('the summary names the causes: reflow regions only when nothing else changed', () => {
  const region = (kind: string, caption: string, noiseOnly = false) => ({ kind, caption, noiseOnly });
  assert.deepEqual(summaryCaptions([
    region('add', 'a button was added'), region('reflow', 'the content here shifted down'),
    region('none', 'no visible change'), region('move', 'noise', true),
  ]), ['a button was added']);
  assert.deepEqual(summaryCaptions([region('reflow', 'the content here shifted down'), region('none', 'no visible change')]),
    ['the content here shifted down']);
  assert.deepEqual(summaryCaptions([region('none', 'no visible change')]), []);
});
