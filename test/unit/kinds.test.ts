// The change kinds are listed once, in models/contract.json; src/core/kinds.ts is generated from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import contract from '../../models/contract.json' with { type: 'json' };
import { CONTRACT_KINDS } from '../../src/core/kinds.js';

test('src/core/kinds.ts lists the kinds of models/contract.json, in order', () => {
  assert.deepEqual([...CONTRACT_KINDS], contract.kinds, 'models/contract.json changed its kinds: run npm run gen:kinds');
});
