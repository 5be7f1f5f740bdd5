// The caption-kind patterns (src/core/caption-kind.ts) against the data engine's own grammar: every
// phrasing the decoder can have learnt for a change of kind K must read as K, so the pipeline never
// swaps a caption that agrees with its kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { captionKinds, captionAgreesWithKind } from '../../src/core/caption-kind.js';
import {
  captionVariants,
  minimalCaption,
  positionPhrases,
  reflowCaptions,
  regionCaptions,
  summaryCaptions,
} from '../../src/data/captions.js';
import { NO_CHANGE_PHRASES } from '../../src/core/no-change.js';
import { randomFacts } from './caption-fixtures.js';
import { Rng } from '../../src/data/rng.js';
import { KINDS } from '../../src/data/screen.js';

test('every region caption of the grammar reads as its own kind, and as that kind only', () => {
  const rng = new Rng(11);
  for (const kind of KINDS) {
    for (let i = 0; i < 80; i++) {
      const f = randomFacts(rng, kind);
      for (const c of [...captionVariants(f, positionPhrases(f.box, 800, 600)), minimalCaption(f)]) {
        assert.deepEqual([...captionKinds(c)], [kind], `"${c}" (${kind})`);
      }
    }
  }
  for (const c of NO_CHANGE_PHRASES) assert.deepEqual([...captionKinds(c)], ['none'], c);
  for (const [dx, dy] of [
    [0, 30],
    [-50, 0],
    [3, -2],
  ]) {
    for (const c of reflowCaptions(dx, dy)) assert.deepEqual([...captionKinds(c)], ['reflow'], c);
  }
});

test('a summary of two or three changes reads as each of their kinds', () => {
  const rng = new Rng(5);
  const changing = KINDS.filter((k) => k !== 'none' && k !== 'theme');
  for (let i = 0; i < 300; i++) {
    const chosen = [rng.pick(changing), rng.pick(changing), ...(rng.chance(0.5) ? [rng.pick(changing)] : [])];
    const per = chosen.map((k) => regionCaptions(rng, randomFacts(rng, k), 800, 600));
    for (const s of summaryCaptions(rng, per)) {
      const kinds = captionKinds(s);
      for (const k of chosen) assert.ok(kinds.has(k), `"${s}" should read as ${k}: ${[...kinds].join(', ')}`);
    }
  }
});

test('agreement: the decided kind against what the caption says', () => {
  assert.ok(captionAgreesWithKind('the white link in the nav bar is no longer visible', 'opacity'));
  assert.ok(!captionAgreesWithKind('the white link in the nav bar is no longer visible', 'move'));
  assert.ok(!captionAgreesWithKind('the order of the menu items changed', 'remove'));
  assert.ok(captionAgreesWithKind('the blue button moved down and to the right', 'move'));
  assert.ok(!captionAgreesWithKind('nothing changed', 'color'));
  assert.ok(!captionAgreesWithKind('the content here shifted far left', 'add'));
  // wording the grammar never writes contradicts nothing
  assert.ok(captionAgreesWithKind('', 'none'));
  assert.ok(captionAgreesWithKind('zebra crossing', 'move'));
});
