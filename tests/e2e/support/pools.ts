// Pools in the specs: a pool's row on the pools page, and the pool as the emulator stores it.

import { Locator, Page } from '@playwright/test';
import { EmulatorControl } from './emulator';
import { expect } from './test';
import { POOL_TYPE } from './names';

/** The pools table's row of the pool `name` (found by its link, so a name inside another never matches). */
export function poolRow(page: Page, name: string): Locator {
  return page.getByTestId('pools-table').locator('tr', { has: page.getByRole('link', { name, exact: true }) });
}

/** The stored pool `name` (in any namespace), or undefined when none is stored. */
export async function findStoredPool(control: EmulatorControl, name: string): Promise<Record<string, unknown> | undefined> {
  return control.object(POOL_TYPE, name);
}

/** The stored pool `name` (in any namespace); fails the test when none is stored. */
export async function storedPool(control: EmulatorControl, name: string): Promise<Record<string, unknown>> {
  const pool = await findStoredPool(control, name);

  expect(pool, `pool ${ name } is stored`).toBeTruthy();

  return pool as Record<string, unknown>;
}

/** The names of every stored pool. */
export async function storedPoolNames(control: EmulatorControl): Promise<string[]> {
  return (await control.objects(POOL_TYPE)).map((pool) => (pool.metadata as { name: string }).name);
}
