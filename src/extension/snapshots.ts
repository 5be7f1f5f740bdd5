// Snapshot-test failures: finds Playwright's NAME-actual|expected|diff.png (in test-results/ or the
// outputDir its config names) and jest-image-snapshot's __diff_output__ images (or the configured
// customDiffDir), pairs them (pure/snapshotPairing.ts) and lists them in the "Snapshot Test Failures"
// view; one click opens the review panel on a pair. The folders come from the project's
// playwright.config.* and jest-image-snapshot options, read as text (pure/snapshotConfig.ts), never run.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { PNG } from 'pngjs';
import { pairSnapshotOutputs, playwrightBaselineCandidates, jestCompositeParts, type SnapshotPair } from './pure/snapshotPairing.js';
import { jestOutputDirs, readSnapshotLayout, templateBaseDir, type SnapshotLayout } from './pure/snapshotConfig.js';
import { fileSide, readImageUri, type Comparison, type ImageSide } from './comparison.js';
import type { Log } from './log.js';

const SNAPSHOT_GLOBS = ['**/test-results/**/*-{actual,expected,diff}.png', '**/__image_snapshots__/**/*.png'];
const PLAYWRIGHT_BASELINE_GLOB = '**/*-snapshots/**/*.png';
/** Files that may set the folders: Playwright configs, and test or setup files with jest-image-snapshot options. */
const CONFIG_GLOBS = [
  '**/playwright.config.{ts,js,mjs,cjs,mts,cts}',
  '**/*.{test,spec}.{js,jsx,ts,tsx,mjs,cjs,mts,cts}',
  '**/{jest.setup,jest-setup,setupTests,setup-tests,jest.config}.{js,ts,mjs,cjs}',
];
const EXCLUDE = '**/node_modules/**';
const MAX_FILES = 5000;
const MAX_CONFIG_FILES = 2000;

export interface SnapshotEntry {
  folder: vscode.WorkspaceFolder;
  pair: SnapshotPair;
  layout: SnapshotLayout;
}

function toUri(folder: vscode.WorkspaceFolder, relative: string): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

function relativeTo(folder: vscode.WorkspaceFolder, uri: vscode.Uri): string {
  return path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
}

function inFolder(dir: string, glob: string): string {
  return dir === '' ? glob : `${dir}/${glob}`;
}

/** The project's own output and baseline folders, read from its config files (not run). */
async function folderLayout(folder: vscode.WorkspaceFolder): Promise<SnapshotLayout> {
  const files: string[] = [];
  for (const glob of CONFIG_GLOBS) {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), EXCLUDE, MAX_CONFIG_FILES);
    for (const uri of uris) files.push(relativeTo(folder, uri));
  }
  return readSnapshotLayout(folder.uri.fsPath, [...new Set(files)]);
}

/** Globs (folder relative) of the outputs a layout's tests leave behind. */
export function outputGlobs(layout: SnapshotLayout): string[] {
  const globs = new Set(SNAPSHOT_GLOBS);
  for (const p of layout.playwright) globs.add(inFolder(p.outputDir, '**/*-{actual,expected,diff}.png'));
  for (const j of layout.jest) {
    const { diffDir, receivedDir } = jestOutputDirs(j);
    if (diffDir !== undefined) globs.add(inFolder(diffDir, '*-diff.png'));
    if (receivedDir !== undefined) globs.add(inFolder(receivedDir, '*-received.png'));
    if (j.snapshotsDir !== undefined) globs.add(inFolder(j.snapshotsDir, '*.png'));
  }
  return [...globs];
}

/** Finds and pairs every snapshot-test output in the workspace. */
export async function findSnapshotFailures(log?: Log, layouts?: Map<vscode.WorkspaceFolder, SnapshotLayout>): Promise<SnapshotEntry[]> {
  const entries: SnapshotEntry[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const layout = await folderLayout(folder);
    layouts?.set(folder, layout);
    for (const note of layout.notes) log?.info(`snapshot folders: ${note}`);
    const found: string[] = [];
    for (const glob of outputGlobs(layout)) {
      const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), EXCLUDE, MAX_FILES);
      for (const uri of uris) found.push(relativeTo(folder, uri));
    }
    for (const pair of pairSnapshotOutputs([...new Set(found)], layout)) entries.push({ folder, pair, layout });
  }
  return entries;
}

/** Playwright's real baseline: the file under the snapshotPathTemplate (or *-snapshots) whose bytes equal the -expected copy. */
async function findPlaywrightBaseline(entry: SnapshotEntry, expectedBytes: Uint8Array): Promise<vscode.Uri | undefined> {
  const globs = new Set([PLAYWRIGHT_BASELINE_GLOB, ...entry.layout.playwright.map((p) => inFolder(templateBaseDir(p), '**/*.png'))]);
  const relative = new Set<string>();
  for (const glob of globs) {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(entry.folder, glob), EXCLUDE, MAX_FILES);
    for (const uri of uris) relative.add(relativeTo(entry.folder, uri));
  }
  for (const candidate of playwrightBaselineCandidates(entry.pair, [...relative], entry.layout)) {
    const uri = toUri(entry.folder, candidate);
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (Buffer.from(bytes).equals(Buffer.from(expectedBytes))) return uri;
  }
  return undefined;
}

/** The received image cut out of a jest-image-snapshot composite diff (baseline | diff | received). */
function compositeReceivedSide(diffUri: vscode.Uri, label: string): ImageSide {
  return {
    label,
    read: async () => {
      const bytes = await readImageUri(diffUri, label);
      let composite: PNG;
      try {
        composite = PNG.sync.read(Buffer.from(bytes));
      } catch (error) {
        throw new Error(`${label}: cannot decode the composite diff image: ${(error as Error).message}`);
      }
      const parts = jestCompositeParts(composite.width, composite.height);
      if (parts === undefined) {
        throw new Error(
          `${label}: the composite is ${composite.width} px wide, which does not split into baseline | diff | received; run jest with storeReceivedOnFailure: true`,
        );
      }
      const [x0, , x1] = parts.received;
      const out = new PNG({ width: x1 - x0, height: composite.height });
      PNG.bitblt(composite, out, x0, 0, x1 - x0, composite.height, 0, 0);
      return PNG.sync.write(out);
    },
  };
}

/** The comparison for a snapshot failure: expected vs actual, with the baseline to accept into. */
export async function snapshotComparison(entry: SnapshotEntry): Promise<Comparison> {
  const { pair, folder } = entry;
  const expectedUri = toUri(folder, pair.expected);
  const before = fileSide(expectedUri, `${pair.name} (expected)`);
  const after =
    pair.actual !== undefined
      ? fileSide(toUri(folder, pair.actual), `${pair.name} (actual)`)
      : compositeReceivedSide(toUri(folder, pair.diff ?? ''), `${pair.name} (received, from the diff image)`);
  let baseline: vscode.Uri | undefined;
  if (pair.baseline !== undefined) baseline = toUri(folder, pair.baseline);
  else baseline = await findPlaywrightBaseline(entry, await before.read()).catch(() => undefined);
  return { title: `${pair.name}: expected ↔ actual`, before, after, baseline };
}

class SnapshotItem extends vscode.TreeItem {
  constructor(readonly entry: SnapshotEntry) {
    super(entry.pair.name, vscode.TreeItemCollapsibleState.None);
    this.description = `${entry.pair.framework} · ${path.posix.dirname(entry.pair.actual ?? entry.pair.expected)}`;
    this.tooltip = [
      `expected: ${entry.pair.expected}`,
      `actual: ${entry.pair.actual ?? '(from the composite diff)'}`,
      entry.pair.diff ? `diff: ${entry.pair.diff}` : '',
    ]
      .filter(Boolean)
      .join('\n');
    this.iconPath = new vscode.ThemeIcon('file-media');
    this.contextValue = 'procapSnapshotFailure';
    this.id = `${entry.folder.uri.toString()}::${entry.pair.expected}`;
    this.command = { command: 'procapReview.snapshots.open', title: 'Open in ProCap Review', arguments: [this] };
  }
}

export class SnapshotTree implements vscode.TreeDataProvider<SnapshotItem>, vscode.Disposable {
  private entries: SnapshotEntry[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly watchers: vscode.FileSystemWatcher[] = [];
  /** watchers of the configured folders, replaced when the configs change */
  private configured = new Map<string, vscode.FileSystemWatcher>();
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly log: Log) {
    for (const glob of [...SNAPSHOT_GLOBS, '**/playwright.config.{ts,js,mjs,cjs,mts,cts}']) {
      const watcher = vscode.workspace.createFileSystemWatcher(glob);
      const later = () => this.scheduleRefresh();
      watcher.onDidCreate(later);
      watcher.onDidDelete(later);
      if (glob.includes('playwright.config')) watcher.onDidChange(later);
      this.watchers.push(watcher);
    }
  }

  private watchConfiguredFolders(): void {
    const wanted = new Map<string, vscode.RelativePattern>();
    for (const [folder, layout] of this.layouts) {
      for (const glob of outputGlobs(layout)) {
        if (SNAPSHOT_GLOBS.includes(glob)) continue;
        wanted.set(`${folder.uri.toString()}::${glob}`, new vscode.RelativePattern(folder, glob));
      }
    }
    for (const [key, watcher] of this.configured) {
      if (!wanted.has(key)) {
        watcher.dispose();
        this.configured.delete(key);
      }
    }
    for (const [key, pattern] of wanted) {
      if (this.configured.has(key)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const later = () => this.scheduleRefresh();
      watcher.onDidCreate(later);
      watcher.onDidDelete(later);
      this.configured.set(key, watcher);
    }
  }

  private readonly layouts = new Map<vscode.WorkspaceFolder, SnapshotLayout>();

  private scheduleRefresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      void this.refresh();
    }, 500);
  }

  async refresh(): Promise<SnapshotEntry[]> {
    this.layouts.clear();
    this.entries = await findSnapshotFailures(this.log, this.layouts);
    this.log.info(`snapshot failures: ${this.entries.length} pair(s) found`);
    this.watchConfiguredFolders();
    this.changed.fire();
    return this.entries;
  }

  getTreeItem(item: SnapshotItem): vscode.TreeItem {
    return item;
  }

  getChildren(): SnapshotItem[] {
    return this.entries.map((entry) => new SnapshotItem(entry));
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    for (const watcher of this.watchers) watcher.dispose();
    for (const watcher of this.configured.values()) watcher.dispose();
    this.changed.dispose();
  }
}

export function isSnapshotItem(value: unknown): value is { entry: SnapshotEntry } {
  return value instanceof SnapshotItem;
}
