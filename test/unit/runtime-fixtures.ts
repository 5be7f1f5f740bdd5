// Shared helpers of the runtime tests (test/unit/ and test/integration/): the repository paths, the
// models folder, and real PNG files drawn with pngjs (flat screens with coloured boxes, like simple UI
// screenshots).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

/** dist/test/unit/x.js -> repository root */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** the shipped models (PROCAP_TEST_MODELS may point elsewhere while developing) */
export const MODELS_DIR = process.env.PROCAP_TEST_MODELS ?? path.join(REPO_ROOT, 'models');
export const CLI = path.join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
export const REALPAIRS = path.resolve(REPO_ROOT, '..', 'shared', 'realpairs');

/** [x0, y0, x1, y1, r, g, b] */
export type Rect = [number, number, number, number, number, number, number];

export function drawPng(width: number, height: number, rects: Rect[], background: [number, number, number] = [255, 255, 255]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    png.data[i * 4] = background[0];
    png.data[i * 4 + 1] = background[1];
    png.data[i * 4 + 2] = background[2];
    png.data[i * 4 + 3] = 255;
  }
  for (const [x0, y0, x1, y1, r, g, b] of rects) {
    for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) {
      for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) {
        const i = (y * width + x) * 4;
        png.data[i] = r;
        png.data[i + 1] = g;
        png.data[i + 2] = b;
      }
    }
  }
  return PNG.sync.write(png);
}

/** A 480x320 "screen" with a few elements; `variant` moves a button and recolours a badge. */
export function screenPair(): { before: Buffer; after: Buffer; changedBoxes: [number, number, number, number][] } {
  const common: Rect[] = [
    [0, 0, 480, 40, 40, 40, 60],
    [20, 60, 300, 80, 200, 200, 200],
    [20, 100, 300, 120, 200, 200, 200],
  ];
  const before = drawPng(480, 320, [...common, [40, 200, 140, 236, 30, 90, 220], [360, 60, 420, 84, 30, 160, 60]]);
  const after = drawPng(480, 320, [...common, [40, 224, 140, 260, 30, 90, 220], [360, 60, 420, 84, 220, 40, 40]]);
  return {
    before,
    after,
    changedBoxes: [
      [40, 200, 140, 260],
      [360, 60, 420, 84],
    ],
  };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `procap-${prefix}-`));
}

export function decodePngBase64(b64: string): { width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(b64, 'base64'));
  return { width: png.width, height: png.height };
}

/** true when box a contains box b */
export function contains(a: number[], b: number[]): boolean {
  return a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3];
}
