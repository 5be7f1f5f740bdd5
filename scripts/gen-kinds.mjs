// Writes src/core/kinds.ts from models/contract.json's `kinds`, the one list of change kinds:
// `npm run gen:kinds` after the contract's list changes; test/unit/kinds.test.ts fails while the two
// differ. One kind a line, as Prettier formats it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { kinds } = JSON.parse(readFileSync(join(root, 'models', 'contract.json'), 'utf8'));
if (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every((k) => typeof k === 'string' && /^[a-z]+$/.test(k))) {
  console.error('gen-kinds: models/contract.json has no list of lower-case kinds');
  process.exit(1);
}
const text = `// Generated from models/contract.json by scripts/gen-kinds.mjs (npm run gen:kinds): do not edit.

/** The change kinds of the ONNX contract, in the order of the models' kind logits. */
export const CONTRACT_KINDS = [
${kinds.map((k) => `  '${k}',\n`).join('')}] as const;

export type ContractKind = (typeof CONTRACT_KINDS)[number];
`;
writeFileSync(join(root, 'src', 'core', 'kinds.ts'), text);
console.log(`gen-kinds: ${kinds.length} kinds written to src/core/kinds.ts`);
