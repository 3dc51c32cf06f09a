import {
  DRAFT_MAX_AGE_SECONDS, readTextDraft, returnPath, textDraftPathFor, textDraftTarget
} from '..';

const NOW = 1_800_000_000;
const TARGET = textDraftTarget('fleet-default/edge', 'approve', 'base-v2.2.0-3.12-os');

function draft(extra: Record<string, unknown> = {}) {
  return {
    principal: 'local://admin',
    kind:      'approve',
    target:    TARGET,
    texts:     { comment: 'CVE-2025-1 fixed' },
    path:      '/c/_/os-upgrades/pools',
    savedAt:   NOW - 60,
    ...extra,
  };
}

describe('a dialog\'s text kept over a new login', () => {
  it('comes back to the same person, dialog and target', () => {
    expect(readTextDraft(draft(), 'local://admin', 'approve', TARGET, NOW)?.texts.comment).toBe('CVE-2025-1 fixed');
    expect(textDraftPathFor(draft(), 'local://admin', NOW)).toBe('/c/_/os-upgrades/pools');
  });

  it('never to another person, another dialog, another image, or after a day', () => {
    expect(readTextDraft(draft(), 'local://viewer', 'approve', TARGET, NOW)).toBeUndefined();
    expect(readTextDraft(draft(), '', 'approve', TARGET, NOW)).toBeUndefined();
    expect(readTextDraft(draft(), 'local://admin', 'withdraw', TARGET, NOW)).toBeUndefined();
    expect(readTextDraft(draft(), 'local://admin', 'approve', textDraftTarget('fleet-default/edge', 'approve', 'other'), NOW)).toBeUndefined();
    expect(readTextDraft(draft({ savedAt: NOW - DRAFT_MAX_AGE_SECONDS - 1 }), 'local://admin', 'approve', TARGET, NOW)).toBeUndefined();
    expect(textDraftPathFor(draft(), 'local://viewer', NOW)).toBe('');
  });

  it('refuses what is not a draft (storage is not trusted)', () => {
    expect(readTextDraft('x', 'local://admin', 'approve', TARGET, NOW)).toBeUndefined();
    expect(readTextDraft(draft({ texts: { comment: 1 } }), 'local://admin', 'approve', TARGET, NOW)).toBeUndefined();
  });

  it('goes back only to a page of this dashboard', () => {
    expect(returnPath('/c/_/os-upgrades/channels/fleet-default/sl-micro?x=1')).toBe('/c/_/os-upgrades/channels/fleet-default/sl-micro?x=1');
    for (const path of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '', 42]) {
      expect(returnPath(path)).toBe('');
    }
    expect(textDraftPathFor(draft({ path: '//evil.example' }), 'local://admin', NOW)).toBe('');
  });
});
