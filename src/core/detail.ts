// The detail view of a large region (models/contract.json "crop.detail"). A region whose square
// context crop is much larger than the model's 96x96 input loses its small print there: a 400 px wide
// label row is shrunk five times, and the kind head cannot tell new words from a new font, or a padding
// change from a resize (measured on validation: kind accuracy 0.92 on crops shrunk at most 2.2 times,
// 0.79 beyond 4.3). For such a region the model also sees a window of at most `window` x `window` px
// inside the region where most of its changed pixels lie, cropped by the same contract rule (so it is
// shrunk about 2 times at most); its kind logits are fused with the region's own. Training crops
// (`npm run detail-crops`) and the runtime both call this file.

import contract from '../../models/contract.json' with { type: 'json' };
import type { Box } from './report.js';
import type { RgbaImage } from './image.js';
import { cropBoxFor } from './crop.js';

export interface DetailRule {
  /** regions whose context crop side (px) exceeds this get a detail view */
  minCropSide: number;
  /** the detail window's largest side (px) */
  window: number;
  /** a pixel counts as changed when |dR|+|dG|+|dB| exceeds this */
  diffThreshold: number;
  /** a, in fused = (log p_region + a * log p_detail) / (1 + a) + kind_bias; 0: the view is not used */
  weight: number;
}

interface ContractDetail {
  min_crop_side: number;
  window: number;
  diff_threshold: number;
  weight: number;
}

/** A contract's detail rule (default: models/contract.json), or undefined when it has none (older models folders). */
export function contractDetailRule(c: { crop?: { detail?: ContractDetail } } = contract): DetailRule | undefined {
  const d = c.crop?.detail;
  return d ? { minCropSide: d.min_crop_side, window: d.window, diffThreshold: d.diff_threshold, weight: d.weight } : undefined;
}

/** log-softmax of `length` values from `offset` (also the kind committee's, src/core/procap/encode.ts). */
export function logSoftmax(values: ArrayLike<number>, offset: number, length: number): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < length; i++) max = Math.max(max, values[offset + i]);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += Math.exp(values[offset + i] - max);
  const lse = max + Math.log(sum);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i++) out[i] = values[offset + i] - lse;
  return out;
}

/**
 * The contract's fusion of a region's kind logits with its detail view's ([kinds] each, raw
 * kind_logits of the procedure encoder): (log p_region + weight * log p_detail) / (1 + weight), to
 * which the kind prior's bias is added as for any region. Returns [kinds] log-probability-like values.
 */
export function fuseDetailLogits(region: ArrayLike<number>, detail: ArrayLike<number>, weight: number): Float32Array {
  if (region.length !== detail.length) throw new Error(`detail view: ${detail.length} kind logits, the region has ${region.length}`);
  const r = logSoftmax(region, 0, region.length);
  const d = logSoftmax(detail, 0, detail.length);
  const out = new Float32Array(region.length);
  for (let i = 0; i < out.length; i++) out[i] = (r[i] + weight * d[i]) / (1 + weight);
  return out;
}

/** Start of the `win`-long stretch of `counts` with the largest sum (the first such one). */
export function densestStart(counts: ArrayLike<number>, win: number): number {
  if (counts.length <= win) return 0;
  let sum = 0;
  for (let i = 0; i < win; i++) sum += counts[i];
  let best = sum;
  let at = 0;
  for (let i = win; i < counts.length; i++) {
    sum += counts[i] - counts[i - win];
    if (sum > best) {
      best = sum;
      at = i - win + 1;
    }
  }
  return at;
}

/**
 * The detail window of a region box (common-area pixels of before and after), or undefined when the
 * region's context crop is small enough to be seen whole. The window keeps the box's extent where it is
 * at most `rule.window` and otherwise slides along that axis to the stretch with the most changed pixels.
 */
export function detailBoxFor(before: RgbaImage, after: RgbaImage, box: Box, rule: DetailRule): Box | undefined {
  const width = Math.min(before.width, after.width);
  const height = Math.min(before.height, after.height);
  const crop = cropBoxFor(box, width, height);
  if (crop[2] - crop[0] <= rule.minCropSide) return undefined;
  const x0 = Math.max(0, box[0]),
    y0 = Math.max(0, box[1]);
  const x1 = Math.min(width, box[2]),
    y1 = Math.min(height, box[3]);
  if (x1 <= x0 || y1 <= y0) return undefined;
  const w = x1 - x0,
    h = y1 - y0;
  const columns = new Float64Array(w);
  const rows = new Float64Array(h);
  for (let y = y0; y < y1; y++) {
    let ib = (y * before.width + x0) * 4;
    let ia = (y * after.width + x0) * 4;
    for (let x = 0; x < w; x++, ib += 4, ia += 4) {
      const d =
        Math.abs(before.data[ib] - after.data[ia]) +
        Math.abs(before.data[ib + 1] - after.data[ia + 1]) +
        Math.abs(before.data[ib + 2] - after.data[ia + 2]);
      if (d > rule.diffThreshold) {
        columns[x]++;
        rows[y - y0]++;
      }
    }
  }
  const ww = Math.min(w, rule.window),
    wh = Math.min(h, rule.window);
  const left = x0 + densestStart(columns, ww);
  const top = y0 + densestStart(rows, wh);
  return [left, top, left + ww, top + wh];
}
