// rule "Kept version list": a channel's versions kept from an earlier session answer a new one
// only while Steve's list of them has not moved.
import type { OSVersion } from './types';

/** A channel's versions as an earlier read left them. */
export interface KeptVersionList {
  /** Steve's revision of the list when it was read. */
  revision: string;
  /** Each version with the resourceVersion it was read at. */
  versions: { resourceVersion: string; version: OSVersion }[];
}

/** What the server says of the same list now (a page of one): its revision and how many match. */
export interface VersionListHead {
  revision?: string;
  count: number;
}

/**
 * The kept list still is the server's: the list's revision is the one it was read at (Steve moves
 * it with every write of the type) and as many versions match. Without a revision on either side
 * nothing can be told, and the list is read again.
 */
export function keptListHolds(kept: KeptVersionList | undefined, head: VersionListHead): kept is KeptVersionList {
  return !!kept && !!kept.revision && kept.revision === head.revision && kept.versions.length === head.count;
}
