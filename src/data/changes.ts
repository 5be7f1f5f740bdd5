// Change kinds: each planner picks a target element on a rendered screen and returns the DOM
// operations that reach its state at time t (t = 1 is the "after" screen; continuous kinds are
// also rendered at t = 1/8 ... 7/8), plus what a caption needs to describe it.
import {
  ACCENT_NAMES,
  COLOR_NAMES,
  COLOR_SHADES,
  colorDistance,
  mixHex,
  paletteById,
  paletteVars,
  type ColorName,
  type Palette,
} from './colors.js';
import { ICON_NAMES, IMAGE_SCENES, iconInner, imageBody } from './icons.js';
import type { Rng } from './rng.js';
import type { ElementMeta, Kind, Role, ScreenBuilder } from './screen.js';
import * as W from './words.js';

export type Box = [number, number, number, number];

/** One DOM edit, executed in the page by the renderer's installed script. */
export type Op =
  | { o: 'style'; id: string; sub?: string; prop: string; value: string }
  | { o: 'text'; id: string; value: string }
  | { o: 'icon'; id: string; body: string }
  | { o: 'insert'; ref: string; where: 'beforebegin' | 'afterend' | 'beforeend'; html: string }
  | { o: 'remove'; id: string }
  | { o: 'swap'; first: string; second: string }
  | { o: 'vars'; values: Record<string, string> }
  | { o: 'caret'; visible: boolean }
  /** an added or removed element at t of its size (render.ts grow): inserted first when absent */
  | { o: 'grow'; id: string; t: number; insert?: { ref: string; where: 'beforebegin' | 'afterend'; html: string } }
  /** undo the grow frames: remove the inserted element, or give the element its own style back */
  | { o: 'ungrow'; id: string; remove: boolean }
  | { o: 'theme'; app: Record<string, string>; html: Record<string, string> };

/** What the caption grammar needs to know about one change. */
export interface CaptionFacts {
  kind: Kind;
  role: Role | 'page';
  /** colour name of the element as seen before (after, for add) */
  color: ColorName | null;
  /** box used for the rough position words */
  box: Box | null;
  area: string | null;
  dx?: number;
  dy?: number;
  widthRatio?: number;
  heightRatio?: number;
  colorProp?: string;
  fromColor?: ColorName;
  toColor?: ColorName;
  longer?: boolean;
  shorter?: boolean;
  numeric?: boolean;
  fromIcon?: string;
  toIcon?: string;
  fontChange?: 'bold' | 'unbold' | 'bigger' | 'smaller' | 'serif' | 'mono' | 'sans';
  more?: boolean;
  spacingProp?: string;
  childRole?: Role;
  opacityTo?: 'faded' | 'hidden' | 'visible';
  themeChange?: 'dark' | 'light' | 'accent';
  fromBg?: ColorName;
  toBg?: ColorName;
  noise?: string;
  /** the element's visible text, as caption words (slotWords): filled into the slot tokens of the
   * quoting captions (<label>: the text it shows; <old>, <new>: before and after a re-wording, or the
   * two elements that traded places) */
  quote?: { label?: string; old?: string; new?: string };
}

export interface PlannedChange {
  kind: Kind;
  target: ElementMeta | null;
  /** ops applied before the "before" screenshot (e.g. start faded for a fade-in) */
  setup: Op[];
  opsAt: (t: number) => Op[];
  continuous: boolean;
  /**
   * For a change that is not continuous but has a natural animation (add, remove): the ops of its
   * true frame at t (0 < t < 1), rendered only with the data CLI's --all-frames, and the ops that
   * undo them before opsAt(1), so that the after screen is the same as without frames.
   */
  framesAt?: (t: number) => Op[];
  framesEnd?: Op[];
  /** ids measured before (union box) and after (union box); [] = none; ['#page'] = whole screen */
  beforeIds: string[];
  afterIds: string[];
  role: Role | 'page';
  label: string;
  from: string | null;
  to: string | null;
  attrs: Record<string, string | number | boolean>;
  facts: Omit<CaptionFacts, 'box'>;
}

export interface PlanContext {
  rng: Rng;
  builder: ScreenBuilder;
  palette: Palette;
  width: number;
  height: number;
  /** rects of every element on the before screen (null when not rendered) */
  rects: Map<string, Box | null>;
  /** elements already used by another change of the same pair (and their ancestors/descendants) */
  used: Set<string>;
  split: string;
  paletteIds: string[];
  hasCaret: boolean;
  /** per element: how many px wider it can get without overflowing its parent */
  widthSlack: Map<string, number>;
  /** optional restriction of targets (used to make the bundled example pair) */
  onlyTargets?: (m: ElementMeta, kind: Kind) => boolean;
  /** CSS zoom of the screen (origins render at several zooms): offsets and sizes are set in CSS px,
   * boxes are measured in screen px */
  zoom?: number;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const px = (v: number) => `${Math.round(v * 100) / 100}px`;

export function boxVisible(box: Box | null | undefined, width: number, height: number, minSide = 4): box is Box {
  return (
    !!box && box[0] >= 0 && box[1] >= 0 && box[2] <= width && box[3] <= height && box[2] - box[0] >= minSide && box[3] - box[1] >= minSide
  );
}

function visibleTargets(ctx: PlanContext, kind: Kind, filter?: (m: ElementMeta, box: Box) => boolean): ElementMeta[] {
  return ctx.builder.elements.filter((m) => {
    if (!m.kinds.includes(kind) || ctx.used.has(m.id)) return false;
    const box = ctx.rects.get(m.id);
    if (!boxVisible(box, ctx.width, ctx.height)) return false;
    if (ctx.onlyTargets && !ctx.onlyTargets(m, kind)) return false;
    return filter ? filter(m, box) : true;
  });
}

function groupMembers(ctx: PlanContext, group: string): ElementMeta[] {
  return ctx.builder.elements.filter((m) => m.group === group && boxVisible(ctx.rects.get(m.id), ctx.width, ctx.height));
}

function distinctColor(rng: Rng, fromHex: string | null, fromName: ColorName | null): { name: ColorName; hex: string } {
  const pool: ColorName[] = [...ACCENT_NAMES, 'black', 'grey', 'white', 'light grey', 'dark grey'];
  for (let i = 0; i < 30; i++) {
    const name = rng.pick(pool);
    if (name === fromName) continue;
    const hex = rng.pick(COLOR_SHADES[name]);
    if (fromHex && colorDistance(hex, fromHex) < 90) continue;
    return { name, hex };
  }
  return { name: 'red', hex: COLOR_SHADES.red[0] };
}

function newText(rng: Rng, meta: ElementMeta): string {
  const make = (): string => {
    switch (meta.textSort) {
      case 'button':
        return rng.pick(W.BUTTON_LABELS);
      case 'nav':
        return rng.pick(W.NAV_LABELS);
      case 'heading':
        return rng.pick(W.HEADINGS);
      case 'field':
        return rng.pick(W.FIELD_LABELS);
      case 'name':
        return W.person(rng);
      case 'status':
        return rng.pick(W.STATUSES);
      case 'number':
        return W.number(rng);
      case 'date':
        return W.date(rng);
      case 'title':
        return rng.pick(W.CARD_TITLES);
      default:
        return W.sentence(rng, 3, 9);
    }
  };
  return W.otherThan(rng, meta.label, make);
}

export type Planner = (ctx: PlanContext) => PlannedChange | null;

function base(kind: Kind, m: ElementMeta, continuous: boolean): Omit<PlannedChange, 'opsAt' | 'facts' | 'from' | 'to' | 'attrs'> {
  return { kind, target: m, setup: [], continuous, beforeIds: [m.id], afterIds: [m.id], role: m.role, label: m.label };
}

/** a nudge by relative positioning: moves the element without reflowing its neighbours */
export function offsetOps(id: string, dx: number, dy: number): Op[] {
  return [
    { o: 'style', id, prop: 'position', value: 'relative' },
    { o: 'style', id, prop: 'left', value: px(dx) },
    { o: 'style', id, prop: 'top', value: px(dy) },
  ];
}

function intersects(a: Box, b: Box): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

function contains(outer: Box, inner: Box): boolean {
  return outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];
}

/**
 * Where a moved box may land: on screen, and not over another element (real layouts move things
 * into free space). Boxes that contain the landing spot (the element's containers) are fine.
 */
function freeSpot(ctx: PlanContext, moving: Box, after: Box): boolean {
  if (after[0] < 0 || after[1] < 0 || after[2] > ctx.width || after[3] > ctx.height) return false;
  for (const [, other] of ctx.rects) {
    if (!other || !intersects(other, after)) continue;
    if (contains(other, after) && contains(other, moving)) continue; // a container of both spots
    if (contains(moving, other)) continue; // a child of the moving element
    return false;
  }
  return true;
}

const planMove: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'move');
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const box = ctx.rects.get(m.id)!;
  for (let tries = 0; tries < 12; tries++) {
    const band = rng.weighted(['slight', 'plain', 'far'], [0.3, 0.45, 0.25]);
    const dist = () => (band === 'slight' ? rng.int(2, 7) : band === 'plain' ? rng.int(8, 40) : rng.int(41, 110));
    const axis = rng.weighted(['x', 'y', 'xy'], [0.4, 0.4, 0.2]);
    const dx = axis === 'y' ? 0 : dist() * (rng.chance(0.5) ? 1 : -1);
    const dy = axis === 'x' ? 0 : dist() * (rng.chance(0.5) ? 1 : -1);
    if (!freeSpot(ctx, box, [box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy])) continue;
    return {
      ...base('move', m, true),
      opsAt: (t) => offsetOps(m.id, (dx * t) / (ctx.zoom ?? 1), (dy * t) / (ctx.zoom ?? 1)),
      from: null,
      to: null,
      attrs: { dx, dy },
      facts: { kind: 'move', role: m.role, color: m.color, area: m.area, dx, dy },
    };
  }
  return null;
};

const planResize: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'resize', (m, b) => b[2] - b[0] >= 8 && b[3] - b[1] >= 6);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const box = ctx.rects.get(m.id)!;
  const w0 = box[2] - box[0];
  const h0 = box[3] - box[1];
  const grow = rng.chance(0.55);
  const factor = () => (grow ? rng.range(1.25, 1.8) : rng.range(0.5, 0.8));
  const square = m.role === 'avatar' || m.role === 'icon';
  const which = square ? 'both' : m.role === 'bar' ? 'h' : rng.weighted(['w', 'h', 'both'], [0.45, 0.2, 0.35]);
  const fw = which === 'h' ? 1 : factor();
  const fh = which === 'w' ? 1 : square ? fw : factor();
  let w1 = Math.round(w0 * fw);
  let h1 = Math.round(h0 * fh);
  // never wider than the parent allows (a card growing over its neighbour column is not a resize)
  w1 = Math.min(w1, ctx.width - box[0], w0 + (ctx.widthSlack.get(m.id) ?? 0));
  h1 = Math.min(h1, ctx.height - box[1]);
  if (Math.abs(w1 - w0) < 4 && Math.abs(h1 - h0) < 4) return null;
  const sub = m.role === 'icon' ? 'svg' : undefined;
  const z = ctx.zoom ?? 1;
  return {
    ...base('resize', m, true),
    opsAt: (t) => {
      const ops: Op[] = [];
      if (which !== 'h')
        ops.push(
          { o: 'style', id: m.id, sub, prop: 'width', value: px(lerp(w0, w1, t) / z) },
          { o: 'style', id: m.id, sub, prop: 'flex', value: 'none' },
        );
      if (which !== 'w') ops.push({ o: 'style', id: m.id, sub, prop: 'height', value: px(lerp(h0, h1, t) / z) });
      return ops;
    },
    from: `${w0}x${h0}`,
    to: `${w1}x${h1}`,
    attrs: { width_from: w0, width_to: w1, height_from: h0, height_to: h1 },
    facts: { kind: 'resize', role: m.role, color: m.color, area: m.area, widthRatio: w1 / w0, heightRatio: h1 / h0 },
  };
};

const planColor: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'color', (m) => m.colorProp !== null && m.colorHex !== null);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const fromHex = m.colorHex!;
  const fromName = m.color ?? nearestName(fromHex);
  const to = distinctColor(rng, fromHex, fromName);
  const prop = m.colorProp!;
  return {
    ...base('color', m, true),
    opsAt: (t) => [{ o: 'style', id: m.id, sub: faceOf(m), prop, value: mixHex(fromHex, to.hex, t) }],
    from: fromName,
    to: to.name,
    attrs: { property: prop, from_hex: fromHex, to_hex: to.hex },
    facts: { kind: 'color', role: m.role, color: fromName, area: m.area, colorProp: prop, fromColor: fromName, toColor: to.name },
  };
};

/** where style edits of an element go: its marked face (a tab's link inside its list item), or itself */
function faceOf(m: ElementMeta): string | undefined {
  return m.face ? '[data-face]' : undefined;
}

export function nearestName(hex: string): ColorName {
  let best: ColorName = 'grey';
  let bestD = Infinity;
  for (const name of COLOR_NAMES) {
    for (const s of COLOR_SHADES[name]) {
      const d = colorDistance(hex, s);
      if (d < bestD) {
        bestD = d;
        best = name;
      }
    }
  }
  return best;
}

const planText: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'text', (m) => !!m.textSort);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const value = newText(rng, m);
  return {
    ...base('text', m, false),
    opsAt: () => [{ o: 'text', id: m.id, value }],
    from: m.label,
    to: value,
    attrs: {},
    facts: {
      kind: 'text',
      role: m.role,
      color: m.color,
      area: m.area,
      numeric: m.textSort === 'number',
      longer: value.length >= m.label.length * 1.6 && value.length - m.label.length >= 4,
      shorter: value.length * 1.6 <= m.label.length && m.label.length - value.length >= 4,
    },
  };
};

const planAdd: Planner = (ctx) => {
  const { rng, builder } = ctx;
  const groups = [...builder.factories.keys()].filter(
    (g) => !ctx.used.has(g) && boxVisible(ctx.rects.get(g), ctx.width, ctx.height, 2) && groupMembers(ctx, g).length > 0,
  );
  if (!groups.length) return null;
  const group = rng.pick(groups);
  const members = groupMembers(ctx, group);
  const ref = rng.pick(members);
  const before = builder.elements.length;
  const html = builder.factories.get(group)!(builder);
  // the new element is the outermost one the factory registered: the last meta added
  const added = builder.elements[builder.elements.length - 1];
  for (const meta of builder.elements.slice(before)) ctx.used.add(meta.id);
  const where = rng.chance(0.5) ? 'afterend' : 'beforebegin';
  return {
    kind: 'add',
    target: added,
    setup: [],
    continuous: false,
    beforeIds: [],
    afterIds: [added.id],
    role: added.role,
    label: added.label,
    opsAt: () => [{ o: 'insert', ref: ref.id, where, html }],
    // grows in at its place from nothing while what follows slides to make room
    framesAt: (t) => [{ o: 'grow', id: added.id, t, insert: { ref: ref.id, where, html } }],
    framesEnd: [{ o: 'ungrow', id: added.id, remove: true }],
    from: null,
    to: added.label,
    attrs: { group },
    facts: { kind: 'add', role: added.role, color: added.color, area: added.area },
  };
};

const planRemove: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'remove', (m) => !m.group || groupMembers(ctx, m.group).length > 1);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  return {
    ...base('remove', m, false),
    afterIds: [],
    opsAt: () => [{ o: 'remove', id: m.id }],
    // the reverse of an add: shrinks to nothing in its place while what follows closes the gap
    framesAt: (t) => [{ o: 'grow', id: m.id, t: 1 - t }],
    framesEnd: [{ o: 'ungrow', id: m.id, remove: false }],
    from: m.label,
    to: null,
    attrs: {},
    facts: { kind: 'remove', role: m.role, color: m.color, area: m.area },
  };
};

const planReorder: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'reorder', (m) => !!m.group && groupMembers(ctx, m.group).length > 1);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const members = ctx.builder.elements.filter((x) => x.group === m.group);
  const i = members.indexOf(m);
  const next = members[i + 1];
  const prev = members[i - 1];
  const other =
    next && boxVisible(ctx.rects.get(next.id), ctx.width, ctx.height) && !ctx.used.has(next.id)
      ? next
      : prev && boxVisible(ctx.rects.get(prev.id), ctx.width, ctx.height) && !ctx.used.has(prev.id)
        ? prev
        : null;
  if (!other) return null;
  ctx.used.add(other.id);
  const [first, second] = other === next ? [m, other] : [other, m];
  return {
    kind: 'reorder',
    target: m,
    setup: [],
    continuous: false,
    beforeIds: [first.id, second.id],
    afterIds: [first.id, second.id],
    role: m.role,
    label: `${first.label} | ${second.label}`,
    opsAt: () => [{ o: 'swap', first: first.id, second: second.id }],
    from: `${first.label} | ${second.label}`,
    to: `${second.label} | ${first.label}`,
    attrs: {},
    facts: { kind: 'reorder', role: m.role, color: m.color, area: m.area },
  };
};

const planIcon: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'icon', (m) => !!m.icon);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  if (m.role === 'image') {
    // a different picture: another scene in new colours
    const scene = rng.pick(IMAGE_SCENES.filter((x) => 'image:' + x !== m.icon));
    const pick = () => rng.pick(COLOR_SHADES[rng.pick(ACCENT_NAMES)]);
    const body = imageBody(scene, pick(), pick(), pick());
    return {
      ...base('icon', m, false),
      opsAt: () => [{ o: 'icon', id: m.id, body }],
      from: m.icon!,
      to: 'image:' + scene,
      attrs: {},
      facts: { kind: 'icon', role: m.role, color: m.color, area: m.area, fromIcon: 'image', toIcon: 'image' },
    };
  }
  const toIcon = rng.pick(ICON_NAMES.filter((n) => n !== m.icon));
  return {
    ...base('icon', m, false),
    opsAt: () => [{ o: 'icon', id: m.id, body: iconInner(toIcon) }],
    from: m.icon!,
    to: toIcon,
    attrs: {},
    facts: { kind: 'icon', role: m.role, color: m.color, area: m.area, fromIcon: m.icon, toIcon },
  };
};

const FONT_STACKS = {
  serif: "'Noto Serif', 'DejaVu Serif', serif",
  mono: "'DejaVu Sans Mono', 'Liberation Mono', monospace",
  sans: "'Liberation Sans', 'Noto Sans', sans-serif",
};

const planFont: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'font', (m) => !!m.fontPx);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const choice = rng.weighted(['weight', 'size', 'family'], [0.35, 0.35, 0.3]);
  let op: Op;
  let fontChange: CaptionFacts['fontChange'];
  let from: string;
  let to: string;
  if (choice === 'weight') {
    fontChange = m.bold ? 'unbold' : 'bold';
    from = m.bold ? 'bold' : 'normal';
    to = m.bold ? 'normal' : 'bold';
    op = { o: 'style', id: m.id, sub: faceOf(m), prop: 'font-weight', value: m.bold ? '400' : '700' };
  } else if (choice === 'size') {
    const bigger = rng.chance(0.55) || m.fontPx! <= 12;
    const delta = bigger ? rng.int(3, 8) : -rng.int(2, 5);
    const size = Math.max(10, m.fontPx! + delta);
    fontChange = bigger ? 'bigger' : 'smaller';
    from = `${m.fontPx}px`;
    to = `${size}px`;
    op = { o: 'style', id: m.id, sub: faceOf(m), prop: 'font-size', value: `${size}px` };
  } else {
    const family = m.serif ? (rng.chance(0.5) ? 'sans' : 'mono') : rng.chance(0.6) ? 'serif' : 'mono';
    fontChange = family as 'serif' | 'mono' | 'sans';
    from = m.serif ? 'serif' : 'sans-serif';
    to = family === 'sans' ? 'sans-serif' : family === 'serif' ? 'serif' : 'monospace';
    op = { o: 'style', id: m.id, sub: faceOf(m), prop: 'font-family', value: FONT_STACKS[family as keyof typeof FONT_STACKS] };
  }
  return {
    ...base('font', m, false),
    opsAt: () => [op],
    from,
    to,
    attrs: { property: choice },
    facts: { kind: 'font', role: m.role, color: m.color, area: m.area, fontChange },
  };
};

const planSpacing: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'spacing', (m) => !!m.spacingProp && m.spacingPx !== undefined);
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const v0 = m.spacingPx!;
  const more = v0 < 4 || rng.chance(0.6);
  const v1 = more ? v0 + rng.int(6, 20) : Math.max(0, v0 - rng.int(4, Math.max(4, v0)));
  if (v1 === v0) return null;
  const prop = m.spacingProp!;
  const childRole = ctx.builder.elements.find((x) => x.group === m.id)?.role;
  return {
    ...base('spacing', m, true),
    opsAt: (t) => [{ o: 'style', id: m.id, prop, value: px(lerp(v0, v1, t)) }],
    from: `${v0}px`,
    to: `${v1}px`,
    attrs: { property: prop },
    facts: { kind: 'spacing', role: m.role, color: m.color, area: m.area, more, spacingProp: prop, childRole },
  };
};

const planOpacity: Planner = (ctx) => {
  const { rng } = ctx;
  const targets = visibleTargets(ctx, 'opacity');
  if (!targets.length) return null;
  const m = rng.pick(targets);
  const mode = rng.weighted(['faded', 'hidden', 'visible'], [0.5, 0.2, 0.3]);
  const low = mode === 'hidden' ? 0 : rng.range(0.2, 0.45);
  const [o0, o1] = mode === 'visible' ? [low, 1] : [1, low];
  return {
    ...base('opacity', m, true),
    setup: mode === 'visible' ? [{ o: 'style', id: m.id, prop: 'opacity', value: o0.toFixed(3) }] : [],
    opsAt: (t) => [{ o: 'style', id: m.id, prop: 'opacity', value: lerp(o0, o1, t).toFixed(3) }],
    from: o0.toFixed(2),
    to: o1.toFixed(2),
    attrs: {},
    facts: { kind: 'opacity', role: m.role, color: m.color, area: m.area, opacityTo: mode as 'faded' | 'hidden' | 'visible' },
  };
};

const planTheme: Planner = (ctx) => {
  const { rng, palette } = ctx;
  const toDark = !palette.dark;
  const accentOnly = rng.chance(0.3);
  const candidates = ctx.paletteIds.filter((id) => id !== palette.id);
  const pool = candidates
    .map((id) => paletteById(rng, id))
    .filter((p) => (accentOnly ? p.dark === palette.dark && p.primary.name !== palette.primary.name : p.dark === toDark));
  if (!pool.length) return null;
  let target = rng.pick(pool);
  if (accentOnly) {
    // same surfaces, only the accent colours change
    target = { ...palette, id: palette.id + '+' + target.primary.name, primary: target.primary, secondary: target.secondary };
  }
  const v0 = paletteVars(palette);
  const v1 = paletteVars(target);
  const themeChange = accentOnly ? 'accent' : toDark ? 'dark' : 'light';
  return {
    kind: 'theme',
    target: null,
    setup: [],
    continuous: true,
    beforeIds: ['#page'],
    afterIds: ['#page'],
    role: 'page',
    label: 'theme',
    opsAt: (t) => {
      const values: Record<string, string> = {};
      for (const key of Object.keys(v0)) values[key] = mixHex(v0[key], v1[key], t);
      return [{ o: 'vars', values }];
    },
    from: accentOnly ? palette.primary.name : palette.dark ? 'dark' : 'light',
    to: accentOnly ? target.primary.name : toDark ? 'dark' : 'light',
    attrs: { palette_from: palette.id, palette_to: target.id },
    facts: {
      kind: 'theme',
      role: 'page',
      color: null,
      area: null,
      themeChange,
      fromBg: palette.bg.name,
      toBg: target.bg.name,
      fromColor: palette.primary.name,
      toColor: target.primary.name,
    },
  };
};

/**
 * Harmless noise that must be described as no visible change: identical renders, sub-pixel offsets
 * (anti-aliasing), a blinking caret, a tint no eye sees. A whole-pixel shift is not among them: an
 * element 1 px lower moved, and the product says so ("moved 1 px down"); a sub-pixel offset the
 * browser drew as one is rejected after rendering (generate.ts drawnAsWholePixelShift).
 */
const planNone: Planner = (ctx) => {
  const { rng } = ctx;
  const inputs = ctx.builder.elements.filter(
    (m) => (m.role === 'input' || m.role === 'search box') && !ctx.used.has(m.id) && boxVisible(ctx.rects.get(m.id), ctx.width, ctx.height),
  );
  const noise = rng.weighted(['identical', 'subpixel', 'caret', 'tint'], [0.2, 0.35, ctx.hasCaret || inputs.length ? 0.2 : 0, 0.15]);
  const targets = visibleTargets(ctx, 'move').concat(visibleTargets(ctx, 'color', (m) => !!m.colorHex && !!m.colorProp));
  const none = (m: ElementMeta | null, ops: Op[], setup: Op[] = []): PlannedChange => ({
    kind: 'none',
    target: m,
    setup,
    continuous: false,
    beforeIds: m ? [m.id] : [],
    afterIds: m ? [m.id] : [],
    role: m ? m.role : 'page',
    label: m ? m.label : '',
    opsAt: () => ops,
    from: null,
    to: null,
    attrs: { noise },
    facts: { kind: 'none', role: m ? m.role : 'page', color: null, area: null, noise },
  });
  if (noise === 'identical' || !targets.length) return { ...none(null, []), attrs: { noise: 'identical' } };
  if (noise === 'caret') {
    const visibleNow = rng.chance(0.5);
    const ops: Op[] = [{ o: 'caret', visible: !visibleNow }];
    if (ctx.hasCaret) {
      const caretHost = ctx.builder.elements.find((m) => m.role === 'input' && ctx.rects.get(m.id) && ctx.builder.caretHosts.has(m.id));
      return none(caretHost ?? null, ops, [{ o: 'caret', visible: visibleNow }]);
    }
    // no text cursor on this screen yet: put one at the end of a visible input, then blink it
    const host = rng.pick(inputs);
    const caret = '<span class="caret" data-caret></span>';
    return none(host, ops, [
      { o: 'insert', ref: host.id, where: 'beforeend', html: caret },
      { o: 'caret', visible: visibleNow },
    ]);
  }
  const m = rng.pick(targets);
  if (noise === 'subpixel') {
    const d = (rng.range(0.2, 0.6) * (rng.chance(0.5) ? 1 : -1)) / (ctx.zoom ?? 1);
    return none(m, rng.chance(0.5) ? offsetOps(m.id, d, 0) : offsetOps(m.id, 0, d));
  }
  if (!m.colorHex || !m.colorProp) return none(null, []);
  const tinted = mixHex(m.colorHex, rng.chance(0.5) ? '#000000' : '#ffffff', 0.012);
  return none(m, [{ o: 'style', id: m.id, prop: m.colorProp, value: tinted }]);
};

export const PLANNERS: Record<Kind, Planner> = {
  none: planNone,
  move: planMove,
  reorder: planReorder,
  resize: planResize,
  color: planColor,
  text: planText,
  add: planAdd,
  remove: planRemove,
  icon: planIcon,
  font: planFont,
  spacing: planSpacing,
  opacity: planOpacity,
  theme: planTheme,
};
