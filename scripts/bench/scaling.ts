/**
 * The cost as the fleet grows (issue 30): the pages of pages.ts measured on emulators of several
 * sizes, one results file each, as one table of page × size → cold and warm time.
 *
 *   node_modules/.bin/tsx scripts/bench/scaling.ts --size "2,000 versions, 200 pools=a.json" --size … --out bench/results/scaling
 *
 * Writes <out>.json and <out>.md and prints the table. A page that shows a fixed number of rows
 * should cost the same at every size: the last column is its largest warm median ÷ its smallest.
 */
import { readFileSync, writeFileSync } from 'fs';
import type { PagesResults } from './pages';

interface Size {
  label: string;
  results: PagesResults;
}

export interface ScalingRow {
  page: string;
  /** Per size, in the order given: cold ms, warm median and p95 ms (NaN when the page did not load). */
  cells: { size: string; coldMs: number; warmMedianMs: number; warmP95Ms: number; coldBytes: number }[];
}

function quantile(values: number[], q: number): number {
  if (!values.length) {
    return NaN;
  }
  const sorted = [...values].sort((a, b) => a - b);

  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

export function scalingRows(sizes: Size[]): ScalingRow[] {
  const pages = [...new Set(sizes.flatMap((size) => size.results.pages.map((page) => page.name)))];

  return pages.map((name) => ({
    page:  name,
    cells: sizes.map(({ label, results }) => {
      const page = results.pages.find((p) => p.name === name);

      return {
        size:         label,
        coldMs:       page?.coldMs ?? NaN,
        warmMedianMs: quantile(page?.warmMs ?? [], 0.5),
        warmP95Ms:    quantile(page?.warmMs ?? [], 0.95),
        coldBytes:    page?.coldBytes ?? NaN,
      };
    }),
  }));
}

const ms = (value: number) => (Number.isNaN(value) ? '–' : value >= 1000 ? `${ (value / 1000).toFixed(2) } s` : `${ value.toFixed(0) } ms`);

/** The growth of a page's warm median from the smallest size to the largest. */
function growth(row: ScalingRow): string {
  const medians = row.cells.map((cell) => cell.warmMedianMs).filter((value) => !Number.isNaN(value));

  return medians.length > 1 ? `${ (Math.max(...medians) / Math.min(...medians)).toFixed(1) }×` : '–';
}

export function scalingTable(sizes: Size[]): string {
  const rows = scalingRows(sizes);
  const head = `| page | ${ sizes.map((size) => `${ size.label }: cold / warm median (p95)`).join(' | ') } | warm, largest ÷ smallest |`;
  const rule = `| --- | ${ sizes.map(() => '---:').join(' | ') } | ---: |`;
  const lines = rows.map((row) => `| ${ row.page } | ${ row.cells.map((cell) => `${ ms(cell.coldMs) } / ${ ms(cell.warmMedianMs) } (${ ms(cell.warmP95Ms) })`).join(' | ') } | ${ growth(row) } |`);
  const heap = `| JS heap after every page, after a GC | ${ sizes.map((size) => `${ (size.results.heapAfterGcBytes / 1e6).toFixed(1) } MB`).join(' | ') } | |`;
  const errors = sizes.filter((size) => size.results.error).map((size) => `\n${ size.label }: ${ size.results.error }`).join('');

  return `${ [head, rule, ...lines, heap].join('\n') }\n${ errors }`;
}

function main(): void {
  const argv = process.argv.slice(2);
  const sizes: Size[] = [];
  let out = 'bench/results/scaling';

  for (let i = 0; i < argv.length; i += 2) {
    if (argv[i] === '--size') {
      const at = argv[i + 1].lastIndexOf('=');

      sizes.push({ label: argv[i + 1].slice(0, at), results: JSON.parse(readFileSync(argv[i + 1].slice(at + 1), 'utf8')) as PagesResults });
    } else if (argv[i] === '--out') {
      out = argv[i + 1];
    } else {
      throw new Error(`unknown option ${ argv[i] } (--size LABEL=FILE …, --out PREFIX)`);
    }
  }
  const table = scalingTable(sizes);

  writeFileSync(`${ out }.json`, `${ JSON.stringify({ sizes: sizes.map((size) => size.label), rows: scalingRows(sizes) }, null, 2) }\n`);
  writeFileSync(`${ out }.md`, table);
  process.stdout.write(`${ table }\n`);
}

main();
