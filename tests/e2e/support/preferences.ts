// The logged-in user's preferences (theme, language), written as the preferences page writes them,
// and put back after the test: on a real Rancher nothing resets them, so a test that turned the
// admin dark would otherwise leave the next test dark too.

import { expect, Page } from '@playwright/test';
import { sessionApi } from './api';

type Stored = { id: string; data?: Record<string, string> };

/** What each page's test changed: the preference and its value before. */
const changed = new WeakMap<Page, Map<string, string | undefined>>();

async function readPreferences(page: Page): Promise<Stored | undefined> {
  return ((await sessionApi(page).get('/v1/userpreferences')).body.data as Stored[] | undefined)?.[0];
}

/** Writes one of the logged-in user's preferences (JSON-encoded, as the shell stores them). */
export async function setPreference(page: Page, key: string, value: string): Promise<void> {
  // Right after a login the session may not answer yet (seen once in real Rancher mode): read again.
  await expect.poll(() => readPreferences(page), { message: 'the logged-in user has a preferences object' }).toBeTruthy();
  const stored = await readPreferences(page);
  const before = changed.get(page) ?? new Map<string, string | undefined>();

  if (!before.has(key)) {
    before.set(key, stored?.data?.[key]);
  }
  changed.set(page, before);
  const written = await sessionApi(page).put(`/v1/userpreferences/${ stored?.id }`, { ...stored, data: { ...stored?.data, [key]: JSON.stringify(value) } });

  expect(written.status).toBe(200);
}

/** Puts back what the test's setPreference calls changed (with the page's session, while it lasts). */
export async function restorePreferences(page: Page): Promise<void> {
  const before = changed.get(page);

  changed.delete(page);
  if (!before) {
    return;
  }
  const stored = await readPreferences(page);

  if (!stored) {
    return;
  }
  const data = { ...stored.data };

  for (const [key, value] of before) {
    if (value === undefined) {
      delete data[key];
    } else {
      data[key] = value;
    }
  }
  await sessionApi(page).put(`/v1/userpreferences/${ stored.id }`, { ...stored, data });
}
