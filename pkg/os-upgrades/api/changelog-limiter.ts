/** Thrown (as a rejection) for a task whose signal aborted before it could start. */
export class QueueAbortedError extends Error {
  constructor() {
    super('aborted before it started');
    this.name = 'QueueAbortedError';
  }
}

interface Waiting {
  start: () => void;
  signal?: AbortSignal;
  onAbort: () => void;
}

/** Runs at most `limit` tasks at a time, first come first served; an aborted waiting task never starts. */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly queue: Waiting[] = [];

  constructor(private readonly limit: number) {}

  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new QueueAbortedError());

        return;
      }
      const entry: Waiting = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', entry.onAbort);
          this.running++;
          task().then(resolve, reject).finally(() => {
            this.running--;
            this.next();
          });
        },
        onAbort: () => {
          const index = this.queue.indexOf(entry);

          if (index >= 0) {
            this.queue.splice(index, 1);
            reject(new QueueAbortedError());
          }
        },
      };

      signal?.addEventListener('abort', entry.onAbort);
      this.queue.push(entry);
      this.next();
    });
  }

  private next(): void {
    while (this.running < this.limit && this.queue.length) {
      this.queue.shift()?.start();
    }
  }
}
