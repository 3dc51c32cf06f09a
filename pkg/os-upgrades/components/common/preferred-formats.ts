// The person's date-format and time-format preferences, read from the shell's store.
import { DATE_FORMAT, TIME_FORMAT } from '@shell/store/prefs';
import type { DateFormats } from './user-date';

export function preferredFormats(store: { getters: Record<string, unknown> }): DateFormats {
  const get = store.getters['prefs/get'] as (key: string) => string | undefined;

  return { date: get(DATE_FORMAT), time: get(TIME_FORMAT) };
}
