// The rules for the one write ProCap Review makes in a workspace (accepting a screenshot as the new
// baseline), as pure functions so they are unit-tested without VS Code. baseline.ts applies them.

/**
 * Why `target` may not be overwritten, or undefined when it may. A baseline must be a PNG file
 * on disk, strictly inside one of the workspace folders, in a trusted workspace.
 */
export function baselineTargetProblem(
  target: { scheme: string; fsPath: string },
  workspaceRoots: readonly string[],
  trusted: boolean,
): string | undefined {
  if (!trusted) return 'ProCap Review does not write baselines in an untrusted workspace';
  if (target.scheme !== 'file') return `${target.fsPath} is not a file on disk`;
  if (!/\.png$/i.test(target.fsPath)) return `${target.fsPath} is not a PNG file`;
  const file = normalise(target.fsPath);
  if (file.split('/').includes('..')) return `${target.fsPath} is not a normalised path`;
  const inside = workspaceRoots.some((root) => {
    const base = normalise(root).replace(/\/+$/, '');
    return base !== '' && file.startsWith(`${base}/`);
  });
  if (!inside) return `${target.fsPath} is outside the workspace folders`;
  return undefined;
}

function normalise(filePath: string): string {
  return filePath.replace(/\\/g, '/');
}

/**
 * Undo restores the backup without asking only when the baseline still holds exactly what the
 * accept wrote; anything else (edited since, deleted) needs the user's confirmation.
 */
export function undoNeedsConfirmation(currentSha256: string | undefined, acceptedSha256: string): boolean {
  return currentSha256 !== acceptedSha256;
}
