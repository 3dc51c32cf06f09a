/** @jest-environment node */
// The emulated system-upgrade-controller as a client of a real API server (a tiny fake one here):
// the Jobs it creates for a Plan within concurrency (rancher/system-upgrade-controller job.go,
// plan.go), the pods it binds as kube-scheduler would, and suc-upgrade's result applied to the
// node when a Job completes.
import http from 'http';
import { FakeHttpServer } from './fake-api-server';
import { RemoteControllerApi } from '../../emulator/real-stack/remote-api';
import { HARNESS_APPLIED, RealStackSuc, sucTypes } from '../../emulator/real-stack/real-suc';
import { KubeObject } from '../../emulator/kube/store';
import { EmulatedNode, NodeRegistry } from '../../emulator/suc/nodes';
import { planHash } from '../../emulator/suc/suc';

const PLANS = '/apis/upgrade.cattle.io/v1/plans';
const NODES = '/api/v1/nodes';
const JOBS = '/apis/batch/v1/jobs';
const PODS = '/api/v1/pods';
const IMAGE = 'registry.suse.com/suse/sl-micro/6.1/base-os-container';

function meta(name: string, extra: Record<string, unknown> = {}): KubeObject['metadata'] {
  return {
    name, uid: `uid-${ name }`, resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z', ...extra
  } as KubeObject['metadata'];
}

const planSpec = {
  concurrency:        1,
  version:            '2.2.1-4.1',
  serviceAccountName: 'os-upgrader',
  nodeSelector:       { matchLabels: { 'kubernetes.io/os': 'linux' } },
  upgrade:            { image: IMAGE, command: ['/usr/sbin/suc-upgrade'] },
};

/** The parts of job.go's Job spec the tests read. */
interface JobSpec {
  backoffLimit: number;
  template: { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: unknown[] } } }; containers: { image: string }[] } };
}

interface PodTemplated {
  backoffLimit: number;
  template: { metadata: { labels: Record<string, string>; annotations: Record<string, string> } };
}

const HASH = planHash({ name: 'os-upgrader-p', spec: planSpec }, '');

/** A fake API server: lists by collection, holds watches open, records every write. */
class FakeApiServer extends FakeHttpServer {
  readonly lists = new Map<string, KubeObject[]>([[PLANS, []], [NODES, []], [JOBS, []], [PODS, []]]);
  readonly writes: { method: string; path: string; contentType?: string; body: KubeObject }[] = [];

  protected answer(req: http.IncomingMessage, res: http.ServerResponse, body: KubeObject): void {
    const url = new URL(req.url ?? '/', 'http://x');

    res.setHeader('content-type', 'application/json');
    if (this.heldAsWatch(req, res, url)) {
      return;
    }
    if (req.method === 'GET') {
      res.end(JSON.stringify({ metadata: { resourceVersion: '1' }, items: this.lists.get(url.pathname) ?? [] }));

      return;
    }
    this.writes.push({
      method: req.method ?? '', path: url.pathname, contentType: req.headers['content-type'], body
    });
    if (req.method === 'DELETE') {
      res.end(JSON.stringify({ kind: 'Status', status: 'Success' }));

      return;
    }
    res.writeHead(req.method === 'POST' ? 201 : 200);
    res.end(JSON.stringify(req.method === 'PATCH' ? this.patched(url.pathname, body) : { ...body, metadata: { ...meta(body.metadata?.name ?? 'x'), ...body.metadata } }));
  }

  /** A merge patch's answer: the listed object with the patch's top-level fields over it. */
  private patched(path: string, body: KubeObject): KubeObject {
    const name = path.replace(/\/status$/, '').split('/').pop() ?? '';
    const found = [...this.lists.values()].flat().find((o) => o.metadata.name === name) ?? { metadata: meta(name) } as KubeObject;

    return {
      ...found, ...body, metadata: { ...found.metadata, ...body.metadata }
    };
  }
}

function node(name: string, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind:       'Node',
    metadata:   meta(name, {
      labels: {
        'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...labels
      }
    })
  };
}

function completedJob(nodeName: string): KubeObject {
  const labels = {
    'upgrade.cattle.io/controller':         'system-upgrade-controller',
    'upgrade.cattle.io/node':               nodeName,
    'upgrade.cattle.io/plan':               'os-upgrader-p',
    'upgrade.cattle.io/version':            '2.2.1-4.1',
    'plan.upgrade.cattle.io/os-upgrader-p': HASH
  };

  return {
    apiVersion: 'batch/v1',
    kind:       'Job',
    metadata:   meta(`apply-os-upgrader-p-on-${ nodeName }`, { namespace: 'cattle-system', labels }),
    spec:       {
      template: {
        spec: {
          containers: [{
            name: 'upgrade', image: `${ IMAGE }:2.2.1-4.1`, command: ['/usr/sbin/suc-upgrade'], env: []
          }]
        }
      }
    },
    status: { conditions: [{ type: 'Complete', status: 'True' }] },
  };
}

describe('RealStackSuc: the system-upgrade-controller on the real stack', () => {
  const types = sucTypes();
  let server: FakeApiServer;
  let api: RemoteControllerApi;
  let hosts: Map<string, EmulatedNode>;

  beforeEach(async() => {
    server = new FakeApiServer();
    await server.listen();
    server.lists.set(PLANS, [{
      apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', metadata: meta('os-upgrader-p', { namespace: 'cattle-system' }), spec: planSpec
    }]);
    server.lists.set(NODES, [node('edge-node-1'), node('edge-node-2'), node('other', { 'kubernetes.io/os': 'windows' })]);
    hosts = new Map(new NodeRegistry().ensure('fleet-default', 'edge', 2).map((h) => [h.name, h]));
    api = new RemoteControllerApi({ url: server.url, token: 'tok' }, types, ['upgrade.cattle.io.plan', 'node', 'batch.job', 'pod'].map((id) => types.require(id)));
  });
  async function reconcile(): Promise<void> {
    await api.start();
    await new RealStackSuc(api, types, hosts).reconcile();
  }

  afterEach(async() => {
    api.stop();
    await server.close();
  });

  it('creates the Job job.go makes for the first selected node only (concurrency 1), and writes the Plan\'s status', async() => {
    await reconcile();

    const jobs = server.writes.filter((w) => w.method === 'POST' && w.path === '/apis/batch/v1/namespaces/cattle-system/jobs');

    expect(jobs).toHaveLength(1);
    const job = jobs[0].body as KubeObject & { spec: JobSpec };

    // wrangler's SafeConcatName: cut to 63 characters with a hash of the whole name.
    expect(job.metadata.name).toMatch(/^apply-os-upgrader-p-on-edge-node-1-with-[0-9a-f]+-[0-9a-f]{5}$/);
    expect(job.metadata.name.length).toBeLessThanOrEqual(63);
    expect(job.metadata.labels).toEqual({
      'upgrade.cattle.io/controller':         'system-upgrade-controller',
      'upgrade.cattle.io/node':               'edge-node-1',
      'upgrade.cattle.io/plan':               'os-upgrader-p',
      'upgrade.cattle.io/version':            '2.2.1-4.1',
      'plan.upgrade.cattle.io/os-upgrader-p': HASH,
    });
    expect(job.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms)
      .toEqual([{
        matchExpressions: [{
          key: 'kubernetes.io/hostname', operator: 'In', values: ['edge-node-1']
        }]
      }]);
    expect(job.spec.template.spec.containers[0].image).toBe(`${ IMAGE }:2.2.1-4.1`);
    expect(job.spec).toMatchObject({ backoffLimit: 2, activeDeadlineSeconds: 600 });

    const status = server.writes.find((w) => w.path === '/apis/upgrade.cattle.io/v1/namespaces/cattle-system/plans/os-upgrader-p/status');

    expect(status?.contentType).toBe('application/merge-patch+json');
    expect(status?.body).toMatchObject({
      status: {
        latestHash: HASH, latestVersion: '2.2.1-4.1', applying: ['edge-node-1']
      }
    });
  });

  it('a node chosen to fail (POST /__emulator/nodes/fail) gets a Job whose pods kwok fails with the message, once', async() => {
    const host = hosts.get('edge-node-1') as EmulatedNode;

    host.failNext = 'suc-upgrade: disk full';
    await reconcile();

    const job = server.writes.find((w) => w.method === 'POST' && w.path === '/apis/batch/v1/namespaces/cattle-system/jobs')?.body as unknown as { spec: PodTemplated };
    const template = job.spec.template.metadata;

    expect(template.labels['pod-container-running-failed.stage.kwok.x-k8s.io']).toBe('true');
    expect(template.annotations['pod-container-running-failed.stage.kwok.x-k8s.io/message']).toBe('"suc-upgrade: disk full"');
    expect(job.spec).toMatchObject({ backoffLimit: 2 });
    expect(host.failNext).toBeUndefined();
  });

  it('stops kwok managing a node whose upgrade boots an image with a 64-character label, before its Job exists, as its kubelet would not start', async() => {
    server.lists.set(PLANS, [{
      apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', metadata: meta('os-upgrader-p', { namespace: 'cattle-system' }), spec: { ...planSpec, version: '2.2.0-3.12' }
    }]);
    await reconcile();

    const writes = server.writes.filter((w) => w.method !== 'PUT' && !w.path.endsWith('/status'));

    expect(writes.map((w) => `${ w.method } ${ w.path }`)).toEqual(['PATCH /api/v1/nodes/edge-node-1', 'POST /apis/batch/v1/namespaces/cattle-system/jobs']);
    expect(writes[0].body).toEqual({ metadata: { annotations: { 'kwok.x-k8s.io/node': null } } });
    expect(hosts.get('edge-node-1')).toMatchObject({ release: { tag: '2.2.0-3.12' }, kubeletStopped: expect.stringMatching(/^invalid node labels/) });
    expect(hosts.get('edge-node-1')?.labels['elemental.cattle.io/tag']).toBe('2.2.0-3.8');
  });

  it('a node whose Job failed keeps its place within concurrency: no Job for the next node (plan.go SelectConcurrentNodes)', async() => {
    const failed = completedJob('edge-node-1');

    failed.status = {
      conditions: [{
        type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded'
      }]
    };
    server.lists.set(JOBS, [failed]);
    await reconcile();

    expect(server.writes.filter((w) => w.method === 'POST')).toEqual([]);
  });

  it('creates no Job for a node that carries the Plan\'s hash already', async() => {
    server.lists.set(NODES, [node('edge-node-1', { 'plan.upgrade.cattle.io/os-upgrader-p': HASH }), node('edge-node-2', { 'plan.upgrade.cattle.io/os-upgrader-p': HASH })]);
    await reconcile();

    expect(server.writes.filter((w) => w.method === 'POST')).toEqual([]);
    expect(server.writes[0].body).toMatchObject({
      status: {
        conditions: expect.arrayContaining([expect.objectContaining({
          type: 'Complete', status: 'True', reason: 'Complete'
        })])
      }
    });
  });

  it('applies suc-upgrade\'s result when a Job completes: the new image\'s labels, the Plan\'s hash, uncordoned, the new osImage; the next node gets its Job', async() => {
    server.lists.set(JOBS, [completedJob('edge-node-1')]);
    await reconcile();

    const patches = server.writes.filter((w) => w.path === '/api/v1/nodes/edge-node-1' && w.method === 'PATCH').map((w) => w.body);

    // The k3s agent's patch at the boot, then the SUC's (handle_batch.go): two requests.
    expect(patches).toEqual([
      {
        metadata: {
          labels: {
            'elemental.cattle.io/image':          'registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.1-4.1',
            'elemental.cattle.io/tag':            '2.2.1-4.1',
            'plan.upgrade.cattle.io/os-upgrader': 'registry.suse.com-suse-sl-micro-6.1-base-os-container-2.2.1-4.1',
          }
        }
      },
      { metadata: { labels: { 'plan.upgrade.cattle.io/os-upgrader-p': HASH } }, spec: { unschedulable: null } },
    ]);
    expect(hosts.get('edge-node-1')?.release.tag).toBe('2.2.1-4.1');
    expect(server.writes.find((w) => w.path === '/api/v1/nodes/edge-node-1/status')?.body).toEqual({ status: { nodeInfo: { osImage: 'SUSE Linux Micro 6.1' } } });
    expect(server.writes.filter((w) => w.path.endsWith('/jobs')).map((w) => w.body.metadata.labels?.['upgrade.cattle.io/node'])).toEqual(['edge-node-2']);
  });

  it('leaves the node alone for a completed Job of a Plan that is gone (a previous run\'s), as handle_batch.go only deletes it', async() => {
    const leftover = completedJob('edge-node-1');

    leftover.metadata.labels = {
      ...leftover.metadata.labels, 'upgrade.cattle.io/plan': 'os-upgrader-gone', 'plan.upgrade.cattle.io/os-upgrader-gone': HASH
    };
    server.lists.set(JOBS, [leftover]);
    await reconcile();

    expect(server.writes.filter((w) => w.path.startsWith('/api/v1/nodes/'))).toEqual([]);
    expect(hosts.get('edge-node-1')?.release.tag).toBe('2.2.0-3.8');
  });

  it('binds a Job\'s pending pod to the node its affinity names, as kube-scheduler would', async() => {
    server.lists.set(PODS, [{
      apiVersion: 'v1', kind: 'Pod', metadata: meta('apply-x-abcde', { namespace: 'cattle-system', labels: { 'upgrade.cattle.io/node': 'edge-node-2' } }), spec: {}
    }]);
    await reconcile();

    expect(server.writes.find((w) => w.path === '/api/v1/namespaces/cattle-system/pods/apply-x-abcde/binding')?.body)
      .toMatchObject({ kind: 'Binding', target: { kind: 'Node', name: 'edge-node-2' } });
  });

  it('cordons the node a pod is bound to when its Plan cordons or drains, as job.go\'s init container would', async() => {
    const pod = (name: string, plan: string, node: string): KubeObject => ({
      apiVersion: 'v1', kind: 'Pod', metadata: meta(name, { namespace: 'cattle-system', labels: { 'upgrade.cattle.io/node': node, 'upgrade.cattle.io/plan': plan } }), spec: {}
    });

    server.lists.set(PLANS, [
      {
        apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', metadata: meta('os-upgrader-p', { namespace: 'cattle-system' }), spec: { ...planSpec, cordon: true }
      },
      {
        apiVersion: 'upgrade.cattle.io/v1', kind: 'Plan', metadata: meta('os-upgrader-q', { namespace: 'cattle-system' }), spec: planSpec
      },
    ]);
    server.lists.set(PODS, [pod('apply-p-abcde', 'os-upgrader-p', 'edge-node-1'), pod('apply-q-abcde', 'os-upgrader-q', 'edge-node-2')]);
    await reconcile();

    const nodePatches = server.writes.filter((w) => w.method === 'PATCH' && w.path.startsWith(`${ NODES }/`));

    expect(nodePatches).toEqual([expect.objectContaining({ path: `${ NODES }/edge-node-1`, body: { spec: { unschedulable: true } } })]);
  });

  describe('a finished Job kept until its TTL (handle_batch.go; rancher/wrangler v3 pkg/apply reconcileJob)', () => {
    const JOB_PATH = '/apis/batch/v1/namespaces/cattle-system/jobs/apply-os-upgrader-p-on-edge-node-1';

    /** node-1's Job from an earlier roll out of the hash, its result applied then; the node has moved on since. */
    function kept(completedAgo?: number): KubeObject {
      const job = completedJob('edge-node-1');

      job.metadata.annotations = { [HARNESS_APPLIED]: 'true' };
      job.spec = { ...job.spec as object, ttlSecondsAfterFinished: 900 };
      if (completedAgo !== undefined) {
        job.status = { ...job.status as object, completionTime: new Date(Date.now() - completedAgo).toISOString() };
      }
      server.lists.set(NODES, [node('edge-node-1', { 'plan.upgrade.cattle.io/os-upgrader-p': 'an-earlier-hash' })]);
      server.lists.set(JOBS, [job]);

      return job;
    }

    const notStatus = () => server.writes.filter((w) => !w.path.endsWith('/status'));

    it('replaces it when the Plan now builds its pod template differently (FORCE added): deleted, no new Job in the same pass', async() => {
      kept(60_000);
      server.lists.set(PLANS, [{
        apiVersion: 'upgrade.cattle.io/v1',
        kind:       'Plan',
        metadata:   meta('os-upgrader-p', { namespace: 'cattle-system' }),
        spec:       { ...planSpec, upgrade: { ...planSpec.upgrade, envs: [{ name: 'FORCE', value: 'true' }] } },
      }]);
      await reconcile();

      expect(notStatus().map((w) => `${ w.method } ${ w.path }`)).toEqual([`DELETE ${ JOB_PATH }`]);
    });

    it('leaves it when the template is the same: the node applies with nothing running', async() => {
      kept(60_000);
      await reconcile();

      expect(notStatus()).toEqual([]);
      expect(server.writes.find((w) => w.path.endsWith('/status'))?.body).toMatchObject({
        status: {
          applying:   ['edge-node-1'],
          conditions: expect.arrayContaining([expect.objectContaining({
            type: 'Complete', status: 'False', reason: 'SyncJob'
          })])
        }
      });
    });

    it('at its TTL marks its node with the hash for the Plan\'s current version, and deletes it', async() => {
      kept(901_000);
      await reconcile();

      expect(notStatus().map((w) => [`${ w.method } ${ w.path }`, w.body])).toEqual([
        ['PATCH /api/v1/nodes/edge-node-1', { metadata: { labels: { 'plan.upgrade.cattle.io/os-upgrader-p': HASH } }, spec: { unschedulable: null } }],
        [`DELETE ${ JOB_PATH }`, undefined],
      ]);
    });

    it('at the TTL of a Job kept for another version only deletes it', async() => {
      const job = kept(901_000);

      job.metadata.labels = { ...job.metadata.labels, 'upgrade.cattle.io/version': '2.2.1-3.1' };
      await reconcile();

      expect(notStatus().map((w) => `${ w.method } ${ w.path }`)).toEqual([`DELETE ${ JOB_PATH }`, 'POST /apis/batch/v1/namespaces/cattle-system/jobs']);
    });
  });
});
