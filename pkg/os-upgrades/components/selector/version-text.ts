import type { OSVersion } from '../../domain';

/** How a person recognises an image: its display name and version, or its name. */
export function versionLabel(version: OSVersion | undefined, fallbackName = ''): string {
  if (!version) {
    return fallbackName;
  }
  const title = version.displayName || version.name;

  return version.version ? `${ title } (${ version.version })` : title;
}
