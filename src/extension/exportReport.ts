// "Export report": writes the ChangeReport as a self-contained HTML page (src/core/html-report.ts:
// both screenshots, boxes, procedure frames, no script) or as JSON; "Export animation": one
// region's procedure as an animated PNG (src/core/apng.ts). Always to a location the user picks in
// a save dialog (which asks before replacing a file), never anywhere else.
import * as vscode from 'vscode';
import type { ChangeReport } from '../core/report.js';
import { renderGallery } from '../core/html-report.js';
import { animationScale, procedureApng } from '../core/apng.js';
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

/** A file name from a title: letters, digits, dot, dash and underscore only. */
function safeName(title: string): string {
  return title.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'report';
}

/**
 * Saves the procedure of region `regionId` (0: the whole screen) of `report` as an animated PNG at
 * about the region's size, looping. Returns the file written, or undefined (cancelled, no frames).
 */
export async function exportProcedure(
  input: { report: ChangeReport; title: string },
  regionId: number,
  log: Log,
): Promise<vscode.Uri | undefined> {
  const { report, title } = input;
  const region = regionId === 0 ? report.global : report.regions.find((r) => r.id === regionId);
  const procedure = region?.procedure;
  if (region === undefined || procedure === undefined || procedure.frames.length === 0) {
    log.error(`no procedure frames to export for region ${regionId} of ${title}`);
    void vscode.window.showErrorMessage(
      `ProCap: ${regionId === 0 ? 'the whole screen' : `region ${regionId}`} has no procedure frames to export.`,
    );
    return undefined;
  }
  const label = regionId === 0 ? 'global' : `region${regionId}`;
  const home = vscode.Uri.file(process.env.HOME ?? '/');
  const target = await vscode.window.showSaveDialog({
    title: 'Export the procedure as an animated PNG',
    defaultUri: vscode.Uri.joinPath(home, `${safeName(title)}.${label}.procedure.png`),
    filters: { 'Animated PNG': ['png'] },
    saveLabel: 'Export',
  });
  if (target === undefined) return undefined; // the user cancelled: nothing is written
  const bytes = procedureApng(procedure, { scale: animationScale(procedure, region.cropBox) });
  await vscode.workspace.fs.writeFile(target, bytes);
  log.info(`exported the procedure of ${label} of ${title} to ${target.fsPath}`);
  void vscode.window.showInformationMessage(`ProCap procedure animation saved to ${target.fsPath}.`);
  return target;
}

export async function exportReport(input: ExportInput, format: ExportFormat, log: Log): Promise<void> {
  const { report, title } = input;
  const useHtml = format === 'html' && htmlExportAvailable();
  const extension = useHtml ? 'html' : 'json';
  const suggestedName = `${safeName(title)}.procap.${extension}`;
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
