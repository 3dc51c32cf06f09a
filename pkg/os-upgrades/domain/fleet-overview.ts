// The fleet overview's pictures (pkg/os-upgrades/domain/README.md, rule "Fleet overview"): promotion chains,
// which image each pool ran over time, pools by image, and the source nodes a soak counts.
import type { ClusterInput, NodeRolloutRow, RolloutTarget } from './node-rollout';
import { nodeRolloutTable } from './node-rollout';
import type { SoakNode } from './promotion';
import { readPromotion } from './promotion';
import { readHistory } from './history';
import { readPool, versionsForPool } from './pool';
import type { OSVersion } from './types';
import { compareNewestFirst, VersionInput } from './channel';
import { checkPoolUpgrade } from './pool-write';
import { isUsableImage } from './exposure';

function idOf(pool: unknown): string {
  const view = readPool(pool);

  return `${ view.namespace }/${ view.name }`;
}

/**
 * The promotion chains of the pools (`promote-from`), each from its first source to its last
 * pool: `[[canary, staging, production]]` as `namespace/name` ids. A pool that names a missing
 * source starts its own chain; a cycle is cut where it closes; pools outside any chain are left
 * out. Several pools promoting from one source branch: each branch is a chain of its own. Sorted.
 */
export function promotionChains(pools: readonly unknown[]): string[][] {
  const ids = new Set((Array.isArray(pools) ? pools : []).map(idOf));
  const sourceOf = new Map<string, string>();
  const children = new Map<string, string[]>();

  for (const pool of Array.isArray(pools) ? pools : []) {
    const config = readPromotion(pool);
    const id = idOf(pool);

    if (config.source && !config.errors.length && ids.has(config.source) && config.source !== id) {
      sourceOf.set(id, config.source);
      children.set(config.source, [...(children.get(config.source) ?? []), id].sort());
    }
  }
  const chains: string[][] = [];
  const walk = (chain: string[]) => {
    const next = (children.get(chain[chain.length - 1]) ?? []).filter((id) => !chain.includes(id));

    if (!next.length) {
      chains.push(chain);
    }
    for (const id of next) {
      walk([...chain, id]);
    }
  };
  // Roots: pools with followers but no (usable) source; a pure cycle starts at its smallest id.
  const inChain = [...new Set([...sourceOf.keys(), ...children.keys()])].sort();
  const reached = new Set<string>();

  for (const id of inChain.filter((candidate) => !sourceOf.has(candidate))) {
    walk([id]);
  }
  chains.forEach((chain) => chain.forEach((id) => reached.add(id)));
  for (const id of inChain) {
    if (!reached.has(id)) {
      walk([id]);
      chains[chains.length - 1].forEach((member) => reached.add(member));
    }
  }

  return chains.sort((a, b) => (a.join('\u0000') < b.join('\u0000') ? -1 : 1));
}

export interface ImageSpan {
  /** The version name the pool was pinned to ('' before the first recorded change). */
  version: string;
  /** Unix seconds: from, and until (the next change, or `now`). */
  from: number;
  to: number;
  /** The change that started it (undefined for the span before the first recorded change). */
  kind?: string;
}

function seconds(at: string): number | undefined {
  const ms = Date.parse(at);

  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/**
 * Which image pool `pool` was pinned to over time, from its approval history (rule "Approval history"), oldest
 * first, up to `now` (unix seconds). The span before the first entry (its `from`) starts at the
 * pool's creation when known; entries without a readable time are skipped. With no history, one
 * span of the current pin from the creation (or `now`). Spans are never negative.
 */
export function imageTimeline(pool: unknown, now: number): ImageSpan[] {
  const view = readPool(pool);
  const metadata = (pool as { metadata?: { creationTimestamp?: unknown } } | undefined)?.metadata;
  const created = typeof metadata?.creationTimestamp === 'string' ? seconds(metadata.creationTimestamp) : undefined;
  const entries = readHistory(pool).entries
    .map((entry) => ({ entry, at: seconds(entry.at) }))
    .filter((item): item is { entry: typeof item.entry; at: number } => item.at !== undefined && (item.entry.kind === 'approve' || item.entry.kind === 'rollback' || item.entry.kind === 'promote'))
    .sort((a, b) => a.at - b.at);
  const spans: ImageSpan[] = [];
  const end = Number.isFinite(now) ? now : 0;

  if (!entries.length) {
    const start = Math.min(created ?? end, end);

    return view.pin ? [{
      version: view.pin, from: start, to: end
    }] : [];
  }
  const first = entries[0];

  if (first.entry.from) {
    const start = Math.min(created ?? first.at, first.at);

    spans.push({
      version: first.entry.from, from: start, to: first.at
    });
  }
  entries.forEach((item, index) => {
    const next = entries[index + 1];

    spans.push({
      version: item.entry.to, from: item.at, to: Math.max(item.at, next ? next.at : end), kind: item.entry.kind
    });
  });

  return spans.filter((span) => span.version);
}

export interface ImageCount {
  /** The pinned version name ('' for pools without a pin). */
  version: string;
  pools: string[];
}

/** The pools by the image they pin, most pools first, then by name ('' = no pin, last). */
export function poolsByImage(pools: readonly unknown[]): ImageCount[] {
  const byVersion = new Map<string, string[]>();

  for (const pool of Array.isArray(pools) ? pools : []) {
    const view = readPool(pool);
    const version = view.osImage ? '' : view.pin ?? '';

    byVersion.set(version, [...(byVersion.get(version) ?? []), `${ view.namespace }/${ view.name }`]);
  }

  return [...byVersion].map(([version, ids]) => ({ version, pools: ids.sort() }))
    .sort((a, b) => Number(!a.version) - Number(!b.version) || b.pools.length - a.pools.length || (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
}

/**
 * The source pool's targeted nodes as the soak counts them (promotion.ts), or undefined while
 * some targeted cluster cannot be read (the soak is then unknown, never assumed). The node's
 * image is left to the row's state: the rollout rows already decided `updated` against the
 * pinned image, and a real kubelet reports PRETTY_NAME, not the image (docs/emulator.md).
 */
export function soakNodes(target: RolloutTarget, clusters: readonly ClusterInput[]): SoakNode[] | undefined {
  if (clusters.some((cluster) => cluster.reading.kind !== 'read')) {
    return undefined;
  }

  return nodeRolloutTable(target, clusters).map((row: NodeRolloutRow) => {
    const node: SoakNode = {
      node: row.id, image: '', state: row.state, failed: row.state === 'failed'
    };

    if (row.since !== undefined) {
      node.since = row.since;
    }

    return node;
  });
}

export interface WithdrawnPin {
  /** The withdrawn version the pool pins. */
  version: OSVersion;
  /**
   * The way out (rule "Withdrawn images": moving away is allowed): `approve` the selector's pick, else (no selector)
   * the newest usable image of the pin's channel when newer; else `rollback` to the previous pin when
   * it is usable; else (no selector) the newest usable image of the channel, though older;
   * undefined when there is none.
   */
  wayOut?: { kind: 'approve' | 'rollback'; versionName: string };
}

/** For a pool whose pin is withdrawn: the withdrawal and the way out; undefined otherwise. */
export function withdrawnPin(pool: unknown, versions: readonly VersionInput[], now: number): WithdrawnPin | undefined {
  const view = readPool(pool);
  const usable = versionsForPool(versions, view.namespace);
  const pin = view.osImage || !view.pin ? undefined : usable.find((version) => version.name === view.pin);

  if (!pin?.withdrawn) {
    return undefined;
  }
  const upgrade = checkPoolUpgrade(pool, usable, now).upgrade;

  if (upgrade) {
    return { version: pin, wayOut: { kind: 'approve', versionName: upgrade.name } };
  }
  // Without a selector any usable image of the channel may be approved (an older one is a forced
  // downgrade, rule "Roll back and FORCE"); with one, only its pick (`planPoolWrite` refuses another).
  const channelImages = view.selectorText === undefined ? usable.filter((version) => version.channel === pin.channel && version.namespace === pin.namespace && isUsableImage(version))
    .sort(compareNewestFirst) : [];
  const newest = channelImages[0];

  if (newest && compareNewestFirst(newest, pin) < 0) {
    return { version: pin, wayOut: { kind: 'approve', versionName: newest.name } };
  }
  const previous = view.previousVersion ? usable.find((version) => version.name === view.previousVersion) : undefined;

  if (previous && isUsableImage(previous) && previous.name !== pin.name) {
    return { version: pin, wayOut: { kind: 'rollback', versionName: previous.name } };
  }
  if (newest) {
    return { version: pin, wayOut: { kind: 'approve', versionName: newest.name } };
  }

  return { version: pin };
}
