import fc from 'fast-check';
import { channelVersions } from '../../../../tests/support/fixtures';
import { seededRandom, shuffled } from '../../../../tests/support/synthetic';
import {
  compareNewestFirst, OSVersion, parseSelector, parseVersionRange, rangeIncludes, resolveSelector, Resolution, validateSelector
} from '../index';

const REAL = [...channelVersions('sl-micro-6.1-base'), ...channelVersions('sl-micro-6.2-base'), ...channelVersions('unstable')];
const NOW = 1760000000;
const names = (versions: OSVersion[]) => versions.map((version) => version.name);
const reasonsOf = (resolution: Resolution, name: string) => resolution.rejected.find((rejection) => rejection.version.name === name)?.reasons.map((reason) => reason.key);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }

  return value;
}

describe('version ranges', () => {
  const includes = (range: string, base: string) => {
    const parsed = parseVersionRange(range);

    if (!parsed) {
      throw new Error(`not a range: ${ range }`);
    }

    return rangeIncludes(parsed, base.split('.').map(Number));
  };

  it.each([
    ['>=2.2.0 <2.3.0', ['2.2.0', '2.2.9'], ['2.1.9', '2.3.0']],
    ['>= 2.2.0  < 2.3.0', ['2.2.0'], ['2.3.0']],
    ['~2.2', ['2.2.0', '2.2.5'], ['2.1.0', '2.3.0']],
    ['~2.2.3', ['2.2.3', '2.2.9'], ['2.2.2', '2.3.0']],
    ['~>2.2.3', ['2.2.3'], ['2.3.0']],
    ['~2', ['2.0.0', '2.9.9'], ['3.0.0', '1.9.9']],
    ['^2', ['2.0.0', '2.9.9'], ['1.9.9', '3.0.0']],
    ['^2.2.3', ['2.2.3', '2.9.0'], ['2.2.2', '3.0.0']],
    ['^0.2.3', ['0.2.3', '0.2.9'], ['0.2.2', '0.3.0']],
    ['^0.0.3', ['0.0.3'], ['0.0.4', '0.0.2']],
    ['^0.x', ['0.0.0', '0.9.9'], ['1.0.0']],
    ['2.2.x', ['2.2.0', '2.2.7'], ['2.1.9', '2.3.0']],
    ['2.2.*', ['2.2.0'], ['2.3.0']],
    ['2.2', ['2.2.0', '2.2.7'], ['2.3.0']],
    ['2', ['2.0.0', '2.9.0'], ['3.0.0']],
    ['*', ['0.0.0', '99.0.0'], []],
    ['x', ['1.2.3'], []],
    ['=2.2.0', ['2.2.0'], ['2.2.1', '2.1.9']],
    ['v2.2.0', ['2.2.0'], ['2.2.1']],
    ['>2.2', ['2.3.0'], ['2.2.9']],
    ['>2.2.0', ['2.2.1'], ['2.2.0']],
    ['<2.2', ['2.1.9'], ['2.2.0']],
    ['<=2.2', ['2.2.9'], ['2.3.0']],
    ['<=2.2.0', ['2.2.0'], ['2.2.1']],
    ['1.2 - 2.2', ['1.2.0', '2.2.9'], ['1.1.9', '2.3.0']],
    ['1.2.3 - 2.3.4', ['1.2.3', '2.3.4'], ['1.2.2', '2.3.5']],
    ['<2.0.0 || >=2.3.0', ['1.9.0', '2.3.0'], ['2.2.0']],
  ])('%s', (range, inside, outside) => {
    inside.forEach((base) => expect([base, includes(range, base)]).toEqual([base, true]));
    outside.forEach((base) => expect([base, includes(range, base)]).toEqual([base, false]));
  });

  it.each(['abc', '>=2.2.0-3.12', '2.2.0.1', '>=', '>=2.2.0 <', '1 - ', '||', '2.2 ||', '>>2', 'v', '2.2.0 - 2 - 3'])('rejects %j', (range) => {
    expect(parseVersionRange(range)).toBeUndefined();
  });
});

describe('parseSelector / validateSelector', () => {
  const errorKeys = (input: unknown) => parseSelector(input).errors.map((error) => `${ error.field }:${ error.key.replace('osUpgrades.selector.error.', '') }`);

  it('parses JSON text into a clean selector', () => {
    expect(parseSelector('{"version":"~2.2","channel":"sl-micro-6.1-base","minAgeHours":24,"includeOutOfSync":false,"displayName":""}')).toEqual({
      selector: {
        channel: 'sl-micro-6.1-base', version: '~2.2', minAgeHours: 24
      },
      errors: [],
    });
    expect(parseSelector({ platform: 'linux/aarch64', includeOutOfSync: true })).toEqual({ selector: { platform: 'linux/aarch64', includeOutOfSync: true }, errors: [] });
  });

  it('reports errors field by field', () => {
    expect(errorKeys('{nope')).toEqual([':invalidJson']);
    expect(errorKeys('[1]')).toEqual([':notAnObject']);
    expect(errorKeys(null)).toEqual([':notAnObject']);
    expect(errorKeys({ chanel: 'x' })).toEqual(['chanel:unknownKey']);
    expect(errorKeys({ channel: 5, displayName: ['a'] })).toEqual(['channel:notAString', 'displayName:notAString']);
    expect(errorKeys({ version: '>=banana' })).toEqual(['version:badVersionRange']);
    expect(errorKeys({ platform: 'linux' })).toEqual(['platform:badPlatform']);
    expect(errorKeys({ platform: 'x86_64/' })).toEqual(['platform:badPlatform']);
    expect(errorKeys({ minAgeHours: -1 })).toEqual(['minAgeHours:negative']);
    expect(errorKeys({ minAgeHours: '24' })).toEqual(['minAgeHours:notANumber']);
    expect(errorKeys({ minAgeHours: Number.NaN })).toEqual(['minAgeHours:notANumber']);
    expect(errorKeys({ includeOutOfSync: 'yes' })).toEqual(['includeOutOfSync:notABoolean']);
    expect(parseSelector({ version: 'nope' }).selector).toBeUndefined();
    expect(validateSelector({
      channel: 'a', version: '^2', platform: 'linux/x86_64', minAgeHours: 0
    })).toEqual([]);
  });

  it('puts every key under osUpgrades.selector.error.', () => {
    expect(parseSelector({ a: 1, minAgeHours: -1 }).errors.every((error) => error.key.startsWith('osUpgrades.selector.error.'))).toBe(true);
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.anything()), (input) => {
      const result = parseSelector(input);

      expect(result.selector === undefined).toBe(result.errors.length > 0);
    }));
  });
});

describe('resolveSelector (rule "Selector")', () => {
  it('picks the newest container of a channel and ranks every candidate', () => {
    const resolution = resolveSelector({ channel: 'sl-micro-6.1-base' }, REAL, NOW);

    expect(resolution.chosen?.name).toBe('base-v2.2.0-3.12-os');
    expect(names(resolution.candidates)).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os']);
    expect(resolution.rejected).toHaveLength(REAL.length - 3);
    expect(reasonsOf(resolution, 'base-v2.2.0-3.7-iso')).toEqual(['osUpgrades.selector.reason.notContainer']);
    expect(reasonsOf(resolution, 'base-v2.3.0-6.1-os')).toEqual(['osUpgrades.selector.reason.channelMismatch']);
  });

  it('matches the range against the base version only', () => {
    const resolution = resolveSelector({ version: '~2.3' }, REAL, NOW);

    expect(resolution.chosen?.name).toBe('base-v2.3.0-6.1-os');
    expect(reasonsOf(resolution, 'base-v2.2.0-3.12-os')).toEqual(['osUpgrades.selector.reason.versionOutOfRange']);
    expect(reasonsOf(resolution, 'unstable-os')).toEqual(['osUpgrades.selector.reason.versionUnparsable']);
    expect(names(resolveSelector({ version: '2.2.0' }, REAL, NOW).candidates)).toEqual(['base-v2.2.0-3.12-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.8-os']);
  });

  it('requires the platform to be listed', () => {
    const resolution = resolveSelector({ platform: 'linux/aarch64' }, REAL, NOW);

    expect(resolution.chosen?.name).toBe('base-v2.3.0-6.1-os');
    expect(reasonsOf(resolution, 'unstable-os')).toEqual(['osUpgrades.selector.reason.platformMissing']);
    expect(resolveSelector({ platform: 'linux/riscv64' }, REAL, NOW).chosen).toBeUndefined();
  });

  it('skips images younger than minAgeHours, and images without created', () => {
    const created312 = 1732723652;
    const resolution = resolveSelector({ channel: 'sl-micro-6.1-base', minAgeHours: 24 }, REAL, created312 + 10 * 3600);

    expect(resolution.chosen?.name).toBe('base-v2.2.0-3.9-os');
    expect(reasonsOf(resolution, 'base-v2.2.0-3.12-os')).toEqual(['osUpgrades.selector.reason.tooYoung']);
    expect(resolution.rejected.find((r) => r.version.name === 'base-v2.2.0-3.12-os')?.reasons[0].values).toEqual({ minAgeHours: 24, ageHours: 10 });
    expect(reasonsOf(resolveSelector({ minAgeHours: 0 }, REAL, NOW), 'unstable-os')).toEqual(['osUpgrades.selector.reason.noCreated']);
    expect(resolveSelector({ channel: 'sl-micro-6.1-base', minAgeHours: 24 }, REAL, created312 + 24 * 3600).chosen?.name).toBe('base-v2.2.0-3.12-os');
  });

  it('leaves out versions the channel dropped unless asked', () => {
    const versions = channelVersions('sl-micro-6.1-base').map((obj, index) => (index === 0 ? { ...obj, metadata: { ...(obj.metadata as object), annotations: { 'elemental.cattle.io/channel-no-longer-in-sync': 'true' } } } : obj));

    expect(resolveSelector({}, versions, NOW).chosen?.name).toBe('base-v2.2.0-3.9-os');
    expect(reasonsOf(resolveSelector({}, versions, NOW), 'base-v2.2.0-3.12-os')).toEqual(['osUpgrades.selector.reason.outOfSync']);
    expect(resolveSelector({ includeOutOfSync: true }, versions, NOW).chosen?.name).toBe('base-v2.2.0-3.12-os');
  });

  it('gives every reason a version fails, with values', () => {
    const resolution = resolveSelector({
      channel: 'sl-micro-6.2-base', displayName: 'Other', version: '^3'
    }, REAL, NOW);
    const rejection = resolution.rejected.find((r) => r.version.name === 'base-v2.2.0-3.12-os');

    expect(rejection?.reasons.map((reason) => reason.key)).toEqual([
      'osUpgrades.selector.reason.channelMismatch', 'osUpgrades.selector.reason.versionOutOfRange', 'osUpgrades.selector.reason.displayNameMismatch',
    ]);
    expect(rejection?.reasons[0].values).toEqual({ expected: 'sl-micro-6.2-base', actual: 'sl-micro-6.1-base' });
    expect(rejection?.reasons[1].values).toEqual({ range: '^3', version: 'v2.2.0-3.12' });
    expect(rejection?.reasons[2].values).toEqual({ expected: 'Other', actual: 'SL Micro Base 6.1 OS' });
    expect(reasonsOf(resolveSelector({ platform: 'linux/riscv64' }, REAL, NOW), 'base-v2.2.0-3.12-os')).toEqual(['osUpgrades.selector.reason.platformMissing']);
    expect(resolveSelector({ platform: 'linux/riscv64' }, REAL, NOW).rejected.find((r) => r.version.name === 'base-v2.3.0-6.1-os')?.reasons[0].values)
      .toEqual({ platform: 'linux/riscv64', platforms: 'linux/x86_64, linux/aarch64' });
  });

  it('returns no match as a result, and an invalid selector as errors', () => {
    expect(resolveSelector({ channel: 'nope' }, REAL, NOW)).toMatchObject({ chosen: undefined, candidates: [] });
    const invalid = resolveSelector({ version: 'banana' }, REAL, NOW);

    expect(invalid.chosen).toBeUndefined();
    expect(invalid.errors.map((error) => error.key)).toEqual(['osUpgrades.selector.error.badVersionRange']);
    expect(invalid.rejected.every((r) => r.reasons[0].key === 'osUpgrades.selector.reason.invalidSelector')).toBe(true);
    expect(resolveSelector({}, [], NOW)).toEqual({
      chosen: undefined, candidates: [], rejected: [], errors: []
    });
  });

  it('is a pure function of its inputs', () => {
    const versions = deepFreeze(JSON.parse(JSON.stringify(REAL)));
    const selector = deepFreeze({ channel: 'sl-micro-6.1-base', minAgeHours: 1 });

    expect(resolveSelector(selector, versions, NOW)).toEqual(resolveSelector(selector, versions, NOW));
  });

  it('keeps each result whole: every rejection has its own reasons, which a later resolution leaves as they were', () => {
    const first = resolveSelector({ channel: 'sl-micro-6.2-base', version: '^3' }, REAL, NOW);
    const keys = (resolution: Resolution) => resolution.rejected.map((rejection) => rejection.reasons.map((reason) => reason.key));
    const before = keys(first);

    resolveSelector({ platform: 'linux/riscv64', minAgeHours: 1 }, REAL, NOW);

    expect(keys(first)).toEqual(before);
    expect(before.some((reasons) => reasons.length > 1)).toBe(true);
    expect(new Set(first.rejected.map((rejection) => rejection.reasons)).size).toBe(first.rejected.length);
  });

  // Property tests on synthetic channels: versions of channel `c` and `d`, some isos.
  const version = fc.record({
    name:        fc.string({ minLength: 1, maxLength: 8 }),
    channel:     fc.constantFrom('c', 'd'),
    version:     fc.oneof(fc.tuple(fc.nat(3), fc.nat(3), fc.nat(20)).map(([a, b, n]) => `v2.${ a }.${ b }-3.${ n }`), fc.constant('unstable')),
    type:        fc.constantFrom('container', 'container', 'iso'),
    created:     fc.option(fc.integer({ min: 1000, max: 2000 }), { nil: undefined }),
    platforms:   fc.boolean().map((arm) => (arm ? ['linux/x86_64', 'linux/aarch64'] : ['linux/x86_64'])),
    inSync:      fc.boolean(),
    namespace:   fc.constant('fleet-default'),
    displayName: fc.constant('OS'),
    image:       fc.constant('img'),
  });
  const versionList = fc.uniqueArray(version, { selector: (v) => v.name, maxLength: 25 });
  const selector = fc.record({
    channel:          fc.constantFrom('c', 'd'),
    version:          fc.constantFrom('*', '~2.1', '>=2.1.0 <2.3.0', '^2'),
    platform:         fc.constantFrom('linux/x86_64', 'linux/aarch64'),
    minAgeHours:      fc.constantFrom(0, 1, 100),
    includeOutOfSync: fc.boolean(),
  }, { requiredKeys: ['channel'] });
  const now = 4000 + 3600 * 200;
  const summary = (r: Resolution) => ({
    chosen: r.chosen?.name, candidates: names(r.candidates), rejected: r.rejected.map((x) => [x.version.name, x.reasons.map((y) => y.key)]),
  });

  const anyNow = fc.integer({ min: 1000, max: 1000 + 3600 * 150 });

  it('is deterministic whatever the input order', () => {
    fc.assert(fc.property(selector, versionList, fc.integer(), anyNow, (sel, versions, seed, at) => {
      expect(summary(resolveSelector(sel, shuffled(seededRandom(seed), versions), at))).toEqual(summary(resolveSelector(sel, versions, at)));
    }));
  });

  it('does not move when older or unrelated versions come and go', () => {
    let meaningful = 0;

    fc.assert(fc.property(selector, versionList, versionList, anyNow, (sel, versions, extra, at) => {
      const before = resolveSelector(sel, versions, at);
      const chosen = before.chosen;
      const taken = new Set(versions.map((v) => v.name));
      // Older than the choice by rule "Channel order", or of another channel.
      const harmless = extra.filter((v) => !taken.has(v.name) && (v.channel !== sel.channel || (chosen && compareNewestFirst(v, chosen) > 0)));
      const after = resolveSelector(sel, [...versions, ...harmless], at);

      expect(after.chosen?.name).toBe(chosen?.name);
      // And removing the versions of other channels keeps it too.
      const sameChannel = versions.filter((v) => v.channel === sel.channel);

      expect(resolveSelector(sel, sameChannel, at).chosen?.name).toBe(chosen?.name);
      if (chosen && harmless.length) {
        meaningful++;
      }
    }), { numRuns: 300 });
    // Enough runs must have had a choice to keep, or this property proves nothing.
    expect(meaningful).toBeGreaterThan(10);
  });


  it('moves to exactly a newer matching version when one appears', () => {
    fc.assert(fc.property(selector, versionList, (sel, versions) => {
      const newest = {
        name:        '~newest',
        channel:     sel.channel,
        version:     'v2.1.1-9.9',
        type:        'container',
        created:     4000,
        platforms:   ['linux/x86_64', 'linux/aarch64'],
        inSync:      true,
        namespace:   'fleet-default',
        displayName: 'OS',
        image:       'img',
      };

      expect(resolveSelector(sel, [...versions, newest], now).chosen?.name).toBe('~newest');
    }));
  });
});
