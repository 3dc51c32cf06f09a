/** @jest-environment node */
/* global jest */
// Two Plans on one node (overlapping pools): SUC creates both Jobs, and the second script waits on
// suc-upgrade's upgrade lock (tests/emulator/suc/suc.ts cites the sources).

import { NodeRegistry } from '../../emulator/suc/nodes';
import { LOCK_FAILURE_MESSAGE, PlanObject, SystemUpgradeControllers } from '../../emulator/suc/suc';

const NS = 'fleet-default';

function plan(name: string, version: string): PlanObject {
  return {
    name,
    spec: {
      version, concurrency: 1, cordon: true, nodeSelector: {}, upgrade: { image: 'registry.example.test/os' }
    },
  };
}

let now = 0;

function setup(): { suc: SystemUpgradeControllers; node: ReturnType<NodeRegistry['ensure']>[number] } {
  const nodes = new NodeRegistry();
  const [node] = nodes.ensure(NS, 'c1', 1, { repo: 'registry.example.test/os', tag: 'v1' });
  const suc = new SystemUpgradeControllers(nodes, { timeScale: 1 });

  suc.apply(NS, 'c1', plan('first', 'v2'), '');
  suc.apply(NS, 'c1', plan('second', 'v3'), '');

  return { suc, node };
}

/** The plan's Job that has not completed (a completed one is kept until its TTL). */
function jobOf(suc: SystemUpgradeControllers, planName: string) {
  return suc.runsOn(NS, 'c1').find((r) => r.plan.name === planName)?.jobs.find((j) => j.completed === undefined);
}

beforeEach(() => {
  now = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(() => jest.restoreAllMocks());

describe('two plans on one node', () => {
  it('creates both Jobs at once; the second waits on the lock while the node shows the first job', () => {
    const { suc, node } = setup();

    suc.tick();

    expect(jobOf(suc, 'first')?.lock).toBeUndefined();
    expect(jobOf(suc, 'second')?.lock).toEqual({ since: now, timeouts: 0 });
    expect(node.state).toBe('cordoned');
    suc.tick();
    expect(node.state).toBe('upgrading');
    expect(jobOf(suc, 'second')?.lock).toBeDefined();
  });

  it('lets the second script go on when the first job is done', () => {
    const { suc, node } = setup();

    suc.tick();
    for (let i = 0; i < 10 && jobOf(suc, 'first'); i++) {
      suc.tick();
    }
    expect(jobOf(suc, 'first')).toBeUndefined();
    expect(node.release.tag).toBe('v2');
    expect(jobOf(suc, 'second')?.lock).toBeUndefined();
    expect(node.state).toBe('upgrading');
    for (let i = 0; i < 10 && jobOf(suc, 'second'); i++) {
      suc.tick();
    }
    expect(node.release.tag).toBe('v3');
  });

  it('fails the waiting Job after three pods timed out on the lock, leaving the node to the first job', () => {
    const { suc, node } = setup();

    node.hangNext = 'pulling';
    suc.times.deadlineSeconds = 3600;
    suc.tick();
    suc.tick();
    for (const timeouts of [1, 2]) {
      now += 600_000;
      suc.tick();
      expect(jobOf(suc, 'second')?.lock?.timeouts).toBe(timeouts);
      expect(jobOf(suc, 'second')?.failure).toBeUndefined();
    }
    now += 599_000;
    suc.tick();
    expect(jobOf(suc, 'second')?.failure).toBeUndefined();
    now += 1000;
    suc.tick();

    expect(jobOf(suc, 'second')?.failure?.reason).toBe('BackoffLimitExceeded');
    expect(suc.progress(NS, 'c1', 'second').failed).toEqual({ node: node.name, message: LOCK_FAILURE_MESSAGE });
    expect(node.state).toBe('upgrading');
    expect(node.message).toBe('pulling');
  });

  it('fails the waiting Job at its deadline when that comes first', () => {
    const { suc } = setup();

    suc.tick();
    now += 600_000;
    suc.tick();

    expect(jobOf(suc, 'second')?.failure?.reason).toBe('DeadlineExceeded');
    expect(jobOf(suc, 'first')?.failure).toBeUndefined();
  });
});
