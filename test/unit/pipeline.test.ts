import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crc32 as zlibCrc32, deflateSync } from 'node:zlib';
import { SessionManager } from '../../src/core/session.js';
import { composeSummary, DEFAULT_BEAM_WIDTH, describe, review, NO_CHANGE_CAPTION } from '../../src/core/pipeline.js';
import { CONTEXT_SIZE, sampleContext } from '../../src/core/context.js';
import { cropsToTensor, extractCrop, wholeScreenCrop, CROP_SIZE } from '../../src/core/crop.js';
import { decodePng } from '../../src/core/image.js';
import { encodeProcedure, tokenize } from '../../src/core/procap/encode.js';
import { contractPairConsistency, pairConsistentLogits } from '../../src/core/pair-consistency.js';
import { ort } from '../../src/core/session.js';
import type { ChangeReport } from '../../src/core/report.js';
import { MODELS_DIR, contains, decodePngBase64, drawPng, screenPair, tempDir } from './runtime-fixtures.js';

let sessions: SessionManager;
before(() => {
  sessions = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
});
after(async () => {
  await sessions.dispose();
});

test('summary composition: meaningful captions joined with "and", duplicates once, size change last', () => {
  assert.equal(composeSummary([]), NO_CHANGE_CAPTION);
  assert.equal(composeSummary(['the button moved down', 'the title turned red']), 'the button moved down and the title turned red');
  assert.equal(composeSummary(['a', 'a', 'b']), 'a and b');
  assert.equal(composeSummary(['x'], 'the theme changed to dark'), 'the theme changed to dark');
  assert.equal(composeSummary([], undefined, 'the screenshot grew 66 px taller'), 'the screenshot grew 66 px taller');
  // at most three changes named, the rest counted (training/tests/test_summary.py checks the same)
  assert.equal(composeSummary(['a', 'b', 'c']), 'a and b and c');
  assert.equal(composeSummary(['a', 'b', 'c', 'd']), 'a and b and c and one more change');
  assert.equal(
    composeSummary(['a', 'b', 'c', 'd', 'e', 'd'], undefined, 'the screenshot grew 3 px wider'),
    'a and b and c and 2 more changes and the screenshot grew 3 px wider',
  );
});

test('identical screenshots: no regions, "no visible change", not changed', async () => {
  const { before: img } = screenPair();
  const report = await describe(sessions, img, Buffer.from(img));
  assert.equal(report.changed, false);
  assert.equal(report.summary, NO_CHANGE_CAPTION);
  assert.equal(report.regions.length, 0);
  assert.equal(report.provider, 'cpu');
  assert.equal(report.before.width, 480);
});

test('a pair with two changes: two boxed regions with captions, kinds, procedure frames and timings', async () => {
  const pair = screenPair();
  let early: { count: number; ms: number } | undefined;
  const report = await describe(sessions, pair.before, pair.after, {
    onCaptions: (regions, ms) => {
      early = { count: regions.length, ms };
    },
  });
  const meaningful = report.regions.filter((r) => !r.noiseOnly);
  assert.equal(meaningful.length, 2, JSON.stringify(report.regions.map((r) => r.boxBefore)));
  for (const truth of pair.changedBoxes) {
    assert.ok(
      meaningful.some((r) => contains(r.boxBefore, truth)),
      `a region covers ${truth}`,
    );
  }
  const kinds = sessions.contract.kinds;
  for (const r of meaningful) {
    assert.ok(kinds.includes(r.kind), r.kind);
    assert.equal(typeof r.caption, 'string');
    assert.ok(r.confidence > 0 && r.confidence <= 1);
    assert.ok(r.diffPixels > 0);
    const p = r.procedure;
    assert.ok(p, 'procedure frames present');
    assert.equal(p.frames.length, 9);
    assert.equal(p.scores.length, 7);
    assert.equal(p.keyframes.length, sessions.contract.k);
    assert.ok(p.keyframes.every((k, i) => k >= 1 && k <= 7 && (i === 0 || k > p.keyframes[i - 1])));
    assert.equal(p.imagined.length, sessions.contract.k);
    for (const f of [...p.frames, ...p.imagined]) assert.deepEqual(decodePngBase64(f.pngBase64), { width: 96, height: 96 });
    // the first and last frames are the crops themselves
    assert.equal(r.cropBox[2] - r.cropBox[0], r.cropBox[3] - r.cropBox[1], 'square crop');
    // the full-resolution frames: the region's box with context, at its size (the pair is small)
    const full = p.full;
    assert.ok(full, 'full-resolution frames present');
    assert.ok(contains(full.box, r.boxBefore) && contains(full.box, r.boxAfter), `${full.box} holds the region`);
    assert.equal(full.scale, 1);
    assert.equal(full.frames.length, 9);
    const size = { width: full.box[2] - full.box[0], height: full.box[3] - full.box[1] };
    for (const f of [...full.frames, ...(full.imagined ?? [])]) assert.deepEqual(decodePngBase64(f.pngBase64), size);
    assert.equal(full.imagined?.length, sessions.contract.k);
    assert.ok(full.imaginedShare?.every((v) => v >= 0 && v <= 1));
  }
  assert.ok(early && early.count === report.regions.length, 'captions were reported before the end');
  const t = report.timings;
  for (const key of ['decodeMs', 'diffMs', 'regionsMs', 'interpolateMs', 'encodeMs', 'decodeCaptionMs', 'imagineMs'] as const) {
    assert.ok(t[key] >= 0 && t[key] <= t.totalMs, key);
  }
  assert.ok(t.interpolateMs > 0 && t.encodeMs > 0 && t.decodeCaptionMs > 0);
  assert.equal(report.summary, composeSummary(report.regions.filter((r) => !r.noiseOnly && r.kind !== 'none').map((r) => r.caption)));
});

test('options: procedure off skips the frames; beam search gives a caption too; paths work', async () => {
  const pair = screenPair();
  const dir = tempDir('pipeline');
  fs.writeFileSync(path.join(dir, 'a.png'), pair.before);
  fs.writeFileSync(path.join(dir, 'b.png'), pair.after);
  const fast = await describe(sessions, path.join(dir, 'a.png'), path.join(dir, 'b.png'), { procedure: false });
  assert.equal(fast.before.path, path.join(dir, 'a.png'));
  assert.ok(fast.regions.every((r) => r.procedure === undefined));
  assert.equal(fast.timings.interpolateMs, 0);
  // the default decoding is the contract's beam width; width 1 is greedy
  const contract = JSON.parse(fs.readFileSync(path.join(MODELS_DIR, 'contract.json'), 'utf8'));
  assert.equal(DEFAULT_BEAM_WIDTH, contract.default_beam_width);
  const beam = await describe(sessions, pair.before, pair.after, { beamWidth: DEFAULT_BEAM_WIDTH, procedure: false });
  assert.deepEqual(
    beam.regions.map((r) => r.caption),
    fast.regions.map((r) => r.caption),
  );
  const greedy = await describe(sessions, pair.before, pair.after, { beamWidth: 1, procedure: false });
  assert.equal(greedy.regions.length, fast.regions.length);
  await assert.rejects(describe(sessions, pair.before, pair.after, { beamWidth: 0 }), /beamWidth/);
});

test('review: the report first, the procedure frames only when asked, computed once, as describe makes them', async () => {
  const pair = screenPair();
  const described = await review(sessions, pair.before, pair.after);
  assert.ok(described.report.regions.length > 0);
  assert.ok(
    described.report.regions.every((r) => r.procedure === undefined),
    'no frames before they are asked for',
  );
  assert.equal(described.report.timings.interpolateMs, 0);
  const framed = await described.withProcedure();
  assert.equal(await described.withProcedure(), framed, 'a second ask shares the first');
  assert.ok(framed.timings.interpolateMs > 0 && framed.timings.totalMs > described.report.timings.totalMs);
  const whole = await describe(sessions, pair.before, pair.after);
  const strip = (r: ChangeReport) => ({ ...r, timings: undefined });
  assert.deepEqual(strip(framed), strip(whole), 'the same report and frames as describe');
  assert.deepEqual(strip(described.report), strip(await describe(sessions, pair.before, pair.after, { procedure: false })));
  const cancelled = new AbortController();
  cancelled.abort(new DOMException('stop', 'AbortError'));
  const again = await review(sessions, pair.before, pair.after);
  await assert.rejects(again.withProcedure(cancelled.signal), { name: 'AbortError' });
  assert.deepEqual(strip(await again.withProcedure()), strip(whole), 'a cancelled ask is retried');
});

test('review of a whole-screen change gives the global region its frames', async () => {
  const light = drawPng(160, 120, [[10, 10, 150, 30, 200, 200, 200]], [255, 255, 255]);
  const dark = drawPng(160, 120, [[10, 10, 150, 30, 80, 80, 80]], [20, 20, 30]);
  const framed = await (await review(sessions, light, dark)).withProcedure();
  assert.ok(framed.global?.procedure, 'the whole-screen sample has frames');
  assert.equal(framed.global.procedure.frames.length, 9);
  // at full resolution over the whole screen
  assert.deepEqual(framed.global.procedure.full?.box, [0, 0, 160, 120]);
  assert.deepEqual(decodePngBase64(framed.global.procedure.full.frames[4].pngBase64), { width: 160, height: 120 });
});

test('different sizes: compared on the common area and the size change is reported', async () => {
  const small = drawPng(200, 100, [[10, 10, 60, 40, 0, 0, 200]]);
  const tall = drawPng(200, 166, [[10, 10, 60, 40, 0, 0, 200]]);
  const report = await describe(sessions, small, tall);
  assert.equal(report.sizeChange, 'the screenshot grew 66 px taller');
  assert.equal(report.changed, true);
  assert.match(report.summary, /66 px taller/);
  assert.equal(report.regions.length, 0);
  // a change in the common area of screenshots of different sizes: its frames, none at full resolution
  const recoloured = drawPng(200, 166, [[10, 10, 60, 40, 200, 0, 0]]);
  const changed = await describe(sessions, small, recoloured);
  const framed = changed.regions.filter((r) => r.procedure);
  assert.ok(framed.length > 0, 'the recoloured block has frames');
  assert.ok(
    framed.every((r) => r.procedure?.full === undefined),
    'no full-resolution frames across a size change',
  );
});

test('a global change (most of the screen) runs the whole-screen pass', async () => {
  const light = drawPng(160, 120, [[10, 10, 150, 30, 200, 200, 200]], [255, 255, 255]);
  const dark = drawPng(160, 120, [[10, 10, 150, 30, 80, 80, 80]], [20, 20, 30]);
  const report = await describe(sessions, light, dark, { procedure: false });
  assert.ok(report.global, 'whole-screen region present');
  assert.deepEqual(report.global.boxBefore, [0, 0, 160, 120]);
  assert.ok(sessions.contract.kinds.includes(report.global.kind));
});

test('bad input: a clear ImageInputError naming the file', async () => {
  const dir = tempDir('bad');
  const file = path.join(dir, 'broken.png');
  fs.writeFileSync(file, Buffer.from('this is not a png at all'));
  const { after: good } = screenPair();
  await assert.rejects(describe(sessions, file, good), (err: Error) => err.name === 'ImageInputError' && err.message.includes(file));
  await assert.rejects(describe(sessions, path.join(dir, 'missing.png'), good), /missing\.png/);
  await assert.rejects(describe(sessions, new Uint8Array([1, 2, 3]), good, { beforeName: 'upload.png' }), /upload\.png/);
});

test('a cold start decodes on the decode thread while the models load: the report a warm describe gives', async () => {
  const pair = screenPair();
  const fresh = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    assert.equal(fresh.cold, true);
    const first = await describe(fresh, pair.before, pair.after, { procedure: false });
    assert.equal(fresh.cold, false);
    const again = await describe(fresh, pair.before, pair.after, { procedure: false });
    const view = (r: ChangeReport) => ({
      summary: r.summary,
      regions: r.regions.map((x) => [x.boxBefore, x.kind, x.caption, x.confidence]),
    });
    assert.deepEqual(view(first), view(again));
    assert.ok(
      first.regions.some((r) => !r.noiseOnly),
      'the pair has changes',
    );
  } finally {
    await fresh.dispose();
  }
  // a file that does not decode there is decoded here, with the usual error naming it
  const broken = path.join(tempDir('cold'), 'broken.png');
  fs.writeFileSync(broken, Buffer.from('this is not a png at all'));
  const other = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    await assert.rejects(
      describe(other, pair.before, broken),
      (err: Error) => err.name === 'ImageInputError' && err.message.includes(broken),
    );
  } finally {
    await other.dispose();
  }
});

test('preloading loads the models a review needs one after another, and stop() ends it before the next', async () => {
  const stopped = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  const early = stopped.preload(true);
  early.stop();
  await early.done;
  assert.equal(stopped.cold, true, 'stopped before the first model');
  assert.equal(stopped.loadMs, 0);
  await stopped.dispose();
  const whole = new SessionManager({ modelsDir: MODELS_DIR, provider: 'cpu' });
  try {
    const all = whole.preload(false);
    await all.done;
    assert.equal(whole.cold, false);
    const before = whole.loadMs;
    assert.ok(before > 0);
    // the caption models are loaded now: asking for them loads nothing more
    for (const name of ['tokenizer_encoder', 'procedure_encoder', 'kind_prior', 'decoder_step'] as const) await whole.get(name);
    assert.equal(whole.loadMs, before);
  } finally {
    await whole.dispose();
  }
});

test('an aborted signal stops describe with an AbortError', async () => {
  const pair = screenPair();
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(describe(sessions, pair.before, pair.after, { signal: controller.signal }), { name: 'AbortError' });
  // aborted between stages: as soon as the captions exist
  const mid = new AbortController();
  await assert.rejects(
    describe(sessions, pair.before, pair.after, {
      signal: mid.signal,
      onCaptions: () => mid.abort(),
    }),
    { name: 'AbortError' },
  );
});

test("the reported kind is the argmax of the kind head logits (or the kind committee's) plus the kind prior bias, decided with the pair's other regions", async (t) => {
  const light = drawPng(160, 120, [[10, 10, 150, 30, 200, 200, 200]], [255, 255, 255]);
  const dark = drawPng(160, 120, [[10, 10, 150, 30, 80, 80, 80]], [20, 20, 30]);
  const c = sessions.contract;
  const n = c.kinds.length;
  let changedByPrior = 0;
  for (const [name, pair] of [
    ['two changes', screenPair()],
    ['global change', { before: light, after: dark }],
  ] as const) {
    // read: false: the decision rebuilt here is the models'; the text reader may explain a region otherwise
    // noneMinProbability 0: "none" is always believed, so the reported kind is the plain argmax
    const report = await describe(sessions, pair.before, pair.after, { procedure: false, noneMinProbability: 0, read: false });
    const shown = [...report.regions.filter((r) => !r.noiseOnly), ...(report.global ? [report.global] : [])];
    assert.ok(shown.length > 0, name);
    // the model samples rebuilt from the report: crops, and the layout context grouped as in training
    // (crops.jsonl: a whole-screen pair had only its whole-screen row)
    const before = decodePng(pair.before, 'before.png');
    const after = decodePng(pair.after, 'after.png');
    const width = Math.max(before.width, after.width);
    const height = Math.max(before.height, after.height);
    const regions = shown.filter((r) => r !== report.global);
    const contexts = new Float32Array(shown.length * CONTEXT_SIZE);
    shown.forEach((r, i) => {
      const group = r === report.global ? [r] : regions;
      contexts.set(
        sampleContext(
          before,
          after,
          group.map((g) => g.boxBefore),
          group.map((g) => g.cropBox),
          group.indexOf(r),
          width,
          height,
        ),
        i * CONTEXT_SIZE,
      );
    });
    const crop = (image: typeof before, r: (typeof shown)[number]) =>
      r === report.global ? wholeScreenCrop(image, r.cropBox[2], r.cropBox[3]) : extractCrop(image, r.cropBox);
    const beforeTensor = cropsToTensor(shown.map((r) => crop(before, r)));
    const afterTensor = cropsToTensor(shown.map((r) => crop(after, r)));
    const R = shown.length;
    const ends = await tokenize(
      await sessions.get('tokenizer_encoder'),
      Float32Array.from([...beforeTensor, ...afterTensor]),
      2 * R,
      CROP_SIZE,
    );
    const featSize = c.n_I * c.feat_dim;
    const encoded = await encodeProcedure(
      await sessions.get('procedure_encoder'),
      ends.features.slice(0, R * featSize),
      ends.features.slice(R * featSize),
      beforeTensor,
      afterTensor,
      contexts,
      R,
      c.n_I,
      c.feat_dim,
      CROP_SIZE,
    );
    // the kind committee (contract v6), when shipped: the mean of the head's and the members' log-softmaxes
    const members = await sessions.kindMembers();
    const memberLogProbs = members
      ? (
          await members.run({
            before_features: new ort.Tensor('float32', ends.features.slice(0, R * featSize), [R, c.n_I, c.feat_dim]),
            after_features: new ort.Tensor('float32', ends.features.slice(R * featSize), [R, c.n_I, c.feat_dim]),
            before_image: new ort.Tensor('float32', beforeTensor, [R, 3, CROP_SIZE, CROP_SIZE]),
            after_image: new ort.Tensor('float32', afterTensor, [R, 3, CROP_SIZE, CROP_SIZE]),
            context: new ort.Tensor('float32', contexts, [R, CONTEXT_SIZE]),
          })
        ).kind_log_probs
      : undefined;
    const M = memberLogProbs ? memberLogProbs.dims[1] : 0;
    const viewLogits = (i: number): number[] => {
      const own = Array.from(encoded.kindLogits.subarray(i * n, (i + 1) * n));
      if (!memberLogProbs) return own;
      const top = Math.max(...own);
      const lse = top + Math.log(own.reduce((s, v) => s + Math.exp(v - top), 0));
      const data = memberLogProbs.data as Float32Array;
      return own.map((v, k) => {
        let sum = v - lse;
        for (let m = 0; m < M; m++) sum += data[(i * M + m) * n + k];
        return sum / (1 + M);
      });
    };
    t.diagnostic(`kind committee members: ${M}`);
    const prior = await (await sessions.get('kind_prior')).run({ context: new ort.Tensor('float32', contexts, [R, CONTEXT_SIZE]) });
    const bias = prior.kind_bias.data as Float32Array;
    assert.equal(bias.length, R * n);
    assert.ok(
      bias.some((v) => v !== 0),
      'the prior says something',
    );
    // then the pair's regions help each other (contract "pair_consistency"), the whole-screen sample apart
    const summed = shown.flatMap((_, i) => viewLogits(i).map((v, k) => v + bias[i * n + k]));
    const pairRule = contractPairConsistency(c);
    const decided = pairRule
      ? Array.from(
          pairConsistentLogits(
            summed,
            n,
            shown.map((r) => r !== report.global),
            pairRule,
          ),
        )
      : summed;
    shown.forEach((r, i) => {
      const head = viewLogits(i);
      const fused = decided.slice(i * n, (i + 1) * n);
      const best = fused.indexOf(Math.max(...fused));
      const exps = fused.map((v) => Math.exp(v - fused[best]));
      const probability = 1 / exps.reduce((s, v) => s + v, 0);
      assert.equal(r.kind, c.kinds[best], `${name}, region ${r.id}: fused logits ${fused.map((v) => v.toFixed(2))}`);
      // the confidence is the fused softmax, so a pipeline that skipped the prior would fail here too
      assert.ok(Math.abs(r.confidence - probability) < 1e-4, `${name}, region ${r.id}: confidence ${r.confidence} vs ${probability}`);
      if (head.indexOf(Math.max(...head)) !== best) changedByPrior++;
    });
  }
  // how often the prior overturned the head on these pairs (informational, either is fine)
  t.diagnostic(`kind prior changed the argmax of ${changedByPrior} sample(s)`);
});

/** An 8-bit grey PNG of width x height, white with a black bar at row `bar`: made row by row, no pngjs. */
function greyPng(width: number, height: number, bar: number): Buffer {
  const raw = Buffer.alloc((width + 1) * height, 255);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  raw.fill(0, bar * (width + 1) + 1, (bar + 1) * (width + 1));
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlibCrc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('a pair over the memory budget is refused from its headers, before any pixel memory, naming the setting', async () => {
  const dir = tempDir('memory');
  const before = path.join(dir, 'before.png');
  const after = path.join(dir, 'after.png');
  fs.writeFileSync(before, greyPng(1280, 20_000, 19_000));
  fs.writeFileSync(after, greyPng(1280, 20_000, 19_100));
  // about 500 MB for two 1280 x 20000 captures: over a 256 MB budget
  const arrayBuffers = process.memoryUsage().arrayBuffers;
  await assert.rejects(
    describe(sessions, before, after, { maxMemoryMB: 256, procedure: false }),
    (e: Error) =>
      e.name === 'ImageInputError' &&
      e.message.startsWith(before) &&
      /1280 x 20000 with 1280 x 20000 needs about \d+ MB of memory, more than the limit of 256 MB/.test(e.message) &&
      /--max-memory, or the procapReview\.maxMemoryMB setting/.test(e.message),
  );
  // decoding one of them alone would have taken 100 MB (plus 25 MB of inflated rows)
  const grew = process.memoryUsage().arrayBuffers - arrayBuffers;
  assert.ok(grew < 20 * 2 ** 20, `array buffers grew ${(grew / 2 ** 20).toFixed(1)} MB`);
  // the same headers with the data cut short: refused for memory first, so nothing was decoded
  const cut = greyPng(1280, 20_000, 5).subarray(0, 200);
  await assert.rejects(describe(sessions, cut, cut, { maxMemoryMB: 256, beforeName: 'cut.png' }), /cut\.png: comparing .* needs about/);
  await assert.rejects(describe(sessions, cut, cut, { beforeName: 'cut.png' }), /cut\.png: truncated or corrupt/);
});
