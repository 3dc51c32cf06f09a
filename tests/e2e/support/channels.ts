// Channels in the specs: a channel's row on the channels page, and the seed's channel files.

import { readFileSync } from 'fs';
import { join } from 'path';
import { Locator, Page } from '@playwright/test';
import { ChannelEntry } from './emulator';

/** The channels table's row of the channel `name` (found by its link). */
export function channelRow(page: Page, name: string): Locator {
  return page.getByTestId('channels-table').locator('tr', { has: page.getByRole('link', { name, exact: true }) });
}

/** The entries of a seeded channel file (tests/fixtures/elemental/channels/<name>.json), to publish changed. */
export function seededChannelEntries(name: string): ChannelEntry[] {
  return JSON.parse(readFileSync(join(__dirname, '../../fixtures/elemental/channels', `${ name }.json`), 'utf8'));
}
