// A comparison = two image sides (each knows how to read its bytes: a file, a git blob, any URI a
// file system provider serves) plus, for screenshot tests, the baseline file an "accept" writes.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { showFileAt } from './git.js';

export interface ImageSide {
  /** shown to the user: "home.png (HEAD)", "home-actual.png" */
  label: string;
  /** a file on disk that "open image" can show; undefined for git blobs */
  fileUri?: vscode.Uri;
  /** the workspace file this side is a version of (git sides too): its procap.config.json rules apply */
  source?: vscode.Uri;
  read(): Promise<Uint8Array>;
}

export interface Comparison {
  title: string;
  before: ImageSide;
  after: ImageSide;
  /** for screenshot tests: the baseline file that accepting the change overwrites with `after` */
  baseline?: vscode.Uri;
}

/** The screenshot a comparison is about, for procap.config.json: the after side's file, else the before side's. */
export function screenshotOf(comparison: Comparison): vscode.Uri | undefined {
  return comparison.after.source ?? comparison.before.source;
}

/** Largest image file read (bytes). The engine refuses too many pixels itself; this stops a 4 GB read first. */
const MAX_IMAGE_FILE_BYTES = 512 * 1024 * 1024;

export class ImageReadError extends Error {
  constructor(
    readonly label: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads through VS Code's file system API (file:, git:, remote schemes), refusing absurd sizes. */
export async function readImageUri(uri: vscode.Uri, label: string): Promise<Uint8Array> {
  let size: number;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    // a FIFO or a device (FileType.Unknown) would block or never end: only files are read
    if ((stat.type & vscode.FileType.File) === 0) throw new ImageReadError(label, `${label} is not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof ImageReadError) throw error;
    throw new ImageReadError(label, `cannot read ${label}: ${(error as Error).message}`);
  }
  if (size === 0) throw new ImageReadError(label, `${label} is empty (0 bytes), not a PNG image`);
  if (size > MAX_IMAGE_FILE_BYTES) {
    throw new ImageReadError(
      label,
      `${label} is ${Math.round(size / 1048576)} MB, larger than the ${MAX_IMAGE_FILE_BYTES / 1048576} MB ProCap Review reads`,
    );
  }
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch (error) {
    throw new ImageReadError(label, `cannot read ${label}: ${(error as Error).message}`);
  }
}

export function fileSide(uri: vscode.Uri, label = displayPath(uri)): ImageSide {
  return { label, fileUri: uri.scheme === 'file' ? uri : undefined, source: uri, read: () => readImageUri(uri, label) };
}

/** The file as it is at `ref` in git (':' = the staged version). */
export function gitSide(root: string, ref: string, uri: vscode.Uri, refLabel: string): ImageSide {
  const label = `${displayPath(uri)} (${refLabel})`;
  return {
    label,
    source: uri,
    read: async () => {
      try {
        const bytes = await showFileAt(root, ref, uri.fsPath);
        if (bytes.length === 0) throw new Error('the file is empty there');
        return bytes;
      } catch (error) {
        throw new ImageReadError(label, `cannot read ${label}: ${(error as Error).message}`);
      }
    },
  };
}

/** A path relative to its workspace folder when it has one: short and unambiguous in titles. */
export function displayPath(uri: vscode.Uri): string {
  if (uri.scheme === 'file') {
    const relative = vscode.workspace.asRelativePath(uri, false);
    return relative || path.basename(uri.fsPath);
  }
  return path.posix.basename(uri.path);
}
