import { createPinia, setActivePinia } from 'pinia';
import { WITHDRAWN_ANNOTATION } from '../../domain';
import {
  MID, NEW, OLD, poolObject, version
} from '../../domain/__tests__/pool-test-data';
import { viewVersions } from '../pool-list';
import { useChannelVersionsStore } from '../channel-versions';
import { usePinnedVersionsStore } from '../pinned-versions';

// A pin from another channel, and a pool whose selector chooses from `stable`.
const PINNED = version('edge-v1', 'v1', 200, { channel: 'edge' });
const POOLS = [poolObject({
  name: 'a', pin: PINNED.name, selector: '{"channel":"stable"}'
})];

function channel(resourceVersion: string, withdrawn: Record<string, unknown> = {}) {
  return {
    id:       'fleet-default/stable',
    metadata: {
      name: 'stable', namespace: 'fleet-default', resourceVersion, annotations: { [WITHDRAWN_ANNOTATION]: JSON.stringify(withdrawn) }
    },
  };
}

function setChannel(versions: readonly unknown[]) {
  useChannelVersionsStore().channels['fleet-default/stable'] = { state: 'ready', versions: Object.freeze([...versions]) as never };
}

describe('the versions the pools list works on (viewVersions)', () => {
  beforeEach(() => {
    setActivePinia(createPinia());
    usePinnedVersionsStore().byKey = { [`fleet-default/${ PINNED.name }`]: PINNED };
    setChannel([NEW, MID, OLD]);
  });

  it('gives the pins and the selectors\' channels once each, the same list while neither changed', () => {
    const channels = [channel('1')];
    const first = viewVersions(POOLS, channels);

    expect(first.map((v) => v.name).sort()).toEqual([PINNED.name, NEW.name, MID.name, OLD.name].sort());
    expect(viewVersions(POOLS, channels)).toBe(first);
    // Another visit reads the same records into new arrays: still the same list.
    expect(viewVersions([{ ...POOLS[0] }], [channel('1')])).toBe(first);
  });

  it('follows a channel whose versions changed, and a pin the store read since', () => {
    const channels = [channel('1')];
    const first = viewVersions(POOLS, channels);
    const newest = version('os-v2.2.2-1', 'v2.2.2-1', 0);

    setChannel([newest, NEW, MID, OLD]);
    const after = viewVersions(POOLS, channels);

    expect(after).not.toBe(first);
    expect(after.map((v) => v.name)).toContain(newest.name);

    usePinnedVersionsStore().byKey = {};
    expect(viewVersions(POOLS, channels).map((v) => v.name)).not.toContain(PINNED.name);
  });

  it('marks a version withdrawn once its channel records the withdrawal (a new revision)', () => {
    expect(viewVersions(POOLS, [channel('1')]).find((v) => v.name === MID.name)?.withdrawn).toBeUndefined();

    const withdrawn = viewVersions(POOLS, [channel('2', {
      [MID.name]: {
        reason: 'CVE', by: 'ops', at: '2026-12-01T00:00:00Z'
      }
    })]);

    expect(withdrawn.find((v) => v.name === MID.name)?.withdrawn?.reason).toBe('CVE');
  });
});
