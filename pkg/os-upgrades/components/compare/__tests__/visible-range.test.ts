import fc from 'fast-check';
import { visibleRange } from '../visible-range';

describe('visibleRange', () => {
  it('draws the rows in view and the overscan around them', () => {
    expect(visibleRange(1000, 28, 0, 420, 8)).toEqual({ start: 0, end: 23 });
    expect(visibleRange(1000, 28, 2800, 420, 8)).toEqual({ start: 92, end: 123 });
    expect(visibleRange(1000, 28, 28 * 995, 420, 8)).toEqual({ start: 987, end: 1000 });
    expect(visibleRange(0, 28, 0, 420, 8)).toEqual({ start: 0, end: 0 });
  });

  it('always covers every row a box of that height can show, and never more than a screen and the overscan', () => {
    fc.assert(fc.property(fc.nat(5000), fc.integer({ min: 1, max: 60 }), fc.nat(200_000), fc.nat(2000), fc.nat(20), (count, rowPx, scrollTop, viewport, overscan) => {
      const { start, end } = visibleRange(count, rowPx, scrollTop, viewport, overscan);
      const firstSeen = Math.floor(scrollTop / rowPx);
      const lastSeen = Math.ceil((scrollTop + viewport) / rowPx) - 1;

      expect(start >= 0 && start <= end && end <= count).toBe(true);
      for (const row of [firstSeen, lastSeen]) {
        if (row >= 0 && row < count) {
          expect(row >= start && row < end).toBe(true);
        }
      }
      expect(end - start).toBeLessThanOrEqual(Math.ceil(viewport / rowPx) + 2 + 2 * overscan);
    }));
  });
});
