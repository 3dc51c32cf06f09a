// Channels in the specs: a channel's row on the channels page, and the seed's channel files.

import { readFileSync } from 'fs';
import { join } from 'path';
import { Locator, Page } from '@playwright/test';
import { ChannelEntry } from './emulator';
import { BASE_CHANNEL } from './names';

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

/**
 * The seed's newest image of the base channel, and the one a test publishes after it: a 2.2.1 build,
 * whose node labels fit in 63 characters as those of 2.2.0-3.9 do (a node that boots the fixture's
 * 2.2.0-3.12 never rejoins: its image label is 64 characters), so the nodes can roll out to it.
 */
export const NEWEST_SEEDED = 'base-v2.2.0-3.12-os';
export const PUBLISHED = 'base-v2.2.1-1.1-os';
/** The tag of PUBLISHED's image, which a node that boots it carries. */
export const PUBLISHED_TAG = '2.2.1-1.1';

/** The base channel (by default as seeded) plus one newer container image (`PUBLISHED`), as its publisher would add it. */
export function baseChannelWithNewerImage(seeded = seededChannelEntries(BASE_CHANNEL)): ChannelEntry[] {
  const newest = seeded.find((entry) => entry.spec.type === 'container') as ChannelEntry;

  return [{
    metadata: { name: PUBLISHED },
    spec:     {
      ...newest.spec,
      version:  `v${ PUBLISHED_TAG }`,
      metadata: {
        ...newest.spec.metadata, upgradeImage: `registry.suse.com/suse/sl-micro/6.1/base-os-container:${ PUBLISHED_TAG }`, created: Math.floor(Date.now() / 1000) - 60
      },
    },
  }, ...seeded];
}
