// Draws the extension's marketplace icon, media/icon.png (128 x 128): two overlapping screenshots
// (before behind, after in front) with the changed region boxed in orange and a caption line under it.
// Shapes are filled with 4 x 4 supersampling for smooth edges. Re-run after changing it:
//   node scripts/draw-icon.mjs [OUT.png]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { PNG } from 'pngjs';

const SIZE = 128;
const SUB = 4;
// node:util's parser directly, not src/cli/args.ts: drawing the icon needs no build
let out;
try {
  const { positionals } = parseArgs({ allowPositionals: true, strict: true });
  if (positionals.length > 1) throw new Error('give at most one output file');
  out = positionals[0] ?? new URL('../media/icon.png', import.meta.url).pathname;
} catch (e) {
  console.error(`draw-icon: ${e.message}\nusage: node scripts/draw-icon.mjs [OUT.png]`);
  process.exit(2);
}

/** Inside a rectangle with rounded corners (x, y, w, h, radius r). */
function roundedRect(x, y, w, h, r) {
  return (px, py) => {
    if (px < x || py < y || px > x + w || py > y + h) return false;
    const cx = Math.min(Math.max(px, x + r), x + w - r);
    const cy = Math.min(Math.max(py, y + r), y + h - r);
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
  };
}

/** The outline (width t) of a rounded rectangle. */
function outline(x, y, w, h, r, t) {
  const outer = roundedRect(x, y, w, h, r);
  const inner = roundedRect(x + t, y + t, w - 2 * t, h - 2 * t, Math.max(0, r - t));
  return (px, py) => outer(px, py) && !inner(px, py);
}

const hex = (c) => [parseInt(c.slice(1, 3), 16), parseInt(c.slice(3, 5), 16), parseInt(c.slice(5, 7), 16), 255];

// Painted in order, the later on top.
const layers = [
  // background tile
  [roundedRect(4, 4, 120, 120, 24), hex('#1e293b')],
  // the "before" screenshot, behind
  [roundedRect(18, 20, 62, 50, 7), hex('#64748b')],
  [roundedRect(18, 20, 62, 12, 7), hex('#475569')],
  // the "after" screenshot, in front
  [roundedRect(44, 40, 66, 54, 7), hex('#f8fafc')],
  [roundedRect(44, 40, 66, 13, 7), hex('#cbd5e1')],
  [roundedRect(44, 47, 66, 6, 0), hex('#cbd5e1')],
  [roundedRect(52, 60, 34, 5, 2.5), hex('#94a3b8')],
  [roundedRect(52, 70, 24, 5, 2.5), hex('#94a3b8')],
  // the changed element (a button) and the box around it
  [roundedRect(84, 74, 18, 10, 3), hex('#22c55e')],
  [outline(79, 69, 28, 20, 5, 3), hex('#fb923c')],
  // the caption under the screenshots
  [roundedRect(18, 102, 56, 7, 3.5), hex('#fb923c')],
  [roundedRect(78, 102, 32, 7, 3.5), hex('#94a3b8')],
];

const png = new PNG({ width: SIZE, height: SIZE });
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SUB; sy++) {
      for (let sx = 0; sx < SUB; sx++) {
        const px = x + (sx + 0.5) / SUB;
        const py = y + (sy + 0.5) / SUB;
        let color = [0, 0, 0, 0];
        for (const [inside, c] of layers) if (inside(px, py)) color = c;
        // premultiplied, so transparent samples do not darken the edge
        sum[0] += (color[0] * color[3]) / 255;
        sum[1] += (color[1] * color[3]) / 255;
        sum[2] += (color[2] * color[3]) / 255;
        sum[3] += color[3];
      }
    }
    const n = SUB * SUB;
    const alpha = sum[3] / n;
    const i = (y * SIZE + x) * 4;
    png.data[i] = alpha > 0 ? Math.round((sum[0] / n / alpha) * 255) : 0;
    png.data[i + 1] = alpha > 0 ? Math.round((sum[1] / n / alpha) * 255) : 0;
    png.data[i + 2] = alpha > 0 ? Math.round((sum[2] / n / alpha) * 255) : 0;
    png.data[i + 3] = Math.round(alpha);
  }
}
writeFileSync(out, PNG.sync.write(png));
console.log(`draw-icon: wrote ${out} (${SIZE} x ${SIZE})`);
