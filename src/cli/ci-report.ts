// CI outputs of a batch report: the pull-request summary in Markdown, the JUnit XML that CI systems
// show as test results, and the merge of the JSON reports of `--shard i/n` runs into the report one
// unsharded run would have written (timings aside).
import type { ChangeRegion, ChangeReport } from '../core/report.js';
import type { GalleryEntry } from '../core/html-report.js';

/** The JSON report of `procap batch` (docs/CLI.md). */
export interface BatchResult {
  shard?: { index: number; count: number };
  summary: {
    pairs: number;
    compared: number;
    changed: number;
    unchanged: number;
    added: number;
    removed: number;
    errors: number;
    seconds: number;
  };
  pairs: BatchPair[];
}

export interface BatchPair {
  name: string;
  status: GalleryEntry['status'];
  changed: boolean;
  summary?: string;
  error?: string;
  /** where the two screenshots were read: a file path or `REF:path` (absent for the missing side) */
  before?: string;
  after?: string;
  report?: ChangeReport;
}

/** A problem with the reports given to merge (exit 2, like a usage error). */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

/** The regions a reader is shown: meaningful ones first (noise regions only when nothing else changed). */
function captionedRegions(report: ChangeReport): ChangeRegion[] {
  const regions = report.regions.filter((r) => !r.noiseOnly);
  if (report.global && !report.global.noiseOnly) regions.unshift(report.global);
  return regions;
}

/** One line per changed region: `[kind] caption`. */
export function regionLines(report: ChangeReport | undefined): string[] {
  if (!report) return [];
  const lines = report.sizeChange ? [`[size] ${report.sizeChange}`] : [];
  for (const r of captionedRegions(report)) lines.push(`[${r.kind}] ${r.caption}`);
  return lines;
}

/** Text shown literally in Markdown (GitHub flavour): its punctuation escaped, on one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}

export interface MarkdownOptions {
  /** where the HTML report can be opened (a URL, or a path relative to the Markdown file) */
  htmlLink?: string;
  title?: string;
}

/**
 * The pull-request summary: the counts, then every changed screenshot with its summary and region
 * captions, the added, removed and failed ones by name, and a link to the HTML report when given.
 */
export function renderMarkdown(result: BatchResult, options: MarkdownOptions = {}): string {
  const s = result.summary;
  const lines: string[] = [`## ${options.title ?? 'ProCap Review'}`, ''];
  const verdict =
    s.changed + s.added + s.removed + s.errors === 0
      ? `No visible change in ${s.pairs} screenshot${s.pairs === 1 ? '' : 's'}.`
      : `${s.changed} changed, ${s.unchanged} unchanged, ${s.added} added, ${s.removed} removed, ${s.errors} failed.`;
  lines.push(verdict, '');
  lines.push('| changed | unchanged | added | removed | failed | screenshots |', '|---:|---:|---:|---:|---:|---:|');
  lines.push(`| ${s.changed} | ${s.unchanged} | ${s.added} | ${s.removed} | ${s.errors} | ${s.pairs} |`, '');
  if (options.htmlLink)
    lines.push(`Full report with the screenshots and boxes: [HTML report](${options.htmlLink.replace(/[()\s]/g, encodeURIComponent)})`, '');
  const changed = result.pairs.filter((p) => p.status === 'compared' && p.changed);
  if (changed.length) {
    lines.push('### Changed', '');
    for (const p of changed) {
      lines.push(`- **${escapeMarkdown(p.name)}**: ${escapeMarkdown(p.summary ?? p.report?.summary ?? '')}`);
      for (const line of regionLines(p.report)) lines.push(`  - ${escapeMarkdown(line)}`);
    }
    lines.push('');
  }
  for (const [status, heading] of [
    ['added', 'Added'],
    ['removed', 'Removed'],
  ] as const) {
    const names = result.pairs.filter((p) => p.status === status).map((p) => `- ${escapeMarkdown(p.name)}`);
    if (names.length) lines.push(`### ${heading}`, '', ...names, '');
  }
  const failed = result.pairs.filter((p) => p.status === 'error');
  if (failed.length) {
    lines.push('### Failed', '');
    for (const p of failed) lines.push(`- **${escapeMarkdown(p.name)}**: ${escapeMarkdown(p.error ?? 'failed')}`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Text as XML character data or an attribute value: escaped, and characters XML 1.0 forbids dropped. */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
      .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string)
  );
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/**
 * JUnit XML (testsuites > testsuite > testcase): one test case per screenshot. A changed pair is a
 * `<failure>` whose message is its summary and whose body lists the region captions; an added or
 * removed screenshot is a failure too (type `added`/`removed`); a pair that could not be compared
 * is an `<error>`.
 */
export function renderJunit(result: BatchResult, suiteName = 'procap'): string {
  const s = result.summary;
  const failures = s.changed + s.added + s.removed;
  const cases = result.pairs.map((p) => {
    const time = seconds(p.report?.timings.totalMs);
    const open = `    <testcase classname="${escapeXml(suiteName)}" name="${escapeXml(p.name)}" time="${time}"`;
    if (p.status === 'error') {
      const message = p.error ?? 'failed';
      return `${open}>\n      <error message="${escapeXml(message)}" type="error">${escapeXml(message)}</error>\n    </testcase>`;
    }
    if (p.status === 'added' || p.status === 'removed') {
      const message = `screenshot ${p.status}: ${p.name}`;
      return `${open}>\n      <failure message="${escapeXml(message)}" type="${p.status}">${escapeXml(message)}</failure>\n    </testcase>`;
    }
    if (!p.changed) return `${open}/>`;
    const summary = p.summary ?? p.report?.summary ?? 'changed';
    const captions = regionLines(p.report);
    const message = [summary, ...captions].join('; ');
    const body = [summary, ...captions.map((c) => `  ${c}`)].join('\n');
    return `${open}>\n      <failure message="${escapeXml(message)}" type="changed">${escapeXml(body)}</failure>\n    </testcase>`;
  });
  const counts = `tests="${result.pairs.length}" failures="${failures}" errors="${s.errors}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escapeXml(suiteName)}" ${counts} time="${s.seconds.toFixed(3)}">`,
    `  <testsuite name="${escapeXml(suiteName)}" ${counts} skipped="0" time="${s.seconds.toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** Whether `value` has the shape of a batch JSON report (enough to merge it). */
function isBatchResult(value: unknown): value is BatchResult {
  const v = value as BatchResult;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.summary === 'object' &&
    v.summary !== null &&
    Array.isArray(v.pairs) &&
    v.pairs.every((p) => typeof p?.name === 'string' && typeof p.status === 'string')
  );
}

/**
 * Joins the reports of the shards of one batch (`--shard 1/n` ... `n/n`) into the report of the whole
 * run: the pairs in name order, the counts added up, `seconds` the longest shard's (they run side by
 * side). Refuses reports that are not batch reports, shards of different counts, a shard given twice
 * or missing, and a screenshot in two shards. A single report without `shard` is taken as it is.
 */
export function mergeReports(reports: { file: string; data: unknown }[]): BatchResult {
  if (!reports.length) throw new MergeError('merge needs at least one JSON report');
  const results: BatchResult[] = [];
  for (const { file, data } of reports) {
    if (!isBatchResult(data)) throw new MergeError(`${file}: not a procap batch JSON report`);
    results.push(data);
  }
  const sharded = results.filter((r) => r.shard);
  if (sharded.length && sharded.length !== results.length)
    throw new MergeError('some reports are shards and some are whole runs: merge the shards of one run');
  if (sharded.length) {
    const count = sharded[0].shard!.count;
    const seen = new Map<number, string>();
    results.forEach((r, i) => {
      const file = reports[i].file;
      if (r.shard!.count !== count)
        throw new MergeError(`${file} is shard ${r.shard!.index}/${r.shard!.count}, ${reports[0].file} of ${count} shards`);
      if (seen.has(r.shard!.index))
        throw new MergeError(`shard ${r.shard!.index}/${count} given twice: ${seen.get(r.shard!.index)} and ${file}`);
      seen.set(r.shard!.index, file);
    });
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
    if (missing.length)
      throw new MergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`);
  }
  const pairs: BatchPair[] = [];
  const from = new Map<string, string>();
  results.forEach((r, i) => {
    for (const p of r.pairs) {
      if (from.has(p.name)) throw new MergeError(`${p.name} is in both ${from.get(p.name)} and ${reports[i].file}`);
      from.set(p.name, reports[i].file);
      pairs.push(p);
    }
  });
  // the order batch lists pairs in (sorted by name, as strings compare)
  pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const summary: BatchResult['summary'] = {
    pairs: pairs.length,
    compared: 0,
    changed: 0,
    unchanged: 0,
    added: 0,
    removed: 0,
    errors: 0,
    seconds: Math.max(...results.map((r) => Number(r.summary.seconds) || 0)),
  };
  for (const p of pairs) {
    if (p.status === 'compared') {
      summary.compared++;
      summary[p.changed ? 'changed' : 'unchanged']++;
    } else if (p.status === 'added' || p.status === 'removed') summary[p.status]++;
    else summary.errors++;
  }
  return { summary, pairs };
}
