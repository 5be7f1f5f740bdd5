// One pair, start to finish: choose a screen (template, palette, font, size) and its changes from
// the pair's own seeded stream, render before / intermediate frames / after, measure boxes, write
// captions. Everything random comes from (split, seed, index), so output does not depend on which
// page renders the pair or in what order pairs finish.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HELD_OUT_PALETTES, paletteById, paletteIds, paletteVars, type Palette } from './colors.js';
import { PNG } from 'pngjs';
import {
  PLANNERS,
  boxVisible,
  type Box,
  type CaptionFacts,
  type Op,
  type PlanContext,
  type PlannedChange,
  type Planner,
} from './changes.js';
import { quoteOf, regionCaptions, summaryCaptions } from './captions.js';
import type { RenderPage } from './render.js';
import { Rng, hashString } from './rng.js';
import { KINDS, ScreenBuilder, type Kind } from './screen.js';
import { DEFAULT_TEMPLATE_SET, buildTemplate, leanTemplates, templateNames, type TemplateSet } from './templates.js';
import { TEMPLATES_ORIGIN, applyMeasured, buildOriginScreen, originPlanners, pickOrigin } from './origins/index.js';
import type { LoadOptions } from './render.js';
import { decodePng } from '../core/image.js';
import { jitterShiftOf } from '../core/jitter.js';
import { diffImages } from '../core/diff.js';
import { findRegions } from '../core/regions.js';

export type Split = 'train' | 'val' | 'test';
export const SPLITS: Split[] = ['train', 'val', 'test'];

export interface ChangeRecord {
  kind: Kind;
  role: string;
  label: string;
  bbox_before: Box | null;
  bbox_after: Box | null;
  from: string | null;
  to: string | null;
  attrs: Record<string, string | number | boolean>;
}

export interface PairRecord {
  id: string;
  split: Split;
  before: string;
  after: string;
  frames: string[];
  width: number;
  height: number;
  changes: ChangeRecord[];
  captions: string[];
  region_captions: string[][];
  /**
   * Elements that did not change themselves but were shifted by the change (reflow: neighbours of
   * an added, removed, resized or re-spaced element). Not changes to caption; lets tools tell these
   * regions apart from unexplained differences. Boxes clipped to the screen (null when off it).
   */
  reflowed: { bbox_before: Box | null; bbox_after: Box | null }[];
  template: string;
  palette: string;
  font: string;
  /** where the screen's look comes from: "templates" (the engine's own) or a design system (origins/) */
  origin: string;
}

export const VIEWPORTS: [number, number][] = [
  [360, 640],
  [412, 780],
  [480, 360],
  [640, 480],
  [800, 600],
  [1024, 700],
  [1280, 800],
];

export const FONTS = [
  "'Noto Sans', sans-serif",
  "'DejaVu Sans', sans-serif",
  "'Liberation Sans', sans-serif",
  "'Roboto', sans-serif",
  "'Open Sans', sans-serif",
  "'Inter', sans-serif",
];

/**
 * Kinds for single-change pairs. Kinds that never occur in multi-change pairs (reorder, add,
 * remove, spacing, theme) weigh more here, so that over the whole corpus every kind has about the
 * same number of changes (measured with data:stats on 2,000 train pairs).
 */
const SINGLE_WEIGHT: Record<Exclude<Kind, 'none'>, number> = {
  move: 1,
  reorder: 1.8,
  resize: 1,
  color: 1,
  text: 1,
  add: 1.8,
  remove: 1.8,
  icon: 1,
  font: 1,
  spacing: 1.8,
  opacity: 1,
  theme: 1.3,
};
const SINGLE_KINDS = KINDS.filter((k): k is Exclude<Kind, 'none'> => k !== 'none');
const SINGLE_WEIGHTS = SINGLE_KINDS.map((k) => SINGLE_WEIGHT[k]);
/** kinds combined in 2-3-change pairs: ones that do not reflow the rest of the screen much */
const MULTI_KINDS: Kind[] = ['move', 'color', 'text', 'icon', 'opacity', 'font', 'resize'];

export const NONE_SHARE = 0.1;
export const MULTI_SHARE = 0.15;
const MAX_ATTEMPTS = 10;
/** attempts that insist on the pair's chosen kinds before any kind is accepted */
const STRICT_ATTEMPTS = 6;

export function pairId(split: Split, seed: number, index: number): string {
  return `${split}-${seed}-${String(index).padStart(6, '0')}`;
}

interface ScreenChoice {
  template: string;
  paletteId: string;
  font: string;
  width: number;
  height: number;
}

function chooseScreen(rng: Rng, split: Split, templateSet: TemplateSet): ScreenChoice {
  const templates = templateNames(split, templateSet);
  const palettes = paletteIds(split);
  // the test (and, with template sets 2-4, the val) split leans on what train never saw, so its score
  // measures generalisation; a set-3 or set-4 training shard leans on the templates that set adds
  const leanT = leanTemplates(split, templateSet);
  const heldP = palettes.filter((p) => HELD_OUT_PALETTES.has(p));
  const template = leanT.length && rng.chance(0.4) ? rng.pick(leanT) : rng.pick(templates);
  const paletteId = heldP.length && rng.chance(0.4) ? rng.pick(heldP) : rng.pick(palettes);
  const [width, height] = rng.pick(VIEWPORTS);
  return { template, paletteId, font: rng.pick(FONTS), width, height };
}

function union(boxes: (Box | null | undefined)[]): Box | null {
  const real = boxes.filter((b): b is Box => !!b);
  if (!real.length) return null;
  return [
    Math.min(...real.map((b) => b[0])),
    Math.min(...real.map((b) => b[1])),
    Math.max(...real.map((b) => b[2])),
    Math.max(...real.map((b) => b[3])),
  ];
}

function clipBox(box: Box | null, width: number, height: number): Box | null {
  if (!box) return null;
  const b: Box = [Math.max(0, box[0]), Math.max(0, box[1]), Math.min(width, box[2]), Math.min(height, box[3])];
  return b[2] > b[0] && b[3] > b[1] ? b : null;
}

function overlaps(a: Box, b: Box, pad: number): boolean {
  return a[0] - pad < b[2] && b[0] - pad < a[2] && a[1] - pad < b[3] && b[1] - pad < a[3];
}

type PairType = 'none' | 'single' | 'multi';

/**
 * The pair type and kinds come from a stream that ignores the attempt number, so a retry (new
 * screen) keeps the kinds and the kind mix stays as designed; only late attempts choose freely.
 */
function wantedKinds(split: Split, seed: number, index: number): { pairType: PairType; kinds: Kind[] } {
  const rng = new Rng(hashString(`${split}|${seed}|${index}|kinds`));
  const roll = rng.float();
  if (roll < NONE_SHARE) return { pairType: 'none', kinds: ['none'] };
  if (roll < NONE_SHARE + MULTI_SHARE) {
    const n = rng.chance(0.7) ? 2 : 3;
    return { pairType: 'multi', kinds: Array.from({ length: n }, () => rng.pick(MULTI_KINDS)) };
  }
  return { pairType: 'single', kinds: [rng.weighted(SINGLE_KINDS, SINGLE_WEIGHTS)] };
}

function planChanges(
  rng: Rng,
  ctx: PlanContext,
  pairType: PairType,
  kinds: Kind[],
  strict: boolean,
  planners: Record<Kind, Planner> = PLANNERS,
): PlannedChange[] {
  if (pairType === 'none') return [planners.none(ctx)!];
  const changes: PlannedChange[] = [];
  const taken: Box[] = [];
  for (const wanted of kinds) {
    let placed = false;
    for (let tries = 0; tries < 8 && !placed; tries++) {
      const kind =
        strict || tries < 4 ? wanted : pairType === 'single' ? rng.weighted(SINGLE_KINDS, SINGLE_WEIGHTS) : rng.pick(MULTI_KINDS);
      const plan = planners[kind](ctx);
      if (!plan) continue;
      const box = union(plan.beforeIds.map((id) => ctx.rects.get(id)));
      if (pairType === 'multi' && box && taken.some((t) => overlaps(t, box, 12))) continue;
      if (plan.target) ctx.used.add(plan.target.id);
      if (box) taken.push(box);
      changes.push(plan);
      placed = true;
    }
    if (!placed && strict) return [];
  }
  return changes;
}

const DEBUG = !!process.env.PROCAP_DATA_DEBUG;

function reject(reason: string): null {
  if (DEBUG) process.stderr.write(`data: attempt rejected: ${reason}\n`);
  return null;
}

interface Rendered {
  record: PairRecord;
  files: { rel: string; data: Buffer }[];
}

/** Fixed choices for a special pair (the bundled example; the corpus uses only templateSet). */
export interface PairOverrides {
  template?: string;
  paletteId?: string;
  size?: [number, number];
  kinds?: Kind[];
  onlyTargets?: PlanContext['onlyTargets'];
  /** which templates the split draws from (templates.ts TEMPLATE_SETS); the corpus CLI's --templates */
  templateSet?: TemplateSet;
  /** origins the run draws from (origins/index.ts; the CLI's --origins); default templates only */
  origins?: string[];
  /** true frames also for added and removed elements (the CLI's --all-frames); off keeps the bytes of earlier corpora */
  allFrames?: boolean;
}

/** the same pixels in other PNG bytes (RGB, another filter and compression level than Chromium's) */
function reencode(png: Buffer): Buffer {
  const image = PNG.sync.read(png);
  for (const filterType of [0, 1, 4]) {
    const out = PNG.sync.write(image, { colorType: 2, inputHasAlpha: true, deflateLevel: 9, filterType });
    if (!out.equals(png)) return out;
  }
  throw new Error('could not re-encode a PNG into other bytes');
}

async function attempt(
  page: RenderPage,
  split: Split,
  seed: number,
  index: number,
  attemptNo: number,
  overrides: PairOverrides = {},
): Promise<Rendered | null> {
  const id = pairId(split, seed, index);
  const rng = new Rng(hashString(`${split}|${seed}|${index}|${attemptNo}`));
  const screenRng = rng.fork('screen');
  const originId = overrides.origins ? pickOrigin(split, seed, index, overrides.origins) : TEMPLATES_ORIGIN;
  // a page that holds origins' sheets must be told to switch back to the templates' sheet
  const mixed = !!overrides.origins?.some((o) => o !== TEMPLATES_ORIGIN);
  let choice: ScreenChoice;
  let palette: Palette;
  let builder: ScreenBuilder;
  let html: string;
  let style: string;
  let loadOpts: LoadOptions | undefined = mixed ? { sheet: TEMPLATES_ORIGIN } : undefined;
  let planners: Record<Kind, Planner> = PLANNERS;
  let zoom = 1;
  if (originId === TEMPLATES_ORIGIN) {
    choice = chooseScreen(screenRng, split, overrides.templateSet ?? DEFAULT_TEMPLATE_SET);
    if (overrides.template) choice.template = overrides.template;
    if (overrides.paletteId) choice.paletteId = overrides.paletteId;
    if (overrides.size) [choice.width, choice.height] = overrides.size;
    palette = paletteById(screenRng, choice.paletteId);
    builder = new ScreenBuilder(screenRng, palette, choice.width, choice.height);
    html = buildTemplate(choice.template, builder);
    const vars = paletteVars(palette);
    const radius = screenRng.pick([2, 4, 6, 8]);
    const shadow = screenRng.chance(0.5) ? 'none' : '0 1px 3px rgba(0,0,0,.12)';
    style =
      Object.entries(vars)
        .map(([k, v]) => `${k}:${v}`)
        .join(';') +
      `;--r:${radius}px;--shadow:${shadow};font-family:${choice.font};width:${choice.width}px;height:${choice.height}px;display:flex;flex-direction:column`;
  } else {
    const [w, h] = overrides.size ?? screenRng.pick(VIEWPORTS);
    const os = buildOriginScreen(screenRng, originId, w, h);
    choice = {
      template: `${originId}/${os.layout}`,
      paletteId: `${originId}-${os.dark ? 'dark' : 'light'}`,
      font: os.font,
      width: w,
      height: h,
    };
    ({ palette, builder, html, style, zoom } = os);
    loadOpts = os.load;
    planners = { ...PLANNERS, ...originPlanners(os, PLANNERS) };
  }

  const { rects, covered, slack, styles } = await page.load(html, style, loadOpts);
  if (originId !== TEMPLATES_ORIGIN) applyMeasured(builder, styles);
  const planRng = rng.fork('plan');
  const wanted = wantedKinds(split, seed, index);
  const kinds = overrides.kinds ?? wanted.kinds;
  const pairType: PairType = overrides.kinds ? (kinds.length > 1 ? 'multi' : kinds[0] === 'none' ? 'none' : 'single') : wanted.pairType;
  const ctx: PlanContext = {
    rng: planRng,
    builder,
    palette,
    width: choice.width,
    height: choice.height,
    rects,
    used: new Set(covered),
    split,
    paletteIds: paletteIds(split),
    hasCaret: html.includes('data-caret'),
    onlyTargets: overrides.onlyTargets,
    widthSlack: slack,
    zoom,
  };
  const changes = planChanges(planRng, ctx, pairType, kinds, attemptNo < STRICT_ATTEMPTS, planners);
  if (!changes.length) return reject('no target for ' + kinds.join('+'));
  const { width, height } = choice;

  const setup: Op[] = changes.flatMap((c) => c.setup);
  if (setup.length) await page.apply(setup, []);
  const beforePng = await page.screenshot(width, height);

  const files: { rel: string; data: Buffer }[] = [];
  const dir = `pairs/${id}`;
  const frames: string[] = [];
  const isNone = changes[0].kind === 'none';
  const animated = (c: PlannedChange) => c.continuous || (!!overrides.allFrames && !!c.framesAt);
  if (!isNone && changes.every(animated)) {
    const at = (c: PlannedChange, t: number) => (c.continuous ? c.opsAt(t) : c.framesAt!(t));
    for (let k = 1; k <= 7; k++) {
      await page.apply(
        changes.flatMap((c) => at(c, k / 8)),
        [],
      );
      const rel = `${dir}/t${k}.png`;
      files.push({ rel, data: await page.screenshot(width, height) });
      frames.push(rel);
    }
    // back to the before state, so that opsAt(1) makes the same after screen as without frames
    const undo = changes.flatMap((c) => (c.continuous ? [] : (c.framesEnd ?? [])));
    if (undo.length) await page.apply(undo, []);
  }
  const afterIds = [...new Set(changes.flatMap((c) => c.afterIds.filter((x) => x !== '#page')))];
  const afterRects = await page.apply(
    changes.flatMap((c) => c.opsAt(1)),
    afterIds,
  );
  // an element moved under an overlay or out of the box that clips it was not seen to move: from
  // the pixels it was removed, so the record would say the wrong kind
  const movedIds = changes.filter((c) => c.kind === 'move').flatMap((c) => c.afterIds.filter((x) => x !== '#page'));
  if (movedIds.length && (await page.coveredNow(movedIds)).size) return reject('move: covered where it went');
  let afterPng = await page.screenshot(width, height);
  if (isNone && changes[0].attrs.noise === 'reencoded') afterPng = reencode(afterPng);
  const isTheme = changes.some((c) => c.kind === 'theme');
  const exclude = [
    ...new Set(changes.flatMap((c) => [...c.beforeIds, ...c.afterIds, ...(c.target ? [c.target.id] : [])]).filter((x) => x !== '#page')),
  ];
  const reflowed = isTheme ? [] : await page.reflowed(exclude);

  if (!isNone && beforePng.equals(afterPng)) return reject('no visible pixels: ' + changes.map((c) => c.kind).join('+')); // try again
  if (isNone && changes[0].attrs.noise === 'subpixel' && drawnAsWholePixelShift(beforePng, afterPng))
    return reject('a sub-pixel offset was drawn as a whole-pixel move');

  const page_: Box = [0, 0, width, height];
  const records: ChangeRecord[] = [];
  const facts: CaptionFacts[] = [];
  for (const c of changes) {
    const bb = c.beforeIds.includes('#page') ? page_ : clipBox(union(c.beforeIds.map((x) => rects.get(x))), width, height);
    const ba = c.afterIds.includes('#page') ? page_ : clipBox(union(c.afterIds.map((x) => afterRects.get(x))), width, height);
    if (c.kind !== 'none') {
      if (c.afterIds.length && !boxVisible(ba, width, height, 2)) return reject(`${c.kind}: after box not visible`);
      if (c.beforeIds.length && !boxVisible(bb, width, height, 2)) return reject(`${c.kind}: before box not visible`);
      const raw = union(c.afterIds.filter((x) => x !== '#page').map((x) => afterRects.get(x)));
      if (raw && (raw[0] < 0 || raw[1] < 0 || raw[2] > width || raw[3] > height)) return reject(`${c.kind}: pushed off screen`);
    }
    records.push({ kind: c.kind, role: c.role, label: c.label, bbox_before: bb, bbox_after: ba, from: c.from, to: c.to, attrs: c.attrs });
    const quote = quoteOf({ kind: c.kind, role: c.role, label: c.label, from: c.from, to: c.to });
    facts.push({ ...c.facts, box: c.kind === 'add' ? ba : c.kind === 'theme' ? null : (bb ?? ba), ...(quote ? { quote } : {}) });
  }
  const capRng = rng.fork('captions');
  const perChange = facts.map((f) => regionCaptions(capRng, f, width, height));
  const captions = summaryCaptions(capRng, perChange);

  files.unshift({ rel: `${dir}/before.png`, data: beforePng }, { rel: `${dir}/after.png`, data: afterPng });
  return {
    record: {
      id,
      split,
      before: `${dir}/before.png`,
      after: `${dir}/after.png`,
      frames,
      width,
      height,
      changes: records,
      captions,
      region_captions: perChange.map((p) => p.refs),
      reflowed: reflowed
        .map((r) => ({ bbox_before: clipBox(r.before, width, height), bbox_after: clipBox(r.after, width, height) }))
        .filter((r) => r.bbox_before || r.bbox_after),
      template: choice.template,
      palette: choice.paletteId,
      font: choice.font.split(',')[0].replace(/'/g, ''),
      origin: originId,
    },
    files,
  };
}

/**
 * Whether a "sub-pixel" offset was drawn as a whole-pixel move: Chromium snaps text and borders to
 * the pixel grid, so a 0.4 px nudge can move a line of text by 1 px. A changed region that is its own
 * pixels shifted by a pixel or two is a visible move (the runtime says "moved 1 px down"), not the
 * anti-aliasing noise the pair is labelled as.
 */
export function drawnAsWholePixelShift(beforePng: Buffer, afterPng: Buffer): boolean {
  const before = decodePng(beforePng, 'before.png'),
    after = decodePng(afterPng, 'after.png');
  const { regions } = findRegions(diffImages(before, after));
  return regions.some((r) => r.diffPixels > 0 && !!jitterShiftOf(before, after, r.box, { maxShift: 2 }));
}

/** Render pair `index` (retrying with the next attempt stream when a change cannot be shown) and write its PNGs. */
export async function generatePair(
  page: RenderPage,
  split: Split,
  seed: number,
  index: number,
  outDir: string,
  overrides: PairOverrides = {},
): Promise<PairRecord> {
  for (let a = 0; a < MAX_ATTEMPTS; a++) {
    const result = await attempt(page, split, seed, index, a, overrides);
    if (!result) continue;
    await mkdir(path.join(outDir, 'pairs', result.record.id), { recursive: true });
    for (const f of result.files) await writeFile(path.join(outDir, f.rel), f.data);
    return result.record;
  }
  // Never seen in practice; rather than stop a long run, make this pair a "none" pair (a none
  // pair is always valid), deterministically, and say so.
  process.stderr.write(
    `data: pair ${pairId(split, seed, index)}: no valid change after ${MAX_ATTEMPTS} attempts; made a "none" pair instead\n`,
  );
  const fallback = await attempt(page, split, seed, index, MAX_ATTEMPTS, { ...overrides, kinds: ['none'] });
  if (!fallback) throw new Error(`pair ${pairId(split, seed, index)}: could not render even a "none" pair`);
  await mkdir(path.join(outDir, 'pairs', fallback.record.id), { recursive: true });
  for (const f of fallback.files) await writeFile(path.join(outDir, f.rel), f.data);
  return fallback.record;
}
