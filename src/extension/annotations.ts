// Inline caption annotations: where code or Markdown names a PNG file that differs from HEAD,
// the change's caption is shown at the end of that line (a decoration after the last character,
// never inside the string literal that names the file) and in a hover over the file's name with a
// link that opens the review panel. Git is needed to know what changed, so this runs in trusted
// workspaces only; it reads files, never writes any.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { findImageReferences, lineCaption, resolveImageReference } from './pure/imageReferences.js';
import { repositoryRoot, runGit, showFileAt } from './git.js';
import { repositoryRelativePath } from './pure/gitText.js';
import type { Engine } from './engine.js';
import type { Log } from './log.js';
import { readSettings } from './settings.js';
import { readImageUri } from './comparison.js';
import type { ChangeReport } from '../core/report.js';

interface Annotation {
  /** the file's name in the line (the hover's range) */
  range: vscode.Range;
  /** the reference as written */
  reference: string;
  imageUri: vscode.Uri;
  report: ChangeReport;
}

/** Documents longer than this are not scanned (generated files, logs). */
const MAX_LINES = 20_000;
/** At most this many changed images are captioned per document. */
const MAX_IMAGES_PER_DOCUMENT = 20;

export class InlineAnnotations implements vscode.HoverProvider, vscode.Disposable {
  private readonly decoration = vscode.window.createTextEditorDecorationType({
    after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic' },
    rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
  });
  private readonly annotations = new Map<string, Annotation[]>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Documents already named in the log as skipped for an untrusted workspace (once each, not per keystroke). */
  private readonly loggedUntrusted = new Set<string>();

  constructor(
    private readonly engine: Engine,
    private readonly log: Log,
  ) {
    this.disposables.push(
      vscode.languages.registerHoverProvider({ scheme: 'file' }, this),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refreshVisible()),
      vscode.workspace.onDidSaveTextDocument((document) => this.schedule(document)),
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document)),
    );
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.png');
    const onImageChange = () => {
      for (const editor of vscode.window.visibleTextEditors) this.schedule(editor.document);
    };
    watcher.onDidChange(onImageChange);
    watcher.onDidCreate(onImageChange);
    watcher.onDidDelete(onImageChange);
    this.disposables.push(watcher);
  }

  refreshVisible(): void {
    for (const editor of vscode.window.visibleTextEditors) this.schedule(editor.document, 0);
  }

  private schedule(document: vscode.TextDocument, delayMs = 800): void {
    const key = document.uri.toString();
    const pending = this.timers.get(key);
    if (pending) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.annotate(document).catch((error) => this.log.error(`inline annotations for ${document.uri.fsPath}`, error));
      }, delayMs),
    );
  }

  private async annotate(document: vscode.TextDocument): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.setAnnotations(document, []);
      const key = document.uri.toString();
      if (!this.loggedUntrusted.has(key)) {
        this.loggedUntrusted.add(key);
        this.log.info(
          `inline captions are off in an untrusted workspace (Restricted Mode): ${vscode.workspace.asRelativePath(document.uri, false)} not scanned`,
        );
      }
      return;
    }
    if (!readSettings().inlineAnnotations || document.uri.scheme !== 'file' || document.lineCount > MAX_LINES) {
      this.setAnnotations(document, []);
      return;
    }
    const roots = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const found: Annotation[] = [];
    const checked = new Map<string, ChangeReport | null>();
    for (let line = 0; line < document.lineCount && checked.size < MAX_IMAGES_PER_DOCUMENT; line++) {
      const text = document.lineAt(line).text;
      if (!/\.png/i.test(text)) continue;
      for (const reference of findImageReferences(text)) {
        const candidates = resolveImageReference(reference.text, path.dirname(document.uri.fsPath), roots);
        for (const candidate of candidates) {
          let report = checked.get(candidate);
          if (report === undefined) {
            report = await this.describeIfChanged(vscode.Uri.file(candidate));
            checked.set(candidate, report);
          }
          if (report !== null) {
            found.push({
              range: new vscode.Range(line, reference.start, line, reference.end),
              reference: reference.text,
              imageUri: vscode.Uri.file(candidate),
              report,
            });
            break;
          }
        }
      }
    }
    this.setAnnotations(document, found);
  }

  /** The report of HEAD vs working tree when the file exists and differs from HEAD; else null. */
  private async describeIfChanged(imageUri: vscode.Uri): Promise<ChangeReport | null> {
    try {
      await vscode.workspace.fs.stat(imageUri);
    } catch {
      return null; // not a file here
    }
    const root = await repositoryRoot(imageUri);
    if (root === undefined) return null;
    const relative = repositoryRelativePath(root, imageUri.fsPath);
    const status = (await runGit(root, ['status', '--porcelain=v1', '-z', '--', relative])).toString('utf8');
    if (status === '' || status.startsWith('??') || status.startsWith('!!')) return null; // unchanged, or not in HEAD
    try {
      const [before, after] = await Promise.all([showFileAt(root, 'HEAD', imageUri.fsPath), readImageUri(imageUri, relative)]);
      return await this.engine.describe(before, after, `${relative} (HEAD ↔ working tree)`, undefined, undefined, undefined, imageUri);
    } catch (error) {
      this.log.error(`inline annotation: could not describe ${relative}`, error);
      return null;
    }
  }

  private setAnnotations(document: vscode.TextDocument, annotations: Annotation[]): void {
    this.annotations.set(document.uri.toString(), annotations);
    for (const editor of vscode.window.visibleTextEditors) {
      if (editor.document.uri.toString() !== document.uri.toString()) continue;
      // one caption per line, after its last character
      const byLine = new Map<number, Annotation[]>();
      for (const annotation of annotations) {
        const line = annotation.range.start.line;
        byLine.set(line, [...(byLine.get(line) ?? []), annotation]);
      }
      editor.setDecorations(
        this.decoration,
        [...byLine]
          .filter(([line]) => line < document.lineCount)
          .map(([line, onLine]) => {
            const end = document.lineAt(line).range.end;
            return {
              range: new vscode.Range(end, end),
              renderOptions: {
                after: { contentText: lineCaption(onLine.map((a) => ({ reference: a.reference, summary: a.report.summary }))) },
              },
            };
          }),
      );
    }
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const annotations = this.annotations.get(document.uri.toString()) ?? [];
    // over the file's name, or over the caption at the end of its line
    const atLineEnd = position.character >= document.lineAt(position.line).text.length;
    const annotation =
      annotations.find((a) => a.range.contains(position)) ??
      (atLineEnd ? annotations.find((a) => a.range.start.line === position.line) : undefined);
    if (annotation === undefined) return undefined;
    const markdown = new vscode.MarkdownString(undefined, true);
    // only our own "open panel" command may run from this hover
    markdown.isTrusted = { enabledCommands: ['procapReview.describeVsHead'] };
    markdown.appendMarkdown('**ProCap Review** — changed since HEAD\n\n');
    markdown.appendText(annotation.report.summary);
    markdown.appendMarkdown('\n\n');
    for (const region of annotation.report.regions.filter((r) => !r.noiseOnly).slice(0, 8)) {
      markdown.appendMarkdown('- ');
      markdown.appendText(`${region.caption} (${region.kind})`);
      markdown.appendMarkdown('\n');
    }
    const argument = encodeURIComponent(JSON.stringify([annotation.imageUri.toString()]));
    markdown.appendMarkdown(`\n[Open in ProCap Review](command:procapReview.describeVsHead?${argument})`);
    return new vscode.Hover(markdown, annotation.range);
  }

  clear(): void {
    for (const editor of vscode.window.visibleTextEditors) editor.setDecorations(this.decoration, []);
    this.annotations.clear();
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.decoration.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}
