// The shipped models on each origin of screens, held out from training: `npm run eval` (the runtime,
// exactly as the CLI describes a pair) on pairs the data engine renders from the engine's own
// templates (test split), from Pico CSS (the validation origin) and from Primer CSS (the test
// origin), written into models/origins_eval.json (the model card's "Held-out origins" section).
//
//   node scripts/origins-eval.mjs [--count 300] [--models models] [--data-root DIR] [--out models/origins_eval.json]
//
// --data-root keeps the rendered pairs (DIR/<set>, rendered there when missing) so that two model
// folders are scored on the same pairs; without it they go to a temporary folder. About 3 minutes
// per set of 300 pairs on 2 quiet cores.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const USAGE = 'usage: node scripts/origins-eval.mjs [--count N] [--models DIR] [--data-root DIR] [--out FILE]   (after npm run build)';
// the sets: the split the data engine renders them for, its --origins and the seed (fixed: the figures
// of two runs are of the same pairs)
const SETS = [
  { name: 'templates', split: 'test', origins: 'templates', seed: 4242, role: 'engine templates, test split' },
  { name: 'pico', split: 'val', origins: 'pico', seed: 8102, role: 'validation origin' },
  { name: 'primer', split: 'test', origins: 'primer', seed: 8103, role: 'test origin' },
];
const { parseOptions, integerValue } = await import('../dist/src/cli/args.js').catch(() => {
  console.error(`origins-eval: dist/src/cli/args.js is missing: run npm run build first\n${USAGE}`);
  process.exit(2);
});
let values;
try {
  ({ values } = parseOptions(process.argv.slice(2), {
    count: { type: 'string', default: '300' },
    models: { type: 'string', default: 'models' },
    'data-root': { type: 'string' },
    out: { type: 'string', default: 'models/origins_eval.json' },
  }));
  if (!(integerValue(values.count) >= 1)) throw new Error(`--count must be a whole number >= 1, not "${values.count}"`);
  if (!fs.existsSync(path.join(values.models, 'contract.json'))) throw new Error(`--models ${values.models}: no contract.json there`);
} catch (e) {
  console.error(`origins-eval: ${e.message}\n${USAGE}`);
  process.exit(2);
}
const count = integerValue(values.count);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const node = (args) => {
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${(run.stderr || run.stdout).slice(-800)}`);
  return run.stdout;
};
const dataRoot = values['data-root'] ? path.resolve(values['data-root']) : fs.mkdtempSync(path.join(os.tmpdir(), 'procap-origins-'));
const results = [];
try {
  for (const set of SETS) {
    const dir = path.join(dataRoot, `${set.name}-${set.seed}-${count}`);
    const dataArgs = ['--seed', String(set.seed), '--count', String(count), '--split', set.split, '--origins', set.origins];
    if (
      !fs.existsSync(path.join(dir, 'manifest.jsonl')) ||
      fs.readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8').trim().split('\n').length < count
    ) {
      fs.rmSync(dir, { recursive: true, force: true });
      node(['dist/src/data/cli.js', ...dataArgs, '--out', dir, '--quiet']);
    }
    const evaluated = JSON.parse(
      node([
        'dist/src/lab/eval.js',
        '--split',
        set.split,
        '--data',
        dir,
        '--count',
        String(count),
        '--models',
        path.resolve(values.models),
        '--json',
      ]),
    );
    const { cider, cider_ceiling, bleu4, rougeL, kind_accuracy, nochange_recall, nochange_pairs, per_kind_accuracy } = evaluated;
    results.push({
      set: set.name,
      role: set.role,
      data: `npm run --silent data -- ${dataArgs.join(' ')} --out DIR`,
      pairs: count,
      cider,
      cider_ceiling,
      bleu4,
      rougeL,
      kind_accuracy,
      nochange_recall,
      nochange_pairs,
      per_kind_accuracy,
    });
    console.error(`origins-eval: ${set.name}: kind accuracy ${kind_accuracy}, CIDEr-D ${cider} (ceiling ${cider_ceiling})`);
  }
} finally {
  if (!values['data-root']) fs.rmSync(dataRoot, { recursive: true, force: true });
}
const record = {
  command: `node scripts/origins-eval.mjs --count ${count}`,
  measured_at: new Date().toISOString().slice(0, 10),
  sets: results,
};
fs.writeFileSync(values.out, JSON.stringify(record, null, 1) + '\n');
console.log(JSON.stringify(record, null, 1));
