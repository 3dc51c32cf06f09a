// Dates in the person's own format, as the shell writes them (shell components/formatter/Date.vue
// and LiveDate.vue: dayjs with the date-format and time-format preferences), for the places where
// the shell's components cannot go, such as the text of a select's option.
import day from 'dayjs';

/** The shell's defaults for the two preferences (shell store/prefs.js DATE_FORMAT, TIME_FORMAT). */
export const SHELL_DATE_FORMAT = 'ddd, MMM D YYYY';
export const SHELL_TIME_FORMAT = 'h:mm:ss a';

export interface DateFormats {
  /** The date-format preference, e.g. `YYYY-MM-DD`; the shell's default when unset. */
  date?: string;
  /** The time-format preference, e.g. `HH:mm:ss`; the shell's default when unset. */
  time?: string;
}

function valid(seconds: number | undefined): seconds is number {
  return seconds !== undefined && Number.isFinite(seconds) && !Number.isNaN(new Date(seconds * 1000).getTime());
}

/** The date of unix `seconds` in the person's date format (`Wed, Nov 27 2024`), or '' when unknown. */
export function userDate(seconds: number | undefined, formats: DateFormats = {}): string {
  return valid(seconds) ? day(seconds * 1000).format(formats.date || SHELL_DATE_FORMAT) : '';
}

/** Date and time as LiveDate's tooltip writes them (`Wed, Nov 27 2024 4:07:57 pm`), or '' when unknown. */
export function userDateTime(seconds: number | undefined, formats: DateFormats = {}): string {
  return valid(seconds) ? day(seconds * 1000).format(`${ formats.date || SHELL_DATE_FORMAT } ${ formats.time || SHELL_TIME_FORMAT }`) : '';
}
