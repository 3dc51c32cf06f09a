import { createPinia, setActivePinia } from 'pinia';
import { resetStores } from '../reset';
import { onLogin, onLogout } from '../nav-hooks';
import { useChangelogsStore } from '../changelogs';
import { useCompareStore } from '../compare';
import { usePoolFormStore } from '../pool-form';
import { usePoolApprovalStore } from '../pools';
import { useSelectorDraftStore } from '../selector-draft';
import { poolObject, VERSIONS, NOW } from '../../domain/__tests__/pool-test-data';

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
});
