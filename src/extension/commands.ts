// Every command the extension contributes (package.json "contributes.commands"), each a thin
// handler that builds a Comparison and hands it to the review panel, or drives a tree view.
import * as vscode from 'vscode';
import { fileSide, displayPath, type Comparison } from './comparison.js';
import { repositoryRoot, listRefs } from './git.js';
import { isSafeRef } from './pure/gitText.js';
import { requirePng, targetUri, uriSide, vsRefComparison, activeDiffComparison, UserInputError } from './sides.js';
import { gitSide } from './comparison.js';
import type { ReviewPanel } from './panel.js';
import type { PrReviewTree, PrItem } from './prReview.js';
import type { SnapshotTree } from './snapshots.js';
import { snapshotComparison, isSnapshotItem } from './snapshots.js';
import type { BaselineStore } from './baseline.js';
import type { InlineAnnotations } from './annotations.js';
import type { Log } from './log.js';
import { reportError } from './errors.js';
import { CONTRACT_KINDS } from '../core/kinds.js';
import type { ChangeKind } from '../core/report.js';

export interface CommandDeps {
  panel: ReviewPanel;
  prTree: PrReviewTree;
  snapshotTree: SnapshotTree;
  baselines: BaselineStore;
  annotations: InlineAnnotations;
  log: Log;
}

const KIND_CHOICES: ChangeKind[] = [...CONTRACT_KINDS, 'size'];

async function pickPng(title: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    filters: { 'PNG images': ['png'] },
    openLabel: 'Select',
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}

/** Explorer: two images selected; palette: pick the before and after files. */
async function describeChange(deps: CommandDeps, clicked?: unknown, selected?: unknown): Promise<void> {
  let uris = Array.isArray(selected) ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (uris.length === 0 && clicked instanceof vscode.Uri) uris = [clicked];
  if (uris.length > 2) throw new UserInputError(`select exactly two PNG images to compare (${uris.length} are selected)`);
  if (uris.length < 2) {
    const before = uris[0] ?? (await pickPng('ProCap: choose the BEFORE image'));
    if (before === undefined) return;
    const after = await pickPng(`ProCap: choose the AFTER image (before: ${displayPath(before)})`);
    if (after === undefined) return;
    uris = [before, after];
  }
  uris.forEach(requirePng);
  const [before, after] = uris;
  await deps.panel.show({ title: `${displayPath(before)} ↔ ${displayPath(after)}`, before: fileSide(before), after: fileSide(after) });
}

async function describeVsHead(deps: CommandDeps, argument?: unknown): Promise<void> {
  const uri = targetUri(argument);
  if (uri === undefined) throw new UserInputError('open or select a PNG image first');
  await deps.panel.show(await vsRefComparison(uri, 'HEAD', 'HEAD'));
}

async function describeVsRef(deps: CommandDeps, argument?: unknown): Promise<void> {
  const uri = targetUri(argument);
  if (uri === undefined) throw new UserInputError('open or select a PNG image first');
  requirePng(uri);
  const root = await repositoryRoot(uri);
  if (root === undefined) throw new UserInputError(`${displayPath(uri)} is not in a git repository`);
  const ref = await pickRef(root, `ProCap: compare ${displayPath(uri)} with…`);
  if (ref === undefined) return;
  await deps.panel.show(await vsRefComparison(uri, ref, ref));
}

/** A quick pick of branches, remote branches and tags, with "enter a ref" for anything else. */
async function pickRef(root: string, title: string): Promise<string | undefined> {
  const refs = await listRefs(root);
  const typeIn = 'Enter a ref (commit, HEAD~2, …)';
  type RefPick = vscode.QuickPickItem & { ref?: string };
  const items: RefPick[] = [
    { label: 'HEAD', description: 'the last commit', ref: 'HEAD' },
    ...refs.map((r) => ({ label: r.name, description: `${r.kind} · ${r.commit}`, detail: r.subject, ref: r.name })),
    { label: typeIn, alwaysShow: true },
  ];
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: 'Pick a branch, tag or commit', matchOnDetail: true });
  if (picked === undefined) return undefined;
  if (picked.ref !== undefined) return picked.ref;
  return vscode.window
    .showInputBox({
      title,
      prompt: 'A commit id, branch, tag, or HEAD~N',
      validateInput: (value) => (isSafeRef(value.trim()) ? undefined : 'not a ref name ProCap Review accepts'),
    })
    .then((value) => value?.trim() || undefined);
}

/** Source Control view: the resource states the user right-clicked (first one). */
function scmUri(states: unknown[]): vscode.Uri {
  const uri = targetUri(states[0]);
  if (uri === undefined) throw new UserInputError('no file was selected in the Source Control view');
  requirePng(uri);
  return uri;
}

async function scmCompare(deps: CommandDeps, beforeRef: 'HEAD' | ':', afterRef: ':' | 'worktree', states: unknown[]): Promise<void> {
  const uri = scmUri(states);
  const root = await repositoryRoot(uri);
  if (root === undefined) throw new UserInputError(`${displayPath(uri)} is not in a git repository`);
  const beforeLabel = beforeRef === 'HEAD' ? 'HEAD' : 'staged';
  const before = gitSide(root, beforeRef, uri, beforeLabel);
  const after = afterRef === ':' ? gitSide(root, ':', uri, 'staged') : fileSide(uri, `${displayPath(uri)} (working tree)`);
  const afterLabel = afterRef === ':' ? 'staged' : 'working tree';
  await deps.panel.show({ title: `${displayPath(uri)}: ${beforeLabel} ↔ ${afterLabel}`, before, after });
}

async function describeDiffEditor(deps: CommandDeps, argument?: unknown): Promise<void> {
  const comparison: Comparison | undefined = activeDiffComparison();
  if (comparison !== undefined) {
    await deps.panel.show(comparison);
    return;
  }
  // An image diff shown by the image preview (a custom-editor diff) has no tab input in the
  // extension API (measured: activeTab.input is undefined), so its two sides are not visible to us.
  // Fall back to HEAD vs working tree, the diff Source Control opens for a changed file.
  const uri = targetUri(argument);
  deps.log.info(
    `describe diff editor: the diff's sides are not exposed by VS Code; comparing HEAD with the working tree of ${uri?.fsPath ?? '(nothing)'}`,
  );
  if (uri === undefined) throw new UserInputError('open an image diff first');
  if (uri.scheme === 'git') {
    const side = uriSide(uri);
    throw new UserInputError(`${side.label} is one side of a diff; open the diff itself to compare both sides`);
  }
  await describeVsHead(deps, uri);
}

async function chooseFilters(deps: CommandDeps): Promise<void> {
  const current = deps.prTree.filters;
  type FilterPick = vscode.QuickPickItem & { changeKind?: string; hideNone?: boolean };
  const items: FilterPick[] = [
    { label: 'Hide "no visible change"', picked: current.hideNoVisibleChange, hideNone: true },
    { label: 'Change kinds', kind: vscode.QuickPickItemKind.Separator },
    ...KIND_CHOICES.map((changeKind) => ({
      label: changeKind === 'none' ? 'no visible change' : changeKind,
      changeKind,
      picked: current.kinds?.has(changeKind) ?? false,
    })),
  ];
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'ProCap: filter changed screenshots',
    placeHolder: 'Show only these kinds (pick none to show all)',
  });
  if (picked === undefined) return;
  const kinds = picked.flatMap((p) => (p.changeKind !== undefined ? [p.changeKind] : []));
  deps.prTree.setFilters(
    kinds.length > 0 ? new Set(kinds) : undefined,
    picked.some((p) => p.hideNone === true),
  );
}

async function setBaseRef(deps: CommandDeps): Promise<void> {
  const roots = [...new Set(deps.prTree.allEntries.map((e) => e.root))];
  const folder = vscode.workspace.workspaceFolders?.[0];
  const root = roots[0] ?? (folder ? await repositoryRoot(folder.uri) : undefined);
  if (root === undefined) throw new UserInputError('no git repository is open');
  const ref = await pickRef(root, 'ProCap: compare the working tree with…');
  if (ref === undefined) return;
  deps.prTree.setBaseRef(root, ref);
  await deps.prTree.refresh();
}

function prItemArgument(argument: unknown): PrItem {
  const entry = (argument as PrItem | undefined)?.entry;
  if (entry === undefined || typeof entry.root !== 'string') throw new UserInputError('pick a changed screenshot in the PR review view');
  return argument as PrItem;
}

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const register = (id: string, handler: (...args: unknown[]) => Promise<unknown> | unknown) => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          await handler(...args);
        } catch (error) {
          await reportError(deps.log, commandTitle(id), error);
        }
      }),
    );
  };
  register('procapReview.describeChange', (clicked, selected) => describeChange(deps, clicked, selected));
  register('procapReview.describeVsHead', (argument) => describeVsHead(deps, argument));
  register('procapReview.describeVsRef', (argument) => describeVsRef(deps, argument));
  register('procapReview.scm.headVsWorkingTree', (...states) => scmCompare(deps, 'HEAD', 'worktree', states));
  register('procapReview.scm.stagedVsWorkingTree', (...states) => scmCompare(deps, ':', 'worktree', states));
  register('procapReview.scm.headVsStaged', (...states) => scmCompare(deps, 'HEAD', ':', states));
  register('procapReview.describeDiffEditor', (argument) => describeDiffEditor(deps, argument));

  register('procapReview.prReview.refresh', () => deps.prTree.refresh());
  register('procapReview.prReview.cancel', () => deps.prTree.cancel());
  register('procapReview.prReview.setBaseRef', () => setBaseRef(deps));
  register('procapReview.prReview.filter', () => chooseFilters(deps));
  register('procapReview.prReview.clearFilter', () => deps.prTree.setFilters(undefined, false));
  register('procapReview.prReview.open', (item) => deps.panel.show(deps.prTree.comparison(prItemArgument(item).entry)));
  register('procapReview.prReview.accept', async (item) => {
    const { entry } = prItemArgument(item);
    const choice = await vscode.window.showInformationMessage(
      `Mark the change to ${entry.file.path} as accepted?`,
      { modal: true, detail: entry.report?.summary ?? '' },
      'Accept',
    );
    if (choice === 'Accept') await deps.prTree.setAccepted(entry, true);
  });
  register('procapReview.prReview.unaccept', (item) => deps.prTree.setAccepted(prItemArgument(item).entry, false));

  register('procapReview.snapshots.refresh', () => deps.snapshotTree.refresh());
  register('procapReview.snapshots.open', async (item) => {
    if (isSnapshotItem(item)) {
      await deps.panel.show(await snapshotComparison(item.entry));
      return;
    }
    // from the palette: pick one of the failures found
    const entries = await deps.snapshotTree.refresh();
    if (entries.length === 0) {
      void vscode.window.showInformationMessage(
        'ProCap Review found no snapshot-test failures (Playwright test-results or jest-image-snapshot __diff_output__).',
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      entries.map((entry) => ({
        label: entry.pair.name,
        description: entry.pair.framework,
        detail: entry.pair.actual ?? entry.pair.diff,
        entry,
      })),
      { title: 'ProCap: open a snapshot-test failure' },
    );
    if (picked !== undefined) await deps.panel.show(await snapshotComparison(picked.entry));
  });
  register('procapReview.snapshots.accept', async (item) => {
    if (!isSnapshotItem(item)) throw new UserInputError('pick a snapshot failure in the Snapshot Failures view');
    const comparison = await snapshotComparison(item.entry);
    if (comparison.baseline === undefined) {
      throw new UserInputError(`no baseline file was found for ${item.entry.pair.name} (its -expected copy matches no *-snapshots file)`);
    }
    await deps.baselines.accept(comparison.baseline, await comparison.after.read(), comparison.after.label);
  });
  register('procapReview.undoAccept', () => deps.baselines.undoLast());
  register('procapReview.showLog', () => deps.log.show());
  register('procapReview.refreshAnnotations', () => {
    deps.annotations.refreshVisible();
    if (vscode.workspace.isTrusted) return;
    // Say why nothing appears: the captions need git, which is off in Restricted Mode.
    void vscode.window
      .showInformationMessage(
        'ProCap Review: inline captions are off in an untrusted workspace (Restricted Mode): they need git to know which screenshots changed. Trust the workspace to see them.',
        'Manage Workspace Trust',
      )
      .then((action) => {
        if (action === 'Manage Workspace Trust') void vscode.commands.executeCommand('workbench.trust.manage');
      });
  });
}

function commandTitle(id: string): string {
  return id
    .replace(/^procapReview\./, '')
    .replace(/([A-Z])/g, ' $1')
    .replace(/\./g, ' ')
    .toLowerCase();
}
