// Imagined procedure frames (ProCap stage 1 head at inference): the procedure encoder predicts a
// codebook index for every one of the k*n_I query positions; the tokenizer decoder turns each
// frame's n_I codes back into a 96x96 image. Mirrors training/imagine in training/encode.py.
import { writeRgbPng } from '../image.js';
import { ort } from '../session.js';
import type { ReportImage } from '../report.js';

/** argmax over the codebook at every query position: [batch, queries, codebook] -> [batch*queries]. */
export function argmaxCodes(logits: Float32Array, batch: number, queries: number, codebook: number): BigInt64Array {
  if (logits.length !== batch * queries * codebook) {
    throw new Error(`query_code_logits has ${logits.length} values, expected ${batch}x${queries}x${codebook}`);
  }
  const codes = new BigInt64Array(batch * queries);
  for (let q = 0; q < batch * queries; q++) {
    const off = q * codebook;
    let best = 0;
    for (let c = 1; c < codebook; c++) if (logits[off + c] > logits[off + best]) best = c;
    codes[q] = BigInt(best);
  }
  return codes;
}

/**
 * Decodes codes [frames, n_I] (the k frames of each sample, time-major, one after another)
 * into images [frames, 3, size, size].
 */
export async function decodeCodes(
  session: ort.InferenceSession,
  codes: BigInt64Array,
  frames: number,
  patches: number,
): Promise<Float32Array> {
  const out = await session.run({ codes: new ort.Tensor('int64', codes, [frames, patches]) });
  return out.image.data as Float32Array;
}

/** One CHW float image in [0, 1] (at `offset` in `data`) -> an 8-bit RGB PNG (unfiltered, fast deflate) as a ReportImage. */
export function chwToReportImage(data: Float32Array, offset: number, width: number, height: number): ReportImage {
  const plane = width * height;
  const rgb = new Uint8Array(plane * 3);
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      const v = data[offset + c * plane + i];
      rgb[i * 3 + c] = v > 0 ? (v < 1 ? Math.round(v * 255) : 255) : 0; // NaN -> 0
    }
  }
  const png = writeRgbPng(rgb, width, height, { upFilter: false, level: 1 });
  return { width, height, pngBase64: png.toString('base64') };
}

/**
 * An imagined frame read against the two ends as the tokenizer decoder draws them: per patch of
 * `patch` px (a code's footprint), the share of the way from the decoded before to the decoded after
 * that the imagined frame has gone (the least-squares t of imagined ~ before + t (after - before),
 * clamped to 0..1). Patches where the two ends decode alike carry no such share: they take the
 * share of the whole crop (weighted by how much each patch changes). Images are CHW floats of
 * size x size at the given offsets; returns the grid (row-major, size/patch a side) and that share.
 */
export function imaginedShares(
  imagined: Float32Array,
  imaginedOffset: number,
  before: Float32Array,
  beforeOffset: number,
  after: Float32Array,
  afterOffset: number,
  size: number,
  patch: number,
): { grid: Float32Array; side: number; share: number } {
  const side = Math.floor(size / patch);
  const plane = size * size;
  const num = new Float64Array(side * side),
    den = new Float64Array(side * side);
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < side * patch; y++) {
      for (let x = 0; x < side * patch; x++) {
        const i = c * plane + y * size + x;
        const d = after[afterOffset + i] - before[beforeOffset + i];
        const g = Math.floor(y / patch) * side + Math.floor(x / patch);
        num[g] += (imagined[imaginedOffset + i] - before[beforeOffset + i]) * d;
        den[g] += d * d;
      }
    }
  }
  let totalNum = 0,
    totalDen = 0;
  for (let g = 0; g < side * side; g++) {
    totalNum += num[g];
    totalDen += den[g];
  }
  const clamp = (v: number) => (v > 0 ? (v < 1 ? v : 1) : 0);
  const share = totalDen > 0 ? clamp(totalNum / totalDen) : 0;
  // a patch whose ends differ by less than 2 levels of 255 a channel, on average, says nothing
  const quiet = 3 * patch * patch * (2 / 255) ** 2;
  const grid = new Float32Array(side * side);
  for (let g = 0; g < side * side; g++) grid[g] = den[g] > quiet ? clamp(num[g] / den[g]) : share;
  return { grid, side, share };
}
