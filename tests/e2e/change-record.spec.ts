// Issue 31: the change record of an approval, downloaded from the pool's page as Markdown and as
// JSON, holds the object change the pool stores and the advisories and package changes the compare
// page shows for the same two images; a changelog that cannot be read is named in it. Seeds its
// channel (with the fixtures' changelogs and package lists) and pool through the API
// (support/seed.ts), so it runs on a real Rancher too.

import { readFile } from 'fs/promises';
import { Download, Page } from '@playwright/test';
import { field } from './support/api';
import { expectAccessible, expectTheme, useDarkTheme, useLanguage } from './support/a11y';
import { sidewaysScroll } from './support/layout';
import { dashboardPath, loginAs } from './support/login';
import { CHANNELS, POOLS } from './support/names';
import { ChannelOptions, SeededChannel, useSeed } from './support/seed';
import { TEST_NAMESPACE as NS } from './support/env';
import { storedPool } from './support/pools';
import { expect, test } from './support/test';

const FIXTURE_OLD = 'base-v2.2.0-3.9-os';
const FIXTURE_NEW = 'base-v2.2.0-3.12-os';
const NO_CLUSTER = [{ clusterSelector: { matchLabels: { 'os-upgrades.cattle.io/e2e': 'no-such-cluster' } } }];
const COMMENT = 'CHG-4711: kernel fix, agreed with the site lead';

const seed = useSeed();
let channel: SeededChannel;
let POOL: string;
let OLD: string;
let NEW: string;

/**
 * The base channel and a pool pinned to its older image, the newer one on offer. The pool's selector
 * matches no cluster: the record is what is tested, and a node that boots 3.12 never rejoins (its
 * image label is 64 characters).
 */
async function seedPool(files?: ChannelOptions['files']): Promise<void> {
  channel = await seed.channel({ fixture: 'sl-micro-6.1-base', files });

  OLD = channel.version(FIXTURE_OLD);
  NEW = channel.version(FIXTURE_NEW);
  POOL = await seed.pool('e2e-record', { managedOSVersionName: OLD, clusterTargets: NO_CLUSTER }, { 'os-upgrades.cattle.io/image-selector': JSON.stringify({ channel: channel.name, version: '~2.2' }) });
}

async function downloaded(page: Page, press: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), press()]) as [Download, void];

  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

async function approveWithComment(page: Page): Promise<void> {
  await page.goto(dashboardPath(`${ POOLS }/${ NS }/${ POOL }`));
  await page.getByTestId('pool-detail-approve').click();
  const dialog = page.getByTestId('approve-dialog');

  await dialog.getByTestId('approve-comment').fill(COMMENT);
  await expect(dialog.getByTestId('approve-confirm-async-button')).toHaveClass(/ready-for-action/, { timeout: 10_000 });
  await dialog.getByTestId('approve-confirm-async-button').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('pool-history-entry')).toHaveCount(1);
}

const count = async(page: Page, kind: string) => Number(await page.getByTestId(`package-count-${ kind }`).locator('.count').innerText());

test('an approval\'s change record matches the stored pool and the compare page', async({ page, problems }) => {
  await seedPool();
  await loginAs(page, 'admin');
  await approveWithComment(page);
  const entry = page.getByTestId('pool-history-entry');

  // By keyboard: the entry's JSON button is reached with Tab from its Markdown button.
  const json = await downloaded(page, async() => {
    await entry.getByTestId('change-record-markdown').focus();
    await page.keyboard.press('Tab');
    await expect(entry.getByTestId('change-record-json')).toBeFocused();
    await page.keyboard.press('Enter');
  });
  const record = JSON.parse(json.text);

  expect(json.name).toMatch(new RegExp(`^change-record-${ NS }-${ POOL }-\\d+.*\\.json$`));

  // The object change is what the pool stores: read through the API as the dashboard reads it.
  const stored = await storedPool(seed, POOL);
  const annotations = field(stored, 'metadata.annotations') as Record<string, string>;
  const history = JSON.parse(annotations['os-upgrades.cattle.io/history']);

  expect(record.objectChange).toEqual({ state: 'read', changes: history[history.length - 1].changes });
  expect(record.objectChange.changes).toContainEqual({
    field: 'managedOSVersionName', before: OLD, after: NEW
  });
  expect(field(stored, 'spec.managedOSVersionName')).toBe(NEW);
  expect(record.to.image).toBe(annotations['os-upgrades.cattle.io/approved-image']);
  expect(record.targets).toEqual(field(stored, 'spec.clusterTargets') ?? null);
  expect(record.check).toEqual({ differences: [], laterMoves: 0 });
  expect(record.approval).toMatchObject({ by: expect.any(String), comment: COMMENT });
  expect(record.from.version).toBe(OLD);
  expect(record.to.version).toBe(NEW);

  const markdown = await downloaded(page, () => page.getByTestId('pool-title-bar').getByTestId('change-record-markdown').click());

  expect(markdown.name).toMatch(/\.md$/);
  expect(markdown.text).toContain(`# Change record: approval of an upgrade of ${ NS }/${ POOL }`);
  expect(markdown.text).toContain(`> CHG-4711: kernel fix, agreed with the site lead`);
  expect(markdown.text).toContain('## Object change');
  expect(markdown.text).toContain('The pool as stored now holds what this record says was written.');

  // Away from the button just clicked: the shell's own hover colour of a secondary button is not this page's.
  await page.mouse.move(0, 0);
  await expectAccessible(page, '.pool-page');

  // The compare page for the same two images shows the same advisories and package changes.
  await page.goto(dashboardPath(`${ CHANNELS }/${ NS }/${ channel.name }/compare?old=${ OLD }&new=${ NEW }`));
  await expect(page.getByTestId('package-diff')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('severity-summary')).toBeVisible();
  const shownIds = await page.getByTestId('advisories').getByTestId('advisory').locator('.advisory-id').allInnerTexts();

  expect(record.advisories.state).toBe('read');
  expect(record.advisories.advisories.map((a: { id: string }) => a.id).sort()).toEqual([...shownIds].sort());
  expect(shownIds.length).toBeGreaterThan(0);
  for (const advisory of record.advisories.advisories) {
    expect(markdown.text).toContain(advisory.id);
  }
  expect(record.packages.state).toBe('read');
  for (const kind of ['upgraded', 'downgraded', 'added', 'removed']) {
    expect(record.packages.changes[kind].length, kind).toBe(await count(page, kind));
  }
  expect(record.packages.unchanged).toBe(await count(page, 'unchanged'));
  expect(record.packages.changes.upgraded).toContainEqual({
    name: 'kernel-default', arch: 'x86_64', from: '6.4.0-1.2', to: '6.4.0-1.3'
  });
  expect(problems.pageErrors).toEqual([]);
});

test('a changelog that cannot be read is named in the record, not left out', async({ page }) => {
  // The file host serves the newer image's update log broken (not JSON), as a misconfigured web server might.
  await seedPool({ [FIXTURE_NEW]: { log: 'this is not an update log' } });
  await loginAs(page, 'admin');
  await approveWithComment(page);

  const json = await downloaded(page, () => page.getByTestId('pool-history-entry').getByTestId('change-record-json').click());
  const record = JSON.parse(json.text);

  expect(record.advisories.state).toBe('read');
  expect(record.advisories.gaps).toEqual([expect.objectContaining({ reason: expect.objectContaining({ key: 'osUpgrades.changeRecord.problem.logError', text: `The changelog of ${ NEW } could not be read` }) })]);
  // The package lists were readable: the package changes are there all the same.
  expect(record.packages.state).toBe('read');

  const markdown = await downloaded(page, () => page.getByTestId('pool-history-entry').getByTestId('change-record-markdown').click());

  expect(markdown.text).toContain(`⚠ The changelog of ${ NEW } could not be read`);
});

test.describe('in Chinese, dark, at 1024 px', () => {
  test.afterEach(async({ page }) => {
    await useLanguage(page, 'en-us');
  });

  test('the record\'s headings are in the person\'s language, and its buttons fit and read', async({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await loginAs(page, 'admin');
    await useDarkTheme(page);
    await useLanguage(page, 'zh-hans');
    await seedPool();
    await approveWithComment(page);
    await expectTheme(page, 'dark');

    const markdown = await downloaded(page, () => page.getByTestId('pool-history-entry').getByTestId('change-record-markdown').click());

    expect(markdown.text).toContain(`# 变更记录：${ NS }/${ POOL } 的升级批准`);
    expect(markdown.text).toContain('## 对象变更');
    expect(markdown.text).toContain('## 交付的公告和 CVE');

    await page.mouse.move(0, 0);
    expect(await sidewaysScroll(page)).toBe(0);
    // The header and the history, which hold the record's buttons: the shell's SortableTable of the
    // nodes translates its aria-sort value ("无") in Chinese, which axe rejects, and is not this feature's.
    for (const part of [page.getByTestId('pool-title-bar'), page.getByTestId('pool-history')]) {
      await part.scrollIntoViewIfNeeded();
      await expectAccessible(page, `[data-testid="${ await part.getAttribute('data-testid') }"]`);
    }
  });
});
