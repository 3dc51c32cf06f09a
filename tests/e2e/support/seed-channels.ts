// Channels as the channel and changelog specs need them, on top of support/seed.ts: a channel's
// pages by its run-unique name, its changelog annotations changed as an administrator would
// (Steve, the admin's session), a package tar beside its files, a raw (even broken) channel file,
// the 600-version scale channel, and a changelog host of the spec's own that can be slow or fail.
// All of it works on a real Rancher: a changelog host is any web server an administrator allows
// (setting os-upgrades-changelog-origins), and the browser, not Rancher, fetches from it.

import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { promises as fs, writeFileSync } from 'fs';
import { join, normalize } from 'path';
import { packTar } from 'modern-tar';
import { test } from '@playwright/test';
import { scaleChannel } from '../../emulator/data/scale-channel';
import { ChannelEntry } from './emulator';
import { CHANNEL_TYPE, CHANNELS } from './names';
import { filesUrl, Seed, SeededChannel } from './seed';

export const CHANGELOG_URL_ANNOTATION = 'os-upgrades.cattle.io/changelog-url';
export const PACKAGES_TAR_ANNOTATION = 'os-upgrades.cattle.io/packages-tar-url';

/** The channel's page (a path for dashboardPath). */
export function channelPage(channel: SeededChannel): string {
  return `${ CHANNELS }/${ channel.namespace }/${ channel.name }`;
}

/** The compare page of two of the channel's versions, by their fixture names. */
export function comparePage(channel: SeededChannel, oldFixture: string, newFixture: string): string {
  return `${ channelPage(channel) }/compare?old=${ channel.version(oldFixture) }&new=${ channel.version(newFixture) }`;
}

/** `text` as a RegExp source matching it literally. */
export function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Sets (a string) or removes (undefined) annotations of a seeded channel, as an administrator edits them. */
export async function annotateChannel(seed: Seed, channel: SeededChannel, changes: Record<string, string | undefined>): Promise<void> {
  await seed.update(CHANNEL_TYPE, channel.name, (object) => {
    const metadata = object.metadata as { annotations?: Record<string, string> };
    const annotations = { ...metadata.annotations };

    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) {
        delete annotations[key];
      } else {
        annotations[key] = value;
      }
    }
    metadata.annotations = annotations;
  }, channel.namespace);
}

/** No changelog annotations: the pages ask the operator's default path (/elemental/changelog/…). */
export function useDefaultChangelogPath(seed: Seed, channel: SeededChannel): Promise<void> {
  return annotateChannel(seed, channel, { [CHANGELOG_URL_ANNOTATION]: undefined, [PACKAGES_TAR_ANNOTATION]: undefined });
}

/**
 * Puts the channel's package lists into one tar on the file host (the layout of
 * rancher/elemental-channels `channels/<channel>.packages.tar`: one `<version>.packages` per image)
 * and names it on the channel. Returns the tar's path on the file host.
 */
export async function publishPackagesTar(seed: Seed, channel: SeededChannel): Promise<string> {
  const names = (await fs.readdir(channel.folder)).filter((file) => file.endsWith('.packages'));
  const encoder = new TextEncoder();
  const entries = await Promise.all(names.map(async(name) => {
    const body = encoder.encode(await fs.readFile(join(channel.folder, name), 'utf8'));

    return {
      header: {
        name, size: body.length, type: 'file' as const
      },
      body
    };
  }));
  const file = `${ channel.name }.packages.tar`;

  writeFileSync(join(channel.folder, file), Buffer.from(await packTar(entries)));
  // Only the tar holds the lists now: a page that read the files beside the logs would find none.
  await Promise.all(names.map((name) => fs.rm(join(channel.folder, name))));
  await annotateChannel(seed, channel, { [PACKAGES_TAR_ANNOTATION]: `${ filesUrl() }/${ channel.name }/${ file }` });

  return `/${ channel.name }/${ file }`;
}

/** The scale channel's entry names: `scale-v2.2.0-7.<n>-os`, n from 1 (oldest) to the count. */
export function scaleVersion(n: number): string {
  return `scale-v2.2.0-7.${ n }-os`;
}

/**
 * A channel of `count` generated container images (tests/emulator/data/scale-channel.ts: package
 * lists of 260 packages, an update log for every image but each 50th), published through the
 * operator like any other channel.
 */
export async function seedScaleChannel(seed: Seed, count = 600): Promise<SeededChannel> {
  const generated = scaleChannel(count);
  const files: Record<string, { log?: string; packages?: string }> = {};

  for (const entry of generated.entries) {
    const name = entry.metadata.name;

    files[name] = { log: generated.changelog(name), packages: generated.packages(name) };
  }

  return seed.channel({
    name: 'e2e-scale', entries: generated.entries as ChannelEntry[], files
  });
}

/** What the changelog host does with the files whose path contains (string) or matches (RegExp) a key of its rules. */
export interface HostRule {
  /** Answer this status with no body instead of the file. */
  status?: number;
  latencyMs?: number;
  /** false: no CORS header, so a browser on another origin may not read the answer. */
  cors?: boolean;
}

/**
 * A web server of the spec's own serving the specs' file host folder (support/file-server.ts), on
 * another origin, with rules by path: the changelog server an administrator runs, slow or failing.
 */
export class ChangelogHost {
  readonly rules = new Map<string | RegExp, HostRule>();
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    const dir = process.env.E2E_FILES_DIR;

    this.server = createServer(async(req, res) => {
      const path = normalize(decodeURIComponent((req.url || '/').split('?')[0]));
      const rule = [...this.rules].find(([key]) => (typeof key === 'string' ? path.includes(key) : key.test(path)))?.[1] ?? {};

      if (rule.cors !== false) {
        res.setHeader('access-control-allow-origin', '*');
      }
      res.setHeader('cache-control', 'no-store');
      if (rule.latencyMs) {
        await new Promise((resolve) => setTimeout(resolve, rule.latencyMs));
      }
      if (rule.status) {
        res.statusCode = rule.status;
        res.end();

        return;
      }
      const body = dir && !path.includes('..') ? await fs.readFile(join(dir, path)).catch(() => undefined) : undefined;

      res.statusCode = body ? 200 : 404;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end(body ?? 'not found');
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${ (this.server.address() as AddressInfo).port }`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => (this.server ? this.server.close(resolve) : resolve(undefined)));
  }

  /** The channel's changelogs (and the package lists beside them) are read from this host. */
  async serve(seed: Seed, channel: SeededChannel): Promise<void> {
    await annotateChannel(seed, channel, { [CHANGELOG_URL_ANNOTATION]: `${ this.url }/${ channel.name }/{name}.updates.log` });
  }
}

/**
 * A changelog host for each test of the describe it is called in (after useSeed() at the spec's
 * top, so that it closes before the seed's session does): `allow()` lets the pages fetch from it.
 */
export function useChangelogHost(seed: Seed): { readonly host: ChangelogHost; allow(): Promise<void> } {
  let host = new ChangelogHost();

  test.beforeEach(async() => {
    host = new ChangelogHost();
    await host.start();
  });
  test.afterEach(async() => {
    await host.close();
  });

  return {
    get host() {
      return host;
    },
    async allow() {
      await seed.allowOrigin(host.url);
    },
  };
}
