/* global jest */
import { createPinia, setActivePinia } from 'pinia';
import { ANY_CHANNEL, ranksAcrossChannels } from '../../domain';
import { PREVIEW_DELAY_MS, useSelectorDraftStore } from '../selector-draft';

describe('selector draft', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    jest.useFakeTimers();
  });
  afterEach(() => jest.useRealTimers());

  it('lets the preview follow typing after a short pause', () => {
    const draft = useSelectorDraftStore();

    draft.setField('channel', 'stable');
    expect(draft.pending).toBe(true);
    // Nothing chosen yet: no selector, and the channel is what is missing.
    expect(draft.parsed.selector).toBeUndefined();
    expect(draft.parsed.errors.map((e) => e.key)).toEqual(['osUpgrades.selector.error.channelRequired']);

    jest.advanceTimersByTime(PREVIEW_DELAY_MS);
    expect(draft.pending).toBe(false);
    expect(draft.parsed.selector).toEqual({ channel: 'stable' });
  });

  it('gives field errors for an invalid selector and no JSON to store', () => {
    const draft = useSelectorDraftStore();

    draft.setField('version', '>=banana');
    draft.setField('minAgeHours', 'soon');

    expect(draft.current.errors.map((e) => e.field).sort()).toEqual(['channel', 'minAgeHours', 'version']);
    expect(draft.json).toBe('');
  });

  it('needs a channel or an explicit "any channel", which stores no channel and ranks across channels', () => {
    const draft = useSelectorDraftStore();

    draft.setField('version', '~2.2');
    expect(draft.json).toBe('');
    draft.setField('channel', ANY_CHANNEL);
    expect(JSON.parse(draft.json)).toEqual({ version: '~2.2' });
    expect(ranksAcrossChannels(draft.fields)).toBe(true);
    // A stored selector without a channel was saved that way: it loads as "any channel".
    draft.load({ version: '~2.2' });
    expect(draft.fields.channel).toBe(ANY_CHANNEL);
    draft.load();
    expect(draft.fields.channel).toBe('');
  });

  it('stores what was typed, trimmed, with numbers as numbers', () => {
    const draft = useSelectorDraftStore();

    draft.setField('channel', ' stable ');
    draft.setField('version', '~2.2');
    draft.setField('minAgeHours', '24');
    draft.setField('includeOutOfSync', true);

    expect(JSON.parse(draft.json)).toEqual({
      channel: 'stable', version: '~2.2', minAgeHours: 24, includeOutOfSync: true
    });
  });

  it('loads a stored selector into the fields', () => {
    const draft = useSelectorDraftStore();

    draft.load({ channel: 'stable', minAgeHours: 12 });

    expect(draft.fields).toMatchObject({
      channel: 'stable', minAgeHours: '12', version: ''
    });
    expect(draft.pending).toBe(false);
  });
});
