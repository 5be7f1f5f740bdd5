// The frames evaluation (src/lab/frames-eval.ts): PSNR and SSIM against worked values, the
// cross-fade and warp baselines, the scoring of one pair's regions, the summary and the arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { encodePng, type RgbaImage } from '../../src/core/image.js';
import type { Box, ChangeRegion } from '../../src/core/report.js';
import { PSNR_CAP_DB, cropRgb, crossfade, meanSsim, psnr, resizeRgba, ssim, subRgb, warp, type Rgb } from '../../src/lab/frame-metrics.js';
import { parseFramesEvalArgs, regionTruth, scorePair, summarise, type RegionScore } from '../../src/lab/frames-eval.js';
import { parseArgs as parseDataArgs } from '../../src/data/cli.js';
import { REPO_ROOT, tempDir } from './runtime-fixtures.js';

const close = (a: number, b: number, eps: number, what = '') => assert.ok(Math.abs(a - b) <= eps, `${what} ${a} is not ${b} +- ${eps}`);

function flat(width: number, height: number, rgb: [number, number, number]): Rgb {
  const data = new Float32Array(width * height * 3);
  for (let i = 0; i < width * height; i++) data.set(rgb, i * 3);
  return { width, height, data };
}

function rgba(width: number, height: number, paint: (x: number, y: number) => [number, number, number]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      data.set([...paint(x, y), 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

test('PSNR: worked values, pooled over frames, capped for identical frames', () => {
  const a = flat(16, 16, [100, 100, 100]);
  const b = flat(16, 16, [110, 110, 110]);
  // MSE 100: 10 log10(255^2 / 100)
  close(psnr([a], [b]), 28.1308, 1e-4, 'psnr');
  // one exact frame and one with MSE 100: pooled MSE 50, not an infinite mean
  close(psnr([a, a], [b, a]), 10 * Math.log10((255 * 255) / 50), 1e-9, 'pooled');
  assert.equal(psnr([a], [a]), PSNR_CAP_DB);
  assert.throws(() => psnr([a], [flat(8, 8, [0, 0, 0])]), /differ in size/);
  assert.throws(() => psnr([a], []), /as many frames/);
});

test('SSIM: 1 for identical pictures; closed forms for flat pictures and for a picture and its negative', () => {
  const x = rgba(32, 24, (i, j) => [(i * 7 + j * 13) % 256, (i * 3) % 256, (j * 11) % 256]);
  assert.equal(Number(ssim(cropRgb(x, [0, 0, 32, 24]), cropRgb(x, [0, 0, 32, 24])).toFixed(12)), 1);
  const C1 = (0.01 * 255) ** 2;
  // flat luma 100 and 110 (grey): no variance, so SSIM is the luminance term alone at every window
  close(
    ssim(flat(20, 20, [100, 100, 100]), flat(20, 20, [110, 110, 110])),
    (2 * 100 * 110 + C1) / (100 ** 2 + 110 ** 2 + C1),
    1e-9,
    'flat',
  );
  // under 11 px: one window over the whole picture. A 0/255 checkerboard and its negative: equal
  // means, covariance = -variance, so SSIM = (C2 - 2 var) / (C2 + 2 var)
  const C2 = (0.03 * 255) ** 2;
  const v = 127.5 ** 2;
  const board = rgba(4, 4, (i, j) => ((i + j) % 2 ? [255, 255, 255] : [0, 0, 0]));
  const negative = rgba(4, 4, (i, j) => ((i + j) % 2 ? [0, 0, 0] : [255, 255, 255]));
  close(ssim(cropRgb(board, [0, 0, 4, 4]), cropRgb(negative, [0, 0, 4, 4])), (C2 - 2 * v) / (C2 + 2 * v), 1e-4, 'negative');
  // noise lowers SSIM below 1 and symmetric in its two arguments
  const noisy = rgba(32, 24, (i, j) => {
    const [r, g, b] = [(i * 7 + j * 13) % 256, (i * 3) % 256, (j * 11) % 256];
    const n = ((i * 31 + j * 17) % 21) - 10;
    return [Math.min(255, Math.max(0, r + n)), g, b];
  });
  const s1 = ssim(cropRgb(x, [0, 0, 32, 24]), cropRgb(noisy, [0, 0, 32, 24]));
  const s2 = ssim(cropRgb(noisy, [0, 0, 32, 24]), cropRgb(x, [0, 0, 32, 24]));
  assert.ok(s1 < 1 && s1 > 0.5, `ssim ${s1}`);
  close(s1, s2, 1e-12, 'symmetric');
  close(
    meanSsim([cropRgb(x, [0, 0, 32, 24]), cropRgb(noisy, [0, 0, 32, 24])], [cropRgb(x, [0, 0, 32, 24]), cropRgb(x, [0, 0, 32, 24])]),
    (1 + s1) / 2,
    1e-12,
  );
});

test('cross-fade: the ends at t = 0 and 1, the mix between', () => {
  const a = flat(4, 4, [0, 100, 200]);
  const b = flat(4, 4, [200, 100, 0]);
  assert.deepEqual(crossfade(a, b, 0).data, a.data);
  assert.deepEqual(crossfade(a, b, 1).data, b.data);
  assert.deepEqual([...crossfade(a, b, 0.25).data.slice(0, 3)], [50, 100, 150]);
});

test('warp: the box travels (and scales) by t over the before image; nothing else changes', () => {
  const red: [number, number, number] = [255, 0, 0];
  const white: [number, number, number] = [255, 255, 255];
  const before = rgba(24, 12, (x, y) => (x >= 2 && x < 6 && y >= 2 && y < 6 ? red : white));
  const box: Box = [0, 0, 24, 12];
  const at = (img: Rgb, x: number, y: number) => [...img.data.slice((y * img.width + x) * 3, (y * img.width + x) * 3 + 3)];
  // no box carried: the before picture
  assert.deepEqual(warp(before, box, [], 0.5).data, cropRgb(before, box).data);
  // moved 8 px right: half way it is 4 px right, and the place it left keeps its before pixels
  const half = warp(before, box, [{ from: [2, 2, 6, 6], to: [10, 2, 14, 6] }], 0.5);
  for (let x = 6; x < 10; x++) assert.deepEqual(at(half, x, 3), red, `x ${x}`);
  assert.deepEqual(at(half, 10, 3), white);
  assert.deepEqual(at(half, 2, 3), red);
  // scaled to twice the size at t = 1: the inner pixels of the 8 x 8 box are red
  const grown = warp(before, box, [{ from: [2, 2, 6, 6], to: [2, 2, 10, 10] }], 1);
  for (let x = 3; x < 9; x++) assert.deepEqual(at(grown, x, 5), red, `x ${x}`);
  assert.deepEqual(at(grown, 11, 5), white);
  // the scored box is a part of the image: coordinates stay the image's
  const part = warp(before, [8, 0, 16, 12], [{ from: [2, 2, 6, 6], to: [10, 2, 14, 6] }], 1);
  assert.deepEqual(at(part, 2, 3), red); // image x 10
  assert.deepEqual(at(part, 0, 3), white); // image x 8
});

test('bilinear resize and sub-picture', () => {
  const two = rgba(2, 1, (x) => (x ? [100, 100, 100] : [0, 0, 0]));
  assert.deepEqual(
    [...resizeRgba(two, 4, 1).data].filter((_, i) => i % 3 === 0),
    [0, 25, 75, 100],
  );
  const p = resizeRgba(
    rgba(3, 3, () => [7, 8, 9]),
    9,
    9,
  );
  assert.ok(p.data.every((v, i) => v === [7, 8, 9][i % 3]));
  const s = subRgb(p, 2, 3, 5, 4);
  assert.equal(s.width, 3);
  assert.equal(s.height, 1);
  assert.throws(() => subRgb(p, 0, 0, 10, 1), /not inside/);
  assert.throws(() => cropRgb(two, [0, 0, 3, 1]), /not inside/);
});

test('region truth: the change it matches, else reflow with the pushed elements carried, containers first', () => {
  const pair = {
    id: 'p',
    before: '',
    after: '',
    frames: [],
    changes: [{ kind: 'add', bbox_before: null, bbox_after: [10, 10, 50, 30] as Box }],
    reflowed: [
      { bbox_before: [10, 40, 50, 60] as Box, bbox_after: [10, 70, 50, 90] as Box },
      { bbox_before: [0, 35, 60, 100] as Box, bbox_after: [0, 35, 60, 130] as Box },
    ],
  };
  assert.deepEqual(regionTruth([8, 8, 52, 32], pair), { kind: 'add', carried: [] });
  const reflow = regionTruth([5, 38, 55, 95], pair);
  assert.equal(reflow?.kind, 'reflow');
  assert.deepEqual(
    reflow?.carried.map((c) => c.from),
    [
      [0, 35, 60, 100],
      [10, 40, 50, 60],
    ],
  );
  assert.equal(regionTruth([200, 200, 220, 220], pair), null);
  const move = { ...pair, changes: [{ kind: 'move', bbox_before: [0, 0, 10, 10] as Box, bbox_after: [20, 0, 30, 10] as Box }] };
  assert.deepEqual(regionTruth([0, 0, 12, 12], move)?.carried, [{ from: [0, 0, 10, 10], to: [20, 0, 30, 10] }]);
});

test('scorePair: frames equal to the truth score the cap; the baselines are scored over the crop box', () => {
  const dir = tempDir('procap-frames-eval-');
  try {
    // a 96 x 96 screen, so the crop box is the whole screen and the 96 px frames need no scaling
    const shade = (k: number) =>
      rgba(96, 96, (x, y) => (x >= 20 + 4 * k && x < 40 + 4 * k && y >= 30 && y < 50 ? [200, 40, 40] : [250, 250, 250]));
    const frames = Array.from({ length: 9 }, (_, k) => shade(k));
    const names = ['before.png', ...[1, 2, 3, 4, 5, 6, 7].map((k) => `t${k}.png`), 'after.png'];
    names.forEach((n, k) => fs.writeFileSync(path.join(dir, n), encodePng(frames[k])));
    const b64 = (img: RgbaImage) => ({ width: img.width, height: img.height, pngBase64: encodePng(img).toString('base64') });
    const pair = {
      id: 'p1',
      before: 'before.png',
      after: 'after.png',
      frames: names.slice(1, 8),
      changes: [{ kind: 'move', bbox_before: [20, 30, 40, 50] as Box, bbox_after: [52, 30, 72, 50] as Box }],
      reflowed: [],
    };
    const region: ChangeRegion = {
      id: 1,
      boxBefore: [20, 30, 72, 50],
      boxAfter: [20, 30, 72, 50],
      kind: 'move',
      caption: '',
      confidence: 1,
      diffPixels: 100,
      noiseOnly: false,
      cropBox: [0, 0, 96, 96],
      procedure: {
        frames: frames.map(b64),
        scores: [],
        keyframes: [],
        imagined: [],
        full: { box: [0, 0, 96, 96], scale: 1, frames: frames.map(b64) },
      } as never,
    };
    const [score] = scorePair(pair, dir, [region, { ...region, id: 2, noiseOnly: true }]);
    assert.equal(score.kind, 'move');
    assert.equal(score.scores.runtime_96.psnr, PSNR_CAP_DB);
    close(score.scores.runtime_96.ssim, 1, 1e-9);
    assert.equal(score.scores.runtime_full.psnr, PSNR_CAP_DB);
    // neither baseline is exact: the warp leaves the box's before pixels where it was, the cross-fade
    // shows two half-faded boxes
    assert.ok(score.scores.warp.psnr < 30, `warp ${score.scores.warp.psnr}`);
    assert.ok(score.scores.crossfade.psnr < 30, `crossfade ${score.scores.crossfade.psnr}`);
    assert.equal(score.scores.crossfade_96.psnr, score.scores.crossfade.psnr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('summarise: means, paired differences to the cross-fade, and whether they lie above zero', () => {
  const scores: RegionScore[] = [];
  for (let p = 0; p < 6; p++)
    scores.push({
      pair: `p${p}`,
      kind: 'move',
      box: [0, 0, 1, 1],
      scores: {
        runtime_96: { psnr: 30 + p, ssim: 0.9 },
        crossfade: { psnr: 28 + p, ssim: 0.85 },
        warp: { psnr: 27 + p, ssim: 0.86 },
      },
    });
  const s = summarise(scores, 200, 1);
  assert.equal(s.runtime_96.regions, 6);
  close(s.runtime_96.psnr.mean, 32.5, 1e-9);
  assert.deepEqual(s.runtime_96.psnr_minus_crossfade, { mean: 2, lo: 2, hi: 2 });
  assert.equal(s.runtime_96.beats_crossfade, true);
  assert.equal(s.warp.beats_crossfade, false);
  assert.equal(s.crossfade.psnr_minus_crossfade, undefined);
  assert.ok(s.runtime_96.psnr.lo < 32.5 && s.runtime_96.psnr.hi > 32.5);
});

test('arguments: defaults, and clear messages for bad ones', () => {
  const o = parseFramesEvalArgs([]);
  assert.equal(o.seed, 4242);
  assert.equal(o.split, 'test');
  assert.throws(() => parseFramesEvalArgs(['--count', '0']), /--count must be an integer >= 1 \(got "0"\)/);
  assert.throws(() => parseFramesEvalArgs(['--split', 'dev']), /--split must be train, val or test/);
  assert.throws(() => parseFramesEvalArgs(['--provider', 'gpu']), /--provider must be auto, cpu or cuda/);
  assert.throws(() => parseFramesEvalArgs(['--data', '/nonexistent-dir']), /no manifest.jsonl there/);
  assert.throws(() => parseFramesEvalArgs(['--out', '/nonexistent-dir/x.json']), /its folder does not exist/);
  assert.throws(() => parseFramesEvalArgs(['--bogus']), /unknown option --bogus/);
  const cli = spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist', 'src', 'lab', 'frames-eval.js'), '--count', 'x'], {
    encoding: 'utf8',
  });
  assert.equal(cli.status, 2);
  assert.match(cli.stderr, /frames-eval: --count must be an integer/);
  assert.match(cli.stderr, /usage: npm run --silent frames-eval/);
});

test('data CLI: --all-frames is off unless given', () => {
  const base = ['--seed', '1', '--count', '2', '--split', 'test', '--out', 'x'];
  assert.equal(parseDataArgs(base).allFrames, undefined);
  assert.equal(parseDataArgs([...base, '--all-frames']).allFrames, true);
  assert.throws(() => parseDataArgs([...base, '--all-frames=yes']), /takes no value/);
});
