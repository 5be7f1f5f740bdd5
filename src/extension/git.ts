// Git access. Repositories are found through the built-in vscode.git extension's API; file contents
// at a ref are read with `git show REF:path` into memory through execFile (no shell, arguments
// validated, nothing written to disk). Git can run programs named in a repository's config
// (fsmonitor, external diff, textconv), so every call turns those off and git is only used in a
// trusted workspace.
import * as vscode from 'vscode';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import {
  isSafeRef,
  parseForEachRef,
  parseNameStatusZ,
  repositoryRelativePath,
  defaultBranchCandidates,
  isReviewableImagePath,
  FOR_EACH_REF_FORMAT,
  type RefChoice,
  type ChangedFile,
} from './pure/gitText.js';

/** The parts of the vscode.git extension API (version 1) used here. */
interface GitApiRepository {
  readonly rootUri: vscode.Uri;
}
interface GitApi {
  readonly git: { readonly path: string };
  readonly repositories: GitApiRepository[];
  getRepository(uri: vscode.Uri): GitApiRepository | null;
}
interface GitExtensionExports {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** Largest file read out of git: a PNG this big is far beyond procapReview.maxImagePixels anyway. */
const MAX_BLOB_BYTES = 512 * 1024 * 1024;

export class GitUnavailableError extends Error {}

export async function getGitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension<GitExtensionExports>('vscode.git');
  if (extension === undefined) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  if (!exports?.enabled) return undefined;
  return exports.getAPI(1);
}

function requireTrust(): void {
  if (!vscode.workspace.isTrusted) {
    throw new GitUnavailableError(
      "git features are off in an untrusted workspace (git can run programs named in a repository's config). Trust the workspace to use them.",
    );
  }
}

async function gitExecutable(): Promise<string> {
  const api = await getGitApi().catch(() => undefined);
  return api?.git.path || 'git';
}

/** Runs git with hooks into the repository's config turned off. Resolves stdout as bytes. */
export async function runGit(cwd: string, args: string[]): Promise<Buffer> {
  requireTrust();
  const executable = await gitExecutable();
  const safetyConfig = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'diff.external=', '--no-pager'];
  return new Promise((resolve, reject) => {
    execFile(
      executable,
      [...safetyConfig, ...args],
      { cwd, encoding: 'buffer', maxBuffer: MAX_BLOB_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) {
          const detail = stderr.toString('utf8').trim() || error.message;
          reject(new Error(`git ${args.join(' ')} failed: ${detail}`));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** The root folder of the repository holding `uri`, or undefined when it is in none. */
export async function repositoryRoot(uri: vscode.Uri): Promise<string | undefined> {
  const api = await getGitApi().catch(() => undefined);
  const fromApi = api?.getRepository(uri)?.rootUri.fsPath;
  if (fromApi !== undefined) return fromApi;
  if (!vscode.workspace.isTrusted) return undefined;
  try {
    const output = await runGit(path.dirname(uri.fsPath), ['rev-parse', '--show-toplevel']);
    return output.toString('utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** All repositories the git extension has open (for the PR review). */
export async function openRepositoryRoots(): Promise<string[]> {
  const api = await getGitApi().catch(() => undefined);
  const roots = api?.repositories.map((repo) => repo.rootUri.fsPath) ?? [];
  if (roots.length > 0) return roots;
  // the git extension may be disabled: fall back to asking git about each workspace folder
  const found: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    // also right after startup, before the git extension has opened the repository: ask git in the
    // folder itself (repositoryRoot() starts from the parent of the path it is given)
    const root = await repositoryRoot(vscode.Uri.joinPath(folder.uri, '.git'));
    if (root !== undefined && !found.includes(root)) found.push(root);
  }
  return found;
}

/**
 * The bytes of `absolutePath` at `ref` (a commit-ish), or in the index when `ref` is ':' (staged).
 * Throws naming the file and the ref when git has no such file there.
 */
export async function showFileAt(root: string, ref: string, absolutePath: string): Promise<Buffer> {
  const relative = repositoryRelativePath(root, absolutePath);
  if (ref !== ':' && !isSafeRef(ref)) throw new Error(`"${ref}" is not a ref ProCap Review will pass to git`);
  const spec = ref === ':' ? `:${relative}` : `${ref}:${relative}`;
  try {
    return await runGit(root, ['show', '--no-textconv', spec]);
  } catch (error) {
    const where = ref === ':' ? 'the index (staged)' : ref;
    throw new Error(`${relative} does not exist in ${where}: ${(error as Error).message}`);
  }
}

export async function listRefs(root: string): Promise<RefChoice[]> {
  const output = await runGit(root, [
    'for-each-ref',
    `--format=${FOR_EACH_REF_FORMAT}`,
    '--sort=-committerdate',
    'refs/heads',
    'refs/remotes',
    'refs/tags',
  ]);
  return parseForEachRef(output.toString('utf8'));
}

/** The merge base of HEAD with the default branch; HEAD itself when none is found. */
export async function defaultBaseRef(root: string): Promise<{ ref: string; description: string }> {
  let originHead: string | undefined;
  try {
    originHead = (await runGit(root, ['symbolic-ref', '-q', 'refs/remotes/origin/HEAD'])).toString('utf8');
  } catch {
    originHead = undefined;
  }
  for (const candidate of defaultBranchCandidates(originHead)) {
    try {
      const base = (await runGit(root, ['merge-base', 'HEAD', candidate])).toString('utf8').trim();
      if (/^[0-9a-f]{40,64}$/.test(base)) return { ref: base, description: `merge base with ${candidate}` };
    } catch {
      // not a branch here: try the next one
    }
  }
  return { ref: 'HEAD', description: 'HEAD' };
}

/** PNG files that differ between `baseRef` and the working tree, untracked new ones included. */
export async function changedImages(root: string, baseRef: string): Promise<ChangedFile[]> {
  if (!isSafeRef(baseRef)) throw new Error(`"${baseRef}" is not a ref ProCap Review will pass to git`);
  const diff = await runGit(root, ['diff', '--name-status', '-z', '--no-ext-diff', '--no-textconv', '-M', baseRef, '--']);
  const files = parseNameStatusZ(diff.toString('utf8'));
  const untracked = await runGit(root, ['ls-files', '--others', '--exclude-standard', '-z']);
  for (const filePath of untracked.toString('utf8').split('\0')) {
    if (filePath !== '') files.push({ status: 'added', path: filePath, oldPath: filePath });
  }
  return files.filter((file) => isReviewableImagePath(file.path) || isReviewableImagePath(file.oldPath));
}

/** True when the working-tree file differs from HEAD (for the inline annotations). */
export async function isChangedFromHead(root: string, absolutePath: string): Promise<boolean> {
  const relative = repositoryRelativePath(root, absolutePath);
  const output = await runGit(root, ['status', '--porcelain=v1', '-z', '--', relative]);
  return output.length > 0;
}
