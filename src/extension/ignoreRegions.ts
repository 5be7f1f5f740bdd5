// Ignore regions drawn in the panel: written to the workspace folder's procap.config.json (the file
// the command line and projectConfig.ts read), under a glob that names exactly the screenshot the
// comparison is about. The text is edited in place (core/config-edit.ts keeps the user's other
// content and layout); a file that is not a valid config, has unsaved edits in an editor or is a
// link out of the workspace is never written. Each write says what it did, with Undo and Open config.
import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { CONFIG_FILE_NAME, ConfigError, exactGlob, matchesGlob, screenshotName } from '../core/config.js';
import { addIgnoreRegion, findIgnoreRegion, removeIgnoreRegion } from '../core/config-edit.js';
import type { Box } from '../core/report.js';
import type { IgnoreTarget } from './pure/messages.js';
import { describeError, type Log } from './log.js';

/** Where the ignore regions of one screenshot go. */
export interface IgnoreDestination extends IgnoreTarget {
  /** the screenshot's path relative to the folder, as the config's globs match it */
  name: string;
  folder: vscode.WorkspaceFolder;
  configUri: vscode.Uri;
}

/** The destination for `screenshot`, or undefined when the panel may not write one (untrusted, outside a folder). */
export function ignoreDestinationOf(screenshot: vscode.Uri | undefined): IgnoreDestination | undefined {
  if (screenshot === undefined || screenshot.scheme !== 'file' || !vscode.workspace.isTrusted) return undefined;
  const folder = vscode.workspace.getWorkspaceFolder(screenshot);
  if (folder === undefined || folder.uri.scheme !== 'file') return undefined;
  const name = screenshotName(screenshot.fsPath, folder.uri.fsPath);
  const glob = exactGlob(name);
  // a name no glob can single out (a backslash in a file name reads as a folder separator)
  if (!matchesGlob(name, glob)) return undefined;
  const configUri = vscode.Uri.joinPath(folder.uri, CONFIG_FILE_NAME);
  return { name, glob, folder, configUri, configFile: vscode.workspace.asRelativePath(configUri) };
}

/** What a panel action led to. */
export type IgnoreOutcome = { written: true } | { written: false; message?: string };

const show = (box: Box) => `[${box.join(', ')}]`;

export class IgnoreRegions {
  /** one edit at a time: two quick clicks must not read the same text and overwrite each other */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly log: Log) {}

  /** Adds `box` for the screenshot. `onUndone` runs after an Undo rewrote the file (the panel describes the pair again). */
  add(target: IgnoreDestination, box: Box, onUndone: () => void): Promise<IgnoreOutcome> {
    return this.serialised(async () => {
      const before = await this.readForEdit(target);
      if (typeof before === 'object') return before;
      const result = addIgnoreRegion(before === false ? undefined : before, target.configFile, target.glob, box);
      if (result.already) {
        void vscode.window.showInformationMessage(
          `ProCap Review: ${show(box)} is already ignored for ${target.name} in ${target.configFile}.`,
        );
        return { written: false };
      }
      await this.write(target, result.text);
      const how = before === false ? 'a new file' : result.newRule ? 'a new rule' : 'its rule';
      this.log.info(`ignore region ${show(box)} for ${target.glob} added to ${target.configUri.fsPath} (${how})`);
      this.offerUndo(
        `ProCap Review: ${target.name} ignores ${show(box)} now: added to ${target.configFile} (${how} for "${target.glob}").`,
        target,
        before === false ? undefined : before,
        result.text,
        onUndone,
      );
      return { written: true };
    });
  }

  /**
   * Removes the ignore region the panel shows as `shown` (clipped to `area`, the compared area). A
   * region of a rule for more screenshots than this one is removed only after a modal question.
   */
  remove(target: IgnoreDestination, shown: Box, area: { width: number; height: number }, onUndone: () => void): Promise<IgnoreOutcome> {
    return this.serialised(async () => {
      const before = await this.readForEdit(target);
      if (typeof before === 'object') return before;
      if (before === false) return { written: false, message: `${target.configFile} does not exist (any more): nothing to remove.` };
      const found = findIgnoreRegion(before, target.configFile, target.name, shown, area, target.glob);
      if (found === undefined) {
        this.offerOpen(
          `ProCap Review: ${show(shown)} is not an ignore region of ${target.configFile} for ${target.name} (any more): nothing was removed.`,
          target,
        );
        return { written: false };
      }
      if (found.glob !== target.glob) {
        const choice = await vscode.window.showWarningMessage(
          `${show(found.box)} is ignored by the rule "${found.glob}" of ${target.configFile}, which may apply to other screenshots too. Stop ignoring it for all of them?`,
          { modal: true },
          'Stop Ignoring',
        );
        if (choice !== 'Stop Ignoring') return { written: false };
      }
      const text = removeIgnoreRegion(before, target.configFile, found);
      await this.write(target, text);
      this.log.info(`ignore region ${show(found.box)} of rule ${found.glob} removed from ${target.configUri.fsPath}`);
      this.offerUndo(
        `ProCap Review: ${target.name} no longer ignores ${show(found.box)}: removed from ${target.configFile} (rule "${found.glob}").`,
        target,
        before,
        text,
        onUndone,
      );
      return { written: true };
    });
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * The config's text, false when there is no file, or why it may not be edited now: a file that is
   * not a valid config (the edit itself says so), unsaved edits in an editor, or not a plain file in
   * the workspace folder.
   */
  private async readForEdit(target: IgnoreDestination): Promise<string | false | IgnoreOutcome> {
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === target.configUri.toString());
    if (open?.isDirty) {
      const message = `${target.configFile} has unsaved changes in an editor: save or revert them first (nothing was written).`;
      this.offerOpen(`ProCap Review: ${message}`, target);
      return { written: false, message };
    }
    const file = target.configUri.fsPath;
    let stat;
    try {
      stat = await fs.lstat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    // a link is followed only within the workspace folder: the panel never writes outside it
    const real = await fs.realpath(file);
    const root = await fs.realpath(target.folder.uri.fsPath);
    const inside = real.startsWith(root + path.sep);
    if (!inside || !(stat.isFile() || (stat.isSymbolicLink() && (await fs.stat(file)).isFile()))) {
      const message = `${target.configFile} is not a file inside the workspace folder (${real}): the panel does not write it.`;
      return { written: false, message };
    }
    return fs.readFile(file, 'utf8');
  }

  private async write(target: IgnoreDestination, text: string): Promise<void> {
    await fs.writeFile(target.configUri.fsPath, text, 'utf8');
  }

  private offerOpen(message: string, target: IgnoreDestination): void {
    void vscode.window.showInformationMessage(message, 'Open config').then((choice) => {
      if (choice === 'Open config') void vscode.window.showTextDocument(target.configUri);
    });
  }

  /** The notification of a write: Undo puts back `previous` (removes a file it made) if the file still holds `written`. */
  private offerUndo(message: string, target: IgnoreDestination, previous: string | undefined, written: string, onUndone: () => void): void {
    void vscode.window.showInformationMessage(message, 'Undo', 'Open config').then(async (choice) => {
      if (choice === 'Open config') {
        await vscode.window.showTextDocument(target.configUri);
        return;
      }
      if (choice !== 'Undo') return;
      try {
        await this.serialised(async () => {
          const now = await fs.readFile(target.configUri.fsPath, 'utf8').catch(() => undefined);
          if (now !== written) throw new Error(`${target.configFile} changed since: not undone`);
          if (previous === undefined) await fs.rm(target.configUri.fsPath);
          else await this.write(target, previous);
          this.log.info(`undone: ${target.configUri.fsPath} is as before the panel's edit`);
        });
        onUndone();
      } catch (error) {
        this.log.error('undo of an ignore region', error);
        this.offerOpen(`ProCap Review: ${describeError(error)}.`, target);
      }
    });
  }
}

/** The message of a failed edit for the panel and the notification (a bad config names its key). */
export function ignoreFailure(error: unknown): string {
  return error instanceof ConfigError ? `${error.message} (nothing was written)` : describeError(error);
}

/** Says that an edit failed; a config that is not valid comes with Open config, to fix it there. */
export async function reportIgnoreFailure(log: Log, target: IgnoreDestination, what: string, error: unknown): Promise<void> {
  const message = ignoreFailure(error);
  log.error(what, error);
  const actions = error instanceof ConfigError ? ['Open config', 'Show Log'] : ['Show Log'];
  const choice = await vscode.window.showErrorMessage(`ProCap Review: ${what}: ${message}`, ...actions);
  if (choice === 'Open config') await vscode.window.showTextDocument(target.configUri);
  else if (choice === 'Show Log') log.show();
}
