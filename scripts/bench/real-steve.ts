/**
 * The pages on real Steve beside the emulator (issues 28 and 30): two results files of pages.ts
 * from one run of scripts/bench/run (the emulator's, and the emulator with `--backend real-stack`
 * in front of real Steve and its SQL cache), as one table with a column each, issue 19's targets
 * checked on both; then, per page, the requests of its cold visit whose time to first byte differs
 * most between the two (from pages.ts's waterfalls), and what loading the stack cost.
 *
 *   node_modules/.bin/tsx scripts/bench/real-steve.ts --emulator pages.json --real pages-real.json
 *     [--profiles DIR --emulator-label new --real-label real-steve] [--stack stack.json] --out bench/results/real-steve-DATE
 *
 * Writes <out>.json and <out>.md and prints the table.
 */
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import type { PagesResults } from './pages';
import type { Waterfall } from './waterfall';

/** Issue 19's targets at 20,000 versions (report.ts): first paint, warm p95, heap after a GC. */
const COLD_PAGE_MS = 1000;
const WARM_PAGE_P95_MS = 100;
const HEAP_AFTER_GC_BYTES = 100e6;
/** A request is named when its time to first byte differs by this much and this factor. */
const NAMED_DIFF_MS = 50;
const NAMED_RATIO = 2;

interface Side { coldMs: number; warmMedianMs: number; warmP95Ms: number; coldBytes: number; coldRequests: number; pass: boolean }
interface RequestDiff { request: string; emulatorMs: number; realMs: number }
export interface RealSteveRow { page: string; emulator?: Side; real?: Side; requests: RequestDiff[] }

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);

  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function side(results: PagesResults, name: string): Side | undefined {
  const page = results.pages.find((p) => p.name === name);

  if (!page) {
    return undefined;
  }
  const warmP95Ms = quantile(page.warmMs, 0.95);

  return {
    coldMs:       page.coldMs,
    warmMedianMs: quantile(page.warmMs, 0.5),
    warmP95Ms,
    coldBytes:    page.coldBytes,
    coldRequests: page.coldRequests,
    pass:         page.coldMs < COLD_PAGE_MS && !(warmP95Ms >= WARM_PAGE_P95_MS),
  };
}

/** Time to first byte of each API request of a cold visit, by method and path with query (the first of equal ones). */
function firstBytes(file: string): Map<string, number> {
  const times = new Map<string, number>();

  if (!existsSync(file)) {
    return times;
  }
  for (const entry of (JSON.parse(readFileSync(file, 'utf8')) as Waterfall).entries) {
    const url = new URL(entry.url);
    const key = `${ entry.method } ${ url.pathname }${ url.search }`;

    if (entry.firstByteMs !== undefined && !entry.fromCache && !times.has(key) && /^\/(v1|v3|k8s|apis?|changelog-files|elemental)\//.test(url.pathname)) {
      times.set(key, entry.firstByteMs - entry.startMs);
    }
  }

  return times;
}

function requestDiffs(emulatorFile: string, realFile: string): RequestDiff[] {
  const emulator = firstBytes(emulatorFile);
  const real = firstBytes(realFile);

  return [...real].filter(([key]) => emulator.has(key))
    .map(([request, realMs]) => ({
      request, emulatorMs: emulator.get(request)!, realMs
    }))
    .filter((d) => Math.abs(d.realMs - d.emulatorMs) >= NAMED_DIFF_MS && Math.max(d.realMs, d.emulatorMs) >= NAMED_RATIO * Math.min(d.realMs, d.emulatorMs))
    .sort((a, b) => Math.abs(b.realMs - b.emulatorMs) - Math.abs(a.realMs - a.emulatorMs))
    .slice(0, 5);
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : value >= 1000 ? `${ (value / 1000).toFixed(2) } s` : `${ value.toFixed(0) } ms`);
const mb = (bytes: number) => `${ (bytes / 1e6).toFixed(2) } MB`;
const cell = (s?: Side) => (s ? `${ ms(s.coldMs) } / ${ ms(s.warmMedianMs) } (${ ms(s.warmP95Ms) }) · ${ mb(s.coldBytes) } in ${ s.coldRequests } · ${ s.pass ? 'met' : '**MISS**' }` : 'not measured');

export function realSteveTable(rows: RealSteveRow[], emulator: PagesResults, real: PagesResults, stack: Record<string, unknown>): string {
  const heap = (r: PagesResults) => `${ mb(r.heapAfterGcBytes) } · ${ r.heapAfterGcBytes < HEAP_AFTER_GC_BYTES ? 'met' : '**MISS**' }`;
  const lines = [
    `| page | emulator: cold / warm median (p95) · cold bytes in requests · targets | real Steve: same |`,
    '| --- | ---: | ---: |',
    ...rows.map((row) => `| ${ row.page } | ${ cell(row.emulator) } | ${ cell(row.real) } |`),
    `| JS heap after every page, after a GC (< 100 MB) | ${ heap(emulator) } | ${ heap(real) } |`,
    '',
    `Targets: first paint after login < ${ COLD_PAGE_MS } ms, warm navigations p95 < ${ WARM_PAGE_P95_MS } ms (issue 19).`,
  ];
  const named = rows.filter((row) => row.requests.length);

  if (named.length) {
    lines.push('', `Requests of a cold visit whose time to first byte differs by ≥ ${ NAMED_DIFF_MS } ms and ≥ ${ NAMED_RATIO }× (emulator → real Steve):`, '');
    for (const row of named) {
      lines.push(`- ${ row.page }: ${ row.requests.map((d) => `\`${ d.request }\` ${ ms(d.emulatorMs) } → ${ ms(d.realMs) }`).join('; ') }`);
    }
  }
  for (const [label, results] of [['emulator', emulator], ['real Steve', real]] as const) {
    if (results.error) {
      lines.push('', `${ label }: ${ results.error }`);
    }
  }
  lines.push('', '```', JSON.stringify(stack, null, 1), '```');

  return `${ lines.join('\n') }\n`;
}

function main(): void {
  const args = new Map<string, string>();
  const argv = process.argv.slice(2);

  for (let i = 0; i < argv.length; i += 2) {
    args.set(argv[i].replace(/^--/, ''), argv[i + 1]);
  }
  const read = (key: string) => JSON.parse(readFileSync(args.get(key)!, 'utf8'));
  const emulator = read('emulator') as PagesResults;
  const real = read('real') as PagesResults;
  const stack = args.has('stack') ? read('stack') as Record<string, unknown> : {};
  const profiles = args.get('profiles');
  const waterfall = (label: string, page: string) => join(profiles ?? '', `${ slug(label) }.${ slug(page) }.cold.waterfall.json`);
  const names = [...new Set([...emulator.pages, ...real.pages].map((page) => page.name))];
  const rows: RealSteveRow[] = names.map((page) => ({
    page,
    emulator: side(emulator, page),
    real:     side(real, page),
    requests: profiles ? requestDiffs(waterfall(args.get('emulator-label') ?? emulator.label, page), waterfall(args.get('real-label') ?? real.label, page)) : [],
  }));
  const table = realSteveTable(rows, emulator, real, stack);
  const out = args.get('out') ?? 'bench/results/real-steve';

  writeFileSync(`${ out }.json`, `${ JSON.stringify({
    emulator: {
      label: emulator.label, protocol: emulator.protocol, heapAfterGcBytes: emulator.heapAfterGcBytes, error: emulator.error
    },
    real: {
      label: real.label, protocol: real.protocol, heapAfterGcBytes: real.heapAfterGcBytes, error: real.error
    },
    rows,
    stack,
  }, null, 2) }\n`);
  writeFileSync(`${ out }.md`, table);
  process.stdout.write(table);
}

main();
