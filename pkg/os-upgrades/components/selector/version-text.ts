import type { OSVersion } from '../../domain';

/** `2024-05-01 12:00 UTC`, or '' for an unknown time (unix seconds in). */
export function createdText(created: number | undefined): string {
  if (created === undefined || !Number.isFinite(created) || Math.abs(created) > 8.64e12) {
    return '';
  }

  return `${ new Date(created * 1000).toISOString().slice(0, 16).replace('T', ' ') } UTC`;
}

/** How a person recognises an image: its display name and version, or its name. */
export function versionLabel(version: OSVersion | undefined, fallbackName = ''): string {
  if (!version) {
    return fallbackName;
  }
  const title = version.displayName || version.name;

  return version.version ? `${ title } (${ version.version })` : title;
}
