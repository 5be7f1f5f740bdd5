// The tools' shared argument parser (src/cli/args.ts, on node:util's parser).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { givenLater, integerValue, parseOptions } from '../../src/cli/args.js';

const OPTIONS = { out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

test("parseOptions: values, and node's errors as short messages", () => {
  const { values } = parseOptions(['--out', 'x', '--force'], OPTIONS);
  assert.deepEqual({ ...values }, { out: 'x', force: true });
  assert.equal(parseOptions(['--out=-x'], OPTIONS).values.out, '-x', 'a value that starts with a dash: --out=-x');
  assert.equal(parseOptions(['-h'], OPTIONS).values.help, true);
  assert.throws(() => parseOptions(['--bogus'], OPTIONS), /^Error: unknown option --bogus$/);
  assert.throws(() => parseOptions(['stray'], OPTIONS), /^Error: unknown option stray$/, 'an operand where none is taken');
  assert.throws(() => parseOptions(['--out'], OPTIONS), /^Error: --out needs a value$/);
  assert.throws(() => parseOptions(['--out', '--force'], OPTIONS), /^Error: --out needs a value \(got the option --force\)$/);
  assert.throws(() => parseOptions(['--out', 'a', '--out'], OPTIONS), /^Error: --out needs a value$/);
  assert.throws(() => parseOptions(['--force=yes'], OPTIONS), /^Error: --force takes no value$/);
  // the tool's own wording and error class
  class UsageError extends Error {}
  assert.throws(
    () => parseOptions(['--bogus'], OPTIONS, { unknown: (a) => `unknown argument "${a}"`, error: (m) => new UsageError(m) }),
    (e: Error) => e instanceof UsageError && e.message === 'unknown argument "--bogus"',
  );
});

test('parseOptions: operands when allowed, -- ends the options', () => {
  const { values, positionals } = parseOptions(['a', '--force', '--', '--odd', 'b'], OPTIONS, { positionals: true });
  assert.deepEqual(positionals, ['a', '--odd', 'b']);
  assert.equal(values.force, true);
  assert.throws(() => parseOptions(['--', 'x'], OPTIONS), /unknown option x/);
});

test('integerValue and givenLater', () => {
  assert.equal(integerValue('12'), 12);
  assert.equal(integerValue('-3'), -3);
  for (const bad of ['', ' ', '1.5', 'abc']) assert.equal(integerValue(bad), undefined, JSON.stringify(bad));
  const spec = { real: { type: 'string' }, 'no-real': { type: 'boolean' } } as const;
  assert.equal(givenLater(parseOptions(['--real', 'd', '--no-real'], spec).tokens, 'real', 'no-real'), false);
  assert.equal(givenLater(parseOptions(['--no-real', '--real', 'd'], spec).tokens, 'real', 'no-real'), true);
  assert.equal(givenLater(parseOptions(['--no-real'], spec).tokens, 'real', 'no-real'), false);
});
