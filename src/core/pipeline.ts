// describe(before, after): the whole ProCap review of one screenshot pair, as a ChangeReport.
// Pixel side (decode, diff, regions, crops) from image/diff/regions/crop.ts; model side from
// procap/*.ts over the sessions of session.ts. Kinds and captions come first (tokenizer encoder ->
// procedure encoder -> the kind decision of kind.ts, which asks for the committee, the kind prior
// and the decoder), so the first caption is ready before the slower procedure
// frames (interpolation, keyframes, imagined frames). All regions of a pair go through each
// model in one batch. Cancellation is checked between stages and between decoder steps.
import {
  readInputBytes,
  readPngHeader,
  decodePng,
  decodeMemoryBytes,
  checkPairMemory,
  imageLimitsFor,
  type RgbaImage,
  type ImageLimits,
} from './image.js';
import { DEFAULT_DIFF_THRESHOLD, diffImages } from './diff.js';
import { decodeBothElsewhere, decodeElsewhere, decodeInParallel } from './parallel-decode.js';
import { applyMasks, belowThreshold, checkThresholds, type BelowThreshold } from './masks.js';
import type { PixelRegion } from './regions.js';
import { changeRegions } from './change-regions.js';
import { cropBoxFor, extractCrop, wholeScreenCrop, wholeScreenBox, cropsToTensor, CROP_SIZE } from './crop.js';
import type { Box, ChangeKind, ChangeRegion, ChangeReport, ProcedureFrames, StageTimings } from './report.js';
import { ort, type SessionManager } from './session.js';
import { CONTEXT_SIZE, sampleContext } from './context.js';
import { contractPairConsistency } from './pair-consistency.js';
import { NO_CHANGE_CAPTION, isNoChangeCaption } from './no-change.js';
import { captionKinds } from './caption-kind.js';
import { tokenize, encodeProcedure, runKindMembers } from './procap/encode.js';
import { AGREEMENT_BEAM_WIDTH, NONE_MIN_PROBABILITY, decideKinds } from './kind.js';
import { onnxStep, greedyDecode, beamSearch, tokensToText, selectRows, type DecodedCaption } from './procap/decode.js';
import { interpolateProcedure } from './procap/interpolate.js';
import { selectKeyframes } from './procap/sample.js';
import { argmaxCodes, decodeCodes, chwToReportImage, imaginedShares } from './procap/imagine.js';
import {
  blendByGrid,
  composeFrames,
  frameBoxOf,
  fullBoxFor,
  fullFramesInput,
  motionsForKind,
  rasterToReportImage,
  type ElementMotion,
  type FullFramesInput,
} from './procap/compose.js';
import { readPair, applyReading, readerWritesAll, slotTextsOf, type PairReading } from './read/pair.js';
import { captionLead, SWAP_CAPTION } from './read/reading.js';
import { fillCaptionSlots, unreadSlots, type SlotText } from './read/slots.js';
import { DEFAULT_BEAM_WIDTH } from './defaults.js';

/** A screenshot: a PNG file path, PNG bytes, or an already decoded image. */
export type ImageSource = string | Uint8Array | RgbaImage;

export interface DescribeOptions {
  /** 1 = greedy decoding (default); > 1 = beam search of that width. */
  beamWidth?: number;
  /** the kind head's "none" is believed only at this probability or above (default NONE_MIN_PROBABILITY). */
  noneMinProbability?: number;
  /** keyframes shown in the procedure (default: the contract's k). */
  keyframes?: number;
  /** pixelmatch colour threshold 0..1 (default 0.1). */
  diffThreshold?: number;
  /** ignore regions [x0, y0, x1, y1) in pixels: their differences are cleared before regions are found. */
  masks?: Box[];
  /** fewer real differing pixels (after masking) than this: "no visible change", with the reason. */
  minDiffPixels?: number;
  /** real differing pixels under this share (0..1) of the compared area: "no visible change", with the reason. */
  minDiffRatio?: number;
  /** largest accepted image, width*height (default: image.ts's limit). */
  maxImagePixels?: number;
  /** memory budget of the pair's pixel buffers in MB, checked before decoding (default: image.ts's). */
  maxMemoryMB?: number;
  /** read the changed regions' text and explain them from it (src/core/read/); default true. */
  read?: boolean;
  /** compute the procedure frames (interpolation, keyframes, imagined frames); default true. */
  procedure?: boolean;
  /** names used in messages and in the report when the images are given as bytes. */
  beforeName?: string;
  afterName?: string;
  signal?: AbortSignal;
  /** called once, as soon as the captions exist (before the procedure frames). */
  onCaptions?: (regions: ChangeRegion[], elapsedMs: number) => void;
}

export { NO_CHANGE_CAPTION, isNoChangeCaption };

// caption decoding default: beam search of width 3, chosen on the validation split (docs/CLI.md)
export { DEFAULT_BEAM_WIDTH };
export { NONE_MIN_PROBABILITY };
/** A summary names at most this many changes and counts the rest ("and 2 more changes"): every
 *  region keeps its own caption in the report, and a summary of seven clauses is not read. */
export const MAX_SUMMARY_CLAUSES = 3;

function isRgbaImage(x: ImageSource): x is RgbaImage {
  return typeof x === 'object' && !(x instanceof Uint8Array) && 'data' in x && 'width' in x;
}

/** An input read (its bytes) and its header checked, not decoded yet. */
interface OpenedImage {
  name: string;
  path?: string;
  bytes?: Uint8Array;
  decoded?: RgbaImage;
  width: number;
  height: number;
  decodeBytes: number;
}

function openImage(source: ImageSource, name: string | undefined, fallbackName: string, limits: ImageLimits): OpenedImage {
  if (typeof source === 'string' || source instanceof Uint8Array) {
    const label = typeof source === 'string' ? source : (name ?? fallbackName);
    const bytes = typeof source === 'string' ? readInputBytes(source, limits) : source;
    const header = readPngHeader(bytes, label, limits);
    return {
      name: label,
      path: typeof source === 'string' ? source : name,
      bytes,
      width: header.width,
      height: header.height,
      decodeBytes: decodeMemoryBytes(header, bytes),
    };
  }
  if (isRgbaImage(source)) {
    return {
      name: name ?? fallbackName,
      path: name,
      decoded: source,
      width: source.width,
      height: source.height,
      decodeBytes: 4 * source.width * source.height,
    };
  }
  throw new TypeError(`${name ?? fallbackName}: expected a PNG path, PNG bytes or a decoded image`);
}

function decodeOpened(opened: OpenedImage, limits: ImageLimits): { image: RgbaImage; path?: string } {
  const image = opened.decoded ?? decodePng(opened.bytes!, opened.name, limits);
  opened.bytes = undefined; // the file's bytes are not needed any more
  return { image, path: opened.path };
}

/**
 * Pair-level summary from region captions, the rule of models/CONTRACT.md: the captions of the
 * meaningful regions (duplicates once) joined with " and "; "no visible change" when there are none.
 * A whole-screen caption, when present, is the summary; a size change is added at the end.
 */
export function composeSummary(regionCaptions: string[], globalCaption?: string, sizeChange?: string): string {
  const parts: string[] = [];
  if (globalCaption) parts.push(globalCaption);
  else {
    const distinct = [...new Set(regionCaptions.filter((c) => c))];
    parts.push(...distinct.slice(0, MAX_SUMMARY_CLAUSES));
    const rest = distinct.length - MAX_SUMMARY_CLAUSES;
    if (rest > 0) parts.push(rest === 1 ? 'one more change' : `${rest} more changes`);
  }
  if (sizeChange) parts.push(sizeChange);
  return parts.length ? parts.join(' and ') : NO_CHANGE_CAPTION;
}

/**
 * The region captions a summary is made of (models/CONTRACT.md): changed regions, except content that
 * only shifted because the layout reflowed around a change ("reflow"): the summary names the causes.
 * When reflow is all there is (the cause was too small to be detected), the first reflow caption
 * stands for them all: "the content here shifted down" six times says nothing more than once.
 */
export function summaryCaptions(
  regions: { kind: string; caption: string; noiseOnly: boolean; captionSource?: string; detail?: string }[],
): string[] {
  const changed = regions.filter((r) => !r.noiseOnly && r.kind !== 'none');
  const causes = changed.filter((r) => r.kind !== 'reflow');
  // the summary names each change; what it pushed along, or how far it measured, is the region's detail
  return mergedMoves((causes.length ? causes : changed.slice(0, 1)).map((r) => ({ ...r, caption: captionLead(r) })));
}

/** The reader's caption of a plain move of quoted lines ("'A' moved 1 px right", "'A' and 'B' moved ...",
 * "'A' and 3 more lines moved ..."), split into its lines and its shift. */
const PLAIN_MOVE =
  /^('[^']*')(?: and ('[^']*')| and (\d+) more lines)? moved (\d+ px (?:left|right|up|down)(?: and \d+ px (?:left|right|up|down))?)$/;

/**
 * The regions' captions for the summary, where lines the reader saw move by the same shift in several
 * regions are said once ("'Hello World' and 'Text input' moved 8 px down", not two clauses), and so is
 * a swap both of whose places are regions; the regions keep their own captions.
 */
function mergedMoves(regions: { kind: string; caption: string; captionSource?: string }[]): string[] {
  const groups = new Map<string, { first: string; second?: string; lines: number }>();
  const out: (string | { shift: string })[] = [];
  const swaps = new Set<string>();
  for (const r of regions) {
    // the two places of one swap are two regions that each say it: the summary says it once
    // (so are two unread elements that swapped: each region leads with the same words)
    const swap = SWAP_CAPTION.exec(r.caption);
    if (swap || r.kind === 'reorder') {
      const key = swap ? [swap[1], swap[2]].sort().join('\n') : r.caption;
      if (swaps.has(key)) continue;
      swaps.add(key);
    }
    const m = r.captionSource === 'reader' ? PLAIN_MOVE.exec(r.caption) : null;
    if (!m) {
      out.push(r.caption);
      continue;
    }
    const lines = m[2] ? 2 : m[3] ? Number(m[3]) + 1 : 1;
    const group = groups.get(m[4]);
    if (group) {
      if (group.lines === 1 && lines === 1) group.second = m[1];
      group.lines += lines;
    } else {
      groups.set(m[4], { first: m[1], second: m[2], lines });
      out.push({ shift: m[4] });
    }
  }
  return out.map((c) => {
    if (typeof c === 'string') return c;
    const g = groups.get(c.shift)!;
    const who =
      g.lines === 1 ? g.first : g.lines === 2 && g.second ? `${g.first} and ${g.second}` : `${g.first} and ${g.lines - 1} more lines`;
    return `${who} moved ${c.shift}`;
  });
}

interface ModelSample {
  /** the region box (the common area for the whole-screen sample): the kind prior's layout context. */
  box: Box;
  cropBox: Box;
  wholeScreen: boolean;
  before: Uint8Array;
  after: Uint8Array;
}

/**
 * The layout-context features of every model sample, [samples.length, CONTEXT_SIZE], grouped as
 * `npm run context` grouped the kind prior's training rows (src/lab/context.ts over crops.jsonl):
 * the whole-screen sample was the only sample of its pair there, so it is its own group here, and
 * the region samples are a group of their own; width x height is the larger of the two images.
 */
export function sampleContexts(
  before: RgbaImage,
  after: RgbaImage,
  samples: { box: Box; cropBox: Box; wholeScreen: boolean }[],
): Float32Array {
  const width = Math.max(before.width, after.width);
  const height = Math.max(before.height, after.height);
  const out = new Float32Array(samples.length * CONTEXT_SIZE);
  const regions = samples.filter((s) => !s.wholeScreen);
  samples.forEach((sample, i) => {
    const group = sample.wholeScreen ? [sample] : regions;
    const features = sampleContext(
      before,
      after,
      group.map((s) => s.box),
      group.map((s) => s.cropBox),
      group.indexOf(sample),
      width,
      height,
    );
    out.set(features, i * CONTEXT_SIZE);
  });
  return out;
}

/** Runs the kind prior on a batch of layout contexts: its kind_bias, [batch, kinds]. */
export async function kindPriorBias(session: ort.InferenceSession, contexts: Float32Array, batch: number): Promise<Float32Array> {
  if (contexts.length !== batch * CONTEXT_SIZE) {
    throw new Error(`kind prior: ${contexts.length} context values, expected ${batch}x${CONTEXT_SIZE}`);
  }
  const out = await session.run({ context: new ort.Tensor('float32', contexts, [batch, CONTEXT_SIZE]) });
  return out.kind_bias.data as Float32Array;
}

interface ModelResult {
  kind: string;
  probability: number;
  caption: string;
}

/** The models' verdicts on a pair's samples, and how to imagine their procedure afterwards. */
interface ModelRun {
  results: ModelResult[];
  /** the procedure frames of every sample, in the samples' order */
  procedure: (
    checkpoint: () => void,
    timings: StageTimings,
    keyframes: number | undefined,
    full: (FullSample | undefined)[],
  ) => Promise<ProcedureFrames[]>;
}

/** What the full-resolution frames of one model sample need: the two crops of its box, its
 * correspondences, and the model crop's box (where the imagined frames are drawn). */
interface FullSample {
  input: FullFramesInput;
  cropBox: Box;
}

/** Per model sample, the text the reader read there for the decoder's slot tokens (the region samples
 * come first, in the reading's order; the whole-screen sample has none). */
function slotTextsFor(samples: ModelSample[], reading: PairReading | undefined): (SlotText | undefined)[] {
  const texts = reading ? slotTextsOf(reading) : [];
  return samples.map((s, i) => (s.wholeScreen ? undefined : texts[i]));
}

/** Runs the ProCap models on a batch of crop pairs. */
async function runModels(
  sessions: SessionManager,
  samples: ModelSample[],
  contexts: Float32Array,
  options: DescribeOptions,
  timings: StageTimings,
  checkpoint: () => void,
  onCaptions: (results: ModelResult[]) => void,
  /** per sample, given every sample's kind: whether the text reader will write its caption */
  readerWillCaption: (kinds: string[], captions: string[]) => boolean[] = (kinds) => kinds.map(() => false),
  /** per sample: the text the reader read there, for the decoder's slot tokens (none: no slots) */
  slotTexts: (SlotText | undefined)[] = [],
): Promise<ModelRun> {
  const c = sessions.contract;
  const R = samples.length;
  const size = CROP_SIZE;
  const plane = 3 * size * size;
  const beforeTensor = cropsToTensor(samples.map((s) => s.before));
  const afterTensor = cropsToTensor(samples.map((s) => s.after));

  // encoders: both ends of every sample through the tokenizer in one batch
  let t = performance.now();
  const tokenizer = await sessions.get('tokenizer_encoder');
  checkpoint();
  const both = new Float32Array(2 * R * plane);
  both.set(beforeTensor, 0);
  both.set(afterTensor, R * plane);
  const ends = await tokenize(tokenizer, both, 2 * R, size);
  const featSize = c.n_I * c.feat_dim;
  const beforeFeatures = ends.features.subarray(0, R * featSize);
  const afterFeatures = ends.features.subarray(R * featSize, 2 * R * featSize);
  checkpoint();
  const procedureEncoder = await sessions.get('procedure_encoder');
  const encoded = await encodeProcedure(
    procedureEncoder,
    beforeFeatures,
    afterFeatures,
    beforeTensor,
    afterTensor,
    contexts,
    R,
    c.n_I,
    c.feat_dim,
    size,
  );
  checkpoint();
  // the kind of every sample (src/core/kind.ts), and its caption: the steps ask for the model runs here
  const settings = {
    bos: sessions.vocab.bos,
    eos: sessions.vocab.eos,
    maxTokens: c.max_caption_tokens - 1,
    layers: c.decoder_layers,
    dModel: c.d_model,
    checkpoint,
    // a slot token is written only where the reader read the text it stands for
    banned: samples.map((_, i) => unreadSlots(sessions.vocab, slotTexts[i])),
  };
  const width = options.beamWidth ?? DEFAULT_BEAM_WIDTH;
  let step: ReturnType<typeof onnxStep> | undefined;
  const texts = (d: DecodedCaption) => [d, ...(d.alternatives ?? [])].map((h) => tokensToText(h.tokens, sessions.vocab));
  const results: ModelResult[] = await decideKinds(
    {
      kinds: c.kinds,
      encoderLogits: encoded.kindLogits,
      joins: samples.map((s) => !s.wholeScreen),
      pairConsistency: contractPairConsistency(c),
      noneMinProbability: options.noneMinProbability,
    },
    {
      committee: async () => {
        const members = await sessions.kindMembers();
        if (!members) return undefined;
        const voted = await runKindMembers(
          members,
          beforeFeatures,
          afterFeatures,
          beforeTensor,
          afterTensor,
          contexts,
          R,
          c.n_I,
          c.feat_dim,
          size,
        );
        checkpoint();
        return voted;
      },
      kindBias: async () => kindPriorBias(await sessions.get('kind_prior'), contexts, R),
      captions: async () => {
        timings.encodeMs += performance.now() - t;
        checkpoint();
        t = performance.now();
        step = onnxStep(await sessions.get('decoder_step'));
        const decoded =
          width > 1 ? await beamSearch(step, encoded.memory, R, width, settings) : await greedyDecode(step, encoded.memory, R, settings);
        return decoded.map(texts);
      },
      readerWrites: readerWillCaption,
      // (for those the text reader will caption, the decoder's wording is not used: no second look)
      ...(width > 1
        ? {
            widerCaptions: async (rows: number[], kinds: string[]) => {
              checkpoint();
              const wider = await beamSearch(step!, selectRows(encoded.memory, rows), rows.length, AGREEMENT_BEAM_WIDTH, {
                ...settings,
                banned: rows.map((i) => settings.banned[i]),
                // the first caption that claims the region's kind is the one wanted: the search stops there
                accept: (j: number, tokens: readonly number[]) =>
                  captionKinds(tokensToText([...tokens], sessions.vocab)).has(kinds[j] as ChangeKind),
              });
              return wider.map(texts);
            },
          }
        : {}),
    },
  );
  timings.decodeCaptionMs += performance.now() - t;
  onCaptions(results);
  checkpoint();
  const endFeatures = ends.features;
  const endCodes = ends.codes;
  const queryCodeLogits = encoded.queryCodeLogits;
  return {
    results,
    // only the tensors the frames need are kept (a few hundred KB per region), not the screenshots
    procedure: (later, timed, keyframes, full) =>
      procedureFrames(sessions, beforeTensor, afterTensor, endFeatures, endCodes, queryCodeLogits, R, later, timed, keyframes, full),
  };
}

/**
 * The imagined procedure of every sample: 7 interpolated frames, their confidence scores and the
 * sampled keyframes, and the k frames decoded from the procedure queries. Run after the report,
 * only when something shows or exports the frames.
 */
async function procedureFrames(
  sessions: SessionManager,
  beforeTensor: Float32Array,
  afterTensor: Float32Array,
  endFeatures: Float32Array,
  endCodes: BigInt64Array,
  queryCodeLogits: Float32Array,
  R: number,
  checkpoint: () => void,
  timings: StageTimings,
  keyframes: number | undefined,
  full: (FullSample | undefined)[],
): Promise<ProcedureFrames[]> {
  const c = sessions.contract;
  const size = CROP_SIZE;
  const plane = 3 * size * size;
  const featSize = c.n_I * c.feat_dim;
  // procedure: 7 interpolated frames, their features, confidence scores and keyframes
  let t = performance.now();
  const interpolator = await sessions.get('interpolator');
  const frames = await interpolateProcedure(interpolator, beforeTensor, afterTensor, R, size, checkpoint);
  timings.interpolateMs += performance.now() - t;
  checkpoint();
  t = performance.now();
  const tokenizer = await sessions.get('tokenizer_encoder');
  const middle = new Float32Array(7 * R * plane);
  for (let f = 1; f <= 7; f++) middle.set(frames[f], (f - 1) * R * plane);
  const middleTokens = await tokenize(tokenizer, middle, 7 * R, size);
  timings.encodeMs += performance.now() - t;
  checkpoint();

  // imagined frames: argmax codes at the k*n_I query positions -> tokenizer decoder
  t = performance.now();
  const k = c.k;
  const codes = argmaxCodes(queryCodeLogits, R, k * c.n_I, c.codebook_size);
  const tokenizerDecoder = await sessions.get('tokenizer_decoder');
  const imagined = await decodeCodes(tokenizerDecoder, codes, R * k, c.n_I);
  // the two ends as the tokenizer decoder draws them: what the imagined frames are read against
  const ends = full.some((f) => f) ? await decodeCodes(tokenizerDecoder, endCodes, 2 * R, c.n_I) : undefined;
  const patch = size / Math.round(Math.sqrt(c.n_I));
  const shownKeyframes = Math.min(7, Math.max(0, keyframes ?? k));
  const out: ProcedureFrames[] = [];
  for (let i = 0; i < R; i++) {
    const frameFeatures = [
      { data: endFeatures, offset: i * featSize },
      ...Array.from({ length: 7 }, (_, f) => ({ data: middleTokens.features, offset: (f * R + i) * featSize })),
      { data: endFeatures, offset: (R + i) * featSize },
    ];
    const selection = selectKeyframes(frameFeatures, c.n_I, c.feat_dim, shownKeyframes);
    const f = full[i];
    out.push({
      frames: frames.map((stack) => chwToReportImage(stack, i * plane, size, size)),
      scores: selection.scores,
      keyframes: selection.keyframes,
      imagined: Array.from({ length: k }, (_, j) => chwToReportImage(imagined, (i * k + j) * plane, size, size)),
      ...(f && ends ? { full: fullFrames(f, imagined, ends, i, k, R, size, patch) } : {}),
    });
    checkpoint();
  }
  timings.imagineMs += performance.now() - t;
  return out;
}

/**
 * The full-resolution frames of sample i (procap/compose.ts), and its imagined frames drawn over the
 * before image at the model crop's place: each imagined frame read, per code-sized patch, as the
 * share of the way from the decoded before to the decoded after (imaginedShares), and that share of
 * the real change shown there.
 */
function fullFrames(
  f: FullSample,
  imagined: Float32Array,
  ends: Float32Array,
  i: number,
  k: number,
  R: number,
  size: number,
  patch: number,
): NonNullable<ProcedureFrames['full']> {
  const plane = 3 * size * size;
  const { input } = f;
  const area = frameBoxOf(f.cropBox, input.box, input.scale);
  const shares = Array.from({ length: k }, (_, j) =>
    imaginedShares(imagined, (i * k + j) * plane, ends, i * plane, ends, (R + i) * plane, size, patch),
  );
  return {
    box: input.box,
    scale: input.scale,
    frames: composeFrames(input).map(rasterToReportImage),
    imagined: shares.map((s) => rasterToReportImage(blendByGrid(input.before, input.after, s.grid, s.side, s.side, area))),
    imaginedShare: shares.map((s) => s.share),
  };
}

function zeroTimings(): StageTimings {
  return { decodeMs: 0, diffMs: 0, regionsMs: 0, readMs: 0, interpolateMs: 0, encodeMs: 0, decodeCaptionMs: 0, imagineMs: 0, totalMs: 0 };
}

function asKind(kind: string): ChangeKind {
  return kind as ChangeKind;
}

/**
 * Describes one screenshot pair, with the procedure frames unless `options.procedure` is false.
 * Throws ImageInputError for bad images, ModelLoadError for bad models.
 */
export async function describe(
  sessions: SessionManager,
  before: ImageSource,
  after: ImageSource,
  options: DescribeOptions = {},
): Promise<ChangeReport> {
  // (without the procedure, no crops are kept for the full-resolution frames)
  const described = await reviewPair(sessions, before, after, options, options.procedure !== false);
  return options.procedure === false ? described.report : described.withProcedure(options.signal);
}

/** A described pair whose procedure frames are imagined only when something asks for them. */
export interface Review {
  /** captions, kinds, boxes and summary; no procedure frames */
  report: ChangeReport;
  /**
   * The report with every changed region's procedure frames (interpolated frames, keyframes,
   * imagined frames). Computed on the first call; later calls share it (a cancelled one is retried).
   */
  withProcedure(signal?: AbortSignal): Promise<ChangeReport>;
}

/**
 * The report of one screenshot pair, without the procedure frames (`options.procedure` is not
 * read); `withProcedure()` adds them. Throws as describe() does.
 */
export async function review(
  sessions: SessionManager,
  before: ImageSource,
  after: ImageSource,
  options: DescribeOptions = {},
): Promise<Review> {
  return reviewPair(sessions, before, after, options, true);
}

/** review(), keeping the crops of the full-resolution frames only when `keepFull` (they may be asked for). */
async function reviewPair(
  sessions: SessionManager,
  before: ImageSource,
  after: ImageSource,
  options: DescribeOptions,
  keepFull: boolean,
): Promise<Review> {
  const started = performance.now();
  const timings = zeroTimings();
  const checkpoint = () => options.signal?.throwIfAborted();
  // between the synchronous pixel stages, give the event loop a turn so that a cancel message
  // (the worker's AbortController) is seen before the next stage starts
  const pause = async () => {
    if (options.signal) await new Promise<void>((resolve) => setImmediate(resolve));
    checkpoint();
  };
  checkpoint();
  if (options.beamWidth !== undefined && (!Number.isInteger(options.beamWidth) || options.beamWidth < 1 || options.beamWidth > 16)) {
    throw new RangeError(`beamWidth must be an integer from 1 to 16 (got ${options.beamWidth})`);
  }
  checkThresholds(options);
  const limits = imageLimitsFor(options);

  let t = performance.now();
  // both headers first: the pair's memory is estimated and checked before any pixel memory exists
  const openedBefore = openImage(before, options.beforeName, 'before image', limits);
  const openedAfter = openImage(after, options.afterName, 'after image', limits);
  const fileBytes = (o: OpenedImage) => o.bytes?.length ?? 0;
  checkPairMemory({ ...openedBefore, fileBytes: fileBytes(openedBefore) }, { ...openedAfter, fileBytes: fileBytes(openedAfter) }, limits);
  let a: { image: RgbaImage; path?: string };
  let b: { image: RgbaImage; path?: string };
  const pairInput = (o: OpenedImage) => ({ ...o, fileBytes: fileBytes(o) });
  const reading = options.read !== false;
  let preload: ReturnType<SessionManager['preload']> | undefined;
  if (
    openedBefore.bytes &&
    openedAfter.bytes &&
    sessions.cold &&
    decodeBothElsewhere(pairInput(openedBefore), pairInput(openedAfter), limits)
  ) {
    // a cold start: both images decode on the decode thread while this one loads the models (each
    // takes about as long); a file that did not decode there is decoded here, which gives its error
    const elsewhere = [
      decodeElsewhere(openedBefore.bytes, openedBefore.name, limits),
      decodeElsewhere(openedAfter.bytes, openedAfter.name, limits),
    ];
    preload = sessions.preload(reading);
    const [first, second] = await Promise.all(elsewhere);
    a = first ? { image: first, path: openedBefore.path } : decodeOpened(openedBefore, limits);
    openedBefore.bytes = undefined;
    b = second ? { image: second, path: openedAfter.path } : decodeOpened(openedAfter, limits);
    openedAfter.bytes = undefined;
    timings.decodeMs = performance.now() - t;
    await pause();
  } else if (openedBefore.bytes && openedAfter.bytes && decodeInParallel(pairInput(openedBefore), pairInput(openedAfter), limits)) {
    // large images: the after image on the decode thread while this one decodes the before image
    const elsewhere = decodeElsewhere(openedAfter.bytes, openedAfter.name, limits);
    a = decodeOpened(openedBefore, limits);
    const decoded = await elsewhere;
    b = decoded ? { image: decoded, path: openedAfter.path } : decodeOpened(openedAfter, limits);
    openedAfter.bytes = undefined;
    timings.decodeMs = performance.now() - t;
    await pause();
  } else {
    a = decodeOpened(openedBefore, limits);
    timings.decodeMs = performance.now() - t;
    await pause();
    t = performance.now();
    b = decodeOpened(openedAfter, limits);
    timings.decodeMs += performance.now() - t;
    await pause();
  }

  t = performance.now();
  const diff = diffImages(a.image, b.image, { threshold: options.diffThreshold });
  // masked pixels are not differences: cleared before regions are found
  const masked = applyMasks(diff, options.masks ?? []);
  const under: BelowThreshold | undefined = belowThreshold(diff.diffPixels, diff.width * diff.height, options);
  timings.diffMs = performance.now() - t;
  await pause();

  t = performance.now();
  // a region that is only its own pixels moved by one pixel or its own content re-rendered is noise
  // (src/core/jitter.ts, src/core/rerender.ts)
  // a rigid shift of a block by one pixel is a move a reviewer wants to hear about when the text
  // reader can say what moved; without the reader it stays noise, as the models were trained
  // a visible recolour the default diff threshold hid is a change (src/core/faint-recolour.ts); a
  // looser threshold than the default says colour shifts under it do not count, and is obeyed
  const found = changeRegions(diff, a.image, b.image, {
    noise: reading ? { jitter: { maxShift: 0 } } : {},
    faintRecolours: (options.diffThreshold ?? DEFAULT_DIFF_THRESHOLD) <= DEFAULT_DIFF_THRESHOLD,
  });
  // under the thresholds no region is a change: nothing is read, captioned or boxed
  const analysis = under ? { ...found, regions: [], coverage: 0, wholeScreen: false } : found;
  timings.regionsMs = performance.now() - t;
  // nothing to read or caption: the models still loading are not waited for
  if (!analysis.regions.some((r) => !r.noiseOnly)) preload?.stop();
  await pause();

  let pairReading: PairReading | undefined;
  if (reading) {
    t = performance.now();
    pairReading = await readPair(
      sessions.textReader,
      a.image,
      b.image,
      analysis.regions.filter((r) => !r.noiseOnly).map((r) => r.box),
      checkpoint,
    );
    timings.readMs = performance.now() - t;
    await pause();
  }

  // model samples: every meaningful region, plus the whole screen when the change is global
  const meaningful = analysis.regions.filter((r) => !r.noiseOnly);
  const samples: ModelSample[] = meaningful.map((r) => {
    const cropBox = cropBoxFor(r.box, diff.width, diff.height);
    return { box: r.box, cropBox, wholeScreen: false, before: extractCrop(a.image, cropBox), after: extractCrop(b.image, cropBox) };
  });
  if (analysis.wholeScreen) {
    const screen = wholeScreenBox(diff.width, diff.height);
    samples.push({
      box: screen,
      cropBox: screen,
      wholeScreen: true,
      before: wholeScreenCrop(a.image, diff.width, diff.height),
      after: wholeScreenCrop(b.image, diff.width, diff.height),
    });
  }

  const toRegion = (r: PixelRegion, id: number, result?: ModelResult, cropBox?: Box): ChangeRegion => {
    if (!result) {
      const total = r.diffPixels + r.aaPixels + r.faintPixels;
      return {
        id,
        boxBefore: r.box,
        boxAfter: r.box,
        kind: 'none',
        caption: NO_CHANGE_CAPTION,
        confidence: total ? (r.aaPixels + r.faintPixels) / total : 1,
        diffPixels: r.diffPixels,
        noiseOnly: true,
        cropBox: cropBoxFor(r.box, diff.width, diff.height),
      };
    }
    return {
      id,
      boxBefore: r.box,
      boxAfter: r.box,
      kind: asKind(result.kind),
      caption: result.caption || NO_CHANGE_CAPTION,
      confidence: result.probability,
      diffPixels: r.diffPixels,
      noiseOnly: false,
      cropBox: cropBox ?? r.box,
    };
  };
  const buildRegions = (results: ModelResult[]): { regions: ChangeRegion[]; global?: ChangeRegion } => {
    const regions: ChangeRegion[] = [];
    meaningful.forEach((r, i) => regions.push(toRegion(r, i + 1, results[i], samples[i].cropBox)));
    if (pairReading) applyReading(regions, pairReading);
    // slot tokens the reading did not fill (nothing read there, or reading off) are said without text
    // (only in the decoder's captions: a reader caption may quote "<old>" read on a screenshot of code)
    for (const r of regions) if (r.captionSource !== 'reader') r.caption = fillCaptionSlots(r.caption, {});
    analysis.regions.filter((r) => r.noiseOnly).forEach((r) => regions.push(toRegion(r, regions.length + 1)));
    if (!analysis.wholeScreen) return { regions };
    const result = results[results.length - 1];
    const box = wholeScreenBox(diff.width, diff.height);
    const global: ChangeRegion = {
      id: 0,
      boxBefore: box,
      boxAfter: box,
      kind: asKind(result.kind),
      caption: fillCaptionSlots(result.caption, {}) || NO_CHANGE_CAPTION,
      confidence: result.probability,
      diffPixels: meaningful.reduce((s, r) => s + r.diffPixels, 0),
      noiseOnly: false,
      cropBox: box,
    };
    return { regions, global };
  };

  let results: ModelResult[] = [];
  let run: ModelRun | undefined;
  if (samples.length) {
    // the kind prior's inputs; counted with the encoders, whose kind head it corrects
    t = performance.now();
    const contexts = sampleContexts(a.image, b.image, samples);
    timings.encodeMs += performance.now() - t;
    await pause();
    run = await runModels(
      sessions,
      samples,
      contexts,
      options,
      timings,
      checkpoint,
      (captioned) => {
        if (options.onCaptions) {
          const early = buildRegions(captioned);
          options.onCaptions(early.global ? [...early.regions, early.global] : early.regions, performance.now() - started);
        }
      },
      (kinds, captions) => {
        // the region samples come first, in the reading's order; the whole-screen one (last) is the models'
        const regionKinds = kinds.filter((_, i) => !samples[i].wholeScreen);
        const regionCaptions = captions.filter((_, i) => !samples[i].wholeScreen);
        const written = pairReading ? readerWritesAll(pairReading, regionKinds, regionCaptions) : regionKinds.map(() => false);
        return kinds.map((_, i) => !samples[i].wholeScreen && written[i]);
      },
      slotTextsFor(samples, pairReading),
    );
    results = run.results;
  } else {
    options.onCaptions?.(buildRegions([]).regions, performance.now() - started);
  }
  const { regions, global } = buildRegions(results);
  // the full frames' inputs: crops of each sample's box (never the screenshots), kept for later
  const full =
    keepFull && run && !analysis.sizeChange && a.image.width === b.image.width && a.image.height === b.image.height
      ? fullSamples(a.image, b.image, samples, regions, pairReading, global?.kind)
      : [];

  // models/CONTRACT.md "Summary caption of a pair": when the whole-screen rule fires the pair is
  // summarised by the whole-screen sample alone; otherwise by its meaningful regions
  // ... unless the text reader explained regions by what they say or where their content went: a
  // whole-screen caption ("the layout changed") says less than "'Deploy' moved 16 px left"
  // A theme is the exception: a palette changed across the screen, and what the reader finds in
  // regions (words recoloured, marks gone on the new background) are its consequences
  const readExplained = regions.some((r) => r.captionSource === 'reader' && r.kind !== 'color');
  const wholeScreen = global && (!readExplained || global.kind === 'theme') ? global : undefined;
  const meaningfulCaptions = wholeScreen ? [] : summaryCaptions(regions);
  const globalCaption = wholeScreen && wholeScreen.kind !== 'none' ? wholeScreen.caption : undefined;
  const summary = composeSummary(meaningfulCaptions, globalCaption, analysis.sizeChange);
  timings.totalMs = performance.now() - started;
  const report: ChangeReport = {
    before: { path: a.path, width: a.image.width, height: a.image.height },
    after: { path: b.path, width: b.image.width, height: b.image.height },
    summary,
    changed: meaningfulCaptions.length > 0 || globalCaption !== undefined || analysis.sizeChange !== undefined,
    ...(analysis.sizeChange ? { sizeChange: analysis.sizeChange } : {}),
    masked,
    ...(under ? { belowThreshold: under } : {}),
    regions,
    // a whole-screen verdict the reader's explanation replaced is not reported beside it
    ...(wholeScreen ? { global: wholeScreen } : {}),
    provider: sessions.provider,
    providerReason: sessions.providerReason,
    timings,
    modelVersion: sessions.modelVersion,
  };
  return { report, withProcedure: procedureLater(report, run, meaningful.length, options.keyframes, full) };
}

/**
 * Per model sample, the crops and correspondences of its full frames: a region's box with the boxes
 * of the regions its change pushed along (their content slides in the same frames), and the whole
 * screen for the whole-screen sample with every region's correspondences.
 */
function fullSamples(
  before: RgbaImage,
  after: RgbaImage,
  samples: ModelSample[],
  regions: ChangeRegion[],
  reading: PairReading | undefined,
  globalKind: ChangeKind | undefined,
): (FullSample | undefined)[] {
  const { width, height } = before;
  const kindOf = (id: number) => regions.find((r) => r.id === id)?.kind;
  const elementsOf = (id: number): ElementMotion[] => motionsForKind(kindOf(id), reading?.elements?.[id - 1] ?? []);
  const regionSamples = samples.filter((s) => !s.wholeScreen).length;
  return samples.map((s, i) => {
    if (s.wholeScreen) {
      const elements = motionsForKind(globalKind, Array.from({ length: regionSamples }, (_, j) => elementsOf(j + 1)).flat());
      const box: Box = [0, 0, width, height];
      return { input: fullFramesInput(before, after, box, elements), cropBox: s.cropBox };
    }
    const id = i + 1;
    const region = regions.find((r) => r.id === id);
    if (!region) return undefined;
    const pushed = regions.filter((r) => r.pushedBy === id && r.id <= regionSamples);
    const elements = [...elementsOf(id), ...pushed.flatMap((r) => elementsOf(r.id))];
    const boxes = [region.boxBefore, region.boxAfter, ...pushed.flatMap((r) => [r.boxBefore, r.boxAfter])];
    const box = fullBoxFor(boxes, elements, width, height);
    return { input: fullFramesInput(before, after, box, elements), cropBox: s.cropBox };
  });
}

/**
 * report.withProcedure: the frames of sample i go to the region with id i + 1 (the meaningful regions
 * come first, in the samples' order) and the whole-screen sample's, when there is one, to `global`.
 * A function of its own so that what it keeps alive is the report and the models' tensors, never the
 * decoded screenshots or the diff.
 */
function procedureLater(
  report: ChangeReport,
  run: ModelRun | undefined,
  regionSamples: number,
  keyframes: number | undefined,
  full: (FullSample | undefined)[],
): Review['withProcedure'] {
  let pending: Promise<ChangeReport> | undefined;
  const compute = async (signal: AbortSignal | undefined): Promise<ChangeReport> => {
    if (!run) return report;
    const started = performance.now();
    const timings = { ...report.timings };
    const frames = await run.procedure(() => signal?.throwIfAborted(), timings, keyframes, full);
    const framed = (r: ChangeRegion): ChangeRegion =>
      !r.noiseOnly && r.id >= 1 && r.id <= regionSamples ? { ...r, procedure: frames[r.id - 1] } : r;
    timings.totalMs += performance.now() - started;
    return {
      ...report,
      regions: report.regions.map(framed),
      ...(report.global && frames.length > regionSamples ? { global: { ...report.global, procedure: frames[regionSamples] } } : {}),
      timings,
    };
  };
  return (signal) => {
    pending ??= compute(signal).catch((e: unknown) => {
      pending = undefined;
      throw e;
    });
    return pending;
  };
}
