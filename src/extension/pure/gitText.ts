// Pure helpers for talking to the `git` CLI: validating refs before they reach a command line,
// and parsing git's machine-readable output. No `vscode` import (unit-tested with node:test).

/** Image files the engine reads (it decodes PNG). */
export function isReviewableImagePath(filePath: string): boolean {
  return /\.png$/i.test(filePath);
}

/**
 * True when `ref` is safe to pass to `git show REF:path` / `git diff REF`: it can never be read as
 * an option, holds no shell or revision-syntax characters, and follows git's check-ref-format rules
 * that matter here. One trailing ~N or ^N (HEAD~1, main^) is allowed; ranges and @{...} are not.
 */
export function isSafeRef(ref: string): boolean {
  if (ref.length === 0 || ref.length > 255) return false;
  if (ref.startsWith('-')) return false; // would be parsed as an option
  const match = /^([A-Za-z0-9._/+-]+)([~^][0-9]{0,4})?$/.exec(ref);
  if (match === null) return false;
  const name = match[1];
  if (name.includes('..') || name.includes('//')) return false;
  if (name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  if (name.split('/').some((part) => part.startsWith('.'))) return false;
  return true;
}

export interface RefChoice {
  /** the ref as git names it: main, origin/main, v1.2.0 */
  name: string;
  kind: 'branch' | 'remote' | 'tag';
  /** abbreviated object id */
  commit: string;
  subject: string;
}

/** Field separator for `git for-each-ref --format`; a unit separator cannot occur in ref names. */
export const FOR_EACH_REF_FORMAT = '%(refname)%1f%(objectname:short)%1f%(subject)';

/** Parses `git for-each-ref --format=FOR_EACH_REF_FORMAT refs/heads refs/remotes refs/tags`. */
export function parseForEachRef(output: string): RefChoice[] {
  const choices: RefChoice[] = [];
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    const [fullName, commit = '', subject = ''] = line.split('\x1f');
    let kind: RefChoice['kind'];
    let name: string;
    if (fullName.startsWith('refs/heads/')) {
      kind = 'branch';
      name = fullName.slice('refs/heads/'.length);
    } else if (fullName.startsWith('refs/remotes/')) {
      kind = 'remote';
      name = fullName.slice('refs/remotes/'.length);
      if (name.endsWith('/HEAD')) continue; // origin/HEAD is an alias, not a choice
    } else if (fullName.startsWith('refs/tags/')) {
      kind = 'tag';
      name = fullName.slice('refs/tags/'.length);
    } else {
      continue;
    }
    if (!isSafeRef(name)) continue;
    choices.push({ name, kind, commit, subject });
  }
  return choices;
}

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed';

export interface ChangedFile {
  status: ChangeStatus;
  /** repository-relative path after the change (for deletions: the deleted path) */
  path: string;
  /** repository-relative path before the change (differs from path for renames/copies) */
  oldPath: string;
}

const STATUS_LETTERS: Record<string, ChangeStatus> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type-changed',
};

/**
 * Parses `git diff --name-status -z ...`: NUL-separated fields, "STATUS\0path\0" or for renames and
 * copies "R100\0old\0new\0". -z keeps paths with spaces, quotes or newlines intact.
 */
export function parseNameStatusZ(output: string): ChangedFile[] {
  const fields = output.split('\0');
  const files: ChangedFile[] = [];
  let index = 0;
  while (index < fields.length) {
    const code = fields[index];
    if (code === '') {
      index += 1;
      continue;
    }
    const status = STATUS_LETTERS[code[0]];
    if (status === undefined) throw new Error(`unexpected git status field ${JSON.stringify(code)}`);
    if (status === 'renamed' || status === 'copied') {
      const oldPath = fields[index + 1];
      const newPath = fields[index + 2];
      if (oldPath === undefined || newPath === undefined) throw new Error('truncated rename entry in git output');
      files.push({ status, path: newPath, oldPath });
      index += 3;
    } else {
      const filePath = fields[index + 1];
      if (filePath === undefined) throw new Error('truncated entry in git output');
      files.push({ status, path: filePath, oldPath: filePath });
      index += 2;
    }
  }
  return files;
}

/** What the git extension encodes in the query of a `git:` URI (its diff editors use these). */
export interface GitUriQuery {
  path: string;
  ref: string;
}

/** Parses the JSON query of a `git:` URI; returns undefined when it is not one we understand. */
export function parseGitUriQuery(query: string): GitUriQuery | undefined {
  try {
    const parsed: unknown = JSON.parse(query);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { path: filePath, ref } = parsed as Record<string, unknown>;
    if (typeof filePath !== 'string' || typeof ref !== 'string') return undefined;
    return { path: filePath, ref };
  } catch {
    return undefined;
  }
}

/**
 * Turns an absolute path inside a repository into the repository-relative, forward-slash path
 * that `git show REF:path` wants. Throws when the file is outside the repository.
 */
export function repositoryRelativePath(repositoryRoot: string, absolutePath: string): string {
  const normalise = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const root = normalise(repositoryRoot);
  const file = normalise(absolutePath);
  if (!file.startsWith(root + '/')) throw new Error(`${absolutePath} is not inside the repository ${repositoryRoot}`);
  return file.slice(root.length + 1);
}

/** Names of the default branch to try, most likely first, for the PR review's merge base. */
export function defaultBranchCandidates(originHead: string | undefined): string[] {
  const candidates: string[] = [];
  // `git symbolic-ref refs/remotes/origin/HEAD` prints refs/remotes/origin/main
  const trimmed = originHead?.trim();
  if (trimmed && trimmed.startsWith('refs/remotes/')) candidates.push(trimmed.slice('refs/remotes/'.length));
  for (const name of ['origin/main', 'origin/master', 'main', 'master']) {
    if (!candidates.includes(name)) candidates.push(name);
  }
  return candidates;
}
