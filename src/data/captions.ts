// The caption grammar. Captions are what the model learns to say, so they follow strict rules:
// lower-case words only, no punctuation, at most 20 words, a small fixed vocabulary, and only what
// a person could see: the element's role and colour, its rough place, the kind of change, colours,
// direction and rough distance. Literal UI text enters only through slot tokens (<label>, <old>,
// <new>): region captions keep the slots (what the decoder learns to write), summaries have them
// filled with the element's text as caption words (what the product should say).
import type { CaptionFacts, Box } from './changes.js';
import type { Rng } from './rng.js';
import { NO_CHANGE_PHRASES } from '../core/no-change.js';
import { captionWords } from '../core/metrics.js';

export const MAX_CAPTION_WORDS = 20;
/** region captions kept per change (more references make caption metrics more stable) */
export const REFS_PER_CHANGE = 5;
/** of those, how many quote the element's text where it shows some */
export const QUOTED_REFS = 2;

const PLURALS: Record<string, string> = {
  'search box': 'search boxes',
  tabs: 'tabs',
  page: 'pages',
  text: 'texts',
};

export function plural(role: string): string {
  return PLURALS[role] ?? role + 's';
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

/** rough distance bands: "slightly" under 8 px, unqualified 8-40 px, "far" above 40 px */
export function distanceBand(px: number): 'slight' | 'plain' | 'far' {
  const d = Math.abs(px);
  return d < 8 ? 'slight' : d <= 40 ? 'plain' : 'far';
}

/** phrases for the 3x3 cell of the screen the box centre falls in */
export function positionPhrases(box: Box | null, width: number, height: number): string[] {
  if (!box) return [];
  const cx = (box[0] + box[2]) / 2 / width;
  const cy = (box[1] + box[3]) / 2 / height;
  const col = cx < 1 / 3 ? 'left' : cx < 2 / 3 ? 'centre' : 'right';
  const row = cy < 1 / 3 ? 'top' : cy < 2 / 3 ? 'middle' : 'bottom';
  if (row === 'middle' && col === 'centre') return ['in the middle', 'in the centre of the screen'];
  if (row === 'middle') return [`on the ${col}`, `on the ${col} side`];
  if (col === 'centre') return [`at the ${row}`, `near the ${row} of the screen`];
  return [`at the ${row} ${col}`, `in the ${row} ${col} corner`];
}

function areaPhrase(facts: CaptionFacts): string | null {
  if (!facts.area || facts.area === facts.role) return null;
  if (facts.area === 'tabs' && facts.role === 'tab') return null;
  return `in the ${facts.area}`;
}

const TEXT_ROLES = new Set([
  'heading',
  'text',
  'label',
  'link',
  'number',
  'cell',
  'column header',
  'tab',
  'menu item',
  'icon',
  'icon button',
  'logo',
]);

/** noun phrases naming the element ("the blue button", "the button at the top left", ...) */
function nounPhrases(facts: CaptionFacts, pos: string[], withColor = true): { full: string[]; short: string[] } {
  const role = facts.role;
  const color = withColor && facts.color ? facts.color : null;
  const area = areaPhrase(facts);
  const short: string[] = [];
  const full: string[] = [];
  if (color) short.push(`the ${color} ${role}`);
  else short.push(`the ${role}`);
  for (const p of pos.slice(0, 2)) full.push(`the ${role} ${p}`);
  if (color && pos.length) full.push(`the ${color} ${role} ${pos[0]}`);
  if (area) {
    full.push(`the ${role} ${area}`);
    if (color) full.push(`the ${color} ${role} ${area}`);
  }
  return { full: [...short, ...full], short };
}

function directionWords(dx: number, dy: number): { dir: string[]; comparative: string | null } {
  const h = dx === 0 ? null : dx > 0 ? 'right' : 'left';
  const v = dy === 0 ? null : dy > 0 ? 'down' : 'up';
  if (h && v) return { dir: [`${v} and to the ${h}`, `${v} and ${h}`], comparative: null };
  if (v) return { dir: [v], comparative: v === 'down' ? 'lower' : 'higher' };
  return { dir: [`to the ${h}`, h!], comparative: `further ${h}` };
}

function moveClauses(f: CaptionFacts): string[] {
  const dx = f.dx ?? 0;
  const dy = f.dy ?? 0;
  const band = distanceBand(Math.max(Math.abs(dx), Math.abs(dy)));
  const { dir, comparative } = directionWords(dx, dy);
  const pre = band === 'slight' ? ['slightly', 'a little'] : band === 'far' ? ['far'] : [''];
  const post = band === 'slight' ? ['a little', 'a bit'] : band === 'far' ? ['a long way', 'a lot'] : [''];
  const out: string[] = [];
  for (const d of dir) {
    out.push(
      `moved ${pre[0]} ${d}`,
      `shifted ${pre[pre.length - 1]} ${d}`,
      `moved ${d} ${post[0]}`,
      `was moved ${d} ${post[post.length - 1]}`,
    );
  }
  if (comparative) {
    const degree = band === 'slight' ? 'slightly' : band === 'far' ? 'much' : '';
    out.push(`is now ${degree} ${comparative}`, `sits ${degree} ${comparative} than before`);
  }
  return out;
}

function sizeWord(f: CaptionFacts): { adj: string[]; verb: string | null } {
  const w = f.widthRatio ?? 1;
  const h = f.heightRatio ?? 1;
  const wc = Math.abs(w - 1) > 0.05 ? (w > 1 ? 1 : -1) : 0;
  const hc = Math.abs(h - 1) > 0.05 ? (h > 1 ? 1 : -1) : 0;
  if (wc && hc && wc === hc) return wc > 0 ? { adj: ['bigger', 'larger'], verb: 'grew' } : { adj: ['smaller'], verb: 'shrank' };
  if (wc && !hc) return wc > 0 ? { adj: ['wider'], verb: 'grew wider' } : { adj: ['narrower'], verb: 'shrank' };
  if (hc && !wc) return hc > 0 ? { adj: ['taller'], verb: 'grew taller' } : { adj: ['shorter'], verb: 'shrank' };
  return { adj: [wc > 0 ? 'wider but shorter' : 'narrower but taller'], verb: null };
}

/** "the text of <np>", or just <np> when the element is itself a line of text */
function textOf(f: CaptionFacts, np: string): string {
  return f.role === 'text' ? np : `the text of ${np}`;
}

function colorTarget(f: CaptionFacts, np: string): string[] {
  if (f.colorProp === 'border-color') return [`the border of ${np}`, `the outline of ${np}`];
  if (f.colorProp === 'color' && !TEXT_ROLES.has(f.role)) return [`the text of ${np}`, `the text colour of ${np}`];
  return [np, `the colour of ${np}`];
}

/** The slot tokens: written by the decoder, filled with text the reader (runtime) or the page (data engine) gives. */
export const SLOTS = ['<label>', '<old>', '<new>'] as const;
export type Slot = (typeof SLOTS)[number];

/** A text as caption words: lower case, letters and digits ("Sign in" -> "sign in", "$1,200" -> "1 200"); '' when none are left. */
export const slotWords = captionWords;

/** Roles whose label is text shown on screen; icons, avatars, images, bars and containers carry names, not text. */
const SHOWN_TEXT_ROLES = new Set([
  'heading',
  'text',
  'label',
  'link',
  'number',
  'cell',
  'column header',
  'tab',
  'menu item',
  'button',
  'badge',
  'tag',
  'logo',
  'row',
  'card',
  'input',
  'search box',
  'date',
]);

/** The visible text a change's captions may quote, from its record (undefined: nothing to quote). */
export function quoteOf(change: {
  kind: string;
  role: string;
  label: string;
  from: string | null;
  to: string | null;
}): CaptionFacts['quote'] {
  if (!SHOWN_TEXT_ROLES.has(change.role) || change.kind === 'none' || change.kind === 'theme') return undefined;
  if (change.kind === 'text') {
    const old = slotWords(change.from ?? ''),
      now = slotWords(change.to ?? '');
    return old && now && old !== now ? { old, new: now } : undefined;
  }
  if (change.kind === 'reorder') {
    const [a, b] = (change.from ?? '').split(' | ').map(slotWords);
    return a && b && a !== b ? { old: a, new: b } : undefined;
  }
  const label = slotWords(change.label);
  return label ? { label } : undefined;
}

/**
 * Captions that quote the element's text through slot tokens, in the product's wording ("a button
 * <label> was added", "<old> now reads <new>"); [] when the change has nothing to quote.
 */
export function quotingVariants(f: CaptionFacts, pos: string[]): string[] {
  const q = f.quote;
  if (!q) return [];
  const role = f.role;
  const out: string[] = [];
  const add = (s: string) => out.push(s);
  const label = !!q.label;
  switch (f.kind) {
    case 'text':
      if (!q.old || !q.new) break;
      (add('<old> now reads <new>'), add(`the ${role === 'text' ? 'text' : role} <old> now reads <new>`), add('<old> changed to <new>'));
      if (f.numeric) add('the number <old> now reads <new>');
      else (add('the text <old> was replaced by <new>'), role !== 'text' && add(`the ${role} <old> was renamed to <new>`));
      break;
    case 'add':
      if (!label) break;
      (add(`${article(role)} ${role} <label> was added`),
        add('<label> was added'),
        add(`a new ${role} <label> appeared`),
        add('<label> appeared'));
      for (const p of pos.slice(0, 1)) add(`${article(role)} ${role} <label> was added ${p}`);
      break;
    case 'remove':
      if (!label) break;
      (add(`the ${role} <label> was removed`),
        add(`the <label> ${role} was removed`),
        add('<label> was removed'),
        add('<label> disappeared'));
      break;
    case 'move':
      if (!label) break;
      for (const c of moveClauses(f).slice(0, 3)) (add(`the <label> ${role} ${c}`), add(`<label> ${c}`));
      break;
    case 'color':
      if (!label || !f.fromColor || !f.toColor) break;
      (add(`<label> changed colour from ${f.fromColor} to ${f.toColor}`), add(`the ${role} <label> turned ${f.toColor}`));
      if (f.colorProp === 'color') add(`the text <label> changed colour from ${f.fromColor} to ${f.toColor}`);
      break;
    case 'opacity':
      if (!label) break;
      if (f.opacityTo === 'faded') (add('<label> faded'), add(`the ${role} <label> faded`), add(`the <label> ${role} is now greyed out`));
      else if (f.opacityTo === 'hidden')
        (add('<label> was hidden'), add(`the ${role} <label> became invisible`), add(`the <label> ${role} is no longer visible`));
      else (add('<label> faded in'), add(`the ${role} <label> became fully visible`), add(`the <label> ${role} is no longer greyed out`));
      break;
    case 'font':
      if (!label) break;
      add('the font of the text <label> changed');
      if (f.fontChange === 'bold') (add('<label> became bold'), add(`the ${role} <label> is now bold`));
      else if (f.fontChange === 'unbold') (add('<label> is no longer bold'), add(`the ${role} <label> became regular weight`));
      else if (f.fontChange === 'bigger') (add('the text <label> got bigger'), add(`the ${role} <label> has larger text`));
      else if (f.fontChange === 'smaller') (add('the text <label> got smaller'), add(`the ${role} <label> has smaller text`));
      else (add(`the ${role} <label> uses another font`), add('<label> is set in another font'));
      break;
    case 'resize':
      if (!label) break;
      (add(`the <label> ${role} was resized`), add(`the ${role} <label> got ${sizeWord(f).adj[0]}`));
      break;
    case 'icon':
      if (!label || role === 'image' || !f.toIcon) break;
      (add(`the <label> ${role} now shows ${article(f.toIcon)} ${f.toIcon} icon`), add(`the icon of <label> changed`));
      break;
    case 'reorder':
      if (!q.old || !q.new) break;
      (add('<old> and <new> swapped places'),
        add(`the ${plural(role)} <old> and <new> switched places`),
        add('<old> and <new> traded places'));
      break;
  }
  return normaliseWithSlots(out);
}

/** normalise, keeping slot tokens */
export function normaliseWithSlots(captions: string[]): string[] {
  return normalise(captions, SLOTS);
}

/** A caption with its slots filled from `quote` (caption words); undefined when a slot it uses has no text. */
export function fillSlots(caption: string, quote: CaptionFacts['quote']): string | undefined {
  let missing = false;
  const filled = caption.replace(/<(label|old|new)>/g, (_, slot: 'label' | 'old' | 'new') => {
    const value = quote?.[slot];
    if (!value) missing = true;
    return value ?? '';
  });
  return missing ? undefined : filled;
}

/** all captions for one change, before sampling */
export function captionVariants(f: CaptionFacts, pos: string[]): string[] {
  const np = nounPhrases(f, pos, f.kind !== 'color');
  const nps = np.full;
  const out: string[] = [];
  const add = (s: string) => out.push(s);
  switch (f.kind) {
    case 'none':
      return [...NO_CHANGE_PHRASES];
    case 'move':
      for (const n of nps) for (const c of moveClauses(f)) add(`${n} ${c}`);
      break;
    case 'resize': {
      const { adj, verb } = sizeWord(f);
      for (const n of nps) {
        for (const a of adj) (add(`${n} got ${a}`), add(`${n} is now ${a}`), add(`${n} was made ${a}`));
        if (verb) add(`${n} ${verb}`);
        add(`${n} was resized`);
      }
      break;
    }
    case 'color': {
      const from = f.fromColor!;
      const to = f.toColor!;
      for (const n of nps) {
        const [plain, alt] = colorTarget(f, n);
        add(`${plain} changed from ${from} to ${to}`);
        add(`${plain} turned ${to}`);
        add(`${alt} changed to ${to}`);
        add(`${plain} is now ${to} instead of ${from}`);
        add(`${plain} went from ${from} to ${to}`);
      }
      if (f.colorProp !== 'border-color' && (f.colorProp !== 'color' || TEXT_ROLES.has(f.role))) {
        for (const p of ['', ...pos.slice(0, 1)])
          (add(`the ${from} ${f.role} ${p} turned ${to}`), add(`the ${from} ${f.role} ${p} is now ${to}`));
      }
      break;
    }
    case 'text':
      for (const n of nps) {
        if (f.numeric && f.role === 'number') (add(`${n} changed`), add(`${n} shows a different value`), add(`${n} was updated`));
        else if (f.numeric) (add(`the number in ${n} changed`), add(`${n} shows a different value`), add(`the value of ${n} was updated`));
        else {
          (add(`${textOf(f, n)} changed`), f.role === 'text' && add(`${n} was rewritten`));
          f.role !== 'text' && add(`${n} shows different text`);
          add(`the wording of ${n} changed`);
          if (['button', 'tab', 'link', 'menu item', 'badge', 'tag', 'label'].includes(f.role))
            (add(`the label of ${n} was changed`), add(`${n} was renamed`));
        }
        if (f.longer) add(`${textOf(f, n)} got longer`);
        if (f.shorter) add(`${textOf(f, n)} got shorter`);
      }
      break;
    case 'add': {
      const area = areaPhrase(f);
      const places = [...pos.slice(0, 2), ...(area ? [area] : [])];
      const nouns = [f.role, ...(f.color ? [`${f.color} ${f.role}`] : [])];
      for (const noun of nouns) {
        add(`${article(noun)} ${noun} was added`);
        add(`a new ${noun} appeared`);
        for (const p of places) {
          add(`${article(noun)} ${noun} was added ${p}`);
          add(`a new ${noun} appeared ${p}`);
          add(`there is a new ${noun} ${p}`);
        }
      }
      add(`one more ${f.role} was added`);
      break;
    }
    case 'remove':
      for (const n of nps)
        (add(`${n} was removed`), add(`${n} disappeared`), add(`${n} is gone`), add(`${n} was deleted`), add(`${n} no longer appears`));
      break;
    case 'reorder': {
      const many = plural(f.role);
      const area = areaPhrase(f);
      const where = area ? ['', area] : [''];
      for (const w of where) {
        add(`two ${many} ${w} swapped places`);
        add(`the order of the ${many} ${w} changed`);
        add(`the ${many} ${w} were reordered`);
        add(`two ${many} ${w} switched places`);
      }
      for (const n of np.short) (add(`${n} and the ${f.role} next to it swapped places`), add(`${n} switched places with its neighbour`));
      break;
    }
    case 'icon': {
      if (f.role === 'image') {
        for (const n of nps)
          (add(`${n} was replaced`),
            add(`${n} shows a different picture`),
            add(`${n} changed to another picture`),
            add(`the picture ${n.replace(/^the image ?/, '')} was swapped`));
        (add('the picture was replaced by a different one'), add('a different image appears'));
        break;
      }
      const from = f.fromIcon!;
      const to = f.toIcon!;
      add(`the ${from} icon became ${article(to)} ${to} icon`);
      add(`the ${from} icon was replaced by ${article(to)} ${to} icon`);
      add(`the icon changed from ${article(from)} ${from} to ${article(to)} ${to}`);
      for (const p of pos.slice(0, 1)) add(`the ${from} icon ${p} became ${article(to)} ${to} icon`);
      if (f.role === 'icon') {
        for (const n of nps) (add(`${n} changed shape`), add(`${n} was swapped for ${article(to)} ${to} icon`));
      } else {
        for (const n of nps)
          (add(`${n} now shows ${article(to)} ${to} icon`), add(`the icon in ${n} changed`), add(`${n} has a different icon`));
      }
      break;
    }
    case 'font':
      for (const n of nps) {
        // "<noun phrase> font ..." reads badly after a place phrase: short noun phrases only there
        const isShort = np.short.includes(n);
        switch (f.fontChange) {
          case 'bold':
            (add(`${n} is now bold`), add(`${n} became bold`), add(`${textOf(f, n)} was made bold`));
            break;
          case 'unbold':
            (add(`${n} is no longer bold`), add(`${n} is not bold any more`), add(`${textOf(f, n)} became regular weight`));
            break;
          case 'bigger':
            (add(`${textOf(f, n)} got bigger`),
              isShort && add(`${n} font size increased`),
              f.role !== 'text' && add(`${n} has larger text`));
            break;
          case 'smaller':
            (add(`${textOf(f, n)} got smaller`),
              isShort && add(`${n} font size decreased`),
              f.role !== 'text' && add(`${n} has smaller text`));
            break;
          case 'serif':
            (add(`${n} now uses a serif font`), add(`the font of ${n} changed to serif`), add(`the font of ${n} changed`));
            break;
          case 'mono':
            (add(`${n} now uses a monospace font`), add(`the font of ${n} changed to monospace`), add(`the font of ${n} changed`));
            break;
          case 'sans':
            (add(`${n} now uses a sans serif font`), add(`the font of ${n} changed to sans serif`), add(`the font of ${n} changed`));
            break;
        }
      }
      break;
    case 'spacing': {
      const more = !!f.more;
      if (f.spacingProp === 'gap' && f.childRole) {
        const many = plural(f.childRole);
        const area = areaPhrase(f);
        for (const w of area ? ['', area] : ['']) {
          if (more)
            (add(`the ${many} ${w} moved further apart`),
              add(`more space between the ${many} ${w}`),
              add(`the gap between the ${many} ${w} grew`),
              add(`the ${many} ${w} are spread out more`));
          else
            (add(`the ${many} ${w} moved closer together`),
              add(`less space between the ${many} ${w}`),
              add(`the gap between the ${many} ${w} got smaller`),
              add(`the ${many} ${w} are packed tighter`));
        }
      } else {
        for (const n of nps) {
          if (more)
            (add(`${n} got more padding`),
              add(`more space inside ${n}`),
              add(`the padding of ${n} increased`),
              add(`the spacing around ${n} grew`));
          else
            (add(`${n} got less padding`), add(`less space inside ${n}`), add(`the padding of ${n} decreased`), add(`${n} looks tighter`));
        }
      }
      break;
    }
    case 'opacity':
      for (const n of nps) {
        if (f.opacityTo === 'faded')
          (add(`${n} faded`), add(`${n} is now greyed out`), add(`${n} became partly transparent`), add(`${n} looks dimmed`));
        else if (f.opacityTo === 'hidden')
          (add(`${n} was hidden`), add(`${n} became invisible`), add(`${n} faded out completely`), add(`${n} is no longer visible`));
        else (add(`${n} became fully visible`), add(`${n} is no longer faded`), add(`${n} faded in`), add(`${n} is no longer greyed out`));
      }
      break;
    case 'theme':
      if (f.themeChange === 'accent') {
        const from = f.fromColor!;
        const to = f.toColor!;
        (add(`the accent colour changed from ${from} to ${to}`),
          add(`the theme colour changed from ${from} to ${to}`),
          add(`all ${from} elements turned ${to}`),
          add(`the ${from} highlights across the page became ${to}`),
          add(`the page uses ${to} instead of ${from} as its main colour`));
      } else {
        const mode = f.themeChange === 'dark' ? 'dark' : 'light';
        const other = mode === 'dark' ? 'light' : 'dark';
        (add(`the page switched to a ${mode} theme`),
          add(`the whole screen turned ${mode}`),
          add(`${mode} mode was turned on`),
          add(`the theme changed from ${other} to ${mode}`),
          add(`everything switched to ${mode} colours`));
        if (f.fromBg && f.toBg && f.fromBg !== f.toBg) add(`the background of the whole page changed from ${f.fromBg} to ${f.toBg}`);
      }
      break;
  }
  return normalise(out);
}

/**
 * The shortest clause for a change (at most 6 words: "the tab moved left"), so that a summary of
 * three changes always fits in 20 words.
 */
export function minimalCaption(f: CaptionFacts): string {
  const r = f.role;
  switch (f.kind) {
    case 'none':
      return 'no visible change';
    case 'move': {
      const dx = f.dx ?? 0;
      const dy = f.dy ?? 0;
      return `the ${r} moved ${Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? 'down' : 'up') : dx > 0 ? 'right' : 'left'}`;
    }
    case 'resize':
      return `the ${r} got ${sizeWord(f).adj[0].split(' ')[0]}`;
    case 'color':
      return `the ${r} turned ${f.toColor}`;
    case 'text':
      return r === 'text' ? 'the text changed' : `the ${r} text changed`;
    case 'add':
      return `${article(r)} ${r} was added`;
    case 'remove':
      return `the ${r} was removed`;
    case 'reorder':
      return `two ${plural(r)} swapped places`;
    case 'icon':
      return r === 'image' ? 'the image was replaced' : `the ${f.fromIcon} icon changed`;
    case 'font':
      return r === 'text' ? 'the font changed' : `the ${r} font changed`;
    case 'spacing':
      return f.more ? 'the spacing grew' : 'the spacing shrank';
    case 'opacity':
      return f.opacityTo === 'faded' ? `the ${r} faded` : f.opacityTo === 'hidden' ? `the ${r} was hidden` : `the ${r} faded in`;
    case 'theme':
      return 'the theme changed';
  }
}

/** lower-case, single spaces, no punctuation, within the word limit, no duplicates */
export function normalise(captions: string[], keep: readonly string[] = []): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const c of captions) {
    // word by word, so that the tokens in `keep` (the slot tokens) pass as they are
    const s = c
      .split(/\s+/)
      .map((w) => (keep.includes(w) ? w : w.toLowerCase().replace(/[^a-z]+/g, ' ')))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!s || s.split(' ').length > MAX_CAPTION_WORDS || seen.has(s)) continue;
    seen.add(s);
    out.push(s);
  }
  return out;
}

export function wordCount(caption: string): number {
  return caption.split(' ').length;
}

/**
 * Region captions for one change: REFS_PER_CHANGE references sampled from the grammar, always
 * including one of the shortest (used to build multi-change summaries).
 */
export interface ChangeCaptions {
  role: string;
  /** region references, slot tokens unfilled */
  refs: string[];
  /** what the slots of this change's captions are filled with */
  quote?: CaptionFacts['quote'];
  /** captions that also say where the element is (to tell apart two changes of the same role) */
  placed: string[];
  /** clauses of at most 6 words, for summaries */
  short: string[];
  /** at most 6 words, the fallback that always fits */
  minimal: string;
}

export function regionCaptions(rng: Rng, f: CaptionFacts, width: number, height: number): ChangeCaptions {
  const pos = positionPhrases(f.box, width, height);
  const all = captionVariants(f, pos);
  if (all.length < 3) throw new Error(`caption grammar gave ${all.length} captions for kind ${f.kind}`);
  // where the element shows text, two of the references quote it (through slots)
  const quoting = quotingVariants(f, pos);
  const quoted = Math.min(QUOTED_REFS, quoting.length);
  const refs = rng.sample(all, Math.min(REFS_PER_CHANGE - quoted, all.length)).concat(quoted ? rng.sample(quoting, quoted) : []);
  const minWords = Math.min(...all.map(wordCount));
  const short = all.concat(quoting).filter((c) => wordCount(c) <= Math.max(minWords, 6));
  const minimal = normalise([minimalCaption(f)]);
  const placedWords = new Set(pos.concat(f.area ? [`in the ${f.area}`] : []));
  const placed = all.filter((c) => [...placedWords].some((p) => c.includes(p)) && wordCount(c) <= 10);
  return {
    role: f.role,
    refs,
    ...(quoting.length ? { quote: f.quote } : {}),
    short: short.concat(minimal.filter((m) => !short.includes(m))),
    minimal: minimal[0],
    placed,
  };
}

/**
 * Summary captions. One change: its region captions. Two or three changes: one short clause per
 * change, in pair order or another order, joined by "and" (two may also use "while"), kept only
 * when at most 20 words.
 */
export function summaryCaptions(rng: Rng, perChange: ChangeCaptions[]): string[] {
  // slots filled with each change's own text; a filled clause too long for a summary is not used
  const fill = (c: ChangeCaptions, caption: string) => fillSlots(caption, c.quote) ?? c.minimal;
  if (perChange.length === 1) {
    const c = perChange[0];
    return [...new Set(c.refs.map((r) => fill(c, r)).filter((r) => wordCount(r) <= MAX_CAPTION_WORDS))];
  }
  const out = new Set<string>();
  for (let attempt = 0; attempt < 40 && out.size < REFS_PER_CHANGE; attempt++) {
    const order = attempt % 2 === 0 ? perChange : rng.shuffle(perChange);
    // two changed elements of the same role ("the image ... and the image ...") are told apart by place
    const clauses = order.map((c) => {
      const twin = perChange.some((o) => o !== c && o.role === c.role);
      if (twin && c.placed.length && attempt < 30) return rng.pick(c.placed);
      return fill(c, rng.pick(attempt < 20 ? c.refs.concat(c.short) : c.short));
    });
    const joiner = clauses.length === 2 && rng.chance(0.25) ? ' while ' : ' and ';
    const joined = clauses.length === 2 ? clauses.join(joiner) : clauses.join(' and ');
    if (wordCount(joined) <= MAX_CAPTION_WORDS) out.add(joined);
  }
  // last resort: minimal clauses (<= 6 words each, so <= 20 words for three) in every order
  const minimal = perChange.map((c) => c.minimal);
  const orders = minimal.length === 2 ? [minimal, [minimal[1], minimal[0]]] : permutations(minimal);
  for (const joiner of [' and ', ' and also ', ' while ']) {
    for (const order of orders) {
      const s = order.join(joiner);
      if (out.size < 3 && wordCount(s) <= MAX_CAPTION_WORDS) out.add(s);
    }
  }
  return [...out];
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/**
 * References for a region whose content only shifted because a change elsewhere reflowed the layout
 * (kind "reflow"). dx, dy: the shift in pixels, after minus before. They say that the content moved
 * and that it was pushed, not what it is: the crop rarely shows a whole element.
 */
export function reflowCaptions(dx: number, dy: number): string[] {
  const vertical = Math.abs(dy) >= Math.abs(dx);
  const dir = vertical ? (dy > 0 ? 'down' : 'up') : dx > 0 ? 'right' : 'left';
  const band = distanceBand(vertical ? dy : dx);
  const how = band === 'slight' ? 'slightly ' : band === 'far' ? 'far ' : '';
  return normalise([
    `the content here shifted ${how}${dir}`,
    `the content here moved ${how}${dir} with the layout`,
    `this part of the layout was pushed ${how}${dir}`,
    `the elements here shifted ${how}${dir}`,
    `the layout here moved ${how}${dir}`,
  ]);
}
