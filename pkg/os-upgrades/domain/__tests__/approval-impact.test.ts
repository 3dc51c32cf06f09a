import {
  APPROVAL_COMMENT_ANNOTATION, APPROVED_AT_ANNOTATION, approvalImpact, planPoolWrite, toFleetCluster, withApprovalTimeShownAs
} from '..';
import {
  MID, NOW, OLD, poolObject, VERSIONS
} from './pool-test-data';

function cluster(name: string, labels: Record<string, string>, readyNodes?: string) {
  return toFleetCluster({
    metadata: {
      name, namespace: 'fleet-default', labels
    },
    status: readyNodes ? { display: { readyNodes } } : {}
  });
}

const CLUSTERS = [cluster('edge-1', { site: 'a' }, '3/3'), cluster('edge-2', { site: 'a' }, '1/2'), cluster('edge-3', { site: 'b' })];

describe('what an approval does to machines', () => {
  it('names the targeted clusters and counts their nodes', () => {
    const impact = approvalImpact(poolObject({ spec: { clusterTargets: [{ clusterSelector: { matchLabels: { site: 'a' } } }, { clusterName: 'edge-3' }] } }), CLUSTERS, []);

    expect(impact.clusters).toEqual([{ name: 'edge-1', nodes: 3 }, { name: 'edge-2', nodes: 2 }, { name: 'edge-3' }]);
    expect(impact.knownNodes).toBe(5);
    expect(impact.unknownClusters).toBe(1);
    expect(impact.reboot).toBe(true);
  });

  it('tells cordon, drain with force and delete-local-data, the node selector and concurrency the pool sets', () => {
    const drained = approvalImpact(poolObject({
      spec: {
        cordon: true,
        drain:  {
          force: true, deleteLocalData: false, ignoreDaemonSets: true
        },
        concurrency:  2,
        nodeSelector: { matchLabels: { role: 'worker' } }
      }
    }), CLUSTERS, []);

    expect(drained).toMatchObject({
      cordon:       true,
      cordonSource: 'pool',
      drain:        {
        force: true, deleteLocalData: false, ignoreDaemonSets: true, sucDefaults: []
      },
      drainSource:       'pool',
      concurrency:       2,
      concurrencySource: 'pool',
      nodeSelector:      'role=worker'
    });
    const undrained = approvalImpact(poolObject({ spec: { drain: null, cordon: false } }), CLUSTERS, []);

    expect(undrained).toMatchObject({
      cordon: false, cordonSource: 'pool', drainSource: 'pool'
    });
    expect(undrained.drain).toBeUndefined();
  });

  function withoutSpec(...fields: string[]) {
    const object = poolObject();
    const spec = { ...(object.spec as Record<string, unknown>) };

    fields.forEach((f) => delete spec[f]);

    return { ...object, spec };
  }

  it('cordons a pool without cordon: the operator defaults it to true', () => {
    const impact = approvalImpact(withoutSpec('cordon'), CLUSTERS, []);

    expect(impact.cordon).toBe(true);
    expect(impact.cordonSource).toBe('operatorDefault');
    expect(approvalImpact(poolObject({ spec: { cordon: null } }), CLUSTERS, []).cordonSource).toBe('operatorDefault');
  });

  it('drains a pool without drain with the CRD default: force, delete local data, ignore DaemonSets, skip after 60 s', () => {
    const impact = approvalImpact(withoutSpec('drain'), CLUSTERS, []);

    expect(impact.drain).toEqual({
      force: true, deleteLocalData: true, ignoreDaemonSets: true, skipWaitForDeleteTimeout: 60, sucDefaults: []
    });
    expect(impact.drainSource).toBe('crdDefault');
    // As the API server stores it after filling in the default.
    const filled = approvalImpact(poolObject({
      spec: {
        drain: {
          force: true, skipWaitForDeleteTimeout: 60, ignoreDaemonSets: true, deleteLocalData: true
        }
      }
    }), CLUSTERS, []);

    expect(filled.drainSource).toBe('crdDefault');
    expect(filled.drain).toEqual(impact.drain);
  });

  it('runs one node at a time when the pool sets no concurrency: the operator default', () => {
    const impact = approvalImpact(withoutSpec('concurrency'), CLUSTERS, []);

    expect(impact.concurrency).toBe(1);
    expect(impact.concurrencySource).toBe('operatorDefault');
  });

  it('says a drained node is cordoned even when the pool sets cordon: false', () => {
    const impact = approvalImpact(poolObject({ spec: { cordon: false, drain: { force: false } } }), CLUSTERS, []);

    expect(impact.cordon).toBe(true);
    expect(impact.cordonSource).toBe('drain');
  });

  it('applies the system-upgrade-controller defaults to the drain options a pool leaves out', () => {
    const impact = approvalImpact(poolObject({ spec: { drain: { force: false } } }), CLUSTERS, []);

    expect(impact.drain).toEqual({
      force: false, deleteLocalData: true, ignoreDaemonSets: true, sucDefaults: ['ignoreDaemonSets', 'deleteLocalData']
    });
    const set = approvalImpact(poolObject({
      spec: {
        drain: {
          ignoreDaemonSets: false, deleteEmptydirData: false, skipWaitForDeleteTimeout: 30
        }
      }
    }), CLUSTERS, []);

    expect(set.drain).toEqual({
      force: false, deleteLocalData: false, ignoreDaemonSets: false, skipWaitForDeleteTimeout: 30, sucDefaults: []
    });
  });

  it('shows approved-at as the time of the click, and leaves objects without it alone', () => {
    const object = poolObject({ annotations: { [APPROVED_AT_ANNOTATION]: '2026-01-01T00:00:00Z' } });
    const shown = withApprovalTimeShownAs(object, 'the time you approve') as { metadata: { annotations: Record<string, string> } };

    expect(shown.metadata.annotations[APPROVED_AT_ANNOTATION]).toBe('the time you approve');
    expect((object.metadata as { annotations: Record<string, string> }).annotations[APPROVED_AT_ANNOTATION]).toBe('2026-01-01T00:00:00Z');
    const plain = poolObject();

    expect(withApprovalTimeShownAs(plain, 'x')).toBe(plain);
  });
});

describe('the approval comment', () => {
  const pool = poolObject({ pin: OLD.name, annotations: { [APPROVAL_COMMENT_ANNOTATION]: 'old reason' } });

  it('is stored with the approval, and an approval without one removes the older comment', () => {
    const withComment = planPoolWrite(pool, {
      kind: 'approve', versionName: MID.name, expectedPin: OLD.name, approvedBy: 'admin', comment: '  CVE-2026-1 fix  '
    }, VERSIONS, NOW);
    const without = planPoolWrite(pool, {
      kind: 'approve', versionName: MID.name, expectedPin: OLD.name, approvedBy: 'admin'
    }, VERSIONS, NOW);
    const annotations = (plan: typeof withComment) => (plan.ok ? (plan.object.metadata as { annotations: Record<string, string> }).annotations : {});

    expect(annotations(withComment)[APPROVAL_COMMENT_ANNOTATION]).toBe('CVE-2026-1 fix');
    expect(annotations(without)[APPROVAL_COMMENT_ANNOTATION]).toBeUndefined();
  });

  it('refuses a comment over the limit', () => {
    const plan = planPoolWrite(pool, {
      kind: 'approve', versionName: MID.name, expectedPin: OLD.name, approvedBy: 'admin', comment: 'x'.repeat(1001)
    }, VERSIONS, NOW);

    expect(!plan.ok && plan.reason.key).toBe('osUpgrades.pool.refusal.commentTooLong');
  });
});
