// A user who may write workload pools in one namespace only (the emulator's `editor`, or on a real
// Rancher E2E_EDITOR_USER as scripts/e2e-rancher/users.sh creates it: update, create and delete
// ManagedOSImages in fleet-default). Steve puts PUT in the schema as soon as the user may update in
// any namespace; what they may do to one pool is in that pool's links. The page offers actions only
// where the links allow, and a write the server refuses anyway (the rights changed after the page
// read them) is a clear 403 message, with nothing lost. Seeds its pools through the API as the
// admin (support/seed.ts), so it runs on a real Rancher too.

import { field, sessionApi, steveUrl } from './support/api';
import { TEST_NAMESPACE } from './support/env';
import { dashboardPath, loginAs } from './support/login';
import { expect, test } from './support/test';
import { POOL_TYPE, POOLS } from './support/names';
import { poolRow } from './support/pools';
import { uniqueName, useSeed } from './support/seed';

/** A namespace the editor may read but not write (Fleet's workspace of the local cluster). */
const OTHER_NS = 'fleet-local';

const seed = useSeed();

test.describe('an editor of one namespace', () => {
  let own: string;
  let other: string;

  test.beforeEach(async() => {
    const pool = (name: string, namespace: string) => ({
      metadata: { name, namespace },
      spec:     { osImage: 'registry.example.test/e2e/os:1.0.0' },
    });

    own = uniqueName('e2e-editor-own');
    other = uniqueName('e2e-editor-other');
    await seed.create(POOL_TYPE, pool(own, TEST_NAMESPACE));
    await seed.create(POOL_TYPE, pool(other, OTHER_NS));
  });

  test('sees write actions only on the pools of the namespace they may write', async({ page }) => {
    await loginAs(page, 'editor');
    const api = sessionApi(page);

    expect(Object.keys(field((await api.get(steveUrl(POOL_TYPE, TEST_NAMESPACE, own))).body, 'links') as object)).toEqual(expect.arrayContaining(['update', 'remove', 'patch']));
    expect(field((await api.get(steveUrl(POOL_TYPE, OTHER_NS, other))).body, 'links.update')).toBeUndefined();

    await page.goto(dashboardPath(POOLS));
    const ownRow = poolRow(page, own);
    const otherRow = poolRow(page, other);

    await expect(ownRow.getByTestId(`pool-menu-${ own }`)).toBeVisible();
    await expect(otherRow).toBeVisible();
    await expect(otherRow.getByTestId(`pool-menu-${ other }`)).toHaveCount(0);
    await expect(otherRow.getByTestId('pool-read-only')).toBeVisible();
    await expect(page.getByTestId('pools-create')).toBeVisible();

    // The other namespace's pool: its page has no actions, its form is read-only.
    await otherRow.getByRole('link', { name: other, exact: true }).click();
    await expect(page.getByTestId('pool-detail-summary')).toBeVisible();
    await expect(page.getByTestId('pool-detail-approve')).toHaveCount(0);
    await expect(page.getByTestId(`pool-menu-${ other }`)).toHaveCount(0);
    await page.goto(dashboardPath(`${ POOLS }/${ OTHER_NS }/${ other }/edit`));
    await expect(page.getByTestId('pool-form-read-only')).toBeVisible();
    await expect(page.getByTestId('pool-save-async-button')).toHaveCount(0);
  });

  test('a write the server refuses in another namespace shows the 403 and keeps the input', async({ page }) => {
    await loginAs(page, 'editor');
    // The pool as the page read it says "you may update" (say, a RoleBinding removed since):
    // the form lets the editor try, and the server has the last word.
    await page.route(`**/v1/${ POOL_TYPE }s**`, async(route) => {
      if (route.request().method() !== 'GET') {
        return route.continue();
      }
      const response = await route.fetch();
      const body = await response.json() as { data?: Record<string, unknown>[] } & Record<string, unknown>;
      const grant = (object: Record<string, unknown>) => {
        const links = object.links as Record<string, string> | undefined;

        if (links?.self) {
          object.links = {
            ...links, update: links.self, patch: links.self
          };
        }
      };

      (body.data ?? [body]).forEach(grant);
      await route.fulfill({ response, json: body });
    });

    await page.goto(dashboardPath(`${ POOLS }/${ OTHER_NS }/${ other }/edit`));
    await page.getByTestId('btn-rollout').click();
    const concurrency = page.getByTestId('pool-concurrency');

    await expect(concurrency).toBeEditable();
    await concurrency.fill('3');
    await page.getByTestId('pool-save-async-button').click();

    const problem = page.getByTestId('pool-save-problem');

    await expect(problem).toContainText('403 Forbidden');
    await expect(problem).toContainText(OTHER_NS);
    await expect(problem).toContainText('Nothing was saved');
    await expect(concurrency).toHaveValue('3');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(field(await seed.get(POOL_TYPE, other, OTHER_NS), 'spec.concurrency')).not.toBe(3);
  });
});
