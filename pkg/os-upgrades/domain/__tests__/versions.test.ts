import fc from 'fast-check';
import { compareVersions, parseVersion } from '../index';

const sign = (n: number) => Math.sign(n);

describe('compareVersions (rule "Versions")', () => {
  it('orders build revisions number by number', () => {
    const ordered = ['v2.0.2', 'v2.0.2-4.2.97', 'v2.0.2-4.2.105', 'v2.0.4-5.5.6'];

    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        expect(sign(compareVersions(ordered[i], ordered[j]))).toBe(sign(i - j));
      }
    }
  });

  it.each([
    ['v2.2.0-3.9', 'v2.2.0-3.12', -1],
    ['2.2.0-3.12', 'v2.2.0-3.9', 1],
    ['v2.2.0-3.12', 'v2.2.0-3.12.1', -1],
    ['v2.10.0', 'v2.9.9-9.9', 1],
    ['v2.3.0-6.1', 'v2.2.0-3.12', 1],
    ['v1.0.0-99999999999999999999', 'v1.0.0-99999999999999999998', 1],
  ])('%s vs %s → %i', (a, b, expected) => {
    expect(sign(compareVersions(a, b))).toBe(expected);
    expect(sign(compareVersions(b, a))).toBe(0 - expected);
  });

  it('treats a leading v as optional', () => {
    expect(parseVersion('v2.2.0-3.12')).toEqual(parseVersion('2.2.0-3.12'));
    expect(compareVersions('v2.2.0', '2.2.1')).toBeLessThan(0);
  });

  it('sorts unparsable versions below every parsed one, deterministically among themselves', () => {
    for (const junk of ['unstable', 'latest', '', undefined, null, 42, '%%IMG_TAG%%', 'v2.2.0-rc1']) {
      expect(parseVersion(junk)).toBeUndefined();
      expect(compareVersions(junk, 'v0.0.1')).toBeLessThan(0);
      expect(compareVersions('v0.0.1', junk)).toBeGreaterThan(0);
    }
    expect(compareVersions('latest', 'unstable')).toBeLessThan(0);
    expect(compareVersions('unstable', 'latest')).toBeGreaterThan(0);
    expect(compareVersions('unstable', 'unstable')).toBe(0);
  });

  it('returns 0 only for identical strings (ties broken by text)', () => {
    expect(compareVersions('v2.2', '2.2.0')).not.toBe(0);
    expect(sign(compareVersions('v2.2', '2.2.0')) + sign(compareVersions('2.2.0', 'v2.2'))).toBe(0);
  });

  const versionText = fc.oneof(
    fc.tuple(fc.nat(30), fc.nat(30), fc.nat(30), fc.option(fc.array(fc.nat(200), { minLength: 1, maxLength: 3 })), fc.boolean())
      .map(([a, b, c, revision, v]) => `${ v ? 'v' : '' }${ a }.${ b }.${ c }${ revision ? `-${ revision.join('.') }` : '' }`),
    fc.constantFrom('unstable', 'latest', '', 'v2.2', '2.2.0'),
    fc.string({ maxLength: 12 }),
  );

  it('is a total order: antisymmetric and transitive, never throws', () => {
    fc.assert(fc.property(versionText, versionText, versionText, (a, b, c) => {
      expect(sign(compareVersions(a, b)) + sign(compareVersions(b, a))).toBe(0);
      expect(compareVersions(a, b) === 0).toBe(a === b);
      if (compareVersions(a, b) <= 0 && compareVersions(b, c) <= 0) {
        expect(compareVersions(a, c)).toBeLessThanOrEqual(0);
      }
    }), { numRuns: 2000 });
  });

  it('never throws on anything', () => {
    fc.assert(fc.property(fc.anything(), fc.anything(), (a, b) => {
      expect(typeof compareVersions(a, b)).toBe('number');
    }));
  });
});
