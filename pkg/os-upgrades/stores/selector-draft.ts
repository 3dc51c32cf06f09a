import { defineStore } from 'pinia';
import {
  emptySelectorFields, fieldsFromSelector, ImageSelector, parseSelectorFields, ParsedSelector, SelectorFields, serializeSelector
} from '../domain';

export type { SelectorFields };

/** How long typing settles before the preview resolves again. */
export const PREVIEW_DELAY_MS = 40;

let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * The selector being written in the pool form. `fields` follow every keystroke; `settled` (what
 * the preview resolves) follows them after a short pause, so typing stays smooth on large channels.
 */
export const useSelectorDraftStore = defineStore('osUpgrades/selectorDraft', {
  state: () => ({
    fields:  emptySelectorFields(),
    settled: emptySelectorFields(),
  }),

  getters: {
    /** The parse of what the preview shows. */
    parsed(state): ParsedSelector {
      return parseSelectorFields(state.settled);
    },

    /** The parse of the fields as typed (for field errors and saving). */
    current(state): ParsedSelector {
      return parseSelectorFields(state.fields);
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
      this.setFields({ ...this.fields, [name]: value });
    },

    /** The fields as typed; the preview follows after PREVIEW_DELAY_MS without typing. */
    setFields(fields: SelectorFields) {
      this.fields = fields;
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
