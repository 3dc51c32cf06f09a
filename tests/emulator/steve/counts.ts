// Steve's `count` object and what its watch sends (rancher/steve pkg/resources/counts/counts.go and
// buffer.go): per type the number of objects, with how many are in error or transitioning, the same
// per namespace; zero fields are left out (`omitempty`). A watch sends a type's count when it changed:
// an object added or removed, or one whose error or transitioning state changed (a label edit sends
// nothing). The first change goes at once, later ones merged at most every 5 s.

import { JsonObject } from '../core/json';
import { KubeObject, StoreEvent } from '../kube/store';
import { ObjectState, summarize } from './summary';

/** buffer.go `debounceDuration`. */
export const COUNTS_DEBOUNCE_MS = 5000;

interface CountSummary {
  count: number;
  states: Record<string, number>;
  errors: number;
  transitioning: number;
}

function add(into: CountSummary, { error, transitioning }: ObjectState): void {
  // counts.go `simpleState`: only errors and transitions are states a count keeps.
  const state = error ? 'error' : transitioning ? 'in-progress' : '';

  into.count++;
  into.errors += error ? 1 : 0;
  into.transitioning += transitioning ? 1 : 0;
  if (state) {
    into.states[state] = (into.states[state] ?? 0) + 1;
  }
}

function withoutZeros(summary: CountSummary): JsonObject {
  const out: JsonObject = {};

  if (summary.count) {
    out.count = summary.count;
  }
  if (Object.keys(summary.states).length) {
    out.states = summary.states;
  }
  if (summary.errors) {
    out.errors = summary.errors;
  }
  if (summary.transitioning) {
    out.transitioning = summary.transitioning;
  }

  return out;
}

const empty = (): CountSummary => ({
  count: 0, states: {}, errors: 0, transitioning: 0
});

/** One type's entry of the `count` object (counts.go `ItemCount`; its revision is not sent). */
export function itemCount(items: KubeObject[]): JsonObject {
  const summary = empty();
  const namespaces = new Map<string, CountSummary>();

  for (const item of items) {
    const state = summarize(item);
    const namespace = item.metadata.namespace;

    add(summary, state);
    if (namespace) {
      if (!namespaces.has(namespace)) {
        namespaces.set(namespace, empty());
      }
      add(namespaces.get(namespace) as CountSummary, state);
    }
  }
  const out: JsonObject = { summary: withoutZeros(summary) };

  if (namespaces.size) {
    out.namespaces = Object.fromEntries([...namespaces].map(([namespace, s]) => [namespace, withoutZeros(s)]));
  }

  return out;
}

/** Whether the event changes its type's count (counts.go Watch `onChange`). */
export function changesCount(event: StoreEvent): boolean {
  if (event.action !== 'change') {
    return true;
  }
  if (!event.previous) {
    return false;
  }
  const before = summarize(event.previous);
  const after = summarize(event.object);

  return before.error !== after.error || before.transitioning !== after.transitioning;
}
