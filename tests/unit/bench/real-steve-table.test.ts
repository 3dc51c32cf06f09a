import { namedRequests, requestShape, side } from '../../../scripts/bench/real-steve-table';
import type { PagesResults } from '../../../scripts/bench/pages';
import type { WaterfallEntry } from '../../../scripts/bench/waterfall';

const COUNT = (channel: string) => `https://r.example/v1/elemental.cattle.io.managedosversions?page=1&pagesize=1&filter=metadata.labels[elemental.cattle.io/channel]%20IN%20(${ channel })`;

function entry(url: string, firstByteMs: number): WaterfallEntry {
  return {
    url, method: 'GET', type: 'Fetch', protocol: 'h2', status: 200, startMs: 0, firstByteMs, endMs: firstByteMs + 1, bytes: 100, fromCache: false
  };
}

function results(coldMs: number, warmMs: number[]): PagesResults {
  return {
    label:            'x',
    chromium:         '',
    runs:             warmMs.length,
    protocol:         'h2',
    heapAfterGcBytes: 40e6,
    pages:            [{
      name: 'channels list', coldMs, coldBytes: 1, coldRequests: 1, packageFiles: [], warmMs
    }],
  };
}

describe('the pages on real Steve beside the emulator', () => {
  it('takes the count requests of different channels, and name filters, as one request each', () => {
    expect(requestShape('GET', COUNT('sl-micro-6.0-rt-scale'))).toBe(requestShape('GET', COUNT('sl-micro-6.9-kvm-scale')));
    expect(requestShape('GET', 'https://r.example/v1/x?filter=metadata.name=%22a%22,metadata.name=%22b%22'))
      .toBe('GET /v1/x?filter=metadata.name="…",metadata.name="…"');
    expect(requestShape('GET', COUNT('a'))).not.toBe(requestShape('GET', 'https://r.example/v1/elemental.cattle.io.managedosversions?pagesize=1'));
  });

  it('names a request only when real Steve answers it much slower or faster, by the median of its kind', () => {
    const emulator = [entry(COUNT('a'), 10), entry(COUNT('b'), 30), entry('https://r.example/v1/channels', 20), entry('https://r.example/v1/uiplugins/p/1.js', 10)];
    const real = [entry(COUNT('a'), 900), entry(COUNT('b'), 1100), entry(COUNT('c'), 1000), entry('https://r.example/v1/channels', 60), entry('https://r.example/v1/uiplugins/p/1.js', 500)];

    expect(namedRequests(emulator, real)).toEqual([{
      request: requestShape('GET', COUNT('a')), count: 3, emulatorMs: 10, realMs: 1000
    }]);
  });

  it('meets the targets only with a first paint under 1 s and warm navigations under 100 ms p95', () => {
    const fast = Array.from({ length: 20 }, () => 50);

    expect(side(results(900, fast), 'channels list')?.pass).toBe(true);
    expect(side(results(1100, fast), 'channels list')?.pass).toBe(false);
    expect(side(results(900, [...fast.slice(2), 150, 160]), 'channels list')?.pass).toBe(false);
    expect(side(results(900, fast), 'pool form')).toBeUndefined();
  });
});
