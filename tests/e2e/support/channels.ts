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

/** Entry `n` of a made-up channel: the container version `<prefix>-v1.0.<n>-os`, one hour newer per n. */
export function containerEntry(prefix: string, n: number, displayName = 'E2E OS'): ChannelEntry {
  return {
    metadata: { name: `${ prefix }-v1.0.${ n }-os` },
    spec:     {
      version:  `v1.0.${ n }`,
      type:     'container',
      metadata: {
        upgradeImage: `registry.example.test/e2e/os:1.0.${ n }`, displayName, platforms: ['linux/x86_64'], created: 1750000000 + n * 3600
      },
    },
  };
}
