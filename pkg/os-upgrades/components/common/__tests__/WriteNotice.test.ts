import { mount } from '@vue/test-utils';
import WriteNotice from '../WriteNotice.vue';
import { writeNotice, WriteNotice as Notice, WriteOutcome, WriteSubject } from '../../../domain';
import { shellStubs, t } from '../../../pages/__tests__/pools-test-helpers';

function mountNotice(outcome: WriteOutcome, subject: WriteSubject, inline = false) {
  return mount(WriteNotice, {
    props: {
      notice: writeNotice(outcome, { subject, kept: true }) as Notice, testPrefix: 'x', inline
    },
    global: { mocks: { t }, stubs: { ...shellStubs, LoginAgainButton: { template: '<button class="login-again" />' } } },
  });
}

describe('WriteNotice', () => {
  it('says what was written, with the read-back verdict in words', () => {
    const wrapper = mountNotice({
      kind: 'failed', message: 'boom', written: 'other'
    }, 'withdrawal');

    expect(wrapper.text()).toContain('osUpgrades.withdraw.failed');
    expect(wrapper.text()).toContain('"verdict":"osUpgrades.write.readBack.other"');
    expect(wrapper.find('.banner').attributes('data-color')).toBe('error');
  });

  it('offers the one thing to do next', async() => {
    const conflict = mountNotice({ kind: 'conflict', message: '' }, 'poolForm');

    await conflict.find('[data-testid="x-load-latest"]').trigger('click');
    expect(conflict.emitted('load-latest')).toHaveLength(1);

    const unclear = mountNotice({
      kind: 'failed', message: 'boom', written: 'unknown'
    }, 'withdrawal');

    await unclear.find('[data-testid="x-read-again"]').trigger('click');
    expect(unclear.emitted('read-again')).toHaveLength(1);

    expect(mountNotice({ kind: 'unauthorized', message: '' }, 'approval').find('.login-again').exists()).toBe(true);
    expect(mountNotice({ kind: 'forbidden', message: '' }, 'approval').find('button').exists()).toBe(false);
  });

  it('is a line of text beside a button when inline', () => {
    const wrapper = mountNotice({
      kind: 'written', stored: {}, readBack: false
    }, 'sources', true);

    expect(wrapper.find('.banner').exists()).toBe(false);
    expect(wrapper.find('span.write-notice.success').text()).toBe('osUpgrades.sources.saved {}');
  });
});
