/** @jest-environment node */
/* global jest */
// A finished Job is kept until its TTL, and a Plan that comes back to its hash meets it: replaced
// when the pod template changed (FORCE added), left alone when it did not (tests/emulator/suc/suc.ts
// cites rancher/system-upgrade-controller and rancher/wrangler's apply).

import { NodeRegistry } from '../../emulator/suc/nodes';
import { PLAN_LABEL_PREFIX, PlanObject, SystemUpgradeControllers, planHash } from '../../emulator/suc/suc';

const NS = 'fleet-default';
const PLAN = 'os-upgrader-pool';
const TTL_MS = 900_000;

function plan(version: string, force = false): PlanObject {
  return {
    name: PLAN,
    spec: {
      version,
      concurrency:  1,
      cordon:       true,
      nodeSelector: {},
      upgrade:      { image: 'registry.example.test/os', ...(force ? { envs: [{ name: 'FORCE', value: 'true' }] } : {}) },
    },
  };
}

let now = 0;

function setup() {
  const nodes = new NodeRegistry();
  const [node] = nodes.ensure(NS, 'c1', 1, { repo: 'registry.example.test/os', tag: 'v1' });
  const suc = new SystemUpgradeControllers(nodes, { timeScale: 1 });
  const run = () => suc.runsOn(NS, 'c1')[0];
  /** Steps until no node is applying (each step one second later). */
  const settle = () => {
    suc.tick();
    for (let i = 0; i < 20 && run().applying.length; i++) {
      now += 1000;
      suc.tick();
    }
  };

  /** The node rolled out to v2, then to v3: both Jobs are kept. */
  const v2ThenV3 = () => {
    for (const version of ['v2', 'v3']) {
      suc.apply(NS, 'c1', plan(version), '');
      settle();
    }
  };

  return {
    suc, node, run, settle, v2ThenV3
  };
}

beforeEach(() => {
  now = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(() => jest.restoreAllMocks());

describe('finished Jobs', () => {
  it('are kept Complete until their TTL, then deleted', () => {
    const {
      suc, node, run, settle
    } = setup();

    suc.apply(NS, 'c1', plan('v2'), '');
    settle();

    expect(node.release.tag).toBe('v2');
    expect(run().jobs).toEqual([expect.objectContaining({
      node: node.name, version: 'v2', completed: expect.any(Number)
    })]);
    expect(run().applying).toEqual([]);
    expect(suc.progress(NS, 'c1', PLAN).complete).toBe(true);
    expect(suc.busy()).toBe(false);
    expect(suc.keeping()).toBe(true);

    now += TTL_MS;
    suc.tick();

    expect(run().jobs).toEqual([]);
    expect(suc.keeping()).toBe(false);
  });

  it('a forced roll back to a hash whose Job is kept replaces it (FORCE changed the template) and runs', () => {
    const {
      suc, node, run, settle, v2ThenV3
    } = setup();

    v2ThenV3();
    expect(node.release.tag).toBe('v3');

    suc.apply(NS, 'c1', plan('v2', true), '');
    suc.tick();
    // ErrReplace: the kept v2 Job is deleted; the node applies with nothing running for a pass.
    expect(run().applying).toEqual([node.name]);
    expect(run().jobs.filter((j) => j.version === 'v2')).toEqual([]);
    settle();

    expect(node.release.tag).toBe('v2');
    expect(node.labels[PLAN_LABEL_PREFIX + PLAN]).toBe(planHash(plan('v2'), ''));
    expect(suc.progress(NS, 'c1', PLAN).complete).toBe(true);
  });

  it('a re-approval to a hash whose Job is kept with the same template runs nothing, and the TTL marks the node anyway', () => {
    const {
      suc, node, run, settle, v2ThenV3
    } = setup();

    v2ThenV3();
    const v3Done = run().jobs.find((j) => j.version === 'v3')?.completed as number;

    suc.apply(NS, 'c1', plan('v2', true), '');
    settle();
    expect(node.release.tag).toBe('v2');

    suc.apply(NS, 'c1', plan('v3'), '');
    for (let i = 0; i < 5; i++) {
      now += 1000;
      suc.tick();
    }

    expect(run().applying).toEqual([node.name]);
    expect(run().jobs.filter((j) => j.completed === undefined)).toEqual([]);
    expect(node.release.tag).toBe('v2');
    expect(suc.progress(NS, 'c1', PLAN).complete).toBe(false);

    now = v3Done + TTL_MS;
    suc.tick();

    expect(node.labels[PLAN_LABEL_PREFIX + PLAN]).toBe(planHash(plan('v3'), ''));
    expect(node.release.tag).toBe('v2');
    expect(run().applying).toEqual([]);
    expect(suc.progress(NS, 'c1', PLAN).complete).toBe(true);
  });

  it('a Job kept for another version leaves the node alone at its TTL', () => {
    const {
      suc, node, run, v2ThenV3
    } = setup();

    v2ThenV3();
    const v2Done = run().jobs.find((j) => j.version === 'v2')?.completed as number;

    now = v2Done + TTL_MS;
    suc.tick();

    expect(run().jobs.map((j) => j.version)).toEqual(['v3']);
    expect(node.labels[PLAN_LABEL_PREFIX + PLAN]).toBe(planHash(plan('v3'), ''));
  });
});
