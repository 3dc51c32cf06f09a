import fc from 'fast-check';
import { channelVersions, readChannelFile, toManagedOSVersion } from '../../../../tests/support/fixtures';
import { seededRandom, shuffled } from '../../../../tests/support/synthetic';
import {
  compareNewestFirst, orderChannel, OSVersion, previousVersion, toOSVersion
} from '../index';

const names = (versions: OSVersion[]) => versions.map((version) => version.name);

describe('toOSVersion', () => {
  it('keeps the type lower-case, as the operator compares it case-insensitively, so every container filter finds it', () => {
    const obj = {
      metadata: { name: 'v1', namespace: 'fleet-default' },
      spec:     {
        version: 'v1', type: 'Container', metadata: { upgradeImage: 'r/os:v1' }
      }
    };

    expect(toOSVersion(obj).type).toBe('container');
    expect(toOSVersion({
      ...obj,
      spec: {
        ...obj.spec, type: 'ISO', metadata: { uri: 'r/os.iso' }
      }
    })).toMatchObject({ type: 'iso', image: 'r/os.iso' });
  });

  it('reads a synced container version', () => {
    const [obj] = channelVersions('sl-micro-6.1-base');

    expect(toOSVersion(obj)).toEqual({
      name:        'base-v2.2.0-3.12-os',
      namespace:   'fleet-default',
      channel:     'sl-micro-6.1-base',
      version:     'v2.2.0-3.12',
      type:        'container',
      created:     1732723652,
      displayName: 'SL Micro Base 6.1 OS',
      image:       'registry.suse.com/suse/sl-micro/6.1/base-os-container:2.2.0-3.12',
      platforms:   ['linux/x86_64', 'linux/aarch64'],
      inSync:      true,
      terminating: false,
    });
  });

  it('takes the uri of an iso as its image', () => {
    const iso = channelVersions('sl-micro-6.2-base').map(toOSVersion).find((version) => version.type === 'iso');

    expect(iso?.name).toBe('base-v2.3.0-6.1-iso');
    expect(iso?.image).toMatch(/^registry\.suse\.com\/.+iso/);
  });

  it('keeps the junk of unstable.json as text and has no created', () => {
    const versions = channelVersions('unstable').map(toOSVersion);

    expect(versions[0].image).toBe('%%IMG_REPO%%/suse/sl-micro/%%SLMICRO_VERSION%%/baremetal-os-container:latest');
    expect(versions[0].displayName).toContain('%%SLMICRO_VERSION%%');
    expect(versions[0].created).toBeUndefined();
    expect(versions[1].image).toContain('baremetal-iso-image');
  });

  it('reads a version without owner, labels or annotations', () => {
    const entry = readChannelFile('sl-micro-6.1-base')[0];
    const obj = toManagedOSVersion(entry, { channel: 'x', withOwner: false }) as { metadata: Record<string, unknown> };

    delete obj.metadata.labels;
    const version = toOSVersion(obj);

    expect(version.channel).toBe('');
    expect(version.name).toBe('base-v2.2.0-3.12-os');
    expect(version.inSync).toBe(true);
  });

  it('marks versions the channel dropped', () => {
    const entry = readChannelFile('sl-micro-6.1-base')[0];

    expect(toOSVersion(toManagedOSVersion(entry, { channel: 'c', outOfSync: true })).inSync).toBe(false);
  });

  it('accepts created as a numeric string, and ignores a garbage one', () => {
    const spec = (created: unknown) => ({ metadata: { name: 'a' }, spec: { metadata: { created } } });

    expect(toOSVersion(spec('1732723652')).created).toBe(1732723652);
    expect(toOSVersion(spec('yesterday')).created).toBeUndefined();
    expect(toOSVersion(spec(null)).created).toBeUndefined();
    expect(toOSVersion(spec(Number.NaN)).created).toBeUndefined();
  });

  it('never throws on garbage', () => {
    for (const junk of [null, undefined, 42, 'x', [], { metadata: null, spec: 7 }, { metadata: { name: 5, labels: 'x' }, spec: { metadata: { platforms: [1, 'linux/x86_64', null] } } }]) {
      const version = toOSVersion(junk);

      expect(typeof version.name).toBe('string');
      expect(Array.isArray(version.platforms)).toBe(true);
    }
    expect(toOSVersion({ spec: { metadata: { platforms: [1, 'linux/x86_64', null] } } }).platforms).toEqual(['linux/x86_64']);
    fc.assert(fc.property(fc.anything(), (junk) => {
      expect(typeof toOSVersion(junk).version).toBe('string');
    }));
  });
});

describe('orderChannel (rule "Channel order")', () => {
  it('orders the real 6.1 channel newest first', () => {
    expect(names(orderChannel(channelVersions('sl-micro-6.1-base')))).toEqual([
      'base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os', 'base-v2.2.0-3.7-iso', 'base-v2.2.0-3.5-iso', 'base-v2.2.0-3.4-iso',
    ]);
  });

  it('puts versions without created last, then by version, then by name', () => {
    const versions = [
      { name: 'no-date-old', version: 'v1.0.0' },
      {
        name: 'dated', version: 'v0.1.0', created: 10
      },
      { name: 'no-date-new', version: 'v2.0.0' },
      { name: 'junk-b', version: 'unstable' },
      { name: 'junk-a', version: 'unstable' },
      {
        name: 'same-date-higher', version: 'v0.2.0', created: 10
      },
    ];

    expect(names(orderChannel(versions))).toEqual(['same-date-higher', 'dated', 'no-date-new', 'no-date-old', 'junk-a', 'junk-b']);
  });

  it('returns a new array and leaves its input alone', () => {
    const input = channelVersions('sl-micro-6.1-base').map(toOSVersion).reverse();
    const before = names(input);
    const output = orderChannel(input);

    expect(output).not.toBe(input);
    expect(names(input)).toEqual(before);
  });

  const versionRecord = fc.record({
    name:    fc.string({ maxLength: 6 }),
    version: fc.oneof(fc.constantFrom('v2.2.0-3.12', 'v2.2.0-3.9', 'v2.2.0', 'unstable', ''), fc.string({ maxLength: 5 })),
    created: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
    type:    fc.constantFrom('container', 'iso'),
  });

  it('is total and gives the same order whatever the input order', () => {
    fc.assert(fc.property(fc.uniqueArray(versionRecord, { selector: (v) => `${ v.name }|${ v.type }`, maxLength: 30 }), fc.integer(), (versions, seed) => {
      const once = names(orderChannel(versions));
      const again = names(orderChannel(shuffled(seededRandom(seed), versions)));

      expect(again).toEqual(once);
      const ordered = orderChannel(versions);

      for (let i = 1; i < ordered.length; i++) {
        expect(compareNewestFirst(ordered[i - 1], ordered[i])).toBeLessThan(0);
      }
    }));
  });
});

describe('previousVersion', () => {
  const all = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base'), ...channelVersions('unstable')];

  it('is the next older container of the same channel', () => {
    expect(previousVersion(all, 'base-v2.2.0-3.12-os')?.name).toBe('base-v2.2.0-3.9-os');
    expect(previousVersion(all, 'base-v2.2.0-3.9-os')?.name).toBe('base-v2.2.0-3.8-os');
  });

  it('skips iso neighbours and other channels', () => {
    expect(previousVersion(all, 'base-v2.2.0-3.8-os')).toBeUndefined();
    expect(previousVersion(all, 'base-v2.3.0-6.1-os')).toBeUndefined();
  });

  it('is undefined for an iso, an unknown name, and a version alone in its channel', () => {
    expect(previousVersion(all, 'base-v2.2.0-3.7-iso')).toBeUndefined();
    expect(previousVersion(all, 'nope')).toBeUndefined();
    expect(previousVersion(all, 'unstable-os')).toBeUndefined();
  });

  it('does not depend on the input order', () => {
    fc.assert(fc.property(fc.integer(), (seed) => {
      expect(previousVersion(shuffled(seededRandom(seed), all), 'base-v2.2.0-3.12-os')?.name).toBe('base-v2.2.0-3.9-os');
    }), { numRuns: 50 });
  });
});
