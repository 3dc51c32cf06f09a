// Issue 31: staged rollouts with Fleet's partitions. A person builds named stages from the pool's
// own targets in the Rollout tab and sees which cluster falls in which stage; the approval rolls out
// stage by stage on the pool page and the fleet overview; a cluster whose Fleet agent cannot apply
// the bundle halts the rollout, said in words with what to do. Seeds its channel and a pool on the
// demo's berlin clusters through the API (support/seed.ts), so it runs on a real Rancher that has
// them; the halt needs the emulator's control endpoints (/__emulator/fleet/apply-failure).

import { Page } from '@playwright/test';
import { field } from './support/api';
import { expectAccessible, expectTheme, useDarkTheme } from './support/a11y';
import { EMULATOR_TAG, requireEmulator } from './support/emulator';
import { TEST_NAMESPACE } from './support/env';
import { sidewaysScroll, tooWide } from './support/layout';
import { dashboardPath, loginAs } from './support/login';
import { FLEET, NS, POOLS } from './support/names';
import { storedPool } from './support/pools';
import {
  expectNodesOn, imageTag, needClusters, nodesRollOut, startNodesOn, withEmulator
} from './support/rollout-reach';
import { rollableEntries, useSeed } from './support/seed';
import { choose } from './support/select';
import { expect, test } from './support/test';

const BERLIN = ['edge-berlin-01', 'edge-berlin-02'];
const FIXTURE = 'sl-micro-6.1-base';
// 3.8 to 3.9: nodes booting the fixture's 3.12 never rejoin (its image label is 64 characters), so
// the channel here ends at 3.9 (support/seed.ts rollableEntries).
const OLD = 'base-v2.2.0-3.8-os';
const NEW = 'base-v2.2.0-3.9-os';

const seed = useSeed();

/**
 * A pool on the group berlin (edge-berlin-01 and -02), pinned to the base channel's older image with
 * the newer one on offer; where the clusters have Elemental nodes, they start on the older image and
 * have run the pool's first job. A stage is done once its nodes run the image
 * (domain/partition-progress.ts): without Elemental nodes the tests stop at the stored stages.
 */
async function berlinPool(): Promise<{ pool: string; newer: string; rollsOut: boolean }> {
  await needClusters(seed, BERLIN);
  const channel = await seed.channel({ fixture: FIXTURE, entries: rollableEntries(FIXTURE) });
  const rollsOut = await nodesRollOut(seed, BERLIN);

  if (rollsOut) {
    await startNodesOn(seed, channel, OLD, BERLIN);
  }
  const pool = await seed.pool('e2e-staged', { managedOSVersionName: channel.version(OLD), clusterTargets: [{ clusterGroup: 'berlin' }] }, { 'os-upgrades.cattle.io/image-selector': JSON.stringify({ channel: channel.name, version: '~2.2' }) });

  if (rollsOut) {
    await expectNodesOn(seed, BERLIN, imageTag(OLD), pool);
  }

  return {
    pool, newer: channel.version(NEW), rollsOut
  };
}

/** The pool (on the group berlin) in two stages of one cluster, one cluster at a time over the pool. */
async function buildStages(page: Page, pool: string, namespace = TEST_NAMESPACE): Promise<void> {
  await page.goto(dashboardPath(`${ POOLS }/${ namespace }/${ pool }/edit`));
  await page.getByTestId('btn-rollout').click();
  const section = page.getByTestId('rollout-stages');

  await section.getByText('Named stages', { exact: true }).click();
  await section.getByTestId('rollout-stage-add').click();
  await section.getByTestId('stage-name-0').fill('canary');
  await choose(page, 'stage-cluster-0', 'edge-berlin-01');

  const preview = page.getByTestId('rollout-preview');

  // One stage names only edge-berlin-01: the other targeted cluster would never be upgraded.
  await expect(preview.getByTestId('rollout-preview-unstaged')).toContainText('edge-berlin-02');
  await section.getByTestId('rollout-stage-add').click();
  await section.getByTestId('stage-name-1').fill('rest');
  await choose(page, 'stage-kind-1', 'Cluster group');
  await choose(page, 'stage-group-1', 'berlin');
  // edge-berlin-01 is in the group too: Fleet would count it in both stages.
  await expect(preview.getByTestId('rollout-preview-overlap')).toContainText('edge-berlin-01 matches more than one stage');
  await choose(page, 'stage-kind-1', 'Cluster');
  await choose(page, 'stage-cluster-1', 'edge-berlin-02');
  await section.getByTestId('rollout-max-unavailable').fill('1');

  await expect(preview.getByTestId('rollout-preview-stage-0')).toContainText('1. canary');
  await expect(preview.getByTestId('rollout-preview-stage-0')).toContainText('edge-berlin-01');
  await expect(preview.getByTestId('rollout-preview-stage-1')).toContainText('2. rest');
  await expect(preview.getByTestId('rollout-preview-stage-1')).toContainText('edge-berlin-02');
  await expect(preview.getByTestId('rollout-preview-unstaged')).toHaveCount(0);
  await expect(preview.getByTestId('rollout-preview-overlap')).toHaveCount(0);
  await expectAccessible(page, '[data-testid="rollout-stages"]');

  await page.getByTestId('pool-save-async-button').click();
  // Saved: the form goes back to the pools list.
  await expect(page).toHaveURL(/\/pools$/, { timeout: 20_000 });
  await page.goto(dashboardPath(`${ POOLS }/${ namespace }/${ pool }`));
}

async function approve(page: Page): Promise<void> {
  await page.getByTestId('pool-detail-approve').click();
  const dialog = page.getByTestId('approve-dialog');

  await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
  await dialog.getByTestId('approve-confirm-async-button').click();
  await expect(dialog).toHaveCount(0);
}


/** The stage states the page shows from now on, recorded as they change (read them with seenStages). */
async function recordStages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    const record = () => {
      const states = [...document.querySelectorAll('[data-testid^="staged-rollout-stage-"]')].map((e) => e.getAttribute('data-state')).join(',');

      if (states && seen[seen.length - 1] !== states) {
        seen.push(states);
      }
    };

    (window as unknown as { seenStages: string[] }).seenStages = seen;
    new MutationObserver(record).observe(document.body, {
      subtree: true, childList: true, attributes: true, attributeFilter: ['data-state']
    });
  });
}

async function seenStages(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { seenStages: string[] }).seenStages);
}

test.describe('staged rollouts', () => {
  test.setTimeout(180_000);

  test('stages built in the Rollout tab are stored, previewed, and advance one after the other', async({ page }) => {
    const { pool, newer, rollsOut } = await berlinPool();

    await loginAs(page, 'admin');
    await buildStages(page, pool);

    expect(field(await storedPool(seed, pool), 'spec.clusterRolloutStrategy')).toEqual({
      maxUnavailable: 1,
      partitions:     [{ name: 'canary', clusterName: 'edge-berlin-01' }, { name: 'rest', clusterName: 'edge-berlin-02' }],
    });
    if (!rollsOut) {
      return;
    }

    const staged = page.getByTestId('staged-rollout');

    await expect(staged.getByTestId('staged-rollout-message')).toHaveText('All 2 stages done.', { timeout: 45_000 });
    await recordStages(page);
    await approve(page);
    await expect(page.getByTestId('pool-pin')).toHaveText(newer);
    await expect(staged.getByTestId('staged-rollout-message')).toContainText('Stage canary is running', { timeout: 30_000 });
    await expect(staged.getByTestId('staged-rollout-message')).toHaveText('All 2 stages done.', { timeout: 90_000 });
    const seen = await seenStages(page);

    // Stage by stage: the canary is done while the rest still runs, never the other way round. (Fleet
    // starts the rest as soon as the canary cluster applied the Plan, not when its nodes finish: the
    // rest may run while the canary's nodes still upgrade.)
    expect(seen, seen.join(' / ')).toContain('done,running');
    expect(seen, seen.join(' / ')).not.toContain('running,done');
    expect(seen.some((states) => states.startsWith('waiting')), seen.join(' / ')).toBe(false);
    expect(seen[seen.length - 1]).toBe('done,done');
    await expectAccessible(page, '[data-testid="staged-rollout"]');

    await page.goto(dashboardPath(FLEET));
    await expect(page.getByTestId(`fleet-staged-${ pool }`)).toContainText('All 2 stages done.', { timeout: 45_000 });
  });

  test('a cluster whose agent cannot apply halts the rollout, said in words with what to do, at 1024 px in the dark theme too', { tag: EMULATOR_TAG }, async({ page }) => {
    requireEmulator('Fleet apply failures');
    const fits = async() => expect(await sidewaysScroll(page), `too wide: ${ (await tooWide(page)).join(', ') }`).toBeLessThanOrEqual(0);

    // The emulator's seed: the pool edge-berlin on the group berlin.
    await withEmulator(async(control) => {
      await page.setViewportSize({ width: 1024, height: 768 });
      await loginAs(page, 'admin');
      await useDarkTheme(page);
      await page.goto(dashboardPath(`${ POOLS }/${ NS }/edge-berlin`));
      await expectTheme(page, 'dark');
      await buildStages(page, 'edge-berlin', NS);
      await control.setApplyFailure('edge-berlin-01', true, 'the agent could not apply the bundle');
      await approve(page);

      const staged = page.getByTestId('staged-rollout');

      await expect(staged.getByTestId('staged-rollout-message')).toContainText('Halted at stage canary', { timeout: 45_000 });
      await expect(staged.getByTestId('staged-rollout-stage-0')).toHaveAttribute('data-state', 'halted');
      await expect(staged.getByTestId('staged-rollout-stage-1')).toHaveAttribute('data-state', 'waiting');
      const halt = staged.getByTestId('staged-rollout-halt');

      await expect(halt).toContainText('fleet-default/edge-berlin-01: ErrApplied, the agent could not apply the bundle');
      await expect(halt).toContainText('What to do:');
      await fits();
      // Below the fold at 1024 x 768: axe checks the contrast of text in view only.
      await staged.scrollIntoViewIfNeeded();
      await expectAccessible(page, '[data-testid="staged-rollout"]');

      await page.goto(dashboardPath(FLEET));
      const fleetStaged = page.getByTestId('fleet-staged-edge-berlin');

      await expect(fleetStaged).toContainText('Halted at stage canary', { timeout: 45_000 });
      await fits();
      await fleetStaged.scrollIntoViewIfNeeded();
      await expectAccessible(page, '[data-testid="fleet-staged-edge-berlin"]');

      // The agent applies again: the rollout goes on to the end.
      await control.setApplyFailure('edge-berlin-01', false);
      await expect(fleetStaged).toContainText('All 2 stages done.', { timeout: 90_000 });
    });
  });

  test('the stages, their preview and their progress fit 1024 px in the dark theme and pass axe', async({ page }) => {
    const fits = async() => expect(await sidewaysScroll(page), `too wide: ${ (await tooWide(page)).join(', ') }`).toBeLessThanOrEqual(0);
    const { pool, rollsOut } = await berlinPool();

    await page.setViewportSize({ width: 1024, height: 768 });
    await loginAs(page, 'admin');
    await useDarkTheme(page);
    await page.goto(dashboardPath(`${ POOLS }/${ TEST_NAMESPACE }/${ pool }`));
    await expectTheme(page, 'dark');
    // Builds the stages with the preview checked by axe on the way (buildStages).
    await buildStages(page, pool);
    await fits();
    await approve(page);
    const staged = page.getByTestId('staged-rollout');

    await expect(staged.getByTestId('staged-rollout-message')).toContainText(/Stage canary is running|All 2 stages done/, { timeout: 45_000 });
    await fits();
    await staged.scrollIntoViewIfNeeded();
    await expectAccessible(page, '[data-testid="staged-rollout"]');

    await page.goto(dashboardPath(FLEET));
    const fleetStaged = page.getByTestId(`fleet-staged-${ pool }`);

    await expect(fleetStaged).toContainText(rollsOut ? 'All 2 stages done.' : 'Stage canary is running', { timeout: 90_000 });
    await fits();
    await fleetStaged.scrollIntoViewIfNeeded();
    await expectAccessible(page, `[data-testid="fleet-staged-${ pool }"]`);
  });
});
