// Which kinds of request the browser made (the emulator's --request-log files) have no recorded
// answer of the real programs (tests/conformance/recordings/): request-kinds.ts says what a kind is.
// Run: yarn -s tsx tests/conformance/coverage.ts [--json REPORT] LOG...
// Exits 1 when a kind is neither recorded nor listed in not-recordable.ts.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestKind, subscribeKind } from './request-kinds';
import { NOT_RECORDABLE } from './not-recordable';
import { Recording } from './scenario';

const RECORDINGS = join(__dirname, 'recordings');

export function recordedKinds(recordings: Recording[]): Set<string> {
  const kinds = new Set<string>();

  for (const recording of recordings) {
    for (const exchange of recording.exchanges) {
      if ('request' in exchange) {
        const kind = requestKind(exchange.request.method, exchange.request.path);

        if (kind) {
          kinds.add(kind);
        }
      } else {
        const socket = exchange.watch.path ?? '/v1/subscribe';

        for (const message of exchange.watch.subscribe) {
          const kind = subscribeKind(socket, exchange.watch.atLastRevision ? { ...message, resourceVersion: 'last' } : message);

          if (kind) {
            kinds.add(kind);
          }
        }
      }
    }
  }

  return kinds;
}

/** Each kind the logs hold, with the first request of it as an example. */
export function loggedKinds(lines: string[]): Map<string, string> {
  const kinds = new Map<string, string>();

  for (const line of lines.filter(Boolean)) {
    const entry = JSON.parse(line) as { method?: string; path?: string; socket?: string; message?: Record<string, unknown> };
    const kind = entry.socket && entry.message ? subscribeKind(entry.socket, entry.message) : requestKind(entry.method ?? 'GET', entry.path ?? '');
    const example = entry.socket ? `${ entry.socket } ${ JSON.stringify(entry.message) }` : `${ entry.method } ${ entry.path }`;

    if (kind && !kinds.has(kind)) {
      kinds.set(kind, example);
    }
  }

  return kinds;
}

export interface Coverage {
  covered: string[];
  notRecordable: { kind: string; why: string }[];
  uncovered: { kind: string; example: string }[];
}

export function coverage(logged: Map<string, string>, recorded: Set<string>, notRecordable: Record<string, string> = NOT_RECORDABLE): Coverage {
  const sorted = [...logged.keys()].sort();

  return {
    covered:       sorted.filter((kind) => recorded.has(kind)),
    notRecordable: sorted.filter((kind) => !recorded.has(kind) && notRecordable[kind]).map((kind) => ({ kind, why: notRecordable[kind] })),
    uncovered:     sorted.filter((kind) => !recorded.has(kind) && !notRecordable[kind]).map((kind) => ({ kind, example: logged.get(kind) ?? '' })),
  };
}

export function readRecordings(dir = RECORDINGS): Recording[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Recording);
}

function main(): void {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const report = jsonAt >= 0 ? args.splice(jsonAt, 2)[1] : undefined;
  const lines = args.flatMap((file) => readFileSync(file, 'utf8').split('\n'));
  const result = coverage(loggedKinds(lines), recordedKinds(readRecordings()));

  if (report) {
    writeFileSync(report, `${ JSON.stringify(result, null, 2) }\n`);
  }
  process.stdout.write(`request kinds the browser made: ${ result.covered.length + result.notRecordable.length + result.uncovered.length }; recorded on the real programs: ${ result.covered.length }; not recordable here: ${ result.notRecordable.length }; not recorded: ${ result.uncovered.length }\n`);
  result.notRecordable.forEach(({ kind, why }) => process.stdout.write(`  not recordable: ${ kind } (${ why })\n`));
  result.uncovered.forEach(({ kind, example }) => process.stdout.write(`  NOT RECORDED: ${ kind }\n      e.g. ${ example }\n`));
  process.exitCode = result.uncovered.length ? 1 : 0;
}

if (require.main === module) {
  main();
}
