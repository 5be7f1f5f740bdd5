// Pairs the image files that screenshot tests leave behind into before/after comparisons.
// Pure path logic (no file access, no `vscode`) so it is unit-tested with node:test.
//
// Playwright (toHaveScreenshot / toMatchSnapshot) writes, per failed assertion, into the test's
// folder under test-results/:  NAME-expected.png (a copy of the baseline), NAME-actual.png and
// NAME-diff.png. The real baseline lives in a `*-snapshots/` folder beside the test file.
// jest-image-snapshot writes __image_snapshots__/NAME.png (the baseline), on failure
// __image_snapshots__/__diff_output__/NAME-diff.png (a composite: baseline | diff | received) and,
// with storeReceivedOnFailure, __image_snapshots__/__received_output__/NAME-received.png.

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

/** True when the path lies in a Playwright output folder (default `test-results`). */
function isInTestResults(filePath: string): boolean {
  return /(^|\/)test-results\//.test(filePath);
}

/**
 * Pairs screenshot-test outputs found among `paths` (any mix of files; only PNGs matter).
 * Sorted by path for a stable order. A Playwright -actual with no -expected (a first run with no
 * baseline) is not a pair: there is nothing to compare.
 */
export function pairSnapshotOutputs(paths: readonly string[]): SnapshotPair[] {
  const all = new Set(paths.map(normalise));
  const pairs: SnapshotPair[] = [];
  for (const filePath of [...all].sort()) {
    const { dir, base } = splitPath(filePath);
    const playwright = /^(.+)-actual\.png$/i.exec(base);
    if (playwright && isInTestResults(filePath)) {
      const name = playwright[1];
      const expected = join(dir, `${name}-expected.png`);
      if (!all.has(expected)) continue;
      const diff = join(dir, `${name}-diff.png`);
      pairs.push({ framework: 'playwright', name, expected, actual: filePath, diff: all.has(diff) ? diff : undefined });
      continue;
    }
    const jest = /^(.+)-diff\.png$/i.exec(base);
    if (jest && /(^|\/)__image_snapshots__\/__diff_output__$/.test(dir)) {
      const name = jest[1];
      const snapshotsDir = dir.slice(0, dir.length - '/__diff_output__'.length);
      const baseline = join(snapshotsDir, `${name}.png`);
      if (!all.has(baseline)) continue;
      const received = join(snapshotsDir, `__received_output__/${name}-received.png`);
      pairs.push({
        framework: 'jest-image-snapshot',
        name,
        expected: baseline,
        baseline,
        actual: all.has(received) ? received : undefined,
        diff: filePath,
      });
    }
  }
  return pairs;
}

/**
 * Files that may be the real baseline behind a Playwright NAME-expected.png: PNGs outside
 * test-results in a `*-snapshots` folder named NAME.png or NAME-<project>-<platform>.png. The
 * caller confirms the one whose bytes equal the -expected copy (paths alone are ambiguous when a
 * project uses a custom snapshotPathTemplate).
 */
export function playwrightBaselineCandidates(pair: SnapshotPair, paths: readonly string[]): string[] {
  if (pair.framework !== 'playwright') return [];
  const escaped = pair.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${escaped}(-[^/]+)?\\.png$`, 'i');
  return paths
    .map(normalise)
    .filter((p) => !isInTestResults(p) && /-snapshots\//.test(p) && pattern.test(splitPath(p).base))
    .sort();
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
