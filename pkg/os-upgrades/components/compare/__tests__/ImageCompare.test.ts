/* global jest */
/* global beforeAll */
import { flushPromises, mount, VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { asOSVersions, OSVersion } from '../../../domain';
import { channelVersions, readPackageFile } from '../../../../../tests/support/fixtures';
import { Reply } from '../../../api/__tests__/fake-http';
import { useCompareStore } from '../../../stores/compare';
import ImageCompare from '../ImageCompare.vue';
import {
  installResizeObserver, logUrl, mountGlobals, packagesUrl, serveFiles
} from '../../common/__tests__/helpers';

// What these tests check is what the page shows once files are in, not how often they are written:
// files are written as they settle (stores/settle-batch.ts spaces writes from the network).
jest.mock('../../../stores/settle-batch', () => ({ ...jest.requireActual('../../../stores/settle-batch'), SETTLE_SPACING_MS: 0 }));

const versions: OSVersion[] = asOSVersions(channelVersions('sl-micro-6.1-base'));
const OLD = 'base-v2.2.0-3.8-os';
const MIDDLE = 'base-v2.2.0-3.9-os';
const NEW = 'base-v2.2.0-3.12-os';

function advisory(id: string, severity: string, date: number, extra: Record<string, unknown> = {}) {
  return {
    id, severity, date: String(date), type: 'security', title: `Security update ${ id }`, ...extra
  };
}

// 3.8 was created at 1731339461, 3.9 at 1732636077, 3.12 at 1732723652.
const LOG_3_12 = JSON.stringify([
  advisory('SUSE-SLE-Micro-6.1-2024-4100', 'important', 1732700000, {
    title:      'Security update for the Linux Kernel',
    references: [{
      id: 'CVE-2024-50264', href: 'https://www.suse.com/security/cve/CVE-2024-50264/', title: 'CVE-2024-50264', type: 'cve'
    }],
    packages: [{
      name: 'kernel-default', version: '6.4.0', release: '1.3', arch: 'x86_64'
    }],
    description: 'The kernel was updated:\n\n- CVE-2024-50264: use-after-free <img src=x onerror="window.pwned=1"> [details](javascript:window.pwned=2)',
  }),
  // SL-Micro-release is 6.1-slfo.1.10.1 in 3.8, 6.1-slfo.1.10.2 in 3.9 and 3.12: the lists prove it.
  advisory('SUSE-SLE-Micro-6.1-2024-4101', 'critical', 1732710000, {
    title:    'Security update for curl',
    packages: [{
      name: 'SL-Micro-release', version: '6.1', release: 'slfo.1.10.2', arch: 'x86_64'
    }]
  }),
  // Older than 3.8 and names no package: neither rule keeps it.
  advisory('SUSE-SLE-Micro-6.1-2024-1000', 'low', 1731000000),
]);
const LOG_3_8 = JSON.stringify([advisory('SUSE-SLE-Micro-6.1-2024-0900', 'moderate', 1731300000)]);

function routes(extra: Record<string, Reply> = {}): Record<string, Reply> {
  return {
    [logUrl(NEW)]:         { status: 200, body: LOG_3_12 },
    [logUrl(OLD)]:         { status: 200, body: LOG_3_8 },
    [packagesUrl(OLD)]:    { status: 200, body: readPackageFile(OLD) },
    [packagesUrl(MIDDLE)]: { status: 200, body: readPackageFile(MIDDLE) },
    [packagesUrl(NEW)]:    { status: 200, body: readPackageFile(NEW) },
    ...extra,
  };
}

function mountCompare(props: { oldName: string; newName: string; compact?: boolean }): VueWrapper {
  return mount(ImageCompare, {
    props: {
      versions, channel: undefined, oldName: props.oldName, newName: props.newName, compact: props.compact ?? false
    },
    global: mountGlobals(),
  });
}

beforeAll(installResizeObserver);
beforeEach(() => {
  setActivePinia(createPinia());
  delete (window as unknown as { pwned?: unknown }).pwned;
});

describe('ImageCompare', () => {
  it('shows the real kernel-default upgrade between 3.8 and 3.12, with counts', async() => {
    serveFiles(routes());
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();

    const diff = wrapper.find('[data-testid="package-diff"]');
    const kernel = diff.findAll('[data-testid="package-row"]').find((row) => row.text().includes('kernel-default'));

    expect(kernel?.find('[data-testid="package-row-old"]').text()).toBe('kernel-default.x86_64  6.4.0-1.2');
    expect(kernel?.find('[data-testid="package-row-new"]').text()).toBe('kernel-default.x86_64  6.4.0-1.3');
    expect(kernel?.text()).toContain('upgraded');
    expect(Number(wrapper.find('[data-testid="package-count-upgraded"] .count').text())).toBeGreaterThan(0);
    // diff2html draws the unified text only once asked for.
    expect(diff.find('.d2h-del').exists()).toBe(false);
    await diff.find('[data-testid="show-unified"]').trigger('click');
    await flushPromises();
    expect(diff.find('[data-testid="show-unified"]').attributes('aria-expanded')).toBe('true');
    expect(diff.find('[data-testid="unified-diff"] .d2h-del').exists()).toBe(true);
    expect(diff.find('[data-testid="unified-diff"]').text()).toContain('kernel-default.x86_64  6.4.0-1.3');
  });

  it('combines the advisories of every image in between (rule "Changelog") and says which image has no log', async() => {
    serveFiles(routes());
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();

    const ids = wrapper.findAll('.advisory-id').map((node) => node.text());

    expect(ids).toEqual(['SUSE-SLE-Micro-6.1-2024-4101', 'SUSE-SLE-Micro-6.1-2024-4100']);
    expect(wrapper.find('[data-testid="severity-count-critical"]').text()).toContain('1');
    expect(wrapper.find('[data-testid="missing-logs"]').text()).toContain(MIDDLE);
    expect(wrapper.find('[data-testid="cve-list"] a').attributes('href')).toBe('https://www.suse.com/security/cve/CVE-2024-50264/');
  });

  it('renders descriptions sanitised: no handler runs, a javascript: link is only text', async() => {
    serveFiles(routes());
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    const kernel = wrapper.findAll('[data-testid="advisory"]').find((node) => node.text().includes('Linux Kernel'));

    await kernel?.find('button').trigger('click');
    expect(kernel?.find('button').attributes('aria-expanded')).toBe('true');
    const description = kernel?.find('.safe-markdown');

    expect(description?.text()).toContain('use-after-free');
    expect(description?.find('img').exists()).toBe(false);
    expect(description?.find('a').exists()).toBe(false);
    expect(description?.html()).not.toMatch(/onerror|javascript:/);
    await flushPromises();
    expect((window as unknown as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('filters by severity and searches ids, CVEs, titles and package names', async() => {
    serveFiles(routes());
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    await wrapper.find('[data-testid="severity-filter-critical"]').trigger('click');
    expect(wrapper.findAll('.advisory-id').map((node) => node.text())).toEqual(['SUSE-SLE-Micro-6.1-2024-4101']);

    useCompareStore().clearFilters();
    await wrapper.find('[data-testid="advisory-search"]').setValue('kernel-default');
    expect(wrapper.findAll('.advisory-id').map((node) => node.text())).toEqual(['SUSE-SLE-Micro-6.1-2024-4100']);

    await wrapper.find('[data-testid="advisory-search"]').setValue('CVE-2024-50264');
    expect(wrapper.findAll('.advisory-id').map((node) => node.text())).toEqual(['SUSE-SLE-Micro-6.1-2024-4100']);

    await wrapper.find('[data-testid="advisory-search"]').setValue('nothing like this');
    expect(wrapper.findAll('.advisory-id')).toHaveLength(0);
    expect(wrapper.text()).toContain('osUpgrades.compare.noMatch');
  });

  it('shows an older "new" image as a downgrade, with downgraded packages', async() => {
    serveFiles(routes());
    const wrapper = mountCompare({ oldName: NEW, newName: OLD });

    await flushPromises();

    expect(wrapper.find('[data-testid="downgrade-warning"]').exists()).toBe(true);
    expect(wrapper.text()).toContain('osUpgrades.compare.advisoriesRemoved');
    expect(Number(wrapper.find('[data-testid="package-count-downgraded"] .count').text())).toBeGreaterThan(0);
    expect(wrapper.find('[data-testid="package-count-upgraded"] .count').text()).toBe('0');
  });

  it('shows a failing file inline with a retry, while the rest of the comparison works', async() => {
    const table = routes({ [logUrl(NEW)]: { status: 500 } });
    const fake = serveFiles(table);
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();

    const error = wrapper.find('[data-testid="file-error"]');

    expect(error.text()).toContain(NEW);
    expect(error.text()).toContain('osUpgrades.changelog.fetchError.status {"status":500}');
    expect(wrapper.find('[data-testid="package-diff"]').text()).toContain('kernel-default');

    table[logUrl(NEW)] = { status: 200, body: LOG_3_12 };
    await error.find('button').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-testid="file-error"]').exists()).toBe(false);
    expect(wrapper.findAll('.advisory-id')).toHaveLength(2);
    expect(fake.requests.filter((request) => request.url === logUrl(NEW))).toHaveLength(2);
  });

  it('shows a slow changelog as loading while the package diff is already there', async() => {
    const fake = serveFiles(routes({ [logUrl(NEW)]: { hang: true } }));
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    expect(wrapper.find('[data-testid="advisories"] [role="status"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="package-diff"]').exists()).toBe(true);

    fake.release(logUrl(NEW), { status: 200, body: LOG_3_12 });
    await flushPromises();
    expect(wrapper.findAll('.advisory-id')).toHaveLength(2);
  });

  it('shows the advisories of the logs read so far while another still loads, then the whole list', async() => {
    const fromMiddle = advisory('SUSE-SLE-Micro-6.1-2024-4001', 'important', 1732600000, {
      packages: [{
        name: 'SL-Micro-release', version: '6.1', release: 'slfo.1.10.2', arch: 'x86_64'
      }]
    });
    const fake = serveFiles(routes({ [logUrl(NEW)]: { hang: true }, [logUrl(MIDDLE)]: { status: 200, body: JSON.stringify([fromMiddle]) } }));
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    const soFar = wrapper.find('[data-testid="advisories-so-far"]');

    expect(soFar.findAll('.advisory-id').map((node) => node.text())).toEqual(['SUSE-SLE-Micro-6.1-2024-4001']);
    expect(wrapper.find('[data-testid="advisories"] [role="status"]').exists()).toBe(true);

    fake.release(logUrl(NEW), { status: 200, body: LOG_3_12 });
    await flushPromises();
    expect(wrapper.find('[data-testid="advisories-so-far"]').exists()).toBe(false);
    expect(wrapper.findAll('.advisory-id').map((node) => node.text())).toEqual(['SUSE-SLE-Micro-6.1-2024-4101', 'SUSE-SLE-Micro-6.1-2024-4100', 'SUSE-SLE-Micro-6.1-2024-4001']);
  });

  it('cancels what it still loads when the selection changes or it goes away', async() => {
    const fake = serveFiles(routes({ [logUrl(NEW)]: { hang: true }, [logUrl(MIDDLE)]: { hang: true } }));
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    const first = fake.requests.find((request) => request.url === logUrl(NEW));

    await wrapper.setProps({ oldName: MIDDLE });
    await flushPromises();
    // 3.12 is still needed (MIDDLE → NEW), so its download goes on.
    expect((first?.signal as AbortSignal).aborted).toBe(false);
    wrapper.unmount();
    expect((first?.signal as AbortSignal).aborted).toBe(true);
  });

  it('shows a progress bar when a comparison needs many changelogs', async() => {
    const many = asOSVersions(Array.from({ length: 30 }, (_, i) => ({
      metadata: {
        name: `v${ i }`, namespace: 'ns', labels: { 'elemental.cattle.io/channel': 'c' }
      },
      spec: {
        version: `v1.0.${ i }`, type: 'container', metadata: { created: 1000 + i }
      },
    })));
    const fake = serveFiles({ [logUrl('v29')]: { hang: true } });
    const wrapper = mount(ImageCompare, {
      props: {
        versions: many, oldName: 'v0', newName: 'v29'
      },
      global: mountGlobals(),
    });

    await flushPromises();
    const bar = wrapper.find('[data-testid="log-progress"] [role="progressbar"]');

    expect(bar.attributes('aria-valuenow')).toBe('28');
    expect(bar.attributes('aria-valuemax')).toBe('29');
    fake.release(logUrl('v29'), { status: 404 });
    await flushPromises();
    expect(wrapper.find('[data-testid="log-progress"]').exists()).toBe(false);
  });

  it('in compact mode shows summary and diff without the filters', async() => {
    serveFiles(routes());
    const wrapper = mountCompare({
      oldName: OLD, newName: NEW, compact: true
    });

    await flushPromises();
    expect(wrapper.find('[data-testid="severity-summary"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="package-diff"]').exists()).toBe(true);
    expect(wrapper.find('[data-testid="advisory-search"]').exists()).toBe(false);
    expect(wrapper.find('h3').exists()).toBe(true);
  });
});

describe('ImageCompare without a changelog service', () => {
  const UNKNOWN_API: Reply = { status: 400, body: 'unknwon api: changelog\n' };
  const everyFile = (reply: Reply) => Object.fromEntries([OLD, MIDDLE, NEW].flatMap((name): [string, Reply][] => [[logUrl(name), reply], [packagesUrl(name), reply]]));

  it('says once that this Rancher serves no changelogs, never a per-image error, and never "no advisories"', async() => {
    const fake = serveFiles(everyFile(UNKNOWN_API), { probe: true });
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    const notices = wrapper.findAll('[data-testid="no-changelog-service"]');

    expect(notices).toHaveLength(1);
    expect(notices[0].text()).toContain('osUpgrades.noService.title');
    expect(notices[0].text()).toContain('osUpgrades.noService.unknownApi');
    expect(wrapper.findAll('[data-testid="file-error"]')).toHaveLength(0);
    expect(wrapper.find('[data-testid="missing-logs"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="no-advisories"]').exists()).toBe(false);
    expect(wrapper.find('[data-testid="advisories"]').text()).not.toContain('osUpgrades.changelog.advisoryCount {"count":0}');
    const unknown = wrapper.find('[data-testid="unknown-changes"]');

    expect(unknown.text()).toContain(MIDDLE);
    expect(unknown.text()).toContain(NEW);
    expect(unknown.text()).toContain('osUpgrades.unknown.noneKnown');
    // One probe for the source; the other files were not asked for.
    expect(fake.requests).toHaveLength(1);
  });

  it('says the source could not be read when every file failed, never "no advisories"', async() => {
    serveFiles(everyFile({ status: 502 }), { probe: true });
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    expect(wrapper.find('[data-testid="source-unreachable"]').text()).toContain('osUpgrades.compare.unreachable {"failed":4,"total":4}');
    expect(wrapper.find('[data-testid="no-advisories"]').exists()).toBe(false);
  });

  it('does not call a source unreachable when it answered some files', async() => {
    serveFiles(routes({ [logUrl(NEW)]: { status: 500 } }));
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    expect(wrapper.find('[data-testid="source-unreachable"]').exists()).toBe(false);
  });

  it('keeps a real format error of a real file that image\'s error', async() => {
    serveFiles(routes({ [logUrl(NEW)]: { status: 200, body: '{broken' } }), { probe: true });
    const wrapper = mountCompare({ oldName: OLD, newName: NEW });

    await flushPromises();
    expect(wrapper.find('[data-testid="no-changelog-service"]').exists()).toBe(false);
    expect(wrapper.findAll('[data-testid="file-error"]').map((item) => item.text()).join('\n')).toContain('osUpgrades.changelog.error.invalidJson');
    // Its changes are unknown, not "nothing".
    expect(wrapper.find('[data-testid="unknown-changes"]').text()).toContain(NEW);
  });
});
