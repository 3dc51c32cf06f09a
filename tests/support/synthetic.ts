/**
 * Deterministic synthetic Elemental data for tests, the emulator and benchmarks.
 *
 * Pure TypeScript, no dependencies, no Math.random: the same arguments always give the same
 * output. Formats are those of tests/fixtures/elemental (see the fixtures README).
 * The exported names and option shapes are relied on by other code: keep them stable.
 */

// ---------------------------------------------------------------------------------------
// Seeded PRNG
// ---------------------------------------------------------------------------------------

export type Random = () => number;

/** FNV-1a hash of a string to an unsigned 32-bit integer. */
export function hashSeed(seed: number | string): number {
  const text = String(seed);
  let hash = 0x811c9dc5;

  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }

  return hash >>> 0;
}

/** mulberry32: a small, fast, seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number | string): Random {
  let state = hashSeed(seed);

  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);

    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;

    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max], both included. */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** Fisher-Yates shuffle into a new array. */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const out = items.slice();

  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const swap = out[i];

    out[i] = out[j];
    out[j] = swap;
  }

  return out;
}

// ---------------------------------------------------------------------------------------
// Channel entries
// ---------------------------------------------------------------------------------------

/** One entry of a channel file, exactly as in tests/fixtures/elemental/channels/*.json. */
export interface ChannelEntry {
  metadata: { name: string };
  spec: {
    version: string;
    type: 'container' | 'iso';
    metadata: {
      upgradeImage?: string;
      uri?: string;
      displayName: string;
      platforms: string[];
      created?: number;
    };
  };
}

export interface SyntheticChannelOptions {
  /** How many entries. */
  count: number;
  /** Name prefix: entries are named `<prefix>-v<base>-<build>.<n>-os`. */
  prefix: string;
  /** Base version without `v`, default `2.2.0`. */
  baseVersion?: string;
  /** Build number, the first part of the revision, default 3. */
  build?: number;
  /** `created` of the oldest entry (unix seconds). */
  startCreated: number;
  /** Seconds between two consecutive entries. */
  stepSeconds: number;
  displayName: string;
  /** Image repository, default `registry.suse.com/suse/sl-micro/6.1/base-os-container`. */
  imageRepository?: string;
  /** Default `['linux/x86_64', 'linux/aarch64']`. */
  platforms?: string[];
}

/**
 * Container entries `v<base>-<build>.1` … `v<base>-<build>.<count>`, each `stepSeconds` newer
 * than the one before, returned newest first like the real channel files.
 */
export function syntheticChannelEntries(options: SyntheticChannelOptions): ChannelEntry[] {
  const base = options.baseVersion ?? '2.2.0';
  const build = options.build ?? 3;
  const repository = options.imageRepository ?? 'registry.suse.com/suse/sl-micro/6.1/base-os-container';
  const platforms = options.platforms ?? ['linux/x86_64', 'linux/aarch64'];
  const entries: ChannelEntry[] = [];

  for (let n = options.count; n >= 1; n--) {
    const revision = `${ build }.${ n }`;

    entries.push({
      metadata: { name: `${ options.prefix }-v${ base }-${ revision }-os` },
      spec:     {
        version:  `v${ base }-${ revision }`,
        type:     'container',
        metadata: {
          upgradeImage: `${ repository }:${ base }-${ revision }`,
          displayName:  options.displayName,
          platforms:    platforms.slice(),
          created:      options.startCreated + (n - 1) * options.stepSeconds,
        },
      },
    });
  }

  return entries;
}

// ---------------------------------------------------------------------------------------
// Package lists
// ---------------------------------------------------------------------------------------

const NAME_STEMS = [
  'aaa_base', 'audit', 'bash', 'btrfsprogs', 'ca-certificates', 'coreutils', 'curl', 'dbus-1',
  'dracut', 'e2fsprogs', 'elemental-toolkit', 'file', 'glibc', 'grub2', 'iproute2', 'kernel-default',
  'libcurl4', 'libopenssl3', 'libsystemd0', 'libxml2-2', 'libz1', 'lvm2', 'NetworkManager', 'openssh',
  'openssl-3', 'podman', 'procps', 'rpm', 'sed', 'shadow', 'sudo', 'systemd', 'tar', 'util-linux',
  'vim-small', 'xz', 'zstd', 'zypper',
];

interface SyntheticPackage {
  name: string;
  epoch: number;
  version: string;
  release: number;
  minor: number;
  arch: string;
}

function packageLine(pkg: SyntheticPackage): string {
  const epoch = pkg.epoch === 0 ? '(none)' : String(pkg.epoch);
  const release = releaseOf(pkg);
  const hash = hashSeed(`${ pkg.name }|${ pkg.version }|${ release }`).toString(16).padStart(8, '0');

  return [
    pkg.name, epoch, pkg.version, release, pkg.arch,
    `obs://build.suse.de/SUSE:SLFO:1.1:Build/standard/${ hash }${ hash }${ hash }${ hash }-${ pkg.name }`,
    'GPL-2.0-or-later',
  ].join('|');
}

function releaseOf(pkg: SyntheticPackage): string {
  return `slfo.1.1_${ pkg.release }.${ pkg.minor }`;
}

function basePackage(random: Random, name: string): SyntheticPackage {
  return {
    name,
    epoch:   random() < 0.05 ? randomInt(random, 1, 3) : 0,
    version: `${ randomInt(random, 0, 9) }.${ randomInt(random, 0, 40) }.${ randomInt(random, 0, 12) }`,
    release: randomInt(random, 1, 3),
    minor:   randomInt(random, 1, 9),
    arch:    random() < 0.15 ? 'noarch' : 'x86_64',
  };
}

function generatedNames(size: number): string[] {
  const names: string[] = [];

  for (let i = 0; i < size; i++) {
    const stem = NAME_STEMS[i % NAME_STEMS.length];

    names.push(i < NAME_STEMS.length ? stem : `${ stem }-${ Math.floor(i / NAME_STEMS.length) }`);
  }

  return names;
}

/**
 * The package list (text, `.packages` format) of image number `variant` of one synthetic
 * channel. Variant 0 holds `size` packages (or exactly `names`); each following variant
 * upgrades a few packages, adds one and removes one, so consecutive variants differ a little
 * and distant ones a lot. Lines are shuffled per variant, like the real lists.
 */
export function syntheticPackageList(namesOrSize: number | string[], seed: number | string, variant = 0): string {
  const lines = packagesAt(namesOrSize, seed, variant).filter((pkg): pkg is SyntheticPackage => !!pkg).map(packageLine);

  return `${ shuffled(seededRandom(`${ seed }:order:${ variant }`), lines).join('\n') }\n`;
}

/** An installed package as an advisory names it (`version`, `release` without epoch). */
export interface SyntheticFix {
  name: string;
  version: string;
  release: string;
  arch: string;
}

/**
 * The packages that image number `variant` upgraded over image `variant - 1` of the same
 * synthetic channel, at their new version: what a truthful update log of that image names.
 */
export function syntheticUpgrades(namesOrSize: number | string[], seed: number | string, variant: number): SyntheticFix[] {
  if (variant < 1) {
    return [];
  }
  const before = packagesAt(namesOrSize, seed, variant - 1);
  const after = packagesAt(namesOrSize, seed, variant);

  return after.flatMap((pkg, i) => (pkg && before[i] && pkg.minor > (before[i] as SyntheticPackage).minor ? [{
    name: pkg.name, version: pkg.version, release: releaseOf(pkg), arch: pkg.arch
  }] : []));
}

type PackageState = (SyntheticPackage | undefined)[];

/** How many variants apart the replay keeps a copy of a channel's packages. */
const CHECKPOINT_EVERY = 16;
/** Channels whose replay is kept (the emulator's 40 scale channels and a few tests' own). */
const KEPT_REPLAYS = 64;
/** Per channel (names and seed): its packages at variants 0, 16, 32 … as far as asked. */
const replays = new Map<string, PackageState[]>();

function replayOf(namesOrSize: number | string[], seed: number | string): PackageState[] {
  const key = `${ typeof namesOrSize === 'number' ? namesOrSize : namesOrSize.join('\n') }\u0000${ seed }`;
  let checkpoints = replays.get(key);

  if (!checkpoints) {
    const names = typeof namesOrSize === 'number' ? generatedNames(namesOrSize) : namesOrSize.slice();
    const baseRandom = seededRandom(`${ seed }:base`);

    checkpoints = [names.map((name) => basePackage(baseRandom, name))];
    if (replays.size >= KEPT_REPLAYS) {
      replays.delete(replays.keys().next().value as string);
    }
    replays.set(key, checkpoints);
  }

  return checkpoints;
}

/** Image `step` over the one before: a few packages upgraded, often one removed and one added. */
function applyStep(packages: PackageState, seed: number | string, step: number): void {
  const random = seededRandom(`${ seed }:step:${ step }`);
  const upgrades = randomInt(random, 1, 4);

  for (let i = 0; i < upgrades; i++) {
    const index = randomInt(random, 0, packages.length - 1);
    const pkg = packages[index];

    if (pkg) {
      packages[index] = { ...pkg, minor: pkg.minor + 1 };
    }
  }
  if (packages.length > 1 && random() < 0.7) {
    packages[randomInt(random, 0, packages.length - 1)] = undefined;
  }
  if (random() < 0.7) {
    packages.push(basePackage(random, `synthetic-added-${ step }`));
  }
}

/**
 * The packages of image `variant`: replayed from the nearest kept copy, not from image 0, so an
 * emulator serving a 500-image channel's files answers each in constant time as a file host does
 * (replaying from 0 made a compare across 500 images cost the emulator 0.4 s of CPU).
 */
function packagesAt(namesOrSize: number | string[], seed: number | string, variant: number): PackageState {
  const checkpoints = replayOf(namesOrSize, seed);
  const from = Math.min(Math.floor(variant / CHECKPOINT_EVERY), checkpoints.length - 1);
  const packages = checkpoints[from].slice();

  for (let step = from * CHECKPOINT_EVERY + 1; step <= variant; step++) {
    applyStep(packages, seed, step);
    if (step % CHECKPOINT_EVERY === 0 && step / CHECKPOINT_EVERY === checkpoints.length) {
      checkpoints.push(packages.slice());
    }
  }

  return packages;
}

// ---------------------------------------------------------------------------------------
// Update logs
// ---------------------------------------------------------------------------------------

export interface SyntheticUpdateLogOptions {
  /** How many advisories. */
  count: number;
  seed: number | string;
  /** Advisories are dated after this (unix seconds, exclusive). */
  after: number;
  /** … and up to this (unix seconds, inclusive). */
  before: number;
  /** Product part of advisory ids, default `SUSE-SLE-Micro-6.1`. */
  product?: string;
  /** The packages the image really upgraded (syntheticUpgrades): advisories name these, in turn. */
  fixes?: SyntheticFix[];
}

const SEVERITIES = ['critical', 'important', 'important', 'moderate', 'moderate', 'moderate', 'low', ''];
const ADVISORY_TYPES = ['security', 'security', 'recommended', 'recommended', 'optional', 'feature'];
const TITLE_PREFIX: Record<string, string> = {
  security: 'Security', recommended: 'Recommended', optional: 'Optional', feature: 'Feature',
};
const SUBJECTS = [
  'curl', 'openssl-3', 'kernel-default', 'glibc', 'systemd', 'libxml2', 'podman', 'sudo', 'openssh',
  'util-linux', 'grub2', 'zypper', 'NetworkManager', 'elemental-toolkit', 'expat', 'libarchive',
];

/**
 * The updates log (text, updateinfo JSON array) of version `versionName`, with `count`
 * advisories dated in (after, before]. The content depends on (versionName, seed) only.
 */
export function syntheticUpdateLog(versionName: string, options: SyntheticUpdateLogOptions): string {
  const random = seededRandom(`${ options.seed }:log:${ versionName }`);
  const product = options.product ?? 'SUSE-SLE-Micro-6.1';
  const span = Math.max(1, options.before - options.after);
  const firstNumber = randomInt(random, 1000, 4000);
  const advisories = [];

  for (let i = 0; i < options.count; i++) {
    const date = options.after + 1 + Math.floor(random() * span);
    const year = new Date(date * 1000).getUTCFullYear();
    const type = pick(random, ADVISORY_TYPES);
    const fix = options.fixes?.length ? options.fixes[i % options.fixes.length] : undefined;
    const picked = pick(random, SUBJECTS);
    const subject = fix?.name ?? picked;
    const cves: string[] = [];

    if (type === 'security') {
      const cveCount = randomInt(random, 1, 3);

      for (let c = 0; c < cveCount; c++) {
        cves.push(`CVE-${ year }-${ randomInt(random, 10000, 59999) }`);
      }
    }
    const title = `${ TITLE_PREFIX[type] } update for ${ subject }`;
    const items = cves.length ? cves.map((cve) => `- ${ cve }: fixed a flaw in ${ subject } (bsc#${ randomInt(random, 1200000, 1240000) })`) : [`- Fixed an issue in ${ subject } (bsc#${ randomInt(random, 1200000, 1240000) })`, '- Improved reliability'];

    advisories.push({
      type,
      id:         `${ product }-${ year }-${ firstNumber + i }`,
      title,
      severity:   type === 'security' ? pick(random, SEVERITIES) : pick(random, ['moderate', 'low', '']),
      date:       String(date),
      references: cves.map((cve) => ({
        href:  `https://www.suse.com/security/cve/${ cve }/`,
        id:    cve,
        title: cve,
        type:  'cve',
      })),
      description: `This update for ${ subject } fixes the following issues:\n\n${ items.join('\n') }\n`,
      packages:    [fix ?? {
        name:    subject,
        version: `${ randomInt(random, 1, 9) }.${ randomInt(random, 0, 20) }.${ randomInt(random, 0, 9) }`,
        release: `slfo.1.1_${ randomInt(random, 1, 3) }.${ randomInt(random, 1, 9) }`,
        arch:    'x86_64',
      }],
    });
  }

  return JSON.stringify(advisories, null, 2);
}
