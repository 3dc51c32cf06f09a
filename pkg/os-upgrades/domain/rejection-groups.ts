// Why the images a selector did not pick lost, grouped (docs: pkg/os-upgrades/domain/README.md, rule "Selector"):
// hundreds of "in channel X, not Y" must not bury the few reasons that matter ("not built for
// linux/aarch64"), so the preview shows each reason once with how many images it rejected.
import type { OSVersion, Reason } from './types';
import type { Rejection } from './selector';

export interface RejectionGroup {
  /** Stable per group: the reason's key, and for a channel mismatch the channel. */
  id: string;
  /** The reason as the newest image of the group has it. */
  reason: Reason;
  count: number;
  /** How many of them are in the pool's own channel. */
  inOwnChannel: number;
  /** Newest first, as the rejections came. */
  versions: OSVersion[];
}

const CHANNEL_MISMATCH = 'osUpgrades.selector.reason.channelMismatch';

function groupId(reason: Reason): string {
  return reason.key === CHANNEL_MISMATCH ? `${ reason.key }#${ String(reason.values?.actual ?? '') }` : reason.key;
}

/**
 * The rejections grouped by their first reason (a channel mismatch per channel): the groups
 * with images of `ownChannel` first, then the larger groups, then by id.
 */
export function groupRejections(rejected: readonly Rejection[], ownChannel?: string): RejectionGroup[] {
  const groups = new Map<string, RejectionGroup>();

  for (const { version, reasons } of rejected) {
    const first = reasons[0];

    if (!first) {
      continue;
    }
    const id = groupId(first);
    const group = groups.get(id) ?? {
      id, reason: first, count: 0, inOwnChannel: 0, versions: []
    };

    group.count += 1;
    group.inOwnChannel += ownChannel !== undefined && version.channel === ownChannel ? 1 : 0;
    group.versions.push(version);
    groups.set(id, group);
  }

  return [...groups.values()].sort((a, b) => b.inOwnChannel - a.inOwnChannel || b.count - a.count || a.id.localeCompare(b.id));
}
