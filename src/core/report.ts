// The typed result of describing one before/after pair. Shared by the CLI, the tests,
// the extension host and (as plain JSON) the webview. Plain data only: it crosses
// worker-thread and webview boundaries by structured clone / JSON.

import type { ContractKind } from './kinds.js';

/** [x0, y0, x1, y1), pixels of the image it refers to, x1/y1 exclusive. */
export type Box = [number, number, number, number];

/** A region's kind: one of the contract's (src/core/kinds.ts); 'size' names a pair whose screenshot changed size. */
export type ChangeKind = ContractKind | 'size';

/** A small RGBA picture carried in the report (frames, crops). PNG bytes, base64. */
export interface ReportImage {
  width: number;
  height: number;
  pngBase64: string;
}

export interface ProcedureFrames {
  /** before, 7 interpolated frames, after (9 in all), at the frame size the runtime used. */
  frames: ReportImage[];
  /** confidence weight w of each of the 7 intermediate frames (index 0 = frame 1). */
  scores: number[];
  /** indices into `frames` (1..7) of the k sampled keyframes, in time order. */
  keyframes: number[];
  /** k imagined frames decoded from the procedure queries' predicted codes. */
  imagined: ReportImage[];
  /**
   * The procedure at the screenshot's resolution over the region's box with some context (the whole
   * screen for the whole-screen sample), composed from the element correspondences the text reader
   * measured (src/core/procap/compose.ts). Absent when the two screenshots differ in size.
   */
  full?: {
    /** [x0, y0, x1, y1) in image pixels, the same place in both images. */
    box: Box;
    /** frame pixels per image pixel: 1, or less when the box's longer side is over 640 px. */
    scale: number;
    /** before, 7 frames at the same time steps as `frames`, after (9 in all). */
    frames: ReportImage[];
    /** the k imagined frames drawn over the before image at the model crop's place (the share of the
     * change each code-sized patch of the imagined frame shows, applied to the real before and after). */
    imagined?: ReportImage[];
    /** per imagined frame: the share (0..1) of the way from before to after it shows over the crop. */
    imaginedShare?: number[];
  };
}

export interface ChangeRegion {
  id: number;
  /** box in the before image and in the after image (the same when nothing moved). */
  boxBefore: Box;
  boxAfter: Box;
  kind: ChangeKind;
  caption: string;
  /** 0..1: the model's probability of `kind` (for 'none' from the pixel analysis too). */
  confidence: number;
  /** number of differing pixels (pixelmatch, anti-aliasing excluded) in the region. */
  diffPixels: number;
  /** true when the only differences are anti-aliasing / sub-pixel noise. */
  noiseOnly: boolean;
  /** the square crop that was fed to the model, in image pixels. */
  cropBox: Box;
  procedure?: ProcedureFrames;
  /** the words the text reader read where text was re-worded, added or removed (src/core/read/). */
  text?: { before?: string; after?: string };
  /** who wrote the caption: the text reader from what it read and matched, or the ProCap decoder. */
  captionSource?: 'reader' | 'model';
  /** id of the region whose change pushed this region's content along (this region is its consequence). */
  pushedBy?: number;
  /** the caption's last clause, after "; ", where it adds what the reader measured beside the change
   * itself (the content it pushed along, how far it moved): the pair's summary leaves it out. */
  detail?: string;
}

export interface StageTimings {
  decodeMs: number;
  diffMs: number;
  regionsMs: number;
  /** the text reader: detection and recognition of the changed regions' text, matching, shifts. */
  readMs: number;
  interpolateMs: number;
  encodeMs: number;
  decodeCaptionMs: number;
  imagineMs: number;
  totalMs: number;
}

export interface ChangeReport {
  before: { path?: string; width: number; height: number };
  after: { path?: string; width: number; height: number };
  /** one sentence over all regions, or "no visible change". */
  summary: string;
  /** true when at least one region is a meaningful (non-noise) change, or the size changed. */
  changed: boolean;
  /** set when the two images differ in size: e.g. "the screenshot grew 66 px taller". */
  sizeChange?: string;
  /** the ignore regions applied, clipped to the compared area ([] when none): their pixels were not compared. */
  masked: Box[];
  /** set when the pair's differences were under minDiffPixels / minDiffRatio: it reads "no visible change". */
  belowThreshold?: { diffPixels: number; ratio: number; reason: string };
  regions: ChangeRegion[];
  /** the whole-screen pass, when the change is global (theme, font everywhere). */
  global?: ChangeRegion;
  provider: 'cuda' | 'cpu';
  /** why this provider runs, e.g. "cuda requested but failed to load: ...; fell back to cpu". */
  providerReason: string;
  timings: StageTimings;
  modelVersion: string;
}
