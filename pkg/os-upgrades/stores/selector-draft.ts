import { defineStore } from 'pinia';
import { ImageSelector, parseSelector, ParsedSelector, serializeSelector } from '../domain';

/** The selector form's fields as typed (text inputs stay text until parsed). */
export interface SelectorFields {
  channel: string;
  version: string;
  displayName: string;
  platform: string;
  minAgeHours: string;
  includeOutOfSync: boolean;
}

export const SELECTOR_FIELD_NAMES = ['channel', 'version', 'displayName', 'platform', 'minAgeHours', 'includeOutOfSync'] as const;

/** How long typing settles before the preview resolves again. */
export const PREVIEW_DELAY_MS = 40;

function emptyFields(): SelectorFields {
  return {
    channel: '', version: '', displayName: '', platform: '', minAgeHours: '', includeOutOfSync: false
  };
}

export function fieldsFromSelector(selector: ImageSelector | undefined): SelectorFields {
  const fields = emptyFields();

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

let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * The selector being written in the pool form. `fields` follow every keystroke; `settled` (what
 * the preview resolves) follows them after a short pause, so typing stays smooth on large channels.
 */
export const useSelectorDraftStore = defineStore('osUpgrades.selectorDraft', {
  state: () => ({
    fields:  emptyFields(),
    settled: emptyFields(),
  }),

  getters: {
    /** The parse of what the preview shows. */
    parsed(state): ParsedSelector {
      return parseSelector(selectorInput(state.settled));
    },

    /** The parse of the fields as typed (for field errors and saving). */
    current(state): ParsedSelector {
      return parseSelector(selectorInput(state.fields));
    },

    /** The JSON the pool's annotation would hold, '' while the selector is invalid. */
    json(): string {
      return this.current.selector ? serializeSelector(this.current.selector) : '';
    },

    /** True while the preview still shows an older state of the fields. */
    pending(state): boolean {
      return JSON.stringify(state.fields) !== JSON.stringify(state.settled);
    },
  },

  actions: {
    /** Starts a draft from a stored selector (or an empty one). */
    load(selector?: ImageSelector) {
      clearTimeout(timer);
      this.fields = fieldsFromSelector(selector);
      this.settled = fieldsFromSelector(selector);
    },

    setField<K extends keyof SelectorFields>(name: K, value: SelectorFields[K]) {
      this.fields = { ...this.fields, [name]: value };
      clearTimeout(timer);
      timer = setTimeout(() => this.settle(), PREVIEW_DELAY_MS);
    },

    /** Makes the preview follow the fields now (also used before saving). */
    settle() {
      clearTimeout(timer);
      this.settled = { ...this.fields };
    },
  },
});
