import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import fc from 'fast-check';
import { channelVersions, PACKAGE_FILES, readPackageFile } from '../../../../tests/support/fixtures';
import {
  Advisory, applyWithdrawals, compareExposure, exposedPools, HISTORY_ANNOTATION, HISTORY_LIMIT, OSVersion, Package, PackageLists, parsePackageList,
  parseUpdateLog, planPoolWrite, poolExposure, readHistory, resolveSelector, SELECTOR_ANNOTATION, UpdateLogs, WITHDRAWN_ANNOTATION
} from '../index';
import { NOW, poolObject, version } from './pool-test-data';

const CHANGELOGS = resolve(__dirname, '../../../../tests/fixtures/synthetic/changelogs');
const V61 = channelVersions('sl-micro-6.1-base');
const B38 = 'base-v2.2.0-3.8-os';
const B39 = 'base-v2.2.0-3.9-os';
const B312 = 'base-v2.2.0-3.12-os';
const PACKAGES: PackageLists = Object.fromEntries(PACKAGE_FILES.map((name) => [name, parsePackageList(readPackageFile(name))]));
const LOGS: UpdateLogs = Object.fromEntries([B38, B312, 'base-v2.3.0-6.1-os'].map((name) => [name, parseUpdateLog(readFileSync(join(CHANGELOGS, `${ name }.updates.log`), 'utf8'))]));

function pool(name: string, pin: string, annotations: Record<string, string> = {}, namespace = 'fleet-default') {
  return {
    metadata: {
      name, namespace, resourceVersion: '1', annotations
    },
    spec: { managedOSVersionName: pin },
  };
}

function pkg(name: string, version: string): Package {
  return {
    name, epoch: 0, version, release: '1', arch: 'x86_64', disturl: '', license: ''
  };
}

function advisory(id: string, severity: Advisory['severity'], packageName: string, cves: string[] = []): Advisory {
  return {
    id,
    type:        'security',
    title:       id,
    severity,
    description: '',
    packages:    [{
      name: packageName, version: '1', release: '1', arch: 'x86_64'
    }],
    references: cves.map((cve) => ({
      href: '', id: cve, title: cve, type: 'cve'
    })),
  };
}

/**
 * A synthetic channel of `count` images, oldest first: image k's log lists advisory `A-k`
 * fixing package `p-k`, which images k and later have at 1-1 and older ones at 0-1.
 */
function synthetic(count: number, severities: Advisory['severity'][] = []) {
  const versions: OSVersion[] = [];
  const logs: UpdateLogs = {};
  const packages: PackageLists = {};

  for (let k = 0; k < count; k++) {
    const name = `os-${ k }`;

    versions.push(version(name, `v2.2.${ k }-1`, 1000 - k));
    logs[name] = [advisory(`A-${ k }`, severities[k] ?? 'important', `p-${ k }`, [`CVE-2025-${ 1000 + k }`])];
    packages[name] = Array.from({ length: count }, (_, j) => pkg(`p-${ j }`, j <= k ? '1' : '0'));
  }

  return {
    versions, logs, packages
  };
}

describe('poolExposure on the real fixtures', () => {
  it('lists what 3.9 lacks against 3.12 by the package evidence', () => {
    const exposure = poolExposure(pool('edge', B39), V61, LOGS, PACKAGES, NOW);

    expect(exposure.status).toBe('behind');
    expect(exposure.pin?.name).toBe(B39);
    expect(exposure.newest?.name).toBe(B312);
    expect(exposure.behind).toBe(1);
    expect(exposure.evidence).toBe('packages');
    expect(exposure.advisories.map((a) => a.id)).toEqual(['SUSE-SLE-Micro-6.1-2024-130']);
    expect(exposure.summary.total).toBe(1);
    expect(exposure.cves.length).toBeGreaterThan(0);
  });

  it('is unknown where a log of the span is missing (3.8 → 3.12, 3.9 has no log)', () => {
    const exposure = poolExposure(pool('edge', B38), V61, LOGS, PACKAGES, NOW);

    expect(exposure.status).toBe('unknown');
    expect(exposure.behind).toBe(2);
    expect(exposure.missing).toEqual([B39]);
    expect(exposure.advisories).toEqual([]);
    expect(exposure.summary.total).toBe(0);
  });

  it('is current on the newest image, and says what the selector would pick', () => {
    const exposure = poolExposure(pool('edge', B312, { [SELECTOR_ANNOTATION]: '{"channel":"sl-micro-6.1-base"}' }), V61, LOGS, PACKAGES, NOW);

    expect(exposure.status).toBe('current');
    expect(exposure.behind).toBe(0);
    expect(exposure.selected?.name).toBe(B312);
  });

  it('has no pin for a raw osImage or an unknown version', () => {
    expect(poolExposure({ metadata: { name: 'x', namespace: 'fleet-default' }, spec: { osImage: 'registry/os:1' } }, V61, LOGS, PACKAGES, NOW).status).toBe('noPin');
    expect(poolExposure(pool('x', 'gone'), V61, LOGS, PACKAGES, NOW).status).toBe('noPin');
    expect(poolExposure(null, V61, LOGS, PACKAGES, NOW).status).toBe('noPin');
  });
});

describe('poolExposure on synthetic channels', () => {
  it('a pool behind by 2 images lacks exactly the advisories those images deliver', () => {
    const { versions, logs, packages } = synthetic(5);
    const exposure = poolExposure(pool('edge', 'os-2'), versions, logs, packages, NOW);

    expect(exposure.behind).toBe(2);
    expect(exposure.advisories.map((a) => a.id).sort()).toEqual(['A-3', 'A-4']);
    expect(exposure.cves).toEqual(['CVE-2025-1003', 'CVE-2025-1004']);
  });

  it('a withdrawn newest image is not what the pool is behind', () => {
    const { versions, logs, packages } = synthetic(4);
    const withdrawn = versions.map((v) => (v.name === 'os-3' ? {
      ...v,
      withdrawn: {
        reason: 'breaks boot', by: 'admin', at: '2025-01-01T00:00:00.000Z'
      }
    } : v));
    const exposure = poolExposure(pool('edge', 'os-1'), withdrawn, logs, packages, NOW);

    expect(exposure.newest?.name).toBe('os-2');
    expect(exposure.behind).toBe(1);
    expect(exposure.advisories.map((a) => a.id)).toEqual(['A-2']);
  });

  it('property: behind by the images newer than the pin, lacking exactly their advisories', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 8 }).chain((count) => fc.tuple(fc.constant(count), fc.integer({ min: 0, max: count - 1 }))), ([count, pinIndex]) => {
      const { versions, logs, packages } = synthetic(count);
      const exposure = poolExposure(pool('edge', `os-${ pinIndex }`), versions, logs, packages, NOW);
      const expected = Array.from({ length: count - 1 - pinIndex }, (_, i) => `A-${ pinIndex + 1 + i }`).sort();

      expect(exposure.behind).toBe(count - 1 - pinIndex);
      expect(exposure.status).toBe(pinIndex === count - 1 ? 'current' : 'behind');
      expect(exposure.advisories.map((a) => a.id).sort()).toEqual(expected);
      expect(exposure.summary.total).toBe(expected.length);
    }));
  });

  it('ranks critical exposure first', () => {
    const { versions, logs, packages } = synthetic(4, ['low', 'low', 'low', 'critical']);
    const exposures = [
      poolExposure(pool('a-current', 'os-3'), versions, logs, packages, NOW),
      poolExposure(pool('b-low', 'os-2'), versions, logs, packages, NOW),
      poolExposure(pool('c-behind-3', 'os-0'), versions, logs, packages, NOW),
    ];
    const low = synthetic(4, ['low', 'low', 'low', 'low']);
    const onlyLow = poolExposure(pool('d-low-only', 'os-0'), low.versions, low.logs, low.packages, NOW);

    expect([...exposures, onlyLow].sort(compareExposure).map((e) => e.name)).toEqual(['c-behind-3', 'b-low', 'd-low-only', 'a-current']);
  });
});

describe('exposedPools', () => {
  const { versions, logs, packages } = synthetic(5);
  const pools = [pool('canary', 'os-4'), pool('staging', 'os-2'), pool('production', 'os-0'), pool('raw', 'gone')];

  it('lists the pools whose pin lacks the fix, each with the image that fixes it', () => {
    expect(exposedPools('CVE-2025-1003', pools, versions, logs, packages)).toEqual([
      {
        name: 'production', namespace: 'fleet-default', pinName: 'os-0', fixedBy: 'os-3'
      },
      {
        name: 'staging', namespace: 'fleet-default', pinName: 'os-2', fixedBy: 'os-3'
      },
    ]);
  });

  it('is case-insensitive on the CVE id and empty for a CVE no image fixes', () => {
    expect(exposedPools('cve-2025-1001', pools, versions, logs, packages).map((p) => p.name)).toEqual(['production']);
    expect(exposedPools('CVE-1999-0001', pools, versions, logs, packages)).toEqual([]);
  });

  it('property: a pool is exposed exactly when its pin is older than the fixing image', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 7 }).chain((count) => fc.tuple(fc.constant(count), fc.integer({ min: 1, max: count - 1 }), fc.integer({ min: 0, max: count - 1 }))), ([count, fixIndex, pinIndex]) => {
      const data = synthetic(count);
      const result = exposedPools(`CVE-2025-${ 1000 + fixIndex }`, [pool('p', `os-${ pinIndex }`)], data.versions, data.logs, data.packages);

      expect(result.length).toBe(pinIndex < fixIndex ? 1 : 0);
      if (result.length) {
        expect(result[0].fixedBy).toBe(`os-${ fixIndex }`);
      }
    }));
  });
});

describe('withdrawals', () => {
  const OLD = version('os-1', 'v2.2.0-1', 100);
  const MID = version('os-2', 'v2.2.0-2', 50);
  const NEW = version('os-3', 'v2.2.1-1', 10);
  const channel = (withdrawn: unknown) => ({
    metadata: {
      name: 'stable', namespace: 'fleet-default', resourceVersion: '7', annotations: { [WITHDRAWN_ANNOTATION]: typeof withdrawn === 'string' ? withdrawn : JSON.stringify(withdrawn) }
    },
  });
  const BAD = {
    'os-3': {
      reason: 'breaks boot on NUCs', by: 'admin', at: '2025-10-09T00:00:00.000Z'
    }
  };
  const VERSIONS = applyWithdrawals([OLD, MID, NEW], [channel(BAD)]);

  it('marks the versions its channel withdraws, and no other', () => {
    expect(VERSIONS.map((v) => v.withdrawn)).toEqual([undefined, undefined, BAD['os-3']]);
    expect(applyWithdrawals(VERSIONS, []).map((v) => v.withdrawn)).toEqual([undefined, undefined, undefined]);
    expect(applyWithdrawals([{ ...NEW, namespace: 'other' }], [channel(BAD)])[0].withdrawn).toBeUndefined();
    expect(applyWithdrawals([NEW], [channel('{not json')])[0].withdrawn).toBeUndefined();
  });

  it('the selector rejects a withdrawn image with its reason', () => {
    const resolution = resolveSelector({ channel: 'stable' }, VERSIONS, NOW);

    expect(resolution.chosen?.name).toBe('os-2');
    expect(resolution.rejected[0].reasons).toEqual([{ key: 'osUpgrades.selector.reason.withdrawn', values: { reason: 'breaks boot on NUCs', by: 'admin' } }]);
  });

  it('planPoolWrite refuses to approve or promote a withdrawn image', () => {
    const current = poolObject({ pin: 'os-1' });
    const refusal = {
      ok:     false,
      reason: {
        key:    'osUpgrades.pool.refusal.withdrawn',
        values: {
          name: 'os-3', reason: 'breaks boot on NUCs', by: 'admin'
        }
      }
    };

    expect(planPoolWrite(current, {
      kind: 'approve', versionName: 'os-3', expectedPin: 'os-1', approvedBy: 'alice'
    }, VERSIONS, NOW)).toEqual(refusal);
    expect(planPoolWrite(current, {
      kind: 'promote', versionName: 'os-3', expectedPin: 'os-1', approvedBy: 'alice', source: 'fleet-default/canary'
    }, VERSIONS, NOW)).toEqual(refusal);
  });

  it('planPoolWrite rolls back away from a withdrawn image, and approves away from it', () => {
    const current = poolObject({ pin: 'os-3', annotations: { 'os-upgrades.cattle.io/previous-version': 'os-2' } });
    const rollback = planPoolWrite(current, {
      kind: 'rollback', approvedBy: 'alice', comment: 'withdrawn'
    }, VERSIONS, NOW);
    const approve = planPoolWrite(current, {
      kind: 'approve', versionName: 'os-1', expectedPin: 'os-3', approvedBy: 'alice'
    }, VERSIONS, NOW);

    expect(rollback.ok && (rollback.object.spec as Record<string, unknown>).managedOSVersionName).toBe('os-2');
    expect(approve.ok && (approve.object.spec as Record<string, unknown>).managedOSVersionName).toBe('os-1');
  });
});

describe('approval history', () => {
  const VERSIONS = [version('os-1', 'v2.2.0-1', 100), version('os-2', 'v2.2.0-2', 50), version('os-3', 'v2.2.1-1', 10)];

  it('approve, promote and roll back append to the pool in the same object they write', () => {
    let current: Record<string, unknown> = poolObject({ pin: 'os-1' });
    const steps = [
      planPoolWrite(current, {
        kind: 'approve', versionName: 'os-2', expectedPin: 'os-1', approvedBy: 'alice', comment: 'CVE fix'
      }, VERSIONS, NOW),
    ];

    current = steps[0].ok ? steps[0].object : current;
    steps.push(planPoolWrite(current, {
      kind: 'promote', versionName: 'os-3', expectedPin: 'os-2', approvedBy: 'bob', source: 'fleet-default/canary', comment: 'soaked 48 h'
    }, VERSIONS, NOW + 60));
    current = steps[1].ok ? steps[1].object : current;
    steps.push(planPoolWrite(current, { kind: 'rollback', approvedBy: 'carol' }, VERSIONS, NOW + 120));
    current = steps[2].ok ? steps[2].object : current;

    expect(steps.every((step) => step.ok)).toBe(true);
    const history = readHistory(current);

    // Each move also records the images and the pin it wrote (read back by the change record).
    expect(history.entries.map((entry) => [entry.fromImage, entry.toImage, entry.changes?.find((change) => change.field === 'managedOSVersionName')])).toEqual([
      ['registry.example/os:v2.2.0-1', 'registry.example/os:v2.2.0-2', {
        field: 'managedOSVersionName', before: 'os-1', after: 'os-2'
      }],
      ['registry.example/os:v2.2.0-2', 'registry.example/os:v2.2.1-1', {
        field: 'managedOSVersionName', before: 'os-2', after: 'os-3'
      }],
      ['registry.example/os:v2.2.1-1', 'registry.example/os:v2.2.0-2', {
        field: 'managedOSVersionName', before: 'os-3', after: 'os-2'
      }],
    ]);
    expect({
      warnings: history.warnings,
      entries:  history.entries.map(({
        kind, from, to, by, at, comment
      }) => ({
        kind, from, to, by, at, comment
      })),
    }).toEqual({
      warnings: [],
      entries:  [
        {
          kind: 'approve', from: 'os-1', to: 'os-2', by: 'alice', at: '2025-10-09T08:53:20.000Z', comment: 'CVE fix'
        },
        {
          kind: 'promote', from: 'os-2', to: 'os-3', by: 'bob', at: '2025-10-09T08:54:20.000Z', comment: 'soaked 48 h'
        },
        {
          kind: 'rollback', from: 'os-3', to: 'os-2', by: 'carol', at: '2025-10-09T08:55:20.000Z', comment: ''
        },
      ],
    });
  });

  it('is never written by an edit', () => {
    const current = poolObject({ pin: 'os-1' });
    const edit = planPoolWrite(current, { kind: 'edit', annotations: { [HISTORY_ANNOTATION]: '[]' } }, VERSIONS, NOW);

    expect(edit.ok && readHistory(edit.object).entries).toEqual([]);
    expect(edit.ok && (edit.object.metadata as Record<string, Record<string, unknown>>).annotations[HISTORY_ANNOTATION]).toBeUndefined();
  });

  it('reads bad JSON as an empty history with a warning, and skips bad entries', () => {
    const withText = (text: unknown) => ({ metadata: { annotations: { [HISTORY_ANNOTATION]: text } } });

    expect(readHistory(withText('{oops'))).toEqual({ entries: [], warnings: [{ key: 'osUpgrades.history.warning.unreadable' }] });
    expect(readHistory(withText('{"kind":"approve"}')).warnings).toEqual([{ key: 'osUpgrades.history.warning.unreadable' }]);
    expect(readHistory(withText('[{"kind":"approve","to":"x"},{"kind":"explode"},3]'))).toEqual({
      entries: [{
        kind: 'approve', from: '', to: 'x', by: '', at: '', comment: ''
      }],
      warnings: [{ key: 'osUpgrades.history.warning.skipped', values: { count: 2 } }],
    });
    expect(readHistory(undefined)).toEqual({ entries: [], warnings: [] });
    expect(readHistory(withText(42)).warnings.length).toBe(1);
  });

  it('property: bounded to the last HISTORY_LIMIT entries, newest last', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom('approve', 'rollback'), { minLength: 1, maxLength: 30 }), (moves) => {
      let current: Record<string, unknown> = poolObject({ pin: 'os-1' });
      let written = 0;
      let lastBy = '';

      moves.forEach((move, i) => {
        const pin = ((current.spec as Record<string, unknown>).managedOSVersionName) as string;
        const plan = move === 'approve' ? planPoolWrite(current, {
          kind: 'approve', versionName: pin === 'os-1' ? 'os-2' : 'os-1', expectedPin: pin, approvedBy: `u${ i }`
        }, VERSIONS, NOW + i) : planPoolWrite(current, { kind: 'rollback', approvedBy: `u${ i }` }, VERSIONS, NOW + i);

        if (plan.ok) {
          current = plan.object;
          written++;
          lastBy = `u${ i }`;
        }
      });
      const entries = readHistory(current).entries;

      expect(entries.length).toBe(Math.min(written, HISTORY_LIMIT));
      if (written) {
        expect(entries[entries.length - 1].by).toBe(lastBy);
      }
    }));
  });
});
