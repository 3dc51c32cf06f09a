import { describeRegression, regressions } from '../../../scripts/bench/regressions';

const row = (metric: string, values: Record<string, number>, pass?: boolean) => ({
  metric, values, pass
});

describe('bench regressions (the previous results file against this run)', () => {
  it('reports a target met before and missed now, and a timing grown past the fraction and the floor', () => {
    const previous = [row('pages: pools list, warm', { medianMs: 80, p95Ms: 95 }, true), row('  entry chunk', { gzipBytes: 40000 })];
    const current = [row('pages: pools list, warm', { medianMs: 84, p95Ms: 130 }, false), row('  entry chunk', { gzipBytes: 52000 })];

    expect(regressions(previous, current)).toEqual([
      { metric: 'pages: pools list, warm', what: 'missed' },
      {
        metric: 'pages: pools list, warm', what: 'p95Ms', before: 95, after: 130
      },
      {
        metric: 'pages: pools list, warm ↳ entry chunk', what: 'gzipBytes', before: 40000, after: 52000
      },
    ]);
  });

  it('ignores noise on tiny figures, improvements, counts and rows new in this run', () => {
    const previous = [row('domain: diffPackages', {
      medianMs: 1, p95Ms: 10, runs: 100
    }, true)];
    const current = [row('domain: diffPackages', {
      medianMs: 2.5, p95Ms: 4, runs: 400
    }, true), row('pages: scaling, 100000 versions', { medianMs: 900 }, false)];

    expect(regressions(previous, current)).toEqual([]);
  });

  it('compares a row named like others ("↳ same, …") with the one under the same page', () => {
    const previous = [
      row('pools list, cold', { medianMs: 700 }), row('↳ same, warm navigations', { medianMs: 186 }),
      row('pool form, cold', { medianMs: 300 }), row('↳ same, warm navigations', { medianMs: 70 }),
    ];
    const current = [
      row('pools list, cold', { medianMs: 700 }), row('↳ same, warm navigations', { medianMs: 104 }),
      row('pool form, cold', { medianMs: 300 }), row('↳ same, warm navigations', { medianMs: 95 }),
    ];

    expect(regressions(previous, current)).toEqual([{
      metric: 'pool form, cold ↳ same, warm navigations', what: 'medianMs', before: 70, after: 95
    }]);
  });

  it('tells the results file\'s indented rows apart by the page above them', () => {
    const previous = [
      row('pools list, cold', { coldMs: 560 }), row('  same, warm navigations', { medianMs: 105 }),
      row('pool form, cold', { coldMs: 320 }), row('  same, warm navigations', { medianMs: 63 }),
    ];
    const current = [
      row('pools list, cold', { coldMs: 560 }), row('  same, warm navigations', { medianMs: 77 }),
      row('pool form, cold', { coldMs: 320 }), row('  same, warm navigations', { medianMs: 90 }),
    ];

    expect(regressions(previous, current)).toEqual([{
      metric: 'pool form, cold ↳ same, warm navigations', what: 'medianMs', before: 63, after: 90
    }]);
  });

  it('says what grew and by how much', () => {
    expect(describeRegression({
      metric: 'compare, 500 images', what: 'medianMs', before: 200, after: 300
    })).toBe('compare, 500 images: medianMs 200.00 → 300.00 ms (+50%)');
  });
});
