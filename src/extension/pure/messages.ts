// The messages exchanged between the extension host and the review panel's webview.
// Imported by both sides (the host bundle and webview/src). No `vscode` import here:
// plain TypeScript so the validators are unit-tested with node:test.
//
// A webview is a web page: anything it posts is untrusted input to the host, and the host
// validates every message with `parseWebviewMessage` before acting on it. The webview validates
// what the host sends with `parseHostMessage` too, so a malformed report fails loudly.

import type { Box, ChangeReport, ProcedureFrames } from '../../core/report.js';

export const VIEW_MODES = ['side-by-side', 'swipe', 'onion', 'blink', 'diff'] as const;
export type ViewMode = (typeof VIEW_MODES)[number];

export const EXPORT_FORMATS = ['html', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** One side of a comparison as the webview gets it: an image it may display, plus a label. */
export interface PanelImage {
  /** data:image/png;base64,... (the CSP allows data: images only besides the extension's own media). */
  dataUri: string;
  label: string;
  width: number;
  height: number;
}

/** Host -> webview. */
export type HostMessage =
  | { type: 'loading'; title: string; beforeLabel: string; afterLabel: string }
  /** the captions, sent as soon as they exist (the procedure frames take longer) */
  | { type: 'captions'; title: string; captions: Array<{ id: number; kind: string; caption: string; noiseOnly: boolean }> }
  | {
      type: 'report';
      title: string;
      report: ChangeReport;
      before: PanelImage;
      after: PanelImage;
      /** true when this pair has a baseline file the user may accept the change into. */
      canAccept: boolean;
      /** true when the HTML exporter is available (else export offers JSON only). */
      canExportHtml: boolean;
      /**
       * Where an ignore region drawn in the panel is written: the workspace's procap.config.json
       * (`configFile`, as the user reads it) under `glob`. Absent when the panel cannot write one
       * (an untrusted workspace, a screenshot outside a workspace folder).
       */
      ignore?: IgnoreTarget;
      /** true while the procedure frames are being imagined: a 'procedure' message follows. */
      framesPending: boolean;
    }
  /**
   * The procedure frames of the report's regions (by region id; 0 is the whole-screen region),
   * imagined after the report was shown; `error` when they could not be made.
   */
  | { type: 'procedure'; title: string; frames: Array<{ id: number; procedure: ProcedureFrames }>; error?: string }
  | { type: 'error'; title: string; message: string }
  | { type: 'accepted'; message: string }
  /** an ignore region could not be added or removed: why (the config is not valid, ...) */
  | { type: 'ignoreFailed'; message: string };

export interface IgnoreTarget {
  configFile: string;
  glob: string;
}

/** Webview -> host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'copyText'; text: string }
  | { type: 'export'; format: ExportFormat }
  | { type: 'accept' }
  | { type: 'openImage'; side: 'before' | 'after' }
  | { type: 'retry' }
  /** add `box` (image pixels, x1/y1 exclusive) to procap.config.json as an ignore region of this screenshot */
  | { type: 'ignoreRegion'; box: Box }
  /** remove the ignore region the panel shows as `box` from procap.config.json */
  | { type: 'stopIgnoring'; box: Box }
  /** save the procedure of region `regionId` (0: the whole screen) as an animated PNG, where a save dialog says */
  | { type: 'exportProcedure'; regionId: number };

/** The largest image side read (docs: sides up to 65,535 px): no box coordinate lies beyond it. */
export const MAX_BOX_COORDINATE = 65_535;

/** Longest text the webview may ask the host to copy (a caption or a summary; a report's captions together stay far below). */
export const MAX_COPY_TEXT_CHARS = 20_000;

export class MessageValidationError extends Error {}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function expectOnlyKeys(message: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(message)) {
    if (!allowed.includes(key)) {
      throw new MessageValidationError(`unexpected field "${key}" in a "${String(message.type)}" message`);
    }
  }
}

/**
 * Validates a message posted by the webview. Returns the typed message or throws
 * MessageValidationError saying what is wrong. Unknown types and extra fields are refused so that
 * a compromised webview cannot smuggle arguments into a handler.
 */
export function parseWebviewMessage(raw: unknown): WebviewMessage {
  if (!isPlainObject(raw)) throw new MessageValidationError('a webview message must be an object');
  const type = raw.type;
  switch (type) {
    case 'ready':
    case 'accept':
    case 'retry':
      expectOnlyKeys(raw, ['type']);
      return { type };
    case 'copyText': {
      expectOnlyKeys(raw, ['type', 'text']);
      if (typeof raw.text !== 'string') throw new MessageValidationError('copyText.text must be a string');
      if (raw.text.length === 0) throw new MessageValidationError('copyText.text is empty');
      if (raw.text.length > MAX_COPY_TEXT_CHARS) {
        throw new MessageValidationError(`copyText.text is longer than ${MAX_COPY_TEXT_CHARS} characters`);
      }
      return { type, text: raw.text };
    }
    case 'export': {
      expectOnlyKeys(raw, ['type', 'format']);
      if (!EXPORT_FORMATS.includes(raw.format as ExportFormat)) {
        throw new MessageValidationError(`export.format must be one of ${EXPORT_FORMATS.join(', ')}`);
      }
      return { type, format: raw.format as ExportFormat };
    }
    case 'openImage': {
      expectOnlyKeys(raw, ['type', 'side']);
      if (raw.side !== 'before' && raw.side !== 'after') {
        throw new MessageValidationError('openImage.side must be "before" or "after"');
      }
      return { type, side: raw.side };
    }
    case 'exportProcedure':
      expectOnlyKeys(raw, ['type', 'regionId']);
      if (!Number.isSafeInteger(raw.regionId) || (raw.regionId as number) < 0) {
        throw new MessageValidationError('exportProcedure.regionId must be a region id: an integer >= 0');
      }
      return { type, regionId: raw.regionId as number };
    case 'ignoreRegion':
    case 'stopIgnoring':
      expectOnlyKeys(raw, ['type', 'box']);
      return { type, box: parseBox(raw.box, `${type}.box`) };
    default:
      throw new MessageValidationError(`unknown webview message type ${JSON.stringify(type)}`);
  }
}

/** A box [x0, y0, x1, y1] of image pixels: integers 0..MAX_BOX_COORDINATE, x0 < x1, y0 < y1. */
function parseBox(value: unknown, where: string): Box {
  if (
    !Array.isArray(value) ||
    value.length !== 4 ||
    !value.every((n) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= MAX_BOX_COORDINATE)
  ) {
    throw new MessageValidationError(`${where} must be [x0, y0, x1, y1]: four integers from 0 to ${MAX_BOX_COORDINATE}`);
  }
  const [x0, y0, x1, y1] = value as number[];
  if (!(x0 < x1 && y0 < y1)) throw new MessageValidationError(`${where} must have x0 < x1 and y0 < y1 (got ${JSON.stringify(value)})`);
  return [x0, y0, x1, y1];
}

function isBox(value: unknown): boolean {
  return Array.isArray(value) && value.length === 4 && value.every((n) => typeof n === 'number' && Number.isFinite(n));
}

function checkReportImage(value: unknown, where: string): void {
  if (!isPlainObject(value) || typeof value.pngBase64 !== 'string' || typeof value.width !== 'number' || typeof value.height !== 'number') {
    throw new MessageValidationError(`${where} must be {width, height, pngBase64}`);
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value.pngBase64)) throw new MessageValidationError(`${where}.pngBase64 is not base64`);
}

function checkRegion(value: unknown, where: string): void {
  if (!isPlainObject(value)) throw new MessageValidationError(`${where} must be an object`);
  if (typeof value.id !== 'number') throw new MessageValidationError(`${where}.id must be a number`);
  if (!isBox(value.boxBefore) || !isBox(value.boxAfter)) throw new MessageValidationError(`${where} boxes must be [x0,y0,x1,y1]`);
  if (typeof value.caption !== 'string') throw new MessageValidationError(`${where}.caption must be a string`);
  if (typeof value.kind !== 'string') throw new MessageValidationError(`${where}.kind must be a string`);
  if (typeof value.confidence !== 'number') throw new MessageValidationError(`${where}.confidence must be a number`);
  if (typeof value.noiseOnly !== 'boolean') throw new MessageValidationError(`${where}.noiseOnly must be a boolean`);
  if (value.text !== undefined) {
    const text = value.text;
    if (
      !isPlainObject(text) ||
      (text.before !== undefined && typeof text.before !== 'string') ||
      (text.after !== undefined && typeof text.after !== 'string')
    ) {
      throw new MessageValidationError(`${where}.text must be {before?: string, after?: string}`);
    }
  }
  if (value.pushedBy !== undefined && typeof value.pushedBy !== 'number')
    throw new MessageValidationError(`${where}.pushedBy must be a number`);
  if (value.detail !== undefined && typeof value.detail !== 'string') throw new MessageValidationError(`${where}.detail must be a string`);
  if (value.captionSource !== undefined && value.captionSource !== 'reader' && value.captionSource !== 'model') {
    throw new MessageValidationError(`${where}.captionSource must be "reader" or "model"`);
  }
  if (value.procedure !== undefined) checkProcedure(value.procedure, `${where}.procedure`);
}

function checkProcedure(procedure: unknown, where: string): void {
  if (!isPlainObject(procedure)) throw new MessageValidationError(`${where} must be an object`);
  if (!Array.isArray(procedure.frames)) throw new MessageValidationError(`${where}.frames must be an array`);
  procedure.frames.forEach((frame, index) => checkReportImage(frame, `${where}.frames[${index}]`));
  if (!Array.isArray(procedure.imagined)) throw new MessageValidationError(`${where}.imagined must be an array`);
  procedure.imagined.forEach((frame, index) => checkReportImage(frame, `${where}.imagined[${index}]`));
  if (!Array.isArray(procedure.scores) || !procedure.scores.every((s) => typeof s === 'number')) {
    throw new MessageValidationError(`${where}.scores must be numbers`);
  }
  if (!Array.isArray(procedure.keyframes) || !procedure.keyframes.every((k) => Number.isInteger(k))) {
    throw new MessageValidationError(`${where}.keyframes must be integers`);
  }
  if (procedure.full !== undefined) checkFullFrames(procedure.full, `${where}.full`);
}

function checkFullFrames(full: unknown, where: string): void {
  if (!isPlainObject(full)) throw new MessageValidationError(`${where} must be an object`);
  if (!isBox(full.box)) throw new MessageValidationError(`${where}.box must be [x0,y0,x1,y1]`);
  if (typeof full.scale !== 'number' || !(full.scale > 0)) throw new MessageValidationError(`${where}.scale must be a positive number`);
  if (!Array.isArray(full.frames)) throw new MessageValidationError(`${where}.frames must be an array`);
  full.frames.forEach((frame, index) => checkReportImage(frame, `${where}.frames[${index}]`));
  if (full.imagined !== undefined) {
    if (!Array.isArray(full.imagined)) throw new MessageValidationError(`${where}.imagined must be an array`);
    full.imagined.forEach((frame, index) => checkReportImage(frame, `${where}.imagined[${index}]`));
  }
  if (full.imaginedShare !== undefined && (!Array.isArray(full.imaginedShare) || !full.imaginedShare.every((s) => typeof s === 'number'))) {
    throw new MessageValidationError(`${where}.imaginedShare must be numbers`);
  }
}

function checkPanelImage(value: unknown, where: string): void {
  if (!isPlainObject(value)) throw new MessageValidationError(`${where} must be an object`);
  if (typeof value.dataUri !== 'string' || !value.dataUri.startsWith('data:image/png;base64,')) {
    throw new MessageValidationError(`${where}.dataUri must be a data:image/png;base64 URI`);
  }
  if (typeof value.label !== 'string') throw new MessageValidationError(`${where}.label must be a string`);
  if (typeof value.width !== 'number' || typeof value.height !== 'number') {
    throw new MessageValidationError(`${where}.width/height must be numbers`);
  }
}

/** Validates a message from the host (run in the webview). Throws MessageValidationError. */
export function parseHostMessage(raw: unknown): HostMessage {
  if (!isPlainObject(raw)) throw new MessageValidationError('a host message must be an object');
  switch (raw.type) {
    case 'loading':
      if (typeof raw.title !== 'string' || typeof raw.beforeLabel !== 'string' || typeof raw.afterLabel !== 'string') {
        throw new MessageValidationError('loading needs title, beforeLabel and afterLabel strings');
      }
      return raw as HostMessage;
    case 'error':
      if (typeof raw.title !== 'string' || typeof raw.message !== 'string') {
        throw new MessageValidationError('error needs title and message strings');
      }
      return raw as HostMessage;
    case 'accepted':
    case 'ignoreFailed':
      if (typeof raw.message !== 'string') throw new MessageValidationError(`${raw.type} needs a message string`);
      return raw as HostMessage;
    case 'captions':
      if (typeof raw.title !== 'string' || !Array.isArray(raw.captions))
        throw new MessageValidationError('captions needs a title and a captions array');
      raw.captions.forEach((item, index) => {
        if (
          !isPlainObject(item) ||
          typeof item.id !== 'number' ||
          typeof item.kind !== 'string' ||
          typeof item.caption !== 'string' ||
          typeof item.noiseOnly !== 'boolean'
        ) {
          throw new MessageValidationError(`captions[${index}] must be {id, kind, caption, noiseOnly}`);
        }
      });
      return raw as HostMessage;
    case 'report': {
      if (typeof raw.title !== 'string') throw new MessageValidationError('report.title must be a string');
      if (typeof raw.canAccept !== 'boolean' || typeof raw.canExportHtml !== 'boolean' || typeof raw.framesPending !== 'boolean') {
        throw new MessageValidationError('report.canAccept/canExportHtml/framesPending must be booleans');
      }
      if (raw.ignore !== undefined) {
        const ignore = raw.ignore;
        if (!isPlainObject(ignore) || typeof ignore.configFile !== 'string' || typeof ignore.glob !== 'string' || ignore.glob === '') {
          throw new MessageValidationError('report.ignore must be {configFile, glob} strings');
        }
      }
      checkPanelImage(raw.before, 'report.before');
      checkPanelImage(raw.after, 'report.after');
      const report = raw.report;
      if (!isPlainObject(report)) throw new MessageValidationError('report.report must be an object');
      if (typeof report.summary !== 'string') throw new MessageValidationError('report.summary must be a string');
      if (typeof report.changed !== 'boolean') throw new MessageValidationError('report.changed must be a boolean');
      if (!Array.isArray(report.regions)) throw new MessageValidationError('report.regions must be an array');
      report.regions.forEach((region, index) => checkRegion(region, `report.regions[${index}]`));
      if (report.global !== undefined) checkRegion(report.global, 'report.global');
      // the ignore regions: drawn hatched over both images
      if (!Array.isArray(report.masked)) throw new MessageValidationError('report.masked must be an array of [x0,y0,x1,y1] boxes');
      report.masked.forEach((box, index) => {
        if (!isBox(box) || (box as number[])[0] >= (box as number[])[2] || (box as number[])[1] >= (box as number[])[3]) {
          throw new MessageValidationError(`report.masked[${index}] must be [x0,y0,x1,y1] with x0 < x1 and y0 < y1`);
        }
      });
      if (report.belowThreshold !== undefined) {
        const under = report.belowThreshold;
        if (
          !isPlainObject(under) ||
          typeof under.reason !== 'string' ||
          typeof under.diffPixels !== 'number' ||
          typeof under.ratio !== 'number'
        ) {
          throw new MessageValidationError('report.belowThreshold must be {diffPixels, ratio, reason}');
        }
      }
      return raw as HostMessage;
    }
    case 'procedure':
      if (typeof raw.title !== 'string' || !Array.isArray(raw.frames)) {
        throw new MessageValidationError('procedure needs a title and a frames array');
      }
      if (raw.error !== undefined && typeof raw.error !== 'string') throw new MessageValidationError('procedure.error must be a string');
      raw.frames.forEach((item, index) => {
        if (!isPlainObject(item) || typeof item.id !== 'number')
          throw new MessageValidationError(`procedure.frames[${index}] must be {id, procedure}`);
        checkProcedure(item.procedure, `procedure.frames[${index}].procedure`);
      });
      return raw as HostMessage;
    default:
      throw new MessageValidationError(`unknown host message type ${JSON.stringify(raw.type)}`);
  }
}
