import type { Advisory } from '../../../domain';
import { advisoryRows, cveLinks } from '../advisory-rows';

function advisory(id: string, severity: Advisory['severity'], references: Advisory['references'] = []): Advisory {
  return {
    id, severity, type: 'security', title: id, references, description: '', packages: []
  };
}

describe('advisoryRows', () => {
  it('puts a heading with the count before each severity', () => {
    const rows = advisoryRows([advisory('a', 'critical'), advisory('b', 'critical'), advisory('c', '')], true);

    expect(rows.map((row) => (row.kind === 'group' ? `${ row.severity }:${ row.count }` : row.advisory.id))).toEqual(['critical:2', 'a', 'b', 'none:1', 'c']);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it('keeps rows apart when a log repeats an id', () => {
    const rows = advisoryRows([advisory('a', 'low'), advisory('a', 'low')], false);

    expect(rows).toHaveLength(2);
    expect(rows[0].key).not.toBe(rows[1].key);
  });
});

describe('cveLinks', () => {
  it('links each CVE to its reference when that is http(s), else to the SUSE CVE page', () => {
    const links = cveLinks(advisory('a', 'important', [
      {
        id: 'CVE-2024-11053', href: 'https://www.suse.com/security/cve/CVE-2024-11053/', title: '', type: 'cve'
      },
      {
        id: 'CVE-2024-9681', href: 'javascript:alert(1)', title: '', type: 'cve'
      },
      {
        id: 'bsc#1234', href: 'https://bugzilla.suse.com/1234', title: '', type: 'bugzilla'
      },
    ]));

    expect(links).toEqual([
      { id: 'CVE-2024-11053', href: 'https://www.suse.com/security/cve/CVE-2024-11053/' },
      { id: 'CVE-2024-9681', href: 'https://www.suse.com/security/cve/CVE-2024-9681/' },
    ]);
  });
});
