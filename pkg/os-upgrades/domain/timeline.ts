// The channel timeline: which advisories each image brought, and its pages.
import type { OSVersion } from './types';
import { aggregateChangelog, SeveritySummary, UpdateLogs } from './changelog';

export const TIMELINE_LEVELS = ['critical', 'important', 'moderate', 'low', 'none'] as const;

/** The images of one page of the timeline, oldest first (left to right). */
export function timelinePage(containers: readonly OSVersion[], page: number, size: number): OSVersion[] {
  return containers.slice(page * size, (page + 1) * size).reverse();
}

export function pageCount(containers: readonly OSVersion[], size: number): number {
  return Math.max(1, Math.ceil(containers.length / size));
}

/**
 * What each image brought: the changelog from the image before it (rule "Changelog"), or its whole log
 * for the oldest image. `containers` is the channel's container versions, newest first.
 */
export function broughtBy(containers: readonly OSVersion[], version: OSVersion, logs: UpdateLogs): SeveritySummary | undefined {
  const index = containers.indexOf(version);
  const log = logs[version.name];

  if (!log) {
    return undefined;
  }
  const previous = index >= 0 ? containers[index + 1] : undefined;

  if (previous) {
    // Between neighbours the span is the newer image alone: no need to walk the whole channel.
    return aggregateChangelog([previous, version], previous.name, version.name, { [version.name]: log }).summary;
  }
  const summary: SeveritySummary = {
    critical: 0, important: 0, moderate: 0, low: 0, none: 0, total: log.length
  };

  for (const advisory of log) {
    summary[advisory.severity || 'none']++;
  }

  return summary;
}
