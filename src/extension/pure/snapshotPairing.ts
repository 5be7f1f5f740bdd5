// Pairs the image files that screenshot tests leave behind into before/after comparisons.
// Pure path logic (no file access, no `vscode`) so it is unit-tested with node:test.
//
// Playwright (toHaveScreenshot / toMatchSnapshot) writes, per failed assertion, into the test's
// folder under test-results/:  NAME-expected.png (a copy of the baseline), NAME-actual.png and
// NAME-diff.png. The real baseline lives in a `*-snapshots/` folder beside the test file.
// jest-image-snapshot writes __image_snapshots__/NAME.png (the baseline), on failure
// __image_snapshots__/__diff_output__/NAME-diff.png (a composite: baseline | diff | received) and,
// with storeReceivedOnFailure, __image_snapshots__/__received_output__/NAME-received.png.
// A project's own folders (Playwright's outputDir and snapshotPathTemplate, jest-image-snapshot's
// customSnapshotsDir/customDiffDir/customReceivedDir) come in a SnapshotLayout (snapshotConfig.ts);
// the default folders are always recognised as well.
import { EMPTY_LAYOUT, jestOutputDirs, templatePattern, type SnapshotLayout } from './snapshotConfig.js';

export interface SnapshotPair {
  framework: 'playwright' | 'jest-image-snapshot';
  /** the snapshot's name, e.g. "homepage-1" */
  name: string;
  /** the expected image: for Playwright the -expected copy, for jest the baseline itself */
  expected: string;
  /** the received image; undefined for jest runs without storeReceivedOnFailure (use the composite) */
  actual?: string;
  /** the tool's own diff image */
  diff?: string;
  /** the file an "accept" would overwrite, when known from paths alone (jest); Playwright's is found by content */
  baseline?: string;
}

function normalise(filePath: string): string {
  return filePath.replace(/\\/g, '/');
}

function splitPath(filePath: string): { dir: string; base: string } {
  const slash = filePath.lastIndexOf('/');
  return { dir: slash < 0 ? '' : filePath.slice(0, slash), base: slash < 0 ? filePath : filePath.slice(slash + 1) };
}

function join(dir: string, base: string): string {
  return dir === '' ? base : `${dir}/${base}`;
}

function under(filePath: string, dir: string): boolean {
  return dir === '' || filePath.startsWith(dir + '/');
}

/** True when the path lies in a Playwright output folder (`test-results` anywhere, or a configured outputDir). */
function isInTestResults(filePath: string, layout: SnapshotLayout = EMPTY_LAYOUT): boolean {
  return /(^|\/)test-results\//.test(filePath) || layout.playwright.some((p) => under(filePath, p.outputDir));
}

/**
 * Pairs screenshot-test outputs found among `paths` (any mix of files; only PNGs matter).
 * Sorted by path for a stable order. A Playwright -actual with no -expected (a first run with no
 * baseline) is not a pair: there is nothing to compare.
 */
export function pairSnapshotOutputs(paths: readonly string[], layout: SnapshotLayout = EMPTY_LAYOUT): SnapshotPair[] {
  const all = new Set(paths.map(normalise));
  const pairs: SnapshotPair[] = [];
  for (const filePath of [...all].sort()) {
    const { dir, base } = splitPath(filePath);
    const playwright = /^(.+)-actual\.png$/i.exec(base);
    if (playwright && isInTestResults(filePath, layout)) {
      const name = playwright[1];
      const expected = join(dir, `${name}-expected.png`);
      if (!all.has(expected)) continue;
      const diff = join(dir, `${name}-diff.png`);
      pairs.push({ framework: 'playwright', name, expected, actual: filePath, diff: all.has(diff) ? diff : undefined });
      continue;
    }
    const jest = /^(.+)-diff\.png$/i.exec(base);
    if (!jest) continue;
    const name = jest[1];
    if (/(^|\/)__image_snapshots__\/__diff_output__$/.test(dir)) {
      const snapshotsDir = dir.slice(0, dir.length - '/__diff_output__'.length);
      const baseline = join(snapshotsDir, `${name}.png`);
      if (all.has(baseline)) {
        const received = join(snapshotsDir, `__received_output__/${name}-received.png`);
        pairs.push({
          framework: 'jest-image-snapshot',
          name,
          expected: baseline,
          baseline,
          actual: all.has(received) ? received : undefined,
          diff: filePath,
        });
        continue;
      }
    }
    // a configured customDiffDir (or customSnapshotsDir's __diff_output__)
    for (const entry of layout.jest) {
      const outputs = jestOutputDirs(entry);
      if (outputs.diffDir !== dir) continue;
      const baseline =
        entry.snapshotsDir !== undefined
          ? join(entry.snapshotsDir, `${name}.png`)
          : [...all].sort().find((p) => new RegExp(`(^|/)__image_snapshots__/${escapeRegex(name)}\\.png$`).test(p));
      if (baseline === undefined || !all.has(baseline)) continue;
      const received = outputs.receivedDir !== undefined ? join(outputs.receivedDir, `${name}-received.png`) : undefined;
      pairs.push({
        framework: 'jest-image-snapshot',
        name,
        expected: baseline,
        baseline,
        actual: received !== undefined && all.has(received) ? received : undefined,
        diff: filePath,
      });
      break;
    }
  }
  return pairs;
}

/**
 * Files that may be the real baseline behind a Playwright NAME-expected.png: PNGs outside the
 * output folders that match a configured snapshotPathTemplate (layout), then those in a `*-snapshots`
 * folder named NAME.png or NAME-<project>-<platform>.png (the default template). The caller confirms
 * the one whose bytes equal the -expected copy (paths alone are ambiguous).
 */
export function playwrightBaselineCandidates(
  pair: SnapshotPair,
  paths: readonly string[],
  layout: SnapshotLayout = EMPTY_LAYOUT,
): string[] {
  if (pair.framework !== 'playwright') return [];
  const pattern = new RegExp(`^${escapeRegex(pair.name)}(-[^/]+)?\\.png$`, 'i');
  const all = paths.map(normalise).filter((p) => !isInTestResults(p, layout));
  // the configured templates' matches first, then the default `*-snapshots/` folders
  const templates = layout.playwright.map((p) => templatePattern(p, pair.name));
  const fromTemplates = all.filter((p) => templates.some((t) => t.test(p))).sort();
  const byDefault = all.filter((p) => /-snapshots\//.test(p) && pattern.test(splitPath(p).base)).sort();
  return [...new Set([...fromTemplates, ...byDefault])];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where the baseline and the received image sit in a jest-image-snapshot composite diff
 * (horizontal layout: baseline | diff | received, equal widths when the images match in size).
 * Returns undefined when the width does not split in three.
 */
export function jestCompositeParts(
  width: number,
  height: number,
): { baseline: [number, number, number, number]; received: [number, number, number, number] } | undefined {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 3 || height < 1 || width % 3 !== 0) return undefined;
  const third = width / 3;
  return { baseline: [0, 0, third, height], received: [2 * third, 0, width, height] };
}
