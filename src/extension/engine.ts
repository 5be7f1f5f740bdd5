// Owns the one Reviewer (src/core/reviewer.ts, which runs the models in a worker thread) for the
// whole extension: created on first use, rebuilt when an engine setting changes, disposed on
// deactivation. Results are cached by the two images' content hashes, so the PR tree, the inline
// annotations and the panel never describe the same pair twice. Reports come without procedure
// frames; only the panel's player (and the HTML export) asks for them, through procedure().
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { KEPT_REVIEWS, Reviewer, type ReviewRequestOptions, type ReviewerReview } from '../core/reviewer.js';
import type { ChangeRegion, ChangeReport } from '../core/report.js';
import { readSettings, type ReviewSettings } from './settings.js';
import type { Log } from './log.js';
import { projectSettingsFor } from './projectConfig.js';

const CACHE_LIMIT = 200;

export class Engine implements vscode.Disposable {
  private reviewer: Reviewer | undefined;
  private readonly cache = new Map<string, ChangeReport>();
  /** the last few reviews, whose frames the worker can still imagine without describing again */
  private readonly reviews = new Map<string, ReviewerReview>();
  private readonly inFlight = new Map<string, Promise<ChangeReport>>();
  private providerNoticeShown = false;

  /**
   * @param modelsDir the models/ folder shipped inside the extension
   * @param workerPath dist/core-worker.cjs: the engine's worker thread, bundled beside dist/extension.cjs
   * @param cacheDir where the optimised models are kept between sessions (the extension's global storage)
   */
  constructor(
    private readonly modelsDir: string,
    private readonly workerPath: string,
    private readonly log: Log,
    private readonly cacheDir?: string,
  ) {}

  private getReviewer(): Reviewer {
    if (this.reviewer === undefined) {
      const settings: ReviewSettings = readSettings();
      this.log.info(
        `starting the engine: models ${this.modelsDir}, provider ${settings.executionProvider}, threads ${settings.threads || 'auto'}, keyframes ${settings.keyframes}, beam ${settings.beamWidth}`,
      );
      this.reviewer = new Reviewer({
        modelsDir: this.modelsDir,
        provider: settings.executionProvider,
        threads: settings.threads > 0 ? settings.threads : undefined,
        beamWidth: settings.beamWidth,
        keyframes: settings.keyframes,
        diffThreshold: settings.diffThreshold,
        maxImagePixels: settings.maxImagePixels,
        maxMemoryMB: settings.maxMemoryMB,
        workerPath: this.workerPath,
        cacheDir: this.cacheDir,
      });
    }
    return this.reviewer;
  }

  /** Settings changed: the next describe starts a fresh engine with the new options. */
  restart(): void {
    this.log.info('engine settings changed: the engine restarts on next use');
    void this.reviewer?.dispose();
    this.reviewer = undefined;
    this.cache.clear();
    this.reviews.clear();
  }

  cached(before: Uint8Array, after: Uint8Array): ChangeReport | undefined {
    return this.cache.get(pairKey(before, after));
  }

  /**
   * The cache key of a pair and the options it is described with: the names, and the masks and
   * thresholds the workspace folder's procap.config.json gives this screenshot (part of the key).
   */
  private requestFor(
    before: Uint8Array,
    after: Uint8Array,
    names?: { before: string; after: string },
    screenshot?: vscode.Uri,
  ): { key: string; options: ReviewRequestOptions } {
    const project = projectSettingsFor(screenshot);
    return {
      key: pairKey(before, after) + (project ? `:${JSON.stringify(project)}` : ''),
      options: { beforeName: names?.before, afterName: names?.after, ...(project ?? {}) },
    };
  }

  /**
   * The report of a pair described before, with its procedure frames: imagined now from what the
   * engine kept of that describe, or (when it was forgotten) by describing the pair again with frames.
   */
  async procedure(
    before: Uint8Array,
    after: Uint8Array,
    label: string,
    token?: vscode.CancellationToken,
    names?: { before: string; after: string },
    screenshot?: vscode.Uri,
  ): Promise<ChangeReport> {
    const { key, options } = this.requestFor(before, after, names, screenshot);
    const abort = new AbortController();
    const subscription = token?.onCancellationRequested(() => abort.abort());
    const started = Date.now();
    try {
      const kept = this.reviews.get(key);
      const report = kept
        ? await kept.withProcedure(abort.signal)
        : await this.getReviewer().describe(before, after, { ...options, signal: abort.signal, procedure: true });
      this.log.info(`procedure frames of ${label} in ${Date.now() - started} ms`);
      return report;
    } catch (error) {
      if (abort.signal.aborted || token?.isCancellationRequested) throw new vscode.CancellationError();
      throw error;
    } finally {
      subscription?.dispose();
    }
  }

  /**
   * Describes a pair. `label` names the pair in logs and errors. Cancelling the token aborts the
   * work in the engine (its AbortSignal) and rejects with vscode.CancellationError.
   */
  async describe(
    before: Uint8Array,
    after: Uint8Array,
    label: string,
    token?: vscode.CancellationToken,
    names?: { before: string; after: string },
    onCaptions?: (regions: ChangeRegion[]) => void,
    screenshot?: vscode.Uri,
  ): Promise<ChangeReport> {
    const { key, options } = this.requestFor(before, after, names, screenshot);
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const running = this.inFlight.get(key);
    if (running !== undefined && token === undefined) return running;

    const abort = new AbortController();
    const subscription = token?.onCancellationRequested(() => abort.abort());
    const started = Date.now();
    const work = (async () => {
      try {
        const reviewed = await this.getReviewer().review(before, after, {
          ...options,
          signal: abort.signal,
          onCaptions: onCaptions === undefined ? undefined : (regions) => onCaptions(regions),
        });
        const report = reviewed.report;
        this.log.info(`described ${label} in ${Date.now() - started} ms on ${report.provider}: ${report.summary}`);
        this.noteProvider(report);
        this.remember(key, reviewed);
        return report;
      } catch (error) {
        if (abort.signal.aborted || token?.isCancellationRequested) {
          this.log.info(`cancelled: ${label}`);
          throw new vscode.CancellationError();
        }
        throw error;
      } finally {
        subscription?.dispose();
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, work);
    return work;
  }

  private remember(key: string, reviewed: ReviewerReview): void {
    // a review holds the pair's PNG bytes (to describe again if the worker forgot it): only the
    // worker's own number of them is kept
    this.reviews.delete(key);
    this.reviews.set(key, reviewed);
    for (const old of this.reviews.keys()) if (this.reviews.size > KEPT_REVIEWS) this.reviews.delete(old);
    this.cache.set(key, reviewed.report);
    if (this.cache.size > CACHE_LIMIT) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  /** Says once per session when CUDA was asked for but the engine runs on CPU. */
  private noteProvider(report: ChangeReport): void {
    if (this.providerNoticeShown) return;
    if (readSettings().executionProvider === 'cuda' && report.provider === 'cpu') {
      this.providerNoticeShown = true;
      this.log.info(`provider: ${report.providerReason}`);
      void vscode.window.showWarningMessage(`ProCap Review runs on the CPU: ${report.providerReason}`, 'Use CPU').then((choice) => {
        if (choice === 'Use CPU') {
          void vscode.workspace.getConfiguration('procapReview').update('executionProvider', 'cpu', vscode.ConfigurationTarget.Global);
        }
      });
    }
  }

  dispose(): void {
    void this.reviewer?.dispose();
    this.reviewer = undefined;
    this.cache.clear();
    this.reviews.clear();
  }
}

export function pairKey(before: Uint8Array, after: Uint8Array): string {
  const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  return `${hash(before)}:${hash(after)}`;
}
