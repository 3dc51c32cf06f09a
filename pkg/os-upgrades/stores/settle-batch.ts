// Files that settle together are written to the store together: a compare across 500 images whose
// files come from the cache at once (one IndexedDB transaction answers them all) redraws and
// aggregates the changelog once, not 500 times. The write waits only for the microtasks already
// queued (the other answers of that transaction), so the first files show at once and nothing
// waits for a timer. Files from the network come one by one: after a write, what settles within
// `spacingMs` is written together when that time is up, so 486 logs arriving over a few seconds
// re-aggregate the changelog a few times a second instead of 486 times. The last file a page
// waits for is written at once (`add(…, true)`): the spacing never delays the complete page.

/** The least time between two writes of files from the network. */
export const SETTLE_SPACING_MS = 250;

export class SettleBatch<T> {
  private waiting: Array<[string, T]> = [];
  private written: Promise<void> | undefined;
  private flushNow: (() => void) | undefined;
  private lastWriteAt = -Infinity;

  constructor(
    private readonly write: (entries: Array<[string, T]>) => void,
    private readonly spacingMs = SETTLE_SPACING_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Resolves once the entry (and those settled with it) is in the store. `last`: nothing else is
   * awaited, so what waits is written now, not when the spacing is up.
   */
  add(key: string, value: T, last = false): Promise<void> {
    this.waiting.push([key, value]);
    if (this.written && last && this.flushNow) {
      const flush = this.flushNow;

      this.flushNow = undefined;
      queueMicrotask(flush);
    }
    if (!this.written) {
      const wait = this.lastWriteAt + this.spacingMs - this.now();

      this.written = new Promise<void>((resolve) => {
        let done = false;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const flush = () => {
          if (done) {
            return;
          }
          done = true;
          clearTimeout(timer);
          this.flushNow = undefined;
          const entries = this.waiting;

          this.waiting = [];
          this.written = undefined;
          this.lastWriteAt = this.now();
          this.write(entries);
          resolve();
        };

        if (wait > 0 && !last) {
          timer = setTimeout(flush, wait);
          this.flushNow = flush;
        } else {
          queueMicrotask(flush);
        }
      });
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
