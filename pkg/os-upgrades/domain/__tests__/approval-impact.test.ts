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

  it('tells cordon, drain with force and delete-local-data, the node selector and concurrency', () => {
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
      cordon: true,
      drain:  {
        force: true, deleteLocalData: false, ignoreDaemonSets: true
      },
      concurrency:  2,
      nodeSelector: 'role=worker'
    });
    expect(approvalImpact(poolObject({ spec: { drain: null, cordon: false } }), CLUSTERS, []).drain).toBeUndefined();
    // No drain field: the CRD's default drains with force and delete-local-data.
    const spec = poolObject().spec as Record<string, unknown>;

    delete spec.drain;
    expect(approvalImpact({ ...poolObject(), spec }, CLUSTERS, []).drain).toEqual({
      force: true, deleteLocalData: true, ignoreDaemonSets: true
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
