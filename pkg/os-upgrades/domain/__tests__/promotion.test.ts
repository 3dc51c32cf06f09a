import fc from 'fast-check';
import {
  applyWithdrawals, planWithdrawal, PROMOTE_FROM_ANNOTATION, PROMOTE_SOAK_HOURS_ANNOTATION, promotionOffer, readHistory, readPromotion,
  readWithdrawals, SELECTOR_ANNOTATION, SoakNode, WITHDRAWN_ANNOTATION
} from '../index';
import { NOW, version } from './pool-test-data';

const HOUR = 3600;
const OLD = version('os-1', 'v2.2.0-1', 300);
const MID = version('os-2', 'v2.2.0-2', 200);
const NEW = version('os-3', 'v2.3.0-1', 100);
const VERSIONS = [OLD, MID, NEW];

function pool(name: string, pin: string, annotations: Record<string, string> = {}) {
  return {
    metadata: {
      name, namespace: 'fleet-default', resourceVersion: '1', annotations
    },
    spec: { managedOSVersionName: pin },
  };
}

const CANARY = pool('canary', 'os-3');
const staging = (annotations: Record<string, string> = {}) => pool('staging', 'os-1', {
  [PROMOTE_FROM_ANNOTATION]: 'fleet-default/canary', [PROMOTE_SOAK_HOURS_ANNOTATION]: '48', ...annotations
});

function nodes(sinceHoursAgo: number[], extra: Partial<SoakNode> = {}): SoakNode[] {
  return sinceHoursAgo.map((hours, i) => ({
    node: `n${ i }`, image: '', state: 'updated', since: NOW - hours * HOUR, ...extra
  }));
}

const keys = (offer: { missing: { key: string }[] }) => offer.missing.map((m) => m.key.replace('osUpgrades.promotion.missing.', ''));

describe('readPromotion', () => {
  it('reads the source and the soak, 24 h by default', () => {
    expect(readPromotion(staging())).toEqual({
      source: 'fleet-default/canary', namespace: 'fleet-default', name: 'canary', soakHours: 48, errors: []
    });
    expect(readPromotion(pool('p', 'os-1', { [PROMOTE_FROM_ANNOTATION]: 'fleet-default/canary' })).soakHours).toBe(24);
    expect(readPromotion(pool('p', 'os-1', { [PROMOTE_FROM_ANNOTATION]: 'canary', [PROMOTE_SOAK_HOURS_ANNOTATION]: 'two days' })).errors.map((e) => e.key)).toEqual([
      'osUpgrades.promotion.missing.badSource', 'osUpgrades.promotion.missing.badSoakHours',
    ]);
  });
});

describe('promotionOffer', () => {
  it('offers the canary image once every node ran it for the soak time, with the soak as the reason', () => {
    const offer = promotionOffer(staging(), CANARY, VERSIONS, nodes([50, 49]), NOW);

    expect(offer.status).toBe('offered');
    expect(offer.version?.name).toBe('os-3');
    expect(offer.soakedHours).toBe(49);
    expect(offer.missing).toEqual([]);
    expect(offer.reason).toEqual({
      key:    'osUpgrades.promotion.offered',
      values: {
        source: 'fleet-default/canary', name: 'os-3', hours: 49, soakHours: 48, nodes: 2
      }
    });
  });

  it('says how long it soaked ("soaked 20 of 48 h")', () => {
    const offer = promotionOffer(staging(), CANARY, VERSIONS, nodes([60, 20.5]), NOW);

    expect(offer.status).toBe('waiting');
    expect(offer.missing).toEqual([{ key: 'osUpgrades.promotion.missing.soaking', values: { soaked: 20, required: 48 } }]);
  });

  it('says how many nodes failed, and how many do not run it yet', () => {
    const failed = [...nodes([60, 60]), {
      node: 'n9', image: '', state: 'failed'
    }, ...nodes([60], { failed: true })];

    expect(promotionOffer(staging(), CANARY, VERSIONS, failed, NOW).missing).toEqual([{ key: 'osUpgrades.promotion.missing.nodesFailed', values: { count: 2 } }]);
    expect(promotionOffer(staging(), CANARY, VERSIONS, [...nodes([60]), {
      node: 'n1', image: '', state: 'upgrading'
    }], NOW).missing)
      .toEqual([{ key: 'osUpgrades.promotion.missing.nodesNotUpdated', values: { count: 1, total: 2 } }]);
    expect(keys(promotionOffer(staging(), CANARY, VERSIONS, nodes([60], { image: 'v2.2.0-2' }), NOW))).toEqual(['nodesNotUpdated']);
    expect(keys(promotionOffer(staging(), CANARY, VERSIONS, nodes([60], { image: 'registry.example/os:v2.3.0-1' }), NOW))).toEqual([]);
    expect(keys(promotionOffer(staging(), CANARY, VERSIONS, [], NOW))).toEqual(['noNodes']);
    expect(keys(promotionOffer(staging(), CANARY, VERSIONS, undefined, NOW))).toEqual(['rolloutUnknown']);
    expect(keys(promotionOffer(staging(), CANARY, VERSIONS, nodes([60], { since: undefined }), NOW))).toEqual(['soakUnknown']);
  });

  it('never past the pool\'s own selector', () => {
    const offer = promotionOffer(staging({ [SELECTOR_ANNOTATION]: '{"version":"~2.2"}' }), CANARY, VERSIONS, nodes([60]), NOW);

    expect(keys(offer)).toEqual(['selectorRejects']);
    expect((offer.missing[0].values?.reasons as { key: string }[]).map((r) => r.key)).toEqual(['osUpgrades.selector.reason.versionOutOfRange']);
  });

  it('a selector that passes the image, without picking it as newest, does not block it', () => {
    const newer = version('os-4', 'v2.3.0-2', 1);

    expect(promotionOffer(staging({ [SELECTOR_ANNOTATION]: '{"channel":"stable"}' }), CANARY, [...VERSIONS, newer], nodes([60]), NOW).status).toBe('offered');
  });

  it('never for a withdrawn image', () => {
    const versions = applyWithdrawals(VERSIONS, [{
      metadata: {
        name:        'stable',
        namespace:   'fleet-default',
        annotations: {
          [WITHDRAWN_ANNOTATION]: JSON.stringify({
            'os-3': {
              reason: 'breaks boot', by: 'admin', at: '2025-10-01T00:00:00.000Z'
            }
          })
        }
      }
    }]);

    expect(keys(promotionOffer(staging(), CANARY, versions, nodes([60]), NOW))).toEqual(['withdrawn']);
  });

  it('only for an image newer than the pool\'s pin, from the named source', () => {
    expect(keys(promotionOffer(pool('staging', 'os-3', staging().metadata.annotations), CANARY, VERSIONS, nodes([60]), NOW))).toEqual(['alreadyPinned']);
    expect(keys(promotionOffer(staging(), pool('canary', 'os-2'), [OLD, MID, NEW].map((v) => (v.name === 'os-1' ? { ...v, created: NOW } : v)), nodes([60]), NOW)))
      .toEqual(['notNewer']);
    expect(keys(promotionOffer(staging(), pool('other', 'os-3'), VERSIONS, nodes([60]), NOW))).toEqual(['sourceMissing']);
    expect(keys(promotionOffer(staging(), pool('canary', 'gone'), VERSIONS, nodes([60]), NOW))).toEqual(['sourceNoImage']);
    expect(promotionOffer(pool('p', 'os-1'), CANARY, VERSIONS, nodes([60]), NOW).status).toBe('none');
  });

  it('property: offered exactly when no node failed and the least soaked node reached the soak time', () => {
    fc.assert(fc.property(
      fc.array(fc.record({
        hours: fc.double({
          min: 0, max: 200, noNaN: true
        }),
        failed: fc.boolean()
      }), { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 0, max: 150 }),
      (list, soak) => {
        const rollout = list.map((n, i) => ({
          node: `n${ i }`, image: '', state: 'updated', since: NOW - n.hours * HOUR, failed: n.failed
        }));
        const offer = promotionOffer(staging({ [PROMOTE_SOAK_HOURS_ANNOTATION]: String(soak) }), CANARY, VERSIONS, rollout, NOW);
        const expected = list.every((n) => !n.failed) && Math.min(...list.map((n) => (NOW - (NOW - n.hours * HOUR)) / HOUR)) >= soak;

        expect(offer.status === 'offered').toBe(expected);
      }
    ));
  });
});

describe('planWithdrawal', () => {
  const channel = (annotations: Record<string, string> = {}) => ({
    metadata: {
      name: 'stable', namespace: 'fleet-default', resourceVersion: '9', annotations: { keep: 'me', ...annotations }
    },
    spec: { type: 'json' },
  });

  it('writes the withdrawal and its history entry in one channel object', () => {
    const plan = planWithdrawal(channel(), {
      kind: 'withdraw', versionName: 'os-3', reason: 'breaks boot', by: 'admin'
    }, VERSIONS, NOW);

    expect(plan.ok).toBe(true);
    if (!plan.ok) {
      return;
    }
    const at = '2025-10-09T08:53:20.000Z';

    expect(readWithdrawals(plan.object).withdrawals).toEqual({
      'os-3': {
        reason: 'breaks boot', by: 'admin', at
      }
    });
    expect(readHistory(plan.object).entries).toEqual([{
      kind: 'withdraw', from: '', to: 'os-3', by: 'admin', at, comment: 'breaks boot'
    }]);
    expect((plan.object.metadata as Record<string, unknown>).resourceVersion).toBe('9');
    expect(((plan.object.metadata as Record<string, unknown>).annotations as Record<string, string>).keep).toBe('me');

    const restore = planWithdrawal(plan.object, {
      kind: 'restore', versionName: 'os-3', comment: 'fixed by firmware', by: 'admin'
    }, VERSIONS, NOW + 60);

    expect(restore.ok && readWithdrawals(restore.object).withdrawals).toEqual({});
    expect(restore.ok && ((restore.object.metadata as Record<string, unknown>).annotations as Record<string, string>)[WITHDRAWN_ANNOTATION]).toBeUndefined();
    expect(restore.ok && readHistory(restore.object).entries.map((e) => `${ e.kind }:${ e.comment }`)).toEqual(['withdraw:breaks boot', 'restore:fixed by firmware']);
  });

  it('refuses without a reason, twice, an unknown image, or over an unreadable record', () => {
    const refusal = (plan: ReturnType<typeof planWithdrawal>) => (plan.ok ? 'ok' : plan.reason.key.replace('osUpgrades.withdrawal.refusal.', ''));
    const withdrawn = channel({
      [WITHDRAWN_ANNOTATION]: JSON.stringify({
        'os-3': {
          reason: 'x', by: 'a', at: 'b'
        }
      })
    });

    expect(refusal(planWithdrawal(channel(), {
      kind: 'withdraw', versionName: 'os-3', reason: '  ', by: 'admin'
    }, VERSIONS, NOW))).toBe('reasonRequired');
    expect(refusal(planWithdrawal(channel(), {
      kind: 'restore', versionName: 'os-3', comment: '', by: 'admin'
    }, VERSIONS, NOW))).toBe('commentRequired');
    expect(refusal(planWithdrawal(withdrawn, {
      kind: 'withdraw', versionName: 'os-3', reason: 'again', by: 'admin'
    }, VERSIONS, NOW))).toBe('alreadyWithdrawn');
    expect(refusal(planWithdrawal(channel(), {
      kind: 'restore', versionName: 'os-3', comment: 'ok', by: 'admin'
    }, VERSIONS, NOW))).toBe('notWithdrawn');
    expect(refusal(planWithdrawal(channel(), {
      kind: 'withdraw', versionName: 'os-9', reason: 'r', by: 'admin'
    }, VERSIONS, NOW))).toBe('versionNotFound');
    expect(refusal(planWithdrawal(channel({ [WITHDRAWN_ANNOTATION]: '[oops' }), {
      kind: 'withdraw', versionName: 'os-3', reason: 'r', by: 'admin'
    }, VERSIONS, NOW))).toBe('unreadable');
    expect(refusal(planWithdrawal(channel(), {
      kind: 'withdraw', versionName: 'os-3', reason: 'r', by: ''
    }, VERSIONS, NOW))).toBe('approverRequired');
    expect(refusal(planWithdrawal(null, {
      kind: 'withdraw', versionName: 'os-3', reason: 'r', by: 'a'
    }, VERSIONS, NOW))).toBe('noChannel');
  });

  it('property: withdrawing then restoring gives back the same withdrawals', () => {
    fc.assert(fc.property(fc.subarray(['os-1', 'os-2', 'os-3'], { minLength: 1 }), fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''), (names, reason) => {
      let current: Record<string, unknown> = channel();

      for (const name of names) {
        const plan = planWithdrawal(current, {
          kind: 'withdraw', versionName: name, reason, by: 'admin'
        }, VERSIONS, NOW);

        expect(plan.ok).toBe(true);
        current = plan.ok ? plan.object : current;
      }
      expect(Object.keys(readWithdrawals(current).withdrawals).sort()).toEqual([...names].sort());
      expect(applyWithdrawals(VERSIONS, [current]).filter((v) => v.withdrawn).map((v) => v.name).sort()).toEqual([...names].sort());
      for (const name of names) {
        const plan = planWithdrawal(current, {
          kind: 'restore', versionName: name, comment: 'ok', by: 'admin'
        }, VERSIONS, NOW);

        current = plan.ok ? plan.object : current;
      }
      expect(readWithdrawals(current).withdrawals).toEqual({});
      expect(readHistory(current).entries.length).toBe(names.length * 2);
    }));
  });
});
