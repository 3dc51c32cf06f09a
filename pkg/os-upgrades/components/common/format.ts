// Dates as operators compare them: ISO order, UTC, the same in every browser.

function iso(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) {
    return '';
  }
  const date = new Date(seconds * 1000);

  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

/** `2024-11-27`, or '' when unknown. */
export function formatDate(seconds: number | undefined): string {
  return iso(seconds).slice(0, 10);
}

/** `2024-11-27 16:07 UTC`, or '' when unknown. */
export function formatDateTime(seconds: number | undefined): string {
  const text = iso(seconds);

  return text ? `${ text.slice(0, 10) } ${ text.slice(11, 16) } UTC` : '';
}
