// Accepting a screenshot change overwrites the baseline image with the new one. It is the only
// write ProCap Review ever makes in a workspace, so: it needs a trusted workspace and an explicit
// modal confirmation naming the file; the real path is resolved and must be inside the workspace
// (a committed link out of it is refused); the old baseline is first backed up outside the workspace
// (the extension's global storage; the last BASELINE_BACKUPS_KEPT per file), the new one is written
// atomically (pure/baselineFiles.ts), and the last accepts can be undone.
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import type { Log } from './log.js';
import { baselineTargetProblem, undoNeedsConfirmation } from './pure/baselinePolicy.js';
import { acceptBaselineFile, BASELINE_BACKUPS_KEPT, resolveBaselineTarget, restoreBaselineFile } from './pure/baselineFiles.js';

interface AcceptRecord {
  baseline: string;
  backup: string;
  acceptedSha256: string;
  at: string;
}

const UNDO_STACK_KEY = 'procapReview.acceptedBaselines';
const UNDO_LIMIT = 50;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class BaselineStore {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {}

  private get records(): AcceptRecord[] {
    return this.context.globalState.get<AcceptRecord[]>(UNDO_STACK_KEY, []);
  }

  private async saveRecords(records: AcceptRecord[]): Promise<void> {
    await this.context.globalState.update(UNDO_STACK_KEY, records.slice(-UNDO_LIMIT));
  }

  get canUndo(): boolean {
    return this.records.length > 0;
  }

  /**
   * Overwrites `baseline` with `newImage` after the user confirms. Returns true when written.
   * Refuses anything that is not an existing PNG inside a workspace folder.
   */
  async accept(baseline: vscode.Uri, newImage: Uint8Array, newLabel: string): Promise<boolean> {
    const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const problem = baselineTargetProblem({ scheme: baseline.scheme, fsPath: baseline.fsPath }, roots, vscode.workspace.isTrusted);
    if (problem !== undefined) throw new Error(`refusing to write the baseline: ${problem}`);
    // before asking: a link out of the workspace is refused without a question
    try {
      resolveBaselineTarget(baseline.fsPath, roots);
    } catch (e) {
      throw new Error(`refusing to write the baseline: ${(e as Error).message}`);
    }
    const relative = vscode.workspace.asRelativePath(baseline, false);
    const choice = await vscode.window.showWarningMessage(
      `Accept the change? ${relative} will be overwritten with ${newLabel}.`,
      {
        modal: true,
        detail: `The current baseline is backed up first (the last ${BASELINE_BACKUPS_KEPT} per file are kept); "ProCap Review: Undo Last Baseline Accept" restores it.`,
      },
      'Accept and Overwrite',
    );
    if (choice !== 'Accept and Overwrite') {
      this.log.info(`accept cancelled for ${relative}`);
      return false;
    }
    const backupDir = vscode.Uri.joinPath(this.context.globalStorageUri, 'baseline-backups').fsPath;
    // resolved and checked again at the write (the file may have changed while the question was open)
    const written = acceptBaselineFile({ target: baseline.fsPath, workspaceRoots: roots, newImage, backupDir });
    const pruned = new Set(written.pruned.map((file) => vscode.Uri.file(file).toString()));
    const backup = vscode.Uri.file(written.backup);
    await this.saveRecords([
      ...this.records.filter((record) => !pruned.has(record.backup)),
      { baseline: baseline.toString(), backup: backup.toString(), acceptedSha256: sha256(newImage), at: new Date().toISOString() },
    ]);
    if (written.pruned.length) this.log.info(`pruned ${written.pruned.length} old backup(s) of ${relative}`);
    this.log.info(`accepted: ${relative} overwritten with ${newLabel}; backup at ${backup.fsPath}`);
    void vscode.window.showInformationMessage(`Baseline ${relative} updated.`, 'Undo').then((action) => {
      if (action === 'Undo') void this.undoLast();
    });
    return true;
  }

  /** Restores the baseline of the most recent accept from its backup. */
  async undoLast(): Promise<void> {
    const records = this.records;
    const last = records.at(-1);
    if (last === undefined) {
      void vscode.window.showInformationMessage('ProCap Review: there is no accepted baseline to undo.');
      return;
    }
    const baseline = vscode.Uri.parse(last.baseline);
    const relative = vscode.workspace.asRelativePath(baseline, false);
    let current: Uint8Array | undefined;
    try {
      current = await vscode.workspace.fs.readFile(baseline);
    } catch {
      current = undefined;
    }
    if (undoNeedsConfirmation(current === undefined ? undefined : sha256(current), last.acceptedSha256)) {
      const choice = await vscode.window.showWarningMessage(
        `${relative} has changed (or is gone) since it was accepted. Restore the backup anyway?`,
        { modal: true },
        'Restore Backup',
      );
      if (choice !== 'Restore Backup') return;
    }
    const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    try {
      restoreBaselineFile(baseline.fsPath, roots, vscode.Uri.parse(last.backup).fsPath);
    } finally {
      // restored, or impossible (backup gone, target now outside): either way this record is done
      await this.saveRecords(records.slice(0, -1));
    }
    this.log.info(`undo: ${relative} restored from ${vscode.Uri.parse(last.backup).fsPath}`);
    void vscode.window.showInformationMessage(`Baseline ${relative} restored.`);
  }
}
