import { Advisory, advisoryCves, ChangelogEntry, Severity } from '../../domain';
import { safeHttpUrl } from '../common/safe-html';

export type SeverityLevel = Exclude<Severity, ''> | 'none';

export type AdvisoryRowData =
  | { key: string; kind: 'group'; severity: SeverityLevel; count: number }
  | { key: string; kind: 'advisory'; advisory: Advisory | ChangelogEntry };

export function severityLevel(severity: Severity): SeverityLevel {
  return severity || 'none';
}

/**
 * The rows of an advisory list, in the order given (the domain sorts by severity first);
 * with `grouped`, a heading row with the count before each severity.
 */
export function advisoryRows(advisories: readonly (Advisory | ChangelogEntry)[], grouped: boolean): AdvisoryRowData[] {
  const rows: AdvisoryRowData[] = [];
  const counts = new Map<SeverityLevel, number>();

  for (const advisory of advisories) {
    const level = severityLevel(advisory.severity);

    counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  let current: SeverityLevel | undefined;

  advisories.forEach((advisory, index) => {
    const level = severityLevel(advisory.severity);

    if (grouped && level !== current) {
      current = level;
      rows.push({
        key: `group:${ level }:${ index }`, kind: 'group', severity: level, count: counts.get(level) ?? 0
      });
    }
    // Ids are unique after aggregation, but a single log may repeat one.
    rows.push({
      key: `advisory:${ index }:${ advisory.id }`, kind: 'advisory', advisory
    });
  });

  return rows;
}

export interface CveLink {
  id: string;
  href: string;
}

/** SUSE's page for a CVE id (ids are validated by the domain: `CVE-YYYY-NNNN…`). */
export function suseCveUrl(id: string): string {
  return `https://www.suse.com/security/cve/${ encodeURIComponent(id) }/`;
}

/** An advisory's own http(s) links by CVE id (upper case); with `wanted`, only those ids' links are read. */
function ownCveHrefs(advisory: Advisory, wanted?: ReadonlySet<string>): Map<string, string> {
  const hrefs = new Map<string, string>();

  for (const reference of advisory.references) {
    const id = reference.id.trim().toUpperCase();
    const href = !wanted || wanted.has(id) ? safeHttpUrl(reference.href) : undefined;

    if (href) {
      hrefs.set(id, href);
    }
  }

  return hrefs;
}

/** An advisory's CVEs with a link each: the reference's own http(s) URL, else SUSE's CVE page. */
export function cveLinks(advisory: Advisory): CveLink[] {
  const hrefs = ownCveHrefs(advisory);

  return advisoryCves(advisory).map((id) => ({ id, href: hrefs.get(id) ?? suseCveUrl(id) }));
}

/**
 * The link of each of `ids` among these advisories' CVEs: as cveLinks gives it, from the last
 * advisory naming the CVE. Only the references of those ids are read (a compare's CVE list shows
 * 30 of thousands).
 */
export function cveHrefs(advisories: readonly Advisory[], ids: readonly string[]): Map<string, string> {
  const wanted = new Set(ids);
  const hrefs = new Map<string, string>();

  for (const advisory of advisories) {
    const cves = advisoryCves(advisory).filter((id) => wanted.has(id));

    if (cves.length) {
      const own = ownCveHrefs(advisory, wanted);

      cves.forEach((id) => hrefs.set(id, own.get(id) ?? suseCveUrl(id)));
    }
  }

  return hrefs;
}
