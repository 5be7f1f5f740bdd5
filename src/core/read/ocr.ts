// Text reading: PaddleOCR PP-OCRv4 text detection (DB) and recognition (CTC) run by onnxruntime,
// from the ONNX files of the npm package models/contract.json "ocr" names. The image preparation
// (resize, normalise) and the post-processing (text boxes from the probability map, CTC decoding)
// are ours; the contract section says what each model takes and gives.
//
// UI text is small (11-14 px at 1x), smaller than most of what the detector was trained on, so an
// area is read at `scale` (2 by default) and the boxes are mapped back.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import contract from '../../../models/contract.json' with { type: 'json' };
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import ort from 'onnxruntime-node';
import { cpuSessionOptions } from '../session-options.js';
import { createCpuSession } from '../model-cache.js';
import { clipTo } from './box.js';
import { commonBorderColour } from './colour.js';

export const OCR = contract.ocr;
const DET_MEAN = [0.406, 0.456, 0.485];
const DET_STD = [0.225, 0.224, 0.229];
const REC_HEIGHT = OCR.recognizer.height;

/** One line of text as read: its box in image pixels, the text, and the mean probability of its characters. */
export interface TextLine {
  box: Box;
  text: string;
  confidence: number;
  /** what the line is part of, where its surroundings say (element.ts); set by the reading */
  role?: 'button' | 'badge' | 'input' | 'avatar';
}

/** The detector's default upscale of an area, and the longest side (after scaling) it is given. */
const DETECT_SCALE = 2;
const DETECT_MAX_SIDE = 1600;

/** A line's reading, kept by its pixels (pixelKey) for the reads of one pair. */
export type LineReadings = Map<string, { text: string; confidence: number }>;

export interface ReadOptions {
  /** upscale factor for detection and recognition (default 2; capped so the area stays under maxSide). */
  scale?: number;
  /** longest side, in pixels after scaling, given to the detector (default 1600). */
  maxSide?: number;
  /** readings shared by the reads of one pair (readPair): a box whose pixels are in it is not
   * recognized again, and what is recognized is added. Scoped to a pair, so that a pair reads the same
   * whatever was read before it (the recognizer's batches, padded to their widest line, differ). */
  recognized?: LineReadings;
}

/** Where the OCR package's files are: its folder in node_modules (or the folder given). */
export function ocrModelsDir(): string {
  // an ESM build resolves from this module; the extension's CommonJS bundle from its own folder
  const metaUrl = (import.meta as { url?: string }).url;
  const resolver = metaUrl ? createRequire(metaUrl) : typeof require === 'function' ? require : undefined;
  try {
    if (!resolver) throw new Error('no module resolver');
    return path.dirname(resolver.resolve(`${OCR.package}/node`));
  } catch {
    throw new Error(`the text reader's models are missing: the npm package ${OCR.package} is not installed (run npm ci)`);
  }
}

/** The characters the recognizer's classes stand for: index 0 blank (''), then the dictionary, then ' '. */
export function readDictionary(file: string): string[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return ['', ...lines.map((l) => l.replace(/\r$/, '')), ' '];
}

/** Per channel (B, G, R), the detector's normalised value of each byte: (v / 255 - mean) / std. */
const DET_LEVELS = [0, 1, 2].map((c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - DET_MEAN[c]) / DET_STD[c]));

/** The detector's input: the area scaled by `scale`, padded to multiples of 32 with white, BGR normalised. */
export function detectorInput(image: RgbaImage, area: Box, scale: number): { tensor: Float32Array; width: number; height: number } {
  const [x0, y0, x1, y1] = area;
  const sw = Math.max(1, Math.round((x1 - x0) * scale));
  const sh = Math.max(1, Math.round((y1 - y0) * scale));
  const width = Math.max(32, Math.ceil(sw / 32) * 32);
  const height = Math.max(32, Math.ceil(sh / 32) * 32);
  const plane = width * height;
  const tensor = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) tensor.fill((1 - DET_MEAN[c]) / DET_STD[c], c * plane, (c + 1) * plane);
  // nearest source column of each output column, once for all rows
  const column = new Int32Array(sw);
  for (let x = 0; x < sw; x++) column[x] = Math.min(x1 - 1, x0 + Math.floor((x + 0.5) / scale));
  const [blue, green, red] = DET_LEVELS;
  const data = image.data;
  for (let y = 0; y < sh; y++) {
    const row = Math.min(y1 - 1, y0 + Math.floor((y + 0.5) / scale)) * image.width;
    const o = y * width;
    for (let x = 0; x < sw; x++) {
      const i = (row + column[x]) * 4;
      // BGR planes
      tensor[o + x] = blue[data[i + 2]];
      tensor[plane + o + x] = green[data[i + 1]];
      tensor[2 * plane + o + x] = red[data[i]];
    }
  }
  return { tensor, width, height };
}

/**
 * Text boxes from the detector's probability map: pixels above `threshold`, 4-connected, each
 * component's bounding box kept when its mean probability reaches `boxThreshold`, then grown by
 * area * unclipRatio / perimeter (the DB rule for the shrunk text kernels the model predicts).
 * Boxes are in map pixels, clipped to [0, limitW) x [0, limitH).
 */
export function textBoxes(
  prob: Float32Array,
  width: number,
  height: number,
  limitW: number,
  limitH: number,
  threshold = OCR.detector.binary_threshold,
  boxThreshold = OCR.detector.box_threshold,
  unclipRatio = OCR.detector.unclip_ratio,
): { box: Box; score: number }[] {
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  const out: { box: Box; score: number }[] = [];
  let next = 0;
  for (let start = 0; start < width * height; start++) {
    if (label[start] || prob[start] <= threshold) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let minX = width,
      minY = height,
      maxX = -1,
      maxY = -1,
      sum = 0,
      count = 0;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width,
        y = (p - x) / width;
      sum += prob[p];
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      const visit = (q: number) => {
        if (!label[q] && prob[q] > threshold) {
          label[q] = next;
          stack.push(q);
        }
      };
      if (x > 0) visit(p - 1);
      if (x < width - 1) visit(p + 1);
      if (y > 0) visit(p - width);
      if (y < height - 1) visit(p + width);
    }
    const w = maxX - minX + 1,
      h = maxY - minY + 1;
    if (Math.min(w, h) < 2 || sum / count < boxThreshold) continue;
    const grow = (w * h * unclipRatio) / (2 * (w + h));
    out.push({
      box: [
        Math.max(0, Math.floor(minX - grow)),
        Math.max(0, Math.floor(minY - grow)),
        Math.min(limitW, Math.ceil(maxX + 1 + grow)),
        Math.min(limitH, Math.ceil(maxY + 1 + grow)),
      ],
      score: sum / count,
    });
  }
  return out;
}

/** The recognizer's input for one line: the box scaled to 48 px high, BGR, in [-1, 1]. */
export function recognizerInput(image: RgbaImage, box: Box): { data: Float32Array; width: number } {
  const [x0, y0, x1, y1] = box;
  const bw = x1 - x0,
    bh = y1 - y0;
  const width = Math.max(8, Math.min(3200, Math.round((REC_HEIGHT * bw) / bh)));
  const plane = REC_HEIGHT * width;
  const data = new Float32Array(3 * plane);
  const pixels = image.data;
  // bilinear, sampling the source at each output pixel's centre; the columns' two sources and
  // weight are the same on every row
  const left = new Int32Array(width),
    right = new Int32Array(width),
    weight = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const fx = x0 + ((x + 0.5) * bw) / width - 0.5;
    const xa = Math.max(x0, Math.min(x1 - 1, Math.floor(fx)));
    left[x] = xa * 4;
    right[x] = Math.min(x1 - 1, xa + 1) * 4;
    weight[x] = Math.max(0, Math.min(1, fx - xa));
  }
  for (let y = 0; y < REC_HEIGHT; y++) {
    const fy = y0 + ((y + 0.5) * bh) / REC_HEIGHT - 0.5;
    const ya = Math.max(y0, Math.min(y1 - 1, Math.floor(fy))),
      yb = Math.min(y1 - 1, ya + 1),
      ty = Math.max(0, Math.min(1, fy - ya));
    const top = ya * image.width * 4,
      bottom = yb * image.width * 4;
    for (let x = 0; x < width; x++) {
      const tx = weight[x];
      for (let c = 0; c < 3; c++) {
        // (BGR: channel c of the tensor is byte 2 - c of the pixel)
        const k = 2 - c;
        const v =
          (pixels[top + left[x] + k] * (1 - tx) + pixels[top + right[x] + k] * tx) * (1 - ty) +
          (pixels[bottom + left[x] + k] * (1 - tx) + pixels[bottom + right[x] + k] * tx) * ty;
        data[c * plane + y * width + x] = (v / 255) * 2 - 1;
      }
    }
  }
  return { data, width };
}

/** A decoded line: the text, its characters' mean probability, and each character's CTC step (first, last). */
export interface DecodedLine {
  text: string;
  confidence: number;
  /** per character of the undivided text (before space recovery), its first and last CTC step. */
  steps: [number, number][];
}

/** Greedy CTC decoding of one line's [steps, classes] probabilities: repeats collapsed, blanks dropped. */
export function ctcDecode(probs: Float32Array, offset: number, steps: number, classes: number, dictionary: string[]): DecodedLine {
  const chars: string[] = [];
  const spans: [number, number][] = [];
  let previous = 0;
  let sum = 0;
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0,
      bestP = probs[base];
    for (let k = 1; k < classes; k++) {
      if (probs[base + k] > bestP) {
        bestP = probs[base + k];
        best = k;
      }
    }
    if (best !== 0 && best === previous) spans[spans.length - 1][1] = t;
    else if (best !== 0) {
      chars.push(dictionary[best] ?? '');
      spans.push([t, t]);
      sum += bestP;
    }
    previous = best;
  }
  return { text: chars.join(''), confidence: chars.length ? sum / chars.length : 0, steps: spans };
}

/**
 * The recognizer often runs words together ("Clearcaches"): a space is put back between two characters
 * where the line's pixels have a blank gap as wide as a word gap (wordGapThreshold, or `minGap` of the
 * ink height). Blank columns differ from the line's background (its border's most common colour) by
 * at most 40 in every channel.
 */
export function recoverSpaces(image: RgbaImage, box: Box, line: DecodedLine, stepWidth: number, minGap = 0.2): string {
  const chars = [...line.text];
  if (chars.length < 2) return line.text;
  const [x0, y0, x1, y1] = box;
  const bg = borderColour(image, box);
  const ink = (x: number, y: number) => {
    const i = (y * image.width + x) * 4;
    return Math.max(Math.abs(image.data[i] - bg[0]), Math.abs(image.data[i + 1] - bg[1]), Math.abs(image.data[i + 2] - bg[2])) > 40;
  };
  const inkColumn: boolean[] = [];
  let top = y1,
    bottom = y0 - 1;
  for (let x = x0; x < x1; x++) {
    let any = false;
    for (let y = y0; y < y1; y++) {
      if (ink(x, y)) {
        any = true;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
    inkColumn.push(any);
  }
  const inkHeight = bottom - top + 1;
  if (inkHeight < 4) return line.text;
  const first = inkColumn.indexOf(true),
    last = inkColumn.lastIndexOf(true);
  const runs: [number, number][] = [];
  let runStart = -1;
  for (let i = first; i <= last + 1; i++) {
    const blank = i <= last && !inkColumn[i];
    if (blank && runStart < 0) runStart = i;
    if (!blank && runStart >= 0) {
      runs.push([runStart, i]);
      runStart = -1;
    }
  }
  // a word gap: a fifth of the ink height (3 px at 14-15 px, where word gaps measured 3-6 px and
  // letter gaps 0-2), and clearly wider than the line's typical gap (large text has wide letter gaps)
  const widths = runs.map(([a, b]) => b - a).sort((p, q) => p - q);
  const typical = widths.length >= 3 ? widths[Math.floor(widths.length / 2)] : 0;
  const threshold = Math.max(2.5, minGap * inkHeight, 1.6 * typical);
  // character centres in image x, from their CTC steps
  const centre = line.steps.map(([a, b]) => x0 + ((a + b + 1) / 2) * stepWidth);
  const spaceAfter = new Set<number>();
  for (const [a, b] of runs) {
    if (b - a < threshold) continue;
    const gapCentre = x0 + (a + b) / 2;
    const k = centre.findIndex((c, j) => j + 1 < centre.length && c < gapCentre && centre[j + 1] > gapCentre);
    if (
      k >= 0 &&
      chars[k] !== ' ' &&
      chars[k + 1] !== ' ' &&
      !NO_SPACE_BEFORE.test(chars[k + 1].normalize('NFKC')) &&
      !NO_SPACE_AFTER.test(chars[k].normalize('NFKC')) &&
      plausibleSplit(chars, k)
    )
      spaceAfter.add(k);
  }
  return chars.map((c, i) => (spaceAfter.has(i) ? `${c} ` : c)).join('');
}

/**
 * Wide gaps also open inside words and numbers ("Tea m", "1 5" from a wide 1): no space between two
 * digits, and none that leaves a lone letter other than a, A or I.
 */
function plausibleSplit(chars: string[], k: number): boolean {
  if (/\d/.test(chars[k]) && /\d/.test(chars[k + 1])) return false;
  const word = (from: number, step: number) => {
    let n = 0;
    for (let i = from; i >= 0 && i < chars.length && chars[i] !== ' '; i += step) n++;
    return n;
  };
  const lone = (i: number) => /\p{L}/u.test(chars[i]) && !/^[aAI]$/.test(chars[i]);
  if (word(k, -1) === 1 && lone(k)) return false;
  if (word(k + 1, 1) === 1 && lone(k + 1)) return false;
  return true;
}

const NO_SPACE_BEFORE = /[,.;:!?)\]}%]/;
const NO_SPACE_AFTER = /[([{@$#]/;

/** The most common colour on a box's border (its background), per channel quantised to 8 levels of 32. */
export function borderColour(image: RgbaImage, box: Box): [number, number, number] {
  return commonBorderColour(image.data, image.width, image.height, 4, box);
}

/** Text as a person would type it: full-width forms folded (NFKC), runs of spaces one, ends trimmed. */
export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?)\]])/g, '$1')
    .trim();
}

/**
 * Lines kept: icons and pictures read as one or two odd characters ("口", "b" at low confidence) are
 * not text a caption should quote.
 */
export function isReadable(line: { text: string; confidence: number }): boolean {
  const t = line.text;
  if (!t) return false;
  // the recognizer's dictionary is Chinese and English: an icon (a square, a hamburger, a plus) reads
  // as one Han character ("口", "三", "十") - a word of one ideograph alone on its line is not text
  if (/^\p{Script=Han}$/u.test(t.trim())) return false;
  // ... nor a run of the ideographs made of bars and boxes alone ("三三": a hamburger read twice)
  if (/^[一二三十口日目工]{1,3}$/u.test(t.replace(/\s/g, ''))) return false;
  // a lone x is the close (dismiss) icon, and a lone Q the search magnifier, not words
  if (/^[xX×✕Q]$/u.test(t.trim())) return false;
  if (line.confidence < 0.6) return false;
  if ([...t].length <= 2 && (line.confidence < 0.75 || !/^[\p{L}\p{N}]+$/u.test(t))) return false;
  return true;
}

/**
 * A line's text without the icons read as a lone Han character beside Latin words ("三 Send" ->
 * "Send", "十 Update" -> "Update"); text in Chinese or Japanese (no Latin letters) is kept as read.
 */
export function withoutIconGlyphs(text: string): string {
  if (!/\p{Script=Latin}/u.test(text)) return text;
  // (also one glued to the word it stands before: "三Share")
  const kept = text
    .split(' ')
    .map((w) => w.replace(/^\p{Script=Han}(?=\p{Script=Latin})/u, ''))
    .filter((w) => !/^\p{Script=Han}$/u.test(w));
  return kept.length ? kept.join(' ') : text;
}

/**
 * Words the detector boxed apart on one row, closer than half a line's height, are one line
 * ("Tue," + "May 2" -> "Tue, May 2"); columns, shortcuts and separate labels are further apart.
 */
export function mergeRows(lines: TextLine[]): TextLine[] {
  const sorted = [...lines].sort((a, b) => a.box[0] - b.box[0]);
  const out: TextLine[] = [];
  for (const line of sorted) {
    const h = line.box[3] - line.box[1];
    const left = out.find((o) => {
      const oh = o.box[3] - o.box[1];
      const overlap = Math.min(o.box[3], line.box[3]) - Math.max(o.box[1], line.box[1]);
      const gap = line.box[0] - o.box[2];
      return overlap >= 0.7 * Math.min(h, oh) && Math.max(h, oh) <= 1.4 * Math.min(h, oh) && gap <= 0.5 * Math.min(h, oh) && gap > -0.5 * h;
    });
    if (!left) {
      out.push({ ...line });
      continue;
    }
    const n = left.text.length,
      m = line.text.length;
    left.confidence = (left.confidence * n + line.confidence * m) / (n + m);
    left.text = `${left.text} ${line.text}`;
    left.box = [
      Math.min(left.box[0], line.box[0]),
      Math.min(left.box[1], line.box[1]),
      Math.max(left.box[2], line.box[2]),
      Math.max(left.box[3], line.box[3]),
    ];
  }
  return out;
}

/** Channel sum difference from a line's background past which a pixel is its ink (for inkKey). */
const INK_KEY_CONTRAST = 48;

/**
 * A key for a line's ink alone: pixelKey of the smallest box holding every pixel that differs from
 * the line's background (its border colour). The same words, detected with a little more or less
 * margin in the other screenshot or a neighbouring region, have the same ink key and are recognized
 * once. Undefined for a box without ink.
 */
export function inkKey(image: RgbaImage, box: Box): string | undefined {
  const [bx0, by0, bx1, by1] = clipTo(image, box);
  const [r, g, b] = borderColour(image, [bx0, by0, bx1, by1]);
  const d = image.data;
  let x0 = bx1,
    y0 = by1,
    x1 = bx0 - 1,
    y1 = by0 - 1;
  for (let y = by0; y < by1; y++) {
    for (let x = bx0, i = (y * image.width + bx0) * 4; x < bx1; x++, i += 4) {
      if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) <= INK_KEY_CONTRAST) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      y1 = y;
    }
  }
  return x1 < x0 ? undefined : `ink:${pixelKey(image, [x0, y0, x1 + 1, y1 + 1])}`;
}

/** A key for a box's pixels: its size and two 32-bit FNV-style hashes of its RGBA words. */
export function pixelKey(image: RgbaImage, box: Box): string {
  const [x0, y0, x1, y1] = box;
  const d = image.data;
  let h1 = 0x811c9dc5,
    h2 = 0x9e3779b9;
  for (let y = y0; y < y1; y++) {
    for (let i = (y * image.width + x0) * 4, end = (y * image.width + x1) * 4; i < end; i += 4) {
      const v = d[i] | (d[i + 1] << 8) | (d[i + 2] << 16) | (d[i + 3] << 24);
      h1 = Math.imul(h1 ^ v, 0x01000193);
      h2 = Math.imul(h2 ^ v, 0x85ebca6b) ^ (h2 >>> 15);
    }
  }
  return `${x1 - x0}x${y1 - y0}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
}

export interface TextReaderOptions {
  /** the OCR package's folder (default: found in node_modules). */
  dir?: string;
  threads?: number;
  /** folder for the optimised models (src/core/model-cache.ts); undefined: not cached */
  cacheDir?: string;
}

/** Reads text lines in areas of an image. Models load on first use; one reader serves many images. */
export class TextReader {
  private readonly dir?: string;
  private readonly threads?: number;
  private readonly cacheDir?: string;
  private loaded?: Promise<{ det: ort.InferenceSession; rec: ort.InferenceSession; dictionary: string[] }>;
  /** ms spent in the detector and the recognizer, for the benchmark. */
  detectMs = 0;
  recognizeMs = 0;
  /** lines whose reading was taken from ReadOptions.recognized */
  recognizedHits = 0;
  /** image pixels given to the detector (areas read, before scaling), for tests and diagnostics. */
  detectedPixels = 0;

  constructor(options: TextReaderOptions = {}) {
    this.dir = options.dir;
    this.threads = options.threads;
    this.cacheDir = options.cacheDir;
  }

  /** Loads the reader's models now (a cold start loads them while the screenshots decode). */
  async prepare(): Promise<void> {
    await this.load();
  }

  private load() {
    this.loaded ??= (async () => {
      const dir = this.dir ?? ocrModelsDir();
      // every area read has its own size: a memory pattern, planned over the first runs of each new
      // shape, is never reused (off, the second read of an area costs a third of its first, cold)
      const options = { ...cpuSessionOptions(this.threads), enableMemPattern: false };
      const open = async (file: string) => {
        const full = path.join(dir, file);
        if (!fs.existsSync(full))
          throw new Error(`the text reader's model file is missing: ${full} (reinstall ${OCR.package} with npm ci)`);
        const stat = fs.statSync(full);
        return createCpuSession(
          { model: full, name: path.basename(full), id: `${full}:${stat.size}:${stat.mtimeMs}` },
          options,
          this.cacheDir,
        );
      };
      const [det, rec] = await Promise.all([open(OCR.detector.file), open(OCR.recognizer.file)]);
      return { det, rec, dictionary: readDictionary(path.join(dir, OCR.dictionary)) };
    })();
    this.loaded.catch(() => {
      this.loaded = undefined;
    });
    return this.loaded;
  }

  /** Text lines inside `area` of `image`, top to bottom then left to right; boxes in image pixels. */
  async read(image: RgbaImage, area: Box = [0, 0, image.width, image.height], options: ReadOptions = {}): Promise<TextLine[]> {
    const clipped = clipTo(image, area);
    const aw = clipped[2] - clipped[0],
      ah = clipped[3] - clipped[1];
    if (aw < 4 || ah < 4) return [];
    const { det, rec, dictionary } = await this.load();
    const maxSide = options.maxSide ?? DETECT_MAX_SIDE;
    const scale = Math.max(0.25, Math.min(options.scale ?? DETECT_SCALE, maxSide / Math.max(aw, ah)));
    let t = performance.now();
    this.detectedPixels += aw * ah;
    const input = detectorInput(image, clipped, scale);
    const out = await det.run({ [OCR.detector.input]: new ort.Tensor('float32', input.tensor, [1, 3, input.height, input.width]) });
    const prob = out[OCR.detector.output].data as Float32Array;
    const found = textBoxes(prob, input.width, input.height, Math.round(aw * scale), Math.round(ah * scale));
    this.detectMs += performance.now() - t;
    const boxes: Box[] = found
      .map(
        ({ box }) =>
          [
            clipped[0] + Math.floor(box[0] / scale),
            clipped[1] + Math.floor(box[1] / scale),
            clipped[0] + Math.ceil(box[2] / scale),
            clipped[1] + Math.ceil(box[3] / scale),
          ] as Box,
      )
      .filter((b) => b[2] - b[0] >= 3 && b[3] - b[1] >= 4);
    if (!boxes.length) return [];
    t = performance.now();
    const lines = await this.recognize(rec, dictionary, image, boxes, options.recognized ?? new Map());
    this.recognizeMs += performance.now() - t;
    return mergeRows(lines.filter((l) => isReadable(l)))
      .map((l) => ({ ...l, text: withoutIconGlyphs(l.text) }))
      .sort((a, b) => (Math.abs(a.box[1] - b.box[1]) > 4 ? a.box[1] - b.box[1] : a.box[0] - b.box[0]));
  }

  /** Recognizes the text of each box (image pixels), in batches of similar widths. A box whose
   * pixels are in `recognized` (the same line in the other screenshot of a pair, or read again by an
   * overlapping region) takes that reading. */
  private async recognize(
    rec: ort.InferenceSession,
    dictionary: string[],
    image: RgbaImage,
    boxes: Box[],
    recognized: LineReadings,
  ): Promise<TextLine[]> {
    const lines: TextLine[] = new Array(boxes.length);
    const keys = boxes.map((b) => pixelKey(image, b));
    // (the ink key only where the pixels were not seen: it scans the box again)
    const inkKeys = boxes.map((b, i) => (recognized.has(keys[i]) ? undefined : inkKey(image, b)));
    const knownAs = (i: number) => recognized.get(keys[i]) ?? (inkKeys[i] === undefined ? undefined : recognized.get(inkKeys[i]));
    const pending: number[] = [];
    const queued = new Set<string>();
    boxes.forEach((box, i) => {
      const known = knownAs(i);
      if (known) {
        lines[i] = { box, ...known };
        this.recognizedHits++;
      } else if (!queued.has(keys[i]) && !(inkKeys[i] !== undefined && queued.has(inkKeys[i]))) {
        queued.add(keys[i]);
        if (inkKeys[i] !== undefined) queued.add(inkKeys[i]);
        pending.push(i);
      }
    });
    const inputs = new Map(pending.map((i) => [i, recognizerInput(image, boxes[i])]));
    const order = pending.sort((a, b) => inputs.get(a)!.width - inputs.get(b)!.width);
    const BATCH = 8;
    for (let s = 0; s < order.length; s += BATCH) {
      const group = order.slice(s, s + BATCH);
      const width = Math.ceil(Math.max(...group.map((i) => inputs.get(i)!.width)) / 8) * 8;
      const plane = REC_HEIGHT * width;
      const batch = new Float32Array(group.length * 3 * plane);
      group.forEach((i, j) => {
        const { data, width: w } = inputs.get(i)!;
        for (let c = 0; c < 3; c++) {
          for (let y = 0; y < REC_HEIGHT; y++) {
            batch.set(data.subarray(c * REC_HEIGHT * w + y * w, c * REC_HEIGHT * w + (y + 1) * w), (j * 3 + c) * plane + y * width);
          }
        }
      });
      const out = await rec.run({ [OCR.recognizer.input]: new ort.Tensor('float32', batch, [group.length, 3, REC_HEIGHT, width]) });
      const probs = out[OCR.recognizer.output];
      const [, steps, classes] = probs.dims as number[];
      group.forEach((i, j) => {
        const decoded = ctcDecode(probs.data as Float32Array, j * steps * classes, steps, classes, dictionary);
        // one CTC step covers 8 input columns; the line was scaled to `inputs[i].width` columns
        const stepWidth = (8 * (boxes[i][2] - boxes[i][0])) / inputs.get(i)!.width;
        const read = { text: normaliseText(recoverSpaces(image, boxes[i], decoded, stepWidth)), confidence: decoded.confidence };
        lines[i] = { box: boxes[i], ...read };
        recognized.set(keys[i], read);
        if (inkKeys[i] !== undefined) recognized.set(inkKeys[i], read);
      });
    }
    // boxes with the same pixels (or ink) as one recognized in this call
    boxes.forEach((box, i) => {
      if (!lines[i]) lines[i] = { box, ...knownAs(i)! };
    });
    return lines;
  }

  async dispose(): Promise<void> {
    const loaded = this.loaded;
    this.loaded = undefined;
    if (!loaded) return;
    try {
      const { det, rec } = await loaded;
      await Promise.all([det.release(), rec.release()]);
    } catch {
      // nothing loaded, nothing to release
    }
  }
}
