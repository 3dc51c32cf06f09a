// Reads asked for in the same turn of the event loop, answered by bulk reads: a page opening
// 500 files from IndexedDB waits for two transactions instead of 500 round trips. The first few
// keys asked for get a bulk read of their own, so what a page asks for first (a compare's two
// package lists, before its hundreds of logs) is not held behind the rest.

/** How many of a turn's first keys are read on their own. */
export const FIRST_READ_KEYS = 8;

interface Waiter {
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class BatchReader {
  private waiting: Map<string, Waiter[]> | undefined;

  /** `readMany` answers the values of `keys` in their order (undefined for a missing key). */
  constructor(private readonly readMany: (keys: string[]) => Promise<unknown[]>) {}

  read(key: string): Promise<unknown> {
    if (!this.waiting) {
      this.waiting = new Map();
      // A macrotask, not a microtask: callers resuming from other promises in this turn still join.
      setTimeout(() => this.flush(), 0);
    }
    const batch = this.waiting;

    return new Promise((resolve, reject) => {
      const waiters = batch.get(key);

      if (waiters) {
        waiters.push({ resolve, reject });
      } else {
        batch.set(key, [{ resolve, reject }]);
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;

    this.waiting = undefined;
    if (!batch) {
      return;
    }
    const keys = [...batch.keys()];
    const first = keys.slice(0, FIRST_READ_KEYS);
    const rest = keys.slice(FIRST_READ_KEYS);

    await Promise.all([this.answer(batch, first), rest.length ? this.answer(batch, rest) : undefined]);
  }

  private async answer(batch: Map<string, Waiter[]>, keys: string[]): Promise<void> {
    try {
      const values = await this.readMany(keys);

      keys.forEach((key, i) => batch.get(key)?.forEach((waiter) => waiter.resolve(values[i])));
    } catch (err) {
      keys.forEach((key) => batch.get(key)?.forEach((waiter) => waiter.reject(err)));
    }
  }
}
