// The compare page's advisory filter: by severity and by words of the id, CVEs, title and packages.
import { advisoryCves, Severity } from './updatelog';
import type { ChangelogEntry } from './changelog';

/** A severity filter value: the domain's severities, with '' (no severity) named `none`. */
export type SeverityFilter = Exclude<Severity, ''> | 'none';

export const SEVERITY_FILTERS: readonly SeverityFilter[] = ['critical', 'important', 'moderate', 'low', 'none'];

export interface SearchableAdvisory {
  entry: ChangelogEntry;
  level: SeverityFilter;
  /** Lower-case id, CVEs, title and package names, for substring search. */
  text: string;
}

/** Built once per comparison, so each keystroke only scans strings. */
export function searchIndex(advisories: readonly ChangelogEntry[]): SearchableAdvisory[] {
  return advisories.map((entry) => ({
    entry,
    level: entry.severity || 'none',
    text:  [entry.id, entry.title, ...advisoryCves(entry), ...entry.packages.map((pkg) => pkg.name)].join('\n').toLowerCase(),
  }));
}

/** The advisories of the chosen severities (all when none chosen) whose text holds every search word. */
export function filterAdvisories(index: readonly SearchableAdvisory[], severities: readonly SeverityFilter[], search: string): ChangelogEntry[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);

  return index
    .filter((item) => (severities.length === 0 || severities.includes(item.level)) && words.every((word) => item.text.includes(word)))
    .map((item) => item.entry);
}
