// procap.config.json: ignore regions and difference thresholds per screenshot glob, read by the
// command line and the extension. Parsed strictly: a wrong type, a box out of order or an unknown key
// is an error naming the file and the key, never silently ignored.
import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { Box } from './report.js';
import { isValidBox } from './masks.js';

export const CONFIG_FILE_NAME = 'procap.config.json';

export interface ScreenshotRule {
  /** glob over the screenshot's forward-slash path (see matchesGlob). */
  glob: string;
  masks: Box[];
  minDiffPixels?: number;
  minDiffRatio?: number;
}

export interface ProcapConfig {
  /** the file it was read from (for messages); undefined for a config built in code. */
  file?: string;
  minDiffPixels?: number;
  minDiffRatio?: number;
  screenshots: ScreenshotRule[];
}

/** What applies to one screenshot: every matching rule's masks, the last matching rule's thresholds. */
export interface ScreenshotSettings {
  masks: Box[];
  minDiffPixels?: number;
  minDiffRatio?: number;
}

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

// Globs are matched by picomatch (kept, dependency-free, MIT): `dot` so that `*` and `**` also match
// names and folders that start with a dot, and `windows: false` so that a backslash escapes on every
// platform (the paths matched are forward-slash paths, whatever the OS); `posix` for `[!x]` as in a shell.
const GLOB_OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, windows: false };
const compiled = new Map<string, (path: string) => boolean>();

/**
 * A matcher of whole forward-slash paths for `glob`: `*` any characters but `/`, `?` one of them,
 * `**` any number of folders, `{x,y}` either, `{1..3}` a range, `[abc]` / `[a-z]` / `[!x]` one of a
 * set, `\` escapes the character after it. Throws TypeError on an empty glob.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  let match = compiled.get(glob);
  if (match === undefined) {
    match = picomatch(glob, GLOB_OPTIONS);
    if (compiled.size > 1000) compiled.clear(); // a long batch over many --config globs stays bounded
    compiled.set(glob, match);
  }
  return match;
}

/**
 * Whether the forward-slash path `file` matches `glob` (see globMatcher). A glob without `/`
 * matches the file name in any folder (as in .gitignore): `clock-*.png` matches
 * `pages/clock-1.png`; a leading `./` anchors a glob at the root instead (`./home.png` is the
 * top-level file only). A leading `./` and backslashes in `file` are ignored.
 */
export function matchesGlob(file: string, glob: string): boolean {
  const name = file.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  if (!glob.includes('/')) return globMatcher(glob)(name.slice(name.lastIndexOf('/') + 1));
  return globMatcher(glob.replace(/^(\.\/)+/, ''))(name);
}

const GLOB_SPECIAL = /[\\*?[\]{}()!+@,]/g;

/**
 * The glob that matches exactly the screenshot `name` (a forward-slash path relative to the config's
 * folder) and nothing else: glob characters escaped, and a top-level file anchored with `./` (a glob
 * without `/` would match the same name in every folder).
 */
export function exactGlob(name: string): string {
  const escaped = name.replace(GLOB_SPECIAL, '\\$&');
  return escaped.includes('/') ? escaped : `./${escaped}`;
}

const TOP_KEYS = ['$schema', 'minDiffPixels', 'minDiffRatio', 'screenshots'];
const RULE_KEYS = ['glob', 'masks', 'minDiffPixels', 'minDiffRatio'];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function thresholdsOf(
  object: Record<string, unknown>,
  where: string,
  fail: (m: string) => never,
): Pick<ScreenshotRule, 'minDiffPixels' | 'minDiffRatio'> {
  const out: Pick<ScreenshotRule, 'minDiffPixels' | 'minDiffRatio'> = {};
  const px = object.minDiffPixels;
  if (px !== undefined) {
    if (typeof px !== 'number' || !Number.isSafeInteger(px) || px < 0)
      fail(`${where}minDiffPixels must be an integer of 0 or more (got ${JSON.stringify(px)})`);
    out.minDiffPixels = px;
  }
  const ratio = object.minDiffRatio;
  if (ratio !== undefined) {
    if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1))
      fail(`${where}minDiffRatio must be a number from 0 to 1 (got ${JSON.stringify(ratio)})`);
    out.minDiffRatio = ratio;
  }
  return out;
}

/** Parses the text of a procap.config.json; throws ConfigError naming `file` and the key at fault. */
export function parseConfig(text: string, file: string): ProcapConfig {
  const fail = (message: string): never => {
    throw new ConfigError(`${file}: ${message}`, file);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    fail(`not valid JSON (${(e as Error).message})`);
  }
  if (!isPlainObject(raw)) fail('must be a JSON object');
  const top = raw as Record<string, unknown>;
  for (const key of Object.keys(top))
    if (!TOP_KEYS.includes(key)) fail(`unknown key "${key}" (known: ${TOP_KEYS.filter((k) => k !== '$schema').join(', ')})`);
  const config: ProcapConfig = { file, ...thresholdsOf(top, '', fail), screenshots: [] };
  if (top.screenshots !== undefined) {
    if (!Array.isArray(top.screenshots)) fail('"screenshots" must be an array of {glob, masks?, minDiffPixels?, minDiffRatio?}');
    (top.screenshots as unknown[]).forEach((entry, i) => {
      const where = `screenshots[${i}]`;
      if (!isPlainObject(entry)) fail(`${where} must be an object {glob, masks?, minDiffPixels?, minDiffRatio?}`);
      const rule = entry as Record<string, unknown>;
      for (const key of Object.keys(rule))
        if (!RULE_KEYS.includes(key)) fail(`unknown key "${where}.${key}" (known: ${RULE_KEYS.join(', ')})`);
      if (typeof rule.glob !== 'string' || rule.glob.trim() === '')
        fail(`${where}.glob must be a non-empty string (a screenshot path glob)`);
      const masks: Box[] = [];
      if (rule.masks !== undefined) {
        if (!Array.isArray(rule.masks)) fail(`${where}.masks must be an array of [x0, y0, x1, y1] boxes`);
        (rule.masks as unknown[]).forEach((box, j) => {
          if (!isValidBox(box)) {
            const detail =
              Array.isArray(box) && box.length === 4 && box.every((v) => Number.isSafeInteger(v) && v >= 0)
                ? 'x0 < x1 and y0 < y1 (the top-left corner first)'
                : 'four integers of 0 or more, in pixels';
            fail(`${where}.masks[${j}] must be [x0, y0, x1, y1] with ${detail} (got ${JSON.stringify(box)})`);
          }
          masks.push([...(box as Box)]);
        });
      }
      config.screenshots.push({ glob: rule.glob as string, masks, ...thresholdsOf(rule, `${where}.`, fail) });
    });
  }
  return config;
}

/** Reads and parses a config file; a missing or unreadable file is a ConfigError naming it. */
export function loadConfig(file: string): ProcapConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${file}: cannot read the config file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, file);
  }
  return parseConfig(text, file);
}

/** The config of `folder` (its procap.config.json), or undefined when it has none. */
export function findConfig(folder: string): ProcapConfig | undefined {
  const file = path.join(folder, CONFIG_FILE_NAME);
  return fs.existsSync(file) ? loadConfig(file) : undefined;
}

/**
 * What applies to the screenshot `name` (a forward-slash path): the global thresholds, then every
 * matching rule in order - masks add up, a rule's threshold replaces the one before.
 */
export function settingsFor(config: ProcapConfig | undefined, name: string): ScreenshotSettings {
  const out: ScreenshotSettings = { masks: [] };
  if (!config) return out;
  if (config.minDiffPixels !== undefined) out.minDiffPixels = config.minDiffPixels;
  if (config.minDiffRatio !== undefined) out.minDiffRatio = config.minDiffRatio;
  for (const rule of config.screenshots) {
    if (!matchesGlob(name, rule.glob)) continue;
    out.masks.push(...rule.masks);
    if (rule.minDiffPixels !== undefined) out.minDiffPixels = rule.minDiffPixels;
    if (rule.minDiffRatio !== undefined) out.minDiffRatio = rule.minDiffRatio;
  }
  return out;
}

/** The name a file is matched by: its path relative to `root` with forward slashes, or its absolute path when outside. */
export function screenshotName(file: string, root: string): string {
  const relative = path.relative(root, path.resolve(file));
  const name = relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(file) : relative;
  return name.split(path.sep).join('/');
}
