// Files that settle together are written to the store together: a compare across 500 images whose
// files come from the cache at once (one IndexedDB transaction answers them all) redraws and
// aggregates the changelog once, not 500 times. The write waits only for the microtasks already
// queued (the other answers of that transaction), so files from the network show as they come and
// nothing waits for a timer.

export class SettleBatch<T> {
  private waiting: Array<[string, T]> = [];
  private written: Promise<void> | undefined;

  constructor(private readonly write: (entries: Array<[string, T]>) => void) {}

  /** Resolves once the entry (and those settled with it) is in the store. */
  add(key: string, value: T): Promise<void> {
    this.waiting.push([key, value]);
    if (!this.written) {
      this.written = new Promise<void>((resolve) => queueMicrotask(() => {
        const entries = this.waiting;

        this.waiting = [];
        this.written = undefined;
        this.write(entries);
        resolve();
      }));
    }

    return this.written;
  }

  /** The value waiting to be written for a key, if any (the last one added). */
  pending(key: string): T | undefined {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i][0] === key) {
        return this.waiting[i][1];
      }
    }

    return undefined;
  }
}
