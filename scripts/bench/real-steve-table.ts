/**
 * The table of scripts/bench/real-steve.ts: the pages of pages.ts on the emulator and on real Steve
 * side by side, issue 19's targets checked on each, and the requests whose time differs most.
 */
import type { PagesResults } from './pages';
import type { WaterfallEntry } from './waterfall';

/** Issue 19's targets at 20,000 versions (report.ts): first paint, warm p95, heap after a GC. */
const COLD_PAGE_MS = 1000;
const WARM_PAGE_P95_MS = 100;
const HEAP_AFTER_GC_BYTES = 100e6;
/** A request is named when its time to first byte differs by this much and this factor. */
const NAMED_DIFF_MS = 50;
const NAMED_RATIO = 2;

interface Side { coldMs: number; warmMedianMs: number; warmP95Ms: number; coldBytes: number; coldRequests: number; pass: boolean }
/** A request shape of a cold visit on both: how many on real Steve, the median time to first byte on each. */
interface RequestDiff { request: string; count: number; emulatorMs: number; realMs: number }
/** scripts/bench/run's --stack file: load-real-stack.ts's result and what it measured beside it. */
export interface StackFacts {
  load?: { concurrency: number; etcdBytes: number; steps: { name: string; created: number; existed: number; seconds: number }[] };
  steveFirstVersionsListSeconds?: number;
  steveSqlCacheBytes?: number;
  loadAverageStart?: string;
  loadAverageEnd?: string;
  commit?: string;
}

export interface RealSteveRow { page: string; emulator?: Side; real?: Side; requests: RequestDiff[] }

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);

  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
}

export function side(results: PagesResults, name: string): Side | undefined {
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

/** A request's shape: its path and query with the values of filters left out (one count request per channel is one shape). */
export function requestShape(method: string, url: string): string {
  const { pathname, search } = new URL(url);
  const query = decodeURIComponent(search).replace(/ IN \([^)]*\)/g, ' IN (…)').replace(/="[^"]*"/g, '="…"');

  return `${ method } ${ pathname }${ query }`;
}

/** Times to first byte of a cold visit's API requests (not the package's files), by shape. */
function firstBytes(entries: WaterfallEntry[]): Map<string, number[]> {
  const times = new Map<string, number[]>();

  for (const entry of entries) {
    const path = new URL(entry.url).pathname;

    if (entry.firstByteMs !== undefined && !entry.fromCache && /^\/(v1|v3|k8s|apis?|changelog-files|elemental)\//.test(path) && !path.startsWith('/v1/uiplugins/')) {
      const shape = requestShape(entry.method, entry.url);

      times.set(shape, [...times.get(shape) ?? [], entry.firstByteMs - entry.startMs]);
    }
  }

  return times;
}

/** The request shapes of a page's cold visit on both whose median time to first byte differs most (at most five). */
export function namedRequests(emulatorEntries: WaterfallEntry[], realEntries: WaterfallEntry[]): RequestDiff[] {
  const emulator = firstBytes(emulatorEntries);
  const real = firstBytes(realEntries);

  return [...real].filter(([shape]) => emulator.has(shape))
    .map(([request, times]) => ({
      request, count: times.length, emulatorMs: quantile(emulator.get(request)!, 0.5), realMs: quantile(times, 0.5)
    }))
    .filter((d) => Math.abs(d.realMs - d.emulatorMs) >= NAMED_DIFF_MS && Math.max(d.realMs, d.emulatorMs) >= NAMED_RATIO * Math.min(d.realMs, d.emulatorMs))
    .sort((a, b) => Math.abs(b.realMs - b.emulatorMs) - Math.abs(a.realMs - a.emulatorMs))
    .slice(0, 5);
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : value >= 1000 ? `${ (value / 1000).toFixed(2) } s` : `${ value.toFixed(0) } ms`);
const mb = (bytes: number) => `${ (bytes / 1e6).toFixed(2) } MB`;
const cell = (s?: Side) => (s ? `${ ms(s.coldMs) } / ${ ms(s.warmMedianMs) } (${ ms(s.warmP95Ms) }) · ${ mb(s.coldBytes) } in ${ s.coldRequests } · ${ s.pass ? 'met' : '**MISS**' }` : 'not measured');

/** What loading the stack cost (load-real-stack.ts's result and what scripts/bench/run measured beside it). */
function stackSummary(stack: StackFacts): string {
  const steps = stack.load?.steps ?? [];
  const loaded = steps.map((step) => `${ step.name } ${ step.created } created${ step.existed ? `, ${ step.existed } existed` : '' } in ${ step.seconds.toFixed(1) } s`).join('; ');

  return [
    `The stack: ${ loaded || 'not loaded by this run' } (${ stack.load?.concurrency ?? '?' } at once); etcd's database ${ mb(stack.load?.etcdBytes ?? NaN) };`,
    `Steve's first list of the versions (its SQL cache filled) ${ Number(stack.steveFirstVersionsListSeconds).toFixed(1) } s; its SQL cache after the pages ${ mb(stack.steveSqlCacheBytes ?? NaN) } (database and write-ahead log).`,
    `Load average (1, 5, 15 min): ${ stack.loadAverageStart ?? '?' } at the start of the run, ${ stack.loadAverageEnd ?? '?' } at its end; commit ${ stack.commit ?? '?' }.`,
  ].join('\n');
}

export function realSteveTable(rows: RealSteveRow[], emulator: PagesResults, real: PagesResults, stack: StackFacts): string {
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
    lines.push('', `Requests of a cold visit whose median time to first byte differs by ≥ ${ NAMED_DIFF_MS } ms and ≥ ${ NAMED_RATIO }× (emulator → real Steve; ×N: N such requests, filter values left out):`, '');
    for (const row of named) {
      lines.push(`- ${ row.page }: ${ row.requests.map((d) => `\`${ d.request }\`${ d.count > 1 ? ` ×${ d.count }` : '' } ${ ms(d.emulatorMs) } → ${ ms(d.realMs) }`).join('; ') }`);
    }
  }
  for (const [label, results] of [['emulator', emulator], ['real Steve', real]] as const) {
    if (results.error) {
      lines.push('', `${ label }: ${ results.error }`);
    }
  }
  lines.push('', stackSummary(stack));

  return `${ lines.join('\n') }\n`;
}

