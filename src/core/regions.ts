// Change regions from a diff mask: the boxes a person would draw around what changed.
//
// How: the mask is summarised on a coarse grid of cells (a few pixels a side); marked cells
// closer than a couple of cells are connected (this is the dilation, done on the grid so it
// costs almost nothing on a 1080p screen); each connected group gives a component whose exact
// box and pixel counts come from one pass over the mask. Components are then merged the way a
// reviewer would box them: touching or close boxes become one, and two similar-sized boxes near
// each other (an element that moved, or two that swapped) become one box covering both places.
// Components made only of anti-aliasing or sub-threshold pixels are kept as "noise" regions so
// the report can say "no visible change" for them instead of dropping them.

import type { Box } from './report.js';
import { MASK_AA, MASK_DIFF, MASK_FAINT, type DiffResult } from './diff.js';

export interface PixelRegion {
  /** [x0, y0, x1, y1) in common-area pixels (the same in before and after). */
  box: Box;
  /** real differences (pixelmatch, anti-aliasing excluded). */
  diffPixels: number;
  /** pixels pixelmatch classified as anti-aliasing. */
  aaPixels: number;
  /** pixels that differ by less than the colour threshold. */
  faintPixels: number;
  /** true when the region holds no real difference worth a caption: only AA / sub-pixel noise. */
  noiseOnly: boolean;
  /** set when the region's differences are a 1-pixel shift of the same pixels (src/core/jitter.ts). */
  jitter?: boolean;
  /** set when the region's differences are its content re-rendered in place (src/core/rerender.ts). */
  rerendered?: boolean;
  /** set when a region under the diff threshold is a solid area recoloured by one colour (src/core/faint-recolour.ts). */
  recoloured?: boolean;
}

export interface RegionOptions {
  /** side of the grid cells the mask is summarised on, in pixels. */
  cellSize?: number;
  /** marked cells within this many cells of each other are connected (the dilation). */
  linkCells?: number;
  /** boxes whose gap is at most this many pixels are merged. */
  mergeGap?: number;
  /** a component needs at least this many real differing pixels to count as a change. */
  minDiffPixels?: number;
  /** most meaningful regions reported; the closest ones are merged beyond this. */
  maxRegions?: number;
  /** most noise-only regions reported. */
  maxNoiseRegions?: number;
  /** the whole-screen pass fires when meaningful regions cover more than this fraction. */
  wholeScreenCoverage?: number;
}

export const DEFAULT_REGION_OPTIONS: Required<RegionOptions> = {
  cellSize: 4,
  linkCells: 2,
  mergeGap: 12,
  minDiffPixels: 3,
  maxRegions: 12,
  maxNoiseRegions: 4,
  wholeScreenCoverage: 0.4,
};

export interface RegionAnalysis {
  /** the common area the regions refer to. */
  width: number;
  height: number;
  /** meaningful regions first, then noise-only ones; each group top-to-bottom, left-to-right. */
  regions: PixelRegion[];
  /** fraction of the common area covered by meaningful region boxes. */
  coverage: number;
  /** the contract's whole-screen rule: meaningful regions cover more than 40% of the area. */
  wholeScreen: boolean;
  /** e.g. "the screenshot grew 66 px taller"; absent when both images have the same size. */
  sizeChange?: string;
}

/** "the screenshot grew 66 px taller", "... became 20 px narrower and grew 10 px taller". */
export function describeSizeChange(
  before: { width: number; height: number },
  after: { width: number; height: number },
): string | undefined {
  const dw = after.width - before.width;
  const dh = after.height - before.height;
  if (dw === 0 && dh === 0) return undefined;
  if (dw >= 0 && dh >= 0) {
    const parts = [];
    if (dw > 0) parts.push(`${dw} px wider`);
    if (dh > 0) parts.push(`${dh} px taller`);
    return `the screenshot grew ${parts.join(' and ')}`;
  }
  if (dw <= 0 && dh <= 0) {
    const parts = [];
    if (dw < 0) parts.push(`${-dw} px narrower`);
    if (dh < 0) parts.push(`${-dh} px shorter`);
    return `the screenshot became ${parts.join(' and ')}`;
  }
  const widthPart = dw > 0 ? `grew ${dw} px wider` : `became ${-dw} px narrower`;
  const heightPart = dh > 0 ? `grew ${dh} px taller` : `became ${-dh} px shorter`;
  return `the screenshot ${widthPart} and ${heightPart}`;
}

interface Component {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  diff: number;
  aa: number;
  faint: number;
}

/**
 * Labels the marked cells: cells within `link` cells (Chebyshev distance) share a label.
 * Returns the number of labels; labels[i] is 0 for unmarked cells, else 1..count.
 */
function labelCells(marked: Uint8Array, cellsW: number, cellsH: number, link: number, labels: Int32Array): number {
  labels.fill(0);
  const stack = new Int32Array(marked.length);
  let count = 0;
  for (let start = 0; start < marked.length; start++) {
    if (!marked[start] || labels[start]) continue;
    count++;
    labels[start] = count;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const cell = stack[--top];
      const cx = cell % cellsW;
      const cy = (cell - cx) / cellsW;
      const yFrom = Math.max(0, cy - link);
      const yTo = Math.min(cellsH - 1, cy + link);
      const xFrom = Math.max(0, cx - link);
      const xTo = Math.min(cellsW - 1, cx + link);
      for (let ny = yFrom; ny <= yTo; ny++) {
        let neighbour = ny * cellsW + xFrom;
        for (let nx = xFrom; nx <= xTo; nx++, neighbour++) {
          if (marked[neighbour] && !labels[neighbour]) {
            labels[neighbour] = count;
            stack[top++] = neighbour;
          }
        }
      }
    }
  }
  return count;
}

function emptyComponents(count: number): Component[] {
  const list: Component[] = [];
  for (let i = 0; i < count; i++) {
    list.push({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, diff: 0, aa: 0, faint: 0 });
  }
  return list;
}

/** Connected components of the mask at a given cell size: real+AA ones and faint-only ones. */
function findComponents(diff: DiffResult, cellSize: number, link: number): { significant: Component[]; faint: Component[] } {
  const { width, height, mask } = diff;
  const cellsW = Math.ceil(width / cellSize);
  const cellsH = Math.ceil(height / cellSize);
  const cellCount = cellsW * cellsH;
  // 1: has a real or AA pixel, 2: has only faint pixels
  const cellClass = new Uint8Array(cellCount);
  for (let y = 0; y < height; y++) {
    const rowCells = ((y / cellSize) | 0) * cellsW;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const value = mask[row + x];
      if (value === 0) continue;
      const cell = rowCells + ((x / cellSize) | 0);
      if (value === MASK_FAINT) {
        if (cellClass[cell] === 0) cellClass[cell] = 2;
      } else {
        cellClass[cell] = 1;
      }
    }
  }
  const significantCells = new Uint8Array(cellCount);
  const faintCells = new Uint8Array(cellCount);
  for (let i = 0; i < cellCount; i++) {
    if (cellClass[i] === 1) significantCells[i] = 1;
    else if (cellClass[i] === 2) faintCells[i] = 1;
  }
  const significantLabels = new Int32Array(cellCount);
  const faintLabels = new Int32Array(cellCount);
  const significant = emptyComponents(labelCells(significantCells, cellsW, cellsH, link, significantLabels));
  const faint = emptyComponents(labelCells(faintCells, cellsW, cellsH, link, faintLabels));

  for (let y = 0; y < height; y++) {
    const rowCells = ((y / cellSize) | 0) * cellsW;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const value = mask[row + x];
      if (value === 0) continue;
      const cell = rowCells + ((x / cellSize) | 0);
      const significantLabel = significantLabels[cell];
      if (significantLabel) {
        const component = significant[significantLabel - 1];
        if (value === MASK_FAINT) {
          // faint pixels inside a real change count for it but do not stretch its box
          component.faint++;
          continue;
        }
        if (value === MASK_DIFF) component.diff++;
        else if (value === MASK_AA) component.aa++;
        if (x < component.x0) component.x0 = x;
        if (x + 1 > component.x1) component.x1 = x + 1;
        if (y < component.y0) component.y0 = y;
        if (y + 1 > component.y1) component.y1 = y + 1;
      } else {
        const component = faint[faintLabels[cell] - 1];
        component.faint++;
        if (x < component.x0) component.x0 = x;
        if (x + 1 > component.x1) component.x1 = x + 1;
        if (y < component.y0) component.y0 = y;
        if (y + 1 > component.y1) component.y1 = y + 1;
      }
    }
  }
  return { significant, faint };
}

function gapBetween(a: Component, b: Component): { gapX: number; gapY: number } {
  return {
    gapX: Math.max(0, a.x0 - b.x1, b.x0 - a.x1),
    gapY: Math.max(0, a.y0 - b.y1, b.y0 - a.y1),
  };
}

function similarSize(a: Component, b: Component): boolean {
  const wa = a.x1 - a.x0;
  const wb = b.x1 - b.x0;
  const ha = a.y1 - a.y0;
  const hb = b.y1 - b.y0;
  return Math.abs(wa - wb) <= 0.3 * Math.max(wa, wb) && Math.abs(ha - hb) <= 0.3 * Math.max(ha, hb);
}

/** Whether a reviewer would draw one box around both. */
function belongTogether(a: Component, b: Component, mergeGap: number): boolean {
  const { gapX, gapY } = gapBetween(a, b);
  if (gapX <= mergeGap && gapY <= mergeGap) return true;
  // an element that moved (or two that swapped): two similar boxes, about one size apart; in a
  // row or a column (a list item moving one place) the gap may be up to twice the size
  if (similarSize(a, b)) {
    const w = Math.max(a.x1 - a.x0, b.x1 - b.x0);
    const h = Math.max(a.y1 - a.y0, b.y1 - b.y0);
    const sameColumn = gapX === 0;
    const sameRow = gapY === 0;
    const reachX = sameRow ? 2 * w : w;
    const reachY = sameColumn ? 2 * h : h;
    return gapX <= Math.max(reachX, mergeGap) && gapY <= Math.max(reachY, mergeGap);
  }
  return false;
}

function absorb(into: Component, from: Component): void {
  into.x0 = Math.min(into.x0, from.x0);
  into.y0 = Math.min(into.y0, from.y0);
  into.x1 = Math.max(into.x1, from.x1);
  into.y1 = Math.max(into.y1, from.y1);
  into.diff += from.diff;
  into.aa += from.aa;
  into.faint += from.faint;
}

/**
 * Merges until no two boxes belong together; while more than `max` remain, merges the closest
 * pair and repeats (a merged box may now reach another one).
 */
function mergeComponents(list: Component[], mergeGap: number, max: number, rule: typeof belongTogether): Component[] {
  const boxes = list.slice();
  for (;;) {
    let merged = true;
    while (merged) {
      merged = false;
      for (let i = 0; i < boxes.length && !merged; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          if (rule(boxes[i], boxes[j], mergeGap)) {
            absorb(boxes[i], boxes[j]);
            boxes.splice(j, 1);
            merged = true;
            break;
          }
        }
      }
    }
    if (boxes.length <= max) return boxes;
    let bestI = 0;
    let bestJ = 1;
    let bestGap = Infinity;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const { gapX, gapY } = gapBetween(boxes[i], boxes[j]);
        const gap = Math.max(gapX, gapY);
        if (gap < bestGap) {
          bestGap = gap;
          bestI = i;
          bestJ = j;
        }
      }
    }
    absorb(boxes[bestI], boxes[bestJ]);
    boxes.splice(bestJ, 1);
  }
}

function byPosition(a: Component, b: Component): number {
  return a.y0 - b.y0 || a.x0 - b.x0 || a.y1 - b.y1 || a.x1 - b.x1;
}

// Above this many raw components the grid is coarsened, so pathological (noisy) images cost
// a bounded amount of merging work.
const MAX_RAW_COMPONENTS = 256;

/** Finds the change regions of a diff. Pure function of the mask and options. */
export function findRegions(diff: DiffResult, options: RegionOptions = {}): RegionAnalysis {
  const settings = { ...DEFAULT_REGION_OPTIONS, ...options };
  const { width, height } = diff;
  const sizeChange = describeSizeChange(diff.before, diff.after);
  if (diff.diffPixels + diff.aaPixels + diff.faintPixels === 0) {
    return { width, height, regions: [], coverage: 0, wholeScreen: false, sizeChange };
  }

  let cellSize = Math.max(1, settings.cellSize);
  let components = findComponents(diff, cellSize, settings.linkCells);
  while (components.significant.length + components.faint.length > MAX_RAW_COMPONENTS && cellSize < Math.max(width, height)) {
    cellSize *= 2;
    components = findComponents(diff, cellSize, settings.linkCells);
  }

  const meaningful: Component[] = [];
  const noise: Component[] = [...components.faint];
  for (const component of components.significant) {
    (component.diff >= settings.minDiffPixels ? meaningful : noise).push(component);
  }

  const mergedMeaningful = mergeComponents(meaningful, settings.mergeGap, settings.maxRegions, belongTogether);
  // noise that touches a real change is part of that change's box
  const remainingNoise: Component[] = [];
  for (const component of noise) {
    const host = mergedMeaningful.find((m) => {
      const { gapX, gapY } = gapBetween(m, component);
      return gapX <= settings.mergeGap && gapY <= settings.mergeGap;
    });
    if (host) {
      host.diff += component.diff;
      host.aa += component.aa;
      host.faint += component.faint;
    } else {
      remainingNoise.push(component);
    }
  }
  const noiseGap = settings.mergeGap * 3;
  const mergedNoise = mergeComponents(remainingNoise, noiseGap, settings.maxNoiseRegions, (a, b, gap) => {
    const { gapX, gapY } = gapBetween(a, b);
    return gapX <= gap && gapY <= gap;
  });

  mergedMeaningful.sort(byPosition);
  mergedNoise.sort(byPosition);
  let coveredArea = 0;
  for (const c of mergedMeaningful) coveredArea += (c.x1 - c.x0) * (c.y1 - c.y0);
  const coverage = Math.min(1, coveredArea / (width * height));

  const toRegion = (c: Component, noiseOnly: boolean): PixelRegion => ({
    box: [c.x0, c.y0, c.x1, c.y1],
    diffPixels: c.diff,
    aaPixels: c.aa,
    faintPixels: c.faint,
    noiseOnly,
  });
  return {
    width,
    height,
    regions: [...mergedMeaningful.map((c) => toRegion(c, false)), ...mergedNoise.map((c) => toRegion(c, true))],
    coverage,
    wholeScreen: coverage > settings.wholeScreenCoverage,
    sizeChange,
  };
}

/**
 * The analysis with its regions replaced, as the passes after findRegions need it (rendering noise,
 * faint recolours, regions that moved together): meaningful regions first, then noise-only ones, each
 * by position, and the coverage and whole-screen rule recomputed from the meaningful ones.
 */
export function withRegions(
  analysis: RegionAnalysis,
  meaningful: PixelRegion[],
  noise: PixelRegion[],
  wholeScreenCoverage = DEFAULT_REGION_OPTIONS.wholeScreenCoverage,
): RegionAnalysis {
  const byBox = (a: PixelRegion, b: PixelRegion) =>
    a.box[1] - b.box[1] || a.box[0] - b.box[0] || a.box[3] - b.box[3] || a.box[2] - b.box[2];
  const area = analysis.width * analysis.height;
  const covered = meaningful.reduce((s, r) => s + (r.box[2] - r.box[0]) * (r.box[3] - r.box[1]), 0);
  const coverage = area ? Math.min(1, covered / area) : 0;
  return {
    ...analysis,
    regions: [...[...meaningful].sort(byBox), ...[...noise].sort(byBox)],
    coverage,
    wholeScreen: coverage > wholeScreenCoverage,
  };
}
