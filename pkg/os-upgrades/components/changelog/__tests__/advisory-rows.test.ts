import type { Advisory } from '../../../domain';
import { advisoryRows, cveHrefs, cveLinks } from '../advisory-rows';

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

describe('cveHrefs', () => {
  const cve = (id: string, href: string) => ({
    id, href, title: '', type: 'cve'
  });
  const advisories = [
    advisory('a', 'important', [cve('CVE-2024-0001', 'https://a.example/1'), cve('cve-2024-0002 ', 'https://a.example/2'), cve('CVE-2024-0003', 'https://a.example/3')]),
    advisory('b', 'low', [cve('CVE-2024-0001', 'javascript:alert(1)'), cve('CVE-2024-0004', 'https://b.example/4')]),
  ];

  it('gives each asked-for CVE the link cveLinks gives it, from the last advisory naming it', () => {
    const ids = ['CVE-2024-0001', 'CVE-2024-0002', 'CVE-2024-0004'];
    const fromLinks = new Map<string, string>();

    advisories.forEach((item) => cveLinks(item).forEach((link) => fromLinks.set(link.id, link.href)));
    const hrefs = cveHrefs(advisories, ids);

    expect([...hrefs.keys()].sort()).toEqual(ids);
    ids.forEach((id) => expect(hrefs.get(id)).toBe(fromLinks.get(id)));
    // b's unsafe link loses to SUSE's page, not to a's link.
    expect(hrefs.get('CVE-2024-0001')).toBe('https://www.suse.com/security/cve/CVE-2024-0001/');
    expect(hrefs.get('CVE-2024-0002')).toBe('https://a.example/2');
  });

  it('reads nothing for a CVE not asked for', () => {
    expect(cveHrefs(advisories, ['CVE-2024-0004']).has('CVE-2024-0003')).toBe(false);
  });
});
