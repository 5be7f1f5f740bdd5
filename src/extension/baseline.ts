// Accepting a screenshot change overwrites the baseline image with the new one. It is the only
// write ProCap Review ever makes in a workspace, so: it needs a trusted workspace and an explicit
// modal confirmation naming the file, the old baseline is first backed up outside the workspace
// (the extension's global storage), and the last accepts can be undone.
import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { Log } from './log.js';

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
  constructor(private readonly context: vscode.ExtensionContext, private readonly log: Log) {}

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
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('ProCap Review does not write baselines in an untrusted workspace.');
      return false;
    }
    if (baseline.scheme !== 'file' || !/\.png$/i.test(baseline.fsPath) || vscode.workspace.getWorkspaceFolder(baseline) === undefined) {
      throw new Error(`refusing to write ${baseline.toString()}: baselines must be PNG files inside a workspace folder`);
    }
    const relative = vscode.workspace.asRelativePath(baseline, false);
    const choice = await vscode.window.showWarningMessage(
      `Accept the change? ${relative} will be overwritten with ${newLabel}.`,
      { modal: true, detail: 'The current baseline is backed up first; "ProCap Review: Undo Last Baseline Accept" restores it.' },
      'Accept and Overwrite',
    );
    if (choice !== 'Accept and Overwrite') {
      this.log.info(`accept cancelled for ${relative}`);
      return false;
    }
    const oldBytes = await vscode.workspace.fs.readFile(baseline);
    const backupDir = vscode.Uri.joinPath(this.context.globalStorageUri, 'baseline-backups');
    await vscode.workspace.fs.createDirectory(backupDir);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backup = vscode.Uri.joinPath(backupDir, `${stamp}-${sha256(oldBytes).slice(0, 12)}-${path.basename(baseline.fsPath)}`);
    await vscode.workspace.fs.writeFile(backup, oldBytes);
    await vscode.workspace.fs.writeFile(baseline, newImage);
    await this.saveRecords([...this.records, { baseline: baseline.toString(), backup: backup.toString(), acceptedSha256: sha256(newImage), at: new Date().toISOString() }]);
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
    if (current !== undefined && sha256(current) !== last.acceptedSha256) {
      const choice = await vscode.window.showWarningMessage(
        `${relative} has changed since it was accepted. Restore the backup anyway?`, { modal: true }, 'Restore Backup');
      if (choice !== 'Restore Backup') return;
    }
    const backupBytes = await vscode.workspace.fs.readFile(vscode.Uri.parse(last.backup));
    await vscode.workspace.fs.writeFile(baseline, backupBytes);
    await this.saveRecords(records.slice(0, -1));
    this.log.info(`undo: ${relative} restored from ${vscode.Uri.parse(last.backup).fsPath}`);
    void vscode.window.showInformationMessage(`Baseline ${relative} restored.`);
  }
}
