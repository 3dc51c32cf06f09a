import fc from 'fast-check';
import { durationParts } from '../index';

describe('durationParts', () => {
  it('splits a long soak into days and hours, dropping what is under a minute', () => {
    expect(durationParts(22670.6)).toEqual({
      days: 944, hours: 14, minutes: 36
    });
    expect(durationParts(48)).toEqual({
      days: 2, hours: 0, minutes: 0
    });
    expect(durationParts(23.5)).toEqual({
      days: 0, hours: 23, minutes: 30
    });
    expect(durationParts(0.1)).toEqual({
      days: 0, hours: 0, minutes: 6
    });
    expect(durationParts(0.005)).toEqual({
      days: 0, hours: 0, minutes: 0
    });
  });

  it('has no parts for what is not a duration', () => {
    for (const value of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(durationParts(value)).toBeUndefined();
    }
  });

  it('gives back the whole minutes it was given, each part under its next unit', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1e9 }), (minutes) => {
      const parts = durationParts(minutes / 60);

      expect(parts && (parts.days * 24 + parts.hours) * 60 + parts.minutes).toBe(minutes);
      expect(parts && parts.hours).toBeLessThan(24);
      expect(parts && parts.minutes).toBeLessThan(60);
    }));
  });
});
