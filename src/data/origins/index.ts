// Origins: where a screen's look comes from. "templates" is the engine's own template sets; every
// other origin is a design system or web app that ships its CSS in an npm package (a devDependency),
// rendered offline from that package alone: its stylesheet is read from node_modules and inlined in
// the page, nothing is fetched. Whole origins are held out: val and test render origins train never
// sees, so their scores measure screens of an unseen product.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { paletteById, type Palette } from '../colors.js';
import { nearestName, type Op, type PlanContext, type PlannedChange, type Planner } from '../changes.js';
import type { LoadOptions, Measured, Sheet } from '../render.js';
import { Rng, hashString } from '../rng.js';
import { ScreenBuilder, type Kind } from '../screen.js';
import type { Layout } from './kit.js';
import { bootstrap, tabler } from './bootstrap.js';
import { bulma } from './bulma.js';
import { pico } from './pico.js';
import { primer } from './primer.js';
import { swagger } from './swagger.js';

type Split = 'train' | 'val' | 'test';

export interface Origin {
  id: string;
  /** npm package the CSS comes from, its version range in package.json and its licence */
  pkg: string;
  licence: string;
  /** stylesheet files inside the package ("other-package|file" for one of its companion packages) */
  css: string[];
  /** our CSS around the system's: the #app surface in the system's colours, no transitions */
  glue: string;
  /** attributes that select the light / dark theme (on #app and on <html>); null: light only */
  theme: ((dark: boolean) => { app?: Record<string, string>; html?: Record<string, string> }) | null;
  /** page background of each theme (caption facts of a theme change) */
  bg: { light: string; dark?: string };
  /** the system's own font stack is the usual look; sometimes a product overrides it */
  layouts: Record<string, Layout>;
  split: Split;
}

export const TEMPLATES_ORIGIN = 'templates';

export const ORIGINS: Origin[] = [bootstrap, tabler, bulma, swagger, pico, primer];

export function originById(id: string): Origin {
  const o = ORIGINS.find((x) => x.id === id);
  if (!o) throw new Error(`unknown origin "${id}"`);
  return o;
}

/** origins a split may render: templates, and the origins assigned to that split */
export function originsForSplit(split: Split): string[] {
  return [TEMPLATES_ORIGIN, ...ORIGINS.filter((o) => o.split === split).map((o) => o.id)];
}

/**
 * The --origins list of a run: "templates", origin ids, or "all" (templates and every origin of the
 * split). An origin held out for another split is refused, so train never renders val or test
 * origins by mistake.
 */
export function parseOrigins(spec: string, split: Split): string[] {
  const allowed = originsForSplit(split);
  const out: string[] = [];
  for (const raw of spec.split(',').map((s) => s.trim())) {
    if (!raw) continue;
    const ids = raw === 'all' ? allowed : [raw];
    for (const id of ids) {
      if (id !== TEMPLATES_ORIGIN && !ORIGINS.some((o) => o.id === id))
        throw new Error(`--origins: unknown origin "${id}" (known: ${[TEMPLATES_ORIGIN, ...ORIGINS.map((o) => o.id)].join(', ')}, all)`);
      if (!allowed.includes(id)) throw new Error(`--origins: origin "${id}" is held out for the ${originById(id).split} split`);
      if (!out.includes(id)) out.push(id);
    }
  }
  if (!out.length) throw new Error('--origins: no origin named');
  return out;
}

/** which origin pair `index` shows: from its own stream, the same on every attempt */
export function pickOrigin(split: Split, seed: number, index: number, origins: readonly string[]): string {
  if (origins.length === 1) return origins[0];
  return new Rng(hashString(`${split}|${seed}|${index}|origin`)).pick(origins);
}

const requireHere = createRequire(import.meta.url);
const cssCache = new Map<string, string>();

/** the package's file; a package that is not installed gets a message that says what to run */
function packageFile(pkg: string, file: string): string {
  let pkgJson: string;
  try {
    pkgJson = requireHere.resolve(`${pkg}/package.json`);
  } catch {
    throw new Error(`origin package ${pkg} is not installed: run npm ci (it is a devDependency)`);
  }
  return readFileSync(pkgJson.replace(/package\.json$/, file), 'utf8');
}

/** Glue every origin shares: no transitions or animations (a capture mid-transition would not be
 * deterministic), a text cursor for caret pairs, inline elements sized like blocks so they resize. */
const COMMON_GLUE = `
#app{position:relative;overflow:hidden}
#app *,#app *::before,#app *::after{transition:none!important;animation:none!important}
#app .caret{display:inline-block;width:1px;height:1.15em;margin-left:1px;background:currentColor;vertical-align:text-bottom}
:where(#app span[data-e],#app a[data-e],#app label[data-e]){display:inline-block}
#app svg{flex:none}
html,body{margin:0;padding:0;overflow:hidden}
`;

/** an origin's stylesheet as the page holds it: @font-face rules (files the page never loads) are dropped */
export function originSheet(o: Origin): Sheet {
  let css = cssCache.get(o.id);
  if (css === undefined) {
    css = o.css.map((f) => (f.includes('|') ? packageFile(f.split('|')[0], f.split('|')[1]) : packageFile(o.pkg, f))).join('\n');
    css = css.replace(/@font-face\s*\{[^}]*\}/g, '').replace(/\/\*# sourceMappingURL=[^*]*\*\//g, '');
    css += COMMON_GLUE + o.glue;
    cssCache.set(o.id, css);
  }
  return { id: o.id, css };
}

export const ZOOMS = [1, 1, 1, 0.9, 1.1, 1.25];
/** fonts a product may set instead of the system's stack (Debian packages, as the templates use) */
const FONT_OVERRIDES = ["'Inter', sans-serif", "'Roboto', sans-serif", "'Open Sans', sans-serif", "'Noto Sans', sans-serif"];

export interface OriginScreen {
  origin: Origin;
  layout: string;
  dark: boolean;
  zoom: number;
  font: string;
  html: string;
  style: string;
  load: LoadOptions;
  builder: ScreenBuilder;
  palette: Palette;
}

/** choose and build one screen of an origin: layout, theme, font, zoom; the viewport is given */
export function buildOriginScreen(rng: Rng, originId: string, width: number, height: number): OriginScreen {
  const origin = originById(originId);
  const layout = rng.pick(Object.keys(origin.layouts).sort());
  const dark = !!origin.theme && rng.chance(0.4);
  const zoom = rng.pick(ZOOMS);
  const font = rng.chance(0.3) ? rng.pick(FONT_OVERRIDES) : null;
  const palette = paletteById(rng, dark ? 'dark-blue' : 'light-blue');
  // the layout is built for the width it will have in CSS px
  const builder = new ScreenBuilder(rng, palette, Math.round(width / zoom), Math.round(height / zoom));
  const html = origin.layouts[layout](builder);
  const theme = origin.theme ? origin.theme(dark) : {};
  const style = `width:${(width / zoom).toFixed(3)}px;height:${(height / zoom).toFixed(3)}px;zoom:${zoom};display:flex;flex-direction:column`;
  const css = font ? `#app,#app :not(code):not(pre):not(kbd):not(samp):not(svg):not(svg *){font-family:${font}}` : '';
  return {
    origin,
    layout,
    dark,
    zoom,
    font: font ? font.split(',')[0].replace(/'/g, '') : 'system',
    html,
    style,
    load: { sheet: origin.id, app: theme.app, html: theme.html, css, measure: true },
    builder,
    palette,
  };
}

/**
 * Colours, font sizes, weights and spacings as the system's CSS draws them: a button declared with
 * its background as salient colour gets the measured background and its colour name; a transparent
 * background falls back to the text colour (an outline or link-like button).
 */
export function applyMeasured(builder: ScreenBuilder, styles: Map<string, Measured>): void {
  for (const m of builder.elements) {
    const st = styles.get(m.id);
    if (!st) continue;
    if (m.colorProp) {
      let hex = m.colorProp === 'background-color' ? st.bg : m.colorProp === 'color' ? st.fg : st.bc;
      if (!hex && m.colorProp === 'background-color' && st.fg) {
        m.colorProp = 'color';
        hex = st.fg;
      }
      if (hex) {
        m.colorHex = hex;
        m.color = nearestName(hex);
      } else {
        m.colorProp = null;
      }
    }
    m.fontPx = Math.round(st.fs);
    m.bold = st.fw >= 600;
    if (m.spacingProp) {
      const v = m.spacingProp === 'gap' ? st.gap : st.pad;
      m.spacingPx = Math.round(v);
    }
  }
}

/** A theme change of an origin: its own light / dark switch (not continuous: the system swaps it). */
function themePlanner(screen: OriginScreen): Planner {
  return () => {
    const o = screen.origin;
    if (!o.theme || !o.bg.dark) return null;
    const toDark = !screen.dark;
    const before = o.theme(screen.dark);
    const after = o.theme(toDark);
    const fromBg = nearestName(screen.dark ? o.bg.dark : o.bg.light);
    const toBg = nearestName(toDark ? o.bg.dark : o.bg.light);
    const primary = screen.palette.primary.name;
    return {
      kind: 'theme',
      target: null,
      setup: [],
      continuous: false,
      beforeIds: ['#page'],
      afterIds: ['#page'],
      role: 'page',
      label: 'theme',
      opsAt: (t) => [
        t < 1
          ? { o: 'theme', app: before.app ?? {}, html: before.html ?? {} }
          : { o: 'theme', app: after.app ?? {}, html: after.html ?? {} },
      ],
      from: screen.dark ? 'dark' : 'light',
      to: toDark ? 'dark' : 'light',
      attrs: { palette_from: `${o.id}-${screen.dark ? 'dark' : 'light'}`, palette_to: `${o.id}-${toDark ? 'dark' : 'light'}` },
      facts: {
        kind: 'theme',
        role: 'page',
        color: null,
        area: null,
        themeChange: toDark ? 'dark' : 'light',
        fromBg,
        toBg,
        fromColor: primary,
        toColor: primary,
      },
    };
  };
}

/**
 * Negatives on origins: the engine's noise (identical, sub-pixel, caret, tint) plus "reencoded":
 * the after screenshot has the same pixels in other PNG bytes (generate.ts re-encodes it), as two
 * tools or two runs write the same screen.
 */
function nonePlanner(base: Planner): Planner {
  return (ctx: PlanContext) => {
    if (ctx.rng.chance(0.15)) {
      const noise = 'reencoded';
      return {
        kind: 'none',
        target: null,
        setup: [],
        continuous: false,
        beforeIds: [],
        afterIds: [],
        role: 'page',
        label: '',
        opsAt: () => [] as Op[],
        from: null,
        to: null,
        attrs: { noise },
        facts: { kind: 'none', role: 'page', color: null, area: null, noise },
      } satisfies PlannedChange;
    }
    return base(ctx);
  };
}

/** planners that replace the engine's on an origin's screen */
export function originPlanners(screen: OriginScreen, base: Record<Kind, Planner>): Partial<Record<Kind, Planner>> {
  return { theme: themePlanner(screen), none: nonePlanner(base.none) };
}
