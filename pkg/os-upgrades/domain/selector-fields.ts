// The selector form's fields: text as typed, to and from an image selector (parsed by parseSelector).
import { ImageSelector, parseSelector, ParsedSelector } from './selector';

/** The channel field's value when the person chose "any channel" ('' is: not chosen yet). */
export const ANY_CHANNEL = '*';

/** The selector form's fields as typed (text inputs stay text until parsed). */
export interface SelectorFields {
  /** A channel name, ANY_CHANNEL, or '' while none is chosen (an error: the choice is required). */
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
    // A stored selector without a channel was saved with "any channel".
    channel:          selector.channel ?? ANY_CHANNEL,
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
    if (fields[name].trim() !== '' && !(name === 'channel' && fields.channel.trim() === ANY_CHANNEL)) {
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

/**
 * The fields parsed as a selector, and one more rule than the stored format has: a channel must be
 * chosen, or "any channel" explicitly, since without one images of every channel are ranked
 * together (a v1.0.0 of another channel can win over v2.2.0-3.12 by date).
 */
export function parseSelectorFields(fields: SelectorFields): ParsedSelector {
  const parsed = parseSelector(selectorInput(fields));

  if (fields.channel.trim() !== '') {
    return parsed;
  }

  return { errors: [...parsed.errors, { field: 'channel', key: 'osUpgrades.selector.error.channelRequired' }] };
}

/** True when the fields rank images across every channel (the preview warns). */
export function ranksAcrossChannels(fields: SelectorFields): boolean {
  return fields.channel.trim() === ANY_CHANNEL;
}
