// Imagined procedure frames (ProCap stage 1 head at inference): the procedure encoder predicts a
// codebook index for every one of the k*n_I query positions; the tokenizer decoder turns each
// frame's n_I codes back into a 96x96 image. Mirrors training/imagine in training/encode.py.
import { PNG } from 'pngjs';
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
  session: ort.InferenceSession, codes: BigInt64Array, frames: number, patches: number,
): Promise<Float32Array> {
  const out = await session.run({ codes: new ort.Tensor('int64', codes, [frames, patches]) });
  return out.image.data as Float32Array;
}

/** One CHW float image in [0, 1] (at `offset` in `data`) -> PNG bytes as a ReportImage. */
export function chwToReportImage(data: Float32Array, offset: number, width: number, height: number): ReportImage {
  const png = new PNG({ width, height });
  const plane = width * height;
  for (let i = 0; i < plane; i++) {
    for (let c = 0; c < 3; c++) {
      const v = data[offset + c * plane + i];
      png.data[i * 4 + c] = Number.isFinite(v) ? Math.round(Math.min(1, Math.max(0, v)) * 255) : 0;
    }
    png.data[i * 4 + 3] = 255;
  }
  return { width, height, pngBase64: PNG.sync.write(png, { colorType: 2 }).toString('base64') };
}
