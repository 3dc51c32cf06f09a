// One 'abort' listener per signal, however many callers wait on it. A compare's 500 files all wait
// on the page's one signal, and a signal keeps its listeners in a list that every removal searches:
// 500 listeners added and removed one by one cost the page 17 ms (docs/benchmarks.md, session 26).
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` when `signal` aborts (as a listener added now would be: not for a signal that
 * has already aborted). The returned function stops watching.
 */
export function watchAbort(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) {
    return () => undefined;
  }
  let waiting = watchers.get(signal);

  if (!waiting) {
    const created = new Set<() => void>();

    waiting = created;
    watchers.set(signal, created);
    signal.addEventListener('abort', () => {
      watchers.delete(signal);
      created.forEach((call) => call());
    }, { once: true });
  }
  const set = waiting;

  set.add(onAbort);

  return () => {
    set.delete(onAbort);
  };
}

/** What `promise` gives, or undefined as soon as `signal` aborts (whichever comes first). */
export async function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  let stop = () => undefined as void;

  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => {
      stop = watchAbort(signal, () => resolve(undefined));
    })]);
  } finally {
    stop();
  }
}
