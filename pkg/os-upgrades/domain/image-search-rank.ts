// The order of image search hits, and what the search could read (rule "Image search").
import { asOSVersions, VersionInput } from './channel';
import type { ImageHit } from './image-search';
import { readPool } from './pool';
import { FileAnswerState, summarizeSourceAnswers } from './source-summary';

export interface SearchChannel {
  namespace: string;
  channel: string;
}

/**
 * A hit on the thing searched for, not on a part of a longer text: a CVE id or an installed
 * package (both match only exactly), or a name, version or display name equal to the query.
 */
export function isExactHit(hit: ImageHit, query: string): boolean {
  const needle = String(query ?? '').trim().toLowerCase();

  return hit.matches.some((match) => match.field === 'cve' || match.field === 'package' || match.text.toLowerCase() === needle);
}

/**
 * Exact hits first, then images of the `preferred` channels (those the pools use), each group in
 * the order it came (searchImages: namespace, channel, newest first).
 */
export function rankImageHits(hits: readonly ImageHit[], query: string, preferred: readonly SearchChannel[]): ImageHit[] {
  const keys = new Set(preferred.map((ref) => `${ ref.namespace }\u0000${ ref.channel }`));
  const rank = (hit: ImageHit) => (isExactHit(hit, query) ? 0 : 2) + (keys.has(`${ hit.version.namespace }\u0000${ hit.version.channel }`) ? 0 : 1);

  return hits.map((hit, index) => ({
    hit, index, rank: rank(hit)
  }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ hit }) => hit);
}

/**
 * The channels the pools use: each pool's selector channel, and the channel of its pinned image
 * where that image is among `versions`. Sorted, without repeats.
 */
export function poolChannels(pools: readonly unknown[], versions: readonly VersionInput[]): SearchChannel[] {
  const all = asOSVersions(versions);
  const found = new Map<string, SearchChannel>();
  const add = (namespace: string, channel: string) => {
    if (channel) {
      found.set(`${ namespace }\u0000${ channel }`, { namespace, channel });
    }
  };

  for (const pool of pools.map(readPool)) {
    if (pool.selector?.channel) {
      add(pool.namespace, pool.selector.channel);
    }
    const pinned = pool.pin ? all.find((version) => version.name === pool.pin && version.namespace === pool.namespace) : undefined;

    if (pinned) {
      add(pinned.namespace, pinned.channel);
    }
  }

  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : Number(a > b))).map(([, ref]) => ref);
}

export interface FileReadCounts {
  total: number;
  read: number;
  /** Not published (the source answered that the file does not exist). */
  missing: number;
  /** Could not be read: an error, or a source that serves no changelog files. */
  unreadable: number;
}

/** How many of the files a search fetched were read, missing or unreadable; those still loading count in none. */
export function fileReadCounts(states: readonly ({ state: FileAnswerState } | undefined)[]): FileReadCounts {
  const summary = summarizeSourceAnswers(states.map((file) => file?.state));

  return {
    total: summary.total, read: summary.read, missing: summary.missing, unreadable: summary.failed + summary.noService
  };
}
