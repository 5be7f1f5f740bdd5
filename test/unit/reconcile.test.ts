import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summaryCaptions, NO_CHANGE_CAPTION } from '../../src/core/pipeline.js';
import { captionKinds } from '../../src/core/caption-kind.js';
import { kindsFromLogits, reconcileKindAndCaption, NONE_MIN_PROBABILITY } from '../../src/core/kind.js';
import { reflowCaptions } from '../../src/data/captions.js';

const kinds = ['none', 'move', 'color'];

test('kindsFromLogits gives the best kind and the best kind other than none', () => {
  const [k] = kindsFromLogits(new Float32Array([2, 1, 0]), 1, kinds);
  assert.equal(k.kind, 'none');
  assert.equal(k.changeKind, 'move');
  assert.ok(k.changeProbability < k.probability);
});

test('a sure "none" is kept and its caption made consistent', () => {
  const r = reconcileKindAndCaption(
    { kind: 'none', probability: 0.9, changeKind: 'move', changeProbability: 0.05 },
    'the button moved down',
  );
  assert.deepEqual(r, { kind: 'none', probability: 0.9, caption: NO_CHANGE_CAPTION });
});

test('an unsure "none" on a region with real differences becomes the best change kind', () => {
  const r = reconcileKindAndCaption(
    { kind: 'none', probability: NONE_MIN_PROBABILITY - 0.1, changeKind: 'color', changeProbability: 0.3 },
    'the title turned red',
  );
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
  assert.deepEqual(
    summaryCaptions([
      region('add', 'a button was added'),
      region('reflow', 'the content here shifted down'),
      region('none', 'no visible change'),
      region('move', 'noise', true),
    ]),
    ['a button was added'],
  );
  assert.deepEqual(summaryCaptions([region('reflow', 'the content here shifted down'), region('none', 'no visible change')]), [
    'the content here shifted down',
  ]);
  assert.deepEqual(summaryCaptions([region('none', 'no visible change')]), []);
  // what a change pushed along is its region's detail, not the summary's
  assert.deepEqual(
    summaryCaptions([{ ...region('add', "'Recents' was added; 2 lines moved 80 px right"), detail: '2 lines moved 80 px right' }]),
    ["'Recents' was added"],
  );
  // reflow alone: its first region stands for all of them
  assert.deepEqual(
    summaryCaptions([region('reflow', 'the layout here moved far right'), region('reflow', 'the content here shifted far right')]),
    ['the layout here moved far right'],
  );
  // lines the reader saw move by one shift in several regions are said once in the summary
  const read = (caption: string) => ({ kind: 'move', caption, noiseOnly: false, captionSource: 'reader' });
  assert.deepEqual(
    summaryCaptions([
      read("'Hello World' moved 8 px right and 8 px down"),
      region('add', 'a button was added'),
      read("'Text input' moved 8 px right and 8 px down"),
      read("'Deploy' moved 16 px left"),
    ]),
    ["'Hello World' and 'Text input' moved 8 px right and 8 px down", 'a button was added', "'Deploy' moved 16 px left"],
  );
  assert.deepEqual(summaryCaptions([read("'A' moved 1 px down"), read("'B' moved 1 px down"), read("'C' moved 1 px down")]), [
    "'A' and 2 more lines moved 1 px down",
  ]);
  assert.deepEqual(summaryCaptions([read("'A' moved 1 px right"), read("'B' and 'C' moved 1 px right")]), [
    "'A' and 2 more lines moved 1 px right",
  ]);
  // the models' captions, a lone move, and the reader's that say more than a plain move stand as they are
  assert.deepEqual(
    summaryCaptions([
      region('move', 'the button moved down'),
      region('move', 'the button moved down'),
      read("'Save' and 2 more lines moved 4 px up"),
      read("'Docs' moved 4 px up, pushed by the change above"),
    ]),
    [
      'the button moved down',
      'the button moved down',
      "'Save' and 2 more lines moved 4 px up",
      "'Docs' moved 4 px up, pushed by the change above",
    ],
  );
  // one swap, said by the regions of both its places, is one clause; another swap is another
  const swap = (caption: string) => ({ kind: 'reorder', caption, noiseOnly: false, captionSource: 'reader' });
  assert.deepEqual(
    summaryCaptions([
      swap("'Share' and 'Find' swapped places"),
      swap("'Find' and 'Share' swapped places"),
      swap("'Find' and 'Copy' swapped places"),
    ]),
    ["'Share' and 'Find' swapped places", "'Find' and 'Copy' swapped places"],
  );
});

test("a reflow kind with an element caption, or a change kind with a reflow caption, gets the kind's wording", () => {
  const sure = (k: string) => ({ kind: k, probability: 0.9, changeKind: k, changeProbability: 0.9 });
  assert.deepEqual(reconcileKindAndCaption(sure('reflow'), 'the white card was removed'), {
    kind: 'reflow',
    probability: 0.9,
    caption: 'the content here shifted with the layout',
  });
  assert.deepEqual(reconcileKindAndCaption(sure('add'), 'the content here shifted far left'), {
    kind: 'add',
    probability: 0.9,
    caption: 'something was added here',
  });
  // consistent pairs are kept as the decoder wrote them
  assert.equal(reconcileKindAndCaption(sure('reflow'), 'the elements here shifted down').caption, 'the elements here shifted down');
  assert.equal(reconcileKindAndCaption(sure('remove'), 'the white card was removed').caption, 'the white card was removed');
  // every reference phrasing the crops step writes counts as reflow wording, and no other kind's does
  for (const c of reflowCaptions(0, 30)) assert.deepEqual([...captionKinds(c)], ['reflow'], c);
  assert.deepEqual([...captionKinds('the blue button moved down a long way')], ['move']);
});

test("a caption that claims another kind gives way to the best beam alternative that agrees, else the kind's wording", () => {
  const sure = (k: string) => ({ kind: k, probability: 0.9, changeKind: k, changeProbability: 0.9 });
  const beam = [
    'the white link in the nav bar is no longer visible',
    'nothing changed',
    'the white link in the nav bar moved up',
    'the link moved down',
  ];
  assert.equal(reconcileKindAndCaption(sure('move'), beam).caption, 'the white link in the nav bar moved up');
  assert.equal(reconcileKindAndCaption(sure('opacity'), beam).caption, 'the white link in the nav bar is no longer visible');
  assert.equal(reconcileKindAndCaption(sure('remove'), beam).caption, 'something was removed here');
  // wording the grammar does not know contradicts nothing: the decoder's best is kept
  assert.equal(reconcileKindAndCaption(sure('color'), ['the sky is blue', 'the button turned red']).caption, 'the sky is blue');
  // ... but a lower-ranked hypothesis must claim the kind
  assert.equal(reconcileKindAndCaption(sure('move'), ['the button turned red', 'no visible visible']).caption, 'something moved here');
  // an unsure "none" takes the best change kind, and the caption that says it
  const unsure = { kind: 'none', probability: NONE_MIN_PROBABILITY - 0.2, changeKind: 'add', changeProbability: 0.3 };
  assert.deepEqual(reconcileKindAndCaption(unsure, ['nothing changed', 'a new tab appeared']), {
    kind: 'add',
    probability: 0.3,
    caption: 'a new tab appeared',
  });
});
