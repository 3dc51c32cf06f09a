// Durations for the person (`osUpgrades.duration.*`): "944 days 14 h", "2 days", "20 h", "18 min".
import { durationParts } from '../../domain';

type Translate = (key: string, values?: Record<string, unknown>, raw?: boolean) => string;

/** The values of a domain message that are hours (promotion soak, selector minimum age). */
const HOUR_VALUES = ['hours', 'soakHours', 'soaked', 'required', 'minAgeHours', 'ageHours'];

/** `hours` in words; the value as it is when it is not a duration. */
export function durationText(t: Translate, hours: unknown): string {
  const parts = typeof hours === 'number' ? durationParts(hours) : undefined;

  if (!parts) {
    return String(hours ?? '');
  }
  if (parts.days) {
    return t(parts.hours ? 'osUpgrades.duration.daysHours' : 'osUpgrades.duration.days', { days: parts.days, hours: parts.hours }, true);
  }

  return parts.hours ? t('osUpgrades.duration.hours', { hours: parts.hours }, true) : t('osUpgrades.duration.minutes', { minutes: parts.minutes }, true);
}

/** A domain message's values with every number of hours in words. */
export function withDurations(t: Translate, values: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };

  for (const key of HOUR_VALUES) {
    if (typeof out[key] === 'number') {
      out[key] = durationText(t, out[key]);
    }
  }

  return out;
}
