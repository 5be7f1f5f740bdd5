// Finds the screenshot files that a line of code or Markdown names, for the inline caption
// annotations. Pure text logic (no `vscode`), unit-tested with node:test.

export interface ImageReference {
  /** the path as written in the text (relative or absolute, forward or back slashes) */
  text: string;
  /** character offsets of `text` in the line */
  start: number;
  end: number;
}

// A path-like run of characters ending in .png, stopped by quotes, brackets, whitespace and the
// characters that end a Markdown link or an HTML attribute. URLs (scheme://) are left out: the
// extension never fetches anything.
const PNG_PATH = /[A-Za-z0-9_.\-/\\@%+~]*[A-Za-z0-9_\-@%+~]\.png\b/gi;

/** All references to .png files in one line, left to right. */
export function findImageReferences(line: string): ImageReference[] {
  const found: ImageReference[] = [];
  for (const match of line.matchAll(PNG_PATH)) {
    const start = match.index ?? 0;
    const previous = line.slice(0, start);
    if (/[a-z][a-z0-9+.-]*:(\/\/[^\s"'()<>]*)?$/i.test(previous)) continue; // part of a URL
    found.push({ text: match[0], start, end: start + match[0].length });
  }
  return found;
}

/**
 * Candidate absolute paths for a reference: relative to the document's folder first, then to each
 * workspace folder. Paths that climb out of every workspace folder are dropped: annotations only
 * ever read files inside the workspace.
 */
export function resolveImageReference(reference: string, documentDir: string, workspaceRoots: readonly string[]): string[] {
  const cleaned = reference.replace(/\\/g, '/');
  const bases = cleaned.startsWith('/') ? [''] : [documentDir, ...workspaceRoots];
  const results: string[] = [];
  for (const base of bases) {
    const candidate = normaliseSegments(base === '' ? cleaned : `${base.replace(/\\/g, '/')}/${cleaned}`);
    if (candidate === undefined) continue;
    if (!workspaceRoots.some((root) => isInside(candidate, root))) continue;
    if (!results.includes(candidate)) results.push(candidate);
  }
  return results;
}

function isInside(filePath: string, root: string): boolean {
  const normalisedRoot = root.replace(/\\/g, '/').replace(/\/+$/, '');
  return filePath.startsWith(normalisedRoot + '/');
}

/** Resolves . and .. segments; undefined when .. climbs above the root. */
function normaliseSegments(filePath: string): string | undefined {
  const absolute = filePath.startsWith('/');
  const out: string[] = [];
  for (const part of filePath.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return (absolute ? '/' : '') + out.join('/');
}

/**
 * The text shown at the end of a line that names changed screenshots: the caption alone for one,
 * each file's name with its caption for several (in the order they appear on the line).
 */
export function lineCaption(captions: ReadonlyArray<{ reference: string; summary: string }>): string {
  if (captions.length === 1) return `ProCap: ${captions[0].summary}`;
  const name = (reference: string) => reference.replace(/\\/g, '/').split('/').at(-1) ?? reference;
  return `ProCap: ${captions.map((c) => `${name(c.reference)}: ${c.summary}`).join(' · ')}`;
}
