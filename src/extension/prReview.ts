// PR screenshot review: a tree of every PNG that changed between a base ref (default: the merge
// base with the default branch) and the working tree, captioned one by one in the background
// under a cancellable progress notification. Selecting an item opens the review panel. Items can
// be accepted (marked reviewed; undoable) and filtered by change kind and "no visible change".
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ChangeKind, ChangeReport } from '../core/report.js';
import { changedImages, defaultBaseRef } from './git.js';
import { fileSide, gitSide, screenshotOf, type Comparison } from './comparison.js';
import type { ChangedFile } from './pure/gitText.js';
import type { Engine } from './engine.js';
import type { Log } from './log.js';
import { isCancellation } from './errors.js';
import { describeError } from './log.js';

type EntryState = 'pending' | 'captioning' | 'done' | 'error' | 'not-comparable';

export interface PrEntry {
  root: string;
  baseRef: string;
  baseLabel: string;
  file: ChangedFile;
  state: EntryState;
  report?: ChangeReport;
  error?: string;
  accepted: boolean;
}

const ACCEPTED_KEY = 'procapReview.prAccepted';

/** The kinds a report shows (meaningful regions only), or ['none'] for "no visible change". */
export function reportKinds(report: ChangeReport): ChangeKind[] {
  if (!report.changed) return ['none'];
  const kinds = new Set<ChangeKind>();
  for (const region of report.regions) if (!region.noiseOnly) kinds.add(region.kind);
  if (report.global) kinds.add(report.global.kind);
  if (report.sizeChange) kinds.add('size');
  return kinds.size > 0 ? [...kinds] : ['none'];
}

const KIND_ICONS: Record<ChangeKind, string> = {
  none: 'pass',
  color: 'symbol-color',
  text: 'symbol-text',
  move: 'move',
  reorder: 'list-ordered',
  resize: 'screen-full',
  add: 'diff-added',
  remove: 'diff-removed',
  icon: 'symbol-misc',
  font: 'text-size',
  spacing: 'whitespace',
  opacity: 'eye',
  theme: 'color-mode',
  reflow: 'arrow-down',
  size: 'screen-normal',
};

export class PrItem extends vscode.TreeItem {
  constructor(readonly entry: PrEntry) {
    super(path.posix.basename(entry.file.path), vscode.TreeItemCollapsibleState.None);
    const status = entry.file.status === 'renamed' ? `renamed from ${entry.file.oldPath}` : entry.file.status;
    this.id = `${entry.root}::${entry.file.path}`;
    this.resourceUri = vscode.Uri.file(path.join(entry.root, entry.file.path));
    switch (entry.state) {
      case 'done': {
        const report = entry.report!;
        this.description = `${entry.accepted ? '✓ ' : ''}${report.summary}`;
        const kind = reportKinds(report)[0];
        this.iconPath = new vscode.ThemeIcon(KIND_ICONS[kind] ?? 'file-media');
        break;
      }
      case 'captioning':
        this.description = 'captioning…';
        this.iconPath = new vscode.ThemeIcon('loading~spin');
        break;
      case 'error':
        this.description = `error: ${entry.error}`;
        this.iconPath = new vscode.ThemeIcon('error');
        break;
      case 'not-comparable':
        this.description = status;
        this.iconPath = new vscode.ThemeIcon(entry.file.status === 'added' ? 'diff-added' : 'diff-removed');
        break;
      default:
        this.description = 'waiting';
        this.iconPath = new vscode.ThemeIcon('clock');
    }
    this.tooltip = new vscode.MarkdownString(undefined, false);
    this.tooltip.appendText(`${entry.file.path}\n${status} since ${entry.baseLabel}\n`);
    if (entry.report) this.tooltip.appendText(`\n${entry.report.summary}`);
    this.contextValue =
      entry.state === 'not-comparable' ? 'procapPrChange.notComparable' : entry.accepted ? 'procapPrChange.accepted' : 'procapPrChange';
    if (entry.state !== 'not-comparable') {
      this.command = { command: 'procapReview.prReview.open', title: 'Open in ProCap Review', arguments: [this] };
    }
  }
}

export class PrReviewTree implements vscode.TreeDataProvider<PrItem>, vscode.Disposable {
  private entries: PrEntry[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private kindFilter: Set<string> | undefined;
  private hideNoVisibleChange = false;
  private captioning: vscode.CancellationTokenSource | undefined;
  /** explicit base ref per repository root, chosen with "Set Base Ref" */
  private readonly baseOverride = new Map<string, string>();

  constructor(
    private readonly engine: Engine,
    private readonly log: Log,
    private readonly state: vscode.Memento,
    private readonly listRoots: () => Promise<string[]>,
  ) {}

  getTreeItem(item: PrItem): vscode.TreeItem {
    return item;
  }

  getChildren(): PrItem[] {
    return this.visibleEntries().map((entry) => new PrItem(entry));
  }

  visibleEntries(): PrEntry[] {
    return this.entries.filter((entry) => {
      if (entry.report === undefined) return this.kindFilter === undefined;
      const kinds = reportKinds(entry.report);
      if (this.hideNoVisibleChange && kinds.includes('none')) return false;
      if (this.kindFilter !== undefined && !kinds.some((kind) => this.kindFilter!.has(kind))) return false;
      return true;
    });
  }

  get allEntries(): readonly PrEntry[] {
    return this.entries;
  }

  setBaseRef(root: string, ref: string | undefined): void {
    if (ref === undefined) this.baseOverride.delete(root);
    else this.baseOverride.set(root, ref);
  }

  /** Lists the changed images again, then captions them in the background. */
  async refresh(): Promise<void> {
    this.captioning?.cancel();
    const accepted = new Set(this.state.get<string[]>(ACCEPTED_KEY, []));
    const entries: PrEntry[] = [];
    for (const root of await this.listRoots()) {
      const override = this.baseOverride.get(root);
      const base = override !== undefined ? { ref: override, description: override } : await defaultBaseRef(root);
      for (const file of await changedImages(root, base.ref)) {
        const comparable = file.status !== 'added' && file.status !== 'deleted';
        entries.push({
          root,
          baseRef: base.ref,
          baseLabel: base.description,
          file,
          state: comparable ? 'pending' : 'not-comparable',
          accepted: accepted.has(acceptKey(root, file.path)),
        });
      }
    }
    this.entries = entries;
    this.log.info(`PR review: ${entries.length} changed image(s)`);
    this.changed.fire();
    await vscode.commands.executeCommand('setContext', 'procapReview.prReview.hasEntries', entries.length > 0);
    void this.captionAll();
  }

  private async captionAll(): Promise<void> {
    const pending = this.entries.filter((entry) => entry.state === 'pending');
    if (pending.length === 0) return;
    const cancellation = new vscode.CancellationTokenSource();
    this.captioning = cancellation;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'ProCap: captioning changed screenshots', cancellable: true },
      async (progress, token) => {
        token.onCancellationRequested(() => cancellation.cancel());
        for (const [index, entry] of pending.entries()) {
          if (cancellation.token.isCancellationRequested) break;
          progress.report({ message: `${index + 1}/${pending.length} ${entry.file.path}`, increment: 100 / pending.length });
          entry.state = 'captioning';
          this.changed.fire();
          try {
            const comparison = this.comparison(entry);
            const [before, after] = await Promise.all([comparison.before.read(), comparison.after.read()]);
            entry.report = await this.engine.describe(
              before,
              after,
              comparison.title,
              cancellation.token,
              undefined,
              undefined,
              screenshotOf(comparison),
            );
            entry.state = 'done';
          } catch (error) {
            if (isCancellation(error)) {
              entry.state = 'pending';
              break;
            }
            entry.state = 'error';
            entry.error = describeError(error);
            this.log.error(`PR review: ${entry.file.path}`, error);
          }
          this.changed.fire();
        }
      },
    );
    if (this.captioning === cancellation) this.captioning = undefined;
    cancellation.dispose();
    this.changed.fire();
  }

  cancel(): void {
    this.captioning?.cancel();
  }

  comparison(entry: PrEntry): Comparison {
    const afterUri = vscode.Uri.file(path.join(entry.root, entry.file.path));
    const beforeUri = vscode.Uri.file(path.join(entry.root, entry.file.oldPath));
    const shortBase = /^[0-9a-f]{40,64}$/.test(entry.baseRef) ? entry.baseRef.slice(0, 8) : entry.baseRef;
    return {
      title: `${entry.file.path}: ${entry.baseLabel} ↔ working tree`,
      before: gitSide(entry.root, entry.baseRef, beforeUri, shortBase),
      after: fileSide(afterUri, `${entry.file.path} (working tree)`),
    };
  }

  async setAccepted(entry: PrEntry, accepted: boolean): Promise<void> {
    const keys = new Set(this.state.get<string[]>(ACCEPTED_KEY, []));
    const key = acceptKey(entry.root, entry.file.path);
    if (accepted) keys.add(key);
    else keys.delete(key);
    await this.state.update(ACCEPTED_KEY, [...keys]);
    entry.accepted = accepted;
    this.changed.fire();
  }

  setFilters(kinds: Set<string> | undefined, hideNoVisibleChange: boolean): void {
    this.kindFilter = kinds;
    this.hideNoVisibleChange = hideNoVisibleChange;
    void vscode.commands.executeCommand('setContext', 'procapReview.prReview.filtered', kinds !== undefined || hideNoVisibleChange);
    this.changed.fire();
  }

  get filters(): { kinds: Set<string> | undefined; hideNoVisibleChange: boolean } {
    return { kinds: this.kindFilter, hideNoVisibleChange: this.hideNoVisibleChange };
  }

  dispose(): void {
    this.captioning?.cancel();
    this.changed.dispose();
  }
}

function acceptKey(root: string, filePath: string): string {
  return `${root}::${filePath}`;
}
