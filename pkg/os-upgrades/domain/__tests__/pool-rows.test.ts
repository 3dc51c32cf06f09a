import { toPoolRows } from '../pool-rows';
import {
  MID, NEW, NOW, OLD, poolObject, version, VERSIONS
} from './pool-test-data';

const row = (options: Parameters<typeof poolObject>[0], versions = VERSIONS) => toPoolRows([poolObject(options)], versions, NOW)[0];

describe('pool rows', () => {
  it('offers an upgrade when the selector picks an image newer than the pin', () => {
    const r = row({ pin: OLD.name, selector: '{"channel":"stable"}' });

    expect(r.candidate?.name).toBe(NEW.name);
    expect(r.upgradeAvailable).toBe(true);
  });

  it('offers nothing when the selector picks the pinned image', () => {
    const r = row({ pin: NEW.name, selector: '{"channel":"stable"}' });

    expect(r.candidate?.name).toBe(NEW.name);
    expect(r.upgradeAvailable).toBe(false);
  });

  it('offers nothing when the selector picks an older image than the pin (soak time after a manual pin)', () => {
    const r = row({ pin: NEW.name, selector: '{"channel":"stable","minAgeHours":24}' });

    expect(r.candidate?.name).toBe(MID.name);
    expect(r.upgradeAvailable).toBe(false);
  });

  it('offers nothing for a pool pinned by exact version', () => {
    const r = row({ pin: OLD.name });

    expect(r.candidate).toBeUndefined();
    expect(r.upgradeAvailable).toBe(false);
  });

  it('keeps showing a pin that no longer exists, and flags it', () => {
    const r = row({ pin: 'gone-v1', selector: '{"channel":"stable"}' });

    expect(r.pool.pin).toBe('gone-v1');
    expect(r.pinMissing).toBe(true);
    expect(r.upgradeAvailable).toBe(true);
  });

  it('flags a pinned image that its channel no longer lists', () => {
    const dropped = version(OLD.name, OLD.version, 100, { inSync: false });
    const r = row({ pin: OLD.name }, [dropped, MID, NEW]);

    expect(r.pinMissing).toBe(false);
    expect(r.pinOutOfSync).toBe(true);
  });

  it('allows a rollback only to a previous pin that differs from the current one', () => {
    expect(row({ pin: NEW.name, annotations: { 'os-upgrades.cattle.io/previous-version': OLD.name } }).canRollBack).toBe(true);
    expect(row({ pin: NEW.name, annotations: { 'os-upgrades.cattle.io/previous-version': NEW.name } }).canRollBack).toBe(false);
    expect(row({ pin: NEW.name }).canRollBack).toBe(false);
  });

  it('describes targets and node selector for display', () => {
    const r = row({ spec: { clusterTargets: [{ clusterGroup: 'edge' }, { clusterSelector: { matchLabels: { env: 'prod' } } }], nodeSelector: { matchLabels: { role: 'worker' } } } });

    expect(r.targets).toEqual([
      { key: 'osUpgrades.pools.target.clusterGroup', values: { name: 'edge' } },
      { key: 'osUpgrades.pools.target.clusterSelector', values: { labels: 'env=prod' } },
    ]);
    expect(r.nodeSelector).toBe('role=worker');
  });

  it('says the operator refuses a pin to a missing or iso version, and waits after a write until the status moves', () => {
    expect(row({ pin: 'gone-v1' }).operator).toEqual({ kind: 'refused', reason: { key: 'osUpgrades.pool.operator.missing', values: { name: 'gone-v1' } } });
    const iso = version('os-iso', 'v2.2.1-1', 1, { type: 'iso' });

    expect(row({ pin: 'os-iso' }, [...VERSIONS, iso]).operator.kind).toBe('refused');
    const written = poolObject({ pin: NEW.name, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    const pending = { pin: NEW.name, conditions: '[{"status":"True","type":"Ready"}]' };

    expect(toPoolRows([written], VERSIONS, NOW, { 'fleet-default/edge': pending })[0].operator).toEqual({ kind: 'waiting' });
    const moved = poolObject({
      pin:    NEW.name,
      status: {
        conditions: [{
          type: 'Ready', status: 'False', message: 'WaitApplied(1)'
        }]
      }
    });

    expect(toPoolRows([moved], VERSIONS, NOW, { 'fleet-default/edge': pending })[0].operator).toEqual({ kind: 'current' });
  });

  it('flags a pinned version that is being deleted', () => {
    const deleting = { ...NEW, terminating: true };

    expect(row({ pin: NEW.name }, [OLD, MID, deleting]).pinTerminating).toBe(true);
    expect(row({ pin: NEW.name }).pinTerminating).toBe(false);
  });
});
