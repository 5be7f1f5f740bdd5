// node dist/src/data/example.js [--out examples]
// Makes the bundled example pair with the data engine itself: an 800x600 settings screen (light
// blue theme) where the blue button moves down and the heading changes colour. It walks pair
// indices of a fixed seed until the engine's own planners pick exactly that, so the example is a
// real engine pair (same rendering, boxes and captions as the corpus), reproducible byte for byte.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generatePair, type PairRecord } from './generate.js';
import { RenderPage, launchBrowser } from './render.js';
import { parseOptions } from '../cli/args.js';

export const EXAMPLE_SEED = 777;

export function isWantedExample(r: PairRecord): boolean {
  const [move, color] = r.changes;
  return (
    r.changes.length === 2 &&
    move.kind === 'move' &&
    color?.kind === 'color' &&
    move.attrs.dx === 0 &&
    Number(move.attrs.dy) >= 12 &&
    Number(move.attrs.dy) <= 40 &&
    ['red', 'green', 'orange', 'purple', 'pink', 'teal'].includes(String(color.to))
  );
}

export async function makeExample(outDir: string): Promise<PairRecord> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'procap-example-'));
  const browser = await launchBrowser();
  try {
    const page = await RenderPage.open(browser);
    for (let index = 0; index < 200; index++) {
      const rec = await generatePair(page, 'val', EXAMPLE_SEED, index, scratch, {
        template: 'settings',
        paletteId: 'light-blue',
        size: [800, 600],
        kinds: ['move', 'color'],
        onlyTargets: (m, kind) =>
          kind === 'move' ? m.role === 'button' && m.color === 'blue' : kind === 'color' ? m.role === 'heading' : false,
        // set 1: the val stream the example was chosen from (set 2's val draws one more number per pair)
        templateSet: 1,
      });
      if (!isWantedExample(rec)) continue;
      await mkdir(outDir, { recursive: true });
      await copyFile(path.join(scratch, rec.before), path.join(outDir, 'before.png'));
      await copyFile(path.join(scratch, rec.after), path.join(outDir, 'after.png'));
      const record = { ...rec, before: 'before.png', after: 'after.png', frames: [] as string[] };
      await writeFile(path.join(outDir, 'example.json'), JSON.stringify(record, null, 1) + '\n');
      return record;
    }
    throw new Error('no example pair found in 200 indices');
  } finally {
    await browser.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let out = 'examples';
  try {
    out = parseOptions(process.argv.slice(2), { out: { type: 'string' } }).values.out ?? out;
  } catch (err) {
    process.stderr.write(`example: ${(err as Error).message}\nusage: node dist/src/data/example.js [--out DIR]\n`);
    process.exit(2);
  }
  makeExample(out).then(
    (r) => process.stderr.write(`example: ${r.id} -> ${out}/before.png, ${out}/after.png, ${out}/example.json\n  ${r.captions[0]}\n`),
    (err) => {
      process.stderr.write(`example: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
