// Bulma 1 (bulma, MIT): navbar, menu, tabs, tables, tags, cards, panels, forms, dropdowns and modal
// cards in Bulma's documented markup, in its light and dark themes.
import type { Area, ScreenBuilder } from '../screen.js';
import * as W from '../words.js';
import type { Origin } from './index.js';
import {
  FILES,
  FOLDERS,
  LEAF,
  badge,
  dropdownItems,
  box,
  button,
  cellValue,
  heading,
  iconButton,
  inputBox,
  make,
  paragraph,
  svg,
  textEl,
  type Layout,
} from './kit.js';

const TONES = ['is-primary', 'is-link', 'is-info', 'is-success', 'is-warning', 'is-danger'];

const btn = (b: ScreenBuilder, area: Area | null, cls: string, group?: string) => button(b, { cls: `button ${cls}`, area, group });

function navbar(b: ScreenBuilder): string {
  const gid = b.newId();
  const item = (bb: ScreenBuilder, label: string) =>
    textEl(bb, 'link', label, 'nav', { tag: 'a', cls: 'navbar-item', area: 'nav bar', group: gid });
  const items = b.freshMany(W.NAV_LABELS, b.compact ? 2 : b.rng.int(3, 4)).map((l) => item(b, l));
  b.factories.set(gid, (bb) => item(bb, bb.fresh(W.NAV_LABELS)));
  const tone = b.rng.pick(['', 'is-primary', 'is-dark', 'is-light']);
  const logo = textEl(b, 'logo', b.rng.pick(W.BRANDS), 'title', {
    tag: 'a',
    cls: 'navbar-item has-text-weight-bold is-size-5',
    area: 'nav bar',
    kinds: ['text', 'font', 'move'],
  });
  const bg = b.newId();
  const btns = b.width >= 700 ? [btn(b, 'nav bar', 'is-light is-small', bg)] : [];
  b.factories.set(bg, (bb) => btn(bb, 'nav bar', 'is-small', bg));
  return make(
    b,
    'nav bar',
    'nav bar',
    `<div class="navbar-brand" style="flex:1">${logo}${box(b, 'list', items.join(''), { id: gid, cls: 'is-flex', area: 'nav bar', spacingProp: 'gap' })}` +
      `<div class="navbar-item" style="margin-left:auto">${box(b, 'toolbar', btns.join(''), { id: bg, cls: 'buttons', area: 'nav bar' })}</div></div>`,
    { tag: 'nav', cls: `navbar ${tone}`, area: 'nav bar', kinds: [], colorProp: 'background-color' },
  );
}

function menu(b: ScreenBuilder): string {
  const sections: string[] = [];
  for (const label of b.rng.sample(['General', 'Administration', 'Transactions', 'Projects'], 2)) {
    const gid = b.newId();
    const it = (bb: ScreenBuilder, l: string, active: boolean) =>
      make(bb, 'menu item', l, `<a data-face${active ? ' class="is-active"' : ''}>${bb.text(l)}</a>`, {
        tag: 'li',
        area: 'sidebar',
        group: gid,
        face: true,
        colorProp: 'color',
        kinds: [...LEAF, 'text', 'color', 'font', 'add'],
      });
    const items = b.freshMany(W.NAV_LABELS, b.rng.int(2, 4)).map((l, i) => it(b, l, sections.length === 0 && i === 0));
    b.factories.set(gid, (bb) => it(bb, bb.fresh(W.NAV_LABELS), false));
    sections.push(
      textEl(b, 'label', label, 'title', { tag: 'p', cls: 'menu-label', area: 'sidebar', kinds: ['text', 'color', 'font'] }) +
        box(b, 'list', items.join(''), { id: gid, tag: 'ul', cls: 'menu-list', area: 'sidebar' }),
    );
  }
  return `<aside class="menu p-4" style="width:210px;flex:none">${sections.join('')}</aside>`;
}

function tabs(b: ScreenBuilder): string {
  const gid = b.newId();
  const style = b.rng.pick(['', 'is-boxed', 'is-toggle']);
  const it = (bb: ScreenBuilder, l: string, active: boolean) =>
    make(bb, 'tab', l, `<a data-face>${bb.text(l)}</a>`, {
      tag: 'li',
      cls: active ? 'is-active' : '',
      area: 'tabs',
      group: gid,
      face: true,
      colorProp: 'color',
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
    });
  const items = b.freshMany(W.NAV_LABELS, b.rng.int(3, b.compact ? 3 : 5)).map((l, i) => it(b, l, i === 0));
  b.factories.set(gid, (bb) => it(bb, bb.fresh(W.NAV_LABELS), false));
  return `<div class="tabs ${style}">${box(b, 'tabs', items.join(''), { id: gid, tag: 'ul', area: 'tabs' })}</div>`;
}

function table(b: ScreenBuilder, rows: number): string {
  const cols: { name: string; sort: 'name' | 'status' | 'date' | 'number' | 'title' }[] = [
    { name: 'Name', sort: 'name' },
    { name: 'Status', sort: 'status' },
    { name: 'Amount', sort: 'number' },
    { name: 'Date', sort: 'date' },
  ].slice(0, b.compact ? 3 : 4) as never;
  const head = cols.map((c) => textEl(b, 'column header', c.name, 'nav', { tag: 'th', area: 'table', kinds: ['text', 'color', 'font'] }));
  const gid = b.newId();
  const row = (bb: ScreenBuilder) =>
    make(
      bb,
      'row',
      '',
      cols
        .map((c) => {
          const v = cellValue(bb, c.sort);
          return `<td>${c.sort === 'status' ? badge(bb, `tag ${bb.rng.pick(TONES)} is-light`, { area: 'table', label: v }) : textEl(bb, 'cell', v, c.sort, { tag: 'span', area: 'table', kinds: ['text', 'color', 'font'] })}</td>`;
        })
        .join(''),
      { tag: 'tr', area: 'table', group: gid, kinds: ['remove', 'reorder', 'opacity'] },
    );
  const body: string[] = [];
  for (let i = 0; i < rows; i++) body.push(row(b));
  b.factories.set(gid, row);
  return (
    `<table class="table is-fullwidth ${b.rng.pick(['is-hoverable', 'is-striped', 'is-narrow'])}"><thead><tr>${head.join('')}</tr></thead>` +
    box(b, 'table', body.join(''), { id: gid, tag: 'tbody', area: 'table' }) +
    '</table>'
  );
}

function field(b: ScreenBuilder, caret: boolean): string {
  const label = b.rng.pick(W.FIELD_LABELS);
  return (
    `<div class="field">` +
    textEl(b, 'label', label, 'field', { tag: 'label', cls: 'label', area: 'form', kinds: ['text', 'color', 'font'] }) +
    `<div class="control">${inputBox(b, { cls: 'input', area: 'form', caret, value: b.rng.chance(0.5) ? W.person(b.rng) : b.rng.pick(['Acme Inc.', 'Lisbon', 'hello@example.com', 'Monthly']) })}</div></div>`
  );
}

function form(b: ScreenBuilder, n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(field(b, i === 0 && b.rng.chance(0.5)));
  const cg = b.newId();
  const check = (bb: ScreenBuilder) => {
    const l = bb.rng.pick(['Remember me', 'Send me updates', 'I agree to the terms', 'Make it public']);
    return make(bb, 'checkbox', l, `<input type="checkbox"${bb.rng.chance(0.5) ? ' checked' : ''}> ${bb.text(l)}`, {
      tag: 'label',
      cls: 'checkbox',
      area: 'form',
      group: cg,
      kinds: ['remove', 'opacity', 'move', 'reorder'],
    });
  };
  parts.push(
    box(b, 'form', check(b) + check(b), { id: cg, cls: 'field is-flex is-flex-direction-column', area: 'form', spacingProp: 'gap' }),
  );
  b.factories.set(cg, check);
  const bg = b.newId();
  parts.push(
    box(b, 'toolbar', btn(b, 'form', 'is-link', bg) + btn(b, 'form', 'is-link is-light', bg), { id: bg, cls: 'buttons', area: 'form' }),
  );
  b.factories.set(bg, (bb) => btn(bb, 'form', 'is-light', bg));
  return box(b, 'form', parts.join(''), { cls: 'box', area: 'form', spacingProp: 'padding' });
}

function card(b: ScreenBuilder, gid: string): string {
  const title = b.rng.pick(W.CARD_TITLES);
  const fg = b.newId();
  // a footer item paints its separator across its whole cell: a button (border box), not bare link text
  const foot = (bb: ScreenBuilder) =>
    textEl(bb, 'button', bb.fresh(['Edit', 'Share', 'Delete', 'Open', 'Archive']), 'button', {
      tag: 'a',
      cls: 'card-footer-item',
      group: fg,
    });
  b.factories.set(fg, foot);
  return make(
    b,
    'card',
    title,
    `<header class="card-header">${heading(b, 'p', 'card-header-title', { label: title })}${iconButton(b, { cls: 'card-header-icon', tag: 'button' })}</header>` +
      make(
        b,
        'card',
        'content',
        paragraph(b, 'content', { min: 6, max: 14 }) + `<div class="tags">${badge(b, 'tag ' + b.rng.pick(TONES))}${badge(b, 'tag')}</div>`,
        { cls: 'card-content', kinds: ['spacing'], spacingProp: 'padding' },
      ) +
      box(b, 'toolbar', foot(b) + foot(b), { id: fg, tag: 'footer', cls: 'card-footer' }),
    { cls: 'card', group: gid, kinds: ['remove', 'reorder', 'opacity', 'move'] },
  );
}

function panel(b: ScreenBuilder, rows: number): string {
  const gid = b.newId();
  const row = (bb: ScreenBuilder) => {
    const folder = bb.rng.chance(0.3);
    const name = folder ? bb.rng.pick(FOLDERS) : bb.rng.pick(FILES);
    return make(bb, 'row', name, `<span class="panel-icon">${svg(folder ? 'cloud' : 'mail', 14)}</span>${bb.text(name)}`, {
      tag: 'a',
      cls: 'panel-block',
      area: 'list',
      group: gid,
      colorProp: 'color',
      kinds: ['remove', 'reorder', 'opacity', 'text', 'color'],
      textSort: 'title',
    });
  };
  const items: string[] = [];
  for (let i = 0; i < rows; i++) items.push(row(b));
  b.factories.set(gid, row);
  const tg = b.newId();
  const tab = (bb: ScreenBuilder, l: string, on: boolean) =>
    textEl(bb, 'tab', l, 'nav', { tag: 'a', cls: on ? 'is-active' : '', area: 'tabs', group: tg });
  const tabsHtml = b.freshMany(['All', 'Public', 'Private', 'Sources', 'Forks'], 4).map((l, i) => tab(b, l, i === 0));
  b.factories.set(tg, (bb) => tab(bb, bb.fresh(['Mirrors', 'Archived', 'Starred']), false));
  return (
    `<nav class="panel ${b.rng.pick(['', 'is-primary', 'is-link', 'is-info'])}">` +
    heading(b, 'p', 'panel-heading', { label: b.rng.pick(['Repositories', 'Files', 'Documents', 'Assets']) }) +
    `<div class="panel-block">${inputBox(b, { cls: 'input is-small', search: true, value: 'Search', area: 'list' })}</div>` +
    box(b, 'tabs', tabsHtml.join(''), { id: tg, tag: 'p', cls: 'panel-tabs', area: 'tabs' }) +
    box(b, 'list', items.join(''), { id: gid, cls: '', area: 'list' }) +
    '</nav>'
  );
}

function dropdown(b: ScreenBuilder): string {
  const { gid, items } = dropdownItems(b, { chance: 0.6, html: '<hr class="dropdown-divider">' });
  return (
    `<div class="dropdown is-active"><div class="dropdown-trigger">${btn(b, null, '')}</div>` +
    `<div class="dropdown-menu" style="min-width:200px">${box(b, 'menu', items.join(''), { id: gid, cls: 'dropdown-content', area: 'menu', spacingProp: 'padding' })}</div></div>`
  );
}

function modal(b: ScreenBuilder): string {
  const title = b.rng.pick(['Rename file', 'Invite people', 'Delete project?', 'New folder', 'Share link']);
  const bg = b.newId();
  b.factories.set(bg, (bb) => btn(bb, 'dialog', '', bg));
  return (
    `<div class="modal is-active" style="position:absolute"><div class="modal-background"></div>` +
    make(
      b,
      'dialog',
      title,
      `<header class="modal-card-head">${heading(b, 'p', 'modal-card-title', { label: title, area: 'dialog' })}<button class="delete"></button></header>` +
        make(
          b,
          'form',
          'body',
          paragraph(b, 'mb-3', { area: 'dialog' }) + inputBox(b, { cls: 'input', area: 'dialog', caret: b.rng.chance(0.5) }),
          {
            tag: 'section',
            cls: 'modal-card-body',
            area: 'dialog',
            kinds: ['spacing'],
            spacingProp: 'padding',
          },
        ) +
        `<footer class="modal-card-foot">${box(b, 'toolbar', btn(b, 'dialog', 'is-success', bg) + btn(b, 'dialog', '', bg), { id: bg, cls: 'buttons', area: 'dialog' })}</footer>`,
      { cls: 'modal-card', area: 'dialog', kinds: ['move'], style: `width:min(520px,${b.width - 40}px)` },
    ) +
    '</div>'
  );
}

function pageHead(b: ScreenBuilder): string {
  const bg = b.newId();
  b.factories.set(bg, (bb) => btn(bb, 'header', 'is-light', bg));
  return (
    `<div class="level mb-4" style="display:flex"><div class="level-left">${heading(b, 'h1', 'title is-4 mb-0', { area: 'header' })}</div>` +
    `<div class="level-right" style="margin-left:auto">${box(b, 'toolbar', btn(b, 'header', 'is-primary', bg) + (b.compact ? '' : btn(b, 'header', '', bg)), { id: bg, cls: 'buttons', area: 'header' })}</div></div>`
  );
}

const shell = (b: ScreenBuilder, main: string, side: boolean) =>
  navbar(b) +
  `<div class="is-flex" style="flex:1;min-height:0">${side && b.width >= 760 ? menu(b) : ''}<section class="section p-4" style="flex:1;min-width:0;overflow:hidden">${main}</section></div>`;

const layouts: Record<string, Layout> = {
  admin: (b) =>
    shell(b, pageHead(b) + (b.rng.chance(0.5) ? notification(b) : '') + `<div class="box p-0">${table(b, b.rng.int(3, 6))}</div>`, true),
  settings: (b) => shell(b, pageHead(b) + tabs(b) + `<div style="max-width:560px">${form(b, b.rng.int(2, 3))}</div>`, b.rng.chance(0.5)),
  cards: (b) => {
    const n = b.width < 700 ? 1 : b.width < 1000 ? 2 : 3;
    const gid = b.newId();
    const cards: string[] = [];
    for (let i = 0; i < n * 2; i++) cards.push(card(b, gid));
    b.factories.set(gid, (bb) => card(bb, gid));
    return shell(
      b,
      pageHead(b) +
        box(b, 'list', cards.join(''), {
          id: gid,
          style: `display:grid;grid-template-columns:repeat(${n},1fr);gap:16px`,
          spacingProp: 'gap',
        }),
      false,
    );
  },
  files: (b) => shell(b, `<div style="max-width:720px">${panel(b, b.rng.int(4, 7))}</div>`, true),
  menu: (b) => shell(b, pageHead(b) + dropdown(b) + `<div class="box mt-3">${table(b, 3)}</div>`, false),
  dialog: (b) =>
    `<div style="position:relative;flex:1;display:flex;flex-direction:column;min-height:0">${shell(b, pageHead(b) + `<div class="box p-0">${table(b, 4)}</div>`, true)}${modal(b)}</div>`,
};

function notification(b: ScreenBuilder): string {
  const text = W.sentence(b.rng, 5, 10) + '.';
  return textEl(b, 'banner', text, 'sentence', {
    tag: 'div',
    cls: `notification ${b.rng.pick(TONES)} is-light py-3`,
    colorProp: 'background-color',
    kinds: ['remove', 'opacity', 'color', 'text', 'spacing'],
    spacingProp: 'padding',
    after: `<button class="delete"></button>`,
  });
}

export const bulma: Origin = {
  id: 'bulma',
  pkg: 'bulma',
  licence: 'MIT',
  css: ['css/bulma.min.css'],
  glue: '#app{background-color:var(--bulma-body-background-color);color:var(--bulma-body-color);font-family:var(--bulma-body-family);font-size:var(--bulma-body-font-size);line-height:var(--bulma-body-line-height)}',
  // on <html> too: Bulma derives most colours from variables declared on :root
  theme: (dark) => ({ app: { 'data-theme': dark ? 'dark' : 'light' }, html: { 'data-theme': dark ? 'dark' : 'light' } }),
  bg: { light: '#ffffff', dark: '#14161a' },
  layouts,
  split: 'train',
};
