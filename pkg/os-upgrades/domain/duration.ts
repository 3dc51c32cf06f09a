// A span of hours as a person reads it: whole days and the hours left ("944 days 14 h"), never
// "22670.6 h"; under an hour, its minutes. Numbers in, parts out: the words are the components'.

export interface DurationParts {
  days: number;
  /** Whole hours left over after the days, 0 to 23. */
  hours: number;
  /** Whole minutes left over after the hours, 0 to 59. */
  minutes: number;
}

/** `hours` as whole days, hours and minutes (rounded down), or undefined when not a duration. */
export function durationParts(hours: number): DurationParts | undefined {
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0) {
    return undefined;
  }
  // Rounded to a millionth of a minute first, so that 0.1 h is 6 minutes and not 5.
  const minutes = Math.floor(Math.round(hours * 60 * 1e6) / 1e6);

  return {
    days: Math.floor(minutes / 1440), hours: Math.floor((minutes % 1440) / 60), minutes: minutes % 60
  };
}
