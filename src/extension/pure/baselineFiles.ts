// The file operations of accepting a screenshot as the new baseline, without VS Code (so they are
// tested on real files): where the write really lands (links resolved, and refused when that is
// outside the workspace), an atomic write that never follows a link, and backups of the old
// baseline kept for the last few accepts of each file. baseline.ts asks the user and calls these.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Backups kept per baseline file: an accept that makes one more removes the oldest of that file. */
export const BASELINE_BACKUPS_KEPT = 5;

/** A baseline write refused or failed; the message is for the user and names the file. */
export class BaselineFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineFileError';
  }
}

function inside(file: string, root: string): boolean {
  return file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

function realRoots(workspaceRoots: readonly string[]): string[] {
  const roots: string[] = [];
  for (const root of workspaceRoots) {
    try {
      roots.push(fs.realpathSync(root));
    } catch {
      // a workspace folder that is gone holds no baseline
    }
  }
  return roots;
}

/**
 * The real path a baseline write to `target` lands on: links followed (in the file and in its
 * folders), and refused unless that is a regular PNG file strictly inside one of the (real) workspace
 * folders. With `mayBeMissing` (an undo restoring a deleted baseline) a missing file is allowed
 * when its folder is inside.
 */
export function resolveBaselineTarget(target: string, workspaceRoots: readonly string[], mayBeMissing = false): string {
  const roots = realRoots(workspaceRoots);
  let real: string;
  let exists = true;
  try {
    real = fs.realpathSync(target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const dangling = fs.lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink() === true;
    if (code !== 'ENOENT' || !mayBeMissing || dangling) {
      throw new BaselineFileError(
        dangling ? `${target} is a link to a file that does not exist` : `${target} cannot be read (${(e as Error).message})`,
      );
    }
    let folder: string;
    try {
      folder = fs.realpathSync(path.dirname(target));
    } catch (e2) {
      throw new BaselineFileError(`the folder of ${target} cannot be read (${(e2 as Error).message})`);
    }
    real = path.join(folder, path.basename(target));
    exists = false;
  }
  if (!roots.some((root) => inside(real, root))) {
    throw new BaselineFileError(
      real === path.resolve(target)
        ? `${target} is outside the workspace folders`
        : `${target} leads to ${real}, outside the workspace folders (a link): ProCap Review writes only inside the workspace`,
    );
  }
  if (!/\.png$/i.test(real)) throw new BaselineFileError(`${target} leads to ${real}, which is not a PNG file`);
  if (exists && !fs.statSync(real).isFile()) throw new BaselineFileError(`${target} is not a regular file`);
  return real;
}

/**
 * Writes `bytes` to `file` whole or not at all: into a new temporary file in the same folder
 * (created exclusively, so a link planted at its name is not followed), flushed, then renamed over
 * `file`. A link at `file` itself is replaced, never followed. The old file's permissions are kept.
 */
export function writeFileAtomic(file: string, bytes: Uint8Array): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.procap-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const old = fs.lstatSync(file, { throwIfNoEntry: false });
  const mode = old?.isFile() ? old.mode & 0o777 : 0o644;
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode);
    fs.writeSync(fd, bytes);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
  } catch (e) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw new BaselineFileError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

/** A short, file-name-safe key of a baseline's real path: its backups share it. */
function pathKey(baselinePath: string): string {
  return createHash('sha256').update(baselinePath).digest('hex').slice(0, 8);
}

/**
 * The backup's file name: time first, so a listing is in accept order; then the content's hash, a key
 * of the baseline's path (its backups are found and pruned by it) and the baseline's name. Never a path.
 */
export function backupFileName(at: Date, contentSha256: string, baselinePath: string): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const base = path.basename(baselinePath.replace(/\\/g, '/')) || 'baseline.png';
  return `${stamp}-${contentSha256.slice(0, 12)}-${pathKey(baselinePath)}-${base.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

/** The backups of `baselinePath` in `backupDir`, oldest first. */
export function backupsOf(backupDir: string, baselinePath: string): string[] {
  const key = `-${pathKey(baselinePath)}-`;
  let names: string[];
  try {
    names = fs.readdirSync(backupDir);
  } catch {
    return [];
  }
  // <stamp 24>-<sha 12>-<key 8>-<name>: the key sits at a fixed place
  return names
    .filter((name) => name.slice(37, 47) === key)
    .sort()
    .map((name) => path.join(backupDir, name));
}

export interface AcceptedBaseline {
  /** the file written (the baseline's real path) */
  file: string;
  /** the old baseline's copy */
  backup: string;
  /** older backups of this baseline removed to keep the last `keep` */
  pruned: string[];
}

/**
 * Accepts `newImage` as the baseline at `target`: resolves and checks the real path
 * (resolveBaselineTarget), copies the old baseline into `backupDir`, writes the new one atomically,
 * and removes this baseline's backups beyond the newest `keep`.
 */
export function acceptBaselineFile(options: {
  target: string;
  workspaceRoots: readonly string[];
  newImage: Uint8Array;
  backupDir: string;
  at?: Date;
  keep?: number;
}): AcceptedBaseline {
  const keep = Math.max(1, options.keep ?? BASELINE_BACKUPS_KEPT);
  const file = resolveBaselineTarget(options.target, options.workspaceRoots);
  const oldBytes = fs.readFileSync(file);
  fs.mkdirSync(options.backupDir, { recursive: true });
  const sha = createHash('sha256').update(oldBytes).digest('hex');
  const backup = path.join(options.backupDir, backupFileName(options.at ?? new Date(), sha, file));
  writeFileAtomic(backup, oldBytes);
  writeFileAtomic(file, options.newImage);
  const all = backupsOf(options.backupDir, file);
  const pruned = all.slice(0, Math.max(0, all.length - keep)).filter((old) => old !== backup);
  for (const old of pruned) fs.rmSync(old, { force: true });
  return { file, backup, pruned };
}

/** Restores a baseline from its backup (undo): the same checks and atomic write as an accept. */
export function restoreBaselineFile(target: string, workspaceRoots: readonly string[], backup: string): string {
  const file = resolveBaselineTarget(target, workspaceRoots, true);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(backup);
  } catch (e) {
    throw new BaselineFileError(
      `the backup of ${target} is gone (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); ` +
        `only the last ${BASELINE_BACKUPS_KEPT} accepts of each file keep one`,
    );
  }
  writeFileAtomic(file, bytes);
  return file;
}
