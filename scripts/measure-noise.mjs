// How the rendering-noise rules treat the runtime's meaningful regions of a rendered split, per
// labelled kind (crops.jsonl): [regions, called 1-pixel jitter (src/core/jitter.ts), called
// re-rendered (src/core/rerender.ts; tested only where jitter did not apply, as the runtime does)].
// "NONEPAIR:" = regions of pairs whose changes are all "none"; "?" = a region no crops row has.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
const M = new URL('../dist/src/core/', import.meta.url).href;
const { readPngFile } = await import(M + 'image.js');
const { diffImages } = await import(M + 'diff.js');
const { findRegions } = await import(M + 'regions.js');
const { jitterShiftOf } = await import(M + 'jitter.js');
const { isRerendered } = await import(M + 'rerender.js');
if (!process.argv[2]) {
  console.error('usage: node scripts/measure-noise.mjs SPLIT_DIR [MAX_PAIRS]   (after npm run build)');
  process.exit(2);
}
const dir = process.argv[2];
const man = readFileSync(`${dir}/manifest.jsonl`, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const crops = readFileSync(`${dir}/crops.jsonl`, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const kindOf = new Map(crops.map((c) => [c.pair_id + ':' + c.box.join(','), c.kind]));
const stats = {};
let n = 0;
for (const p of man.slice(0, Number(process.argv[3] ?? 1200))) {
  const a = readPngFile(resolve(dir, p.before)),
    b = readPngFile(resolve(dir, p.after));
  const an = findRegions(diffImages(a, b));
  const noneTruth = (p.changes ?? []).every((c) => c.kind === 'none');
  for (const r of an.regions) {
    if (r.noiseOnly) continue;
    const k = kindOf.get(p.id + ':' + r.box.join(',')) ?? '?';
    const jitter = Boolean(jitterShiftOf(a, b, r.box));
    const rerendered = !jitter && isRerendered(a, b, r.box);
    const key = (noneTruth ? 'NONEPAIR:' : '') + k;
    stats[key] ??= [0, 0, 0];
    stats[key][0]++;
    if (jitter) stats[key][1]++;
    if (rerendered) stats[key][2]++;
  }
  n++;
}
console.log(n, 'pairs; per truth kind: [regions, called jitter, called re-rendered]');
console.log(JSON.stringify(stats));
