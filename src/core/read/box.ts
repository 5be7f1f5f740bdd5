// Small box arithmetic the reader shares. Boxes are [x0, y0, x1, y1), x1/y1 exclusive.
import type { Box } from '../report.js';

export const intersects = (a: Box, b: Box): boolean => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
export const grow = (b: Box, m: number): Box => [b[0] - m, b[1] - m, b[2] + m, b[3] + m];
export const translate = (b: Box, dx: number, dy: number): Box => [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
/** `b` cut to an image of the given size. */
export const clipTo = (size: { width: number; height: number }, b: Box): Box => [
  Math.max(0, b[0]),
  Math.max(0, b[1]),
  Math.min(size.width, b[2]),
  Math.min(size.height, b[3]),
];
/** Whether the centre of `inner` lies in `outer`. */
export const centreIn = (inner: Box, outer: Box): boolean => {
  const cx = (inner[0] + inner[2]) / 2,
    cy = (inner[1] + inner[3]) / 2;
  return cx >= outer[0] && cx < outer[2] && cy >= outer[1] && cy < outer[3];
};

/** The smallest box holding all of `boxes`; undefined for none. */
export function unionOf(boxes: Box[]): Box | undefined {
  if (!boxes.length) return undefined;
  return boxes.reduce((u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])] as Box);
}

/** The share of the smaller of two boxes that their intersection covers. */
export function overlapShare(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const area = (x: Box) => (x[2] - x[0]) * (x[3] - x[1]);
  return (w * h) / Math.min(area(a), area(b));
}
