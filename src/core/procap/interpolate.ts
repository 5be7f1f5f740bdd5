// Recursive midpoint frame interpolation (ProCap stage 0): the interpolator gives the midpoint of
// two frames; applied 3 levels deep it turns (before, after) into before, 7 intermediates, after.
// All samples of a level go through the model in one batch. Mirrors training/interpolate.py.
import { ort } from '../session.js';

/** Frames of a batch of samples: frames[f] is [batch, 3, size, size] for f = 0 (before) .. 8 (after). */
export type FrameStack = Float32Array[];

async function midpoints(
  session: ort.InferenceSession,
  pairs: [Float32Array, Float32Array][],
  batch: number,
  size: number,
): Promise<Float32Array[]> {
  const per = batch * 3 * size * size;
  const frame0 = new Float32Array(per * pairs.length);
  const frame1 = new Float32Array(per * pairs.length);
  pairs.forEach(([a, b], i) => {
    frame0.set(a, i * per);
    frame1.set(b, i * per);
  });
  const dims = [batch * pairs.length, 3, size, size];
  const out = await session.run({
    frame0: new ort.Tensor('float32', frame0, dims),
    frame1: new ort.Tensor('float32', frame1, dims),
  });
  const middle = out.middle.data as Float32Array;
  if (middle.length !== frame0.length) {
    throw new Error(`interpolator returned ${middle.length} values, expected ${frame0.length}`);
  }
  return pairs.map((_, i) => middle.slice(i * per, (i + 1) * per));
}

/**
 * 9 frames (before, 7 recursive midpoints, after) for `batch` samples of size x size.
 * `checkpoint` runs between levels (cancellation).
 */
export async function interpolateProcedure(
  session: ort.InferenceSession,
  before: Float32Array,
  after: Float32Array,
  batch: number,
  size: number,
  checkpoint: () => void = () => undefined,
): Promise<FrameStack> {
  const frames: Float32Array[] = new Array(9);
  frames[0] = before;
  frames[8] = after;
  // level 1: 4 = mid(0, 8); level 2: 2, 6; level 3: 1, 3, 5, 7
  for (const step of [4, 2, 1]) {
    checkpoint();
    const targets: number[] = [];
    for (let t = step; t < 8; t += 2 * step) targets.push(t);
    const results = await midpoints(
      session,
      targets.map((t) => [frames[t - step], frames[t + step]]),
      batch,
      size,
    );
    targets.forEach((t, i) => {
      frames[t] = results[i];
    });
  }
  return frames;
}
