import { test } from 'node:test';
import assert from 'node:assert/strict';
import contract from '../../models/contract.json' with { type: 'json' };

test('the ONNX contract names the 14 change kinds', () => {
  assert.equal(contract.kinds.length, 14);
  assert.equal(contract.kinds[0], 'none');
});
