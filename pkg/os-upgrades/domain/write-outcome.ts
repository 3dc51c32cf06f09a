import { readPool } from './pool';
import { sameContent, specOf } from './pool-object';
import { isRecord } from './text';

// What a failed or unanswered write did, told from a read of the pool afterwards, and what the
// other writer changed when the server answered 409 (docs/architecture.md, "The write protocol").

/** Whether anything was written: `unknown` when the pool now matches neither the old read nor the sent object. */
export type WriteVerdict = 'written' | 'notWritten' | 'unknown';

/**
 * After a write that got no clear answer (a timeout, a cancel, a 5xx): compares the pool as read
 * now (`latest`, undefined when it does not exist) with what was sent and what was there before.
 */
export function writeVerdict(sent: unknown, before: unknown | undefined, latest: unknown | undefined): WriteVerdict {
  if (latest === undefined) {
    return before === undefined ? 'notWritten' : 'unknown';
  }
  if (sameContent(latest, sent)) {
    return 'written';
  }
  if (before !== undefined && sameContent(latest, before)) {
    return 'notWritten';
  }

  return 'unknown';
}

/** After losing an approval race: the pool already runs the image the person was approving. */
export function alreadyAtImage(latest: unknown, versionName: string): boolean {
  return !!versionName && readPool(latest).pin === versionName;
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
