import {
  draftOwnedBy, DRAFT_MAX_AGE_SECONDS, emptySelectorFields, newPoolForm, readDraft
} from '..';

const NOW = 1_800_000_000;

function draft(extra: Record<string, unknown> = {}) {
  return {
    principal: 'local://admin',
    poolId:    'fleet-default/edge',
    form:      {
      ...newPoolForm(), name: 'edge', concurrency: '4'
    },
    selectorFields: emptySelectorFields(),
    savedAt:        NOW - 60,
    ...extra
  };
}

describe('a pool form draft kept over a new login', () => {
  it('is restored for the same person and pool', () => {
    expect(readDraft(draft(), 'local://admin', 'fleet-default/edge', NOW)?.form.concurrency).toBe('4');
    expect(draftOwnedBy(draft(), 'local://admin', NOW)).toBe(true);
  });

  it('is never shown to another person, for another pool, or after a day', () => {
    expect(readDraft(draft(), 'local://viewer', 'fleet-default/edge', NOW)).toBeUndefined();
    expect(readDraft(draft(), '', 'fleet-default/edge', NOW)).toBeUndefined();
    expect(readDraft(draft(), 'local://admin', 'fleet-default/other', NOW)).toBeUndefined();
    expect(readDraft(draft({ savedAt: NOW - DRAFT_MAX_AGE_SECONDS - 1 }), 'local://admin', 'fleet-default/edge', NOW)).toBeUndefined();
    expect(draftOwnedBy(draft(), 'local://viewer', NOW)).toBe(false);
  });

  it('refuses what is not a draft', () => {
    expect(readDraft(undefined, 'local://admin', '', NOW)).toBeUndefined();
    expect(readDraft(draft({ form: { name: 1 } }), 'local://admin', 'fleet-default/edge', NOW)).toBeUndefined();
    expect(readDraft(draft({ selectorFields: null }), 'local://admin', 'fleet-default/edge', NOW)).toBeUndefined();
    expect(readDraft('x', 'local://admin', 'fleet-default/edge', NOW)).toBeUndefined();
  });
});
