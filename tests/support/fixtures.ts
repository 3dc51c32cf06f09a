/**
 * Reads the real Elemental fixtures copied into tests/fixtures/elemental (never ../shared),
 * and turns channel entries into ManagedOSVersion objects as the operator would.
 */
import { readFileSync } from 'fs';
import { join, resolve } from 'path';
import type { ChannelEntry } from './synthetic';

export const FIXTURES_DIR = resolve(__dirname, '../fixtures/elemental');

export const CHANNEL_FILES = ['sl-micro-6.1-base', 'sl-micro-6.2-base', 'unstable'] as const;
export type ChannelFile = typeof CHANNEL_FILES[number];

export const PACKAGE_FILES = ['base-v2.2.0-3.8-os', 'base-v2.2.0-3.9-os', 'base-v2.2.0-3.12-os', 'base-v2.3.0-6.1-os'] as const;
export type PackageFile = typeof PACKAGE_FILES[number];

export function readChannelFile(file: ChannelFile): ChannelEntry[] {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, 'channels', `${ file }.json`), 'utf8'));
}

export function readPackageFile(versionName: PackageFile): string {
  return readFileSync(join(FIXTURES_DIR, 'packages', `${ versionName }.packages`), 'utf8');
}

export interface ManagedOSVersionOptions {
  channel: string;
  namespace?: string;
  /** Adds the operator's `channel-no-longer-in-sync` annotation. */
  outOfSync?: boolean;
  /** Adds an ownerReference to the channel (the operator sets one, but it can be missing). */
  withOwner?: boolean;
}

/** A channel entry as the API would return it once the operator synced it. */
export function toManagedOSVersion(entry: ChannelEntry, options: ManagedOSVersionOptions): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    name:      entry.metadata.name,
    namespace: options.namespace ?? 'fleet-default',
    labels:    { 'elemental.cattle.io/channel': options.channel },
  };

  if (options.outOfSync) {
    metadata.annotations = { 'elemental.cattle.io/channel-no-longer-in-sync': 'true' };
  }
  if (options.withOwner !== false) {
    metadata.ownerReferences = [{
      apiVersion: 'elemental.cattle.io/v1beta1', kind: 'ManagedOSVersionChannel', name: options.channel, uid: `uid-${ options.channel }`,
    }];
  }

  return {
    apiVersion: 'elemental.cattle.io/v1beta1',
    kind:       'ManagedOSVersion',
    metadata,
    spec:       JSON.parse(JSON.stringify(entry.spec)),
  };
}

/** Every version of one channel file as ManagedOSVersion objects, channel named after the file. */
export function channelVersions(file: ChannelFile, namespace = 'fleet-default'): Record<string, unknown>[] {
  return readChannelFile(file).map((entry) => toManagedOSVersion(entry, { channel: file, namespace }));
}
