// The kind decision of src/core/kind.ts: its steps in their order, on hand-made numbers where every
// swap of two neighbouring steps gives another answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  committeeKindLogits,
  decideKinds,
  decidedKind,
  fuseKindLogits,
  kindsFromLogits,
  reconcileKindAndCaption,
  type KindSteps,
} from '../../src/core/kind.js';
import { pairConsistentLogits } from '../../src/core/pair-consistency.js';
import { NO_CHANGE_CAPTION } from '../../src/core/no-change.js';

const KINDS = ['none', 'move', 'color'];
const K = KINDS.length;
// samples 0 and 1 are two regions of one pair (they help each other), sample 2 the whole screen
const JOINS = [true, true, false];
const RULE = { weight: 1, floor: 0.01 };
// region 0: the head says none, then colour; region 1: move; the whole screen: nothing sure
const ENCODER = Float32Array.from([3, 0, 2, 0, 3, 0, 0, 0, 0]);
const logSoftmax = (v: number[]) => {
  const lse = Math.log(v.reduce((s, x) => s + Math.exp(x), 0));
  return v.map((x) => x - lse);
};
// one committee member: region 0 leans to none, the others it cannot tell
const MEMBER = Float32Array.from([...logSoftmax([2, 0, 0]), ...logSoftmax([0, 0, 0]), ...logSoftmax([0, 0, 0])]);
// the layout says region 1 moved, and the whole screen is not a move
const BIAS = Float32Array.from([0, 0, 0, 0, 1, 0, 0, -1, 0]);
const CAPTIONS = [['no visible change', 'the red button moved down'], ['the title turned red'], ['nothing changed']];

function fakeSteps(calls: string[]): KindSteps {
  return {
    committee: async () => (calls.push('committee'), { logProbs: MEMBER, members: 1 }),
    kindBias: async () => (calls.push('kindBias'), BIAS),
    captions: async () => (calls.push('captions'), CAPTIONS.map((c) => [...c])),
    readerWrites: (kinds, best) => (calls.push(`readerWrites ${kinds.join(',')} | ${best.join(',')}`), [false, true, false]),
    widerCaptions: async (rows, kinds) => (
      calls.push(`widerCaptions ${rows.join(',')} ${kinds.join(',')}`),
      rows.map(() => ['the page turned dark blue'])
    ),
  };
}

/** The kinds the logits give after the "none" threshold. */
const kindsOf = (logits: Float32Array) => kindsFromLogits(logits, 3, KINDS).map((s) => decidedKind(s).kind);

test('decideKinds: committee, prior, pair consistency, the "none" threshold, then the captions, in that order', async () => {
  const calls: string[] = [];
  const decided = await decideKinds({ kinds: KINDS, encoderLogits: ENCODER, joins: JOINS, pairConsistency: RULE }, fakeSteps(calls));
  // region 1 is sure it moved and pulls region 0, whose "none" is no longer sure, to a move too; the
  // whole screen's "none" is not sure either: its best change kind, colour
  assert.deepEqual(
    decided.map((d) => d.kind),
    ['move', 'move', 'color'],
  );
  assert.deepEqual(
    decided.map((d) => d.caption),
    // region 0: the beam's second caption claims its kind; region 1: nothing claims a move and the
    // reader writes its caption, so no second look (the kind's plain wording until the reader's replaces
    // it); the whole screen: the wider search's caption
    ['the red button moved down', 'something moved here', 'the page turned dark blue'],
  );
  assert.deepEqual(calls, [
    'committee',
    'kindBias',
    'captions',
    'readerWrites move,move,color | no visible change,the title turned red,nothing changed',
    'widerCaptions 2 color',
  ]);

  // the same numbers with two neighbouring steps swapped give other kinds, so the order above is tested
  const committee = (z: Float32Array) => committeeKindLogits(z, MEMBER, 3, 1, K);
  const prior = (z: Float32Array) => fuseKindLogits(z, BIAS);
  const consistency = (z: Float32Array) => pairConsistentLogits(z, K, JOINS, RULE);
  assert.deepEqual(kindsOf(consistency(prior(committee(ENCODER)))), ['move', 'move', 'color'], 'the order decideKinds runs');
  assert.deepEqual(kindsOf(consistency(committee(prior(ENCODER)))), ['none', 'none', 'color'], 'the prior before the committee');
  assert.deepEqual(kindsOf(prior(consistency(committee(ENCODER)))), ['none', 'move', 'color'], 'pair consistency before the prior');
  // the threshold read before pair consistency: region 0's "none" was sure there
  const beforeConsistency = kindsFromLogits(prior(committee(ENCODER)), 3, KINDS);
  assert.equal(beforeConsistency[0].kind, 'none');
  assert.ok(beforeConsistency[0].probability >= 0.5, String(beforeConsistency[0].probability));
  // the captions matched to the kinds before the threshold: "no visible change" for region 0 and the screen
  const scores = kindsFromLogits(consistency(prior(committee(ENCODER))), 3, KINDS);
  assert.deepEqual(
    scores.map((s) => s.kind),
    ['none', 'move', 'none'],
  );
  assert.deepEqual(
    scores.map((s, i) => reconcileKindAndCaption(s, CAPTIONS[i], 0).caption),
    [NO_CHANGE_CAPTION, 'something moved here', NO_CHANGE_CAPTION],
  );
});

test('decideKinds: without a committee, pair consistency or a wider search those steps are left out', async () => {
  const calls: string[] = [];
  const steps = { ...fakeSteps(calls), committee: async () => undefined, widerCaptions: undefined };
  const decided = await decideKinds({ kinds: KINDS, encoderLogits: ENCODER, joins: JOINS }, steps);
  const expected = kindsOf(fuseKindLogits(ENCODER, BIAS));
  assert.deepEqual(
    decided.map((d) => d.kind),
    expected,
  );
  assert.deepEqual(expected, ['none', 'move', 'color']);
  // the whole screen keeps the kind's plain wording: there is no second look with greedy decoding
  assert.deepEqual(
    decided.map((d) => d.caption),
    [NO_CHANGE_CAPTION, 'something moved here', 'something changed colour here'],
  );
  assert.ok(!calls.some((c) => c.startsWith('widerCaptions')));
  // a stricter "none" threshold turns region 0's "none" into its best change kind
  const strict = await decideKinds({ kinds: KINDS, encoderLogits: ENCODER, joins: JOINS, noneMinProbability: 0.99 }, steps);
  assert.equal(strict[0].kind, 'color');
});
