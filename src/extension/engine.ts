// Owns the one Reviewer (src/core/reviewer.ts, which runs the models in a worker thread) for the
// whole extension: created on first use, rebuilt when an engine setting changes, disposed on
// deactivation. Results are cached by the two images' content hashes, so the PR tree, the inline
// annotations and the panel never describe the same pair twice.
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { Reviewer } from '../core/reviewer.js';
import type { ChangeRegion, ChangeReport } from '../core/report.js';
import { readSettings, type ReviewSettings } from './settings.js';
import type { Log } from './log.js';
import { projectSettingsFor } from './projectConfig.js';

const CACHE_LIMIT = 200;

export class Engine implements vscode.Disposable {
  private reviewer: Reviewer | undefined;
  private readonly cache = new Map<string, ChangeReport>();
  private readonly inFlight = new Map<string, Promise<ChangeReport>>();
  private providerNoticeShown = false;

  /**
   * @param modelsDir the models/ folder shipped inside the extension
   * @param workerPath dist/core-worker.cjs: the engine's worker thread, bundled beside dist/extension.cjs
   */
  constructor(
    private readonly modelsDir: string,
    private readonly workerPath: string,
    private readonly log: Log,
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
  }

  cached(before: Uint8Array, after: Uint8Array): ChangeReport | undefined {
    return this.cache.get(pairKey(before, after));
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
    // the workspace folder's procap.config.json: masks and thresholds of this screenshot
    const project = projectSettingsFor(screenshot);
    const key = pairKey(before, after) + (project ? `:${JSON.stringify(project)}` : '');
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const running = this.inFlight.get(key);
    if (running !== undefined && token === undefined) return running;

    const abort = new AbortController();
    const subscription = token?.onCancellationRequested(() => abort.abort());
    const started = Date.now();
    const work = (async () => {
      try {
        const report = await this.getReviewer().describe(before, after, {
          signal: abort.signal,
          beforeName: names?.before,
          afterName: names?.after,
          ...(project ?? {}),
          onCaptions: onCaptions === undefined ? undefined : (regions) => onCaptions(regions),
        });
        this.log.info(`described ${label} in ${Date.now() - started} ms on ${report.provider}: ${report.summary}`);
        this.noteProvider(report);
        this.remember(key, report);
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

  private remember(key: string, report: ChangeReport): void {
    this.cache.set(key, report);
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
  }
}

export function pairKey(before: Uint8Array, after: Uint8Array): string {
  const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  return `${hash(before)}:${hash(after)}`;
}
