import { LatestLoad } from '../latest-load';

describe('latest load', () => {
  it('aborts the previous load only after the next one has started', () => {
    const latest = new LatestLoad();
    let first: AbortSignal | undefined;
    let firstAbortedWhenSecondStarted: boolean | undefined;

    latest.start((signal) => {
      first = signal;
    });
    latest.start(() => {
      firstAbortedWhenSecondStarted = first?.aborted;
    });

    expect(firstAbortedWhenSecondStarted).toBe(false);
    expect(first?.aborted).toBe(true);
    expect(latest.signal?.aborted).toBe(false);
  });

  it('aborts the current load when the component goes away', () => {
    const latest = new LatestLoad();

    latest.start(() => undefined);
    latest.abort();

    expect(latest.signal?.aborted).toBe(true);
  });
});
