// Element makers shared by the origins (design systems from npm packages). Each origin writes its own
// markup (its real classes and structure) and calls these to register what a change may touch: role,
// label, kinds, group. Colours, font sizes, weights and spacings are not declared here: the page
// measures them from the system's own CSS after load (origins/index.ts measured()), so captions name
// what is drawn.
import { ICON_NAMES, iconSvg } from '../icons.js';
import type { Area, ElementSpec, Kind, Role, ScreenBuilder, TextSort } from '../screen.js';
import * as W from '../words.js';

export type Layout = (b: ScreenBuilder) => string;

/** kinds of a small leaf a person can see move, fade or disappear */
export const LEAF: Kind[] = ['move', 'opacity', 'remove'];

export const esc = W.escapeHtml;

export interface MakeOpts {
  tag?: string;
  cls?: string;
  attrs?: string;
  style?: string;
  area?: Area | null;
  group?: string;
  kinds?: Kind[];
  /** the property that carries the element's salient colour (measured after load) */
  colorProp?: ElementSpec['colorProp'];
  /** style edits (colour, font) go to this inner element (marked data-face) instead of the element */
  face?: boolean;
  spacingProp?: ElementSpec['spacingProp'];
  id?: string;
}

/** any element: role and label, kinds extended with reorder when it sits in a group */
export function make(
  b: ScreenBuilder,
  role: Role,
  label: string,
  inner: string,
  o: MakeOpts & { textSort?: TextSort; icon?: string },
): string {
  const kinds = [...(o.kinds ?? LEAF)];
  if (o.group && !kinds.includes('reorder')) kinds.push('reorder');
  return b.el(
    {
      id: o.id,
      tag: o.tag,
      role,
      label,
      cls: o.cls,
      attrs: o.attrs,
      style: o.style,
      area: o.area ?? null,
      group: o.group,
      kinds,
      colorProp: o.colorProp ?? null,
      textSort: o.textSort,
      icon: o.icon,
      spacingProp: o.spacingProp,
      face: o.face,
    },
    inner,
  );
}

/** an icon drawn inline (24-grid SVG in currentColor); its name is the caption word */
export function svg(name: string, size = 16, cls = ''): string {
  const s = iconSvg(name, size);
  return cls ? s.replace('<svg ', `<svg class="${cls}" `) : s;
}

export function pickIcon(b: ScreenBuilder): string {
  return b.rng.pick(ICON_NAMES);
}

export interface ButtonOpts extends MakeOpts {
  label?: string;
  /** chance of a leading icon */
  iconChance?: number;
  iconCls?: string;
}

/** a text button (optionally with a leading icon) */
export function button(b: ScreenBuilder, o: ButtonOpts): string {
  const label = o.label ?? b.fresh(W.BUTTON_LABELS);
  const withIcon = b.rng.chance(o.iconChance ?? 0.25);
  const icon = pickIcon(b);
  const kinds: Kind[] = o.kinds ?? [...LEAF, 'resize', 'color', 'text', 'font', 'spacing'];
  if (withIcon && !kinds.includes('icon')) kinds.push('icon');
  return make(b, 'button', label, (withIcon ? svg(icon, 16, o.iconCls) : '') + b.text(label), {
    tag: 'button',
    colorProp: 'background-color',
    spacingProp: 'padding',
    ...o,
    kinds,
    textSort: 'button',
    icon: withIcon ? icon : undefined,
  });
}

export function iconButton(b: ScreenBuilder, o: MakeOpts & { icon?: string; size?: number; iconCls?: string }): string {
  const icon = o.icon ?? pickIcon(b);
  return make(b, 'icon button', icon, svg(icon, o.size ?? 16, o.iconCls), {
    tag: 'button',
    colorProp: 'color',
    ...o,
    kinds: o.kinds ?? [...LEAF, 'icon', 'color'],
    icon,
  });
}

export function icon(b: ScreenBuilder, o: MakeOpts & { icon?: string; size?: number }): string {
  const name = o.icon ?? pickIcon(b);
  return make(b, 'icon', name, svg(name, o.size ?? 16), {
    tag: 'span',
    colorProp: 'color',
    ...o,
    kinds: o.kinds ?? [...LEAF, 'icon', 'color', 'resize'],
    icon: name,
  });
}

/** a text element: heading, text, label, number, link, cell, badge, tab, menu item, ... */
export function textEl(
  b: ScreenBuilder,
  role: Role,
  label: string,
  sort: TextSort,
  o: MakeOpts & { before?: string; after?: string },
): string {
  return make(b, role, label, (o.before ?? '') + b.text(label) + (o.after ?? ''), {
    colorProp: 'color',
    ...o,
    kinds: o.kinds ?? [...LEAF, 'text', 'color', 'font'],
    textSort: sort,
  });
}

export function heading(b: ScreenBuilder, tag: string, cls: string, o: MakeOpts & { label?: string } = {}): string {
  const label = o.label ?? b.rng.pick(W.HEADINGS);
  return textEl(b, 'heading', label, 'heading', { tag, cls, kinds: ['text', 'color', 'font', 'move', 'opacity'], ...o });
}

export function paragraph(b: ScreenBuilder, cls: string, o: MakeOpts & { min?: number; max?: number } = {}): string {
  const label = W.sentence(b.rng, o.min ?? 6, o.max ?? 12) + '.';
  return textEl(b, 'text', label, 'sentence', { tag: 'p', cls, kinds: ['text', 'color', 'font', 'opacity'], ...o });
}

export function badge(b: ScreenBuilder, cls: string, o: MakeOpts & { label?: string } = {}): string {
  const label = o.label ?? b.rng.pick(W.STATUSES);
  return textEl(b, 'badge', label, 'status', { tag: 'span', cls, colorProp: 'background-color', kinds: [...LEAF, 'color', 'text'], ...o });
}

/**
 * The items (`a.dropdown-item`, MENU_LABELS) of an open dropdown menu, one group an added item can
 * join (its id is the menu box's), with a divider at a random place in `divider.chance` of menus.
 */
export function dropdownItems(b: ScreenBuilder, divider: { chance: number; html: string }): { gid: string; items: string[] } {
  const gid = b.newId();
  const item = (bb: ScreenBuilder, l: string) =>
    textEl(bb, 'menu item', l, 'button', {
      tag: 'a',
      cls: 'dropdown-item',
      area: 'menu',
      group: gid,
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
    });
  const items = b.freshMany(MENU_LABELS, b.rng.int(4, 6)).map((l) => item(b, l));
  if (b.rng.chance(divider.chance)) items.splice(b.rng.int(1, items.length - 1), 0, divider.html);
  b.factories.set(gid, (bb) => item(bb, bb.fresh(MENU_LABELS)));
  return { gid, items };
}

/** a wrapper that takes spacing changes (padding or gap) and whose children form a group */
export function box(b: ScreenBuilder, role: Role, inner: string, o: MakeOpts): string {
  return make(b, role, role, inner, { kinds: o.spacingProp ? ['spacing'] : [], ...o });
}

/** the text of a form control drawn by the system's own input class; caret hosts can blink */
export function inputBox(b: ScreenBuilder, o: MakeOpts & { value?: string; search?: boolean; caret?: boolean }): string {
  const value = o.value ?? b.rng.pick(W.FIELD_LABELS);
  if (o.caret) b.caretHosts.add(b.peekId());
  const caret = o.caret ? '<span class="caret" data-caret></span>' : '';
  return make(b, o.search ? 'search box' : 'input', value, b.text(value) + caret, {
    colorProp: 'border-color',
    ...o,
    kinds: o.kinds ?? [...LEAF, 'resize', 'color', 'text'],
    textSort: 'field',
  });
}

/** n distinct labels of a sort not yet on the screen */
export function labels(b: ScreenBuilder, pool: readonly string[], n: number): string[] {
  return b.freshMany(pool, n);
}

/** a table value of one of a few sorts, and its text sort */
export function cellValue(b: ScreenBuilder, sort: 'name' | 'status' | 'date' | 'number' | 'title'): string {
  if (sort === 'name') return W.person(b.rng);
  if (sort === 'status') return b.rng.pick(W.STATUSES);
  if (sort === 'date') return W.date(b.rng);
  if (sort === 'number') return W.number(b.rng);
  return b.rng.pick(W.CARD_TITLES);
}

export const FILES = [
  'README.md',
  'package.json',
  'index.ts',
  'main.py',
  'styles.css',
  'config.yaml',
  'Makefile',
  'report.ipynb',
  'data.csv',
  'LICENSE',
  'app.tsx',
  'server.go',
  'notes.txt',
  'schema.sql',
  'build.sh',
  'utils.js',
];
export const FOLDERS = ['src', 'docs', 'tests', 'scripts', 'assets', 'public', 'lib', 'examples', 'notebooks', 'config'];
export const MENU_LABELS = [
  'New file',
  'Open',
  'Save as',
  'Rename',
  'Duplicate',
  'Copy link',
  'Move to',
  'Delete',
  'Settings',
  'Share',
  'Export',
  'Print',
  'Undo',
  'Redo',
  'Cut',
  'Copy',
  'Paste',
  'Select all',
  'Find',
  'Close',
];
