// The command line's argument parsing (src/cli/main.ts parseArgs, on node:util's parser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, UsageError } from '../../src/cli/main.js';

test('an option that takes a value never takes the next option as it; -- ends the options', () => {
  assert.throws(() => parseArgs(['a.png', 'b.png', '--html', '--json'], 'describe'), (e: Error) => e instanceof UsageError && /--html needs a value \(got the option --json\)/.test(e.message));
  assert.throws(() => parseArgs(['a.png', 'b.png', '--beam'], 'describe'), /--beam needs a value$/);
  assert.throws(() => parseArgs(['--bogus'], 'describe'), /unknown option --bogus/);
  assert.throws(() => parseArgs(['--json=1'], 'describe'), /describe prints its JSON report with --json/);
  assert.throws(() => parseArgs(['--fail-on-change=yes'], 'batch'), /--fail-on-change takes no value/);
  const dashes = parseArgs(['--json', '--', '--odd-name.png', 'b.png'], 'describe');
  assert.deepEqual(dashes.positional, ['--odd-name.png', 'b.png']);
  assert.equal(dashes.flags.get('--json'), true);
  const batch = parseArgs(['before', 'after', '--json=out/report.json', '--html=g.html', '--shard', '2/4'], 'batch');
  assert.deepEqual(batch.positional, ['before', 'after']);
  assert.equal(batch.flags.get('--json-file'), 'out/report.json');
  assert.equal(batch.flags.get('--html'), 'g.html');
  assert.equal(batch.flags.get('--shard'), '2/4');
  assert.equal(batch.flags.has('--json'), false);
});
