// The selector form's fields: text as typed, to and from an image selector (parsed by parseSelector).
import type { ImageSelector } from './selector';

/** The selector form's fields as typed (text inputs stay text until parsed). */
export interface SelectorFields {
  channel: string;
  version: string;
  displayName: string;
  platform: string;
  minAgeHours: string;
  includeOutOfSync: boolean;
}

export function emptySelectorFields(): SelectorFields {
  return {
    channel: '', version: '', displayName: '', platform: '', minAgeHours: '', includeOutOfSync: false
  };
}

export function fieldsFromSelector(selector: ImageSelector | undefined): SelectorFields {
  const fields = emptySelectorFields();

  if (!selector) {
    return fields;
  }

  return {
    channel:          selector.channel ?? '',
    version:          selector.version ?? '',
    displayName:      selector.displayName ?? '',
    platform:         selector.platform ?? '',
    minAgeHours:      selector.minAgeHours === undefined ? '' : String(selector.minAgeHours),
    includeOutOfSync: selector.includeOutOfSync === true,
  };
}

/** The fields as a selector object: empty text is unset; an hour count that is no number stays text so validation names it. */
export function selectorInput(fields: SelectorFields): Record<string, unknown> {
  const input: Record<string, unknown> = {};

  for (const name of ['channel', 'version', 'displayName', 'platform'] as const) {
    if (fields[name].trim() !== '') {
      input[name] = fields[name].trim();
    }
  }
  const hours = fields.minAgeHours.trim();

  if (hours !== '') {
    input.minAgeHours = /^-?\d+(\.\d+)?$/.test(hours) ? Number(hours) : hours;
  }
  if (fields.includeOutOfSync) {
    input.includeOutOfSync = true;
  }

  return input;
}
