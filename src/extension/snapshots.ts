// Snapshot-test failures: finds Playwright's test-results/*-actual|expected|diff.png and
// jest-image-snapshot's __diff_output__ images, pairs them (pure/snapshotPairing.ts) and lists
// them in the "Snapshot Failures" view; one click opens the review panel on a pair.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { PNG } from 'pngjs';
import { pairSnapshotOutputs, playwrightBaselineCandidates, jestCompositeParts, type SnapshotPair } from './pure/snapshotPairing.js';
import { fileSide, readImageUri, type Comparison, type ImageSide } from './comparison.js';
import type { Log } from './log.js';

const SNAPSHOT_GLOBS = ['**/test-results/**/*-{actual,expected,diff}.png', '**/__image_snapshots__/**/*.png'];
const PLAYWRIGHT_BASELINE_GLOB = '**/*-snapshots/**/*.png';
const EXCLUDE = '**/node_modules/**';
const MAX_FILES = 5000;

export interface SnapshotEntry {
  folder: vscode.WorkspaceFolder;
  pair: SnapshotPair;
}

function toUri(folder: vscode.WorkspaceFolder, relative: string): vscode.Uri {
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/'));
}

/** Finds and pairs every snapshot-test output in the workspace. */
export async function findSnapshotFailures(): Promise<SnapshotEntry[]> {
  const entries: SnapshotEntry[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const found: string[] = [];
    for (const glob of SNAPSHOT_GLOBS) {
      const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, glob), EXCLUDE, MAX_FILES);
      for (const uri of uris) found.push(path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/'));
    }
    for (const pair of pairSnapshotOutputs(found)) entries.push({ folder, pair });
  }
  return entries;
}

/** Playwright's real baseline: the *-snapshots file whose bytes equal the -expected copy. */
async function findPlaywrightBaseline(entry: SnapshotEntry, expectedBytes: Uint8Array): Promise<vscode.Uri | undefined> {
  const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(entry.folder, PLAYWRIGHT_BASELINE_GLOB), EXCLUDE, MAX_FILES);
  const relative = uris.map((uri) => path.relative(entry.folder.uri.fsPath, uri.fsPath).split(path.sep).join('/'));
  for (const candidate of playwrightBaselineCandidates(entry.pair, relative)) {
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
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly log: Log) {
    for (const glob of SNAPSHOT_GLOBS) {
      const watcher = vscode.workspace.createFileSystemWatcher(glob);
      const later = () => this.scheduleRefresh();
      watcher.onDidCreate(later);
      watcher.onDidDelete(later);
      this.watchers.push(watcher);
    }
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      void this.refresh();
    }, 500);
  }

  async refresh(): Promise<SnapshotEntry[]> {
    this.entries = await findSnapshotFailures();
    this.log.info(`snapshot failures: ${this.entries.length} pair(s) found`);
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
    this.changed.dispose();
  }
}

export function isSnapshotItem(value: unknown): value is { entry: SnapshotEntry } {
  return value instanceof SnapshotItem;
}
