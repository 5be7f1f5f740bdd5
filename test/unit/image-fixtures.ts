// Real PNG pictures for the core tests: small synthetic screens drawn into RGBA buffers and
// written as real PNG files (no mocks). Not a test file itself.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng, type RgbaImage } from '../../src/core/image.js';
import type { Box } from '../../src/core/report.js';

export type Rgba = [number, number, number, number];

export function blankImage(width: number, height: number, colour: Rgba = [255, 255, 255, 255]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(colour, i * 4);
  return { width, height, data };
}

export function cloneImage(image: RgbaImage): RgbaImage {
  return { width: image.width, height: image.height, data: image.data.slice() };
}

export function fillRect(image: RgbaImage, [x0, y0, x1, y1]: Box, colour: Rgba): RgbaImage {
  for (let y = Math.max(0, y0); y < Math.min(image.height, y1); y++) {
    for (let x = Math.max(0, x0); x < Math.min(image.width, x1); x++) image.data.set(colour, (y * image.width + x) * 4);
  }
  return image;
}

export function pixelAt(image: RgbaImage, x: number, y: number): Rgba {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2], image.data[i + 3]];
}

/** A plausible small UI screen: header bar, a few "text lines" and a button. */
export function sampleScreen(width = 320, height = 200): RgbaImage {
  const image = blankImage(width, height, [250, 250, 250, 255]);
  fillRect(image, [0, 0, width, 24], [40, 60, 90, 255]);
  for (let line = 0; line < 4; line++) {
    for (let word = 0; word < 5; word++) {
      const x = 16 + word * 48;
      fillRect(image, [x, 40 + line * 18, x + 36, 40 + line * 18 + 8], [60, 60, 60, 255]);
    }
  }
  fillRect(image, [20, 140, 100, 170], [30, 120, 220, 255]);
  return image;
}

const createdDirs: string[] = [];

/** A fresh temporary folder, removed when the test file's process exits. */
export function tempDir(prefix = 'procap-core-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (createdDirs.length === 0) {
    process.on('exit', () => {
      for (const created of createdDirs) rmSync(created, { recursive: true, force: true });
    });
  }
  createdDirs.push(dir);
  return dir;
}

export function writePng(path: string, image: RgbaImage): string {
  writeFileSync(path, encodePng(image));
  return path;
}
