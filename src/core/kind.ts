// How the change kind of each model sample is decided, and the caption that goes with it. decideKinds
// runs every step in its order (docs/API.md "Kind and caption of a region"); the models' numbers come
// in through KindSteps (the pipeline runs the ONNX sessions), and every rule applied to them is in
// this file or imported by it. The text reader has the last word afterwards, where it read the region
// (applyReading, src/core/read/pair.ts).
import { logSoftmax, softmax } from './math.js';
import { pairConsistentLogits, type PairConsistencyRule } from './pair-consistency.js';
import { captionAgreesWithKind, captionKinds } from './caption-kind.js';
import { NO_CHANGE_CAPTION } from './no-change.js';
import type { ChangeKind } from './report.js';
import type { ContractKind } from './kinds.js';

/**
 * Every sample the model sees is a region where pixelmatch found real (not anti-aliasing)
 * differences. Missing a real change costs a reviewer more than a second look at noise, so the
 * model's "none" is taken only when it is sure of it; otherwise its most probable change kind is
 * reported. Measured effect: see docs/API.md ("Kind and caption").
 */
export const NONE_MIN_PROBABILITY = 0.5;
/** Beam width of the second look at regions whose first beam has no caption agreeing with their kind. */
export const AGREEMENT_BEAM_WIDTH = 32;

/** What a region says when no caption of the beam agrees with its kind. */
const KIND_FALLBACK_CAPTION: Record<Exclude<ContractKind, 'none'>, string> = {
  move: 'something moved here',
  reorder: 'items changed places here',
  resize: 'something changed size here',
  color: 'something changed colour here',
  text: 'the text changed here',
  add: 'something was added here',
  remove: 'something was removed here',
  icon: 'an icon or picture was swapped here',
  font: 'the font changed here',
  spacing: 'the spacing changed here',
  opacity: 'something faded in or out here',
  theme: 'the theme changed',
  reflow: 'the content here shifted with the layout',
};

/** The most probable kind of a sample and its probability, and the most probable kind other than none. */
export interface KindScores {
  kind: string;
  probability: number;
  changeKind: string;
  changeProbability: number;
}

/** What the decision gives each sample. */
export interface DecidedKind {
  kind: string;
  probability: number;
  caption: string;
}

export interface KindInput {
  /** the contract's kinds, in the order of the logits */
  kinds: readonly string[];
  /** procedure_encoder's kind_logits, [samples, kinds] */
  encoderLogits: Float32Array;
  /** per sample: whether it takes part in pair consistency (the region samples; not the whole-screen one) */
  joins: boolean[];
  /** the contract's pair consistency (contractPairConsistency); undefined: off */
  pairConsistency?: PairConsistencyRule;
  /** the kind head's "none" is believed only at this probability or above (default NONE_MIN_PROBABILITY) */
  noneMinProbability?: number;
}

/** The model runs the decision reads, in the order it asks for them. */
export interface KindSteps {
  /** the kind committee's log-probabilities for the same samples [samples, members, kinds]; undefined without one */
  committee(): Promise<{ logProbs: Float32Array; members: number } | undefined>;
  /** the kind prior's kind_bias [samples, kinds] */
  kindBias(): Promise<Float32Array>;
  /** the caption decoder's hypotheses of every sample, best first */
  captions(): Promise<string[][]>;
  /** per sample: whether the text reader will write its caption, given every sample's kind and best caption */
  readerWrites(kinds: string[], captions: string[]): boolean[];
  /** a wider search for the given samples, each stopping at its first caption that claims kinds[j]
   *  (samples[j]'s kind); absent: no second search (greedy decoding) */
  widerCaptions?(samples: number[], kinds: string[]): Promise<string[][]>;
}

/**
 * The decision, step by step. Each step reads what the one before it gave, so their order is the rule:
 * the committee and the prior were fitted on log-probabilities of the head, pair consistency on the
 * fused kinds, and the "none" threshold and the captions read the kinds pair consistency gave.
 */
export async function decideKinds(input: KindInput, steps: KindSteps): Promise<DecidedKind[]> {
  const n = input.kinds.length;
  const samples = input.joins.length;
  // 1. the procedure encoder's kind logits
  let logits: Float32Array = input.encoderLogits;
  // 2. the kind committee, if shipped: the mean of its members' and the head's log-probabilities
  const committee = await steps.committee();
  if (committee) logits = committeeKindLogits(logits, committee.logProbs, samples, committee.members, n);
  // 3. the kind prior's bias from the layout context
  logits = fuseKindLogits(logits, await steps.kindBias());
  // 4. pair consistency: the regions of one pair help each other
  if (input.pairConsistency) logits = pairConsistentLogits(logits, n, input.joins, input.pairConsistency);
  // 5. the most probable kind, and the most probable change kind
  const scores = kindsFromLogits(logits, samples, input.kinds);
  // 6. "none" only when sure of it
  const kinds = scores.map((s) => decidedKind(s, input.noneMinProbability).kind);
  // 7. the captions: the first of the beam that claims the kind ...
  const captions = await steps.captions();
  // ... or of a wider beam for the regions that have none and whose caption the reader will not write
  const byReader = steps.readerWrites(
    kinds,
    captions.map((c) => c[0] ?? ''),
  );
  const unresolved = kinds
    .map((_, i) => i)
    .filter((i) => kinds[i] !== 'none' && !firstAgreeingCaption(kinds[i], captions[i]) && !byReader[i]);
  if (steps.widerCaptions && unresolved.length) {
    const wider = await steps.widerCaptions(
      unresolved,
      unresolved.map((i) => kinds[i]),
    );
    unresolved.forEach((i, j) => captions[i].push(...wider[j]));
  }
  // ... or else the kind's plain wording
  return scores.map((s, i) => reconcileKindAndCaption(s, captions[i], input.noneMinProbability));
}

/**
 * The committee rule of models/CONTRACT.md: per sample, (log_softmax(kind_logits) + the sum of the M
 * members' log-probabilities) / (1 + M). kindLogits [batch, kinds], memberLogProbs [batch, M, kinds].
 */
export function committeeKindLogits(
  kindLogits: ArrayLike<number>,
  memberLogProbs: ArrayLike<number>,
  batch: number,
  members: number,
  kinds: number,
): Float32Array {
  if (kindLogits.length !== batch * kinds || memberLogProbs.length !== batch * members * kinds) {
    throw new Error(
      `kind committee: ${kindLogits.length} kind logits and ${memberLogProbs.length} member values do not fit [${batch}, ${members}, ${kinds}]`,
    );
  }
  const out = new Float32Array(batch * kinds);
  for (let b = 0; b < batch; b++) {
    const own = logSoftmax(kindLogits, b * kinds, kinds);
    for (let i = 0; i < kinds; i++) {
      let sum = own[i];
      for (let m = 0; m < members; m++) sum += memberLogProbs[(b * members + m) * kinds + i];
      out[b * kinds + i] = sum / (1 + members);
    }
  }
  return out;
}

/** The fusion rule of models/CONTRACT.md ("Kind prior"): fused = kind_logits + kind_bias, element-wise. */
export function fuseKindLogits(kindLogits: ArrayLike<number>, kindBias: ArrayLike<number>): Float32Array {
  if (kindLogits.length !== kindBias.length) {
    throw new Error(
      `kind prior: kind_bias has ${kindBias.length} values but kind_logits has ${kindLogits.length}; they must have the same [batch, kinds] shape`,
    );
  }
  const fused = new Float32Array(kindLogits.length);
  for (let i = 0; i < fused.length; i++) fused[i] = kindLogits[i] + kindBias[i];
  return fused;
}

/** The most probable change kind of each sample and its probability, and the most probable kind other
 *  than 'none' (the decision needs it when the model is unsure that nothing changed). */
export function kindsFromLogits(logits: Float32Array, batch: number, kinds: readonly string[]): KindScores[] {
  const n = kinds.length;
  if (logits.length !== batch * n) throw new Error(`kind_logits has ${logits.length} values, expected ${batch}x${n}`);
  const noneIndex = kinds.indexOf('none');
  const result: KindScores[] = [];
  for (let b = 0; b < batch; b++) {
    const probs = softmax(logits, b * n, n);
    let best = 0;
    let bestChange = noneIndex === 0 ? 1 : 0;
    for (let i = 0; i < n; i++) {
      if (probs[i] > probs[best]) best = i;
      if (i !== noneIndex && probs[i] > probs[bestChange]) bestChange = i;
    }
    result.push({ kind: kinds[best], probability: probs[best], changeKind: kinds[bestChange], changeProbability: probs[bestChange] });
  }
  return result;
}

/**
 * The kind a sample is reported as: its most probable kind, whose "none" is believed only at
 * noneMinProbability or above; below, its best change kind.
 */
export function decidedKind(kind: KindScores, noneMinProbability = NONE_MIN_PROBABILITY): { kind: string; probability: number } {
  if (kind.kind !== 'none' || kind.probability >= noneMinProbability) return { kind: kind.kind, probability: kind.probability };
  return { kind: kind.changeKind, probability: kind.changeProbability };
}

/**
 * The first caption (best first) that agrees with `kind` (src/core/caption-kind.ts): the decoder's
 * best may also be wording the patterns do not know; a lower-ranked one must claim the kind.
 */
export function firstAgreeingCaption(kind: string, captions: readonly string[]): string | undefined {
  // a "no change" wording reads as kind none, so it never agrees with the change kinds asked for here
  return captions.find((c, rank) => (rank === 0 ? captionAgreesWithKind(c, kind) : captionKinds(c).has(kind as ChangeKind)));
}

/**
 * One verdict per sample from the kind scores and the caption decoder, which can disagree: the kind
 * decides (decidedKind; it has the layout prior, the decoder does not), and the caption is the
 * decoder's best one whose wording claims that kind, from its beam hypotheses best first; when none
 * does, the kind's plain wording. So the report never says "kind: none" next to "the button moved"
 * or "kind: move" next to "the link is no longer visible".
 */
export function reconcileKindAndCaption(
  kind: KindScores,
  captions: string | readonly string[],
  noneMinProbability = NONE_MIN_PROBABILITY,
): DecidedKind {
  const chosen = decidedKind(kind, noneMinProbability);
  if (chosen.kind === 'none') return { ...chosen, caption: NO_CHANGE_CAPTION };
  const candidates = typeof captions === 'string' ? [captions] : captions;
  const fallback = KIND_FALLBACK_CAPTION[chosen.kind as Exclude<ContractKind, 'none'>] ?? 'something changed here';
  return { ...chosen, caption: firstAgreeingCaption(chosen.kind, candidates) ?? fallback };
}
