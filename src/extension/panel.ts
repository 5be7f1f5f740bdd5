// Hosts the review panel (a webview). One panel, reused: each comparison replaces the last.
// Security: the page is self-contained (its script and stylesheet inline under a per-load nonce,
// strict CSP in pure/webviewHtml.ts), so it may load no resource at all (localResourceRoots is
// empty); every message it posts is validated (pure/messages.ts) before anything happens, and
// screenshots reach it as data: URIs. Inline also means no first-load race with VS Code's
// webview resource service worker (seen in code-server: a panel stuck at "Loading…").
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ChangeReport } from '../core/report.js';
import { buildWebviewHtml, createNonce } from './pure/webviewHtml.js';
import { parseWebviewMessage, MessageValidationError, type HostMessage, type PanelImage, type WebviewMessage } from './pure/messages.js';
import { screenshotOf, type Comparison } from './comparison.js';
import type { Engine } from './engine.js';
import type { BaselineStore } from './baseline.js';
import type { Log } from './log.js';
import { describeError } from './log.js';
import { isCancellation, reportError } from './errors.js';
import { readSettings } from './settings.js';
import { exportProcedure, exportReport, htmlExportAvailable } from './exportReport.js';
import { ignoreDestinationOf, ignoreFailure, IgnoreRegions, reportIgnoreFailure } from './ignoreRegions.js';
import type { Box } from '../core/report.js';

interface LoadedComparison {
  comparison: Comparison;
  /** the report shown: without procedure frames until `framed` settles, then with them */
  report: ChangeReport;
  beforeBytes: Uint8Array;
  afterBytes: Uint8Array;
  /** the report with its procedure frames, imagined after the report is shown (undefined: nothing to imagine) */
  framed?: Promise<ChangeReport | undefined>;
}

/** Whether a report carries procedure frames. */
function hasFrames(report: ChangeReport): boolean {
  return report.global?.procedure !== undefined || report.regions.some((r) => r.procedure !== undefined);
}

/** Whether a report has regions whose procedure the player would show. */
function hasFramesToImagine(report: ChangeReport): boolean {
  return report.global !== undefined || report.regions.some((r) => !r.noiseOnly && r.kind !== 'none');
}

export class ReviewPanel implements vscode.Disposable {
  static readonly viewType = 'procapReview.panel';
  private panel: vscode.WebviewPanel | undefined;
  private current: Comparison | undefined;
  private loaded: LoadedComparison | undefined;
  private lastMessage: HostMessage | undefined;
  private cancelCurrent: vscode.CancellationTokenSource | undefined;
  /** cancels the procedure frames being imagined for the comparison shown */
  private cancelFrames: vscode.CancellationTokenSource | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly ignores: IgnoreRegions;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly engine: Engine,
    private readonly baselines: BaselineStore,
    private readonly log: Log,
  ) {
    this.ignores = new IgnoreRegions(log);
  }

  /** Opens (or reuses) the panel and describes `comparison` in it. */
  async show(comparison: Comparison): Promise<ChangeReport | undefined> {
    this.cancelCurrent?.cancel();
    this.cancelFrames?.cancel();
    this.cancelFrames = undefined;
    const cancellation = new vscode.CancellationTokenSource();
    this.cancelCurrent = cancellation;
    this.current = comparison;
    this.loaded = undefined;
    this.ensurePanel(comparison.title);
    this.post({ type: 'loading', title: comparison.title, beforeLabel: comparison.before.label, afterLabel: comparison.after.label });
    try {
      const report = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `ProCap: describing ${comparison.title}`, cancellable: false },
        async () => {
          const [beforeBytes, afterBytes] = await Promise.all([comparison.before.read(), comparison.after.read()]);
          const hideNoise = readSettings().antiAliasing === 'ignore';
          const described = await this.engine.describe(
            beforeBytes,
            afterBytes,
            comparison.title,
            cancellation.token,
            { before: comparison.before.label, after: comparison.after.label },
            (regions) => {
              // first captions while the procedure frames are still being computed
              if (this.current !== comparison) return;
              const captions = regions
                .filter((r) => !(hideNoise && r.noiseOnly))
                .map((r) => ({ id: r.id, kind: r.kind, caption: r.caption, noiseOnly: r.noiseOnly }));
              this.post({ type: 'captions', title: comparison.title, captions });
            },
            screenshotOf(comparison),
          );
          return { described, beforeBytes, afterBytes };
        },
      );
      if (this.current !== comparison) return report.described; // a newer comparison replaced this one
      const loaded: LoadedComparison = {
        comparison,
        report: report.described,
        beforeBytes: report.beforeBytes,
        afterBytes: report.afterBytes,
      };
      this.loaded = loaded;
      if (hasFramesToImagine(loaded.report)) loaded.framed = this.imagineFrames(loaded);
      this.post(this.reportMessage(loaded));
      return report.described;
    } catch (error) {
      if (isCancellation(error)) return undefined;
      if (this.current === comparison) this.post({ type: 'error', title: comparison.title, message: describeError(error) });
      void reportError(this.log, `could not describe ${comparison.title}`, error);
      return undefined;
    } finally {
      cancellation.dispose();
      if (this.cancelCurrent === cancellation) this.cancelCurrent = undefined;
    }
  }

  /**
   * The procedure frames of the comparison shown, imagined after its report: the player asks for
   * them by being on the page. Sent as a 'procedure' message; a page that reloads later gets the
   * report with its frames.
   */
  private async imagineFrames(loaded: LoadedComparison): Promise<ChangeReport | undefined> {
    const cancellation = new vscode.CancellationTokenSource();
    this.cancelFrames = cancellation;
    const { comparison } = loaded;
    try {
      const framed = await this.engine.procedure(
        loaded.beforeBytes,
        loaded.afterBytes,
        comparison.title,
        cancellation.token,
        { before: comparison.before.label, after: comparison.after.label },
        screenshotOf(comparison),
      );
      if (this.loaded !== loaded) return framed;
      loaded.report = framed;
      const frames = [...framed.regions, ...(framed.global ? [framed.global] : [])].flatMap((r) =>
        r.procedure ? [{ id: r.id, procedure: r.procedure }] : [],
      );
      this.lastMessage = this.reportMessage(loaded);
      void this.panel?.webview.postMessage({ type: 'procedure', title: comparison.title, frames } satisfies HostMessage);
      return framed;
    } catch (error) {
      if (isCancellation(error)) return undefined;
      this.log.error(`could not imagine the procedure of ${comparison.title}: ${describeError(error)}`);
      if (this.loaded === loaded) {
        this.lastMessage = this.reportMessage({ ...loaded, framed: undefined });
        void this.panel?.webview.postMessage({
          type: 'procedure',
          title: comparison.title,
          frames: [],
          error: describeError(error),
        } satisfies HostMessage);
      }
      return undefined;
    } finally {
      cancellation.dispose();
      if (this.cancelFrames === cancellation) this.cancelFrames = undefined;
    }
  }

  private reportMessage(loaded: LoadedComparison): HostMessage {
    const { comparison, report } = loaded;
    // antiAliasing "ignore": regions that are only anti-aliasing noise are not listed
    const shown: ChangeReport =
      readSettings().antiAliasing === 'ignore' ? { ...report, regions: report.regions.filter((region) => !region.noiseOnly) } : report;
    const image = (bytes: Uint8Array, label: string, size: { width: number; height: number }): PanelImage => ({
      dataUri: `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`,
      label,
      width: size.width,
      height: size.height,
    });
    return {
      type: 'report',
      title: comparison.title,
      report: shown,
      before: image(loaded.beforeBytes, comparison.before.label, report.before),
      after: image(loaded.afterBytes, comparison.after.label, report.after),
      canAccept: comparison.baseline !== undefined && vscode.workspace.isTrusted,
      canExportHtml: htmlExportAvailable(),
      ...this.ignoreTargetMessage(comparison),
      framesPending: loaded.framed !== undefined && !hasFrames(loaded.report),
    };
  }

  private ignoreTargetMessage(comparison: Comparison): { ignore?: { configFile: string; glob: string } } {
    const target = ignoreDestinationOf(screenshotOf(comparison));
    return target === undefined ? {} : { ignore: { configFile: target.configFile, glob: target.glob } };
  }

  /** Adds or removes an ignore region of the shown pair, then describes the pair again with the new masks. */
  private async editIgnoreRegion(kind: 'add' | 'remove', box: Box): Promise<void> {
    const loaded = this.loaded;
    const target = ignoreDestinationOf(loaded && screenshotOf(loaded.comparison));
    if (loaded === undefined || target === undefined) {
      this.log.error('the panel asked to edit an ignore region where it offers none: ignored');
      return;
    }
    const { comparison, report } = loaded;
    // the compared area: the common part of the two images (masks are clipped to it)
    const area = { width: Math.min(report.before.width, report.after.width), height: Math.min(report.before.height, report.after.height) };
    if (kind === 'add' && (box[2] > area.width || box[3] > area.height)) {
      this.postTransient({
        type: 'ignoreFailed',
        message: `${JSON.stringify(box)} lies outside the compared area (${area.width}×${area.height})`,
      });
      return;
    }
    const again = () => {
      if (this.current === comparison) void this.show(comparison);
    };
    try {
      const outcome = kind === 'add' ? await this.ignores.add(target, box, again) : await this.ignores.remove(target, box, area, again);
      if (outcome.written) again();
      else if (outcome.message !== undefined) this.postTransient({ type: 'ignoreFailed', message: outcome.message });
    } catch (error) {
      this.postTransient({ type: 'ignoreFailed', message: ignoreFailure(error) });
      void reportIgnoreFailure(
        this.log,
        target,
        kind === 'add' ? 'could not add the ignore region' : 'could not remove the ignore region',
        error,
      );
    }
  }

  private ensurePanel(title: string): void {
    if (this.panel !== undefined) {
      this.panel.title = `ProCap: ${title}`;
      this.panel.reveal(undefined, true);
      return;
    }
    const page = this.pageSources();
    const panel = vscode.window.createWebviewPanel(
      ReviewPanel.viewType,
      `ProCap: ${title}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        enableCommandUris: false,
        enableForms: false,
        retainContextWhenHidden: true,
        localResourceRoots: [], // the page loads nothing: script, style and images are inline
      },
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.svg');
    const webview = panel.webview;
    webview.onDidReceiveMessage(
      (raw: unknown) => {
        void this.onMessage(raw);
      },
      undefined,
      this.disposables,
    );
    panel.onDidDispose(
      () => {
        this.panel = undefined;
        this.cancelCurrent?.cancel();
      },
      undefined,
      this.disposables,
    );
    this.panel = panel;
    void page
      .then((sources) => {
        if (this.panel !== panel) return;
        webview.html = buildWebviewHtml({ nonce: createNonce((size) => randomBytes(size)), ...sources });
      })
      .catch((error) => {
        void reportError(this.log, 'could not load the review panel page (reinstall the extension)', error);
      });
  }

  private pageSourcesCache: Promise<{ scriptText: string; styleText: string }> | undefined;

  /** dist/webview.js and media/panel.css, read once. */
  private pageSources(): Promise<{ scriptText: string; styleText: string }> {
    this.pageSourcesCache ??= (async () => {
      const file = (...parts: string[]) => vscode.Uri.joinPath(this.extensionUri, ...parts).fsPath;
      const [scriptText, styleText] = await Promise.all([
        readFile(file('dist', 'webview.js'), 'utf8'),
        readFile(file('media', 'panel.css'), 'utf8'),
      ]);
      return { scriptText, styleText };
    })();
    this.pageSourcesCache.catch(() => {
      this.pageSourcesCache = undefined;
    });
    return this.pageSourcesCache;
  }

  private post(message: HostMessage): void {
    this.lastMessage = message;
    void this.panel?.webview.postMessage(message);
  }

  /** A message about an action, not the panel's state: a reloaded page does not get it again. */
  private postTransient(message: HostMessage): void {
    void this.panel?.webview.postMessage(message);
  }

  private async onMessage(raw: unknown): Promise<void> {
    let message: WebviewMessage;
    try {
      message = parseWebviewMessage(raw);
    } catch (error) {
      if (error instanceof MessageValidationError) {
        this.log.error('ignored an invalid message from the review panel', error);
        return;
      }
      throw error;
    }
    try {
      await this.handle(message);
    } catch (error) {
      void reportError(this.log, `panel action "${message.type}" failed`, error);
    }
  }

  private async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        // the page (re)loaded: give it the current state again
        if (this.lastMessage !== undefined) void this.panel?.webview.postMessage(this.lastMessage);
        return;
      case 'copyText':
        await vscode.env.clipboard.writeText(message.text);
        void vscode.window.setStatusBarMessage('ProCap: caption copied', 3000);
        return;
      case 'export': {
        const loaded = this.loaded;
        if (loaded === undefined) return;
        // the export shows the procedure: wait for the frames if they are still being imagined
        const framed = loaded.framed ? await loaded.framed : undefined;
        await exportReport(
          {
            report: framed ?? loaded.report,
            title: loaded.comparison.title,
            beforeBytes: loaded.beforeBytes,
            afterBytes: loaded.afterBytes,
          },
          message.format,
          this.log,
        );
        return;
      }
      case 'exportProcedure': {
        const loaded = this.loaded;
        if (loaded === undefined) return;
        // the player may offer the export while the frames are still being imagined: wait for them
        const framed = loaded.framed ? await loaded.framed : undefined;
        if (this.loaded !== loaded) return; // another comparison replaced it meanwhile
        await exportProcedure({ report: framed ?? loaded.report, title: loaded.comparison.title }, message.regionId, this.log);
        return;
      }
      case 'accept': {
        const loaded = this.loaded;
        if (loaded?.comparison.baseline === undefined) {
          this.log.error('the panel asked to accept a comparison that has no baseline: ignored');
          return;
        }
        const written = await this.baselines.accept(loaded.comparison.baseline, loaded.afterBytes, loaded.comparison.after.label);
        if (written)
          this.post({
            type: 'accepted',
            message: `Baseline ${vscode.workspace.asRelativePath(loaded.comparison.baseline, false)} updated (undo: "ProCap Review: Undo Last Baseline Accept").`,
          });
        return;
      }
      case 'openImage': {
        const side = this.current?.[message.side];
        if (side?.fileUri !== undefined) await vscode.commands.executeCommand('vscode.open', side.fileUri, vscode.ViewColumn.Active);
        return;
      }
      case 'retry':
        if (this.current !== undefined) await this.show(this.current);
        return;
      case 'ignoreRegion':
        await this.editIgnoreRegion('add', message.box);
        return;
      case 'stopIgnoring':
        await this.editIgnoreRegion('remove', message.box);
        return;
    }
  }

  dispose(): void {
    this.cancelCurrent?.cancel();
    this.cancelFrames?.cancel();
    this.panel?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
