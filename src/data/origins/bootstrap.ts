// Bootstrap 5 (bootstrap, MIT) and Tabler (@tabler/core, MIT: an admin theme built on Bootstrap's
// markup with its own look): screens in the systems' documented markup - navbar, nav pills and
// tabs, button toolbars, tables, list groups, cards, forms, dropdown menus, modals, breadcrumbs.
import type { Area, ScreenBuilder } from '../screen.js';
import * as W from '../words.js';
import type { Origin } from './index.js';
import {
  FILES,
  FOLDERS,
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
  pickIcon,
  svg,
  textEl,
  type Layout,
} from './kit.js';

type Flavor = 'bootstrap' | 'tabler';

const TONES = ['primary', 'secondary', 'success', 'danger', 'warning', 'info'];

function kit(flavor: Flavor) {
  const t = flavor === 'tabler';

  const brand = (b: ScreenBuilder) => {
    const name = b.rng.pick(W.BRANDS);
    return textEl(b, 'logo', name, 'title', { tag: 'a', cls: 'navbar-brand', area: 'nav bar', kinds: ['text', 'color', 'font', 'move'] });
  };

  const navLink = (b: ScreenBuilder, gid: string, label: string, active: boolean) =>
    textEl(b, 'link', label, 'nav', { tag: 'a', cls: 'nav-link' + (active ? ' active' : ''), area: 'nav bar', group: gid });

  const navbar = (b: ScreenBuilder): string => {
    const gid = b.newId();
    const n = b.compact ? 2 : b.rng.int(3, 5);
    const links = b.freshMany(W.NAV_LABELS, n).map((l, i) => navLink(b, gid, l, i === 0));
    b.factories.set(gid, (bb) => navLink(bb, gid, bb.fresh(W.NAV_LABELS), false));
    const dark = b.rng.chance(0.4);
    const nav = box(b, 'list', links.join(''), { id: gid, cls: 'navbar-nav flex-row gap-2', area: 'nav bar', spacingProp: 'gap' });
    const right =
      (b.width >= 700
        ? inputBox(b, { cls: 'form-control form-control-sm', search: true, area: 'nav bar', style: 'width:170px', value: 'Search' })
        : '') + iconButton(b, { cls: 'btn btn-sm ' + (dark ? 'btn-outline-light' : 'btn-outline-secondary'), area: 'nav bar' });
    return make(
      b,
      'nav bar',
      'nav bar',
      `<div class="container-fluid gap-3 flex-nowrap">${brand(b)}${nav}<div class="ms-auto d-flex gap-2 align-items-center">${right}</div></div>`,
      {
        tag: 'nav',
        cls: `navbar ${t ? 'navbar-expand-md' : 'navbar-expand'} ${dark ? 'bg-dark' : t ? '' : 'bg-body-tertiary border-bottom'}`,
        attrs: dark ? 'data-bs-theme="dark"' : '',
        area: 'nav bar',
        kinds: ['spacing'],
        spacingProp: 'padding',
        colorProp: 'background-color',
      },
    );
  };

  const sideItem = (b: ScreenBuilder, gid: string, label: string, active: boolean) =>
    textEl(b, 'menu item', label, 'nav', {
      tag: 'a',
      cls: 'nav-link d-flex align-items-center gap-2' + (active ? ' active' : ' link-body-emphasis'),
      area: 'sidebar',
      group: gid,
      before: svg(pickIcon(b), 16),
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
    });

  const sidebar = (b: ScreenBuilder): string => {
    const gid = b.newId();
    const items = b.freshMany(W.NAV_LABELS, b.rng.int(4, 7)).map((l, i) => sideItem(b, gid, l, i === 0));
    b.factories.set(gid, (bb) => sideItem(bb, gid, bb.fresh(W.NAV_LABELS), false));
    return (
      `<div class="d-flex flex-column flex-shrink-0 p-3 border-end bg-body-tertiary" style="width:200px">` +
      box(b, 'sidebar', items.join(''), { id: gid, cls: 'nav nav-pills flex-column', area: 'sidebar', spacingProp: 'gap' }) +
      '</div>'
    );
  };

  const tab = (b: ScreenBuilder, gid: string, label: string, active: boolean) =>
    textEl(b, 'tab', label, 'nav', { tag: 'a', cls: 'nav-link' + (active ? ' active' : ''), area: 'tabs', group: gid });

  const tabs = (b: ScreenBuilder, pills = false): string => {
    const gid = b.newId();
    const items = b.freshMany(W.NAV_LABELS, b.rng.int(3, b.compact ? 3 : 5)).map((l, i) => tab(b, gid, l, i === 0));
    b.factories.set(gid, (bb) => tab(bb, gid, bb.fresh(W.NAV_LABELS), false));
    return box(b, 'tabs', items.join(''), {
      id: gid,
      tag: 'nav',
      cls: `nav ${pills ? 'nav-pills' : 'nav-tabs'} mb-3`,
      area: 'tabs',
      spacingProp: 'gap',
    });
  };

  const btn = (b: ScreenBuilder, area: Area | null, tone: string, group?: string, sm = false) =>
    button(b, { cls: `btn ${sm ? 'btn-sm ' : ''}btn-${tone}`, area, group, iconCls: 'me-1' });

  const toolbar = (b: ScreenBuilder): string => {
    const gid = b.newId();
    const n = b.compact ? 2 : b.rng.int(2, 4);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(btn(b, 'toolbar', i === 0 ? 'primary' : 'outline-secondary', gid, true));
    b.factories.set(gid, (bb) => btn(bb, 'toolbar', 'outline-secondary', gid, true));
    const icons = b.rng.int(1, 3);
    const igid = b.newId();
    const ib: string[] = [];
    for (let i = 0; i < icons; i++) ib.push(iconButton(b, { cls: 'btn btn-sm btn-outline-secondary', area: 'toolbar', group: igid }));
    b.factories.set(igid, (bb) => iconButton(bb, { cls: 'btn btn-sm btn-outline-secondary', area: 'toolbar', group: igid }));
    return (
      `<div class="btn-toolbar gap-2 mb-3 align-items-center" role="toolbar">` +
      box(b, 'toolbar', parts.join(''), { id: gid, cls: 'd-flex gap-2', area: 'toolbar', spacingProp: 'gap' }) +
      box(b, 'toolbar', ib.join(''), { id: igid, cls: 'btn-group', area: 'toolbar' }) +
      '</div>'
    );
  };

  const COLS: { name: string; sort: 'name' | 'status' | 'date' | 'number' | 'title' }[] = [
    { name: 'Name', sort: 'name' },
    { name: 'Status', sort: 'status' },
    { name: 'Updated', sort: 'date' },
    { name: 'Amount', sort: 'number' },
    { name: 'Project', sort: 'title' },
  ];

  const row = (b: ScreenBuilder, gid: string, cols: typeof COLS): string => {
    const cells = cols.map((c) => {
      const v = cellValue(b, c.sort);
      const inner =
        c.sort === 'status'
          ? badge(b, `badge ${t ? 'bg-' + b.rng.pick(TONES) + '-lt' : 'text-bg-' + b.rng.pick(TONES)}`, { area: 'table', label: v })
          : textEl(b, 'cell', v, c.sort === 'title' ? 'title' : c.sort, { tag: 'span', area: 'table', kinds: ['text', 'color', 'font'] });
      return `<td>${inner}</td>`;
    });
    return make(b, 'row', '', cells.join(''), { tag: 'tr', area: 'table', group: gid, kinds: ['remove', 'reorder', 'opacity', 'add'] });
  };

  const table = (b: ScreenBuilder, rows: number): string => {
    const ncol = b.compact ? 3 : b.width < 900 ? 4 : 5;
    const cols = COLS.slice(0, ncol);
    const hid = b.newId();
    const head = cols.map((c) =>
      textEl(b, 'column header', c.name, 'nav', { tag: 'th', attrs: 'scope="col"', area: 'table', kinds: ['text', 'color', 'font'] }),
    );
    const gid = b.newId();
    const body: string[] = [];
    for (let i = 0; i < rows; i++) body.push(row(b, gid, cols));
    b.factories.set(gid, (bb) => row(bb, gid, cols));
    const cls = t ? 'table card-table table-vcenter' : `table ${b.rng.chance(0.5) ? 'table-hover' : 'table-striped'} align-middle`;
    return (
      `<table class="${cls} mb-0">` +
      `<thead>${make(b, 'row', 'header', head.join(''), { tag: 'tr', id: hid, area: 'table', kinds: [] })}</thead>` +
      box(b, 'table', body.join(''), { id: gid, tag: 'tbody', area: 'table' }) +
      '</table>'
    );
  };

  const card = (b: ScreenBuilder, title: string, body: string, extraCls = ''): string =>
    `<div class="card ${extraCls}">` +
    (t ? `<div class="card-header">${heading(b, 'h3', 'card-title mb-0', { label: title })}</div>` : '') +
    make(b, 'card', title, (t ? '' : heading(b, 'h5', 'card-title', { label: title })) + body, {
      cls: 'card-body',
      kinds: ['spacing'],
      spacingProp: 'padding',
    }) +
    '</div>';

  const statCard = (b: ScreenBuilder, gid: string): string => {
    const label = b.fresh(W.CARD_TITLES);
    const num = W.number(b.rng);
    return make(
      b,
      'card',
      label,
      `<div class="card-body">` +
        textEl(b, 'label', label, 'title', {
          tag: 'div',
          cls: t ? 'subheader' : 'text-body-secondary small',
          kinds: ['text', 'color', 'font'],
        }) +
        textEl(b, 'number', num, 'number', { tag: 'div', cls: t ? 'h1 mb-0' : 'fs-3 fw-semibold', kinds: ['text', 'color', 'font'] }) +
        (b.rng.chance(0.5) ? badge(b, `badge ${t ? 'bg-green-lt' : 'text-bg-success'}`, { label: '+' + b.rng.int(1, 30) + '%' }) : '') +
        '</div>',
      { cls: 'card', group: gid, kinds: ['remove', 'reorder', 'move', 'opacity', 'resize'] },
    );
  };

  const stats = (b: ScreenBuilder): string => {
    const gid = b.newId();
    const n = b.compact ? 2 : b.width < 900 ? 3 : 4;
    const cards: string[] = [];
    for (let i = 0; i < n; i++) cards.push(statCard(b, gid));
    b.factories.set(gid, (bb) => statCard(bb, gid));
    return box(b, 'list', cards.join(''), {
      id: gid,
      cls: 'd-flex gap-3 mb-3',
      style: 'display:grid!important;grid-template-columns:repeat(' + n + ',1fr)',
      spacingProp: 'gap',
    });
  };

  const field = (b: ScreenBuilder, caret: boolean): string => {
    const label = b.rng.pick(W.FIELD_LABELS);
    const value = b.rng.chance(0.5)
      ? W.person(b.rng)
      : b.rng.pick(['Acme Inc.', 'Berlin', 'en-US', 'UTC+01:00', 'Weekly', 'hello@example.com']);
    return (
      `<div class="mb-3">` +
      textEl(b, 'label', label, 'field', { tag: 'label', cls: 'form-label', area: 'form', kinds: ['text', 'color', 'font'] }) +
      inputBox(b, { cls: 'form-control', area: 'form', value, caret }) +
      '</div>'
    );
  };

  const check = (b: ScreenBuilder, gid: string, sw: boolean): string => {
    const label = b.rng.pick([
      'Email notifications',
      'Two-factor login',
      'Public profile',
      'Auto save',
      'Weekly digest',
      'Dark mode',
      'Show hidden files',
    ]);
    const checked = b.rng.chance(0.5) ? ' checked' : '';
    return make(
      b,
      sw ? 'toggle' : 'checkbox',
      label,
      `<input class="form-check-input" type="checkbox"${checked}>` +
        textEl(b, 'label', label, 'field', { tag: 'label', cls: 'form-check-label', area: 'form', kinds: ['text', 'font'] }),
      { cls: 'form-check' + (sw ? ' form-switch' : ''), area: 'form', group: gid, kinds: ['remove', 'reorder', 'opacity', 'move', 'add'] },
    );
  };

  const form = (b: ScreenBuilder, n: number): string => {
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(field(b, i === 0 && b.rng.chance(0.5)));
    const gid = b.newId();
    const checks: string[] = [];
    const sw = b.rng.chance(0.5);
    for (let i = 0; i < b.rng.int(1, 3); i++) checks.push(check(b, gid, sw));
    b.factories.set(gid, (bb) => check(bb, gid, sw));
    parts.push(box(b, 'form', checks.join(''), { id: gid, cls: 'mb-3 d-flex flex-column', area: 'form', spacingProp: 'gap' }));
    const bg = b.newId();
    const btns = [btn(b, 'form', 'primary', bg), btn(b, 'form', 'outline-secondary', bg)];
    b.factories.set(bg, (bb) => btn(bb, 'form', 'outline-secondary', bg));
    parts.push(box(b, 'form', btns.join(''), { id: bg, cls: 'd-flex gap-2', area: 'form', spacingProp: 'gap' }));
    return box(b, 'form', parts.join(''), { tag: 'form', cls: '', area: 'form', spacingProp: 'padding' });
  };

  const listItem = (b: ScreenBuilder, gid: string): string => {
    const name = b.rng.chance(0.5) ? W.person(b.rng) : b.rng.pick(W.CARD_TITLES);
    const sub = W.sentence(b.rng, 3, 7);
    return make(
      b,
      'row',
      name,
      `<div class="me-auto">` +
        textEl(b, 'text', name, 'name', { tag: 'div', cls: 'fw-semibold', area: 'list', kinds: ['text', 'color', 'font'] }) +
        textEl(b, 'text', sub, 'sentence', { tag: 'div', cls: 'small text-body-secondary', area: 'list', kinds: ['text', 'font'] }) +
        '</div>' +
        (b.rng.chance(0.6)
          ? badge(b, 'badge rounded-pill text-bg-' + b.rng.pick(TONES), { area: 'list', label: String(b.rng.int(1, 40)) })
          : ''),
      {
        tag: 'a',
        cls: 'list-group-item list-group-item-action d-flex align-items-start gap-2',
        area: 'list',
        group: gid,
        kinds: ['remove', 'reorder', 'opacity', 'color', 'spacing'],
        colorProp: 'background-color',
        spacingProp: 'padding',
      },
    );
  };

  const listGroup = (b: ScreenBuilder, n: number): string => {
    const gid = b.newId();
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(listItem(b, gid));
    b.factories.set(gid, (bb) => listItem(bb, gid));
    return box(b, 'list', items.join(''), { id: gid, cls: 'list-group', area: 'list' });
  };

  const crumb = (b: ScreenBuilder, gid: string, label: string, last: boolean) =>
    make(b, 'link', label, last ? b.text(label) : `<a href="#" data-face>${b.text(label)}</a>`, {
      tag: 'li',
      cls: 'breadcrumb-item' + (last ? ' active' : ''),
      group: gid,
      face: !last,
      kinds: ['text', 'color', 'remove', 'reorder', 'add'],
      colorProp: 'color',
    });

  const breadcrumb = (b: ScreenBuilder, words: string[]): string => {
    const gid = b.newId();
    const items = words.map((w, i) => crumb(b, gid, w, i === words.length - 1));
    b.factories.set(gid, (bb) => crumb(bb, gid, bb.rng.pick(FOLDERS), false));
    return `<nav aria-label="breadcrumb">${box(b, 'list', items.join(''), { id: gid, tag: 'ol', cls: 'breadcrumb mb-2' })}</nav>`;
  };

  const menuItem = (b: ScreenBuilder, gid: string, label: string) =>
    textEl(b, 'menu item', label, 'button', {
      tag: 'a',
      cls: 'dropdown-item d-flex align-items-center gap-2',
      area: 'menu',
      group: gid,
      before: b.rng.chance(0.5) ? svg(pickIcon(b), 16) : '',
      kinds: [...LEAF, 'text', 'color', 'font', 'add'],
    });

  const dropdown = (b: ScreenBuilder, x: number, y: number): string => {
    const gid = b.newId();
    const items = b.freshMany(MENU_LABELS, b.rng.int(4, 7)).map((l) => menuItem(b, gid, l));
    if (items.length > 4 && b.rng.chance(0.6)) items.splice(b.rng.int(2, items.length - 1), 0, '<hr class="dropdown-divider">');
    b.factories.set(gid, (bb) => menuItem(bb, gid, bb.fresh(MENU_LABELS)));
    return box(b, 'menu', items.join(''), {
      id: gid,
      cls: 'dropdown-menu show shadow',
      style: `position:absolute;left:${x}px;top:${y}px;min-width:190px;z-index:20`,
      area: 'menu',
      spacingProp: 'padding',
    });
  };

  const modal = (b: ScreenBuilder): string => {
    const title = b.rng.pick(['Rename file', 'Invite people', 'Delete project?', 'New folder', 'Share link', 'Edit profile']);
    const gid = b.newId();
    const btns = [btn(b, 'dialog', 'secondary', gid), btn(b, 'dialog', b.rng.chance(0.3) ? 'danger' : 'primary', gid)];
    b.factories.set(gid, (bb) => btn(bb, 'dialog', 'outline-secondary', gid));
    return (
      `<div class="modal-backdrop show" style="position:absolute"></div>` +
      `<div class="modal d-block" style="position:absolute" tabindex="-1"><div class="modal-dialog" style="margin-top:${b.compact ? 40 : 70}px">` +
      make(
        b,
        'dialog',
        title,
        `<div class="modal-header">${heading(b, 'h5', 'modal-title', { label: title, area: 'dialog' })}<button type="button" class="btn-close"></button></div>` +
          make(
            b,
            'form',
            'body',
            paragraph(b, 'mb-2', { area: 'dialog', min: 6, max: 14 }) +
              inputBox(b, { cls: 'form-control', area: 'dialog', caret: b.rng.chance(0.5) }),
            {
              cls: 'modal-body',
              area: 'dialog',
              kinds: ['spacing'],
              spacingProp: 'padding',
            },
          ) +
          box(b, 'toolbar', btns.join(''), { id: gid, cls: 'modal-footer', area: 'dialog', spacingProp: 'gap' }),
        { cls: 'modal-content', area: 'dialog', kinds: ['move'] },
      ) +
      '</div></div>'
    );
  };

  const alert = (b: ScreenBuilder): string => {
    const text = W.sentence(b.rng, 5, 10) + '.';
    return textEl(b, 'banner', text, 'sentence', {
      tag: 'div',
      cls: `alert alert-${b.rng.pick(['info', 'warning', 'success', 'danger'])} py-2 mb-3`,
      colorProp: 'background-color',
      kinds: ['remove', 'opacity', 'color', 'text', 'spacing'],
      spacingProp: 'padding',
    });
  };

  const fileRow = (b: ScreenBuilder, gid: string): string => {
    const folder = b.rng.chance(0.3);
    const name = folder ? b.rng.pick(FOLDERS) : b.rng.pick(FILES);
    return make(
      b,
      'row',
      name,
      `<td class="d-flex align-items-center gap-2">` +
        svg(folder ? 'cloud' : 'mail', 16) +
        textEl(b, 'link', name, 'title', { tag: 'a', cls: 'link-body-emphasis text-decoration-none', area: 'table' }) +
        `</td><td>${textEl(b, 'cell', W.sentence(b.rng, 2, 5), 'sentence', { tag: 'span', cls: 'text-body-secondary', area: 'table', kinds: ['text', 'font'] })}</td>` +
        (b.compact
          ? ''
          : `<td class="text-end">${textEl(b, 'cell', W.date(b.rng), 'date', { tag: 'span', cls: 'text-body-secondary', area: 'table', kinds: ['text'] })}</td>`),
      { tag: 'tr', area: 'table', group: gid, kinds: ['remove', 'reorder', 'opacity'] },
    );
  };

  const pageHead = (b: ScreenBuilder, withButtons = true): string => {
    const gid = b.newId();
    const btns = withButtons ? [btn(b, 'header', 'primary', gid)] : [];
    if (withButtons && !b.compact && b.rng.chance(0.6)) btns.unshift(btn(b, 'header', 'outline-secondary', gid));
    b.factories.set(gid, (bb) => btn(bb, 'header', 'outline-secondary', gid));
    return (
      `<div class="d-flex align-items-center gap-2 mb-3${t ? ' page-header' : ''}">` +
      heading(b, 'h2', t ? 'page-title mb-0' : 'h4 mb-0', { area: 'header' }) +
      box(b, 'toolbar', btns.join(''), { id: gid, cls: 'ms-auto d-flex gap-2', area: 'header', spacingProp: 'gap' }) +
      '</div>'
    );
  };

  const shell = (b: ScreenBuilder, main: string, side = true): string =>
    navbar(b) +
    `<div class="d-flex flex-grow-1" style="min-height:0">` +
    (side && b.width >= 760 ? sidebar(b) : '') +
    `<main class="flex-grow-1 p-3 overflow-hidden${t ? ' page-body mt-0' : ''}" style="min-width:0">${main}</main></div>`;

  return {
    navbar,
    sidebar,
    tabs,
    toolbar,
    table,
    card,
    stats,
    form,
    listGroup,
    breadcrumb,
    dropdown,
    modal,
    alert,
    fileRow,
    pageHead,
    shell,
    btn,
  };
}

function layouts(flavor: Flavor): Record<string, Layout> {
  const k = kit(flavor);
  return {
    dashboard: (b) => k.shell(b, k.pageHead(b) + k.stats(b) + `<div class="card">${k.table(b, b.rng.int(3, 6))}</div>`),
    settings: (b) =>
      k.shell(b, k.pageHead(b, false) + k.tabs(b) + `<div style="max-width:560px">${k.form(b, b.rng.int(2, 3))}</div>`, b.rng.chance(0.5)),
    table: (b) =>
      k.shell(
        b,
        k.pageHead(b) + k.toolbar(b) + (b.rng.chance(0.4) ? k.alert(b) : '') + `<div class="card">${k.table(b, b.rng.int(4, 8))}</div>`,
      ),
    inbox: (b) => k.shell(b, k.pageHead(b) + k.tabs(b, true) + k.listGroup(b, b.rng.int(4, 7)), b.rng.chance(0.6)),
    menu: (b) => {
      const x = b.rng.int(16, Math.max(20, b.width - 240));
      return k.shell(
        b,
        `<div style="position:relative">` +
          k.pageHead(b) +
          k.card(b, b.rng.pick(W.CARD_TITLES), k.listGroup(b, 3)) +
          k.dropdown(b, x, 44) +
          '</div>',
        false,
      );
    },
    dialog: (b) =>
      `<div style="position:relative;flex:1;display:flex;flex-direction:column;min-height:0">` +
      k.shell(b, k.pageHead(b) + k.stats(b) + k.listGroup(b, 3)) +
      k.modal(b) +
      '</div>',
    files: (b) => {
      const gid = b.newId();
      const rows: string[] = [];
      for (let i = 0; i < b.rng.int(4, 8); i++) rows.push(k.fileRow(b, gid));
      b.factories.set(gid, (bb) => k.fileRow(bb, gid));
      const words = [b.rng.pick(W.BRANDS).toLowerCase(), ...b.rng.sample(FOLDERS, b.rng.int(1, 3))];
      return k.shell(
        b,
        k.breadcrumb(b, words) +
          k.toolbar(b) +
          `<div class="card"><table class="table table-hover mb-0">` +
          box(b, 'table', rows.join(''), { id: gid, tag: 'tbody', area: 'table' }) +
          '</table></div>',
      );
    },
    cards: (b) => {
      const n = b.compact ? 2 : b.width < 900 ? 2 : 3;
      const gid = b.newId();
      const cardOf = (bb: ScreenBuilder) =>
        make(
          bb,
          'card',
          'card',
          k.card(
            bb,
            bb.rng.pick(W.CARD_TITLES),
            paragraph(bb, 'card-text', { min: 5, max: 12 }) +
              `<div class="d-flex gap-2">${k.btn(bb, null, 'primary', undefined, true)}</div>`,
            'h-100',
          ),
          { cls: '', group: gid, kinds: ['remove', 'reorder', 'opacity', 'move'] },
        );
      const cards: string[] = [];
      for (let i = 0; i < n * 2; i++) cards.push(cardOf(b));
      b.factories.set(gid, cardOf);
      return k.shell(
        b,
        k.pageHead(b) +
          box(b, 'list', cards.join(''), {
            id: gid,
            style: `display:grid;grid-template-columns:repeat(${n},1fr);gap:16px`,
            spacingProp: 'gap',
          }),
        false,
      );
    },
  };
}

export const bootstrap: Origin = {
  id: 'bootstrap',
  pkg: 'bootstrap',
  licence: 'MIT',
  css: ['dist/css/bootstrap.min.css'],
  glue: '#app{background-color:var(--bs-body-bg);color:var(--bs-body-color);font-family:var(--bs-body-font-family);font-size:var(--bs-body-font-size);line-height:var(--bs-body-line-height)}',
  theme: (dark) => ({ app: { 'data-bs-theme': dark ? 'dark' : 'light' } }),
  bg: { light: '#ffffff', dark: '#212529' },
  layouts: layouts('bootstrap'),
  split: 'train',
};

export const tabler: Origin = {
  id: 'tabler',
  pkg: '@tabler/core',
  licence: 'MIT',
  css: ['dist/css/tabler.min.css'],
  glue: '#app{background-color:var(--tblr-body-bg);color:var(--tblr-body-color);font-family:var(--tblr-body-font-family);font-size:var(--tblr-body-font-size);line-height:var(--tblr-body-line-height)}',
  theme: (dark) => ({ app: { 'data-bs-theme': dark ? 'dark' : 'light' } }),
  bg: { light: '#f6f8fb', dark: '#151f2c' },
  layouts: layouts('tabler'),
  split: 'train',
};
