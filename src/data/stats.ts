// npm run --silent data:stats -- DIR [--json]
// Prints what a corpus holds: kinds (per change and per pair), pair types, templates, palettes,
// sizes, frames, caption vocabulary and lengths, and any record that breaks the format.
import { readManifest, validateRecord } from './manifest.js';
import type { PairRecord } from './generate.js';
import { parseOptions } from '../cli/args.js';

export interface CorpusStats {
  pairs: number;
  changes: number;
  kinds: Record<string, number>;
  pairTypes: Record<string, number>;
  templates: Record<string, number>;
  palettes: Record<string, number>;
  sizes: Record<string, number>;
  withFrames: number;
  vocabulary: number;
  words: Record<string, number>;
  captionLength: { min: number; mean: number; max: number; histogram: Record<string, number> };
  summaryCaptions: number;
  regionCaptions: number;
  invalid: string[];
}

function count(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

export function corpusStats(records: PairRecord[]): CorpusStats {
  const s: CorpusStats = {
    pairs: records.length,
    changes: 0,
    kinds: {},
    pairTypes: {},
    templates: {},
    palettes: {},
    sizes: {},
    withFrames: 0,
    vocabulary: 0,
    words: {},
    captionLength: { min: Infinity, mean: 0, max: 0, histogram: {} },
    summaryCaptions: 0,
    regionCaptions: 0,
    invalid: [],
  };
  let totalWords = 0;
  let totalCaptions = 0;
  const addCaption = (c: string) => {
    const words = c.split(' ');
    for (const w of words) count(s.words, w);
    s.captionLength.min = Math.min(s.captionLength.min, words.length);
    s.captionLength.max = Math.max(s.captionLength.max, words.length);
    count(s.captionLength.histogram, String(words.length));
    totalWords += words.length;
    totalCaptions++;
  };
  for (const r of records) {
    s.invalid.push(...validateRecord(r));
    for (const c of r.changes) count(s.kinds, c.kind);
    s.changes += r.changes.length;
    count(s.pairTypes, r.changes[0]?.kind === 'none' ? 'none' : r.changes.length === 1 ? 'single' : `multi (${r.changes.length})`);
    count(s.templates, r.template);
    count(s.palettes, r.palette);
    count(s.sizes, `${r.width}x${r.height}`);
    if (r.frames.length) s.withFrames++;
    for (const c of r.captions) addCaption(c);
    s.summaryCaptions += r.captions.length;
    for (const refs of r.region_captions) {
      for (const c of refs) addCaption(c);
      s.regionCaptions += refs.length;
    }
  }
  s.vocabulary = Object.keys(s.words).length;
  s.captionLength.mean = totalCaptions ? totalWords / totalCaptions : 0;
  if (!totalCaptions) s.captionLength.min = 0;
  return s;
}

function table(title: string, map: Record<string, number>, total: number): string {
  const rows = Object.entries(map).sort((a, b) => b[1] - a[1]);
  return (
    `${title}\n` +
    rows.map(([k, v]) => `  ${k.padEnd(18)} ${String(v).padStart(7)}  ${((100 * v) / total).toFixed(1).padStart(5)}%`).join('\n')
  );
}

export function formatStats(s: CorpusStats): string {
  const lengths = Object.entries(s.captionLength.histogram).sort((a, b) => Number(a[0]) - Number(b[0]));
  const top = Object.entries(s.words)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([w, n]) => `${w}:${n}`)
    .join(' ');
  return [
    `pairs ${s.pairs}, changes ${s.changes}, pairs with 7 intermediate frames ${s.withFrames} (${((100 * s.withFrames) / Math.max(1, s.pairs)).toFixed(1)}%)`,
    table('kinds (per change):', s.kinds, Math.max(1, s.changes)),
    table('pair types:', s.pairTypes, Math.max(1, s.pairs)),
    table('templates:', s.templates, Math.max(1, s.pairs)),
    table('palettes:', s.palettes, Math.max(1, s.pairs)),
    table('sizes:', s.sizes, Math.max(1, s.pairs)),
    `captions: ${s.summaryCaptions} summary + ${s.regionCaptions} region; vocabulary ${s.vocabulary} words`,
    `caption length (words): min ${s.captionLength.min}, mean ${s.captionLength.mean.toFixed(2)}, max ${s.captionLength.max}`,
    '  ' + lengths.map(([k, v]) => `${k}:${v}`).join(' '),
    `most frequent words: ${top}`,
    s.invalid.length ? `INVALID records (${s.invalid.length}):\n  ` + s.invalid.slice(0, 20).join('\n  ') : 'all records valid',
  ].join('\n');
}

async function main(): Promise<void> {
  const usage = 'usage: npm run --silent data:stats -- DIR [--json]\n';
  let parsed: ReturnType<typeof parseOptions<{ json: { type: 'boolean' } }>>;
  try {
    parsed = parseOptions(process.argv.slice(2), { json: { type: 'boolean' } }, { positionals: true });
  } catch (err) {
    process.stderr.write(`data:stats: ${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
  const dir = parsed.positionals[0];
  if (!dir || parsed.positionals.length > 1) {
    process.stderr.write(usage);
    process.exit(2);
  }
  const stats = corpusStats(readManifest(dir));
  process.stdout.write((parsed.values.json ? JSON.stringify(stats, null, 1) : formatStats(stats)) + '\n');
  if (stats.invalid.length) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`data:stats: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
