import fc from 'fast-check';
import { userDate, userDateTime } from '../user-date';

// 2024-11-27 16:07:57, built from local parts so the test holds in any time zone.
const NOV_27 = new Date(2024, 10, 27, 16, 7, 57).getTime() / 1000;

describe('userDate', () => {
  it('writes the date in the person\'s date format, the shell\'s default when unset', () => {
    expect(userDate(NOV_27)).toBe('Wed, Nov 27 2024');
    expect(userDate(NOV_27, { date: 'YYYY-MM-DD' })).toBe('2024-11-27');
    expect(userDate(NOV_27, { date: 'D/M/YYYY' })).toBe('27/11/2024');
  });

  it('writes nothing for an unknown or unreadable time', () => {
    expect(userDate(undefined)).toBe('');
    expect(userDate(Number.NaN)).toBe('');
    expect(userDate(Number.POSITIVE_INFINITY)).toBe('');
    expect(userDate(1e20)).toBe('');
  });

  it('never throws and never writes "Invalid Date", whatever the number', () => {
    fc.assert(fc.property(fc.double(), (seconds) => {
      expect(userDate(seconds)).not.toContain('Invalid');
      expect(userDateTime(seconds)).not.toContain('Invalid');
    }));
  });
});

describe('userDateTime', () => {
  it('writes date and time as the shell\'s LiveDate tooltip does', () => {
    expect(userDateTime(NOV_27)).toBe('Wed, Nov 27 2024 4:07:57 pm');
    expect(userDateTime(NOV_27, { date: 'YYYY-MM-DD', time: 'HH:mm:ss' })).toBe('2024-11-27 16:07:57');
  });
});
