// "Export report": writes the ChangeReport as a self-contained HTML page (src/core/html-report.ts:
// both screenshots, boxes, procedure frames, no script) or as JSON, to a location the user picks
// in a save dialog — never anywhere else.
import * as vscode from 'vscode';
import type { ChangeReport } from '../core/report.js';
import { renderGallery } from '../core/html-report.js';
import type { ExportFormat } from './pure/messages.js';
import type { Log } from './log.js';

export function htmlExportAvailable(): boolean {
  return true;
}

export interface ExportInput {
  report: ChangeReport;
  title: string;
  beforeBytes: Uint8Array;
  afterBytes: Uint8Array;
}

export async function exportReport(input: ExportInput, format: ExportFormat, log: Log): Promise<void> {
  const { report, title } = input;
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
  const text = useHtml
    ? renderGallery([{ name: title, status: 'compared', report, beforePng: input.beforeBytes, afterPng: input.afterBytes }], {
        title: `ProCap Review: ${title}`,
      })
    : JSON.stringify(report, null, 2);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  log.info(`exported the report of ${title} to ${target.fsPath}`);
  void vscode.window.showInformationMessage(`ProCap report saved to ${target.fsPath}.`);
}
