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
import type { Waterfall, WaterfallEntry } from './waterfall';
import {
  namedRequests, realSteveTable, RealSteveRow, side, StackFacts
} from './real-steve-table';

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function main(): void {
  const args = new Map<string, string>();
  const argv = process.argv.slice(2);

  for (let i = 0; i < argv.length; i += 2) {
    args.set(argv[i].replace(/^--/, ''), argv[i + 1]);
  }
  const read = (key: string) => JSON.parse(readFileSync(args.get(key)!, 'utf8'));
  const emulator = read('emulator') as PagesResults;
  const real = read('real') as PagesResults;
  const stack = (args.has('stack') ? read('stack') : {}) as StackFacts;
  const profiles = args.get('profiles');
  const waterfall = (label: string, page: string) => join(profiles ?? '', `${ slug(label) }.${ slug(page) }.cold.waterfall.json`);
  const entries = (file: string): WaterfallEntry[] => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Waterfall).entries : []);
  const names = [...new Set([...emulator.pages, ...real.pages].map((page) => page.name))];
  const rows: RealSteveRow[] = names.map((page) => ({
    page,
    emulator: side(emulator, page),
    real:     side(real, page),
    requests: profiles ? namedRequests(entries(waterfall(args.get('emulator-label') ?? emulator.label, page)), entries(waterfall(args.get('real-label') ?? real.label, page))) : [],
  }));
  const table = realSteveTable(rows, emulator, real, stack);
  const out = args.get('out') ?? 'bench/results/real-steve';

  writeFileSync(`${ out }.json`, `${ JSON.stringify({
    rows,
    emulator,
    real,
    stack,
  }, null, 2) }\n`);
  writeFileSync(`${ out }.md`, table);
  process.stdout.write(table);
}

main();
