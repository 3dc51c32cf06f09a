/** @jest-environment node */
/* global jest */
// A Job that has not finished is deleted with its Plan (the garbage collector: the Plan owns it) or,
// when the Plan moves to another version, at its next change (handle_batch.go); only a completed Job
// uncordons its node (tests/emulator/suc/suc.ts cites rancher/system-upgrade-controller, rancher/wrangler
// and rancher/elemental's suc-upgrade).

import { NodeRegistry } from '../../emulator/suc/nodes';
import { PLAN_LABEL_PREFIX, PlanObject, SystemUpgradeControllers } from '../../emulator/suc/suc';

const NS = 'fleet-default';
const PLAN = 'os-upgrader-pool';
const IMAGE = 'registry.example.test/os';

function plan(version: string, cordon = true): PlanObject {
  return {
    name: PLAN,
    spec: {
      version, concurrency: 1, cordon, nodeSelector: {}, upgrade: { image: IMAGE }
    },
  };
}

let now = 0;

function setup() {
  const nodes = new NodeRegistry();
  const [node] = nodes.ensure(NS, 'c1', 1, { repo: IMAGE, tag: 'v1' });
  const suc = new SystemUpgradeControllers(nodes, { timeScale: 1 });
  const step = () => {
    now += 1000;
    suc.tick();
  };
  /** Steps until the node is in `state` (at most 10 steps). */
  const stepUntil = (state: string) => {
    for (let i = 0; i < 10 && node.state !== state; i++) {
      step();
    }
    expect(node.state).toBe(state);
  };
  const settle = () => {
    for (let i = 0; i < 20 && suc.busy(); i++) {
      step();
    }
  };

  return {
    suc, node, step, stepUntil, settle
  };
}

beforeEach(() => {
  now = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
});

afterEach(() => jest.restoreAllMocks());

/** The Plan applied, then removed once its Job brought the node to `state`. */
function removedWhen(state: string) {
  const context = setup();

  context.suc.apply(NS, 'c1', plan('v2'), '');
  context.stepUntil(state);
  context.suc.remove(NS, 'c1', PLAN);

  return context;
}

describe('a Plan removed while its Job runs', () => {
  it('takes its Job with it at once; a node cordoned for it stays cordoned, on its OS', () => {
    const { suc, node } = removedWhen('cordoned');

    expect(suc.runsOn(NS, 'c1')).toEqual([]);
    expect(node.release.tag).toBe('v1');
    expect(node.state).toBe('idle');
    expect(node.unschedulable).toBe(true);
    expect(suc.busy()).toBe(false);
  });

  it('kills a script that has not rebooted the host: the host keeps its OS', () => {
    const { suc, node, step } = removedWhen('upgrading');

    step();

    expect(suc.runsOn(NS, 'c1')).toEqual([]);
    expect(node.release.tag).toBe('v1');
    expect(node.unschedulable).toBe(true);
  });

  it('cannot stop a host going down after the script\'s reboot: it boots the new image, without the Plan\'s hash', () => {
    const { suc, node } = removedWhen('rebooting');

    expect(suc.runsOn(NS, 'c1')).toEqual([]);
    expect(node.release.tag).toBe('v2');
    expect(node.labels['elemental.cattle.io/tag']).toBe('v2');
    expect(node.state).toBe('idle');
    expect(node.unschedulable).toBe(true);
    expect(node.labels[PLAN_LABEL_PREFIX + PLAN]).toBeUndefined();
  });
});

describe('a Plan moved to another version while its Job runs', () => {
  it('deletes that Job and runs one for the new version, which uncordons the node', () => {
    const {
      suc, node, step, stepUntil, settle
    } = setup();

    suc.apply(NS, 'c1', plan('v2'), '');
    stepUntil('rebooting');
    suc.apply(NS, 'c1', plan('v3'), '');
    step();

    const jobs = suc.runsOn(NS, 'c1')[0].jobs;

    // The v2 Job is deleted once its host is back from the reboot (v2 booted); the v3 one follows.
    expect(jobs.map((job) => job.version)).toEqual(['v3']);
    expect(node.release.tag).toBe('v2');
    settle();

    expect(node.release.tag).toBe('v3');
    expect(node.unschedulable).toBe(false);
  });
});

describe('cordoning', () => {
  it('lasts from the Job\'s start until it completes', () => {
    const { suc, node, settle } = setup();

    suc.apply(NS, 'c1', plan('v2'), '');
    suc.tick();

    expect(node.unschedulable).toBe(true);
    settle();

    expect(node.release.tag).toBe('v2');
    expect(node.unschedulable).toBe(false);
  });

  it('is not undone by a completed Job of a Plan that does not cordon', () => {
    const {
      suc, node, stepUntil, settle
    } = setup();

    suc.apply(NS, 'c1', plan('v2'), '');
    stepUntil('upgrading');
    suc.remove(NS, 'c1', PLAN);
    suc.apply(NS, 'c1', plan('v3', false), '');
    settle();

    expect(node.release.tag).toBe('v3');
    expect(node.unschedulable).toBe(true);
  });
});
