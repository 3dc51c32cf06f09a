// Steve's list summaries: one request answers how many objects carry each value of a label, over
// everything the filters match (rancher/steve pkg/sqlcache/informer/summary_fields.go, served from
// Steve v0.8.1: Rancher 2.14 and newer, with the SQL cache).
import { isRecord } from './text';

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
