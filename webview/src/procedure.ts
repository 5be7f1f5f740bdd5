// The procedure player for one region: the 9 frames (before, 7 in between, after) shown at the
// region's size with zoom, a scrubber with the keyframes marked, play/pause at a chosen speed, the
// filmstrip, the confidence score of each intermediate frame on a small plot, the model's imagined
// frames, and "Export animation" (the host saves the procedure as an animated PNG). The frames are
// the full-resolution ones over the region's box (procedure.full) where the report has them, else the
// model's 96 px frames of its square crop.
import type { ChangeRegion, ProcedureFrames, ReportImage } from '../../src/core/report.js';
import { PROCEDURE_FRAME_MS, procedureDelaysMs } from '../../src/core/procedure-timing.js';
import { h, svg, clear, regionName } from './dom.js';

/** Speeds offered: the time of an intermediate frame (before and after are held longer). */
const SPEEDS: Array<{ label: string; frameMs: number }> = [
  { label: '0.5×', frameMs: PROCEDURE_FRAME_MS * 2 },
  { label: '1×', frameMs: PROCEDURE_FRAME_MS },
  { label: '2×', frameMs: PROCEDURE_FRAME_MS / 2 },
];

/** Fixed zoom steps: the frame drawn at 1, 2 or 4 times the region's size in the screenshot. */
const ZOOM_STEPS = [1, 2, 4] as const;
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 8;
/** The largest side, in CSS pixels, a "fit" frame takes. */
const FIT_MAX_SIDE = 384;

/** "fit" (the frame as large as the player has room for) or a scale of the region's size. */
type Zoom = 'fit' | number;

function frameUri(frame: ReportImage): string {
  return `data:image/png;base64,${frame.pngBase64}`;
}

/** The frames the player shows: the full-resolution ones where present, else the 96 px ones. */
export function shownFrames(procedure: ProcedureFrames): ReportImage[] {
  return procedure.full?.frames.length ? procedure.full.frames : procedure.frames;
}

/** The width and height, in screenshot pixels, of what the shown frames cover. */
export function shownSize(procedure: ProcedureFrames, cropBox: readonly number[] | undefined): { width: number; height: number } {
  const full = procedure.full;
  if (full?.frames.length) return { width: full.box[2] - full.box[0], height: full.box[3] - full.box[1] };
  const side = cropBox ? Math.max(cropBox[2] - cropBox[0], cropBox[3] - cropBox[1], 1) : (procedure.frames[0]?.width ?? 96);
  return { width: side, height: side };
}

/** The largest side, in CSS pixels, of an imagined keyframe drawn over the region. */
const IMAGINED_MAX_SIDE = 240;

function frameLabel(index: number, count: number): string {
  return index === 0 ? 'before' : index === count - 1 ? 'after' : `t${index}`;
}

export class ProcedurePlayer {
  readonly element: HTMLElement;
  private procedure: ProcedureFrames | undefined;
  private region: ChangeRegion | undefined;
  private frameIndex = 0;
  private timer: number | undefined;
  private stage: HTMLImageElement | undefined;
  private viewport: HTMLElement | undefined;
  private scrubber: HTMLInputElement | undefined;
  private label: HTMLElement | undefined;
  private playButton: HTMLElement | undefined;
  private zoomButtons: HTMLElement[] = [];
  /** kept from region to region */
  private zoom: Zoom = 'fit';
  private frameMs = PROCEDURE_FRAME_MS;
  private readonly resize = new ResizeObserver(() => {
    if (this.zoom === 'fit') this.applyZoom();
  });

  /** `onExport` asks the host to save region `id`'s procedure as an animated PNG. */
  constructor(private readonly onExport: (regionId: number) => void) {
    this.element = h('section', { class: 'procedure', 'data-testid': 'procedure', 'aria-label': 'Imagined procedure' });
  }

  get playing(): boolean {
    return this.timer !== undefined;
  }

  /**
   * While true, a region without frames is waiting for them (the host imagines them after the
   * report) rather than having none; a string says why they could not be made.
   */
  framesPending: boolean | string = false;

  show(region: ChangeRegion | undefined): void {
    this.stop();
    this.resize.disconnect();
    clear(this.element);
    this.region = region;
    this.procedure = region?.procedure;
    this.frameIndex = 0;
    this.stage = undefined;
    this.scrubber = undefined;
    this.element.append(h('h2', {}, 'Imagined procedure'));
    this.element.removeAttribute('aria-busy');
    if (region !== undefined && this.procedure === undefined && this.framesPending === true && !region.noiseOnly) {
      this.element.setAttribute('aria-busy', 'true');
      this.element.append(
        h('p', { class: 'muted', 'data-testid': 'procedure-pending' }, 'Imagining the procedure…'),
        // the host waits for the frames before it saves them
        this.exportButton(region),
      );
      return;
    }
    if (region === undefined || this.procedure === undefined || this.procedure.frames.length === 0) {
      const why = typeof this.framesPending === 'string' ? `The procedure could not be imagined: ${this.framesPending}` : undefined;
      this.element.append(
        h(
          'p',
          { class: why ? 'error' : 'muted', 'data-testid': 'procedure-empty' },
          region === undefined ? 'No changed region.' : (why ?? 'No procedure frames for this region.'),
        ),
      );
      return;
    }
    const procedure = this.procedure;
    const frames = shownFrames(procedure);
    const count = frames.length;
    this.element.append(h('p', { class: 'muted' }, `${regionName(region.id)}: ${region.caption}`));

    this.stage = h('img', {
      class: 'procedure-stage',
      'data-testid': 'procedure-frame',
      alt: 'procedure frame 1',
      src: frameUri(frames[0]),
      'data-frame-index': 0,
      'data-full': procedure.full?.frames.length ? 'true' : 'false',
      'data-frame-width': frames[0].width,
      'data-frame-height': frames[0].height,
    });
    this.viewport = h('div', { class: 'procedure-viewport', 'data-testid': 'procedure-viewport' }, this.stage);

    this.scrubber = h('input', {
      type: 'range',
      min: 0,
      max: count - 1,
      step: 1,
      value: 0,
      class: 'procedure-scrubber',
      'data-testid': 'procedure-scrubber',
      'aria-label': 'Procedure frame',
    });
    this.scrubber.addEventListener('input', () => {
      this.stop();
      this.showFrame(Number(this.scrubber?.value ?? 0));
    });
    // the keyframes marked under the scrubber, at their frames' places
    const ticks = h('div', { class: 'scrubber-ticks', 'aria-hidden': 'true' });
    for (let index = 0; index < count; index++) {
      const isKeyframe = procedure.keyframes.includes(index);
      const tick = h(
        'span',
        {
          class: isKeyframe ? 'scrubber-tick keyframe' : 'scrubber-tick',
          'data-testid': isKeyframe ? 'scrubber-keyframe' : 'scrubber-tick',
          'data-frame-index': index,
          title: `${frameLabel(index, count)}${isKeyframe ? ' (keyframe)' : ''}`,
        },
        isKeyframe ? '★' : '·',
      );
      tick.addEventListener('click', () => {
        this.stop();
        this.showFrame(index);
      });
      ticks.append(tick);
    }
    this.label = h('output', { class: 'procedure-frame-label', 'data-testid': 'procedure-frame-label', 'aria-live': 'off' });

    this.playButton = h(
      'vscode-button',
      { 'data-testid': 'play', appearance: 'secondary', 'aria-label': 'Play the procedure (Space)' },
      'Play',
    );
    this.playButton.addEventListener('click', () => this.toggle());
    const speed = h('select', { class: 'procedure-speed', 'data-testid': 'procedure-speed', 'aria-label': 'Speed' });
    for (const option of SPEEDS) {
      speed.append(h('option', { value: option.frameMs, selected: option.frameMs === this.frameMs }, option.label));
    }
    speed.addEventListener('change', () => {
      this.frameMs = Number(speed.value);
      if (this.playing) {
        // the new speed from the next frame on
        this.stop();
        this.play();
      }
    });

    this.zoomButtons = [];
    const zoomButton = (label: string, testId: string, zoom: () => Zoom, ariaLabel: string, value?: Zoom) => {
      const element = h(
        'vscode-button',
        {
          'data-testid': testId,
          appearance: 'secondary',
          'aria-label': ariaLabel,
          'data-zoom': value === undefined ? undefined : String(value),
        },
        label,
      );
      element.addEventListener('click', () => this.setZoom(zoom()));
      if (value !== undefined) this.zoomButtons.push(element);
      return element;
    };
    const zoom = h(
      'div',
      { class: 'procedure-zoom', role: 'toolbar', 'aria-label': 'Zoom of the procedure frame' },
      zoomButton('−', 'procedure-zoom-out', () => this.currentScale() / 2, 'Zoom out'),
      zoomButton('Fit', 'procedure-zoom-fit', () => 'fit', 'Fit the frame to the player', 'fit'),
      ...ZOOM_STEPS.map((step) =>
        zoomButton(`${step}×`, `procedure-zoom-${step}`, () => step, `${step} times the region's size in the screenshot`, step),
      ),
      zoomButton('+', 'procedure-zoom-in', () => this.currentScale() * 2, 'Zoom in'),
    );

    const filmstrip = h('ol', { class: 'filmstrip', 'data-testid': 'filmstrip', 'aria-label': 'Interpolated frames' });
    frames.forEach((frame, index) => {
      const isKeyframe = procedure.keyframes.includes(index);
      const label = frameLabel(index, count);
      const item = h(
        'li',
        { class: isKeyframe ? 'keyframe' : undefined },
        h('img', {
          src: frameUri(frame),
          alt: `frame ${index} (${label})${isKeyframe ? ', keyframe' : ''}`,
          'data-testid': 'filmstrip-frame',
          'data-frame-index': index,
          'data-keyframe': isKeyframe ? 'true' : 'false',
          tabindex: 0,
        }),
        h('span', { class: 'frame-label' }, isKeyframe ? `★ ${label}` : label),
      );
      const pick = () => {
        this.stop();
        this.showFrame(index);
      };
      item.addEventListener('click', pick);
      item.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter') return;
        pick();
        event.preventDefault();
      });
      filmstrip.append(item);
    });

    const imagined = imaginedSection(procedure, shownSize(procedure, region.cropBox));

    this.element.append(
      h(
        'div',
        { class: 'procedure-top' },
        h(
          'div',
          { class: 'procedure-player' },
          this.viewport,
          h('div', { class: 'procedure-scrub' }, this.scrubber, ticks, this.label),
          h(
            'div',
            { class: 'procedure-controls', role: 'toolbar', 'aria-label': 'Procedure player' },
            this.playButton,
            h('label', { class: 'procedure-speed-label' }, 'Speed ', speed),
            this.exportButton(region),
          ),
          zoom,
        ),
        h('div', { class: 'procedure-plot' }, h('h3', {}, 'Keyframe confidence'), confidencePlot(procedure)),
        imagined,
      ),
      filmstrip,
    );
    this.showFrame(0);
    this.applyZoom();
    this.resize.observe(this.element);
  }

  private exportButton(region: ChangeRegion): HTMLElement {
    const element = h(
      'vscode-button',
      {
        'data-testid': 'export-animation',
        appearance: 'secondary',
        'aria-label': `Export the procedure of ${regionName(region.id)} as an animated PNG`,
      },
      'Export animation…',
    );
    element.addEventListener('click', () => this.onExport(region.id));
    return element;
  }

  /** The size, in screenshot pixels, of what the frames show (the full box, or the square crop box). */
  private regionSize(): { width: number; height: number } {
    return this.procedure ? shownSize(this.procedure, this.region?.cropBox) : { width: 96, height: 96 };
  }

  /** The longer side of what the frames show, in screenshot pixels. */
  private regionSide(): number {
    const { width, height } = this.regionSize();
    return Math.max(width, height);
  }

  /** The side "fit" draws at: as wide as the player has room for, at most FIT_MAX_SIDE. */
  private fitSide(): number {
    const room = this.element.clientWidth > 0 ? this.element.clientWidth - 16 : FIT_MAX_SIDE;
    return Math.max(96, Math.min(FIT_MAX_SIDE, room));
  }

  /** The scale of the region's size now shown (for "fit" too), so +/− step from what is seen. */
  private currentScale(): number {
    return this.zoom === 'fit' ? this.fitSide() / this.regionSide() : this.zoom;
  }

  setZoom(zoom: Zoom): void {
    this.zoom = zoom === 'fit' ? 'fit' : Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
    this.applyZoom();
  }

  private applyZoom(): void {
    if (!this.stage || !this.viewport) return;
    const side = Math.round(this.zoom === 'fit' ? this.fitSide() : this.regionSide() * this.zoom);
    // the frame keeps the region's proportions: its longer side is `side`
    const size = this.regionSize();
    const longer = Math.max(size.width, size.height);
    const width = Math.max(1, Math.round((side * size.width) / longer)),
      height = Math.max(1, Math.round((side * size.height) / longer));
    // the frame is drawn with crisp pixels (CSS image-rendering) at the chosen size; the viewport
    // scrolls when it is larger than the room there is
    this.stage.style.width = `${width}px`;
    this.stage.style.height = `${height}px`;
    this.viewport.style.width = `${Math.min(width, this.fitSide())}px`;
    this.viewport.style.height = `${Math.min(height, this.fitSide())}px`;
    this.stage.dataset.zoom = String(this.zoom);
    this.stage.dataset.side = String(side);
    for (const button of this.zoomButtons) {
      const active = button.dataset.zoom === String(this.zoom);
      button.setAttribute('appearance', active ? 'primary' : 'secondary');
      button.setAttribute('aria-pressed', String(active));
    }
  }

  private showFrame(index: number): void {
    if (!this.procedure || !this.stage) return;
    const frames = shownFrames(this.procedure);
    const count = frames.length;
    const isKeyframe = this.procedure.keyframes.includes(index);
    const text = `frame ${index + 1} of ${count}: ${frameLabel(index, count)}${isKeyframe ? ', keyframe' : ''}`;
    this.frameIndex = index;
    this.stage.src = frameUri(frames[index]);
    this.stage.alt = `procedure frame ${index + 1} of ${count}`;
    this.stage.dataset.frameIndex = String(index);
    if (this.scrubber) {
      this.scrubber.value = String(index);
      this.scrubber.setAttribute('aria-valuetext', text);
    }
    if (this.label) this.label.textContent = text;
    for (const frame of this.element.querySelectorAll<HTMLElement>('[data-testid="filmstrip-frame"]')) {
      frame.classList.toggle('current', frame.dataset.frameIndex === String(index));
    }
    for (const tick of this.element.querySelectorAll<HTMLElement>('.scrubber-tick')) {
      tick.classList.toggle('current', tick.dataset.frameIndex === String(index));
    }
  }

  toggle(): void {
    if (this.playing) this.stop();
    else this.play();
  }

  play(): void {
    if (!this.procedure || this.playing) return;
    const count = shownFrames(this.procedure).length;
    const delays = procedureDelaysMs(count, this.frameMs);
    // from the start again when the last frame is shown
    if (this.frameIndex === count - 1) this.showFrame(0);
    const next = () => {
      this.timer = window.setTimeout(() => {
        this.showFrame((this.frameIndex + 1) % count);
        next();
      }, delays[this.frameIndex]);
    };
    next();
    if (this.playButton) this.playButton.textContent = 'Pause';
    this.playButton?.setAttribute('aria-label', 'Pause the procedure (Space)');
    this.element.dataset.playing = 'true';
  }

  stop(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.playButton) this.playButton.textContent = 'Play';
    this.playButton?.setAttribute('aria-label', 'Play the procedure (Space)');
    this.element.dataset.playing = 'false';
  }
}

/**
 * The model's imagined keyframes. With full frames: each drawn over the before image at the region's
 * place and size (procedure.full.imagined: the share of the change the imagined frame shows, patch by
 * patch, applied to the real images), with that share. Without them, the 96 px decodes as they are,
 * said to be too blurred to read.
 */
function imaginedSection(procedure: ProcedureFrames, size: { width: number; height: number }): HTMLElement {
  const full = procedure.full?.imagined?.length ? procedure.full : undefined;
  const longer = Math.max(size.width, size.height, 1);
  const shown = Math.min(IMAGINED_MAX_SIDE, longer) / longer;
  const frames = full?.imagined ?? procedure.imagined;
  return h(
    'div',
    { class: 'imagined', 'data-testid': 'imagined' },
    h('h3', {}, 'Imagined keyframes'),
    h(
      'p',
      { class: 'muted imagined-note', 'data-testid': 'imagined-note' },
      full
        ? 'What the model imagines at its keyframes, over the before image: each 16 px patch of its crop shows as much of the change as the imagined frame does there. Its own 96 px pictures are too blurred to read.'
        : "The model's 96 px pictures of its crop (16 px per code): too blurred to read on their own.",
    ),
    ...frames.map((frame, index) => {
      const image = h('img', {
        src: frameUri(frame),
        alt: `imagined frame ${index + 1}`,
        'data-testid': 'imagined-frame',
        'data-imagined-index': index,
        class: full ? 'over-region' : undefined,
      });
      if (full) {
        image.style.width = `${Math.round(size.width * shown)}px`;
        image.style.height = `${Math.round(size.height * shown)}px`;
      }
      return h(
        'figure',
        {},
        image,
        h(
          'figcaption',
          {},
          `keyframe ${procedure.keyframes[index] ?? index + 1}` +
            (full?.imaginedShare?.[index] !== undefined ? `: ${Math.round(full.imaginedShare[index] * 100)}% of the change` : ''),
        ),
      );
    }),
  );
}

/** Scores of the 7 intermediate frames as a line, with the sampled keyframes as filled markers. */
function confidencePlot(procedure: ProcedureFrames): SVGElement {
  const width = 220;
  const height = 90;
  const pad = 14;
  const scores = procedure.scores;
  const max = Math.max(...scores, 1e-6);
  const min = Math.min(...scores, 0);
  const xAt = (i: number) => pad + (scores.length <= 1 ? 0 : (i * (width - 2 * pad)) / (scores.length - 1));
  const yAt = (s: number) => height - pad - ((s - min) / (max - min || 1)) * (height - 2 * pad);
  const plot = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    class: 'confidence-plot',
    'data-testid': 'confidence-plot',
    role: 'img',
    'aria-label': `confidence of frames 1 to ${scores.length}; keyframes ${procedure.keyframes.join(', ')}`,
  });
  plot.append(svg('line', { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: 'axis' }));
  plot.append(svg('polyline', { points: scores.map((s, i) => `${xAt(i)},${yAt(s)}`).join(' '), class: 'score-line' }));
  scores.forEach((score, i) => {
    const frameIndex = i + 1; // scores[0] is frame 1
    const isKeyframe = procedure.keyframes.includes(frameIndex);
    const marker = svg(
      'circle',
      {
        cx: xAt(i),
        cy: yAt(score),
        r: isKeyframe ? 5 : 3,
        class: isKeyframe ? 'keyframe-marker' : 'score-marker',
        'data-testid': isKeyframe ? 'keyframe-marker' : 'score-marker',
        'data-frame-index': frameIndex,
      },
      svg('title', {}, `frame ${frameIndex}: ${score.toFixed(3)}${isKeyframe ? ' (keyframe)' : ''}`),
    );
    plot.append(marker);
    plot.append(svg('text', { x: xAt(i), y: height - 2, class: 'tick' }, String(frameIndex)));
  });
  return plot;
}
