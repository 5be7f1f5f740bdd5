import { test } from 'node:test';
import assert from 'node:assert/strict';
import contract from '../../models/contract.json' with { type: 'json' };

test('the ONNX contract names the 13 change kinds', () => {
  assert.equal(contract.kinds.length, 13);
  assert.equal(contract.kinds[0], 'none');
});
