import { createPinia, setActivePinia } from 'pinia';
import { resetStores } from '../reset';
import { onLogin, onLogout } from '../nav-hooks';
import { useChangelogsStore } from '../changelogs';
import { useCompareStore } from '../compare';
import { usePoolFormStore } from '../pool-form';
import { usePoolApprovalStore } from '../pool-approval';
import { useSelectorDraftStore } from '../selector-draft';
import { poolObject, VERSIONS, NOW } from '../../domain/__tests__/pool-test-data';
import { storedDraft } from '../../api/drafts';

describe('resetStores (logout and login)', () => {
  beforeEach(() => setActivePinia(createPinia()));

  it('leaves nothing of one person\'s session for the next', () => {
    const approval = usePoolApprovalStore();
    const form = usePoolFormStore();
    const draft = useSelectorDraftStore();
    const compare = useCompareStore();
    const changelogs = useChangelogsStore();

    approval.open('rollback', poolObject({ pin: 'a' }), VERSIONS, NOW);
    form.setForm('name', 'secret-pool');
    draft.setFields({ ...draft.fields, channel: 'stable' });
    draft.settle();
    compare.select('old', 'new');
    compare.setSearch('CVE');
    changelogs.files['log:fleet-default/x'] = { state: 'missing' };

    resetStores();

    expect(approval.request).toBeNull();
    expect(form.form.name).toBe('');
    expect(draft.fields.channel).toBe('');
    expect(draft.settled.channel).toBe('');
    expect([compare.oldName, compare.newName, compare.search]).toEqual(['', '', '']);
    expect(changelogs.files).toEqual({});
  });

  it('empties the stores on logout, and on a login only when another person logs in', async() => {
    const form = usePoolFormStore();
    const session = (principalId: string) => ({ dispatch: () => Promise.resolve(), getters: { 'auth/principalId': principalId } });

    await onLogin(session('local://alice'));
    form.setForm('name', 'alice-pool');
    await onLogin(session('local://alice'));
    expect(form.form.name).toBe('alice-pool');

    await onLogin(session('local://bob'));
    expect(form.form.name).toBe('');

    form.setForm('name', 'bob-pool');
    await onLogout();
    expect(form.form.name).toBe('');
  });

  it('keeps an open dialog\'s comment when the shell logs out by itself, for the same person only', async() => {
    const session = (principalId: string) => ({ dispatch: () => Promise.resolve(), getters: { 'auth/principalId': principalId } });
    const pool = poolObject({ pin: 'a' });

    window.history.pushState({}, '', '/dashboard/c/_/os-upgrades/pools');
    await onLogin(session('local://alice'));
    usePoolApprovalStore().open('rollback', pool, VERSIONS, NOW);
    usePoolApprovalStore().comment = 'INC-42: back to a';
    await onLogout();
    expect(usePoolApprovalStore().request).toBeNull();
    expect(storedDraft('text')).toMatchObject({ principal: 'local://alice', path: '/dashboard/c/_/os-upgrades/pools' });

    const approval = usePoolApprovalStore();

    approval.open('rollback', pool, VERSIONS, NOW);
    approval.restoreComment(session('local://bob'));
    expect(approval.comment).toBe('');
    approval.restoreComment(session('local://alice'));
    expect(approval.comment).toBe('INC-42: back to a');
  });

  it('keeps nothing when no dialog holds typed text', async() => {
    sessionStorage.clear();
    await onLogin({ dispatch: () => Promise.resolve(), getters: { 'auth/principalId': 'local://alice' } });
    usePoolApprovalStore().open('rollback', poolObject({ pin: 'a' }), VERSIONS, NOW);
    await onLogout();
    expect(storedDraft('text')).toBeUndefined();
  });
});
