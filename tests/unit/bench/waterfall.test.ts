import { summarize, WaterfallEntry } from '../../../scripts/bench/waterfall';
import { summarizeProfile } from '../../../scripts/bench/cpu-profile';

function entry(url: string, startMs: number, endMs: number | undefined, bytes = 100): WaterfallEntry {
  return {
    url, method: 'GET', type: 'XHR', protocol: 'h2', status: 200, startMs, endMs, bytes, fromCache: false
  };
}

describe('the request waterfall summary', () => {
  it('counts the requests in flight together and the time the network was busy', () => {
    const summary = summarize([
      entry('https://r.example/v1/elemental.cattle.io.managedosversions?filter=x', 0, 40, 5000),
      entry('https://r.example/changelog-files/a.updates.log', 10, 30),
      entry('https://r.example/changelog-files/b.updates.log', 20, 50),
      entry('https://r.example/changelog-files/c.updates.log', 100, 120),
      entry('https://r.example/changelog-files/d.updates.log', 130, undefined),
    ]);

    expect(summary).toEqual({
      requests:    5,
      bytes:       5400,
      spanMs:      120,
      maxInFlight: 3,
      busyMs:      70,
      byKind:      {
        '/v1/elemental.cattle.io.managedosversions': { requests: 1, bytes: 5000 },
        '/changelog-files':                          { requests: 4, bytes: 400 },
      },
    });
  });
});

describe('the CPU profile summary', () => {
  it('names the functions with the most self time, apart from idle and native work', () => {
    const frame = (id: number, functionName: string, url = '') => ({
      id,
      callFrame: {
        functionName, url, lineNumber: 9
      }
    });
    const summary = summarizeProfile({
      nodes:      [frame(1, '(idle)'), frame(2, '(program)'), frame(3, 'aggregatePlan', 'https://x/plugin/os-upgrades.umd.min.572.js'), frame(4, 'render')],
      samples:    [1, 3, 3, 4, 2, 3],
      timeDeltas: [1000, 2000, 2000, 500, 700, 1000],
    }, 1);

    expect(summary).toEqual({
      totalMs: 7.2, idleMs: 1, programMs: 0.7, gcMs: 0, top: [{ name: 'aggregatePlan os-upgrades.umd.min.572.js:10', selfMs: 5 }]
    });
  });
});
