// "Export report": writes the ChangeReport as JSON (or HTML when the core's HTML renderer is
// available) to a location the user picks in a save dialog — never anywhere else.
import * as vscode from 'vscode';
import type { ChangeReport } from '../core/report.js';
import type { ExportFormat } from './pure/messages.js';
import type { Log } from './log.js';

/** True when src/core/html-report.ts is bundled (see scripts/build-extension.mjs). */
export function htmlExportAvailable(): boolean {
  return false;
}

export async function exportReport(report: ChangeReport, format: ExportFormat, title: string, log: Log): Promise<void> {
  const useHtml = format === 'html' && htmlExportAvailable();
  const extension = useHtml ? 'html' : 'json';
  const suggestedName = `${title.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'report'}.procap.${extension}`;
  const home = vscode.Uri.file(process.env.HOME ?? '/');
  const target = await vscode.window.showSaveDialog({
    title: 'Export ProCap report',
    defaultUri: vscode.Uri.joinPath(home, suggestedName),
    filters: useHtml ? { 'HTML report': ['html'] } : { 'JSON report': ['json'] },
    saveLabel: 'Export',
  });
  if (target === undefined) return; // the user cancelled: nothing is written
  const text = JSON.stringify(report, null, 2);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  log.info(`exported the report of ${title} to ${target.fsPath}`);
  void vscode.window.showInformationMessage(`ProCap report saved to ${target.fsPath}.`);
}
