// The change regions of a pair, found the one way the runtime (pipeline.ts) and the training crops
// (src/lab/crops.ts) both use: the diff's components (regions.ts), minus rendering noise (jitter.ts,
// rerender.ts), plus recolours the diff threshold hid (faint-recolour.ts), with the pieces of one
// moved element joined (moved-together.ts).
import type { RgbaImage } from './image.js';
import type { DiffResult } from './diff.js';
import { findRegions, type RegionAnalysis } from './regions.js';
import { withRenderingNoise, type RenderingNoiseOptions } from './jitter.js';
import { withFaintRecolours } from './faint-recolour.js';
import { withMovedTogether } from './moved-together.js';

export interface ChangeRegionOptions {
  /** what counts as rendering noise (the runtime with the text reader turns the 1 px jitter test off). */
  noise?: RenderingNoiseOptions;
  /** whether a solid recolour under the diff threshold is a change (default true; off when the
   * caller chose a looser threshold than the default). */
  faintRecolours?: boolean;
}

export function changeRegions(diff: DiffResult, before: RgbaImage, after: RgbaImage, options: ChangeRegionOptions = {}): RegionAnalysis {
  let found = withRenderingNoise(findRegions(diff), before, after, options.noise);
  if (options.faintRecolours !== false) found = withFaintRecolours(found, before, after);
  return withMovedTogether(found, before, after);
}
