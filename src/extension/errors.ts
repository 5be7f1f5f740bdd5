// Errors become notifications with an action that helps: the log, the setting that caused it, or
// the file that was refused. Cancellations are silent (the user asked for them).
import * as vscode from 'vscode';
import { describeError, type Log } from './log.js';

export function isCancellation(error: unknown): boolean {
  return error instanceof vscode.CancellationError || (error instanceof Error && error.name === 'AbortError');
}

export async function reportError(log: Log, what: string, error: unknown): Promise<void> {
  if (isCancellation(error)) return;
  const message = describeError(error);
  log.error(what, error);
  const actions: string[] = [];
  const setting = /maxMemoryMB/.test(message) ? 'procapReview.maxMemoryMB' : 'procapReview.maxImagePixels';
  if (/maxImagePixels|maxMemoryMB|too large|too many pixels|largest image/i.test(message)) actions.push('Open Settings');
  if (/cuda/i.test(message)) actions.push('Use CPU');
  actions.push('Show Log');
  const choice = await vscode.window.showErrorMessage(`ProCap Review: ${what}: ${message}`, ...actions);
  switch (choice) {
    case 'Open Settings':
      await vscode.commands.executeCommand('workbench.action.openSettings', setting);
      break;
    case 'Use CPU':
      await vscode.workspace.getConfiguration('procapReview').update('executionProvider', 'cpu', vscode.ConfigurationTarget.Global);
      break;
    case 'Show Log':
      log.show();
      break;
    default:
      break;
  }
}
