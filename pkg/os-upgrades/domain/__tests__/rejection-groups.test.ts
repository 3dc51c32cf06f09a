import fc from 'fast-check';
import { channelVersions } from '../../../../tests/support/fixtures';
import { groupRejections, resolveSelector } from '../index';

const REAL = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base'), ...channelVersions('unstable')];
const NOW = 1760000000;

describe('groupRejections', () => {
  it('puts the reasons that reject images of the pool\'s own channel first, each once with its count', () => {
    const resolution = resolveSelector({ channel: 'sl-micro-6.1-base', platform: 'linux/riscv64' }, REAL, NOW);
    const groups = groupRejections(resolution.rejected, 'sl-micro-6.1-base');
    const own = channelVersions('sl-micro-6.1-base');
    const firstOthers = groups.findIndex((g) => g.inOwnChannel === 0);

    // Its channel's images lose for two reasons (ISOs; not built for riscv64): those two groups come first.
    expect(groups.slice(0, firstOthers).map((g) => g.id).sort()).toEqual(['osUpgrades.selector.reason.notContainer', 'osUpgrades.selector.reason.platformMissing']);
    expect(groups.find((g) => g.id === 'osUpgrades.selector.reason.platformMissing')?.inOwnChannel).toBeGreaterThan(0);
    expect(groups.slice(0, firstOthers).reduce((sum, g) => sum + g.inOwnChannel, 0)).toBe(own.length);
    // The other channels: one group each, "in channel X, not sl-micro-6.1-base".
    const mismatches = groups.filter((g) => g.id.startsWith('osUpgrades.selector.reason.channelMismatch#'));

    expect(mismatches.map((g) => g.reason.values?.actual).sort()).toEqual(['sl-micro-6.2-base', 'unstable']);
    expect(mismatches.every((g) => g.inOwnChannel === 0)).toBe(true);
    expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(resolution.rejected.length);
  });

  it('property: every rejection is in exactly one group, newest first within it', () => {
    fc.assert(fc.property(fc.constantFrom('sl-micro-6.1-base', 'sl-micro-6.2-base', 'unstable', undefined), fc.constantFrom('~2.2', '>=9', undefined), (channel, version) => {
      const resolution = resolveSelector({ channel, version }, REAL, NOW);
      const groups = groupRejections(resolution.rejected, channel);
      const grouped = groups.flatMap((g) => g.versions.map((v) => v.name));

      expect(grouped.sort()).toEqual(resolution.rejected.map((r) => r.version.name).sort());
      for (const group of groups) {
        const order = resolution.rejected.map((r) => r.version.name).filter((name) => group.versions.some((v) => v.name === name));

        expect(group.versions.map((v) => v.name)).toEqual(order);
        expect(group.count).toBe(group.versions.length);
      }
      for (let i = 1; i < groups.length; i++) {
        expect(groups[i - 1].inOwnChannel).toBeGreaterThanOrEqual(groups[i].inOwnChannel);
      }
    }));
  });
});
