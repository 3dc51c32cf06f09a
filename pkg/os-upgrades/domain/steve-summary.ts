// Steve's list summaries: one request answers how many objects carry each value of a label, over
// everything the filters match (rancher/steve pkg/sqlcache/informer/summary_fields.go, with the SQL
// cache). The summary is counted over the requested page only (a `pagesize` limits it too), so it
// is asked with `summaryonly`, which answers no items: Steve v0.9.11 and newer (#1182), which
// Rancher 2.15 pins (v2.15.0: v0.9.18). Rancher 2.14's Steve (v0.8) has summaries but not
// `summaryonly`: the summary of everything would come with every item.
import { isRecord } from './text';

/** Whether a Rancher of this `server-version` answers a summary alone (`summaryonly`): 2.15 and newer. */
export function servesSummaryOnly(serverVersion: string): boolean {
  const match = /^v?(\d+)\.(\d+)/.exec(serverVersion.trim());

  return !!match && (Number(match[1]) > 2 || (Number(match[1]) === 2 && Number(match[2]) >= 15));
}

/** The `summary` field naming a label, as Steve names it (a simple key keeps the dotted form). */
export function labelSummaryField(labelKey: string): string {
  return `metadata.labels[${ labelKey }]`;
}

/**
 * Objects per value of a label, from a list answer asked `summary=metadata.labels[<key>]`
 * (rule "Counts from one request"). Undefined when the answer carries no summary: a Steve without
 * them ignores the parameter and answers a plain list. A value no object carries is absent.
 */
export function labelValueCounts(answer: unknown, labelKey: string): Record<string, number> | undefined {
  if (!isRecord(answer) || !Array.isArray(answer.summary)) {
    return undefined;
  }
  const names = [labelSummaryField(labelKey), `metadata.labels.${ labelKey }`];
  const entry = answer.summary.find((item) => isRecord(item) && names.includes(String(item.property)));
  const counts: Record<string, number> = {};

  if (isRecord(entry) && isRecord(entry.counts)) {
    for (const [value, count] of Object.entries(entry.counts)) {
      const total = isRecord(count) ? Number(count.total) : NaN;

      if (Number.isFinite(total)) {
        counts[value] = total;
      }
    }
  }

  return counts;
}
