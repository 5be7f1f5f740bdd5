// Browser control: headless Debian Chromium through playwright-core, loopback only. Pages are kept
// alive; each screen is loaded by rewriting the body in place, changes are DOM edits, and
// screenshots come from CDP clipped to the screen size. Same method everywhere => identical bytes.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import type { Box, Op } from './changes.js';
import { BASE_CSS } from './templates.js';

export const CHROMIUM_PATH = process.env.PROCAP_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--font-render-hinting=none',
  '--force-color-profile=srgb',
  '--disable-lcd-text',
  '--force-device-scale-factor=1',
];

/** the largest screen we render; smaller screens are clipped from the top left */
export const MAX_VIEWPORT = { width: 1280, height: 800 };

// Runs inside the page. Kept as a string so the page never loads anything from outside.
const PAGE_SCRIPT = `
(() => {
  const root = document.getElementById('app');
  const find = (id) => root.querySelector('[data-e="' + id + '"]');
  const range = document.createRange();
  const rectOf = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return null;
    let [x0, y0, x1, y1] = [r.left, r.top, r.right, r.bottom];
    // bare text (data-ink): the box is the text drawn, unless the element also draws generated
    // content (a breadcrumb's "/", a note's bullet), which a text range misses. Otherwise text can
    // overflow a narrow box: the box of what is drawn includes it, unless the box clips.
    const generated = (p) => { const c = getComputedStyle(el, p).content; return !!c && c !== 'none' && c !== 'normal'; };
    const ink = el.hasAttribute('data-ink') && !generated('::before') && !generated('::after');
    if (ink || getComputedStyle(el).overflow === 'visible') {
      range.selectNodeContents(el);
      const c = range.getBoundingClientRect();
      if (c.width > 0 && c.height > 0) {
        if (ink) [x0, y0, x1, y1] = [c.left, c.top, c.right, c.bottom];
        else { x0 = Math.min(x0, c.left); y0 = Math.min(y0, c.top); x1 = Math.max(x1, c.right); y1 = Math.max(y1, c.bottom); }
      }
    }
    return [Math.floor(x0), Math.floor(y0), Math.ceil(x1), Math.ceil(y1)];
  };
  // Chromium re-rasters only invalidated areas, and a partial raster can shade anti-aliased edges
  // elsewhere differently from a full one. Real screenshots are full renders, so every state
  // invalidates the whole screen with an invisible style flip before it is captured.
  let flip = false;
  const repaintAll = () => {
    flip = !flip;
    root.style.setProperty('box-shadow', flip ? 'inset 0 0 0 0 transparent' : 'none');
  };
  // How much wider an element can get before it overflows its parent: in a flex row the whole row
  // shifts, elsewhere only the element's right edge moves.
  const widthSlack = (el) => {
    const parent = el.parentElement;
    if (!parent) return 0;
    const ps = getComputedStyle(parent);
    const pr = parent.getBoundingClientRect();
    const right = pr.left + parent.clientLeft + parent.clientWidth - parseFloat(ps.paddingRight || '0');
    const row = ps.display.includes('flex') && ps.flexDirection.startsWith('row');
    let used = el.getBoundingClientRect().right;
    if (row) for (const c of parent.children) used = Math.max(used, c.getBoundingClientRect().right);
    return Math.max(0, Math.floor(right - used));
  };
  // Every element's box at load time, to find what a change shifted (reflow) afterwards.
  let loadedAll = new Map();
  const inSvg = (el) => el.tagName.toLowerCase() !== 'svg' && !!el.closest('svg');
  const boxOf = (r) => {
    if (!r || (r.width === 0 && r.height === 0)) return null;
    return [Math.floor(r.left), Math.floor(r.top), Math.ceil(r.right), Math.ceil(r.bottom)];
  };
  const paints = (el) => {
    const cs = getComputedStyle(el);
    return cs.backgroundColor !== 'rgba(0, 0, 0, 0)' || cs.boxShadow !== 'none' ||
      parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth) > 0;
  };
  const snapshotAll = () => {
    loadedAll = new Map();
    for (const el of root.querySelectorAll('*')) if (!inSvg(el)) loadedAll.set(el, el.getBoundingClientRect());
  };
  // Elements a change moved without changing them (reflow): shifted boxes (same size, new place;
  // not when carried along by a parent that shifted the same way) and resized boxes that paint a
  // background, border or shadow (a card growing around an added row). The changed elements and
  // their descendants are left out.
  window.__reflow = (exclude) => {
    const excluded = exclude.map(find).filter(Boolean);
    const out = [];
    const shifted = new Map();
    for (const el of root.querySelectorAll('*')) {
      if (inSvg(el)) continue;
      if (excluded.some((x) => x === el || x.contains(el))) continue;
      // decided on the unrounded boxes: a text-width shift is fractional, and rounding each edge
      // outwards can make a shifted box one pixel wider or narrower than it was
      const ra = loadedAll.get(el);
      const rb = el.getBoundingClientRect();
      const a = boxOf(ra);
      const b = boxOf(rb);
      if (!a || !b) continue;
      if (a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3]) continue;
      const sameSize = Math.abs(ra.width - rb.width) < 0.5 && Math.abs(ra.height - rb.height) < 0.5;
      if (sameSize) {
        const dx = Math.round(rb.left - ra.left);
        const dy = Math.round(rb.top - ra.top);
        if (dx === 0 && dy === 0) continue;   // unmoved, or a sub-pixel shift that only re-antialiases
        shifted.set(el, dx + ',' + dy);
        if (shifted.get(el.parentElement) === dx + ',' + dy) continue;
        out.push({ before: a, after: b });
      } else if (paints(el)) {
        out.push({ before: a, after: b });
      }
    }
    return out;
  };
  // Origins (design systems): one stylesheet per origin is enabled, the theme is set by attributes
  // on #app and <html>, and a per-screen style (font) is applied. Nothing of this runs for templates
  // in a page made without origins.
  let htmlAttrs = [];
  const setTheme = (app, html) => {
    for (const a of [...root.attributes]) if (a.name !== 'id' && a.name !== 'style') root.removeAttribute(a.name);
    for (const k of htmlAttrs) document.documentElement.removeAttribute(k);
    for (const k of Object.keys(app || {})) root.setAttribute(k, app[k]);
    for (const k of Object.keys(html || {})) document.documentElement.setAttribute(k, html[k]);
    htmlAttrs = Object.keys(html || {});
  };
  const cx = document.createElement('canvas').getContext('2d');
  // any CSS colour (rgb, color-mix, oklch...) as #rrggbb; null when (mostly) transparent
  const hexOf = (v) => {
    cx.fillStyle = '#000000';
    cx.fillStyle = v;
    const c = cx.fillStyle;
    if (c.startsWith('#')) return c;
    const m = c.match(/rgba?\\(([^)]*)\\)/);
    if (!m) return null;
    const p = m[1].split(',').map((x) => parseFloat(x));
    if (p.length > 3 && p[3] < 0.5) return null;
    return '#' + p.slice(0, 3).map((x) => Math.round(x).toString(16).padStart(2, '0')).join('');
  };
  const measure = (el) => {
    const f = el.querySelector('[data-face]') || el;
    const cs = getComputedStyle(f);
    const ce = f === el ? cs : getComputedStyle(el);
    return {
      bg: hexOf(cs.backgroundColor), fg: hexOf(cs.color),
      bc: parseFloat(cs.borderTopWidth) > 0 || parseFloat(cs.borderBottomWidth) > 0 ? hexOf(cs.borderBottomColor) : null,
      fs: parseFloat(cs.fontSize), fw: parseFloat(cs.fontWeight),
      pad: parseFloat(ce.paddingTop), gap: parseFloat(ce.rowGap) || parseFloat(ce.columnGap) || 0,
    };
  };
  // Frames of an added or removed element (the data CLI's --all-frames): at t the element takes t
  // of the room it takes when whole, shown clipped to t of its size along the axis its container
  // lays it out on (its content is revealed, not squeezed) and faded to t of its opacity, so what
  // it pushes slides to make room. The room is measured, not assumed: margin collapsing, flex gaps,
  // right-aligned and centred rows all change how far the neighbours move, so the element's end
  // margin is corrected until the neighbour that moves most sits at t of its whole shift.
  // grown: element id -> what was measured at full size.
  const grown = new Map();
  const inFlow = (el) => { const cs = getComputedStyle(el); return cs.display !== 'none' && cs.position !== 'absolute' && cs.position !== 'fixed'; };
  // the top left of each in-flow sibling, then the parent's far corner (a parent that grows pushes what follows it)
  const neighbours = (el) => {
    const out = [];
    for (const n of el.parentElement.children) {
      if (n === el || n.tagName === 'SCRIPT' || !inFlow(n)) continue;
      const r = n.getBoundingClientRect();
      out.push([r.left, r.top]);
    }
    const r = el.parentElement.getBoundingClientRect();
    out.push([r.right, r.bottom]);
    return out;
  };
  const grow = (op) => {
    let el = find(op.id);
    if (!el && op.insert) {
      find(op.insert.ref).insertAdjacentHTML(op.insert.where, op.insert.html);
      el = find(op.id);
    }
    if (!el) throw new Error('no element ' + op.id);
    let g = grown.get(op.id);
    if (!g) {
      const orig = el.getAttribute('style');
      const full = neighbours(el);
      const box = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      const opacity = parseFloat(cs.opacity);
      el.style.setProperty('display', 'none', 'important');
      const none = neighbours(el);
      if (orig === null) el.removeAttribute('style'); else el.setAttribute('style', orig);
      let probe = full.length - 1, most = 0;
      full.forEach((p, i) => { const d = Math.max(Math.abs(p[0] - none[i][0]), Math.abs(p[1] - none[i][1])); if (d > most) { most = d; probe = i; } });
      const [dx, dy] = [full[probe][0] - none[probe][0], full[probe][1] - none[probe][1]];
      const ps = getComputedStyle(el.parentElement);
      const row = (ps.display.includes('flex') && ps.flexDirection.startsWith('row')) || cs.display.startsWith('inline');
      const axis = Math.abs(dy) > Math.abs(dx) ? 1 : Math.abs(dx) > Math.abs(dy) ? 0 : row ? 0 : 1;
      const prop = axis === 1 ? 'margin-bottom' : 'margin-right';
      g = { orig, axis, prop, probe, room: axis === 1 ? dy : dx, size: axis === 1 ? box.height : box.width,
            margin: parseFloat(cs.getPropertyValue(prop)) || 0, opacity, none: none[probe][axis] };
      grown.set(op.id, g);
    }
    const t = Math.min(1, Math.max(0, op.t));
    const hidden = (1 - t) * g.size;
    el.style.setProperty('clip-path', g.axis === 1 ? 'inset(0 0 ' + hidden + 'px 0)' : 'inset(0 ' + hidden + 'px 0 0)');
    el.style.setProperty('opacity', String(g.opacity * t));
    if (g.room !== 0) {
      // a shrinking end margin takes back the room; the shift it gives is measured, and the margin
      // corrected by what is left (a collapsing margin moves nothing until it passes its neighbour's)
      const sign = g.room > 0 ? 1 : -1;
      let margin = g.margin - (1 - t) * Math.abs(g.room);
      for (let i = 0; i < 8; i++) {
        el.style.setProperty(g.prop, margin + 'px', 'important');
        const err = (neighbours(el)[g.probe][g.axis] - g.none) * sign - t * Math.abs(g.room);
        if (Math.abs(err) < 0.25) break;
        margin -= err;
      }
    }
  };
  // back to the state before the frames: an added element leaves, a removed one gets its own style back
  const ungrow = (op) => {
    const el = find(op.id);
    const g = grown.get(op.id);
    grown.delete(op.id);
    if (!el) return;
    if (op.remove) el.remove();
    else if (g) { if (g.orig === null) el.removeAttribute('style'); else el.setAttribute('style', g.orig); }
  };
  // whether something else is drawn over the element at its centre or at two inner points (25% /
  // 75%: inside rounded corners and circles too): an overlay, or the box that clips it where it lies
  // outside that box (a point outside the viewport hits nothing and does not count)
  const isCovered = (el, r) => {
    const [w, h] = [r[2] - r[0], r[3] - r[1]];
    const pts = [[r[0] + w / 2, r[1] + h / 2], [r[0] + w / 4, r[1] + h / 4], [r[0] + (3 * w) / 4, r[1] + (3 * h) / 4]];
    for (const [x, y] of pts) {
      const top = document.elementFromPoint(x, y);
      if (top && top !== el && !el.contains(top)) return true;
    }
    return false;
  };
  // the elements of \`ids\` covered now (after a change): one moved under an overlay or out of the box
  // that clips it cannot be seen where it went
  window.__coveredNow = (ids) => ids.filter((id) => {
    const el = find(id);
    const r = el && rectOf(el);
    return !!r && isCovered(el, r);
  });
  window.__load = async (html, style, opts) => {
    if (opts) {
      for (const s of document.querySelectorAll('style[data-sheet]')) s.media = s.dataset.sheet === opts.sheet ? 'all' : 'not all';
      document.getElementById('dyn').textContent = opts.css || '';
      setTheme(opts.app, opts.html);
    }
    root.setAttribute('style', style);
    grown.clear();
    root.innerHTML = html;
    await document.fonts.ready;
    // a system's heading or link may paint a bar (a panel heading, a footer item): its box is then
    // the border box, not the text it draws
    if (opts && opts.measure) for (const el of root.querySelectorAll('[data-ink]')) if (paints(el)) el.removeAttribute('data-ink');
    const rects = {};
    const covered = [];
    const slack = {};
    for (const el of root.querySelectorAll('[data-e]')) {
      const id = el.getAttribute('data-e');
      const r = rectOf(el);
      rects[id] = r;
      slack[id] = widthSlack(el);
      // an element under an overlay, menu or neighbour cannot be seen changing: report it
      if (r && isCovered(el, r)) covered.push(id);
    }
    snapshotAll();
    const styles = {};
    if (opts && opts.measure) for (const el of root.querySelectorAll('[data-e]')) styles[el.getAttribute('data-e')] = measure(el);
    return { rects, covered, slack, styles };
  };
  window.__apply = (ops, ids) => {
    for (const op of ops) {
      if (op.o === 'style') {
        let el = find(op.id);
        if (el && op.sub) el = el.querySelector(op.sub);
        if (!el) throw new Error('no element ' + op.id);
        el.style.setProperty(op.prop, op.value);
      } else if (op.o === 'text') {
        const el = find(op.id);
        const t = el.querySelector('[data-t]') || el;
        t.textContent = op.value;
      } else if (op.o === 'icon') {
        find(op.id).querySelector('svg').innerHTML = op.body;
      } else if (op.o === 'insert') {
        find(op.ref).insertAdjacentHTML(op.where, op.html);
      } else if (op.o === 'remove') {
        find(op.id).remove();
      } else if (op.o === 'swap') {
        const a = find(op.first);
        const b = find(op.second);
        a.parentNode.insertBefore(b, a);
      } else if (op.o === 'vars') {
        for (const k of Object.keys(op.values)) root.style.setProperty(k, op.values[k]);
      } else if (op.o === 'theme') {
        setTheme(op.app, op.html);
      } else if (op.o === 'grow') {
        grow(op);
      } else if (op.o === 'ungrow') {
        ungrow(op);
      } else if (op.o === 'caret') {
        for (const c of root.querySelectorAll('[data-caret]')) c.style.visibility = op.visible ? 'visible' : 'hidden';
      }
    }
    repaintAll();
    const out = {};
    for (const id of ids) out[id] = rectOf(find(id));
    return out;
  };
})();
`;

const PAGE_HTML =
  `<!doctype html><html><head><meta charset="utf-8"><style>${BASE_CSS}</style></head>` +
  `<body><div id="app"></div><script>${PAGE_SCRIPT}</script></body></html>`;

/** a stylesheet a page can switch to: an origin's CSS (from its npm package) and our glue */
export interface Sheet {
  id: string;
  css: string;
}

/** A page that also holds origins' stylesheets, all off until a screen asks for one. */
function pageHtml(sheets: Sheet[]): string {
  if (!sheets.length) return PAGE_HTML;
  const styles = sheets
    .map((s) => `<style data-sheet="${s.id}" media="not all">${s.css.replace(/<\/style/gi, '<\\/style')}</style>`)
    .join('');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><style data-sheet="templates">${BASE_CSS}</style>${styles}<style id="dyn"></style></head>` +
    `<body><div id="app"></div><script>${PAGE_SCRIPT}</script></body></html>`
  );
}

/** computed style facts of an element (or its data-face child), for origins' screens */
export interface Measured {
  bg: string | null;
  fg: string | null;
  bc: string | null;
  fs: number;
  fw: number;
  pad: number;
  gap: number;
}

/** how an origin's screen is shown: which sheet, theme attributes, extra CSS; measure styles */
export interface LoadOptions {
  sheet: string;
  app?: Record<string, string>;
  html?: Record<string, string>;
  css?: string;
  measure?: boolean;
}

export class RenderPage {
  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}

  static async open(browser: Browser, sheets: Sheet[] = []): Promise<RenderPage> {
    const context = await browser.newContext({ viewport: MAX_VIEWPORT, deviceScaleFactor: 1, javaScriptEnabled: true });
    // loopback only: nothing a screen needs comes from the network
    await context.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort()));
    const page = await context.newPage();
    await page.setContent(pageHtml(sheets), { waitUntil: 'load' });
    const cdp = await context.newCDPSession(page);
    return new RenderPage(page, cdp);
  }

  /** replace the screen; returns the rect of every element with a data-e id, and those covered by others */
  async load(
    html: string,
    style: string,
    opts?: LoadOptions,
  ): Promise<{ rects: Map<string, Box | null>; covered: Set<string>; slack: Map<string, number>; styles: Map<string, Measured> }> {
    type Loaded = { rects: Record<string, Box | null>; covered: string[]; slack: Record<string, number>; styles: Record<string, Measured> };
    const loaded = await this.page.evaluate(
      ([h, s, o]) => (window as unknown as { __load: (h: string, s: string, o?: LoadOptions) => Promise<Loaded> }).__load(h, s, o),
      [html, style, opts] as const,
    );
    return {
      rects: new Map(Object.entries(loaded.rects)),
      covered: new Set(loaded.covered),
      slack: new Map(Object.entries(loaded.slack)),
      styles: new Map(Object.entries(loaded.styles)),
    };
  }

  /** after the final state: elements that shifted only because of reflow (see __reflow) */
  async reflowed(exclude: string[]): Promise<{ before: Box; after: Box }[]> {
    return this.page.evaluate(
      (ex) => (window as unknown as { __reflow: (ex: string[]) => { before: Box; after: Box }[] }).__reflow(ex),
      exclude,
    );
  }

  /** which of `ids` something else is drawn over now, at their centre or inner points (see __load's covered) */
  async coveredNow(ids: string[]): Promise<Set<string>> {
    const covered = await this.page.evaluate(
      (list) => (window as unknown as { __coveredNow: (ids: string[]) => string[] }).__coveredNow(list),
      ids,
    );
    return new Set(covered);
  }

  async apply(ops: Op[], measureIds: string[]): Promise<Map<string, Box | null>> {
    const rects = await this.page.evaluate(
      ([o, ids]) => (window as unknown as { __apply: (o: unknown, ids: string[]) => Record<string, Box | null> }).__apply(o, ids),
      [ops, measureIds] as const,
    );
    return new Map(Object.entries(rects));
  }

  /** PNG bytes of the top-left width x height of the page */
  async screenshot(width: number, height: number): Promise<Buffer> {
    const result = await this.cdp.send('Page.captureScreenshot', {
      format: 'png',
      clip: { x: 0, y: 0, width, height, scale: 1 },
      optimizeForSpeed: false,
      captureBeyondViewport: false,
    });
    return Buffer.from(result.data, 'base64');
  }
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run scripts/setup.sh (Debian package "chromium") or set PROCAP_CHROMIUM`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
