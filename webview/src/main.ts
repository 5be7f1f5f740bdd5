// The review panel's page. Receives the report from the extension host (validated with
// parseHostMessage), renders the summary, one caption per region, the five comparison views and
// the procedure player, and posts the user's actions back (copy, export, accept, open image).
import type { Box, ChangeRegion, ChangeReport } from '../../src/core/report.js';
import {
  parseHostMessage,
  VIEW_MODES,
  type HostMessage,
  type IgnoreTarget,
  type ViewMode,
  type WebviewMessage,
} from '../../src/extension/pure/messages.js';
import { h, clear, regionName } from './dom.js';
import { registerToolkit } from './toolkit.js';
import { Viewer } from './viewer.js';
import { ProcedurePlayer } from './procedure.js';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
registerToolkit();

const VIEW_LABELS: Record<ViewMode, string> = {
  'side-by-side': 'Side by side',
  swipe: 'Swipe',
  onion: 'Onion skin',
  blink: 'Blink',
  diff: 'Diff',
};

interface PageState {
  mode: ViewMode;
}

const app = document.getElementById('app')!;
let viewer: Viewer | undefined;
let player: ProcedurePlayer | undefined;
let regions: ChangeRegion[] = [];
/** the title of the report shown: a 'procedure' message for another comparison is stale */
let shownTitle: string | undefined;
let selectedIndex = -1;
let mode: ViewMode = savedMode();
/** the "Ignore a region" tool of the shown report, when the host can write one */
let ignoreTool: IgnoreTool | undefined;

function savedMode(): ViewMode {
  const state = vscode.getState() as Partial<PageState> | undefined;
  return state?.mode && VIEW_MODES.includes(state.mode) ? state.mode : 'side-by-side';
}

function post(message: WebviewMessage): void {
  vscode.postMessage(message);
}

function button(label: string, testId: string, onClick: () => void, attributes: Record<string, string> = {}): HTMLElement {
  const element = h('vscode-button', { 'data-testid': testId, appearance: 'secondary', ...attributes }, label);
  element.addEventListener('click', onClick);
  return element;
}

function showStatus(title: string, text: string, kind: 'loading' | 'error'): void {
  viewer?.dispose();
  viewer = undefined;
  ignoreTool = undefined;
  player?.stop();
  player = undefined;
  clear(app);
  app.setAttribute('aria-busy', kind === 'loading' ? 'true' : 'false');
  app.dataset.state = kind;
  app.append(h('h1', { 'data-testid': 'title' }, title));
  if (kind === 'loading') {
    app.append(h('p', { 'data-testid': 'status', class: 'status' }, h('vscode-progress-ring', {}), ' ', text));
  } else {
    app.append(
      h('p', { 'data-testid': 'error', class: 'error', role: 'alert' }, text),
      button('Try again', 'retry', () => post({ type: 'retry' })),
    );
  }
}

/** Captions that arrive before the full report. */
function showEarlyCaptions(captions: Array<{ id: number; kind: string; caption: string; noiseOnly: boolean }>): void {
  if (app.dataset.state !== 'loading') return;
  app.querySelector('.early-captions')?.remove();
  const list = h('ul', { class: 'regions', 'data-testid': 'early-captions', 'aria-label': 'Captions (report still being finished)' });
  for (const item of captions) {
    list.append(
      h(
        'li',
        { 'data-testid': 'early-caption', 'data-region-id': item.id },
        h('span', { class: 'kind-tag' }, item.kind),
        ' ',
        item.caption,
        item.noiseOnly ? h('span', { class: 'muted' }, ' · anti-aliasing noise') : undefined,
      ),
    );
  }
  if (captions.length === 0) list.append(h('li', { class: 'muted' }, 'no visible change'));
  app.append(h('div', { class: 'early-captions' }, h('p', { class: 'muted' }, 'Finishing the report…'), list));
}

function renderReport(message: Extract<HostMessage, { type: 'report' }>): void {
  const report: ChangeReport = message.report;
  viewer?.dispose();
  player?.stop();
  clear(app);
  app.setAttribute('aria-busy', 'false');
  app.dataset.state = 'report';
  regions = [...report.regions];
  if (report.global) regions.unshift(report.global);
  selectedIndex = -1;
  shownTitle = message.title;

  const summary = h('p', { class: 'summary', 'data-testid': 'summary', 'data-changed': String(report.changed) }, report.summary);
  const actions = h(
    'div',
    { class: 'actions' },
    button('Copy summary', 'copy-summary', () => post({ type: 'copyText', text: report.summary })),
    button('Export JSON', 'export-json', () => post({ type: 'export', format: 'json' })),
    message.canExportHtml ? button('Export HTML', 'export-html', () => post({ type: 'export', format: 'html' })) : undefined,
    message.canAccept ? button('Accept as baseline', 'accept', () => post({ type: 'accept' }), { appearance: 'primary' }) : undefined,
    h('span', { class: 'accepted-note', 'data-testid': 'accepted-note', role: 'status' }) as HTMLElement,
  );
  const details = h(
    'p',
    { class: 'muted', 'data-testid': 'details' },
    `${report.before.width}×${report.before.height} → ${report.after.width}×${report.after.height}`,
    report.sizeChange ? ` · ${report.sizeChange}` : '',
    ` · ${report.provider} · ${Math.round(report.timings.totalMs)} ms · model ${report.modelVersion}`,
  );
  const masked = report.masked ?? [];
  const target = message.ignore;
  const maskNote = masked.length ? maskedNote(masked, target) : undefined;
  // what an ignore-region edit reports (a config that cannot be parsed, ...)
  const ignoreStatus = h('p', { class: 'ignore-status', 'data-testid': 'ignore-status', role: 'status' });
  const thresholdNote = report.belowThreshold
    ? h('p', { class: 'muted', 'data-testid': 'threshold-reason' }, `Under the threshold: ${report.belowThreshold.reason}`)
    : undefined;

  const list = h('ol', { class: 'regions', 'data-testid': 'region-list', 'aria-label': 'Changed regions' });
  const items = new Map<number, HTMLElement>();
  regions.forEach((region, index) => {
    const caption = h(
      'button',
      { class: 'region-caption', 'data-testid': 'region-caption', 'data-region-id': region.id, 'data-kind': region.kind, type: 'button' },
      h('span', { class: 'kind-tag' }, region.kind),
      ' ',
      h('span', { class: 'caption-text' }, region.caption),
      h('span', { class: 'muted' }, ` ${(region.confidence * 100).toFixed(0)}%${region.noiseOnly ? ' · anti-aliasing noise' : ''}`),
    );
    caption.addEventListener('click', () => select(index));
    const copy = button('Copy', 'copy-caption', () => post({ type: 'copyText', text: region.caption }), {
      'aria-label': `Copy caption of ${regionName(region.id)}`,
    });
    // the words as read: old struck through beside new
    const text = region.text
      ? h(
          'div',
          { class: 'region-text', 'data-testid': 'region-text' },
          region.text.before !== undefined
            ? h('del', { 'data-testid': 'text-before', 'aria-label': 'text before' }, region.text.before)
            : undefined,
          region.text.before !== undefined && region.text.after !== undefined ? ' → ' : '',
          region.text.after !== undefined
            ? h('ins', { 'data-testid': 'text-after', 'aria-label': 'text after' }, region.text.after)
            : undefined,
        )
      : undefined;
    items.set(region.id, h('li', { 'data-region-index': index }, caption, copy, text));
  });
  regions.forEach((region) => {
    const item = items.get(region.id)!;
    // content pushed along by another region's change is folded under its cause
    const cause = region.pushedBy !== undefined && region.pushedBy !== region.id ? items.get(region.pushedBy) : undefined;
    if (cause) {
      let pushed = cause.querySelector<HTMLElement>(':scope > details.pushed');
      if (!pushed) {
        pushed = h(
          'details',
          { class: 'pushed', 'data-testid': 'pushed-regions' },
          h('summary', { class: 'muted' }, 'content it pushed along'),
          h('ol', { class: 'regions' }),
        );
        cause.append(pushed);
      }
      pushed.querySelector('ol')!.append(item);
    } else list.append(item);
  });
  if (regions.length === 0) list.append(h('li', { class: 'muted', 'data-testid': 'no-regions' }, 'No changed regions.'));

  const switcher = h('div', { class: 'view-switcher', role: 'toolbar', 'aria-label': 'Comparison view', 'data-testid': 'view-switcher' });
  for (const viewMode of VIEW_MODES) {
    const viewButton = button(VIEW_LABELS[viewMode], `view-${viewMode}`, () => setMode(viewMode), { 'data-mode': viewMode });
    switcher.append(viewButton);
  }
  const zoom = h(
    'div',
    { class: 'zoom', role: 'toolbar', 'aria-label': 'Zoom' },
    button('−', 'zoom-out', () => viewer?.zoom(1 / 1.25), { 'aria-label': 'Zoom out (-)' }),
    button('Fit', 'zoom-fit', () => viewer?.fit(), { 'aria-label': 'Fit (0)' }),
    button('+', 'zoom-in', () => viewer?.zoom(1.25), { 'aria-label': 'Zoom in (+)' }),
    button('Open before', 'open-before', () => post({ type: 'openImage', side: 'before' })),
    button('Open after', 'open-after', () => post({ type: 'openImage', side: 'after' })),
  );

  viewer = new Viewer({
    before: message.before,
    after: message.after,
    regions,
    masked,
    onSelectRegion: (id) => select(regions.findIndex((r) => r.id === id)),
    // a click on a hatched box leads to its "Stop ignoring" button
    onMaskedClick: target
      ? (box) => app.querySelector<HTMLElement>(`[data-testid="stop-ignoring"][data-box="${box.join(',')}"]`)?.focus()
      : undefined,
  });
  ignoreTool = target ? new IgnoreTool(target, viewer, ignoreStatus) : undefined;
  if (ignoreTool) zoom.append(ignoreTool.toggle);
  player = new ProcedurePlayer((regionId) => post({ type: 'exportProcedure', regionId }));
  player.framesPending = message.framesPending;
  app.append(
    h('header', {}, h('h1', { 'data-testid': 'title' }, message.title), summary, thresholdNote, details, maskNote, actions, ignoreStatus),
    h(
      'div',
      { class: 'body' },
      h(
        'aside',
        { class: 'sidebar' },
        h('h2', {}, `Changes (${regions.filter((r) => !r.noiseOnly).length})`),
        list,
        h(
          'p',
          { class: 'muted keys' },
          'Keys: n / p next / previous change · v or 1–5 view · Space play · + / − / 0 zoom · ← / → on the scrubber step frames',
        ),
      ),
      h('div', { class: 'main' }, h('div', { class: 'toolbar' }, switcher, zoom), ignoreTool?.form, viewer.element),
    ),
    player.element,
  );
  setMode(mode);
  const first = regions.findIndex((r) => (r.procedure !== undefined || message.framesPending) && !r.noiseOnly);
  player.show(regions[first >= 0 ? first : 0]);
}

const boxText = (box: Box) => `[${box.join(', ')}]`;

/** The ignored regions under the details; with a config to edit, each with a "Stop ignoring" button. */
function maskedNote(masked: Box[], target: IgnoreTarget | undefined): HTMLElement {
  if (!target) return h('p', { class: 'muted', 'data-testid': 'masked-note' }, `Ignored (hatched): ${masked.map(boxText).join(' ')}`);
  const list = h('ul', { class: 'masked-list', 'aria-label': 'Ignored regions' });
  for (const box of masked) {
    list.append(
      h(
        'li',
        {},
        h('span', { class: 'muted' }, boxText(box)),
        ' ',
        button('Stop ignoring', 'stop-ignoring', () => post({ type: 'stopIgnoring', box }), {
          'data-box': box.join(','),
          'aria-label': `Stop ignoring ${boxText(box)} (removes it from ${target.configFile})`,
        }),
      ),
    );
  }
  return h('div', { class: 'muted masked-note', 'data-testid': 'masked-note' }, 'Ignored (hatched):', list);
}

/**
 * "Ignore a region": a toggle in the toolbar; while on, a drag on any image draws a rectangle (in
 * image pixels, whatever the zoom), or its four numbers are typed; confirming asks the host to add
 * it to the config. Escape or Cancel ends it without writing anything.
 */
class IgnoreTool {
  readonly toggle: HTMLElement;
  readonly form: HTMLElement;
  private readonly inputs: HTMLInputElement[];
  private readonly confirm: HTMLElement;
  private active = false;

  constructor(
    private readonly target: IgnoreTarget,
    private readonly viewer: Viewer,
    private readonly status: HTMLElement,
  ) {
    this.toggle = button('Ignore a region…', 'ignore-tool', () => (this.active ? this.cancel() : this.start()), {
      'aria-pressed': 'false',
      'aria-controls': 'ignore-form',
      'aria-label': `Ignore a region: draw a rectangle whose changes ${target.configFile} then ignores for this screenshot`,
    });
    const names = ['left x0', 'top y0', 'right x1', 'bottom y1'];
    this.inputs = names.map((name, index) => {
      const input = h('input', {
        type: 'number',
        min: 0,
        max: index % 2 === 0 ? viewer.area.width : viewer.area.height,
        step: 1,
        'data-testid': `ignore-${name.split(' ')[1]}`,
        'aria-label': `${name} (image pixels${index >= 2 ? ', exclusive' : ''})`,
      });
      input.addEventListener('input', () => this.typed());
      return input;
    });
    this.confirm = button('Ignore this region', 'ignore-confirm', () => this.submit(), { appearance: 'primary', disabled: '' });
    const help = h(
      'p',
      { id: 'ignore-help', class: 'muted' },
      `Drag a rectangle over an image, or type it in image pixels. It is added to ${target.configFile} for "${target.glob}": what changes inside it is no longer a change. Escape cancels.`,
    );
    this.form = h(
      'div',
      {
        id: 'ignore-form',
        class: 'ignore-form',
        role: 'group',
        'aria-label': 'Ignore a region',
        'aria-describedby': 'ignore-help',
        'data-testid': 'ignore-form',
      },
      help,
      h(
        'div',
        { class: 'ignore-fields' },
        ...this.inputs.map((input, index) => h('label', {}, `${['x0', 'y0', 'x1', 'y1'][index]} `, input)),
        this.confirm,
        button('Cancel', 'ignore-cancel', () => this.cancel()),
      ),
    );
    this.form.hidden = true;
  }

  get isActive(): boolean {
    return this.active;
  }

  start(): void {
    this.active = true;
    this.form.hidden = false;
    this.toggle.setAttribute('aria-pressed', 'true');
    this.toggle.setAttribute('appearance', 'primary');
    this.status.textContent = '';
    this.viewer.setDrawing((box, done) => {
      this.show(box);
      if (done && box) this.confirm.focus();
    });
    // a selected change is a good first guess (and lets the keyboard alone get here): its box, in the compared area
    const region = regions[selectedIndex];
    this.show(region ? this.clipped(region.boxAfter) : undefined);
    this.inputs[0].focus();
  }

  cancel(): void {
    if (!this.active) return;
    this.active = false;
    this.viewer.setDrawing(undefined);
    this.form.hidden = true;
    this.toggle.setAttribute('aria-pressed', 'false');
    this.toggle.setAttribute('appearance', 'secondary');
    this.toggle.focus();
  }

  /** The host could not write it: say why, and let the user try again. */
  failed(message: string): void {
    this.status.textContent = message;
    this.status.setAttribute('role', 'alert');
    this.confirm.removeAttribute('disabled');
  }

  private clipped(box: Box): Box | undefined {
    const { width, height } = this.viewer.area;
    const [x0, y0, x1, y1] = [Math.min(box[0], width), Math.min(box[1], height), Math.min(box[2], width), Math.min(box[3], height)];
    return x0 < x1 && y0 < y1 ? [x0, y0, x1, y1] : undefined;
  }

  private show(box: Box | undefined): void {
    this.inputs.forEach((input, index) => (input.value = box ? String(box[index]) : ''));
    this.viewer.setDraft(box);
    this.setConfirmable(box !== undefined);
  }

  /** The box of the four fields, when they hold one inside the compared area. */
  private fieldBox(): Box | undefined {
    const values = this.inputs.map((input) => (input.value.trim() === '' ? Number.NaN : Number(input.value)));
    if (!values.every((v) => Number.isInteger(v) && v >= 0)) return undefined;
    const [x0, y0, x1, y1] = values;
    const { width, height } = this.viewer.area;
    return x0 < x1 && y0 < y1 && x1 <= width && y1 <= height ? [x0, y0, x1, y1] : undefined;
  }

  private typed(): void {
    const box = this.fieldBox();
    this.viewer.setDraft(box);
    this.setConfirmable(box !== undefined);
  }

  private setConfirmable(ok: boolean): void {
    if (ok) this.confirm.removeAttribute('disabled');
    else this.confirm.setAttribute('disabled', '');
  }

  private submit(): void {
    const box = this.fieldBox();
    if (!box) return;
    this.confirm.setAttribute('disabled', '');
    this.status.setAttribute('role', 'status');
    this.status.textContent = `Adding ${boxText(box)} to ${this.target.configFile}…`;
    post({ type: 'ignoreRegion', box });
  }
}

/** The procedure frames, imagined after the report: given to their regions, and the player shows them. */
function receiveFrames(message: Extract<HostMessage, { type: 'procedure' }>): void {
  if (message.title !== shownTitle || app.dataset.state !== 'report' || !player) return;
  const byId = new Map(message.frames.map((f) => [f.id, f.procedure]));
  regions = regions.map((r) => (byId.has(r.id) ? { ...r, procedure: byId.get(r.id) } : r));
  player.framesPending = message.error ?? false;
  const shown = regions[selectedIndex] ?? regions.find((r) => r.procedure !== undefined && !r.noiseOnly) ?? regions[0];
  player.show(shown);
}

function setMode(next: ViewMode): void {
  mode = next;
  vscode.setState({ mode } satisfies PageState);
  for (const element of app.querySelectorAll<HTMLElement>('[data-testid="view-switcher"] [data-mode]')) {
    const active = element.dataset.mode === next;
    element.setAttribute('appearance', active ? 'primary' : 'secondary');
    element.setAttribute('aria-pressed', String(active));
  }
  viewer?.setMode(next);
  viewer?.select(regions[selectedIndex]?.id);
  app.dataset.view = next;
}

function select(index: number): void {
  if (regions.length === 0) return;
  selectedIndex = ((index % regions.length) + regions.length) % regions.length;
  const region = regions[selectedIndex];
  for (const item of app.querySelectorAll<HTMLElement>('[data-testid="region-caption"]')) {
    const selected = item.dataset.regionId === String(region.id);
    item.classList.toggle('selected', selected);
    item.setAttribute('aria-current', selected ? 'true' : 'false');
    if (selected) item.scrollIntoView({ block: 'nearest' });
  }
  viewer?.select(region.id);
  if (region.procedure || player?.framesPending === true) player?.show(region);
}

window.addEventListener('keydown', (event) => {
  if (app.dataset.state !== 'report' || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'Escape' && ignoreTool?.isActive) {
    // Escape cancels drawing an ignore region, from the fields too
    ignoreTool.cancel();
    event.preventDefault();
    return;
  }
  const target = event.target as HTMLElement | null;
  // (the procedure's scrubber and speed take their own keys)
  if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
  switch (event.key) {
    case 'n':
    case 'j':
    case 'ArrowDown':
      select(selectedIndex + 1);
      break;
    case 'p':
    case 'k':
    case 'ArrowUp':
      select(selectedIndex < 0 ? regions.length - 1 : selectedIndex - 1);
      break;
    case 'v':
      setMode(VIEW_MODES[(VIEW_MODES.indexOf(mode) + 1) % VIEW_MODES.length]);
      break;
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
      setMode(VIEW_MODES[Number(event.key) - 1]);
      break;
    case ' ':
      player?.toggle();
      break;
    case '+':
    case '=':
      viewer?.zoom(1.25);
      break;
    case '-':
      viewer?.zoom(1 / 1.25);
      break;
    case '0':
      viewer?.fit();
      break;
    default:
      return;
  }
  event.preventDefault();
});

window.addEventListener('message', (event: MessageEvent) => {
  let message: HostMessage;
  try {
    message = parseHostMessage(event.data);
  } catch (error) {
    console.error('ProCap Review: ignored an invalid message', error);
    return;
  }
  switch (message.type) {
    case 'loading':
      showStatus(message.title, `Describing ${message.beforeLabel} → ${message.afterLabel}…`, 'loading');
      break;
    case 'error':
      showStatus(message.title, message.message, 'error');
      break;
    case 'captions':
      showEarlyCaptions(message.captions);
      break;
    case 'report':
      renderReport(message);
      break;
    case 'procedure':
      receiveFrames(message);
      break;
    case 'accepted': {
      const note = app.querySelector('[data-testid="accepted-note"]');
      if (note) note.textContent = message.message;
      break;
    }
    case 'ignoreFailed': {
      if (ignoreTool) ignoreTool.failed(message.message);
      else {
        const status = app.querySelector('[data-testid="ignore-status"]');
        if (status) status.textContent = message.message;
      }
      break;
    }
  }
});

post({ type: 'ready' });
