// A generated channel in the format of rancher/elemental-channels channel files (see tests/fixtures/elemental/README.md).
// The generated channels for scale work: container versions with package lists and update logs,
// made in memory at start from the deterministic generators of tests/support. The first one is
// `sl-micro-6.1-scale` (versions `scale-v2.2.0-7.<n>-os`); with more channels, the others are the
// flavours a large Rancher carries (base, kvm, rt, baremetal) of several SL Micro releases.

import {
  ChannelEntry, syntheticChannelEntries, syntheticPackageList, syntheticUpdateLog, syntheticUpgrades
} from '../../support/synthetic';

export const SCALE_CHANNEL = 'sl-micro-6.1-scale';
const SEED = 'os-upgrades-scale';
const START_CREATED = 1704067200; // 2024-01-01T00:00:00Z
const STEP_SECONDS = 6 * 3600;
const FLAVORS = ['base', 'kvm', 'rt', 'baremetal'];
const PACKAGES = 260;

/** Every this-many-th version has no update log, as some real images have none. */
export const SCALE_MISSING_LOG_EVERY = 50;

export interface GeneratedChannel {
  name: string;
  entries: ChannelEntry[];
  packages(versionName: string): string | undefined;
  changelog(versionName: string): string | undefined;
}

interface ChannelSpec {
  name: string;
  /** Versions are `<prefix>-v2.2.0-7.<n>-os`. */
  prefix: string;
  count: number;
  seed: string;
  displayName: string;
  imageRepository?: string;
}

/** Files kept once made, as a file host keeps them: a compare asks for 500 at once, and often again. */
const KEPT_TEXTS = 2000;

/** A version's text, made on first use and kept (the most recently made KEPT_TEXTS of them). */
function servedTexts(make: (n: number, versionName: string) => string): (n: number, versionName: string) => string {
  const kept = new Map<string, string>();

  return (n, versionName) => {
    let text = kept.get(versionName);

    if (text === undefined) {
      text = make(n, versionName);
      kept.set(versionName, text);
      if (kept.size > KEPT_TEXTS) {
        kept.delete(kept.keys().next().value as string);
      }
    }

    return text;
  };
}

function generatedChannel(spec: ChannelSpec): GeneratedChannel {
  const entries = syntheticChannelEntries({
    count:           spec.count,
    prefix:          spec.prefix,
    baseVersion:     '2.2.0',
    build:           7,
    startCreated:    START_CREATED,
    stepSeconds:     STEP_SECONDS,
    displayName:     spec.displayName,
    imageRepository: spec.imageRepository,
  });
  const start = `${ spec.prefix }-v2.2.0-7.`;
  const numberOf = (versionName: string): number | undefined => {
    if (!versionName.startsWith(start) || !versionName.endsWith('-os')) {
      return undefined;
    }
    const digits = versionName.slice(start.length, -3);
    const n = /^\d+$/.test(digits) ? Number(digits) : NaN;

    return n >= 1 && n <= spec.count ? n : undefined;
  };
  const createdOf = (n: number) => START_CREATED + (n - 1) * STEP_SECONDS;
  const packages = servedTexts((n) => syntheticPackageList(PACKAGES, spec.seed, n - 1));
  // Like the real logs, each advisory names a package this image upgraded, at its new version.
  const logs = servedTexts((n, versionName) => syntheticUpdateLog(versionName, {
    count:  1 + (n % 5),
    seed:   spec.seed,
    after:  n === 1 ? createdOf(1) - STEP_SECONDS : createdOf(n - 1),
    before: createdOf(n),
    fixes:  syntheticUpgrades(PACKAGES, spec.seed, n - 1),
  }));

  return {
    name: spec.name,
    entries,
    packages(versionName) {
      const n = numberOf(versionName);

      return n === undefined ? undefined : packages(n, versionName);
    },
    changelog(versionName) {
      const n = numberOf(versionName);

      return n === undefined || n % SCALE_MISSING_LOG_EVERY === 0 ? undefined : logs(n, versionName);
    },
  };
}

/** The one scale channel of `count` versions (`sl-micro-6.1-scale`). */
export function scaleChannel(count: number): GeneratedChannel {
  return generatedChannel({
    name: SCALE_CHANNEL, prefix: 'scale', count, seed: SEED, displayName: 'SL Micro 6.1 Base OS (scale test)'
  });
}

/** The name of generated channel number `index` (0 is SCALE_CHANNEL). */
export function scaleChannelName(index: number): string {
  if (index === 0) {
    return SCALE_CHANNEL;
  }
  const flavor = FLAVORS[index % FLAVORS.length];
  const release = `6.${ Math.floor(index / FLAVORS.length) }`;

  return `sl-micro-${ release }-${ flavor }-scale`;
}

/**
 * `totalVersions` versions spread over `channelCount` channels: each gets the same share, the
 * first one the remainder too. One channel is exactly `scaleChannel(totalVersions)`.
 */
export function scaleChannels(totalVersions: number, channelCount = 1): GeneratedChannel[] {
  const count = Math.max(1, Math.floor(channelCount));

  if (totalVersions <= 0) {
    return [];
  }
  const share = Math.floor(totalVersions / count);
  const channels = [scaleChannel(totalVersions - share * (count - 1))];
  const others = share > 0 ? count : 1;

  for (let index = 1; index < others; index++) {
    const name = scaleChannelName(index);
    const [, release, flavor] = /^sl-micro-(6\.\d+)-(\w+)-scale$/.exec(name) ?? [];

    channels.push(generatedChannel({
      name,
      prefix:          `scale-${ flavor }-${ release }`,
      count:           share,
      seed:            `${ SEED }-${ name }`,
      displayName:     `SL Micro ${ release } ${ flavor } OS (scale test)`,
      imageRepository: `registry.suse.com/suse/sl-micro/${ release }/${ flavor }-os-container`,
    }));
  }

  return channels;
}
