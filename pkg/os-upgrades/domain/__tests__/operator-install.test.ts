import fc from 'fast-check';
import {
  featureAvailable, OPERATOR_TYPES, operatorFeatures, operatorPresence, operatorVersion, versionAtLeast
} from '../operator-install';

describe('operatorPresence', () => {
  it('is ready when every Elemental type has a schema', () => {
    expect(operatorPresence(['namespace', ...OPERATOR_TYPES], false)).toEqual({ kind: 'ready' });
  });

  it('names the missing types and whether this person may install the charts', () => {
    expect(operatorPresence(['namespace', 'elemental.cattle.io.managedosversion'], true)).toEqual({
      kind: 'missing', types: ['elemental.cattle.io.managedosversionchannel', 'elemental.cattle.io.managedosimage'], mayInstall: true
    });
    expect(operatorPresence([], false)).toMatchObject({ kind: 'missing', mayInstall: false });
  });
});

describe('operatorVersion', () => {
  it('reads the chart Metadata\'s appVersion', () => {
    expect(operatorVersion({ spec: { appVersion: '1.7.5' } })).toBe('1.7.5');
    expect(operatorVersion({ spec: { appVersion: 'v1.6.2' } })).toBe('1.6.2');
  });

  it('is unknown without a Metadata or with something that is not a version', () => {
    expect(operatorVersion(undefined)).toBeUndefined();
    expect(operatorVersion({ spec: {} })).toBeUndefined();
    expect(operatorVersion({ spec: { appVersion: '%VERSION%' } })).toBeUndefined();
  });
});

describe('versionAtLeast', () => {
  it('compares numerically, not as text', () => {
    expect(versionAtLeast('1.10.0', '1.9.2')).toBe(true);
    expect(versionAtLeast('1.6.11', '1.7.0')).toBe(false);
    expect(versionAtLeast('1.7.0-rc1', '1.7.0')).toBe(true);
  });

  it('is a total order: of two versions, one is at least the other, both only when equal', () => {
    const part = fc.integer({ min: 0, max: 30 });
    const version = fc.tuple(part, part, part).map((p) => p.join('.'));

    fc.assert(fc.property(version, version, (a, b) => {
      expect(versionAtLeast(a, b) || versionAtLeast(b, a)).toBe(true);
      expect(versionAtLeast(a, b) && versionAtLeast(b, a)).toBe(a === b);
    }));
  });
});

describe('operatorFeatures', () => {
  it('offers a channel\'s enabled switch from operator 1.7.0, and says why not before', () => {
    const old = operatorFeatures('1.6.2', false);

    expect(featureAvailable(old, 'channelEnabled')).toBe(false);
    expect(old.find((f) => f.id === 'channelEnabled')?.reason).toEqual({ key: 'osUpgrades.operator.feature.needs', values: { minimum: '1.7.0', version: '1.6.2' } });
    expect(featureAvailable(operatorFeatures('1.7.0', false), 'channelEnabled')).toBe(true);
  });

  it('does not gate on an unknown version, and says it is unknown', () => {
    const unknown = operatorFeatures(undefined, false);

    expect(featureAvailable(unknown, 'channelEnabled')).toBe(true);
    expect(unknown.find((f) => f.id === 'channelEnabled')?.reason.key).toBe('osUpgrades.operator.feature.versionUnknown');
  });

  it('offers changelog extraction only where the ManagedOSChangelog type is served', () => {
    expect(featureAvailable(operatorFeatures('1.9.2', false), 'changelogExtraction')).toBe(false);
    expect(featureAvailable(operatorFeatures('1.6.2', true), 'changelogExtraction')).toBe(true);
  });
});
