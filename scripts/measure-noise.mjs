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
const { parseOptions, integerValue } = await import('../dist/src/cli/args.js');
const USAGE = 'usage: node scripts/measure-noise.mjs SPLIT_DIR [MAX_PAIRS]   (after npm run build)';
let dir, maxPairs;
try {
  const { positionals } = parseOptions(process.argv.slice(2), {}, { positionals: true });
  if (positionals.length < 1 || positionals.length > 2) throw new Error('give one split folder and at most a pair count');
  [dir] = positionals;
  maxPairs = integerValue(positionals[1] ?? '1200');
  if (!(maxPairs >= 1)) throw new Error(`MAX_PAIRS must be a positive whole number, not "${positionals[1]}"`);
} catch (e) {
  console.error(`measure-noise: ${e.message}\n${USAGE}`);
  process.exit(2);
}
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
for (const p of man.slice(0, maxPairs)) {
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
