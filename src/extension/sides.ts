// Turns what a command receives (explorer URIs, SCM resource states, diff editor tabs) into the
// two sides of a comparison.
import * as vscode from 'vscode';
import { fileSide, gitSide, readImageUri, displayPath, type Comparison, type ImageSide } from './comparison.js';
import { repositoryRoot } from './git.js';
import { parseGitUriQuery, isReviewableImagePath } from './pure/gitText.js';

export class UserInputError extends Error {}

export function requirePng(uri: vscode.Uri): void {
  if (!isReviewableImagePath(uri.path)) {
    throw new UserInputError(`${displayPath(uri)} is not a PNG image: ProCap Review compares PNG screenshots`);
  }
}

/** Any URI as an image side: file:, and git: URIs from the git extension's diff editors. */
export function uriSide(uri: vscode.Uri): ImageSide {
  if (uri.scheme !== 'git') return fileSide(uri);
  const query = parseGitUriQuery(uri.query);
  const fileUri = query ? vscode.Uri.file(query.path) : uri;
  const refLabel = query === undefined ? 'git' : query.ref === '' || query.ref === '~' ? 'staged' : query.ref;
  const label = `${displayPath(fileUri)} (${refLabel})`;
  return {
    label,
    source: query ? fileUri : undefined,
    read: async () => {
      try {
        return await readImageUri(uri, label); // the git extension serves git: URIs as a file system
      } catch (error) {
        if (query === undefined) throw error;
        const root = await repositoryRoot(fileUri);
        if (root === undefined) throw error;
        const ref = query.ref === '' || query.ref === '~' ? ':' : query.ref;
        return gitSide(root, ref, fileUri, refLabel).read();
      }
    },
  };
}

/** The file the user means: the command's argument, else the active editor's (text or image preview). */
export function targetUri(argument: unknown): vscode.Uri | undefined {
  if (argument instanceof vscode.Uri) return argument;
  // command links (hovers) pass the URI as a string
  if (typeof argument === 'string' && /^file:\/\//.test(argument)) return vscode.Uri.parse(argument, true);
  const resourceUri = (argument as { resourceUri?: unknown } | undefined)?.resourceUri;
  if (resourceUri instanceof vscode.Uri) return resourceUri;
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  if (input instanceof vscode.TabInputTextDiff) return input.modified;
  return vscode.window.activeTextEditor?.document.uri;
}

export async function vsRefComparison(uri: vscode.Uri, ref: string, refLabel: string): Promise<Comparison> {
  requirePng(uri);
  if (uri.scheme !== 'file') throw new UserInputError(`${displayPath(uri)} is not a file on disk`);
  const root = await repositoryRoot(uri);
  if (root === undefined) throw new UserInputError(`${displayPath(uri)} is not in a git repository`);
  return {
    title: `${displayPath(uri)}: ${refLabel} ↔ working tree`,
    before: gitSide(root, ref, uri, refLabel),
    after: fileSide(uri, `${displayPath(uri)} (working tree)`),
  };
}

/** The image diff in the active editor group, if the active tab is one. */
export function activeDiffComparison(): Comparison | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (!(input instanceof vscode.TabInputTextDiff)) return undefined;
  if (!isReviewableImagePath(input.modified.path)) return undefined;
  const before = uriSide(input.original);
  const after = uriSide(input.modified);
  return { title: `${before.label} ↔ ${after.label}`, before, after };
}
