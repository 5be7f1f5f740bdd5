// Pico CSS 2 (@picocss/pico, MIT): semantic HTML styled by the framework - nav lists, articles as
// cards, tables, forms, button groups, an open dropdown (details) and an open dialog; light and dark.
import type { Area, ScreenBuilder } from '../screen.js';
import * as W from '../words.js';
import type { Origin } from './index.js';
import {
  LEAF,
  MENU_LABELS,
  badge,
  box,
  button,
  cellValue,
  heading,
  iconButton,
  inputBox,
  make,
  paragraph,
  textEl,
  type Layout,
} from './kit.js';

const btn = (b: ScreenBuilder, area: Area | null, cls: string, group?: string) =>
  button(b, { cls, area, group, attrs: '', iconChance: 0.15 });

function nav(b: ScreenBuilder): string {
  const gid = b.newId();
  const li = (bb: ScreenBuilder, l: string) =>
    make(bb, 'link', l, `<a href="#" data-face${bb.rng.chance(0.2) ? ' class="secondary"' : ''}>${bb.text(l)}</a>`, {
      tag: 'li',
      area: 'nav bar',
      group: gid,
      face: true,
      colorProp: 'color',
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
      textSort: 'nav',
    });
  const items = b.freshMany(W.NAV_LABELS, b.compact ? 2 : b.rng.int(3, 4)).map((l) => li(b, l));
  b.factories.set(gid, (bb) => li(bb, bb.fresh(W.NAV_LABELS)));
  return make(
    b,
    'nav bar',
    'nav',
    `<ul><li>${textEl(b, 'logo', b.rng.pick(W.BRANDS), 'title', { tag: 'strong', area: 'nav bar', kinds: ['text', 'font', 'move'] })}</li></ul>` +
      box(b, 'list', items.join(''), { id: gid, tag: 'ul', area: 'nav bar' }) +
      `<ul><li>${iconButton(b, { cls: 'outline secondary', area: 'nav bar', attrs: 'style="padding:6px 8px"' })}</li></ul>`,
    { tag: 'nav', cls: 'container-fluid', area: 'nav bar', kinds: [] },
  );
}

function table(b: ScreenBuilder, rows: number): string {
  const cols = (['name', 'status', 'number', 'date'] as const).slice(0, b.compact ? 3 : 4);
  const names = { name: 'Name', status: 'Status', number: 'Amount', date: 'Date' };
  const head = cols.map((c) =>
    textEl(b, 'column header', names[c], 'nav', { tag: 'th', attrs: 'scope="col"', area: 'table', kinds: ['text', 'color', 'font'] }),
  );
  const gid = b.newId();
  const row = (bb: ScreenBuilder) =>
    make(
      bb,
      'row',
      '',
      cols
        .map((c) => {
          const v = cellValue(bb, c);
          return `<td>${c === 'status' ? badge(bb, '', { tag: 'mark', area: 'table', label: v }) : textEl(bb, 'cell', v, c, { tag: 'span', area: 'table', kinds: ['text', 'color', 'font'] })}</td>`;
        })
        .join(''),
      { tag: 'tr', area: 'table', group: gid, kinds: ['remove', 'reorder', 'opacity'] },
    );
  const body: string[] = [];
  for (let i = 0; i < rows; i++) body.push(row(b));
  b.factories.set(gid, row);
  return `<table${b.rng.chance(0.4) ? ' class="striped"' : ''}><thead><tr>${head.join('')}</tr></thead>${box(b, 'table', body.join(''), { id: gid, tag: 'tbody', area: 'table' })}</table>`;
}

function form(b: ScreenBuilder, n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const l = b.rng.pick(W.FIELD_LABELS);
    parts.push(
      `<label>${textEl(b, 'label', l, 'field', { tag: 'span', area: 'form', kinds: ['text', 'color', 'font'] })}` +
        inputBox(b, {
          cls: 'pico-input',
          area: 'form',
          caret: i === 0 && b.rng.chance(0.5),
          value: b.rng.chance(0.5) ? W.person(b.rng) : 'hello@example.com',
        }) +
        '</label>',
    );
  }
  const cg = b.newId();
  const check = (bb: ScreenBuilder) => {
    const l = bb.rng.pick(['Remember me', 'Send me updates', 'I agree to the terms', 'Make it public']);
    const sw = bb.rng.chance(0.5);
    return make(
      bb,
      sw ? 'toggle' : 'checkbox',
      l,
      `<input type="checkbox"${sw ? ' role="switch"' : ''}${bb.rng.chance(0.5) ? ' checked' : ''}>${bb.text(l)}`,
      { tag: 'label', area: 'form', group: cg, kinds: ['remove', 'opacity', 'move', 'reorder'] },
    );
  };
  parts.push(box(b, 'form', check(b) + check(b), { id: cg, tag: 'fieldset', area: 'form' }));
  b.factories.set(cg, check);
  const bg = b.newId();
  parts.push(box(b, 'toolbar', btn(b, 'form', '', bg) + btn(b, 'form', 'secondary', bg), { id: bg, attrs: 'role="group"', area: 'form' }));
  b.factories.set(bg, (bb) => btn(bb, 'form', 'outline', bg));
  return box(b, 'form', parts.join(''), { tag: 'form', area: 'form' });
}

function article(b: ScreenBuilder, gid: string): string {
  const title = b.rng.pick(W.CARD_TITLES);
  return make(
    b,
    'card',
    title,
    `<header>${heading(b, 'strong', '', { label: title })}</header>` +
      paragraph(b, '', { min: 6, max: 14 }) +
      `<footer style="display:flex;gap:8px">${btn(b, null, b.rng.pick(['', 'secondary', 'outline']))}${iconButton(b, { cls: 'outline secondary' })}</footer>`,
    { tag: 'article', group: gid, kinds: ['remove', 'reorder', 'opacity', 'move', 'spacing'], spacingProp: 'padding' },
  );
}

function dropdown(b: ScreenBuilder): string {
  const gid = b.newId();
  const it = (bb: ScreenBuilder, l: string) =>
    make(bb, 'menu item', l, `<a href="#" data-face>${bb.text(l)}</a>`, {
      tag: 'li',
      area: 'menu',
      group: gid,
      face: true,
      colorProp: 'color',
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
      textSort: 'button',
    });
  const items = b.freshMany(MENU_LABELS, b.rng.int(4, 6)).map((l) => it(b, l));
  b.factories.set(gid, (bb) => it(bb, bb.fresh(MENU_LABELS)));
  return `<details class="dropdown" open style="max-width:260px;position:relative"><summary>${W.escapeHtml(b.rng.pick(['Actions', 'More', 'Options', 'Sort by']))}</summary>${box(b, 'menu', items.join(''), { id: gid, tag: 'ul', area: 'menu' })}</details>`;
}

function dialog(b: ScreenBuilder): string {
  const title = b.rng.pick(['Confirm your action', 'Rename file', 'Invite people', 'Delete project?']);
  const bg = b.newId();
  b.factories.set(bg, (bb) => btn(bb, 'dialog', 'secondary', bg));
  return (
    `<dialog open style="position:absolute">` +
    make(
      b,
      'dialog',
      title,
      `<header>${heading(b, 'h3', '', { label: title, area: 'dialog' })}</header>` +
        paragraph(b, '', { area: 'dialog' }) +
        `<footer>${box(b, 'toolbar', btn(b, 'dialog', 'secondary', bg) + btn(b, 'dialog', '', bg), { id: bg, area: 'dialog', style: 'display:flex;gap:8px;justify-content:flex-end' })}</footer>`,
      { tag: 'article', area: 'dialog', kinds: ['move', 'spacing'], spacingProp: 'padding', style: `width:min(520px,${b.width - 32}px)` },
    ) +
    '</dialog>'
  );
}

const main = (b: ScreenBuilder, inner: string) =>
  nav(b) +
  `<main class="container-fluid" style="flex:1;min-height:0;overflow:hidden">${heading(b, 'h2', '', { area: 'header' })}${inner}</main>`;

const layouts: Record<string, Layout> = {
  table: (b) => main(b, table(b, b.rng.int(3, 6))),
  form: (b) => main(b, `<div style="max-width:560px">${form(b, b.rng.int(2, 3))}</div>`),
  cards: (b) => {
    const n = b.width < 700 ? 1 : 2;
    const gid = b.newId();
    const cards: string[] = [];
    for (let i = 0; i < n * 2; i++) cards.push(article(b, gid));
    b.factories.set(gid, (bb) => article(bb, gid));
    return main(
      b,
      box(b, 'list', cards.join(''), {
        id: gid,
        style: `display:grid;grid-template-columns:repeat(${n},1fr);column-gap:16px`,
        spacingProp: 'gap',
      }),
    );
  },
  menu: (b) => main(b, dropdown(b) + paragraph(b, '') + table(b, 3)),
  dialog: (b) =>
    `<div style="position:relative;flex:1;display:flex;flex-direction:column;min-height:0">${main(b, table(b, 4))}${dialog(b)}</div>`,
};

export const pico: Origin = {
  id: 'pico',
  pkg: '@picocss/pico',
  licence: 'MIT',
  css: ['css/pico.min.css'],
  glue:
    '#app{background-color:var(--pico-background-color);color:var(--pico-color);font-family:var(--pico-font-family);font-size:16px;line-height:var(--pico-line-height)}' +
    '#app .pico-input{display:block;width:100%;margin-bottom:var(--pico-spacing);padding:var(--pico-form-element-spacing-vertical) var(--pico-form-element-spacing-horizontal);border:var(--pico-border-width) solid var(--pico-form-element-border-color);border-radius:var(--pico-border-radius);background-color:var(--pico-form-element-background-color);color:var(--pico-form-element-color);font-weight:var(--pico-font-weight)}',
  theme: (dark) => ({ app: { 'data-theme': dark ? 'dark' : 'light' } }),
  bg: { light: '#ffffff', dark: '#13171f' },
  layouts,
  split: 'val',
};
