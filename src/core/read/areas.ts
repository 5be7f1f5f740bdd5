// Read areas grouped so that text shared by overlapping areas is detected and recognized once: the
// regions of a pair are often close together (a list whose rows all moved), and each region is read
// with a wide margin around it, so their areas overlap. Two areas are read as one when the box around
// both costs the detector no more pixels than the two apart and is read at the same scale.
import type { Box } from '../report.js';
import type { RgbaImage } from '../image.js';
import type { ReadOptions, TextLine } from './ocr.js';
import { DETECT_MAX_SIDE, DETECT_SCALE } from './ocr.js';
import { intersects, unionOf } from './box.js';

/** What reads the text lines in an area of an image (a TextReader, or one that shares its reads). */
export interface LineReader {
  read(image: RgbaImage, area?: Box, options?: ReadOptions): Promise<TextLine[]>;
}

const areaOf = (b: Box) => (b[2] - b[0]) * (b[3] - b[1]);
/** The detector's scale for an area (TextReader.read's default). */
const scaleOf = (b: Box) => Math.max(0.25, Math.min(DETECT_SCALE, DETECT_MAX_SIDE / Math.max(b[2] - b[0], b[3] - b[1])));

/** Boxes that together cover `areas`, each area inside one of them; greedy, pairs that save the most merged first. */
export function groupAreas(areas: Box[]): Box[] {
  const groups = areas.map((a) => [...a] as Box);
  for (;;) {
    let best: { i: number; j: number; saved: number; box: Box } | undefined;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const box = unionOf([groups[i], groups[j]])!;
        const saved = areaOf(groups[i]) + areaOf(groups[j]) - areaOf(box);
        if (saved < 0 || scaleOf(box) !== scaleOf(groups[i]) || scaleOf(box) !== scaleOf(groups[j])) continue;
        if (!best || saved > best.saved) best = { i, j, saved, box };
      }
    }
    if (!best) return groups;
    groups[best.i] = best.box;
    groups.splice(best.j, 1);
  }
}

/**
 * A LineReader over `reader` for the given areas of each image: each group of areas (groupAreas) is
 * read once, and an area gets the group's lines that reach into it. Other areas are read as asked.
 */
export function groupedReader(reader: LineReader, planned: { image: RgbaImage; areas: Box[] }[]): LineReader {
  const plans = planned.map(({ image, areas }) => ({ image, groups: groupAreas(areas), read: new Map<number, Promise<TextLine[]>>() }));
  return {
    read(image, area = [0, 0, image.width, image.height], options) {
      const plan = plans.find((p) => p.image === image);
      const g = options
        ? -1
        : (plan?.groups.findIndex((b) => b[0] <= area[0] && b[1] <= area[1] && b[2] >= area[2] && b[3] >= area[3]) ?? -1);
      if (!plan || g < 0) return reader.read(image, area, options);
      let lines = plan.read.get(g);
      if (!lines) plan.read.set(g, (lines = reader.read(image, plan.groups[g])));
      return lines.then((all) => all.filter((l) => intersects(l.box, area)));
    },
  };
}
