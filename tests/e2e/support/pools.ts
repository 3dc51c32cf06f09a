// Pools in the specs: a pool's row on the pools page, and the pool as it is stored (read through
// the API with a Seed's admin session, or from the emulator's state with its control endpoints).

import { Locator, Page } from '@playwright/test';
import { EmulatorControl } from './emulator';
import { Seed } from './seed';
import { expect } from './test';
import { POOL_TYPE } from './names';

type Store = EmulatorControl | Seed;

/** The pools table's row of the pool `name` (found by its link, so a name inside another never matches). */
export function poolRow(page: Page, name: string): Locator {
  return page.getByTestId('pools-table').locator('tr', { has: page.getByRole('link', { name, exact: true }) });
}

/** The stored pool `name` (in any namespace), or undefined when none is stored. */
export async function findStoredPool(store: Store, name: string): Promise<Record<string, unknown> | undefined> {
  if (store instanceof Seed) {
    return (await store.list(POOL_TYPE)).find((pool) => (pool.metadata as { name?: string }).name === name);
  }

  return store.object(POOL_TYPE, name);
}

/** The stored pool `name` (in any namespace); fails the test when none is stored. */
export async function storedPool(store: Store, name: string): Promise<Record<string, unknown>> {
  const pool = await findStoredPool(store, name);

  expect(pool, `pool ${ name } is stored`).toBeTruthy();

  return pool as Record<string, unknown>;
}

/** The names of every stored pool. */
export async function storedPoolNames(store: Store): Promise<string[]> {
  const pools = store instanceof Seed ? await store.list(POOL_TYPE) : await store.objects(POOL_TYPE);

  return pools.map((pool) => (pool.metadata as { name: string }).name);
}
