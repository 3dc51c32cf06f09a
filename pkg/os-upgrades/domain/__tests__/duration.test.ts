import fc from 'fast-check';
import { durationParts } from '../index';

describe('durationParts', () => {
  it('splits a long soak into days and hours, dropping the fraction of an hour', () => {
    expect(durationParts(22670.6)).toEqual({ days: 944, hours: 14 });
    expect(durationParts(48)).toEqual({ days: 2, hours: 0 });
    expect(durationParts(23.9)).toEqual({ days: 0, hours: 23 });
    expect(durationParts(0)).toEqual({ days: 0, hours: 0 });
  });

  it('has no parts for what is not a duration', () => {
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(durationParts(value)).toBeUndefined();
    }
  });

  it('gives back the whole hours it was given, with fewer than 24 left over', () => {
    fc.assert(fc.property(fc.double({
      min: 0, max: 1e7, noNaN: true
    }), (hours) => {
      const parts = durationParts(hours);

      expect(parts && parts.days * 24 + parts.hours).toBe(Math.floor(hours));
      expect(parts && parts.hours).toBeLessThan(24);
    }));
  });
});
