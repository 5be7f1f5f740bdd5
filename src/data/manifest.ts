// Reading and checking a corpus manifest (DIR/manifest.jsonl). Used by the stats command, the
// tests and anyone who wants to fail early on a broken corpus with a message naming the file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_CAPTION_WORDS } from './captions.js';
import type { PairRecord } from './generate.js';
import { KINDS } from './screen.js';

export function readManifest(dir: string): PairRecord[] {
  const file = path.join(dir, 'manifest.jsonl');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  const records: PairRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      records.push(JSON.parse(line) as PairRecord);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not valid JSON: ${(err as Error).message}`);
    }
  });
  return records;
}

const isBox = (b: unknown, w: number, h: number): boolean =>
  Array.isArray(b) &&
  b.length === 4 &&
  b.every((v) => Number.isInteger(v)) &&
  b[0] >= 0 &&
  b[1] >= 0 &&
  b[2] <= w &&
  b[3] <= h &&
  b[2] > b[0] &&
  b[3] > b[1];

// summaries: caption words, quoted text filled in (digits allowed); region captions: words and slot tokens
const isCaption = (c: unknown): boolean =>
  typeof c === 'string' && /^[a-z0-9]+( [a-z0-9]+)*$/.test(c) && c.split(' ').length <= MAX_CAPTION_WORDS;
const isRegionCaption = (c: unknown): boolean =>
  typeof c === 'string' &&
  /^([a-z]+|<label>|<old>|<new>)( ([a-z]+|<label>|<old>|<new>))*$/.test(c) &&
  c.split(' ').length <= MAX_CAPTION_WORDS;

/** every way a record breaks the documented format (empty list = valid) */
export function validateRecord(r: PairRecord): string[] {
  const errors: string[] = [];
  const where = `pair ${r?.id ?? '?'}`;
  const err = (msg: string) => errors.push(`${where}: ${msg}`);
  if (typeof r.id !== 'string' || !r.id) err('id missing');
  if (!['train', 'val', 'test'].includes(r.split)) err(`bad split ${r.split}`);
  if (typeof r.before !== 'string' || !r.before.endsWith('.png')) err('before is not a PNG path');
  if (typeof r.after !== 'string' || !r.after.endsWith('.png')) err('after is not a PNG path');
  if (!Array.isArray(r.frames) || (r.frames.length !== 0 && r.frames.length !== 7)) err('frames must be [] or 7 paths');
  if (!Number.isInteger(r.width) || !Number.isInteger(r.height) || r.width < 16 || r.height < 16) err('bad width/height');
  if (!Array.isArray(r.changes) || r.changes.length < 1 || r.changes.length > 3) err('changes must hold 1 to 3 records');
  if (!Array.isArray(r.captions) || r.captions.length < 3) err('fewer than 3 summary captions');
  else for (const c of r.captions) if (!isCaption(c)) err(`bad summary caption "${c}"`);
  if (!Array.isArray(r.region_captions) || r.region_captions.length !== r.changes?.length) err('region_captions not aligned with changes');
  else {
    for (const refs of r.region_captions) {
      if (!Array.isArray(refs) || refs.length < 3) err('fewer than 3 region captions for a change');
      else for (const c of refs) if (!isRegionCaption(c)) err(`bad region caption "${c}"`);
    }
  }
  for (const c of r.changes ?? []) {
    if (!KINDS.includes(c.kind)) err(`unknown kind ${c.kind}`);
    if (typeof c.role !== 'string' || !c.role) err('change without role');
    if (typeof c.label !== 'string') err('change without label');
    const none = c.kind === 'none';
    if (c.bbox_before !== null && !isBox(c.bbox_before, r.width, r.height)) err(`bad bbox_before ${JSON.stringify(c.bbox_before)}`);
    if (c.bbox_after !== null && !isBox(c.bbox_after, r.width, r.height)) err(`bad bbox_after ${JSON.stringify(c.bbox_after)}`);
    if (!none && c.kind !== 'add' && c.bbox_before === null) err(`${c.kind} without bbox_before`);
    if (!none && c.kind !== 'remove' && c.bbox_after === null) err(`${c.kind} without bbox_after`);
    if (c.kind === 'add' && c.bbox_before !== null) err('add with bbox_before');
    if (c.kind === 'remove' && c.bbox_after !== null) err('remove with bbox_after');
    if (none && (c.from !== null || c.to !== null)) err('none with from/to');
    if (c.kind === 'theme' && c.bbox_before?.join() !== `0,0,${r.width},${r.height}`) err('theme box is not the whole page');
  }
  if (r.changes?.some((c) => c.kind === 'none') && r.changes.length !== 1) err('none mixed with other changes');
  if (!Array.isArray(r.reflowed)) err('reflowed missing (must be a list, maybe empty)');
  else {
    for (const f of r.reflowed) {
      if (f.bbox_before !== null && !isBox(f.bbox_before, r.width, r.height))
        err(`bad reflowed bbox_before ${JSON.stringify(f.bbox_before)}`);
      if (f.bbox_after !== null && !isBox(f.bbox_after, r.width, r.height)) err(`bad reflowed bbox_after ${JSON.stringify(f.bbox_after)}`);
    }
  }
  return errors;
}
