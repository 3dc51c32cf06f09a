import { readPool } from './pool';
import { sameContent, specOf } from './pool-object';
import { canonicalJson } from './operator-state';
import { isRecord } from './text';
import type { KubeObject, Reason } from './types';

// What a failed or unanswered write did, told from a read of the object afterwards (the one rule
// for every write: pools, channels, settings, changelog resources), and what the
// other writer changed when the server answered 409 (docs/architecture.md, "The write protocol").

/**
 * Whether anything was written: `other` when the object now matches neither what was sent nor
 * what was there before (someone else wrote it, or deleted it, since); `unknown` when it could
 * not be read back.
 */
export type WriteVerdict = 'written' | 'notWritten' | 'other' | 'unknown';

/** What one write did: the one answer of api/write.ts for every object the extension writes. */
export type WriteOutcome =
  /** `stored` is what the server answered, or (`readBack`: the answer was lost) what a read afterwards showed. */
  | { kind: 'written'; stored: KubeObject; readBack: boolean }
  /** The plan refused: nothing was sent. */
  | { kind: 'refused'; reason: Reason }
  /** 409: the object changed since it was read; nothing was written. `latest` is the object now (undefined when gone or unreadable). */
  | { kind: 'conflict'; message: string; latest?: KubeObject }
  /** The server refused (403, 400/422, 401): nothing was written. */
  | { kind: 'forbidden' | 'invalid' | 'unauthorized'; message: string }
  /**
   * No clear answer: a 5xx or a network error (`failed`), no answer in time (`timeout`), or the
   * person cancelled. `written` is what a read afterwards showed, `latest` that read.
   */
  | { kind: 'failed' | 'timeout' | 'cancelled'; message: string; written: WriteVerdict; latest?: KubeObject };

/** The outcomes without a clear answer from the server. */
export type UnclearOutcome = Extract<WriteOutcome, { kind: 'failed' | 'timeout' | 'cancelled' }>;

export function isUnclear(outcome: WriteOutcome): outcome is UnclearOutcome {
  return outcome.kind === 'failed' || outcome.kind === 'timeout' || outcome.kind === 'cancelled';
}

// What the server and Steve keep beside what a person writes: never compared.
const BOOKKEEPING = new Set(['apiVersion', 'kind', 'metadata', 'status', 'id', 'type', 'links', 'actions']);

function metadataPart(obj: unknown, key: 'labels' | 'annotations'): unknown {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};

  return isRecord(metadata[key]) ? metadata[key] : {};
}

/**
 * True when `stored` holds everything `written` says: each of its top-level fields (spec, a
 * setting's value…; not status nor bookkeeping), its labels and its annotations. Fields the server
 * adds beside them (a setting's default, Steve's own) do not count.
 */
export function holdsWrittenContent(written: unknown, stored: unknown): boolean {
  const fields = isRecord(written) ? Object.keys(written).filter((key) => !BOOKKEEPING.has(key) && !key.startsWith('_')) : [];
  const other = isRecord(stored) ? stored : {};

  return fields.every((key) => canonicalJson(other[key] ?? null) === canonicalJson((written as Record<string, unknown>)[key] ?? null)) &&
    (['labels', 'annotations'] as const).every((key) => canonicalJson(metadataPart(stored, key)) === canonicalJson(metadataPart(written, key)));
}

/**
 * After a write that got no clear answer (a dropped answer, a timeout, a cancel, a 5xx): compares
 * the object as read again (`latest`, undefined when it does not exist) with what was sent and
 * what was there before (`before`, undefined for a create). `same(expected, read)` says whether a
 * read holds an expected content (a pool's ignores the operator's own labels).
 */
export function readBackVerdict(sent: unknown, before: unknown | undefined, latest: unknown | undefined, same: (expected: unknown, read: unknown) => boolean = holdsWrittenContent): WriteVerdict {
  if (latest === undefined) {
    return before === undefined ? 'notWritten' : 'other';
  }
  if (same(sent, latest)) {
    return 'written';
  }
  if (before !== undefined && same(before, latest)) {
    return 'notWritten';
  }

  return 'other';
}

/** `readBackVerdict` for a pool: status and the operator's own labels do not count (`sameContent`). */
export function writeVerdict(sent: unknown, before: unknown | undefined, latest: unknown | undefined): WriteVerdict {
  return readBackVerdict(sent, before, latest, sameContent);
}

/** After losing an approval race: the pool already runs the image the person was approving. */
export function alreadyAtImage(latest: unknown, versionName: string): boolean {
  return !!versionName && readPool(latest).pin === versionName;
}

/**
 * The image someone else approved first, or '' when nobody did: `read` is the pool the dialog
 * offered `versionName` on, `latest` the pool as it is now, whichever came first: the page's watch
 * bringing the other approval before Confirm, or the read after the dialog's own write met a 409.
 * A pool that already pinned the image when read (a re-approval of a changed image) lost no race.
 */
export function approvalRaceLost(read: unknown, latest: unknown, versionName: string): string {
  return latest !== undefined && alreadyAtImage(latest, versionName) && !alreadyAtImage(read, versionName) ? versionName : '';
}

/** One field the other writer changed, with what this person's save would write there. */
export interface ConflictChange {
  /** `spec.concurrency`, `metadata.annotations.<key>`, … */
  path: string;
  /** The value in the read this person's form started from. */
  before: unknown;
  /** The value the other writer stored. */
  theirs: unknown;
  /** What this person's form would write (undefined when they did not change the field). */
  mine?: unknown;
  /** Both changed the field: saving again replaces the other writer's value. */
  clash: boolean;
}

function fieldsOf(obj: unknown): Record<string, unknown> {
  const metadata = isRecord(obj) && isRecord(obj.metadata) ? obj.metadata : {};
  const fields: Record<string, unknown> = {};

  for (const [key, value] of Object.entries(specOf(obj))) {
    fields[`spec.${ key }`] = value;
  }
  for (const group of ['labels', 'annotations']) {
    const values = isRecord(metadata[group]) ? metadata[group] as Record<string, unknown> : {};

    for (const [key, value] of Object.entries(values)) {
      fields[`metadata.${ group }.${ key }`] = value;
    }
  }

  return fields;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The fields the other writer changed between `snapshot` (this person's read) and `latest`,
 * each beside what `mine` (the object this person's save would write) has there.
 */
export function conflictChanges(snapshot: unknown, latest: unknown, mine: unknown): ConflictChange[] {
  const before = fieldsOf(snapshot);
  const theirs = fieldsOf(latest);
  const planned = fieldsOf(mine);
  const paths = [...new Set([...Object.keys(before), ...Object.keys(theirs)])].sort();

  return paths.filter((path) => !same(before[path], theirs[path])).map((path) => {
    const changedByMe = mine !== undefined && !same(planned[path], before[path]);

    return {
      path,
      before: before[path],
      theirs: theirs[path],
      ...(changedByMe ? { mine: planned[path] } : {}),
      clash:  changedByMe && !same(planned[path], theirs[path]),
    };
  });
}
