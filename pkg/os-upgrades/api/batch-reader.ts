// Reads asked for in the same turn of the event loop, answered by one bulk read: a page opening
// 500 files from IndexedDB waits for one transaction instead of 500 round trips.

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

    try {
      const values = await this.readMany(keys);

      keys.forEach((key, i) => batch.get(key)?.forEach((waiter) => waiter.resolve(values[i])));
    } catch (err) {
      keys.forEach((key) => batch.get(key)?.forEach((waiter) => waiter.reject(err)));
    }
  }
}
