// Gathers a pool move's change record from what the pages already read: the channels of both
// images (as the compare reads them), their changelog files through the session's changelog
// store, and the pool as stored. No other server is asked.
import {
  Advisory, changeRecord, ChangeRecord, FileAnswer, HistoryEntry, OSVersion, Package, planChangelog
} from '../domain';
import type { ShellStore } from '../types/shell-store';
import { loadChannels, loadCompareChannels, versionsOfChannels } from './channels';
import { useChangelogsStore } from './changelogs';

function namespaceOf(pool: unknown): string {
  const metadata = (pool as { metadata?: { namespace?: unknown } } | undefined)?.metadata;

  return String(metadata?.namespace ?? '');
}

/** The channel object a version belongs to, for its changelog URL template. */
function channelOf(channels: readonly Record<string, unknown>[], version: OSVersion | undefined): Record<string, unknown> | undefined {
  return version && channels.find((channel) => {
    const metadata = channel.metadata as { name?: string; namespace?: string } | undefined;

    return metadata?.name === version.channel && metadata?.namespace === version.namespace;
  });
}

/** The change record of `entry`, one of the stored `pool`'s history entries. */
export async function gatherChangeRecord(shell: ShellStore, pool: unknown, entry: HistoryEntry, now: Date, signal?: AbortSignal): Promise<ChangeRecord> {
  const names = [entry.from, entry.to].filter((name) => !!name);
  const [refs, channels] = await Promise.all([loadCompareChannels(shell, namespaceOf(pool), [], names), loadChannels(shell)]);
  const versions = versionsOfChannels(refs);
  const plan = planChangelog(versions, entry.from, entry.to);
  const ends = [plan.from, plan.to].filter((version): version is OSVersion => !!version);
  const changelogs = useChangelogsStore();

  if (entry.from) {
    await Promise.all([
      ...ends.map((version) => changelogs.load(shell, 'packages', [version], channelOf(channels, version), signal)),
      changelogs.load(shell, 'log', plan.spanVersions, channelOf(channels, plan.spanVersions[0]), signal),
    ]);
  }
  const logs: Record<string, FileAnswer<Advisory[]>> = {};
  const packages: Record<string, FileAnswer<Package[]>> = {};

  plan.spanVersions.forEach((version) => {
    logs[version.name] = changelogs.log(version);
  });
  ends.forEach((version) => {
    packages[version.name] = changelogs.packages(version);
  });

  return changeRecord({
    pool, entry, versions, logs, packages, generatedAt: now.toISOString()
  });
}
