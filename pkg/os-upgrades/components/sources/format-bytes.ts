/** 1536 → "1.5 kB": decimal units, as the size a person reads. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = Math.max(0, bytes);
  let unit = 0;

  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }

  return `${ unit === 0 ? value : value.toFixed(1) } ${ units[unit] }`;
}
