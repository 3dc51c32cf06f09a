/**
 * The benchmark's table (scripts/bench/run calls it): the domain results of domain.ts, the
 * browser results of browser.ts and the built package's sizes, against the targets of issue 8.
 *
 *   node_modules/.bin/tsx scripts/bench/report.ts --domain bench/results/domain.json --browser browser.json \
 *     --package dist-pkg/os-upgrades-0.1.0 --name os-upgrades-0.1.0 --out bench/results/latest.json
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { cpus, loadavg } from 'os';
import type { BrowserResults } from './browser';
import type { PlainFirstVisits } from './first-visit-plain';
import type { PagesResults } from './pages';
import { packageDiffOwnRender } from './package-diff-render';
import { describeRegression, REGRESSION_FRACTION, regressions } from './regressions';
import { measurePackage, PackageSizes } from './size';

/** rancher/elemental-ui's main umd.min.js built with build-pkg on shell 3.0.11. */
export const ELEMENTAL_UMD = { raw: 1658310, gzip: 469557 };
/** The initially loaded UMD, gzipped, at most a tenth of Elemental's. */
const ENTRY_GZIP_TARGET = Math.floor(ELEMENTAL_UMD.gzip / 10);
const INTERACTION_P95_MS = 100;
const LARGE_COMPARE_P95_MS = 300;
/** The 500-image compare's first visit, complete (issue 19). */
const LARGE_COMPARE_FIRST_MS = 1000;
const NAIVE_RATIO = 5;
/** Issue 19, on a large Rancher: first paint after login, warm navigations, heap after a GC, the pool form's JS. */
const COLD_PAGE_MS = 1000;
const WARM_PAGE_P95_MS = 100;
const HEAP_AFTER_GC_BYTES = 100e6;
const POOL_FORM_GZIP = 150e3;

interface DomainResult {
  name: string;
  runs: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  cpuMedianMs: number;
  targetMs?: number;
  pass?: boolean;
}

interface DomainResults {
  loadAverage: number[];
  results: DomainResult[];
}

export interface Row {
  metric: string;
  median: string;
  p95: string;
  target: string;
  /** undefined: reported, no target. */
  pass?: boolean;
  note?: string;
  /** The numbers behind the row, for latest.json. */
  values?: Record<string, number>;
}

function option(name: string): string {
  const i = process.argv.indexOf(`--${ name }`);

  if (i < 0 || !process.argv[i + 1]) {
    throw new Error(`--${ name } is required (--domain FILE --browser FILE --package DIR --name NAME --out FILE [--load-start "a b c"])`);
  }

  return process.argv[i + 1];
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);

  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

const ms = (value: number) => `${ value.toFixed(value < 10 ? 2 : 1) } ms`;
const kb = (bytes: number) => `${ (bytes / 1000).toFixed(1) } kB`;
const mb = (bytes: number) => `${ (bytes / 1e6).toFixed(1) } MB`;

function timingRow(metric: string, samples: number[], targetMs?: number, note?: string): Row {
  const median = percentile(samples, 0.5);
  const p95 = percentile(samples, 0.95);

  return {
    metric,
    median: ms(median),
    p95:    samples.length > 1 ? ms(p95) : '',
    target: targetMs === undefined ? '' : `${ samples.length > 1 ? 'p95 ' : '' }< ${ targetMs } ms`,
    pass:   targetMs === undefined ? undefined : p95 < targetMs,
    note:   note ?? `${ samples.length } run${ samples.length > 1 ? 's' : '' }`,
    values: {
      medianMs: median, p95Ms: p95, runs: samples.length
    },
  };
}

function domainRows(domain: DomainResults): Row[] {
  return domain.results.filter((result) => result.targetMs !== undefined).map((result) => ({
    metric: `domain: ${ result.name }`,
    median: ms(result.medianMs),
    p95:    ms(result.p95Ms),
    target: `median < ${ result.targetMs } ms`,
    pass:   result.pass,
    note:   `${ result.runs } calls; min ${ ms(result.minMs) }, CPU median ${ ms(result.cpuMedianMs) }`,
    values: {
      medianMs: result.medianMs, p95Ms: result.p95Ms, minMs: result.minMs, cpuMedianMs: result.cpuMedianMs, runs: result.runs
    },
  }));
}

/**
 * The same first visit in a Chromium no DevTools client watches (scripts/bench/first-visit-plain.ts),
 * as a person's browser makes it: the target is judged here, on the median of its new browsers,
 * since Playwright's network reporting costs the browser work for each of the 499 requests.
 */
function plainFirstVisitRow(plain: PlainFirstVisits): Row {
  const cpu = (kind: string) => ms(percentile(plain.rounds.map((round) => round.cpuMs[kind] ?? 0), 0.5));
  const complete = plain.rounds.map((round) => round.complete);
  const row = timingRow('  same, first visit, complete, in a Chromium no DevTools client watches', complete, undefined,
    `${ plain.rounds.length } new browsers, judged on their median (the row above is under Playwright's network reporting); median CPU: renderer ${ cpu('renderer') }, network service ${ cpu('network service') }, browser ${ cpu('browser') }, emulator ${ cpu('emulator') }`);

  return {
    ...row, target: `median < ${ LARGE_COMPARE_FIRST_MS } ms`, pass: percentile(complete, 0.5) < LARGE_COMPARE_FIRST_MS
  };
}

function browserRows(browser: BrowserResults, plain?: PlainFirstVisits): Row[] {
  const rows: Row[] = [];
  const {
    realCompare, channelPage, largeCompare, selector
  } = browser;
  const totals = (timings: { ms: number }[]) => timings.map((timing) => timing.ms);
  const oursLarge = percentile(totals(largeCompare.repeat), 0.5);
  const naive = browser.naive.runs.map((run) => run.ms);
  const naiveMedian = percentile(naive, 0.5);
  const ownRender = packageDiffOwnRender(browser);
  const ownMedian = ownRender ? percentile(ownRender, 0.5) : undefined;
  const ratio = naiveMedian / (ownMedian ?? oursLarge);
  const pageRatio = `naive ÷ the whole compare page from the router push (median ${ ms(oursLarge) }) = ${ (naiveMedian / oursLarge).toFixed(1) }×`;
  const valid = selector.keys.filter((key) => key.valid);

  rows.push(timingRow(`compare, adjacent real images (${ realCompare.oldName.replace(/^base-v|-os$/g, '') } → ${ realCompare.newName.replace(/^base-v|-os$/g, '') })`, totals(realCompare.repeat), INTERACTION_P95_MS));
  rows.push(timingRow('  same, first visit (page chunk, log and package lists fetched)', [realCompare.first.ms]));
  rows.push(timingRow(`channel page, ${ channelPage.versions } versions: first rows`, totals(channelPage.repeat), INTERACTION_P95_MS));
  rows.push(timingRow('  same, first visit (page chunk)', [channelPage.first.ms]));
  rows.push(timingRow(`compare across ${ largeCompare.span } versions (generated channel)`, totals(largeCompare.repeat), LARGE_COMPARE_P95_MS, `${ largeCompare.repeat.length } runs, files cached`));
  // Judged without DevTools watching when that run was made (plainFirstVisitRow), else here.
  const judgedPlain = plain?.rounds.length ? plain : undefined;

  rows.push(timingRow(`  same, first visit, complete (${ largeCompare.span } logs fetched)`, [largeCompare.first.ms], judgedPlain ? undefined : LARGE_COMPARE_FIRST_MS,
    judgedPlain ? '1 run, under Playwright, which turns on DevTools\' network reporting in every page: the target is judged on the row below' : undefined));
  if (judgedPlain) {
    rows.push(plainFirstVisitRow(judgedPlain));
  }
  rows.push(timingRow('  same, first visit, compare painted (advisories still loading)', [largeCompare.first.milestones.imageCompare], LARGE_COMPARE_P95_MS));
  if (browser.largeCompareWarmCache) {
    rows.push(timingRow('  same, second browser session, complete (files from the IndexedDB cache)', [browser.largeCompareWarmCache.ms], LARGE_COMPARE_P95_MS));
  }
  rows.push({
    ...timingRow('naive: diff2html of the two raw package lists, whole', naive),
    target: `≥ ${ NAIVE_RATIO }× ours`,
    pass:   ratio >= NAIVE_RATIO,
    note:   ownMedian === undefined ? `naive ÷ ours (median) = ${ ratio.toFixed(1) }×; ${ browser.naive.runs[0]?.lines ?? 0 } rows` : `naive ÷ our package diff's own render (median ${ ms(ownMedian) }, created to painted) = ${ ratio.toFixed(1) }×; ${ browser.naive.runs[0]?.lines ?? 0 } rows; ${ pageRatio }`,
  });
  rows.push({
    metric: 'JS heap after the large compare (after a GC)',
    median: mb(browser.heap.afterLargeCompareGc.usedBytes),
    p95:    '',
    target: '',
    note:   `${ mb(browser.heap.afterLargeCompare.usedBytes) } before the GC; the dashboard alone, after login: ${ mb(browser.heap.dashboard.usedBytes) }`,
    values: {
      usedBytes: browser.heap.afterLargeCompare.usedBytes, usedAfterGcBytes: browser.heap.afterLargeCompareGc.usedBytes, dashboardAfterGcBytes: browser.heap.dashboard.usedBytes
    },
  });
  rows.push(timingRow(`selector preview, ${ selector.versions } versions: key → next paint`, selector.keys.map((key) => key.nextPaintMs), INTERACTION_P95_MS, `${ selector.keys.length } keys`));
  rows.push(timingRow('  key → preview updated (includes the debounce)', selector.keys.map((key) => key.previewMs), INTERACTION_P95_MS, `${ selector.keys.length } keys, debounce ${ selector.debounceMs } ms`));
  rows.push(timingRow('  debounce end → preview painted (resolve + render)', valid.map((key) => key.settleToPaintMs), INTERACTION_P95_MS, `${ valid.length } keys with a valid selector`));

  return rows;
}

const seconds = (value: number) => (value >= 1000 ? `${ (value / 1000).toFixed(2) } s` : ms(value));

/** Issue 19: the pages at 20,000 versions, this package beside the baseline (load-everything) build. */
function pagesRows(pages: PagesResults, baseline: PagesResults | undefined, sizes: PackageSizes): Row[] {
  const rows: Row[] = [];
  const before = (name: string) => baseline?.pages.find((page) => page.name === name);
  const gzipOf = (files: string[]) => files.reduce((sum, file) => sum + (file === sizes.entry.file ? sizes.entry.gzip : sizes.chunks.find((c) => c.file === file)?.gzip ?? 0), 0);

  if (pages.error) {
    rows.push({
      metric: 'large Rancher: pages', median: '', p95: '', target: '', pass: false, note: `the run failed: ${ pages.error }`
    });
  }
  for (const page of pages.pages) {
    const old = before(page.name);
    const ratio = old ? ` (${ (old.coldMs / page.coldMs).toFixed(0) }× faster)` : '';

    rows.push({
      ...timingRow(`large Rancher: ${ page.name }, first paint after login (cold)`, [page.coldMs], COLD_PAGE_MS),
      median: seconds(page.coldMs),
      note:   `${ mb(page.coldBytes) } in ${ page.coldRequests } requests; load-everything: ${ old ? `${ seconds(old.coldMs) }, ${ mb(old.coldBytes) }${ ratio }` : 'not measured' }`,
      values: {
        coldMs: page.coldMs, coldBytes: page.coldBytes, coldRequests: page.coldRequests, baselineColdMs: old?.coldMs ?? NaN, baselineColdBytes: old?.coldBytes ?? NaN
      },
    });
    if (page.warmMs.length) {
      const oldP95 = old?.warmMs.length ? percentile(old.warmMs, 0.95) : undefined;

      rows.push({
        ...timingRow('  same, warm navigations', page.warmMs, WARM_PAGE_P95_MS),
        note: `${ page.warmMs.length } runs; load-everything p95: ${ oldP95 === undefined ? 'not measured' : ms(oldP95) }`,
      });
    }
  }
  const form = pages.pages.find((page) => page.name === 'pool form');

  if (form) {
    const gzip = gzipOf(form.packageFiles);
    const files = form.packageFiles.map((file) => file.replace(/^.*\.umd\.min\./, '')).join(', ');

    rows.push({
      metric: 'large Rancher: the pool form\'s JS beyond the dashboard',
      median: `${ kb(gzip) } gz`,
      p95:    '',
      target: `≤ ${ kb(POOL_FORM_GZIP) } gz`,
      pass:   gzip <= POOL_FORM_GZIP,
      note:   `what a tab opening the pool form loads of the package: ${ files }`,
      values: { gzipBytes: gzip },
    });
  }
  if (Number.isFinite(pages.heapAfterGcBytes)) {
    rows.push({
      metric: 'large Rancher: JS heap after every page, after a GC',
      median: mb(pages.heapAfterGcBytes),
      p95:    '',
      target: `< ${ mb(HEAP_AFTER_GC_BYTES) }`,
      pass:   pages.heapAfterGcBytes < HEAP_AFTER_GC_BYTES,
      note:   `load-everything: ${ baseline && Number.isFinite(baseline.heapAfterGcBytes) ? mb(baseline.heapAfterGcBytes) : 'not measured' }; over ${ pages.protocol || 'an unknown protocol' }`,
      values: { usedAfterGcBytes: pages.heapAfterGcBytes, baselineUsedAfterGcBytes: baseline?.heapAfterGcBytes ?? NaN },
    });
  }

  return rows;
}

function sizeRows(sizes: PackageSizes, loadedBy: Record<string, string>): Row[] {
  const entry = sizes.entry;
  const atStart = sizes.chunks.filter((chunk) => loadedBy[chunk.file] === 'dashboard start');
  const rows: Row[] = [{
    metric: `size: ${ entry.file } (loaded first)`,
    median: `${ kb(entry.gzip) } gz`,
    p95:    `${ kb(entry.raw) } raw`,
    target: `gz ≤ ${ kb(ENTRY_GZIP_TARGET) }`,
    pass:   entry.gzip <= ENTRY_GZIP_TARGET,
    note:   `${ (ELEMENTAL_UMD.gzip / entry.gzip).toFixed(0) }× smaller than Elemental's ${ kb(ELEMENTAL_UMD.gzip) } gz`,
    values: { rawBytes: entry.raw, gzipBytes: entry.gzip },
  }];
  const startGzip = entry.gzip + atStart.reduce((sum, chunk) => sum + chunk.gzip, 0);

  rows.push({
    metric: '  everything loaded at dashboard start',
    median: `${ kb(startGzip) } gz`,
    p95:    '',
    target: '',
    note:   `the entry${ atStart.map((chunk) => ` + ${ chunk.file.replace(/^.*\.umd\.min\./, '') }`).join('') }`,
    values: { gzipBytes: startGzip },
  });
  for (const chunk of sizes.chunks) {
    rows.push({
      metric: `  lazy chunk ${ chunk.file.replace(/^.*\.umd\.min\./, '') }`,
      median: `${ kb(chunk.gzip) } gz`,
      p95:    `${ kb(chunk.raw) } raw`,
      target: '',
      note:   `${ loadedBy[chunk.file] ? `first loaded by: ${ loadedBy[chunk.file] }` : 'not loaded by the run' }${ chunk.contents ? `; ${ chunk.contents.join(', ') }` : '' }`,
      values: { rawBytes: chunk.raw, gzipBytes: chunk.gzip },
    });
  }
  const raw = sizes.chunks.reduce((sum, chunk) => sum + chunk.raw, 0);
  const gzip = sizes.chunks.reduce((sum, chunk) => sum + chunk.gzip, 0);

  rows.push({
    metric: `  all ${ sizes.chunks.length } lazy chunks`, median: `${ kb(gzip) } gz`, p95: `${ kb(raw) } raw`, target: '', values: { rawBytes: raw, gzipBytes: gzip }
  });

  return rows;
}

function result(row: Row): string {
  if (row.pass === undefined) {
    return '';
  }

  return row.pass ? 'pass' : 'MISS';
}

function printTable(rows: Row[]): void {
  const header = ['metric', 'median', 'p95', 'target', 'result', 'note'];
  const cells = rows.map((row) => [row.metric, row.median, row.p95, row.target, result(row), row.note ?? '']);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) => values.map((value, i) => (i === 1 || i === 2 ? value.padStart(widths[i]) : value.padEnd(widths[i]))).join('  ').trimEnd();

  process.stdout.write(`${ line(header) }\n${ widths.map((width) => '-'.repeat(width)).join('  ') }\n`);
  for (const values of cells) {
    process.stdout.write(`${ line(values) }\n`);
  }
}

/** The same table in Markdown, for the README's Benchmarks section. */
function markdownTable(rows: Row[]): string {
  const cell = (text: string) => text.trim().replace(/\|/g, '\\|');
  const lines = ['| metric | median | p95 | target | result | note |', '| --- | ---: | ---: | --- | --- | --- |'];

  for (const row of rows) {
    const indent = row.metric.startsWith('  ') ? '↳ ' : '';

    lines.push(`| ${ indent }${ cell(row.metric) } | ${ cell(row.median) } | ${ cell(row.p95) } | ${ cell(row.target) } | ${ row.pass === false ? '**MISS**' : result(row) } | ${ cell(row.note ?? '') } |`);
  }

  return `${ lines.join('\n') }\n`;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** What got worse since the results file this run replaces (its rows, by metric). */
function printRegressions(previousFile: string, rows: Row[]): void {
  if (!existsSync(previousFile)) {
    return;
  }
  const previous = JSON.parse(readFileSync(previousFile, 'utf8')) as { date?: string; commit?: string; rows?: Row[] };
  const found = regressions(previous.rows ?? [], rows);
  const against = `the previous results (${ previous.date ?? '?' }, commit ${ previous.commit ?? '?' })`;

  if (!found.length) {
    process.stdout.write(`\nnothing regressed against ${ against }\n`);

    return;
  }
  process.stdout.write(`\n${ found.length } regression${ found.length > 1 ? 's' : '' } against ${ against }, ` +
    `over ${ Math.round(REGRESSION_FRACTION * 100) }% (compare load averages before trusting one):\n`);
  for (const regression of found) {
    process.stdout.write(`  ${ describeRegression(regression) }\n`);
  }
}

function main(): void {
  const domain = JSON.parse(readFileSync(option('domain'), 'utf8')) as DomainResults;
  const browser = JSON.parse(readFileSync(option('browser'), 'utf8')) as BrowserResults;
  const sizes = measurePackage(option('package'), option('name'));
  const loadStart = process.argv.includes('--load-start') ? option('load-start').split(/\s+/).map(Number) : undefined;
  const loadEnd = loadavg();
  const readPages = (name: string) => (process.argv.includes(`--${ name }`) ? JSON.parse(readFileSync(option(name), 'utf8')) as PagesResults : undefined);
  const pages = readPages('pages');
  const baseline = readPages('baseline-pages');
  const plain = process.argv.includes('--first-visit-plain') ? JSON.parse(readFileSync(option('first-visit-plain'), 'utf8')) as PlainFirstVisits : undefined;
  const rows = [
    ...domainRows(domain), ...browserRows(browser, plain), ...(pages ? pagesRows(pages, baseline, sizes) : []), ...sizeRows(sizes, browser.packageFiles ?? {}),
  ];
  const missed = rows.filter((row) => row.pass === false);
  const met = rows.filter((row) => row.pass === true);
  const commit = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--', 'pkg']) !== '';
  const load = (values: number[] | undefined) => (values ? values.map((value) => value.toFixed(2)).join(' ') : '?');

  const summary = `${ new Date().toISOString() }, commit ${ commit }${ dirty ? ' (pkg/ has uncommitted changes)' : '' }; ${ cpus().length } CPUs, ` +
    `load average ${ load(loadStart) } at start, ${ load(domain.loadAverage) } at the domain bench, ${ load(loadEnd) } at the end; Chromium ${ browser.chromium }`;

  process.stdout.write(`\nos-upgrades benchmark, ${ summary }\n\n`);
  printTable(rows);
  process.stdout.write(`\n${ met.length } targets met, ${ missed.length } missed${ missed.length ? `: ${ missed.map((row) => row.metric.trim()).join('; ') }` : '' }\n`);

  printRegressions(option('out'), rows);

  writeFileSync(option('out'), `${ JSON.stringify({
    date:        new Date().toISOString(),
    commit,
    pkgDirty:    dirty,
    node:        process.version,
    chromium:    browser.chromium,
    cpus:        cpus().length,
    loadAverage: {
      start: loadStart, domain: domain.loadAverage, end: loadEnd
    },
    reference: { elementalUmd: ELEMENTAL_UMD, entryGzipTarget: ENTRY_GZIP_TARGET },
    rows,
    sizes,
    browser,
    pages,
    baseline,
  }, null, 2) }\n`);
  const markdown = option('out').replace(/\.json$/, '.md');

  writeFileSync(markdown, `${ summary }\n\n${ markdownTable(rows) }`);
  process.stdout.write(`wrote ${ option('out') }, ${ markdown } (and domain.json beside them)\n`);
}

main();
