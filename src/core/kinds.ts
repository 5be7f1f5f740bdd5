// Generated from models/contract.json by scripts/gen-kinds.mjs (npm run gen:kinds): do not edit.

/** The change kinds of the ONNX contract, in the order of the models' kind logits. */
export const CONTRACT_KINDS = [
  'none',
  'move',
  'reorder',
  'resize',
  'color',
  'text',
  'add',
  'remove',
  'icon',
  'font',
  'spacing',
  'opacity',
  'theme',
  'reflow',
] as const;

export type ContractKind = (typeof CONTRACT_KINDS)[number];
