/**
 * The cancellation of a component's current load. A new load aborts the previous one only after
 * it has asked for its own files, so a file both need is not cancelled and fetched again.
 */
export class LatestLoad {
  private controller: AbortController | null = null;

  start(load: (signal: AbortSignal) => void): void {
    const previous = this.controller;

    this.controller = new AbortController();
    load(this.controller.signal);
    previous?.abort();
  }

  /** The current load's signal, for a retry that belongs to it. */
  get signal(): AbortSignal | undefined {
    return this.controller?.signal;
  }

  abort(): void {
    this.controller?.abort();
  }
}
