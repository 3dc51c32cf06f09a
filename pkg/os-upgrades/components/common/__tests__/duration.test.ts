import { durationText, withDurations } from '../duration';

// The English texts of osUpgrades.duration.*, filled in as the shell's `t` does.
function t(key: string, values: Record<string, unknown> = {}): string {
  const days = `${ values.days } ${ values.days === 1 ? 'day' : 'days' }`;
  const texts: Record<string, string> = {
    'osUpgrades.duration.minutes':   `${ values.minutes } min`,
    'osUpgrades.duration.hours':     `${ values.hours } h`,
    'osUpgrades.duration.days':      days,
    'osUpgrades.duration.daysHours': `${ days } ${ values.hours } h`,
  };

  return texts[key] ?? key;
}

describe('durationText', () => {
  it('reads a long soak in days and hours, a short one in hours, whole days without hours', () => {
    expect(durationText(t, 22670.6)).toBe('944 days 14 h');
    expect(durationText(t, 48)).toBe('2 days');
    expect(durationText(t, 25)).toBe('1 day 1 h');
    expect(durationText(t, 20.5)).toBe('20 h');
    expect(durationText(t, 0.3)).toBe('18 min');
  });
});

describe('withDurations', () => {
  it('puts the hours of a promotion message in words and leaves its other values', () => {
    expect(withDurations(t, {
      hours: 22670.6, soakHours: 48, nodes: 3, source: 'fleet-default/canary'
    })).toEqual({
      hours: '944 days 14 h', soakHours: '2 days', nodes: 3, source: 'fleet-default/canary'
    });
  });
});
