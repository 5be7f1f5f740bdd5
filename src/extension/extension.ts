// Entry point: wires the parts together and nothing else. Each concern lives in its own module:
// engine.ts (the models), panel.ts (the review webview), commands.ts, git.ts, prReview.ts,
// snapshots.ts, annotations.ts, baseline.ts, settings.ts, log.ts.
import * as vscode from 'vscode';
import { createLog } from './log.js';
import { Engine } from './engine.js';
import { BaselineStore } from './baseline.js';
import { ReviewPanel } from './panel.js';
import { PrReviewTree } from './prReview.js';
import { SnapshotTree } from './snapshots.js';
import { InlineAnnotations } from './annotations.js';
import { registerCommands } from './commands.js';
import { affectsEngine, SETTINGS_SECTION } from './settings.js';
import { openRepositoryRoots } from './git.js';

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog(context);
  log.info(
    `ProCap Review ${context.extension.packageJSON.version as string} activating (workspace trusted: ${vscode.workspace.isTrusted})`,
  );
  const engine = new Engine(
    context.asAbsolutePath('models'),
    context.asAbsolutePath('dist/core-worker.cjs'),
    log,
    vscode.Uri.joinPath(context.globalStorageUri, 'optimised-models').fsPath,
  );
  const baselines = new BaselineStore(context, log);
  const panel = new ReviewPanel(context.extensionUri, engine, baselines, log);
  const prTree = new PrReviewTree(engine, log, context.workspaceState, openRepositoryRoots);
  const snapshotTree = new SnapshotTree(log);
  const annotations = new InlineAnnotations(engine, log);
  context.subscriptions.push(
    engine,
    panel,
    prTree,
    snapshotTree,
    annotations,
    vscode.window.createTreeView('procapReview.prReview', { treeDataProvider: prTree, showCollapseAll: false }),
    vscode.window.createTreeView('procapReview.snapshots', { treeDataProvider: snapshotTree }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsEngine(event)) engine.restart();
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.inlineAnnotations`)) {
        annotations.clear();
        annotations.refreshVisible();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log.info('workspace trusted: git features, annotations and baseline accept are on');
      annotations.refreshVisible();
    }),
  );
  registerCommands(context, { panel, prTree, snapshotTree, baselines, annotations, log });
  void snapshotTree.refresh().catch((error) => log.error('finding snapshot-test failures', error));
  annotations.refreshVisible();
}

export function deactivate(): void {
  // everything is disposed through context.subscriptions (the engine's worker included)
}
