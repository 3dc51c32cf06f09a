// A span of hours as a person reads it: whole days and the hours left ("944 days 14 h"), never
// "22670.6 h". Numbers in, parts out: the words are the components' (l10n).

export interface DurationParts {
  days: number;
  /** Whole hours left over after the days, 0 to 23. */
  hours: number;
}

/** `hours` as whole days and hours (rounded down to the hour), or undefined when not a duration. */
export function durationParts(hours: number): DurationParts | undefined {
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0) {
    return undefined;
  }
  const whole = Math.floor(hours);

  return { days: Math.floor(whole / 24), hours: whole % 24 };
}
