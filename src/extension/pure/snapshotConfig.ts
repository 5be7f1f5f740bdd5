// Where a project's screenshot tests write their outputs and keep their baselines, read from its
// configuration files WITHOUT running them: Playwright's playwright.config.{ts,js,mjs,...}
// (`testDir`, `outputDir`, `snapshotDir`, `snapshotPathTemplate`, `expect.toHaveScreenshot.pathTemplate`,
// and the same keys in each entry of `projects`) and jest-image-snapshot's `customSnapshotsDir`,
// `customDiffDir` and `customReceivedDir` (in toMatchImageSnapshot / configureToMatchImageSnapshot
// options in test files or a jest setup file).
//
// Only string literals are understood ('x', "x", `x` without ${}). Anything else (path.join(...),
// a variable, process.env, a conditional) is reported in `notes` and the key keeps Playwright's or
// jest-image-snapshot's default. Paths are workspace-folder relative, with forward slashes.
// No `vscode` here: the reader is unit-tested on real files.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Playwright's default snapshotPathTemplate. */
export const PLAYWRIGHT_DEFAULT_TEMPLATE = '{snapshotDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-projectName}{-snapshotSuffix}{ext}';

export interface PlaywrightLayout {
  /** the config file */
  config: string;
  /** the project's name when a `projects` entry overrides a key */
  project?: string;
  testDir: string;
  outputDir: string;
  snapshotDir: string;
  /** where toHaveScreenshot baselines live (expect.toHaveScreenshot.pathTemplate, else snapshotPathTemplate) */
  snapshotPathTemplate: string;
}

export interface JestSnapshotDirs {
  /** the file the options were read from */
  source: string;
  /** customSnapshotsDir: the baselines (undefined: __image_snapshots__ beside each test file) */
  snapshotsDir?: string;
  /** customDiffDir, else <snapshotsDir>/__diff_output__ */
  diffDir?: string;
  /** customReceivedDir, else <snapshotsDir>/__received_output__ */
  receivedDir?: string;
}

export interface SnapshotLayout {
  playwright: PlaywrightLayout[];
  jest: JestSnapshotDirs[];
  /** what was found but not understood (the default is used instead), for the log */
  notes: string[];
}

export const EMPTY_LAYOUT: SnapshotLayout = { playwright: [], jest: [], notes: [] };

// ---- a small reader of JavaScript object literals --------------------------------------------

type Token = { kind: 'str'; value: string } | { kind: 'punct'; value: string } | { kind: 'word'; value: string };

type Value =
  | { kind: 'str'; value: string }
  | { kind: 'obj'; entries: Array<[string, Value]> }
  | { kind: 'arr'; items: Value[] }
  | { kind: 'other'; text: string };

/** Tokens of a JS/TS source: strings, words and punctuation; comments and regexes' insides are dropped. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let value = '';
      let j = i + 1;
      let interpolated = false;
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\' && j + 1 < source.length) {
          const next = source[j + 1];
          value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
          j += 2;
          continue;
        }
        if (c === '`' && source[j] === '$' && source[j + 1] === '{') interpolated = true;
        if (c !== '`' && source[j] === '\n') break; // unterminated
        value += source[j];
        j++;
      }
      i = j + 1;
      tokens.push(interpolated ? { kind: 'word', value: '`' + value + '`' } : { kind: 'str', value });
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z0-9_$.]/.test(c)) {
      let j = i;
      while (j < source.length && /[A-Za-z0-9_$.]/.test(source[j])) j++;
      tokens.push({ kind: 'word', value: source.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: 'punct', value: c });
      i++;
    }
  }
  return tokens;
}

const OPEN: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

class Reader {
  constructor(
    private readonly tokens: Token[],
    public i = 0,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  /** One value, up to a `,` or a closing bracket at this level (not consumed). */
  value(): Value {
    const start = this.i;
    const first = this.peek();
    if (first?.kind === 'punct' && first.value === '{') {
      const obj = this.object();
      if (this.atValueEnd()) return obj;
    } else if (first?.kind === 'punct' && first.value === '[') {
      const arr = this.array();
      if (this.atValueEnd()) return arr;
    } else if (first?.kind === 'str') {
      this.i++;
      if (this.atValueEnd()) return { kind: 'str', value: first.value };
    }
    this.i = start;
    this.skipExpression();
    return {
      kind: 'other',
      text: this.tokens
        .slice(start, this.i)
        .map((t) => (t.kind === 'str' ? `'${t.value}'` : t.value))
        .join(' '),
    };
  }

  private atValueEnd(): boolean {
    const t = this.peek();
    return t === undefined || (t.kind === 'punct' && (t.value === ',' || t.value === '}' || t.value === ']' || t.value === ')'));
  }

  private skipExpression(): void {
    let depth = 0;
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i];
      if (t.kind === 'punct') {
        if (t.value in OPEN) depth++;
        else if (t.value === '}' || t.value === ']' || t.value === ')') {
          if (depth === 0) return;
          depth--;
        } else if (t.value === ',' && depth === 0) return;
      }
      this.i++;
    }
  }

  /** `{ key: value, ... }` starting at `{`. Spreads, methods and shorthand keys are skipped. */
  object(): Value {
    const entries: Array<[string, Value]> = [];
    this.i++; // {
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i];
      if (t.kind === 'punct' && t.value === '}') {
        this.i++;
        break;
      }
      if (t.kind === 'punct' && t.value === ',') {
        this.i++;
        continue;
      }
      const colon = this.tokens[this.i + 1];
      if ((t.kind === 'word' || t.kind === 'str') && colon?.kind === 'punct' && colon.value === ':') {
        this.i += 2;
        entries.push([t.value, this.value()]);
      } else {
        this.skipExpression();
        if (this.peek()?.kind === 'punct' && this.peek()?.value === ')') this.i++; // unbalanced: give up on this entry
      }
    }
    return { kind: 'obj', entries };
  }

  array(): Value {
    const items: Value[] = [];
    this.i++; // [
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i];
      if (t.kind === 'punct' && t.value === ']') {
        this.i++;
        break;
      }
      if (t.kind === 'punct' && t.value === ',') {
        this.i++;
        continue;
      }
      const before = this.i;
      items.push(this.value());
      if (this.i === before) this.i++; // a stray closing bracket
    }
    return { kind: 'arr', items };
  }
}

/**
 * Every `{` of the source read as an object literal, in source order (nested ones too, and blocks
 * read as objects that hold nothing): options inside a function body are found this way.
 */
function objectLiterals(source: string): Array<Value & { kind: 'obj' }> {
  const tokens = tokenize(source);
  const found: Array<Value & { kind: 'obj' }> = [];
  tokens.forEach((t, i) => {
    if (t.kind === 'punct' && t.value === '{') found.push(new Reader(tokens, i).object() as Value & { kind: 'obj' });
  });
  return found;
}

function get(obj: Value | undefined, key: string): Value | undefined {
  if (obj?.kind !== 'obj') return undefined;
  for (let k = obj.entries.length - 1; k >= 0; k--) if (obj.entries[k][0] === key) return obj.entries[k][1];
  return undefined;
}

// ---- paths ------------------------------------------------------------------------------------

function posixNormalize(p: string): string {
  const normal = path.posix.normalize(p.replace(/\\/g, '/'));
  return normal === '.' ? '' : normal.replace(/\/+$/, '');
}

/**
 * A configured path made workspace-folder relative: relative literals resolve against `base`
 * (itself folder relative). Undefined when it leaves the workspace folder.
 */
function resolveIn(root: string, base: string, literal: string): string | undefined {
  const cleaned = literal.replace(/\\/g, '/');
  const absolute = cleaned.startsWith('/') || /^[A-Za-z]:\//.test(cleaned);
  const rel = absolute ? path.relative(root, cleaned).split(path.sep).join('/') : posixNormalize(path.posix.join(base, cleaned));
  const normal = posixNormalize(rel);
  if (normal === '..' || normal.startsWith('../') || path.isAbsolute(normal)) return undefined;
  return normal;
}

// ---- Playwright --------------------------------------------------------------------------------

const PLAYWRIGHT_KEYS = [
  'testDir',
  'outputDir',
  'snapshotDir',
  'snapshotPathTemplate',
  'projects',
  'use',
  'expect',
  'reporter',
  'webServer',
];

/**
 * The layouts a Playwright config describes: one for the config itself, and one per `projects`
 * entry that overrides testDir, outputDir, snapshotDir or a path template.
 * `configFile` is folder relative; `source` is its text; `root` the folder (absolute paths in the config).
 */
export function readPlaywrightConfig(configFile: string, source: string, root: string): { layouts: PlaywrightLayout[]; notes: string[] } {
  const notes: string[] = [];
  const configDir = posixNormalize(path.posix.dirname(configFile.replace(/\\/g, '/')));
  // the config object: the object literal naming the most of Playwright's top-level keys
  let config: (Value & { kind: 'obj' }) | undefined;
  let best = 0;
  for (const obj of objectLiterals(source)) {
    const score = obj.entries.filter(([k]) => PLAYWRIGHT_KEYS.includes(k)).length;
    if (score > best) {
      best = score;
      config = obj;
    }
  }
  const literal = (obj: Value | undefined, key: string, where: string): string | undefined => {
    const value = get(obj, key);
    if (value === undefined) return undefined;
    if (value.kind === 'str') return value.value;
    notes.push(
      `${configFile}: ${where}${key} is not a string literal (${value.kind === 'other' ? value.text : value.kind}); its default is used`,
    );
    return undefined;
  };
  const dir = (value: string | undefined, key: string, fallback: string): string => {
    if (value === undefined) return fallback;
    const resolved = resolveIn(root, configDir, value);
    if (resolved === undefined) {
      notes.push(`${configFile}: ${key} '${value}' is outside the workspace folder; its default is used`);
      return fallback;
    }
    return resolved;
  };
  const templateOf = (obj: Value | undefined, where: string): string | undefined =>
    literal(get(get(obj, 'expect'), 'toHaveScreenshot'), 'pathTemplate', `${where}expect.toHaveScreenshot.`) ??
    literal(obj, 'snapshotPathTemplate', where);

  const testDirLiteral = literal(config, 'testDir', '');
  const testDir = dir(testDirLiteral, 'testDir', configDir);
  const defaultOutput = posixNormalize(path.posix.join(configDir, 'test-results'));
  let outputDir = dir(literal(config, 'outputDir', ''), 'outputDir', defaultOutput);
  if (outputDir === '') {
    // every file of the folder would count as an output (and none could be a baseline)
    notes.push(`${configFile}: outputDir is the workspace folder itself; only test-results/ folders are searched`);
    outputDir = defaultOutput;
  }
  const snapshotDir = dir(literal(config, 'snapshotDir', ''), 'snapshotDir', testDir);
  const template = templateOf(config, '') ?? PLAYWRIGHT_DEFAULT_TEMPLATE;
  const layouts: PlaywrightLayout[] = [{ config: configFile, testDir, outputDir, snapshotDir, snapshotPathTemplate: template }];

  const projects = get(config, 'projects');
  if (projects !== undefined && projects.kind !== 'arr') {
    notes.push(`${configFile}: projects is not an array literal; per-project folders are not read`);
  }
  for (const project of projects?.kind === 'arr' ? projects.items : []) {
    if (project.kind !== 'obj') continue;
    const name = get(project, 'name');
    const label = name?.kind === 'str' ? name.value : undefined;
    const where = `projects[${label ?? '?'}].`;
    const pTestDir = literal(project, 'testDir', where);
    const pOutput = literal(project, 'outputDir', where);
    const pSnapshot = literal(project, 'snapshotDir', where);
    const pTemplate = templateOf(project, where);
    if (pTestDir === undefined && pOutput === undefined && pSnapshot === undefined && pTemplate === undefined) continue;
    const projectTestDir = dir(pTestDir, `${where}testDir`, testDir);
    layouts.push({
      config: configFile,
      project: label,
      testDir: projectTestDir,
      outputDir: dir(pOutput, `${where}outputDir`, outputDir),
      // a project's snapshotDir defaults to its own testDir unless the config sets one
      snapshotDir: dir(pSnapshot, `${where}snapshotDir`, literal(config, 'snapshotDir', '') === undefined ? projectTestDir : snapshotDir),
      snapshotPathTemplate: pTemplate ?? template,
    });
  }
  if (config === undefined) notes.push(`${configFile}: no configuration object literal found; Playwright's defaults are used`);
  return { layouts, notes };
}

const TOKEN =
  /\{([^A-Za-z{}]?)(testDir|snapshotDir|platform|projectName|testFileDir|testFileName|testFilePath|testName|arg|ext|snapshotSuffix)\}/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The template with {testDir} and {snapshotDir} filled in and made folder relative (Playwright
 * resolves a relative template against the config's folder).
 */
function resolvedTemplate(layout: PlaywrightLayout): string {
  const filled = layout.snapshotPathTemplate
    .replace(/\\/g, '/')
    .replace(/\{testDir\}/g, '\0' + layout.testDir)
    .replace(/\{snapshotDir\}/g, '\0' + layout.snapshotDir);
  if (filled.startsWith('\0')) return filled.slice(1).replace(/\0/g, '').replace(/^\//, '');
  const configDir = posixNormalize(path.posix.dirname(layout.config));
  const joined = (configDir === '' ? '' : configDir + '/') + filled.replace(/\0/g, '').replace(/^(\.\/)+/, '');
  return joined;
}

/** A regular expression for the baselines of snapshot NAME under the layout's template (folder relative). */
export function templatePattern(layout: PlaywrightLayout, name: string): RegExp {
  const template = resolvedTemplate(layout);
  let pattern = '';
  let last = 0;
  for (const match of template.matchAll(TOKEN)) {
    pattern += escapeRegex(template.slice(last, match.index));
    last = (match.index ?? 0) + match[0].length;
    const [, prefix, token] = match;
    let body: string;
    switch (token) {
      case 'arg':
        body = escapeRegex(name);
        break;
      case 'ext':
        body = '\\.png';
        break;
      case 'testFilePath':
        body = '.+';
        break;
      case 'testFileDir':
        // may be empty: "{testFileDir}/" then disappears with its slash
        if (template[last] === '/' && !prefix) {
          last++;
          body = '(?:.+/)?';
        } else body = '.*';
        break;
      case 'projectName':
      case 'snapshotSuffix':
        body = '[^/]*';
        break;
      default:
        body = '[^/]+';
    }
    pattern += prefix ? `(?:${escapeRegex(prefix)}${body})?` : body;
  }
  pattern += escapeRegex(template.slice(last));
  return new RegExp(`^${pattern.replace(/\/\//g, '/')}$`, 'i');
}

/** The folder (folder relative) under which a layout's baselines lie: the template's fixed start. */
export function templateBaseDir(layout: PlaywrightLayout): string {
  const template = resolvedTemplate(layout);
  const first = template.search(/\{/);
  const fixed = first < 0 ? template : template.slice(0, first);
  const slash = fixed.lastIndexOf('/');
  return slash < 0 ? '' : fixed.slice(0, slash);
}

// ---- jest-image-snapshot ---------------------------------------------------------------------

const JEST_KEYS = ['customSnapshotsDir', 'customDiffDir', 'customReceivedDir'] as const;

/** jest-image-snapshot folders set by literal options in one file (relative literals: against `baseDir`, the jest rootDir). */
export function readJestImageSnapshotOptions(
  file: string,
  source: string,
  root: string,
  baseDir: string,
): { dirs: JestSnapshotDirs[]; notes: string[] } {
  const notes: string[] = [];
  const dirs: JestSnapshotDirs[] = [];
  const seen = new Set<string>();
  for (const obj of objectLiterals(source)) {
    const entry: JestSnapshotDirs = { source: file };
    let any = false;
    for (const key of JEST_KEYS) {
      const value = get(obj, key);
      if (value === undefined) continue;
      if (value.kind !== 'str') {
        notes.push(`${file}: ${key} is not a string literal (${value.kind === 'other' ? value.text : value.kind}); not followed`);
        continue;
      }
      const resolved = resolveIn(root, baseDir, value.value);
      if (resolved === undefined) {
        notes.push(`${file}: ${key} '${value.value}' is outside the workspace folder; not followed`);
        continue;
      }
      any = true;
      if (key === 'customSnapshotsDir') entry.snapshotsDir = resolved;
      else if (key === 'customDiffDir') entry.diffDir = resolved;
      else entry.receivedDir = resolved;
    }
    const key = `${entry.snapshotsDir}|${entry.diffDir}|${entry.receivedDir}`;
    if (any && !seen.has(key)) {
      seen.add(key);
      dirs.push(entry);
    }
  }
  return { dirs, notes };
}

/** The folders a jest entry writes diffs and received images to (with the package's defaults). */
export function jestOutputDirs(entry: JestSnapshotDirs): { diffDir?: string; receivedDir?: string } {
  return {
    diffDir: entry.diffDir ?? (entry.snapshotsDir !== undefined ? `${entry.snapshotsDir}/__diff_output__` : undefined),
    receivedDir: entry.receivedDir ?? (entry.snapshotsDir !== undefined ? `${entry.snapshotsDir}/__received_output__` : undefined),
  };
}

// ---- the whole folder ----------------------------------------------------------------------------

const PLAYWRIGHT_CONFIG = /(^|\/)playwright\.config\.(ts|js|mjs|cjs|mts|cts)$/;
const MAX_CONFIG_BYTES = 1_000_000;

function nearestPackageDir(root: string, fileDir: string): string {
  let dir = fileDir;
  for (;;) {
    if (fs.existsSync(path.join(root, ...dir.split('/').filter(Boolean), 'package.json'))) return dir;
    if (dir === '') return '';
    const up = path.posix.dirname(dir);
    dir = up === '.' ? '' : up;
  }
}

/**
 * Reads the snapshot layout of a workspace folder from the given candidate files (folder relative):
 * Playwright configs by name, any other file for jest-image-snapshot options. Files that cannot be
 * read are noted and skipped.
 */
export function readSnapshotLayout(root: string, files: readonly string[]): SnapshotLayout {
  const layout: SnapshotLayout = { playwright: [], jest: [], notes: [] };
  for (const file of [...files].map((f) => f.replace(/\\/g, '/')).sort()) {
    let source: string;
    try {
      const full = path.join(root, ...file.split('/'));
      if (fs.statSync(full).size > MAX_CONFIG_BYTES) continue;
      source = fs.readFileSync(full, 'utf8');
    } catch (error) {
      layout.notes.push(`${file}: cannot be read (${(error as Error).message})`);
      continue;
    }
    if (PLAYWRIGHT_CONFIG.test(file)) {
      const { layouts, notes } = readPlaywrightConfig(file, source, root);
      layout.playwright.push(...layouts);
      layout.notes.push(...notes);
    } else if (/customSnapshotsDir|customDiffDir|customReceivedDir/.test(source)) {
      const dir = posixNormalize(path.posix.dirname(file));
      const { dirs, notes } = readJestImageSnapshotOptions(file, source, root, nearestPackageDir(root, dir));
      layout.jest.push(...dirs);
      layout.notes.push(...notes);
    }
  }
  return layout;
}
