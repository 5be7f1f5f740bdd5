// The screen builder: templates emit HTML through it, and it records, for every element a change
// may touch, what a person would call it (role), its colour name, where it lives (area) and which
// change kinds make sense for it. Elements are found again in the page by their data-e attribute.
import type { ColorName, Palette } from './colors.js';
import { escapeHtml } from './words.js';
import { CONTRACT_KINDS, type ContractKind } from '../core/kinds.js';
import type { Rng } from './rng.js';

/** The kinds the generator makes: the contract's, but for "reflow", which the crops step labels (content
 *  that only shifted because the layout moved around a change). */
export type Kind = Exclude<ContractKind, 'reflow'>;

export const KINDS: Kind[] = CONTRACT_KINDS.filter((k): k is Kind => k !== 'reflow');

export type Role =
  | 'button'
  | 'icon button'
  | 'link'
  | 'tab'
  | 'badge'
  | 'tag'
  | 'input'
  | 'search box'
  | 'checkbox'
  | 'toggle'
  | 'icon'
  | 'heading'
  | 'text'
  | 'label'
  | 'card'
  | 'menu item'
  | 'row'
  | 'avatar'
  | 'chart'
  | 'bar'
  | 'logo'
  | 'progress bar'
  | 'toolbar'
  | 'nav bar'
  | 'sidebar'
  | 'list'
  | 'menu'
  | 'form'
  | 'table'
  | 'dialog'
  | 'banner'
  | 'number'
  | 'cell'
  | 'tabs'
  | 'page'
  | 'column'
  | 'column header'
  | 'image'
  | 'date';

export type Area = 'nav bar' | 'sidebar' | 'toolbar' | 'dialog' | 'table' | 'list' | 'menu' | 'form' | 'header' | 'footer' | 'tabs';

export type TextSort = 'button' | 'nav' | 'heading' | 'field' | 'name' | 'sentence' | 'status' | 'number' | 'date' | 'title';

export interface ElementMeta {
  id: string;
  role: Role;
  /** literal label (text) or icon name; never used in captions */
  label: string;
  color: ColorName | null;
  /** CSS property that carries the element's salient colour, and its current value */
  colorProp: 'background-color' | 'color' | 'border-color' | null;
  colorHex: string | null;
  area: Area | null;
  kinds: Kind[];
  /** id of the container whose children can be reordered / added to */
  group?: string;
  icon?: string;
  textSort?: TextSort;
  /** spacing that a spacing change may alter */
  spacingProp?: 'padding' | 'gap' | 'margin-top' | 'margin-left';
  spacingPx?: number;
  fontPx?: number;
  bold?: boolean;
  serif?: boolean;
  /** style edits (colour, font) go to the child marked data-face (a tab's link inside its list item) */
  face?: boolean;
}

export interface ElementSpec extends Partial<Omit<ElementMeta, 'id' | 'role'>> {
  role: Role;
  /** a reserved id (from newId) for containers whose children name them as their group */
  id?: string;
  tag?: string;
  cls?: string;
  style?: string;
  attrs?: string;
}

export interface Screen {
  template: string;
  width: number;
  height: number;
  palette: Palette;
  font: string;
  html: string;
  elements: ElementMeta[];
}

/**
 * Roles drawn as bare text (no background or border): their box is the text they draw, not the
 * (often full-width) block around it, so boxes match what visibly changes.
 */
export const INK_ROLES = new Set<Role>(['heading', 'text', 'label', 'number', 'cell', 'link', 'logo']);

export class ScreenBuilder {
  readonly elements: ElementMeta[] = [];
  /** group id -> makes the html of one more child, for "add" changes */
  readonly factories = new Map<string, (b: ScreenBuilder) => string>();
  /** inputs that show a text cursor */
  readonly caretHosts = new Set<string>();
  private nextId = 0;

  constructor(
    readonly rng: Rng,
    readonly palette: Palette,
    readonly width: number,
    readonly height: number,
  ) {}

  get compact(): boolean {
    return this.width < 600;
  }

  private readonly shown = new Set<string>();

  /** a label not yet on this screen (two "Back" buttons side by side look wrong) */
  fresh(labels: readonly string[]): string {
    let label = this.rng.pick(labels);
    for (let i = 0; i < 8 && this.shown.has(label); i++) label = this.rng.pick(labels);
    this.shown.add(label);
    return label;
  }

  /** n distinct labels not yet on this screen */
  freshMany(labels: readonly string[], n: number): string[] {
    const picked = this.rng.sample(
      labels.filter((l) => !this.shown.has(l)),
      n,
    );
    for (const l of picked) this.shown.add(l);
    return picked;
  }

  newId(): string {
    return 'e' + this.nextId++;
  }

  /** emit an element and record its meta; `inner` is already-safe HTML */
  el(spec: ElementSpec, inner: string): string {
    const id = spec.id ?? this.newId();
    const meta: ElementMeta = {
      id,
      role: spec.role,
      label: spec.label ?? '',
      color: spec.color ?? null,
      colorProp: spec.colorProp ?? null,
      colorHex: spec.colorHex ?? null,
      area: spec.area ?? null,
      kinds: spec.kinds ?? [],
      group: spec.group,
      icon: spec.icon,
      textSort: spec.textSort,
      spacingProp: spec.spacingProp,
      spacingPx: spec.spacingPx,
      fontPx: spec.fontPx,
      bold: spec.bold,
      serif: spec.serif,
      face: spec.face,
    };
    this.elements.push(meta);
    const tag = spec.tag ?? 'div';
    const cls = spec.cls ? ` class="${spec.cls}"` : '';
    const style = spec.style ? ` style="${spec.style}"` : '';
    const attrs = (spec.attrs ? ' ' + spec.attrs : '') + (INK_ROLES.has(spec.role) ? ' data-ink' : '');
    return `<${tag} data-e="${id}"${cls}${style}${attrs}>${inner}</${tag}>`;
  }

  /** text content wrapper that text edits rewrite */
  text(value: string): string {
    return `<span data-t>${escapeHtml(value)}</span>`;
  }

  lastId(): string {
    return this.elements[this.elements.length - 1].id;
  }

  /** the id the next container element will get (children are built before their container) */
  peekId(): string {
    return 'e' + this.nextId;
  }
}
