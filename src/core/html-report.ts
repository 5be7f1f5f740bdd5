// Self-contained HTML gallery of ChangeReports (the page a reviewer opens from CI): captions,
// the change boxes drawn over both screenshots, and per region the procedure filmstrip (before,
// 7 interpolated frames with their confidence scores, keyframes marked, after) and the imagined
// frames, and the procedure playing as an animated PNG. Every image is a data: URI; no script, no
// external resource (a strict CSP says so).
import type { Box, ChangeRegion, ChangeReport, ReportImage } from './report.js';
import { procedureApng } from './apng.js';

/** The largest side, in CSS pixels, at which the page shows a region's animated procedure. */
const MAX_SHOWN_ANIMATION = 384;

export interface GalleryEntry {
  /** a name for the pair, e.g. its relative path. */
  name: string;
  /** 'compared' entries carry a report; the others say why there is none. */
  status: 'compared' | 'added' | 'removed' | 'error';
  report?: ChangeReport;
  error?: string;
  /** PNG bytes of the two screenshots, embedded as data URIs when given. */
  beforePng?: Uint8Array;
  afterPng?: Uint8Array;
}

export interface GalleryOptions {
  title?: string;
  /** a line under the title, e.g. the command or refs compared. */
  subtitle?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function pngDataUri(bytes: Uint8Array): string {
  return `data:image/png;base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64')}`;
}

function reportImageUri(image: ReportImage): string {
  return `data:image/png;base64,${image.pngBase64}`;
}

const KIND_COLOURS: Record<string, string> = {
  none: '#8a8a8a',
  move: '#1f77b4',
  reorder: '#17becf',
  resize: '#9467bd',
  color: '#d62728',
  text: '#2ca02c',
  add: '#2ca02c',
  remove: '#d62728',
  icon: '#ff7f0e',
  font: '#8c564b',
  spacing: '#bcbd22',
  opacity: '#7f7f7f',
  theme: '#e377c2',
  reflow: '#c7c7c7',
  size: '#000000',
};

function colourOf(kind: string): string {
  return KIND_COLOURS[kind] ?? '#ff00ff';
}

/** The ignore regions, hatched: grey diagonal stripes over a light veil, a dashed outline. */
function maskedRects(masked: readonly Box[], width: number, height: number, patternId: string): string {
  if (!masked.length) return '';
  const step = Math.max(8, Math.round(Math.max(width, height) / 120));
  const defs =
    `<defs><pattern id="${patternId}" patternUnits="userSpaceOnUse" width="${step}" height="${step}" patternTransform="rotate(45)">` +
    `<rect width="${step}" height="${step}" fill="rgba(255,255,255,0.35)"/><rect width="${Math.max(2, step / 3)}" height="${step}" fill="rgba(90,90,90,0.55)"/></pattern></defs>`;
  const stroke = Math.max(1, Math.round(Math.max(width, height) / 600));
  return (
    defs +
    masked
      .map(
        ([x0, y0, x1, y1]) =>
          `<rect class="masked" x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="url(#${patternId})" stroke="#5a5a5a" stroke-width="${stroke}" stroke-dasharray="${stroke * 4} ${stroke * 2}"><title>${escapeHtml(`ignored (masked): [${x0}, ${y0}, ${x1}, ${y1}]`)}</title></rect>`,
      )
      .join('')
  );
}

/** An image with the ignore regions hatched and the region boxes drawn over it (inline SVG, scales with the image). */
function boxedImage(
  src: string,
  width: number,
  height: number,
  regions: ChangeRegion[],
  side: 'before' | 'after',
  label: string,
  masked: readonly Box[] = [],
  patternId = 'masked-hatch',
): string {
  const rects = regions
    .map((r) => {
      const [x0, y0, x1, y1]: Box = side === 'before' ? r.boxBefore : r.boxAfter;
      const stroke = Math.max(2, Math.round(Math.max(width, height) / 400));
      const dash = r.noiseOnly ? ` stroke-dasharray="${stroke * 3} ${stroke * 2}"` : '';
      return (
        `<rect x="${x0}" y="${y0}" width="${Math.max(1, x1 - x0)}" height="${Math.max(1, y1 - y0)}" fill="none" stroke="${colourOf(r.kind)}" stroke-width="${stroke}"${dash}><title>${escapeHtml(`#${r.id} ${r.kind}: ${r.caption}`)}</title></rect>` +
        `<text x="${x0 + 2}" y="${Math.max(12, y0 - 3)}" font-size="${Math.max(12, stroke * 6)}" fill="${colourOf(r.kind)}" font-family="sans-serif">${r.id}</text>`
      );
    })
    .join('');
  return (
    `<figure class="shot"><div class="boxed"><img alt="${escapeHtml(label)}" src="${src}" width="${width}" height="${height}">` +
    `<svg viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" aria-hidden="true">${maskedRects(masked, width, height, patternId)}${rects}</svg></div>` +
    `<figcaption>${escapeHtml(label)} (${width}x${height})</figcaption></figure>`
  );
}

/** The size an embedded animation is shown at: the full frames' box, or the square crop box, at most MAX_SHOWN_ANIMATION. */
function animationSize(region: ChangeRegion): [number, number] {
  const p = region.procedure;
  if (p?.full?.frames.length) {
    const [w, h] = [p.full.box[2] - p.full.box[0], p.full.box[3] - p.full.box[1]];
    const fit = Math.min(1, MAX_SHOWN_ANIMATION / Math.max(w, h));
    return [Math.round(w * fit), Math.round(h * fit)];
  }
  const side = p?.frames[0] ? p.frames[0].width : 0;
  const cropSide = Math.max(region.cropBox[2] - region.cropBox[0], region.cropBox[3] - region.cropBox[1]);
  const shown = Math.min(MAX_SHOWN_ANIMATION, Math.max(side, cropSide));
  return [shown, shown];
}

function filmstrip(region: ChangeRegion): string {
  const p = region.procedure;
  if (!p) return '';
  const frames = p.frames
    .map((f, i) => {
      const isKey = p.keyframes.includes(i);
      const score = i >= 1 && i <= p.scores.length ? `w=${p.scores[i - 1].toFixed(3)}` : i === 0 ? 'before' : 'after';
      return (
        `<figure class="frame${isKey ? ' key' : ''}"><img alt="frame ${i}" src="${reportImageUri(f)}" width="${f.width}" height="${f.height}">` +
        `<figcaption>${i}${isKey ? ' &#9733; key' : ''}<br>${escapeHtml(score)}</figcaption></figure>`
      );
    })
    .join('');
  const imagined = p.imagined
    .map(
      (f, i) =>
        `<figure class="frame imagined"><img alt="imagined ${i + 1}" src="${reportImageUri(f)}" width="${f.width}" height="${f.height}"><figcaption>imagined ${i + 1}</figcaption></figure>`,
    )
    .join('');
  // the procedure playing, as one animated PNG, at about the region's size with crisp pixels: the
  // full-resolution frames over the region's box where the report has them
  const [shownWidth, shownHeight] = animationSize(region);
  const animation = p.frames.length
    ? `<figure class="animation"><img alt="${escapeHtml(`the procedure of #${region.id}, playing`)}" src="${pngDataUri(procedureApng(p))}" width="${shownWidth}" height="${shownHeight}">` +
      `<figcaption>procedure (animated)</figcaption></figure>`
    : '';
  return (
    `<div class="procedure">${animation}<div class="strip" title="interpolated procedure; keyframes marked">${frames}</div>` +
    `<div class="strip imagined-strip" title="frames imagined by the procedure queries">${imagined}</div></div>`
  );
}

function regionRow(r: ChangeRegion, label = `#${r.id}`): string {
  const conf = `${Math.round(r.confidence * 100)}%`;
  return (
    `<li class="region${r.noiseOnly ? ' noise' : ''}"><span class="badge" style="background:${colourOf(r.kind)}">${escapeHtml(r.kind)}</span> ` +
    `<b>${escapeHtml(label)}</b> ${escapeHtml(r.caption)} <span class="meta">confidence ${conf}, ${r.diffPixels} px differ, box [${r.boxBefore.join(', ')}]${r.noiseOnly ? ', anti-aliasing / sub-pixel noise only' : ''}</span>` +
    filmstrip(r) +
    '</li>'
  );
}

function entrySection(entry: GalleryEntry, index: number): string {
  const head = `<h2 id="pair-${index}">${escapeHtml(entry.name)}</h2>`;
  if (entry.status !== 'compared' || !entry.report) {
    const text =
      entry.status === 'added'
        ? 'screenshot added (only in the new set)'
        : entry.status === 'removed'
          ? 'screenshot removed (only in the old set)'
          : `error: ${entry.error ?? 'unknown'}`;
    return `<section class="pair ${entry.status}">${head}<p class="status">${escapeHtml(text)}</p></section>`;
  }
  const r = entry.report;
  const masked = r.masked ?? [];
  const shots = [
    entry.beforePng
      ? boxedImage(
          pngDataUri(entry.beforePng),
          r.before.width,
          r.before.height,
          r.regions,
          'before',
          'before',
          masked,
          `hatch-${index}-before`,
        )
      : '',
    entry.afterPng
      ? boxedImage(pngDataUri(entry.afterPng), r.after.width, r.after.height, r.regions, 'after', 'after', masked, `hatch-${index}-after`)
      : '',
  ].join('');
  const maskedLine = masked.length
    ? `<p class="masked">ignored (masked, drawn hatched): ${escapeHtml(masked.map((b) => `[${b.join(', ')}]`).join(' '))}</p>`
    : '';
  const underLine = r.belowThreshold ? `<p class="threshold">under the threshold: ${escapeHtml(r.belowThreshold.reason)}</p>` : '';
  const regions = r.regions.map((x) => regionRow(x)).join('');
  const global = r.global ? regionRow(r.global, 'whole screen') : '';
  return (
    `<section class="pair ${r.changed ? 'changed' : 'unchanged'}">${head}` +
    `<p class="summary">${escapeHtml(r.summary)}</p>` +
    (r.sizeChange ? `<p class="size">${escapeHtml(r.sizeChange)}</p>` : '') +
    underLine +
    maskedLine +
    `<div class="shots">${shots}</div>` +
    (global || regions ? `<ol class="regions">${global}${regions}</ol>` : '') +
    `<p class="meta">provider ${escapeHtml(r.provider)} (${escapeHtml(r.providerReason)}), ${escapeHtml(r.modelVersion)}, ${Math.round(r.timings.totalMs)} ms</p>` +
    '</section>'
  );
}

const STYLE = `
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.4em}h2{font-size:1.1em;margin-bottom:.2em}
.pair{background:#fff;border:1px solid #ddd;border-radius:6px;padding:1em;margin:1em 0}
.pair.changed{border-left:6px solid #d62728}.pair.unchanged{border-left:6px solid #2ca02c}
.pair.added,.pair.removed{border-left:6px solid #ff7f0e}.pair.error{border-left:6px solid #000}
.summary{font-size:1.1em;font-weight:600}.meta{color:#666;font-size:.85em}
.shots{display:flex;gap:1em;flex-wrap:wrap}.shot{margin:0;max-width:48%}
.boxed{position:relative;display:inline-block;max-width:100%}
.boxed img{display:block;max-width:100%;height:auto;border:1px solid #ccc}
.boxed svg{position:absolute;left:0;top:0;width:100%;height:100%}
.regions li{margin:.6em 0}.badge{color:#fff;border-radius:3px;padding:0 .4em;font-size:.85em}
.region.noise{opacity:.75}.masked,.threshold{color:#555;font-size:.9em}
.strip{display:flex;gap:4px;margin-top:.4em;flex-wrap:wrap}
.frame{margin:0;text-align:center;font-size:.75em;color:#555}
.frame img{width:72px;height:72px;image-rendering:pixelated;border:2px solid #ddd}
.frame.key img{border-color:#ff7f0e}
.animation{margin:.4em 0}.animation img{max-width:100%;height:auto;image-rendering:pixelated;border:2px solid #ddd}.animation figcaption{font-size:.75em;color:#555}.frame.imagined img{border-color:#1f77b4}
table.index td,table.index th{padding:.1em .6em;text-align:left}
`;

/** The whole gallery page as one HTML string. */
export function renderGallery(entries: GalleryEntry[], options: GalleryOptions = {}): string {
  const title = options.title ?? 'ProCap Review report';
  const changed = entries.filter((e) => e.report?.changed || e.status === 'added' || e.status === 'removed').length;
  const errors = entries.filter((e) => e.status === 'error').length;
  const index = entries
    .map(
      (e, i) =>
        `<tr><td><a href="#pair-${i}">${escapeHtml(e.name)}</a></td><td>${escapeHtml(
          e.status === 'compared' ? (e.report?.changed ? 'changed' : 'unchanged') : e.status,
        )}</td><td>${escapeHtml(e.report?.summary ?? e.error ?? '')}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${options.subtitle ? `<p class="meta">${escapeHtml(options.subtitle)}</p>` : ''}
<p>${entries.length} pair(s): ${changed} with changes, ${entries.length - changed - errors} unchanged, ${errors} error(s).</p>
<table class="index"><tr><th>pair</th><th>status</th><th>summary</th></tr>${index}</table>
${entries.map(entrySection).join('\n')}
</body></html>
`;
}
