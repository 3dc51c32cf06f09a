// The generated channel for scale work: hundreds of container versions with package lists and
// update logs, made in memory at start from the deterministic generators of tests/support.

import { ChannelEntry, syntheticChannelEntries, syntheticPackageList, syntheticUpdateLog } from '../support/synthetic';

export const SCALE_CHANNEL = 'sl-micro-6.1-scale';
const PREFIX = 'scale';
const SEED = 'os-upgrades-scale';
const START_CREATED = 1704067200; // 2024-01-01T00:00:00Z
const STEP_SECONDS = 6 * 3600;

/** Every this-many-th version has no update log, as some real images have none. */
export const SCALE_MISSING_LOG_EVERY = 50;

export interface GeneratedChannel {
  name: string;
  entries: ChannelEntry[];
  packages(versionName: string): string | undefined;
  changelog(versionName: string): string | undefined;
}

export function scaleChannel(count: number): GeneratedChannel {
  const entries = syntheticChannelEntries({
    count,
    prefix:       PREFIX,
    baseVersion:  '2.2.0',
    build:        7,
    startCreated: START_CREATED,
    stepSeconds:  STEP_SECONDS,
    displayName:  'SL Micro 6.1 Base OS (scale test)',
  });
  const numberOf = (versionName: string): number | undefined => {
    const match = /^scale-v2\.2\.0-7\.(\d+)-os$/.exec(versionName);
    const n = match ? Number(match[1]) : NaN;

    return n >= 1 && n <= count ? n : undefined;
  };
  const createdOf = (n: number) => START_CREATED + (n - 1) * STEP_SECONDS;

  return {
    name: SCALE_CHANNEL,
    entries,
    packages(versionName) {
      const n = numberOf(versionName);

      return n === undefined ? undefined : syntheticPackageList(260, SEED, n - 1);
    },
    changelog(versionName) {
      const n = numberOf(versionName);

      if (n === undefined || n % SCALE_MISSING_LOG_EVERY === 0) {
        return undefined;
      }

      return syntheticUpdateLog(versionName, {
        count: 1 + (n % 5), seed: SEED, after: n === 1 ? createdOf(1) - STEP_SECONDS : createdOf(n - 1), before: createdOf(n)
      });
    },
  };
}
