// Files that settle close together are written to the store together: a compare across 500 images
// whose files come from the cache at once redraws (and aggregates the changelog) a few times, not
// 500 times. The first batch is written one short wait after the first file settles.

/** How long settled files wait for others before they are written, in milliseconds (about a frame). */
export const SETTLE_BATCH_MS = 16;

export class SettleBatch<T> {
  private waiting: Array<[string, T]> = [];
  private written: Promise<void> | undefined;

  constructor(private readonly write: (entries: Array<[string, T]>) => void, private readonly delayMs = SETTLE_BATCH_MS) {}

  /** Resolves once the entry (and those settled with it) is in the store. */
  add(key: string, value: T): Promise<void> {
    this.waiting.push([key, value]);
    if (!this.written) {
      this.written = new Promise<void>((resolve) => setTimeout(resolve, this.delayMs)).then(() => {
        const entries = this.waiting;

        this.waiting = [];
        this.written = undefined;
        this.write(entries);
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
