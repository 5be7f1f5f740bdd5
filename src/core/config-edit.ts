// Edits of a procap.config.json as text: add an ignore region (a mask box) for a screenshot glob, or
// remove one. The user's file is theirs, so an edit changes only the few characters it must: other
// rules, keys, key order, indentation, line ends and spacing stay as they were. The text is parsed
// strictly first (parseConfig: a file that is not a valid config is refused with its message, never
// rewritten), and the edited text is parsed again and compared with the intended result before it is
// returned, so a mistake here is an error and never a silently different file.
import { isDeepStrictEqual } from 'node:util';
import type { Box } from './report.js';
import { isValidBox } from './masks.js';
import { matchesGlob, parseConfig } from './config.js';

interface Span {
  start: number;
  end: number;
}

type JsonNode = (Span & { kind: 'object'; members: Member[] }) | (Span & { kind: 'array'; items: JsonNode[] }) | (Span & { kind: 'value' });

interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

/**
 * Where each value of a JSON text lies (offsets; `end` exclusive). The text has already passed
 * JSON.parse, so this only needs to find the boundaries, not to diagnose errors.
 */
function parseTree(text: string): JsonNode {
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const stringEnd = (from: number): number => {
    let j = from + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  const value = (): JsonNode => {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: Member[] = [];
      skip();
      while (text[i] !== '}') {
        const keyStart = i;
        const keyEnd = stringEnd(i);
        const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
        i = keyEnd;
        skip();
        i++; // ':'
        members.push({ key, keyStart, keyEnd, value: value() });
        skip();
        if (text[i] === ',') i++;
        skip();
      }
      i++;
      return { kind: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      const items: JsonNode[] = [];
      skip();
      while (text[i] !== ']') {
        items.push(value());
        skip();
        if (text[i] === ',') i++;
        skip();
      }
      i++;
      return { kind: 'array', start, end: i, items };
    }
    if (c === '"') i = stringEnd(i);
    else while (i < text.length && /[^\s,\]}]/.test(text[i])) i++;
    return { kind: 'value', start, end: i };
  };
  return value();
}

/** The member `key` of an object node (the last one, as JSON.parse keeps the last of duplicate keys). */
function member(node: JsonNode, key: string): Member | undefined {
  if (node.kind !== 'object') return undefined;
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i].key === key) return node.members[i];
  return undefined;
}

interface Style {
  eol: string;
  /** one level of indentation */
  unit: string;
  /** between a key and its value: ": " or ":" */
  colon: string;
  /** inside a box: ", " or "," */
  comma: string;
}

function styleOf(text: string, root: JsonNode): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /\n([ \t]+)\S/.exec(text);
  const unit = indented ? (indented[1].startsWith('\t') ? '\t' : indented[1]) : '  ';
  const first = root.kind === 'object' ? root.members[0] : undefined;
  const colon = first ? text.slice(first.keyEnd, first.value.start) : ': ';
  const box = /\[\s*\d+(\s*,\s*)\d+\s*,\s*\d+\s*,\s*\d+\s*\]/.exec(text);
  const oneLine = (found: string | undefined, fallback: string) => (found === undefined || found.includes('\n') ? fallback : found);
  return { eol, unit, colon: oneLine(first && colon, ': '), comma: oneLine(box?.[1], ', ') };
}

/** The leading white space of the line that holds `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function spansOf(node: JsonNode): Span[] {
  if (node.kind === 'array') return node.items;
  if (node.kind === 'object') return node.members.map((m) => ({ start: m.keyStart, end: m.value.end }));
  return [];
}

/**
 * Adds an item (an array element or an object member, as text) at the end of `node`, laid out like
 * the items already there: on its own line at their indentation when they are on lines of their
 * own, after a comma on the same line when they are inline. `item(indent)` gets the indentation the
 * item starts at (undefined: inline).
 */
function appendItem(
  text: string,
  node: JsonNode,
  item: (indent: string | undefined) => string,
  style: Style,
  inlineWhenEmpty: boolean,
): string {
  const spans = spansOf(node);
  if (spans.length === 0) {
    if (inlineWhenEmpty) return splice(text, node.start + 1, node.end - 1, item(undefined));
    const base = lineIndent(text, node.start);
    const indent = base + style.unit;
    return splice(text, node.start + 1, node.end - 1, style.eol + indent + item(indent) + style.eol + base);
  }
  const last = spans[spans.length - 1];
  if (/\n/.test(text.slice(node.start, spans[0].start))) {
    const indent = lineIndent(text, last.start);
    return splice(text, last.end, last.end, `,${style.eol}${indent}${item(indent)}`);
  }
  // inline: the separator the text already uses between two items, else the one inside its boxes
  const separator = spans.length > 1 ? text.slice(spans[0].end, spans[1].start) : style.comma;
  return splice(text, last.end, last.end, (separator.includes(',') ? separator : style.comma) + item(undefined));
}

/** Removes item `index` of `node` with the separator before it (after it, for the first item). */
function removeItem(text: string, node: JsonNode, index: number): string {
  const spans = spansOf(node);
  if (spans.length === 1) return splice(text, node.start + 1, node.end - 1, '');
  if (index > 0) return splice(text, spans[index - 1].end, spans[index].end, '');
  return splice(text, spans[0].start, spans[1].start, '');
}

function boxText(box: Box, style: Style): string {
  return `[${box.join(style.comma)}]`;
}

function ruleText(glob: string, box: Box, style: Style): string {
  return `{ "glob"${style.colon}${JSON.stringify(glob)}, "masks"${style.colon}[${boxText(box, style)}] }`;
}

/** The text of a new procap.config.json holding one rule. */
function newConfigText(glob: string, box: Box): string {
  const style: Style = { eol: '\n', unit: '  ', colon: ': ', comma: ', ' };
  return `{\n  "screenshots": [\n    ${ruleText(glob, box, style)}\n  ]\n}\n`;
}

/** Parses the edited text and checks it holds exactly the intended JSON; throws when it does not. */
function checked(text: string, file: string, intended: unknown): string {
  parseConfig(text, file);
  if (!isDeepStrictEqual(JSON.parse(text), intended))
    throw new Error(`${file}: the edit did not give the intended content (nothing was written): please report this`);
  return text;
}

export interface AddResult {
  /** the new text of the file (equal to the old one when `already`) */
  text: string;
  /** the box was already a mask of a rule with this exact glob: nothing to do */
  already: boolean;
  /** true when a new rule was added; false when the box went into an existing rule of the same glob */
  newRule: boolean;
}

/**
 * Adds `box` as an ignore region for `glob` to the config text `text` (undefined: there is no file
 * yet, one is made). The box goes into the last rule whose glob is exactly `glob` (its `masks`
 * created when it has none), else into a new rule `{ "glob": ..., "masks": [...] }` at the end of
 * `screenshots` (created when missing). Throws ConfigError when `text` is not a valid config.
 */
export function addIgnoreRegion(text: string | undefined, file: string, glob: string, box: Box): AddResult {
  if (!isValidBox(box)) throw new RangeError(`not a box [x0, y0, x1, y1] with x0 < x1 and y0 < y1: ${JSON.stringify(box)}`);
  if (glob.trim() === '') throw new RangeError('the glob is empty');
  if (text === undefined)
    return { text: checked(newConfigText(glob, box), file, { screenshots: [{ glob, masks: [box] }] }), already: false, newRule: true };
  const config = parseConfig(text, file);
  const intended = JSON.parse(text) as { screenshots?: Array<{ glob: string; masks?: Box[] }> };
  let ruleIndex = -1;
  config.screenshots.forEach((rule, index) => {
    if (rule.glob === glob) ruleIndex = index;
  });
  if (ruleIndex >= 0 && config.screenshots[ruleIndex].masks.some((mask) => isDeepStrictEqual(mask, box)))
    return { text, already: true, newRule: false };

  const root = parseTree(text);
  const style = styleOf(text, root);
  const screenshots = member(root, 'screenshots');
  if (ruleIndex >= 0 && screenshots?.value.kind === 'array') {
    const rule = screenshots.value.items[ruleIndex];
    const masks = member(rule, 'masks');
    const intendedRule = intended.screenshots![ruleIndex];
    intendedRule.masks = [...(intendedRule.masks ?? []), box];
    const edited = masks
      ? appendItem(text, masks.value, () => boxText(box, style), style, true)
      : appendItem(text, rule, () => `"masks"${style.colon}[${boxText(box, style)}]`, style, true);
    return { text: checked(edited, file, intended), already: false, newRule: false };
  }
  intended.screenshots = [...(intended.screenshots ?? []), { glob, masks: [box] }];
  const edited = screenshots
    ? appendItem(text, screenshots.value, () => ruleText(glob, box, style), style, false)
    : appendItem(
        text,
        root,
        (indent) =>
          indent === undefined
            ? `"screenshots"${style.colon}[${ruleText(glob, box, style)}]`
            : `"screenshots"${style.colon}[${style.eol}${indent}${style.unit}${ruleText(glob, box, style)}${style.eol}${indent}]`,
        style,
        false,
      );
  return { text: checked(edited, file, intended), already: false, newRule: true };
}

/** An ignore region of the config as the panel shows it. */
export interface FoundRegion {
  /** index of the rule in `screenshots` */
  rule: number;
  /** index of the box in the rule's `masks` */
  mask: number;
  glob: string;
  /** the box as written in the file (the panel shows it clipped to the compared area) */
  box: Box;
}

function clip(box: Box, area: { width: number; height: number }): Box {
  return [Math.min(box[0], area.width), Math.min(box[1], area.height), Math.min(box[2], area.width), Math.min(box[3], area.height)];
}

/**
 * The mask of `text` that the panel drew as `shown` for the screenshot `name` (whose compared area,
 * the common part of the two images, is `area`): a box of a rule whose glob matches `name`, equal
 * to `shown` as written or once clipped to the area. A rule whose glob is `preferGlob` is looked at
 * first (the panel's own rules). Undefined when there is none. Throws ConfigError for a bad file.
 */
export function findIgnoreRegion(
  text: string,
  file: string,
  name: string,
  shown: Box,
  area: { width: number; height: number },
  preferGlob?: string,
): FoundRegion | undefined {
  const config = parseConfig(text, file);
  const order = config.screenshots.map((_, index) => index);
  if (preferGlob !== undefined)
    order.sort((a, b) => Number(config.screenshots[b].glob === preferGlob) - Number(config.screenshots[a].glob === preferGlob));
  for (const ruleIndex of order) {
    const rule = config.screenshots[ruleIndex];
    if (!matchesGlob(name, rule.glob)) continue;
    const exact = rule.masks.findIndex((mask) => isDeepStrictEqual(mask, shown));
    const clipped = exact >= 0 ? exact : rule.masks.findIndex((mask) => isDeepStrictEqual(clip(mask, area), shown));
    if (clipped >= 0) return { rule: ruleIndex, mask: clipped, glob: rule.glob, box: [...rule.masks[clipped]] };
  }
  return undefined;
}

/**
 * Removes mask `found.mask` of rule `found.rule` from the config text. A rule left with no mask and
 * nothing else but its glob is removed whole; one that still sets a threshold keeps it and loses
 * its empty `masks`. Throws ConfigError for a bad file, RangeError when the mask is not there.
 */
export function removeIgnoreRegion(text: string, file: string, found: Pick<FoundRegion, 'rule' | 'mask'>): string {
  const config = parseConfig(text, file);
  const rule = config.screenshots[found.rule];
  if (rule === undefined || rule.masks[found.mask] === undefined)
    throw new RangeError(`${file} has no screenshots[${found.rule}].masks[${found.mask}]`);
  const intended = JSON.parse(text) as { screenshots: Array<{ glob: string; masks?: Box[] } & Record<string, unknown>> };
  const root = parseTree(text);
  const screenshots = member(root, 'screenshots')!.value;
  if (screenshots.kind !== 'array') throw new RangeError(`${file}: "screenshots" is not an array`);
  const ruleNode = screenshots.items[found.rule];
  const masks = member(ruleNode, 'masks')!;
  if (rule.masks.length > 1) {
    intended.screenshots[found.rule].masks!.splice(found.mask, 1);
    return checked(removeItem(text, masks.value, found.mask), file, intended);
  }
  const others = Object.keys(intended.screenshots[found.rule]).filter((key) => key !== 'glob' && key !== 'masks');
  if (others.length === 0) {
    intended.screenshots.splice(found.rule, 1);
    return checked(removeItem(text, screenshots, found.rule), file, intended);
  }
  delete intended.screenshots[found.rule].masks;
  if (ruleNode.kind !== 'object') throw new RangeError(`${file}: screenshots[${found.rule}] is not an object`);
  const index = ruleNode.members.lastIndexOf(masks);
  // a duplicate "masks" key earlier in the rule would survive: refuse instead of leaving it
  if (ruleNode.members.filter((m) => m.key === 'masks').length > 1)
    throw new RangeError(`${file}: screenshots[${found.rule}] has "masks" twice`);
  return checked(removeItem(text, ruleNode, index), file, intended);
}
