// What got worse since the previous results file: the bench prints it after its table.

/** The part of a report row compared between runs (report.ts Row). */
export interface ComparedRow {
  metric: string;
  pass?: boolean;
  values?: Record<string, number>;
}

export interface Regression {
  metric: string;
  /** 'missed' (it met its target before), or the value that grew: 'medianMs', 'p95Ms', 'gzipBytes'… */
  what: string;
  before?: number;
  after?: number;
}

/** Grown by more than this fraction, and by more than the floor of its unit, is a regression. */
export const REGRESSION_FRACTION = 0.2;
const FLOOR: Record<string, number> = { Ms: 2, Bytes: 1000 };
const COMPARED = /(Ms|Bytes)$/;

function floorOf(name: string): number {
  return FLOOR[name.match(COMPARED)?.[1] ?? ''] ?? 0;
}

/** A row under the row above it: indented in the results file (report.ts), `↳` in the Markdown table. */
const SUB_ROW = /^(\s+|\s*↳\s*)/;

/**
 * Each row with its name as the table reads it: a sub-row ("↳ same, warm navigations") belongs to
 * the row above it that is none, whose name comes first, so rows named alike under different
 * pages are each compared with their own.
 */
function qualified(rows: readonly ComparedRow[]): [string, ComparedRow][] {
  let parent = '';

  return rows.map((row) => {
    const metric = row.metric.replace(SUB_ROW, '').trim();

    if (!SUB_ROW.test(row.metric)) {
      parent = metric;

      return [metric, row];
    }

    return [`${ parent } ↳ ${ metric }`, row];
  });
}

/**
 * Rows whose target was met before and is missed now, and timings or sizes that grew by more than
 * REGRESSION_FRACTION (and more than a floor: 2 ms, 1 kB, so noise on tiny figures is not reported).
 * Rows new in this run are not compared.
 */
export function regressions(previous: readonly ComparedRow[], current: readonly ComparedRow[], fraction = REGRESSION_FRACTION): Regression[] {
  const before = new Map(qualified(previous).map(([metric, row]) => [metric, row]));
  const found: Regression[] = [];

  for (const [metric, row] of qualified(current)) {
    const old = before.get(metric);

    if (!old) {
      continue;
    }
    if (old.pass === true && row.pass === false) {
      found.push({ metric, what: 'missed' });
    }
    for (const [name, after] of Object.entries(row.values ?? {})) {
      const value = old.values?.[name];

      if (!COMPARED.test(name) || typeof value !== 'number' || !Number.isFinite(after)) {
        continue;
      }
      if (after > value * (1 + fraction) && after - value > floorOf(name)) {
        found.push({
          metric, what: name, before: value, after
        });
      }
    }
  }

  return found;
}

/** One line per regression, for the terminal. */
export function describeRegression(regression: Regression): string {
  if (regression.what === 'missed') {
    return `${ regression.metric }: met its target last time, missed now`;
  }
  const before = regression.before ?? 0;
  const after = regression.after ?? 0;
  const unit = regression.what.endsWith('Ms') ? 'ms' : 'B';
  const digits = unit === 'ms' ? 2 : 0;

  return `${ regression.metric }: ${ regression.what } ${ before.toFixed(digits) } → ${ after.toFixed(digits) } ${ unit } (+${ Math.round((after / before - 1) * 100) }%)`;
}
