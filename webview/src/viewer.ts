// The comparison views: side by side, swipe, onion skin, blink and diff highlight. Every view
// draws its images inside "layers" that share one zoom/pan transform, so zooming or panning any
// viewport moves all of them together. Region boxes are drawn in image pixels inside the layers.
import type { Box, ChangeRegion } from '../../src/core/report.js';
import type { PanelImage, ViewMode } from '../../src/extension/pure/messages.js';
import { h, clear, regionName } from './dom.js';

interface Transform {
  scale: number;
  x: number;
  y: number;
}

const MIN_SCALE = 0.05;
const MAX_SCALE = 32;
const BLINK_MS = 600;

export interface ViewerOptions {
  before: PanelImage;
  after: PanelImage;
  regions: ChangeRegion[];
  /** the ignore regions: drawn hatched over every image, under the region boxes. */
  masked?: Box[];
  onSelectRegion: (id: number) => void;
  /** a click on a hatched box (when given, the boxes take clicks) */
  onMaskedClick?: (box: Box) => void;
}

/** While drawing an ignore region: the box so far (undefined: none yet, or too small) and whether the drag ended. */
export type DraftListener = (box: Box | undefined, done: boolean) => void;

export class Viewer {
  readonly element: HTMLElement;
  private mode: ViewMode = 'side-by-side';
  private transform: Transform = { scale: 1, x: 0, y: 0 };
  private layers: HTMLElement[] = [];
  private selectedId: number | undefined;
  private blinkTimer: number | undefined;
  private swipePercent = 50;
  private onionPercent = 50;
  private fitted = false;
  /** drawing an ignore region: pointer drags draw a rectangle instead of panning */
  private drawing: DraftListener | undefined;
  private draft: Box | undefined;

  constructor(private readonly options: ViewerOptions) {
    this.element = h('div', { class: 'viewer', 'data-testid': 'viewer' });
  }

  /** The compared area (the common part of the two images): ignore regions lie inside it. */
  get area(): { width: number; height: number } {
    const { before, after } = this.options;
    return { width: Math.min(before.width, after.width), height: Math.min(before.height, after.height) };
  }

  /** Switches the drawing of an ignore region on (`listener` hears the box) or off (the draft goes). */
  setDrawing(listener: DraftListener | undefined): void {
    this.drawing = listener;
    this.element.dataset.drawing = String(listener !== undefined);
    if (listener === undefined) this.setDraft(undefined);
  }

  /** Shows `box` (image pixels) as the ignore region being drawn, in every view. */
  setDraft(box: Box | undefined): void {
    this.draft = box;
    for (const element of this.element.querySelectorAll<HTMLElement>('[data-testid="ignore-draft"]')) this.placeDraft(element);
  }

  private placeDraft(element: HTMLElement): void {
    element.hidden = this.draft === undefined;
    if (this.draft === undefined) return;
    const [x0, y0, x1, y1] = this.draft;
    element.dataset.box = this.draft.join(',');
    element.style.left = `${x0}px`;
    element.style.top = `${y0}px`;
    element.style.width = `${x1 - x0}px`;
    element.style.height = `${y1 - y0}px`;
  }

  /** The image pixel under a pointer event in `viewport` (its layer carries the zoom and pan). */
  private imagePoint(viewport: HTMLElement, event: PointerEvent): { x: number; y: number } {
    const rect = viewport.querySelector<HTMLElement>('.layer')!.getBoundingClientRect();
    return { x: (event.clientX - rect.left) / this.transform.scale, y: (event.clientY - rect.top) / this.transform.scale };
  }

  /** The box spanned by two image points: whole pixels covering both, inside the compared area; undefined when empty. */
  private spanned(a: { x: number; y: number }, b: { x: number; y: number }): Box | undefined {
    const { width, height } = this.area;
    const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
    const x0 = clamp(Math.floor(Math.min(a.x, b.x)), width);
    const y0 = clamp(Math.floor(Math.min(a.y, b.y)), height);
    const x1 = clamp(Math.ceil(Math.max(a.x, b.x)), width);
    const y1 = clamp(Math.ceil(Math.max(a.y, b.y)), height);
    return x0 < x1 && y0 < y1 ? [x0, y0, x1, y1] : undefined;
  }

  get currentMode(): ViewMode {
    return this.mode;
  }

  setMode(mode: ViewMode): void {
    this.mode = mode;
    this.render();
  }

  select(id: number | undefined): void {
    this.selectedId = id;
    for (const box of this.element.querySelectorAll<HTMLElement>('[data-testid="region-box"]')) {
      box.classList.toggle('selected', box.dataset.regionId === String(id));
    }
    const region = this.options.regions.find((r) => r.id === id);
    if (region) this.centreOn(region.boxAfter);
  }

  zoom(factor: number, anchor?: { x: number; y: number }): void {
    const viewport = this.element.querySelector<HTMLElement>('.viewport');
    const ax = anchor?.x ?? (viewport ? viewport.clientWidth / 2 : 0);
    const ay = anchor?.y ?? (viewport ? viewport.clientHeight / 2 : 0);
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.transform.scale * factor));
    const ratio = scale / this.transform.scale;
    this.transform = { scale, x: ax - (ax - this.transform.x) * ratio, y: ay - (ay - this.transform.y) * ratio };
    this.applyTransform();
  }

  fit(): void {
    const viewport = this.element.querySelector<HTMLElement>('.viewport');
    const width = Math.max(this.options.before.width, this.options.after.width);
    const height = Math.max(this.options.before.height, this.options.after.height);
    if (!viewport || viewport.clientWidth === 0) {
      this.transform = { scale: 1, x: 0, y: 0 };
    } else {
      const scale = Math.min(viewport.clientWidth / width, viewport.clientHeight / height, 1);
      this.transform = { scale, x: (viewport.clientWidth - width * scale) / 2, y: 0 };
    }
    this.applyTransform();
  }

  private centreOn(box: Box): void {
    const viewport = this.element.querySelector<HTMLElement>('.viewport');
    if (!viewport) return;
    const [x0, y0, x1, y1] = box;
    const { scale } = this.transform;
    this.transform = {
      scale,
      x: viewport.clientWidth / 2 - ((x0 + x1) / 2) * scale,
      y: viewport.clientHeight / 2 - ((y0 + y1) / 2) * scale,
    };
    this.applyTransform();
  }

  private applyTransform(): void {
    const { scale, x, y } = this.transform;
    for (const layer of this.layers) layer.style.transform = `translate(${x}px, ${y}px) scale(${scale})`;
    this.element.dataset.zoom = scale.toFixed(3);
  }

  render(): void {
    if (this.blinkTimer !== undefined) window.clearInterval(this.blinkTimer);
    this.blinkTimer = undefined;
    clear(this.element);
    this.layers = [];
    this.element.dataset.mode = this.mode;
    const { before, after } = this.options;
    switch (this.mode) {
      case 'side-by-side': {
        this.element.append(
          h(
            'div',
            { class: 'side-by-side' },
            this.viewport('before', [this.image(before, 'before-image')], 'boxBefore'),
            this.viewport('after', [this.image(after, 'after-image')], 'boxAfter'),
          ),
        );
        break;
      }
      case 'swipe': {
        const afterImage = this.image(after, 'after-image');
        afterImage.classList.add('overlay');
        const slider = h('input', {
          type: 'range',
          min: 0,
          max: 100,
          value: this.swipePercent,
          'data-testid': 'swipe-slider',
          'aria-label': 'Swipe position: before on the left, after on the right',
        });
        const applySwipe = () => {
          afterImage.style.clipPath = `inset(0 0 0 ${this.swipePercent}%)`;
        };
        slider.addEventListener('input', () => {
          this.swipePercent = Number(slider.value);
          applySwipe();
        });
        applySwipe();
        this.element.append(
          this.viewport('swipe', [this.image(before, 'before-image'), afterImage], 'boxAfter'),
          h('div', { class: 'view-controls' }, h('label', {}, 'before ', slider, ' after')),
        );
        break;
      }
      case 'onion': {
        const afterImage = this.image(after, 'after-image');
        afterImage.classList.add('overlay');
        const slider = h('input', {
          type: 'range',
          min: 0,
          max: 100,
          value: this.onionPercent,
          'data-testid': 'onion-slider',
          'aria-label': 'Opacity of the after image',
        });
        const applyOpacity = () => {
          afterImage.style.opacity = String(this.onionPercent / 100);
        };
        slider.addEventListener('input', () => {
          this.onionPercent = Number(slider.value);
          applyOpacity();
        });
        applyOpacity();
        this.element.append(
          this.viewport('onion', [this.image(before, 'before-image'), afterImage], 'boxAfter'),
          h('div', { class: 'view-controls' }, h('label', {}, 'before ', slider, ' after')),
        );
        break;
      }
      case 'blink': {
        const beforeImage = this.image(before, 'before-image');
        const afterImage = this.image(after, 'after-image');
        afterImage.classList.add('overlay');
        const shown = h('span', { 'data-testid': 'blink-showing', 'aria-live': 'off' }, 'after');
        let showAfter = true;
        this.blinkTimer = window.setInterval(() => {
          showAfter = !showAfter;
          afterImage.classList.toggle('hidden', !showAfter);
          shown.textContent = showAfter ? 'after' : 'before';
        }, BLINK_MS);
        this.element.append(
          this.viewport('blink', [beforeImage, afterImage], 'boxAfter'),
          h('div', { class: 'view-controls' }, 'showing: ', shown),
        );
        break;
      }
      case 'diff': {
        const canvas = h('canvas', {
          'data-testid': 'diff-canvas',
          class: 'diff-canvas',
          'aria-label': 'Changed pixels highlighted over the after image',
        });
        this.element.append(
          this.viewport('diff', [canvas], 'boxAfter'),
          h('div', { class: 'view-controls' }, 'changed pixels in the highlight colour'),
        );
        void drawDiff(canvas, before, after);
        break;
      }
    }
    if (!this.fitted) {
      this.fitted = true;
      requestAnimationFrame(() => this.fit());
    } else {
      this.applyTransform();
    }
  }

  private image(image: PanelImage, testId: string): HTMLImageElement {
    const element = h('img', {
      src: image.dataUri,
      alt: image.label,
      'data-testid': testId,
      width: image.width,
      height: image.height,
      draggable: 'false',
    });
    return element;
  }

  /** A clipped viewport holding one transformed layer with the images and the region boxes. */
  private viewport(name: string, content: Element[], boxSide: 'boxBefore' | 'boxAfter'): HTMLElement {
    const size = boxSide === 'boxBefore' ? this.options.before : this.options.after;
    const layer = h('div', { class: 'layer' });
    layer.style.width = `${Math.max(this.options.before.width, this.options.after.width)}px`;
    layer.style.height = `${Math.max(this.options.before.height, this.options.after.height)}px`;
    layer.append(...content);
    const onMaskedClick = this.options.onMaskedClick;
    for (const box of this.options.masked ?? []) {
      const [x0, y0, x1, y1] = box;
      // aria-hidden: the list of ignored regions under the details is what a screen reader reads (and acts on)
      const masked = h('div', {
        class: `masked-box${onMaskedClick ? ' clickable' : ''}`,
        'data-testid': 'masked-box',
        'data-box': `${x0},${y0},${x1},${y1}`,
        title: `ignored (masked): [${x0}, ${y0}, ${x1}, ${y1}]${onMaskedClick ? ' - click to stop ignoring it' : ''}`,
        'aria-hidden': 'true',
      });
      masked.style.left = `${x0}px`;
      masked.style.top = `${y0}px`;
      masked.style.width = `${x1 - x0}px`;
      masked.style.height = `${y1 - y0}px`;
      if (onMaskedClick)
        masked.addEventListener('click', (event) => {
          if (this.drawing) return;
          event.stopPropagation();
          onMaskedClick(box);
        });
      layer.append(masked);
    }
    for (const region of this.options.regions) {
      const [x0, y0, x1, y1] = region[boxSide];
      const box = h('div', {
        class: `region-box${region.id === this.selectedId ? ' selected' : ''}${region.noiseOnly ? ' noise' : ''}`,
        'data-testid': 'region-box',
        'data-region-id': region.id,
        'data-kind': region.kind,
        title: region.caption,
        role: 'button',
        tabindex: -1,
        'aria-label': `${regionName(region.id)}: ${region.caption}`,
      });
      box.style.left = `${x0}px`;
      box.style.top = `${y0}px`;
      box.style.width = `${Math.max(1, x1 - x0)}px`;
      box.style.height = `${Math.max(1, y1 - y0)}px`;
      box.addEventListener('click', (event) => {
        event.stopPropagation();
        this.options.onSelectRegion(region.id);
      });
      layer.append(box);
    }
    const draft = h('div', { class: 'ignore-draft', 'data-testid': 'ignore-draft', 'aria-hidden': 'true' });
    this.placeDraft(draft);
    layer.append(draft);
    this.layers.push(layer);
    const viewport = h(
      'div',
      { class: 'viewport', 'data-testid': `viewport-${name}`, 'aria-label': `${name} view of ${size.label}` },
      layer,
    );
    this.attachPanZoom(viewport);
    if (name !== 'before' && name !== 'after') return viewport;
    return h('figure', { class: 'viewport-figure' }, h('figcaption', { class: 'viewport-label' }, `${name}: ${size.label}`), viewport);
  }

  private attachPanZoom(viewport: HTMLElement): void {
    viewport.addEventListener(
      'wheel',
      (event) => {
        event.preventDefault();
        const rect = viewport.getBoundingClientRect();
        this.zoom(event.deltaY < 0 ? 1.15 : 1 / 1.15, { x: event.clientX - rect.left, y: event.clientY - rect.top });
      },
      { passive: false },
    );
    let dragging: { x: number; y: number } | undefined;
    let drawingFrom: { x: number; y: number } | undefined;
    viewport.addEventListener('pointerdown', (event) => {
      if (this.drawing) {
        if (event.button !== 0) return;
        // drawing an ignore region: the drag spans it, whatever it starts on
        event.preventDefault();
        drawingFrom = this.imagePoint(viewport, event);
        viewport.setPointerCapture(event.pointerId);
        return;
      }
      const testId = (event.target as HTMLElement).dataset.testid;
      if (testId === 'region-box' || (testId === 'masked-box' && this.options.onMaskedClick)) return;
      dragging = { x: event.clientX, y: event.clientY };
      viewport.setPointerCapture(event.pointerId);
    });
    viewport.addEventListener('pointermove', (event) => {
      if (drawingFrom && this.drawing) {
        this.setDraft(this.spanned(drawingFrom, this.imagePoint(viewport, event)));
        this.drawing(this.draft, false);
        return;
      }
      if (!dragging) return;
      this.transform = {
        ...this.transform,
        x: this.transform.x + event.clientX - dragging.x,
        y: this.transform.y + event.clientY - dragging.y,
      };
      dragging = { x: event.clientX, y: event.clientY };
      this.applyTransform();
    });
    viewport.addEventListener('pointerup', (event) => {
      dragging = undefined;
      if (drawingFrom && this.drawing) {
        this.setDraft(this.spanned(drawingFrom, this.imagePoint(viewport, event)));
        this.drawing(this.draft, true);
      }
      drawingFrom = undefined;
    });
    viewport.addEventListener('pointercancel', () => {
      dragging = undefined;
      drawingFrom = undefined;
    });
  }

  dispose(): void {
    if (this.blinkTimer !== undefined) window.clearInterval(this.blinkTimer);
  }
}

async function loadImage(source: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.src = source;
  await image.decode();
  return image;
}

/**
 * Diff highlight: the after image dimmed to grey, with every pixel whose colour differs from the
 * before image (beyond a small tolerance) painted in the theme's highlight colour. Drawn over the
 * common area; the rest of a larger image is shown dimmed.
 */
async function drawDiff(canvas: HTMLCanvasElement, before: PanelImage, after: PanelImage): Promise<void> {
  const [beforeImage, afterImage] = await Promise.all([loadImage(before.dataUri), loadImage(after.dataUri)]);
  const width = Math.max(before.width, after.width);
  const height = Math.max(before.height, after.height);
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return;
  const scratch = document.createElement('canvas');
  scratch.width = width;
  scratch.height = height;
  const scratchContext = scratch.getContext('2d', { willReadFrequently: true });
  if (!scratchContext) return;
  scratchContext.drawImage(beforeImage, 0, 0);
  const beforePixels = scratchContext.getImageData(0, 0, width, height).data;
  scratchContext.clearRect(0, 0, width, height);
  scratchContext.drawImage(afterImage, 0, 0);
  const output = scratchContext.getImageData(0, 0, width, height);
  const afterPixels = output.data;
  const highlight = highlightColour(canvas);
  const commonWidth = Math.min(before.width, after.width);
  const commonHeight = Math.min(before.height, after.height);
  let changed = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inCommon = x < commonWidth && y < commonHeight;
      const delta = inCommon
        ? Math.abs(beforePixels[i] - afterPixels[i]) +
          Math.abs(beforePixels[i + 1] - afterPixels[i + 1]) +
          Math.abs(beforePixels[i + 2] - afterPixels[i + 2]) +
          Math.abs(beforePixels[i + 3] - afterPixels[i + 3])
        : 0;
      if (delta > 24) {
        afterPixels[i] = highlight[0];
        afterPixels[i + 1] = highlight[1];
        afterPixels[i + 2] = highlight[2];
        afterPixels[i + 3] = 255;
        changed++;
      } else {
        const grey = 0.3 * afterPixels[i] + 0.59 * afterPixels[i + 1] + 0.11 * afterPixels[i + 2];
        const dimmed = 128 + (grey - 128) * 0.35;
        afterPixels[i] = dimmed;
        afterPixels[i + 1] = dimmed;
        afterPixels[i + 2] = dimmed;
      }
    }
  }
  context.putImageData(output, 0, 0);
  canvas.dataset.changedPixels = String(changed);
}

/** The theme's error/diff colour as RGB (falls back to red). */
function highlightColour(element: Element): [number, number, number] {
  const value = getComputedStyle(element).getPropertyValue('--vscode-editorError-foreground').trim();
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(value);
  if (match) return [parseInt(match[1], 16), parseInt(match[2], 16), parseInt(match[3], 16)];
  return [255, 0, 64];
}
