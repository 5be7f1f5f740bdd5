// The procedure player for one region: the 9 frames (before, 7 interpolated, after) as a
// filmstrip and as an animation, the confidence score of each intermediate frame on a small plot
// with the sampled keyframes marked, and the model's imagined frames beside them.
import type { ChangeRegion, ProcedureFrames, ReportImage } from '../../src/core/report.js';
import { h, svg, clear, regionName } from './dom.js';

const FRAME_MS = 300;

function frameUri(frame: ReportImage): string {
  return `data:image/png;base64,${frame.pngBase64}`;
}

export class ProcedurePlayer {
  readonly element: HTMLElement;
  private procedure: ProcedureFrames | undefined;
  private frameIndex = 0;
  private timer: number | undefined;
  private stage: HTMLImageElement | undefined;
  private playButton: HTMLElement | undefined;

  constructor() {
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
    clear(this.element);
    this.procedure = region?.procedure;
    this.frameIndex = 0;
    this.element.append(h('h2', {}, 'Imagined procedure'));
    this.element.removeAttribute('aria-busy');
    if (region !== undefined && this.procedure === undefined && this.framesPending === true && !region.noiseOnly) {
      this.element.setAttribute('aria-busy', 'true');
      this.element.append(h('p', { class: 'muted', 'data-testid': 'procedure-pending' }, 'Imagining the procedure…'));
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
    this.element.append(h('p', { class: 'muted' }, `${regionName(region.id)}: ${region.caption}`));

    this.stage = h('img', {
      class: 'procedure-stage',
      'data-testid': 'procedure-frame',
      alt: 'procedure frame 1',
      src: frameUri(procedure.frames[0]),
      'data-frame-index': 0,
    });
    this.playButton = h(
      'vscode-button',
      { 'data-testid': 'play', appearance: 'secondary', 'aria-label': 'Play the procedure (Space)' },
      'Play',
    );
    this.playButton.addEventListener('click', () => this.toggle());

    const filmstrip = h('ol', { class: 'filmstrip', 'data-testid': 'filmstrip', 'aria-label': 'Interpolated frames' });
    procedure.frames.forEach((frame, index) => {
      const isKeyframe = procedure.keyframes.includes(index);
      const label = index === 0 ? 'before' : index === procedure.frames.length - 1 ? 'after' : `t${index}`;
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
      item.addEventListener('click', () => {
        this.stop();
        this.showFrame(index);
      });
      filmstrip.append(item);
    });

    const imagined = h(
      'div',
      { class: 'imagined', 'data-testid': 'imagined' },
      h('h3', {}, 'Imagined keyframes'),
      ...procedure.imagined.map((frame, index) =>
        h(
          'figure',
          {},
          h('img', {
            src: frameUri(frame),
            alt: `imagined frame ${index + 1}`,
            'data-testid': 'imagined-frame',
            'data-imagined-index': index,
          }),
          h('figcaption', {}, `keyframe ${procedure.keyframes[index] ?? index + 1}`),
        ),
      ),
    );

    this.element.append(
      h(
        'div',
        { class: 'procedure-top' },
        h('div', { class: 'procedure-player' }, this.stage, h('div', { class: 'procedure-controls' }, this.playButton)),
        h('div', { class: 'procedure-plot' }, h('h3', {}, 'Keyframe confidence'), confidencePlot(procedure)),
        imagined,
      ),
      filmstrip,
    );
    this.showFrame(0);
  }

  private showFrame(index: number): void {
    if (!this.procedure || !this.stage) return;
    this.frameIndex = index;
    this.stage.src = frameUri(this.procedure.frames[index]);
    this.stage.alt = `procedure frame ${index + 1} of ${this.procedure.frames.length}`;
    this.stage.dataset.frameIndex = String(index);
    for (const frame of this.element.querySelectorAll<HTMLElement>('[data-testid="filmstrip-frame"]')) {
      frame.classList.toggle('current', frame.dataset.frameIndex === String(index));
    }
  }

  toggle(): void {
    if (this.playing) this.stop();
    else this.play();
  }

  play(): void {
    if (!this.procedure || this.playing) return;
    const count = this.procedure.frames.length;
    this.timer = window.setInterval(() => this.showFrame((this.frameIndex + 1) % count), FRAME_MS);
    if (this.playButton) this.playButton.textContent = 'Pause';
    this.element.dataset.playing = 'true';
  }

  stop(): void {
    if (this.timer !== undefined) window.clearInterval(this.timer);
    this.timer = undefined;
    if (this.playButton) this.playButton.textContent = 'Play';
    this.element.dataset.playing = 'false';
  }
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
