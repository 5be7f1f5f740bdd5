// Swagger UI (swagger-ui-dist, Apache-2.0): an API reference page in the markup Swagger UI renders -
// info header, servers bar, tag sections of operations (GET / POST / PUT / DELETE blocks), an opened
// operation with its parameters table and responses, models; its light and dark modes.
import type { ScreenBuilder } from '../screen.js';
import * as W from '../words.js';
import type { Origin } from './index.js';
import { LEAF, box, button, iconButton, make, textEl, type Layout } from './kit.js';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const RESOURCES = ['pets', 'users', 'orders', 'store', 'invoices', 'projects', 'files', 'tokens', 'teams'];

function path(b: ScreenBuilder, res: string): string {
  return b.rng.pick([`/${res}`, `/${res}/{id}`, `/${res}/{id}/items`, `/${res}/search`, `/${res}/{id}/status`]);
}

function summary(b: ScreenBuilder, method: string, res: string): string {
  const verb = { get: 'Find', post: 'Add', put: 'Update', delete: 'Delete', patch: 'Change' }[method] ?? 'Find';
  return `${verb} ${b.rng.pick(['a', 'the', 'all'])} ${res.replace(/s$/, '')}${b.rng.chance(0.4) ? ' by ID' : ''}`;
}

function operation(b: ScreenBuilder, gid: string, res: string, open: boolean): string {
  const method = b.rng.pick(METHODS);
  const p = path(b, res);
  const sum = summary(b, method, res);
  const head =
    `<div class="opblock-summary opblock-summary-${method}">` +
    textEl(b, 'badge', method.toUpperCase(), 'status', {
      tag: 'span',
      cls: 'opblock-summary-method',
      colorProp: 'background-color',
      kinds: ['color', 'text'],
    }) +
    `<div class="opblock-summary-path-description-wrapper">` +
    `<span class="opblock-summary-path">${textEl(b, 'link', p, 'title', { tag: 'a', cls: 'nostyle', kinds: ['text', 'font', 'color'] })}</span>` +
    (b.width >= 640
      ? textEl(b, 'text', sum, 'sentence', { tag: 'div', cls: 'opblock-summary-description', kinds: ['text', 'font', 'color'] })
      : '') +
    '</div>' +
    iconButton(b, { cls: 'opblock-control-arrow', icon: open ? 'arrow' : 'download', kinds: ['icon', 'color', 'opacity'] }) +
    '</div>';
  const body = open ? opBody(b) : '';
  return make(b, 'row', `${method.toUpperCase()} ${p}`, head + body, {
    cls: `opblock opblock-${method}${open ? ' is-open' : ''}`,
    group: gid,
    area: 'list',
    colorProp: 'background-color',
    kinds: ['remove', 'reorder', 'opacity', 'color', 'add'],
  });
}

function opBody(b: ScreenBuilder): string {
  const pg = b.newId();
  const param = (bb: ScreenBuilder) => {
    const name = bb.rng.pick(['id', 'status', 'limit', 'offset', 'name', 'tags', 'sort', 'api_key', 'page']);
    return make(
      bb,
      'row',
      name,
      `<td class="parameters-col_name"><div class="parameter__name${bb.rng.chance(0.4) ? ' required' : ''}">${bb.text(name)}</div>` +
        `<div class="parameter__type">${bb.rng.pick(['string', 'integer($int64)', 'array[string]', 'boolean'])}</div>` +
        `<div class="parameter__in">(${bb.rng.pick(['path', 'query', 'header'])})</div></td>` +
        `<td class="parameters-col_description">${textEl(bb, 'text', W.sentence(bb.rng, 3, 8), 'sentence', { tag: 'div', cls: 'markdown', kinds: ['text', 'font'] })}</td>`,
      { tag: 'tr', area: 'table', group: pg, kinds: ['remove', 'reorder', 'opacity'] },
    );
  };
  const rows: string[] = [];
  for (let i = 0; i < b.rng.int(1, 3); i++) rows.push(param(b));
  b.factories.set(pg, param);
  const rg = b.newId();
  const resp = (bb: ScreenBuilder) => {
    const code = bb.rng.pick(['200', '201', '204', '400', '401', '404', '422', '500']);
    return make(
      bb,
      'row',
      code,
      `<td class="response-col_status">${textEl(bb, 'cell', code, 'number', { tag: 'span', kinds: ['text', 'color', 'font'] })}</td>` +
        `<td class="response-col_description">${textEl(bb, 'text', bb.rng.pick(['Successful operation', 'Invalid ID supplied', 'Not found', 'Validation exception', 'Created']), 'sentence', { tag: 'div', cls: 'markdown', kinds: ['text'] })}</td>`,
      { tag: 'tr', cls: 'response', area: 'table', group: rg, kinds: ['remove', 'reorder', 'opacity'] },
    );
  };
  const rrows: string[] = [];
  for (let i = 0; i < b.rng.int(2, 3); i++) rrows.push(resp(b));
  b.factories.set(rg, resp);
  return (
    `<div class="opblock-body"><div class="opblock-section"><div class="opblock-section-header">` +
    `<div class="tab-header"><div class="tab-item active"><h4 class="opblock-title"><span>Parameters</span></h4></div></div>` +
    `<div class="try-out">${button(b, { cls: 'btn try-out__btn', label: 'Try it out', iconChance: 0, kinds: [...LEAF, 'color', 'text', 'font', 'resize', 'spacing'] })}</div></div>` +
    `<div class="table-container"><table class="parameters"><thead><tr><th class="col_header parameters-col_name">Name</th><th class="col_header parameters-col_description">Description</th></tr></thead>` +
    box(b, 'table', rows.join(''), { id: pg, tag: 'tbody', area: 'table' }) +
    `</table></div></div><div class="responses-wrapper"><div class="opblock-section-header"><h4>Responses</h4></div><div class="responses-inner">` +
    `<table class="responses-table"><thead><tr class="responses-header"><td class="col_header response-col_status">Code</td><td class="col_header response-col_description">Description</td></tr></thead>` +
    box(b, 'table', rrows.join(''), { id: rg, tag: 'tbody', area: 'table' }) +
    '</table></div></div></div>'
  );
}

function tagSection(b: ScreenBuilder, res: string, openOne: boolean): string {
  const gid = b.newId();
  const n = b.rng.int(2, 4);
  const open = openOne ? b.rng.int(0, n - 1) : -1;
  const ops: string[] = [];
  for (let i = 0; i < n; i++) ops.push(operation(b, gid, res, i === open));
  b.factories.set(gid, (bb) => operation(bb, gid, res, false));
  return (
    `<div class="opblock-tag-section is-open"><h3 class="opblock-tag">` +
    textEl(b, 'heading', res, 'title', { tag: 'a', cls: 'nostyle', kinds: ['text', 'font', 'color'] }) +
    (b.width >= 640 ? `<small>${W.escapeHtml(W.sentence(b.rng, 3, 7))}</small>` : '') +
    `</h3>${box(b, 'list', ops.join(''), { id: gid, area: 'list', style: 'display:flex;flex-direction:column', spacingProp: 'gap' })}</div>`
  );
}

function info(b: ScreenBuilder): string {
  const name = `${b.rng.pick(W.BRANDS)} ${b.rng.pick(['API', 'Store API', 'Platform API', 'Admin API'])}`;
  return (
    `<div class="information-container wrapper"><section class="block col-12"><div class="info"><hgroup class="main">` +
    `<h2 class="title">${textEl(b, 'heading', name, 'title', { tag: 'span', kinds: ['text', 'font', 'color'] })} ` +
    `<span><small><pre class="version">${b.rng.int(1, 3)}.${b.rng.int(0, 9)}.${b.rng.int(0, 9)}</pre></small>` +
    `<small class="version-stamp"><pre class="version">OAS 3.0</pre></small></span></h2></hgroup>` +
    `<div class="description">${textEl(b, 'text', W.sentence(b.rng, 6, 14) + '.', 'sentence', { tag: 'div', cls: 'renderedMarkdown', kinds: ['text', 'font'] })}</div></div></section></div>` +
    `<div class="scheme-container"><section class="schemes wrapper block col-12"><div><span class="servers-title">Servers</span><div class="servers"><label><select><option>https://api.example.com/v${b.rng.int(1, 3)}</option></select></label></div></div>` +
    `<div class="auth-wrapper">${button(b, { cls: 'btn authorize unlocked', label: 'Authorize', iconChance: 0, kinds: [...LEAF, 'color', 'text', 'font', 'resize', 'spacing'] })}</div></section></div>`
  );
}

const wrap = (inner: string) => `<div class="swagger-ui" style="flex:1;min-height:0;overflow:hidden">${inner}</div>`;

const layouts: Record<string, Layout> = {
  reference: (b) =>
    wrap(
      info(b) +
        `<div class="wrapper"><section class="block col-12">${tagSection(b, b.rng.pick(RESOURCES), false)}${tagSection(b, b.rng.pick(RESOURCES), false)}</section></div>`,
    ),
  operation: (b) =>
    wrap(
      `<div class="wrapper" style="padding-top:12px"><section class="block col-12">${tagSection(b, b.rng.pick(RESOURCES), true)}</section></div>`,
    ),
  mixed: (b) =>
    wrap(
      info(b) +
        `<div class="wrapper"><section class="block col-12">${tagSection(b, b.rng.pick(RESOURCES), b.rng.chance(0.5))}</section></div>`,
    ),
};

export const swagger: Origin = {
  id: 'swagger',
  pkg: 'swagger-ui-dist',
  licence: 'Apache-2.0',
  css: ['swagger-ui.css'],
  glue: '#app{background:#fff}html.dark-mode #app{background:#1c2022}#app .swagger-ui .wrapper{padding:0 16px}',
  theme: (dark) => ({ html: dark ? { class: 'dark-mode' } : ({} as Record<string, string>) }),
  bg: { light: '#ffffff', dark: '#1c2022' },
  layouts,
  split: 'train',
};
