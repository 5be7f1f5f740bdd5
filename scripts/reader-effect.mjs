// What the text reader does to the runtime's synthetic figures: `npm run eval` with and without it
// on the same fresh pairs, compared pair by pair (`npm run compare -- --by-pair`), written into
// models/text_reader.json as `runtime_eval` (the model card's "Text reader" section quotes it).
//
//   node scripts/reader-effect.mjs [--seed 4242] [--count 300] [--out models/text_reader.json]
//
// Takes about 4 minutes on 2 cores (300 pairs: rendering, then two evaluations).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const USAGE = 'usage: node scripts/reader-effect.mjs [--seed N] [--count N] [--out FILE]   (after npm run build)';
// the tools' one argument parser, compiled (this script runs the compiled tools anyway)
const { parseOptions, integerValue } = await import('../dist/src/cli/args.js').catch(() => {
  console.error(`reader-effect: dist/src/cli/args.js is missing: run npm run build first\n${USAGE}`);
  process.exit(2);
});
let values;
try {
  ({ values } = parseOptions(process.argv.slice(2), {
    seed: { type: 'string', default: '4242' },
    count: { type: 'string', default: '300' },
    out: { type: 'string', default: 'models/text_reader.json' },
  }));
  for (const name of ['seed', 'count'])
    if (!(integerValue(values[name]) >= (name === 'count' ? 1 : 0)))
      throw new Error(`--${name} must be a whole number, not "${values[name]}"`);
} catch (e) {
  console.error(`reader-effect: ${e.message}\n${USAGE}`);
  process.exit(2);
}
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const node = (args) => {
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed (${run.status}): ${(run.stderr || run.stdout).slice(-800)}`);
  return run.stdout;
};
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'procap-reader-effect-'));
try {
  // the pairs rendered once (the data engine, as `npm run eval -- --seed S` renders them), read twice
  const data = path.join(temp, 'data');
  node(['dist/src/data/cli.js', '--seed', values.seed, '--count', values.count, '--split', 'test', '--out', data, '--quiet']);
  const common = ['dist/src/lab/eval.js', '--split', 'test', '--data', data, '--count', values.count, '--json'];
  const withReader = JSON.parse(node([...common, '--samples', path.join(temp, 'read.jsonl')]));
  const without = JSON.parse(node([...common, '--no-read', '--samples', path.join(temp, 'noread.jsonl')]));
  const compared = JSON.parse(
    node(['dist/src/lab/compare.js', path.join(temp, 'noread.jsonl'), path.join(temp, 'read.jsonl'), '--by-pair', '--json']),
  );
  const pick = (r) => ({
    count: r.count,
    cider: r.cider,
    cider_ceiling: r.cider_ceiling,
    kind_accuracy: r.kind_accuracy,
    nochange_recall: r.nochange_recall,
    ...(r.text_quotes ? { text_quotes: r.text_quotes } : {}),
  });
  const interval = (d) => [d.mean, d.lo, d.hi].map((x) => Number(x.toFixed(4)));
  const runtime_eval = {
    command: `node scripts/reader-effect.mjs --seed ${values.seed} --count ${values.count}`,
    with_reader: pick(withReader),
    without_reader: pick(without),
    compare_by_pair: {
      kind_accuracy_difference: interval(compared.kind_accuracy_difference),
      cider_difference: interval(compared.cider_difference),
    },
  };
  const file = path.resolve(root, values.out);
  const current = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify({ ...current, runtime_eval }, null, 1)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  process.stdout.write(`${JSON.stringify(runtime_eval, null, 1)}\n`);
} finally {
  fs.rmSync(temp, { recursive: true, force: true });
}
