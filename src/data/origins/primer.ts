// Primer CSS (@primer/css, MIT: GitHub's design system): a repository-style header, underline
// navigation, Box lists of issues and files, labels and counters, a settings page with a side menu
// and form groups, an action list menu and an overlay dialog; light and dark colour modes.
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
  heading,
  iconButton,
  inputBox,
  make,
  paragraph,
  svg,
  textEl,
  type Layout,
} from './kit.js';

const LABELS = ['Label--accent', 'Label--success', 'Label--attention', 'Label--danger', 'Label--done', 'Label--secondary'];
const btn = (b: ScreenBuilder, area: Area | null, cls: string, group?: string) =>
  button(b, { cls: `btn ${cls}`, area, group, iconCls: 'octicon' });

function header(b: ScreenBuilder): string {
  const gid = b.newId();
  const link = (bb: ScreenBuilder, l: string) =>
    textEl(bb, 'link', l, 'nav', { tag: 'a', cls: 'Header-link mr-3', area: 'nav bar', group: gid });
  const links = b.freshMany(W.NAV_LABELS, b.compact ? 1 : b.rng.int(2, 4)).map((l) => link(b, l));
  b.factories.set(gid, (bb) => link(bb, bb.fresh(W.NAV_LABELS)));
  return make(
    b,
    'nav bar',
    'header',
    `<div class="Header-item">${textEl(b, 'logo', b.rng.pick(W.BRANDS), 'title', { tag: 'a', cls: 'Header-link f4 text-bold', area: 'nav bar', kinds: ['text', 'move', 'font'] })}</div>` +
      (b.width >= 700
        ? `<div class="Header-item">${inputBox(b, { cls: 'form-control input-sm input-dark', search: true, value: 'Type / to search', area: 'nav bar', style: 'width:200px' })}</div>`
        : '') +
      `<div class="Header-item Header-item--full">${box(b, 'list', links.join(''), { id: gid, tag: 'nav', cls: 'd-flex', area: 'nav bar' })}</div>` +
      `<div class="Header-item mr-0">${iconButton(b, { cls: 'Header-link btn-octicon', area: 'nav bar', icon: 'bell' })}</div>`,
    { cls: 'Header', area: 'nav bar', kinds: ['spacing'], spacingProp: 'padding', colorProp: 'background-color' },
  );
}

function underlineNav(b: ScreenBuilder): string {
  const gid = b.newId();
  const it = (bb: ScreenBuilder, l: string, on: boolean) =>
    textEl(bb, 'tab', l, 'nav', {
      tag: 'a',
      cls: 'UnderlineNav-item' + (on ? ' selected' : ''),
      attrs: on ? 'aria-current="page"' : '',
      area: 'tabs',
      group: gid,
      before: svg(bb.rng.pick(['home', 'info', 'gear', 'calendar', 'mail', 'star']), 16, 'UnderlineNav-octicon'),
      after: bb.rng.chance(0.4) ? ` <span class="Counter">${bb.rng.int(1, 99)}</span>` : '',
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
    });
  const items = b
    .freshMany(
      ['Code', 'Issues', 'Pull requests', 'Actions', 'Projects', 'Wiki', 'Security', 'Insights', 'Settings'],
      b.compact ? 3 : b.rng.int(4, 6),
    )
    .map((l, i) => it(b, l, i === 0));
  b.factories.set(gid, (bb) => it(bb, bb.fresh(['Discussions', 'Packages', 'Releases']), false));
  return `<nav class="UnderlineNav px-3">${box(b, 'tabs', items.join(''), { id: gid, cls: 'UnderlineNav-body', area: 'tabs' })}</nav>`;
}

function issueRow(b: ScreenBuilder, gid: string): string {
  const title = W.sentence(b.rng, 3, 7);
  const labels = b.rng.int(0, 2);
  let lab = '';
  for (let i = 0; i < labels; i++)
    lab +=
      ' ' +
      badge(b, `Label ${b.rng.pick(LABELS)}`, {
        label: b.rng.pick(['bug', 'enhancement', 'docs', 'good first issue', 'question', 'help wanted']),
        area: 'list',
      });
  return make(
    b,
    'row',
    title,
    `<div class="d-flex flex-items-start">` +
      `<span class="${b.rng.chance(0.7) ? 'color-fg-success' : 'color-fg-done'} mr-2 mt-1">${svg(b.rng.pick(['info', 'check']), 16)}</span>` +
      `<div class="flex-auto">` +
      textEl(b, 'link', title, 'sentence', { tag: 'a', cls: 'Link--primary text-bold', area: 'list' }) +
      lab +
      `<div class="f6 color-fg-muted mt-1">${textEl(b, 'text', `#${b.rng.int(10, 9999)} opened ${W.date(b.rng)} by ${W.person(b.rng).split(' ')[0].toLowerCase()}`, 'sentence', { tag: 'span', area: 'list', kinds: ['text', 'font'] })}</div>` +
      `</div>` +
      (b.rng.chance(0.5) ? `<span class="color-fg-muted f6 ml-2">${svg('mail', 16)} ${b.rng.int(1, 40)}</span>` : '') +
      '</div>',
    {
      cls: 'Box-row',
      area: 'list',
      group: gid,
      kinds: ['remove', 'reorder', 'opacity', 'color', 'spacing'],
      colorProp: 'background-color',
      spacingProp: 'padding',
    },
  );
}

function issues(b: ScreenBuilder): string {
  const gid = b.newId();
  const rows: string[] = [];
  for (let i = 0; i < b.rng.int(3, 6); i++) rows.push(issueRow(b, gid));
  b.factories.set(gid, (bb) => issueRow(bb, gid));
  const sg = b.newId();
  const sel = (bb: ScreenBuilder, l: string, on: boolean) =>
    textEl(bb, 'link', l, 'nav', {
      tag: 'a',
      cls: on ? 'Link--primary text-bold mr-3' : 'Link--muted mr-3',
      area: 'list',
      group: sg,
      before: svg(on ? 'info' : 'check', 16) + ' ',
    });
  const states = [sel(b, `${b.rng.int(2, 90)} Open`, true), sel(b, `${b.rng.int(10, 900)} Closed`, false)];
  b.factories.set(sg, (bb) => sel(bb, `${bb.rng.int(1, 9)} Draft`, false));
  return (
    `<div class="d-flex mb-3" style="gap:8px">${inputBox(b, { cls: 'form-control flex-auto', search: true, value: 'is:issue is:open', area: 'toolbar' })}${btn(b, 'toolbar', 'btn-primary')}</div>` +
    `<div class="Box"><div class="Box-header d-flex">${box(b, 'list', states.join(''), { id: sg, cls: 'd-flex', area: 'list' })}</div>` +
    box(b, 'list', rows.join(''), { id: gid, area: 'list' }) +
    '</div>'
  );
}

function fileRow(b: ScreenBuilder, gid: string): string {
  const folder = b.rng.chance(0.35);
  const name = folder ? b.rng.pick(FOLDERS) : b.rng.pick(FILES);
  return make(
    b,
    'row',
    name,
    `<span class="${folder ? 'color-fg-accent' : 'color-fg-muted'} mr-2">${svg(folder ? 'cloud' : 'mail', 16)}</span>` +
      `<span class="flex-auto" style="min-width:0">${textEl(b, 'link', name, 'title', { tag: 'a', cls: 'Link--primary', area: 'table' })}</span>` +
      (b.compact
        ? ''
        : `<span class="color-fg-muted flex-auto">${textEl(b, 'text', W.sentence(b.rng, 2, 5), 'sentence', { tag: 'span', area: 'table', kinds: ['text'] })}</span>`) +
      `<span class="color-fg-muted">${textEl(b, 'text', `${b.rng.int(2, 11)} days ago`, 'date', { tag: 'span', area: 'table', kinds: ['text'] })}</span>`,
    {
      cls: 'Box-row Box-row--hover-gray d-flex flex-items-center py-2',
      area: 'table',
      group: gid,
      kinds: ['remove', 'reorder', 'opacity'],
    },
  );
}

function files(b: ScreenBuilder): string {
  const gid = b.newId();
  const rows: string[] = [];
  for (let i = 0; i < b.rng.int(4, 8); i++) rows.push(fileRow(b, gid));
  b.factories.set(gid, (bb) => fileRow(bb, gid));
  const tg = b.newId();
  const tb = [btn(b, 'toolbar', '', tg), btn(b, 'toolbar', 'btn-primary', tg)];
  b.factories.set(tg, (bb) => btn(bb, 'toolbar', '', tg));
  return (
    `<div class="d-flex flex-items-center mb-3" style="gap:8px">${heading(b, 'h2', 'f3 text-normal', { label: b.rng.pick(W.BRANDS).toLowerCase() + ' / ' + b.rng.pick(FOLDERS), area: 'header' })}` +
    `<span class="Label Label--secondary">Public</span><div class="flex-auto"></div>${box(b, 'toolbar', tb.join(''), { id: tg, cls: 'BtnGroup', area: 'toolbar' })}</div>` +
    `<div class="Box"><div class="Box-header d-flex flex-items-center py-2">${textEl(b, 'text', W.person(b.rng), 'name', { tag: 'strong', area: 'table', kinds: ['text'] })}<span class="color-fg-muted ml-2 f6">${W.escapeHtml(W.sentence(b.rng, 3, 6))}</span></div>` +
    box(b, 'table', rows.join(''), { id: gid, area: 'table' }) +
    '</div>'
  );
}

function settings(b: ScreenBuilder): string {
  const mg = b.newId();
  const mi = (bb: ScreenBuilder, l: string, on: boolean) =>
    textEl(bb, 'menu item', l, 'nav', {
      tag: 'a',
      cls: 'menu-item',
      attrs: on ? 'aria-current="page"' : '',
      area: 'sidebar',
      group: mg,
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
    });
  const items = b
    .freshMany(
      ['Profile', 'Account', 'Appearance', 'Notifications', 'Billing', 'Emails', 'Security', 'Sessions', 'Integrations'],
      b.rng.int(4, 6),
    )
    .map((l, i) => mi(b, l, i === 0));
  b.factories.set(mg, (bb) => mi(bb, bb.fresh(['Packages', 'Pages', 'Codespaces']), false));
  const fields: string[] = [];
  for (let i = 0; i < b.rng.int(2, 3); i++) {
    const l = b.rng.pick(W.FIELD_LABELS);
    fields.push(
      `<div class="form-group"><div class="form-group-header">${textEl(b, 'label', l, 'field', { tag: 'label', area: 'form', kinds: ['text', 'color', 'font'] })}</div>` +
        `<div class="form-group-body">${inputBox(b, { cls: 'form-control', area: 'form', caret: i === 0 && b.rng.chance(0.5), value: b.rng.chance(0.5) ? W.person(b.rng) : 'hello@example.com', style: 'max-width:360px' })}</div>` +
        `<p class="note">${W.escapeHtml(W.sentence(b.rng, 5, 9))}.</p></div>`,
    );
  }
  const bg = b.newId();
  b.factories.set(bg, (bb) => btn(bb, 'form', '', bg));
  const side =
    b.width >= 700
      ? box(b, 'sidebar', items.join(''), { id: mg, tag: 'nav', cls: 'menu', area: 'sidebar', style: 'width:200px;flex:none' })
      : '';
  return (
    `<div class="d-flex p-4" style="gap:24px;min-width:0">${side}<div class="flex-auto" style="min-width:0">` +
    `<div class="Subhead">${heading(b, 'h2', 'Subhead-heading', { label: b.rng.pick(['Public profile', 'Account settings', 'Notifications', 'Appearance']) })}</div>` +
    box(b, 'form', fields.join(''), { tag: 'form', area: 'form' }) +
    box(b, 'toolbar', btn(b, 'form', 'btn-primary', bg) + btn(b, 'form', '', bg), {
      id: bg,
      cls: 'd-flex',
      area: 'form',
      style: 'gap:8px',
      spacingProp: 'gap',
    }) +
    '</div></div>'
  );
}

function actionMenu(b: ScreenBuilder): string {
  const { gid, items } = dropdownItems(b, { chance: 0.5, html: '<div class="dropdown-divider" role="separator"></div>' });
  return box(b, 'menu', items.join(''), {
    id: gid,
    cls: 'dropdown-menu dropdown-menu-se',
    area: 'menu',
    spacingProp: 'padding',
    style: `position:absolute;left:${b.rng.int(16, Math.max(20, b.width - 220))}px;top:${b.rng.int(96, 130)}px;z-index:20;width:200px;display:block`,
  });
}

function dialog(b: ScreenBuilder): string {
  const title = b.rng.pick(['Delete this repository?', 'Rename branch', 'Invite a collaborator', 'Create a new label']);
  const bg = b.newId();
  b.factories.set(bg, (bb) => btn(bb, 'dialog', '', bg));
  return (
    `<div style="position:absolute;inset:0;background:var(--overlay-backdrop-bgColor,rgba(0,0,0,.4));z-index:30"></div>` +
    make(
      b,
      'dialog',
      title,
      `<div class="Box-header">${heading(b, 'h3', 'Box-title', { label: title, area: 'dialog' })}</div>` +
        make(
          b,
          'form',
          'body',
          paragraph(b, 'mb-2', { area: 'dialog' }) +
            inputBox(b, { cls: 'form-control width-full', area: 'dialog', caret: b.rng.chance(0.5) }),
          {
            cls: 'Box-body',
            area: 'dialog',
            kinds: ['spacing'],
            spacingProp: 'padding',
          },
        ) +
        `<div class="Box-footer">${box(b, 'toolbar', btn(b, 'dialog', '', bg) + btn(b, 'dialog', b.rng.chance(0.4) ? 'btn-danger' : 'btn-primary', bg), { id: bg, cls: 'd-flex flex-justify-end', area: 'dialog', style: 'gap:8px', spacingProp: 'gap' })}</div>`,
      {
        cls: 'Box Box--overlay d-flex flex-column',
        area: 'dialog',
        kinds: ['move'],
        style: `position:absolute;z-index:31;left:50%;top:${b.compact ? 40 : 80}px;transform:translateX(-50%);width:min(480px,${b.width - 32}px)`,
      },
    )
  );
}

const page = (b: ScreenBuilder, main: string) =>
  header(b) + `<div class="color-bg-default" style="flex:1;min-height:0;position:relative">` + main + '</div>';

const layouts: Record<string, Layout> = {
  issues: (b) => page(b, underlineNav(b) + `<div class="p-3">${issues(b)}</div>`),
  files: (b) => page(b, underlineNav(b) + `<div class="p-3">${files(b)}</div>`),
  settings: (b) => page(b, settings(b)),
  menu: (b) => page(b, underlineNav(b) + `<div class="p-3">${issues(b)}</div>` + actionMenu(b)),
  dialog: (b) => page(b, underlineNav(b) + `<div class="p-3">${files(b)}</div>`) + dialog(b),
};

export const primer: Origin = {
  id: 'primer',
  pkg: '@primer/css',
  licence: 'MIT',
  // Primer's CSS reads its sizes (border widths, radii, control sizes) from @primer/primitives
  css: [
    'dist/primer.css',
    '@primer/primitives|dist/css/base/size/size.css',
    '@primer/primitives|dist/css/functional/size/size.css',
    '@primer/primitives|dist/css/functional/size/border.css',
    '@primer/primitives|dist/css/functional/typography/typography.css',
  ],
  glue: '#app{background-color:var(--bgColor-default);color:var(--fgColor-default);font-family:-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif;font-size:14px;line-height:1.5}',
  theme: (dark) => ({ app: { 'data-color-mode': dark ? 'dark' : 'light', 'data-light-theme': 'light', 'data-dark-theme': 'dark' } }),
  bg: { light: '#ffffff', dark: '#0d1117' },
  layouts,
  split: 'test',
};
