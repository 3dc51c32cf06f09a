// The changelog of a compare, aggregated once for the files it was aggregated from: the logs and
// package lists are the changelogs store's own (parsed once, never changed), so a second visit of
// the same compare in the session reuses the advisories instead of aggregating 500 logs again.
import {
  aggregatePlan, Changelog, ChangelogPlan, PackageLists, SearchableAdvisory, searchIndex, UpdateLogs
} from '../../domain';

interface Aggregated {
  /** The plan's span, the logs and the package lists, in order: what the changelog was made of. */
  inputs: unknown[];
  changelog: Changelog;
}

/** Compares being revisited in a session: a few. */
const KEPT = 8;
const kept = new Map<string, Aggregated>();

function inputsOf(plan: ChangelogPlan, logs: UpdateLogs, packages: PackageLists): unknown[] {
  return [plan.from?.name, plan.from?.created, plan.to?.name, plan.to?.created, plan.direction, plan.crossChannel, ...plan.span, ...plan.span.map((name) => logs[name]), packages[plan.from?.name ?? ''], packages[plan.to?.name ?? '']];
}

function same(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** aggregatePlan, or what it gave for the same span, logs and lists (by identity) under `key`. */
export function aggregatedChangelog(key: string, plan: ChangelogPlan, logs: UpdateLogs, packages: PackageLists): Changelog {
  const inputs = inputsOf(plan, logs, packages);
  const found = kept.get(key);

  if (found && same(found.inputs, inputs)) {
    // Most recently used last, so the oldest goes first.
    kept.delete(key);
    kept.set(key, found);

    return found.changelog;
  }
  const changelog = aggregatePlan(plan, logs, packages);

  kept.set(key, { inputs, changelog });
  if (kept.size > KEPT) {
    kept.delete(kept.keys().next().value as string);
  }

  return changelog;
}

const indexes = new WeakMap<Changelog, SearchableAdvisory[]>();

/** The advisories' search index, built once per changelog. */
export function advisoryIndex(changelog: Changelog): SearchableAdvisory[] {
  let index = indexes.get(changelog);

  if (!index) {
    index = searchIndex(changelog.advisories);
    indexes.set(changelog, index);
  }

  return index;
}
